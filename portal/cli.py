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
    from portal.core.calc import run_json
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


@main.command("params")
@click.option("--on", "on", default=None, metavar="YYYY-MM-DD",
              help="The day (default: today, from the portal's clock).")
def params_command(on: str | None) -> None:
    """Print the Board's and the statutes' parameters in force on a day, as JSON: who sets
    each, its value (or why there is none), its reference and when that was last checked."""
    import json
    from datetime import date

    from portal.core import params
    if on is None:
        from portal import clock
        day = clock.today()
    else:
        try:
            day = date.fromisoformat(on)
        except ValueError:
            click.echo(f"error: --on: {on!r} is not a date (YYYY-MM-DD)", err=True)
            sys.exit(2)
    rows = params.listing(day)
    out = {"on": day.isoformat(),
           "fiscal_year": params.fiscal_year_label(params.fiscal_year_start(day)),
           "parameters": rows}
    click.echo(json.dumps(out, ensure_ascii=False, indent=2, default=_json_value))


def _json_value(value: object) -> object:
    from datetime import date
    from decimal import Decimal
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple | frozenset):
        return list(value)
    raise TypeError(f"not JSON: {value!r}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
def serve(host: str, port: int) -> None:
    """Serve the web portal (a threaded server; in production run gunicorn on
    "portal.app:create_app()")."""
    from werkzeug.serving import run_simple

    from portal.app import QuietHandler, create_app
    app = create_app()
    click.echo(f"Portal: http://{host}:{port}/  (Ctrl+C to stop)")
    run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False,
               request_handler=QuietHandler)



# --- Data: migrations and the demo District ------------------------------------------------

@main.group()
def db() -> None:
    """The database schema, through the Alembic migrations (DATABASE_URL)."""


@db.command("upgrade")
@click.argument("revision", default="head")
def db_upgrade(revision: str) -> None:
    """Migrate the database up to REVISION (default: head)."""
    from portal import db as database

    database.upgrade(None, revision)
    click.echo(f"database at {database.current_revision(None) or 'base'}")


@db.command("downgrade")
@click.argument("revision", default="-1")
def db_downgrade(revision: str) -> None:
    """Migrate the database down to REVISION (default: one step; "base" empties it)."""
    from portal import db as database

    database.downgrade(None, revision)
    click.echo(f"database at {database.current_revision(None) or 'base'}")


@db.command("current")
def db_current() -> None:
    """Print the revision the database is at."""
    from portal import db as database

    click.echo(database.current_revision(None) or "base")


@main.command()
@click.option("--if-empty", is_flag=True, help="Load only into an empty database.")
@click.option("--parcels", "parcels_n", default=240, show_default=True, type=int,
              help="Parcels in the District (20000 for the benchmark).")
@click.option("--users", "users_n", default=4, show_default=True, type=int,
              help="Users (beyond the 4 demo sign-ins: generic owners).")
@click.option("--migrate/--no-migrate", default=True, show_default=True,
              help="Run the migrations first.")
def demo(if_empty: bool, parcels_n: int, users_n: int, migrate: bool) -> None:
    """Load the demo District (FY 2026-2027) and print its sign-ins and access codes."""
    from portal import db as database
    from portal.services import demo as demo_service
    from portal.services.errors import ServiceError

    if migrate:
        database.upgrade(None, "head")
    shown: set[str] = set()

    def progress(stage: str, done: int, total: int) -> None:
        if done == total and stage not in shown:
            shown.add(stage)
            click.echo(f"  {stage}: {total}", err=True)

    try:
        result = demo_service.load(database.get_database(), parcels_n=parcels_n,
                                   users_n=users_n, if_empty=if_empty, progress=progress)
    except ServiceError as exc:
        click.echo(f"demo: {exc.code} (use --if-empty to skip a loaded database)", err=True)
        sys.exit(1)
    if not result.loaded:
        click.echo("demo: the database is not empty; nothing loaded.")
        return
    click.echo(f"Demo loaded: {result.parcels} parcels, {result.users} users "
               f"in {result.seconds:.1f} s.")
    click.echo(f"Sign-ins (password: {result.password}):")
    for email, role in result.sign_ins:
        click.echo(f"  {role:<7} {email}")
    click.echo(f"Staff's second step: the code of any TOTP app with the secret "
               f"{result.staff_totp_secret}")
    click.echo("Unclaimed parcels to claim (catastro number, access code):")
    for catastro, code, address in result.codes:
        click.echo(f"  {catastro}  {code}  {address}")


@main.group()
def payments() -> None:
    """Payments: settle checkouts with the payment provider."""


@payments.command("reconcile")
@click.option("--limit", default=500, show_default=True, type=int,
              help="At most this many checkouts per run.")
def payments_reconcile(limit: int) -> None:
    """Settle checkouts still pending or processing by asking the payment provider (the same
    fulfilment as the webhook; safe to run any time), then email the receipts due."""
    from portal.app import create_app
    from portal.web.payments.commands import reconcile_command

    sys.exit(reconcile_command(create_app(), limit))


if __name__ == "__main__":  # pragma: no cover
    main()
