"""The `portal` command.

`portal calc NAME < input.json` is pure (it imports only the calculation core). The web
commands (serve, demo, db, translate, ...) import the Flask application when they run;
`portal worker` runs the background jobs, `portal roll compute|publish` one in the
foreground with a progress bar; `portal payments reconcile` settles checkouts and emails the
receipts due without Flask (`portal.config.settings()`, `portal.documents.receipt`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

import click

from portal.core.errors import CalcError


def _calc_help() -> str:
    from portal.core.calc import OPERATIONS
    width = max(len(n) for n in OPERATIONS)
    lines = [f"  {n.ljust(width)}  {summary}" for n, (_, summary) in OPERATIONS.items()]
    return "\b\nOperations (docs/rules/D-calc-contract.md):\n" + "\n".join(lines)


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
@click.option("--recorded", is_flag=True,
              help="With the values and closed days staff recorded in the database.")
def params_command(on: str | None, recorded: bool = False) -> None:
    """Print the Board's and the statutes' parameters in force on a day, as JSON: who sets
    each, its value (or why there is none), its reference and when that was last checked;
    of the parameter files, or with `--recorded` as the portal uses them (the values and
    closed days recorded from the Board's resolutions on top)."""
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
    ps = params.ParameterSet.files()
    if recorded:
        from portal import clock
        from portal.accounts import in_force
        from portal.db import UnitOfWork
        with clock.fixed(day), UnitOfWork() as uow:
            ps = in_force.parameter_set(uow)
    rows = params.listing(day, ps.parameters)
    out = {"on": day.isoformat(),
           "fiscal_year": params.fiscal_year_label(params.fiscal_year_start(day)),
           "parameters": rows,
           "closed_days": [{"day": c.day, "reason_es": c.reason_es, "reason_en": c.reason_en,
                            "reference": c.reference} for c in ps.closed_days()]}
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
@click.option("--worker/--no-worker", default=False, show_default=True,
              help="Also run the background jobs' worker (`portal worker`) beside it.")
def serve(host: str, port: int, worker: bool) -> None:
    """Serve the web portal (a threaded server; in production run gunicorn on
    "portal.app:create_app()" and `portal worker` apart)."""
    import subprocess

    from werkzeug.serving import run_simple

    from portal.app import QuietHandler, create_app
    from portal.config import served_base_url
    base = served_base_url(host, port)  # the links and the payment's return follow the port
    app = create_app({"PORTAL_BASE_URL": base})
    child = None
    if worker:
        import signal

        child = subprocess.Popen([sys.executable, "-m", "portal.cli", "worker"],
                                 env={**os.environ, "PORTAL_BASE_URL": base})
        click.echo(f"Background jobs' worker: process {child.pid}")
        # SIGTERM ends the server as Ctrl-C does, so the worker is stopped with it.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    click.echo(f"Portal: http://{host}:{port}/  (Ctrl+C to stop)")
    try:
        run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False,
                   request_handler=QuietHandler)
    finally:
        if child is not None:  # Ctrl-C reaches both; the worker ends after its batch
            child.terminate()
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()


@main.command()
@click.option("--workers", default=1, show_default=True, type=int,
              help="Jobs run at the same time (threads).")
def worker(workers: int) -> None:
    """Run the background jobs (computing and publishing the roll, ...) until Ctrl-C: the
    queue is SQLite in the instance folder, or Redis when REDIS_URL is set."""
    import logging

    from portal import domains  # noqa: F401 - every job kind registered
    from portal.jobs import queue
    from portal.operations import settings as operations_settings

    try:  # production refuses to start on a bad setting, as the web app does
        operations_settings.check()
    except operations_settings.ConfigurationError as exc:
        raise click.ClickException(str(exc)) from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    # One line per job is ours; theirs are per task (huey) and per font subset (fontTools,
    # under the PDFs of the notices and letters).
    for name in ("huey", "huey.consumer", "fontTools"):
        logging.getLogger(name).setLevel(logging.WARNING)
    queue.worker(workers)


