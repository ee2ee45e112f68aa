"""How the CLI fails: one red line and exit status 1; `uptake --debug` shows the traceback."""

from __future__ import annotations

import sys
from typing import NoReturn

import click
import typer
from typer.core import TyperGroup

from ...graph.redaction import redact_secrets
from ...loaders.input_error import InputError


class UserErrorsAsOneLine(TyperGroup):
    """Bad input ends in one line naming file, line and field, exit status 1; `--debug` shows why."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            if debugging():
                raise
            typer.secho(f"error: {redact_secrets(str(exc))}", fg=typer.colors.RED, err=True)
            raise typer.Exit(1) from None
        except OSError as exc:
            # requests' connection errors and timeouts are OSErrors; checked by module so that the
            # CLI does not import requests (0.1 s) at every start.
            if debugging() or not type(exc).__module__.startswith(("requests", "urllib3")):
                raise
            # A network failure is the environment's, not a bug: one line, the URL without secrets.
            typer.secho(f"error: network: {redact_secrets(str(exc))}", fg=typer.colors.RED, err=True)
            raise typer.Exit(1) from None


def debugging() -> bool:
    ctx = click.get_current_context(silent=True)
    return bool(ctx and ctx.find_root().params.get("debug"))


def fail(message: str) -> NoReturn:
    if debugging() and sys.exc_info()[1] is not None:
        raise  # fail() is called in an except block: --debug shows the error being handled
    typer.secho(f"error: {redact_secrets(message)}", fg=typer.colors.RED, err=True)
    raise typer.Exit(1)
