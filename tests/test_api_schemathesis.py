"""Property-based run of schemathesis against the API's own OpenAPI document: no server errors,
responses as documented. Bounded: a few examples per operation, on a Ladybug store of the fixture graph."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from study_fixture import study_records
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.store import open_store

# The app opens its store on the first request, so the schema can be read now and the store filled below.
STORE = Path(tempfile.mkdtemp(prefix="uptake-schemathesis-")) / "graph.lbug"
# A short timeout keeps generated Cypher from running long; an admin key exercises the admin routes.
APP = create_app(str(STORE), ApiSettings(query_timeout=0.5, admin_api_key="schemathesis-key"))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def fixture_store():
    with open_store(str(STORE)) as store:
        store.init()
        store.write(study_records())
    yield
    APP.state.holder.close()
    shutil.rmtree(STORE.parent, ignore_errors=True)


# Starting loads would spawn processes per example; the admin tests cover that route.
@schema.exclude(path="/admin/loads", method="POST").parametrize()
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ]
    )