@main.command("daily")
@click.option("--on", "run_on", default=None, metavar="YYYY-MM-DD",
              help="The day (default: today, from the portal's clock).")
def daily_command(run_on: str | None) -> None:
    """Do the day's work now (reminders, autopay, demands: every task `portal.jobs.daily`
    holds). The worker does it each hour; each task is idempotent for its day, so running it
    again does nothing twice."""
    import logging
    from datetime import date

    from portal import clock, domains  # noqa: F401 - every daily task registered
    from portal.db import get_database
    from portal.jobs import daily

    try:
        day = date.fromisoformat(run_on) if run_on else clock.today()
    except ValueError:
        click.echo(f"error: --on: {run_on!r} is not a date (YYYY-MM-DD)", err=True)
        sys.exit(2)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    for name, counts in daily.run_all(get_database(), day).items():
        click.echo(f"{name}: {'failed (see the log)' if counts is None else dict(counts)}")


# --- The roll, in the foreground (the same jobs staff start from their pages) -------------

@main.group("roll")
def roll_group() -> None:
    """The assessment roll: compute and publish it with a progress bar (each run is a job,
    recorded and shown on the staff's jobs page like one started there)."""


def _run_job(kind: str, params: dict, staff_email: str) -> None:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from portal import db as database
    from portal import domains  # noqa: F401 - every job kind registered
    from portal.accounts.errors import ServiceError
    from portal.db import UnitOfWork
    from portal.jobs import runner
    from portal.people import users

    data = database.get_database()
    try:
        with UnitOfWork(data) as uow:
            staff = users.find_by_email(uow, staff_email)
            if staff is None or not staff.is_staff:
                click.echo(f"error: --staff: {staff_email!r} is no staff account", err=True)
                sys.exit(2)
            job_id = runner.submit(uow, staff, kind, params).id
    except ServiceError as exc:
        click.echo(f"error: {exc.code} {exc.params or ''}", err=True)
        sys.exit(1)
    columns = (TextColumn(f"job {job_id} {kind}"), BarColumn(), TaskProgressColumn(),
               MofNCompleteColumn(), TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(kind, total=None, rate="")

        def progress(done: int, total: int) -> None:
            elapsed = bar.tasks[0].elapsed or 0
            rate = f"{done / elapsed:,.0f}/s" if elapsed and done else ""
            bar.update(task, completed=done, total=total or None, rate=rate)

        job = runner.run(data, job_id, progress=progress)
    if job is None:
        click.echo(f"job {job_id} is running elsewhere (a worker has it)", err=True)
        sys.exit(1)
    if job.status != "succeeded":
        click.echo(f"job {job.id} failed: {job.error_code} {job.error_params or ''}", err=True)
        sys.exit(1)
    click.echo(f"job {job.id} {job.status}: {job.result}")
    if kind == "roll.publish":
        _say_notices(data, int(params["roll_id"]), staff_email)


def _say_notices(data, roll_id: int, staff_email: str) -> None:  # noqa: ANN001
    """After a publication: the notices' job it started (`roll_notices.start_after_publication`),
    which a worker runs (`portal worker`, or `make run`'s)."""
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.roll import notices

    with UnitOfWork(data) as uow:
        staff = users.find_by_email(uow, staff_email)
        found = notices.notify_jobs(uow, staff, [roll_id]).get(roll_id)
        if found is not None:
            click.echo(f"job {found.id} {found.kind} {found.status}: the notices and emails "
                       "of this publication (`portal worker` runs it)")


@roll_group.command("compute")
@click.argument("version_id", type=int)
@click.option("--staff", "staff_email", required=True, help="The staff account acting.")
def roll_compute(version_id: int, staff_email: str) -> None:
    """Compute the roll of an adopted budget version (R-A2, R-A3)."""
    _run_job("roll.compute", {"version_id": version_id}, staff_email)


@roll_group.command("publish")
@click.argument("roll_id", type=int)
@click.option("--staff", "staff_email", required=True, help="The staff account acting.")
@click.option("--notice-date", default=None, metavar="YYYY-MM-DD",
              help="The notices' date (default: today).")
def roll_publish(roll_id: int, staff_email: str, notice_date: str | None) -> None:
    """Publish a computed roll: assessments, installments, charges, notices (R-A4, R-A5).
    Publishing a published roll does nothing."""
    from datetime import date

    params: dict = {"roll_id": roll_id}
    if notice_date:
        try:
            params["notice_date"] = date.fromisoformat(notice_date).isoformat()
        except ValueError:
            click.echo(f"error: --notice-date: {notice_date!r} is not a date (YYYY-MM-DD)",
                       err=True)
            sys.exit(2)
    _run_job("roll.publish", params, staff_email)


@roll_group.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, readable=True))
@click.option("--staff", "staff_email", required=True, help="The staff account acting.")
@click.option("--dry-run", is_flag=True,
              help="Check the whole file and count what it would change; write nothing.")
