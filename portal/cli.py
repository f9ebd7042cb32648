"""The `portal` command.

`portal calc NAME < input.json` is pure (it imports only the calculation core). The web
commands (serve, demo, db, translate, ...) import the Flask application when they run.
"""

from __future__ import annotations

import sys

import click

from portal.core.errors import CalcError


def _calc_help() -> str:
    from portal.core.calc import OPERATIONS
    width = max(len(n) for n in OPERATIONS)
    lines = [f"  {n.ljust(width)}  {summary}" for n, (_, summary) in OPERATIONS.items()]
    return "\b\nOperations (RULES.md section D):\n" + "\n".join(lines)


@click.group()
def main() -> None:
    """The taxpayer self-service portal for Puerto Rico property charges."""


@main.command(epilog=_calc_help())
@click.argument("name", required=False)
def calc(name: str | None) -> None:
    """Compute NAME from the JSON on standard input; print the result as JSON.

    Bad input exits with status 2 and one line naming the field.
    """
    from portal.core.calc import OPERATIONS, run_json
    if not name:
        click.echo(_calc_help().replace("\b\n", ""))
        sys.exit(2)
    try:
        text = sys.stdin.read()
        click.echo(run_json(name, text))
    except CalcError as exc:
        click.echo(f"error: {exc.one_line()}", err=True)
        sys.exit(2)
    except (ValueError, ArithmeticError, TypeError) as exc:
        click.echo(f"error: input: {exc}".replace("\n", " "), err=True)
        sys.exit(2)
    del OPERATIONS


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
def serve(host: str, port: int) -> None:
    """Serve the web portal (a threaded server; in production run gunicorn on
    "portal.app:create_app()")."""
    from werkzeug.serving import run_simple

    from portal.app import create_app
    app = create_app()
    click.echo(f"Portal: http://{host}:{port}/  (Ctrl+C to stop)")
    run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)


if __name__ == "__main__":  # pragma: no cover
    main()
