"""CLI commands for frameworks a user adds without code: `uptake framework add|list|remove`."""

from __future__ import annotations

from typing import Annotated

import typer

from .display import print_report, print_rows
from .options import FormatOption, StoreOption, read_catalog_or_fail


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""
    framework_app = typer.Typer(
        help="Frameworks beyond the shipped catalog, kept in a file beside the store.",
        no_args_is_help=True,
        pretty_exceptions_show_locals=False,
    )
    app.add_typer(framework_app, name="framework")

    @framework_app.command("add")
    def add(
        repo: Annotated[
            str, typer.Argument(metavar="OWNER/REPO", help="the GitHub repository, e.g. acme/rl")
        ],
        name: Annotated[str | None, typer.Option("--name", help="display name; default: the repo's")] = None,
        slug: Annotated[
            str | None, typer.Option("--slug", help="the framework's slug; default: the repo's name")
        ] = None,
        default_branch: Annotated[
            str | None,
            typer.Option("--default-branch", help="its default branch, kept as a fact; HEAD is mined"),
        ] = None,
        store: StoreOption = None,
    ) -> None:
        """Add a framework; `uptake load git --framework SLUG` and `uptake update` then mine it."""
        from ...loaders.user_frameworks import plan_addition
        from ...sync.frameworks import add_framework

        catalog = read_catalog_or_fail(fail, store)
        addition = plan_addition(catalog, repo, name=name, slug=slug, default_branch=default_branch)
        with connect(store) as s:
            print_report(add_framework(s, store, catalog, addition))
        if addition.change == "added":
            typer.echo(f"next: uptake load git --framework {addition.entry.slug} [--repo PATH]", err=True)

    @framework_app.command("list")
    def list_frameworks(store: StoreOption = None, format: FormatOption = "table") -> None:
        """Every framework: the shipped ones and the ones added to this store's catalog file."""
        from ...sync.frameworks import user_frameworks_path

        catalog = read_catalog_or_fail(fail, store)
        rows = [
            {
                "slug": f.slug,
                "name": f.name,
                "repo": f.repo,
                "default_branch": f.default_branch,
                "source": f.source,
            }
            for f in catalog.frameworks.values()
        ]
        print_rows(rows, format)
        typer.echo(f"added frameworks are kept in {user_frameworks_path(store)}", err=True)

    @framework_app.command("remove")
    def remove(
        framework: Annotated[str, typer.Argument(metavar="SLUG", help="a framework you added")],
        store: StoreOption = None,
    ) -> None:
        """Remove an added framework from the catalog file and the store, with all mined for it."""
        from ...loaders.user_frameworks import plan_removal
        from ...sync.frameworks import remove_framework

        catalog = read_catalog_or_fail(fail, store)
        entry = plan_removal(catalog, framework)
        with connect(store) as s:
            print_report(remove_framework(s, store, catalog, entry))