def roll_import_file(path: str, staff_email: str, dry_run: bool) -> None:
    """Import the parcel roll from a CSV file (docs/ROLL_IMPORT.md): checked in full first
    (each refused row listed), then written in batches only if no row has an error.
    Importing the same file again changes nothing. Exits 1 when the file has errors."""
    from pathlib import Path

    from portal import config
    from portal import db as database
    from portal.accounts.errors import ServiceError
    from portal.db import UnitOfWork
    from portal.models import RollImport
    from portal.people import users
    from portal.roll import roll_import

    folder = Path(config.settings(with_key=False)["INSTANCE_PATH"]) / "roll_imports"
    data = database.get_database()
    try:
        with UnitOfWork(data) as uow:
            staff = users.find_by_email(uow, staff_email)
            if staff is None or not staff.is_staff:
                click.echo(f"error: --staff: {staff_email!r} is no staff account", err=True)
                sys.exit(2)
            import_id = roll_import.register_path(uow, staff, Path(path), folder).id
    except ServiceError as exc:
        click.echo(f"error: {exc.code} {exc.params or ''}", err=True)
        sys.exit(1)
    _run_job("roll.import", {"import_id": import_id, "dry_run": dry_run}, staff_email)
    with UnitOfWork(data) as uow:
        imp = uow.session.get(RollImport, import_id)
        staff = users.find_by_email(uow, staff_email)
        click.echo(f"import {imp.id}: {imp.status}; {imp.rows:,} rows, {imp.errors:,} errors; "
                   f"new {imp.new_count:,}, changed {imp.changed_count:,}, same "
                   f"{imp.same_count:,}, on the roll but not in the file {imp.removed_count:,}")
        if imp.file_error:
            click.echo(f"the file: {imp.file_error} {imp.file_error_params or ''}", err=True)
        for e in roll_import.errors_page(uow, staff, import_id, limit=20):
            click.echo(f"row {e.row_number}, {e.column_name or '-'}, {e.value!r}: {e.code} "
                       f"{e.figures or ''}", err=True)
        if imp.status == "invalid":
            sys.exit(1)



# --- Collections (J9), in the foreground ---------------------------------------------------

@main.group("collections")
def collections_group() -> None:
    """Collections: the delinquency run (R-A12, R-A17) with a progress bar, recorded as a job
    like one started from the staff's collections page."""


@collections_group.command("run")
@click.option("--staff", "staff_email", required=True, help="The staff account acting.")
@click.option("--on", "run_on", default=None, metavar="YYYY-MM-DD",
              help="The run's day (default: today); not a day to come.")
def collections_run(staff_email: str, run_on: str | None) -> None:
    """Queue a demand for every account delinquent after day G; running it again the same
    day creates nothing twice."""
    from datetime import date

    from portal import clock

    try:
        day = date.fromisoformat(run_on) if run_on else clock.today()
    except ValueError:
        click.echo(f"error: --on: {run_on!r} is not a date (YYYY-MM-DD)", err=True)
        sys.exit(2)
    _run_job("collections.run", {"run_on": day.isoformat()}, staff_email)


# --- Data: migrations and the demo District ------------------------------------------------

@main.group()
def db() -> None:
    """The database schema, through the Alembic migrations (DATABASE_URL)."""


@db.command("upgrade")
@click.argument("revision", default="head")
@click.option("--wait", "wait_seconds", default=600, show_default=True, type=int,
              help="PostgreSQL: seconds to wait for another upgrade running (advisory lock).")
@click.option("--lock-timeout", default="10s", show_default=True,
              help="PostgreSQL: the longest wait for a table's lock inside a migration.")
def db_upgrade(revision: str, wait_seconds: int = 600, lock_timeout: str = "10s") -> None:
    """Migrate the database up to REVISION (default: head); on PostgreSQL under an advisory
    lock, so two upgrades at once run one after the other."""
    from portal import db as database

    database.upgrade(None, revision, wait_seconds=wait_seconds, lock_timeout=lock_timeout)
    click.echo(f"database at {database.current_revision(None) or 'base'}")


@db.command("downgrade")
@click.argument("revision", default="-1")
def db_downgrade(revision: str) -> None:
    """Migrate the database down to REVISION (default: one step; "base" empties it)."""
    from portal import db as database

    database.downgrade(None, revision)
    click.echo(f"database at {database.current_revision(None) or 'base'}")


@main.group()
def files() -> None:
    """The file store (S3-compatible object storage: STORAGE_S3_ENDPOINT_URL, AWS_*)."""


@files.command("copy")
@click.argument("source")
@click.argument("dest")
@click.option("--prune", is_flag=True,
              help="Then delete from DEST every file SOURCE no longer holds (the backup keeps "
                   "no file the retention policy deleted).")
def files_copy(source: str, dest: str, prune: bool) -> None:
    """Copy every object of bucket SOURCE into bucket DEST (which must exist): the file
    store's backup, and its restore into a fresh bucket (docs/OPERATIONS.md)."""
    from portal import storage

    endpoint = os.environ.get("STORAGE_S3_ENDPOINT_URL")
    copied, skipped = storage.copy_bucket(source, dest, endpoint)
    click.echo(f"copied {copied} files from {source} to {dest} ({skipped} already there)")
    if prune:
        deleted = storage.prune_bucket(source, dest, endpoint)
        click.echo(f"deleted {deleted} files from {dest} that {source} no longer holds")


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
@click.option("--codes", "codes_only", is_flag=True,
              help="Load nothing: print the unclaimed parcels' access codes again (new codes: "
                   "only a code's hash is kept, so the earlier ones stop working).")
def demo(if_empty: bool, parcels_n: int, users_n: int, migrate: bool, codes_only: bool
         ) -> None:
    """Load the demo District (the fiscal year of today, its dates placed from today) and
    print its sign-ins and access codes."""
    from portal import db as database
    from portal import domains  # noqa: F401 - the demo queues demands: their letters' renderer
    from portal.accounts.errors import ServiceError
    from portal.demo import district as demo_service

    if migrate:
        database.upgrade(None, "head")
    if codes_only:
        from portal.demo import codes
        again = codes.reissue(database.get_database())
        if not again:
            click.echo("demo: no unclaimed parcel has an access code (load the demo first).")
            return
        click.echo("Unclaimed parcels to claim (catastro number, new access code):")
        for catastro, code, address in again:
            click.echo(f"  {catastro}  {code}  {address}")
        return
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
    from portal import config

    sys.exit(reconcile_command(config.settings(with_key=False), limit))


def reconcile_command(settings: Mapping[str, Any], limit: int = 500) -> int:
    """`portal payments reconcile` with `settings` (`portal.config.settings()`: the database,
    the gateway's and the mail's settings, PORTAL_BASE_URL for the receipts' links). No
    Flask: the gateway is `payments.gateway_settings`', the receipts `documents.receipt`'s.
    1 when the provider could not be asked about a checkout, else 0."""
    from portal.db import get_database
    from portal.documents import receipt
    from portal.payments import gateway_settings
    from portal.payments.reconcile import reconcile

    data = get_database(settings["DATABASE_URL"])
    gw = gateway_settings.gateway(settings, data)
    report = reconcile(data, gw, limit=limit)
    click.echo(f"reconcile ({gw.name}): {report.summary()}")
    for line in report.errors:
        click.echo(f"  {line}", err=True)
    sent = receipt.send_due(data, settings)  # queued in the outbox, then sent at once
    if sent:
        click.echo(f"receipts emailed: {sent}")
    from portal import outbox
    counts = outbox.send_all(data, settings)
    if counts["retry"] or counts["failed"]:
        click.echo("mail not sent yet: {retry} to retry, {failed} failed (the worker "
                   "retries; staff see the queue)".format(**counts), err=True)
    return 1 if report.errors else 0


@main.group()
def lenders() -> None:
    """Mortgage lenders (J7)."""


@lenders.command("figures")
def lenders_figures() -> None:
    """Compute today's figures of every lender's loans that are out of date and each lender's
    kept totals (the portfolio's filters and totals read them), lender by lender: the worker
    does it each hour (the day's work, `lenders.figures`), so the first page of the day costs
    what the others do."""
    from portal import clock
    from portal import db as database
    from portal.lenders import portfolio as lender_service

    done = lender_service.keep_day(database.get_database(), clock.today())
    click.echo(f"{done['loans']} loans computed for {done['lenders']} lenders; their totals "
               f"kept again for {done['totals']}.")


@main.group("staff-token")
def staff_token() -> None:
    """Staff API tokens: how the CRIM's system sends its file of plan payments (R-B16)."""


@staff_token.command("create")
@click.option("--staff", "email", required=True, help="The administrator or reviewer it acts as.")
@click.option("--name", required=True, help="What it is for (the system's name).")
@click.option("--days", type=click.Choice(["30", "90", "365"]), default="90", show_default=True)
def staff_token_create(email: str, name: str, days: str) -> None:
    """Create a token of scope plan_payments; its secret is printed once, never again."""
    from portal import db as database
    from portal.accounts.errors import InvalidInput, NotFound
    from portal.db import UnitOfWork
    from portal.exemptions import staff_tokens
    try:
        with UnitOfWork(database.get_database()) as uow:
            tok, secret = staff_tokens.create(uow, None, email, name, days=int(days))
            tid, expires = tok.id, tok.expires_at
    except NotFound:
        click.echo(f"error: --staff: {email!r} is not an administrator or reviewer", err=True)
        sys.exit(2)
    except InvalidInput as exc:
        click.echo(f"error: --{exc.code}: not valid", err=True)
        sys.exit(2)
    click.echo(f"token {tid}, expires {expires.isoformat()}:\n{secret}")


@staff_token.command("revoke")
@click.argument("token_id", type=int)
def staff_token_revoke(token_id: int) -> None:
    """Revoke a token at once."""
    from portal import db as database
    from portal.accounts.errors import NotFound
    from portal.db import UnitOfWork
    from portal.exemptions import staff_tokens
    try:
        with UnitOfWork(database.get_database()) as uow:
            staff_tokens.revoke(uow, None, token_id)
    except NotFound:
        click.echo(f"error: no token {token_id}", err=True)
        sys.exit(2)
    click.echo(f"token {token_id} revoked")


@staff_token.command("list")
def staff_token_list() -> None:
    """Every token: id, prefix, staff member, scope, expiry, revoked, last use."""
    from portal import db as database
    from portal.db import UnitOfWork
    from portal.exemptions import staff_tokens
    with UnitOfWork(database.get_database()) as uow:
        for tok, email in staff_tokens.listing(uow):
            click.echo(f"{tok.id}\t{tok.prefix}…\t{email}\t{tok.scope}\t"
                       f"{tok.expires_at.isoformat()}\t{tok.revoked_at or '-'}\t"
                       f"{tok.last_used_at or '-'}\t{tok.name}")


if __name__ == "__main__":  # pragma: no cover
    main()
