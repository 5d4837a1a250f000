"""``parlbot``: run the bot, sync its commands, ask it things offline, and manage the database.

    parlbot run                         connect to Discord (needs DISCORD_TOKEN); SIGTERM stops it gracefully
    parlbot sync [--guild ID]           publish the slash commands (a deliberate step)
    parlbot commands [--json]           what ``sync`` would publish, offline (no token, no network)
    parlbot ask [--json] [--moderator] [--roles ID,...] "/incident singh-2020"
    parlbot complete "/incident query:sin"
    parlbot console                     one bot, many lines: commands, press, submit, as (bot.console)
    parlbot lesson SLUG [-o FILE] [--guild ID]   an incident's lesson sheet (Markdown) to stdout or FILE
    parlbot db where | upgrade | seed
    parlbot db import FILE [--guild ID] [--dry-run]   all or nothing, with a plan and a progress bar
    parlbot db export FILE [--guild ID]
    parlbot db check FILE [--sources DIR]    structure, then (with DIR) every quote against its excerpts
    parlbot db backup FILE | restore FILE    SQLite's online backup API (PostgreSQL: pg_dump's commands)
    parlbot bench corpus --incidents N --seed S DIR   a synthetic dataset and labelled queries (bot.benchmark)
    parlbot bench search --dataset FILE --queries FILE [--json] [--database URL] [--baseline-queries K]

Settings come from the environment and ``.env`` (``Settings.from_env``). ``ask``, ``complete`` and
``console`` never talk to Discord: they run the real bot against the loopback Discord in
``bot.loopback``, and print what it sent through ``bot.transcript``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import discord
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from bot.change_feed import record_seed
from bot.client.bot import ParlBot, create_bot, point_at_endpoints
from bot.client.lifecycle import Unreachable, serve
from bot.curation import transfer
from bot.errors import ParlbotError
from bot.library import Library, commit_import
from bot.loopback.commandline import CommandLineError
from bot.loopback.console import add_member_arguments, run_console, snowflake
from bot.loopback.payloads import DEFAULT_GUILD_ID, DEFAULT_USER_ID
from bot.loopback.rest import RecordedRequest
from bot.loopback.session import OfflineSession, choices
from bot.loopback.transcript import check_answer, print_answer, report_rejections
from bot.memory import set_aside_live_objects
from bot.search.index import SearchIndex
from bot.settings import Settings, SettingsError
from db.backup import BackupRefused, backup, restore
from db.models import SHARED_GUILD
from db.session import Database, normalize_url

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 141  # what a shell reports for a process ended by SIGPIPE
RUN_RETRY_DELAYS: tuple[float, ...] = (1.0, 2.0, 4.0)  # seconds before each new `run` attempt
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)  # what stops `run` gracefully
# The gateway's close codes that end a session for good (Discord's documentation), in an operator's words.
GATEWAY_CLOSE_CODES = {
    4004: "authentication failed, check DISCORD_TOKEN",
    4010: "invalid shard, check SHARD_IDS and SHARD_COUNT",
    4011: "this bot is in too many servers for one connection, set SHARD_COUNT",
    4012: "invalid API version",
    4013: "invalid intents",
    4014: "disallowed intents, which this bot does not ask for",
}
CLI_ACTOR = 0  # the user id command-line imports are audited as

log = logging.getLogger(__name__)


class UsageError(Exception):
    """A problem with how parlbot was called; printed as ``parlbot: error: ...`` with exit code 2."""


# --- building and running the bot --------------------------------------------------------------


def build_bot(settings: Settings, library: Library) -> ParlBot:
    return create_bot(settings, library)


def _not_about_voice(record: logging.LogRecord) -> bool:
    """Drop discord.py's "PyNaCl/davey is not installed, voice will NOT be supported": no voice here."""
    return "voice will NOT be supported" not in record.getMessage()


def _setup_logging(settings: Settings) -> None:
    level = logging.getLevelNamesMapping().get(settings.log_level, logging.INFO)
    discord.utils.setup_logging(level=level)
    voice_warnings = logging.getLogger("discord.client")
    if _not_about_voice not in voice_warnings.filters:
        voice_warnings.addFilter(_not_about_voice)


def _require_token(settings: Settings) -> str:
    if not settings.discord_token:
        raise UsageError(
            "DISCORD_TOKEN is not set. Put it in the environment or in a .env file "
            "(DISCORD_TOKEN=...); `parlbot ask` answers offline without one."
        )
    return settings.discord_token


def refusal(error: discord.DiscordException) -> str | None:
    """What Discord's refusal to let the bot in means, in one line; None for any other error."""
    if isinstance(error, discord.LoginFailure):
        return "Discord refused DISCORD_TOKEN (401 Unauthorized); copy it again from the developer portal."
    if isinstance(error, discord.HTTPException):
        return f"Discord's API answered {error.status}: {error.text or 'no reason given'}"
    if isinstance(error, discord.ConnectionClosed):
        meaning = GATEWAY_CLOSE_CODES.get(error.code or 0, "see Discord's list of gateway close codes")
        return f"Discord's gateway closed the connection with code {error.code}: {meaning}."
    return None


async def run_retrying(settings: Settings, library: Library, token: str, stop: asyncio.Event) -> int:
    """Serve until ``stop``; when Discord cannot be reached, try again after each of ``RUN_RETRY_DELAYS``."""
    attempts = len(RUN_RETRY_DELAYS) + 1
    for attempt, delay in enumerate((*RUN_RETRY_DELAYS, None), start=1):
        try:
            await serve(build_bot(settings, library), token, stop, grace=settings.stop_grace_seconds)
            return EXIT_OK
        except Unreachable as error:
            reason = str(error)
        except discord.DiscordException as error:
            message = refusal(error)
            if message is None:
                raise
            print(f"parlbot: error: {message}", file=sys.stderr)
            return EXIT_FAILED
        if delay is None:
            print(f"parlbot: error: {reason}; gave up after {attempts} attempts.", file=sys.stderr)
            return EXIT_FAILED
        print(
            f"parlbot: {reason}; attempt {attempt} of {attempts}, retrying in {delay:g} s.", file=sys.stderr
        )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
        if stop.is_set():
            return EXIT_OK
    return EXIT_FAILED  # not reached: the last delay is None


async def serve_until_signalled(settings: Settings, library: Library, token: str) -> int:
    """``run_retrying``, stopped gracefully by SIGTERM or SIGINT."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def signalled(signum: signal.Signals) -> None:
        log.info("%s received: stopping", signum.name)
        stop.set()

    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, signalled, signum)
    try:
        return await run_retrying(settings, library, token, stop)
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)


def command_run(settings: Settings) -> int:
    token = _require_token(settings)
    _setup_logging(settings)
    point_at_endpoints(settings)
    library = Library.open(
        settings.database_url,
        snapshot=settings.index_snapshot,
        overlay_idle_seconds=settings.overlay_idle_seconds,
    )
    library.listen()  # other processes' writes, on PostgreSQL
    set_aside_live_objects()  # what opening built lives as long as the process: no collection walks it
    try:
        code = asyncio.run(serve_until_signalled(settings, library, token))
    except KeyboardInterrupt:  # before the event loop took the signals over
        code = EXIT_OK
    finally:
        library.close()
    if code == EXIT_OK:
        log.info("Stopped cleanly: the Discord connection and the database are closed.")
    return code


async def _sync(settings: Settings, library: Library, token: str, out: TextIO) -> None:
    async with build_bot(settings, library) as bot:
        await bot.login(token)
        synced = await bot.sync_commands()
    where = f"guild {settings.sync_guild_id}" if settings.sync_guild_id else "all guilds (global)"
    print(f"Synced {len(synced)} commands to {where}: {', '.join('/' + c.name for c in synced)}", file=out)


def command_sync(settings: Settings, guild: int | None) -> int:
    token = _require_token(settings)
    _setup_logging(settings)
    point_at_endpoints(settings)
    settings = dataclasses.replace(
        settings, sync_commands=False, sync_guild_id=guild if guild is not None else settings.sync_guild_id
    )
    library = Library.open(settings.database_url, snapshot=settings.index_snapshot)
    try:
        asyncio.run(_sync(settings, library, token, sys.stdout))
    finally:
        library.close()
    return EXIT_OK


async def command_payload(settings: Settings) -> list[dict[str, Any]]:
    """The JSON ``parlbot sync`` sends for the global commands (``CommandTree.sync``), built offline.

    The bot loads its extensions as ``setup_hook`` does, without logging in; its library is a migrated,
    empty in-memory SQLite (the quiz cog looks for open quizzes on load), since no cog builds its
    commands from the database.
    """
    database = Database("sqlite://")
    database.upgrade()
    library = Library(database, SearchIndex())
    try:
        async with build_bot(dataclasses.replace(settings, sync_commands=False), library) as bot:
            await bot.setup_hook()
            tree, translator = bot.tree, bot.tree.translator
            commands = tree.get_commands()
            if translator:
                return [await command.get_translated_payload(tree, translator) for command in commands]
            return [command.to_dict(tree) for command in commands]
    finally:
        library.close()


def command_commands(settings: Settings, *, as_json: bool) -> int:
    payload = asyncio.run(command_payload(settings))
    if as_json:
        print(json.dumps(payload, indent=2, sort_keys=False, ensure_ascii=False))
        return EXIT_OK
    subcommand = discord.AppCommandOptionType.subcommand.value
    for command in payload:
        subcommands = [option for option in command.get("options", []) if option["type"] == subcommand]
        for sub in subcommands or [command]:
            name = command["name"] if sub is command else f"{command['name']} {sub['name']}"
            print(f"/{name} — {sub['description']}")
    return EXIT_OK


# --- offline questions ---------------------------------------------------------------------------


def _offline_session(settings: Settings, library: Library, args: argparse.Namespace) -> OfflineSession:
    """The bot in a loopback session, asked by the member the arguments describe."""
    # Offline answers never publish commands, whatever SYNC_COMMANDS says.
    bot = build_bot(dataclasses.replace(settings, sync_commands=False), library)
    return OfflineSession(
        bot,
        guild_id=args.guild,
        user_id=args.user,
        locale=args.locale,
        moderator=args.moderator,
        roles=args.roles,
    )


async def _offline(
    settings: Settings, args: argparse.Namespace, *, autocomplete: bool
) -> list[RecordedRequest]:
    library = Library.open(settings.database_url, snapshot=settings.index_snapshot)
    try:
        async with _offline_session(settings, library, args) as session:
            if autocomplete:
                return await session.complete(args.command)
            return await session.invoke(args.command)
    finally:
        library.close()


def command_ask(settings: Settings, args: argparse.Namespace) -> int:
    requests = asyncio.run(_offline(settings, args, autocomplete=False))
    print_answer(requests, sys.stdout, json_lines=args.json)
    return EXIT_OK if check_answer(requests, sys.stderr) else EXIT_FAILED


def command_complete(settings: Settings, args: argparse.Namespace) -> int:
    requests = asyncio.run(_offline(settings, args, autocomplete=True))
    callback = next((r for r in requests if r.route == "callback"), None)
    if callback is None:
        print("parlbot: the bot offered no suggestions (no autocomplete answer).", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps(callback.body, ensure_ascii=False))
    else:
        for choice in choices(requests):
            print(f"{choice['name']} -> {choice['value']}")
    return EXIT_FAILED if report_rejections(requests, sys.stderr) else EXIT_OK


def command_console(settings: Settings, args: argparse.Namespace) -> int:
    library = Library.open(settings.database_url, snapshot=settings.index_snapshot)
    try:
        session = _offline_session(settings, library, args)
        run_console(session, sys.stdin, out=sys.stdout, err=sys.stderr, json_lines=args.json)
    finally:
        library.close()
    return EXIT_OK


# --- the database ----------------------------------------------------------------------------


class ProgressBar:
    """``[#####     ] 12/40`` on ``stream``, redrawn in place on a terminal; ``finish`` always prints it."""

    WIDTH = 30

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.done = self.total = 0

    def line(self) -> str:
        filled = self.WIDTH * self.done // self.total if self.total else self.WIDTH
        return f"[{'#' * filled}{' ' * (self.WIDTH - filled)}] {self.done}/{self.total}"

    def update(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self.live:
            self.stream.write("\r" + self.line())
            self.stream.flush()

    def finish(self) -> None:
        if self.total:
            self.stream.write(("\r" if self.live else "") + self.line() + "\n")
            self.stream.flush()


def _scope_name(guild: int) -> str:
    return "the shared dataset" if guild == SHARED_GUILD else f"guild {guild}"


def db_import(database: Database, path: Path, *, guild: int, dry_run: bool) -> int:
    """``parlbot db import``: print the plan, then write it all in one transaction (unless ``dry_run``).
    The plan printed is the one the write carries out, made once inside that transaction."""
    try:
        document = transfer.decode(path.read_bytes(), str(path))
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    except transfer.UnreadableFile as error:
        raise UsageError(error.message) from None
    database.ensure_ready(loaded=record_seed)
    shown: list[transfer.ImportPlan] = []

    def show(plan: transfer.ImportPlan) -> None:
        print(f"Importing {path} into {_scope_name(guild)}:\n{transfer.plan_table(plan)}")
        shown.append(plan)

    bar = ProgressBar(sys.stderr)
    try:
        with database.session() as session:
            if dry_run:
                show(plan := transfer.plan_import(session, document, guild_id=guild, consume=True))
                if plan.rejected:
                    raise plan.refused()
                print(f"Dry run: nothing was written ({plan.summary}).")
                return EXIT_OK
            plan = commit_import(
                database,
                session,
                document,
                guild_id=guild,
                actor_id=CLI_ACTOR,
                progress=bar.update,
                on_plan=show,
                consume=True,
            )
    except transfer.UnreadableFile as error:
        raise UsageError(error.message) from None
    except (ParlbotError, SQLAlchemyError) as error:
        if shown and shown[0].rejected:  # refused before anything was written
            print(f"parlbot: {shown[0].refusal()}", file=sys.stderr)
            return EXIT_FAILED
        bar.finish()
        reason = error.message if isinstance(error, ParlbotError) else str(error)
        print(f"parlbot: nothing was imported (rolled back): {reason}", file=sys.stderr)
        return EXIT_FAILED
    bar.finish()
    print(f"Imported into {_scope_name(guild)}: {plan.summary}.")
    return EXIT_OK


def database_location(url: str) -> str:
    """Where the database is: a SQLite file's path, or the URL without its password."""
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return str(Path(str(parsed.database)).resolve())
    return parsed.render_as_string(hide_password=True)


def db_check(path: Path, sources: Path | None) -> int:
    """``parlbot db check``: each problem of a dataset file on a line; exit 1 when there is one."""
    from db.dataset.provenance import check_file

    if not path.is_file():
        raise UsageError(f"cannot read {path}: no such file")
    if sources is not None and not sources.is_dir():
        raise UsageError(f"--sources {sources} is not a folder")
    problems = check_file(path, sources)
    for problem in problems:
        print(problem)
    checked = "structure only (no --sources)" if sources is None else f"structure and provenance ({sources})"
    if problems:
        print(f"parlbot: {path}: {len(problems)} problem(s); checked {checked}.", file=sys.stderr)
        return EXIT_FAILED
    print(f"{path} holds: checked {checked}.")
    return EXIT_OK


def postgresql_tools(url: str) -> str:
    """What to run instead of ``db backup`` and ``db restore`` on PostgreSQL: its own tools."""
    parsed = normalize_url(url)
    address = URL.create("postgresql", parsed.username, None, parsed.host, parsed.port, parsed.database)
    quoted = f"'{address.render_as_string(hide_password=False)}'"
    return (
        "parlbot: db backup and db restore work on SQLite; back up PostgreSQL with its own tools.\n"
        f"  back up, while the bot runs:   pg_dump --format=custom --file=FILE {quoted}\n"
        f"  restore, with the bot stopped: pg_restore --clean --if-exists --no-owner --dbname={quoted} FILE\n"
        "  then, for a backup from an earlier release: parlbot db upgrade\n"
        "  (the password comes from PGPASSWORD or ~/.pgpass)"
    )


def db_backup(settings: Settings, path: Path) -> int:
    """``parlbot db backup``: a whole copy of the SQLite database, taken while the bot may run."""
    database = Database(settings.database_url)
    try:
        backup(database, path)
    except BackupRefused as error:
        raise UsageError(str(error)) from None
    finally:
        database.dispose()
    print(f"Backed up {database_location(settings.database_url)} to {path}.")
    return EXIT_OK


def db_restore(settings: Settings, path: Path) -> int:
    """``parlbot db restore``: the SQLite database replaced by a checked backup, migrated to head."""
    database = Database(settings.database_url)
    try:
        was = restore(path, database)
        now = database.current_revision()
    except BackupRefused as error:
        raise UsageError(str(error)) from None
    finally:
        database.dispose()
    migrated = f"revision {was}" if was == now else f"revision {was}, migrated to {now}"
    print(f"Restored {path} into {database_location(settings.database_url)} ({migrated}).")
    return EXIT_OK


def command_db(settings: Settings, args: argparse.Namespace) -> int:
    from db.dataset.files import write_dataset
    from db.dataset.reader import export_dataset

    if args.db_command == "where":
        print(database_location(settings.database_url))
        return EXIT_OK
    if args.db_command == "check":
        return db_check(Path(args.file), None if args.sources is None else Path(args.sources))
    if args.db_command in ("backup", "restore"):
        if normalize_url(settings.database_url).get_backend_name() != "sqlite":
            print(postgresql_tools(settings.database_url), file=sys.stderr)
            return EXIT_FAILED
        copy = db_backup if args.db_command == "backup" else db_restore
        return copy(settings, Path(args.file))
    database = Database(settings.database_url)
    guild = args.guild if getattr(args, "guild", None) is not None else SHARED_GUILD
    try:
        if args.db_command == "upgrade":
            database.upgrade()
            print(f"{database!r} is at revision {database.current_revision()}.")
        elif args.db_command == "seed":
            database.upgrade()
            report = database.seed(record_seed)
            print(f"Seeded {database!r}: {report}")
        elif args.db_command == "import":
            return db_import(database, Path(args.file), guild=guild, dry_run=args.dry_run)
        else:
            database.ensure_ready(loaded=record_seed)
            with database.session() as session:
                dataset = export_dataset(session, guild_id=guild)
            path = Path(args.file)
            write_dataset(dataset, path)
            print(f"Exported {_scope_name(guild)} ({len(dataset.incidents)} incidents) to {path}.")
    finally:
        database.dispose()
    return EXIT_OK


def command_lesson(settings: Settings, args: argparse.Namespace) -> int:
    """The lesson sheet ``/lesson`` attaches, printed (or written to ``-o FILE``)."""
    library = Library.open(settings.database_url, snapshot=settings.index_snapshot)
    try:
        sheet = library.lesson(args.incident, guild_id=args.guild)
    except ParlbotError as error:
        print(f"parlbot: {error.message}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        library.close()
    if args.output is None:
        sys.stdout.write(sheet.text)
    else:
        Path(args.output).write_text(sheet.text, encoding="utf-8")
        print(f"Wrote {args.output}: {sheet.title}.")
    return EXIT_OK


# --- benchmarks ----------------------------------------------------------------------------


def command_bench(args: argparse.Namespace) -> int:
    """``parlbot bench corpus`` and ``parlbot bench search`` (``bot.benchmark``, docs/benchmarks.md)."""
    from bot.benchmark.corpus import write_corpus
    from bot.benchmark.measure import BenchError, benchmark
    from bot.benchmark.queries import QueryFileError, read_queries
    from bot.benchmark.table import table

    if args.bench_command == "corpus":
        started = time.perf_counter()
        incidents, written = write_corpus(Path(args.directory), incidents=args.incidents, seed=args.seed)
        print(
            f"Wrote {incidents} incidents and {written} queries to {args.directory} "
            f"in {time.perf_counter() - started:.1f} s."
        )
        return EXIT_OK
    dataset = Path(args.dataset)
    if not dataset.is_file():
        raise UsageError(f"cannot read {dataset}: no such file")
    try:
        queries = read_queries(Path(args.queries))
    except QueryFileError as error:
        raise UsageError(str(error)) from None
    try:
        report = benchmark(
            dataset, queries, database=args.database, baseline_queries=args.baseline_queries, stage=_stage
        )
    except BenchError as error:
        print(f"parlbot: error: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(
        json.dumps(report, ensure_ascii=False) if args.json else table(report), end="\n" if args.json else ""
    )
    return EXIT_OK


def _stage(what: str) -> None:
    """A long benchmark's steps, on a terminal only (so that a redirected run prints just its report)."""
    if sys.stderr.isatty():
        print(f"parlbot bench: {what} ...", file=sys.stderr, flush=True)


def positive(text: str) -> int:
    """An argument that must be a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


# --- argument parsing ----------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlbot", description="A Discord bot that answers questions about parliamentary incidents."
    )
    commands = parser.add_subparsers(dest="cli_command", required=True, metavar="COMMAND")

    commands.add_parser("run", help="connect to Discord and answer (needs DISCORD_TOKEN)")

    sync = commands.add_parser("sync", help="publish the slash commands to Discord")
    sync.add_argument("--guild", type=snowflake, help="sync to one guild (instant) instead of globally")
    listed = commands.add_parser("commands", help="list the slash commands sync would publish (offline)")
    listed.add_argument("--json", action="store_true", help="print exactly the JSON sync would send")

    for name, help_text in (
        ("ask", "answer one slash command offline, e.g. parlbot ask '/incident singh-2020'"),
        ("complete", "show the autocomplete suggestions for the last option of a command"),
        ("console", "one offline bot, driven a line at a time from standard input (type help)"),
    ):
        offline = commands.add_parser(name, help=help_text)
        if name != "console":
            offline.add_argument("command", metavar="COMMAND", help="a slash command as typed in Discord")
        offline.add_argument("--json", action="store_true", help="print the raw JSON discord.py sent")
        offline.add_argument("--guild", type=snowflake, default=DEFAULT_GUILD_ID, help="guild id to ask in")
        offline.add_argument("--user", type=snowflake, default=DEFAULT_USER_ID, help="user id asking")
        offline.add_argument(
            "--locale",
            default="en-US",
            help="the asker's Discord locale: fr answers in French (default en-US)",
        )
        add_member_arguments(offline)

    lesson = commands.add_parser(
        "lesson", help="print an incident's lesson sheet (Markdown), as /lesson attaches"
    )
    lesson.add_argument(
        "incident", metavar="SLUG", help="the incident: a slug such as singh-2020, or its name"
    )
    lesson.add_argument("-o", "--output", metavar="FILE", help="write the sheet to FILE instead of stdout")
    lesson.add_argument("--guild", type=snowflake, help="read as this guild sees the data (default: shared)")

    db = commands.add_parser("db", help="manage the database (DATABASE_URL)")
    db_commands = db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    db_commands.add_parser("where", help="print where the database is (DATABASE_URL, else the default file)")
    db_commands.add_parser("upgrade", help="run the migrations up to head")
    db_commands.add_parser("seed", help="load the shipped dataset (idempotent)")
    imported = db_commands.add_parser("import", help="load a dataset file into a guild, all or nothing")
    imported.add_argument("file", metavar="FILE")
    imported.add_argument("--guild", type=snowflake, help="the guild to import into (default: shared)")
    imported.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    export = db_commands.add_parser("export", help="write a guild's entries as a dataset file")
    export.add_argument("file", metavar="FILE")
    export.add_argument("--guild", type=snowflake, help="the guild whose entries to export (default: shared)")
    check = db_commands.add_parser("check", help="check a dataset file (with --sources, its quotes too)")
    check.add_argument("file", metavar="FILE")
    check.add_argument("--sources", metavar="DIR", help="the excerpt folder to check quotes against")
    backed_up = db_commands.add_parser(
        "backup", help="copy the SQLite database into FILE, safely while the bot runs"
    )
    backed_up.add_argument("file", metavar="FILE")
    restored = db_commands.add_parser(
        "restore", help="replace the SQLite database with the backup FILE (bot stopped), then migrate it"
    )
    restored.add_argument("file", metavar="FILE")
    _add_bench(commands)
    return parser


def _add_bench(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bench = commands.add_parser("bench", help="measure search on a dataset (docs/benchmarks.md)")
    bench_commands = bench.add_subparsers(dest="bench_command", required=True, metavar="ACTION")
    corpus = bench_commands.add_parser("corpus", help="write a synthetic dataset and labelled queries to DIR")
    corpus.add_argument("directory", metavar="DIR")
    corpus.add_argument("--incidents", type=positive, required=True, metavar="N", help="how many incidents")
    corpus.add_argument(
        "--seed", type=int, default=0, metavar="S", help="the same seed writes the same files"
    )
    search = bench_commands.add_parser(
        "search", help="import a dataset, then time and score queries against ours and a naive scan"
    )
    search.add_argument("--dataset", required=True, metavar="FILE", help="a dataset file (docs/DATASET.md)")
    search.add_argument("--queries", required=True, metavar="FILE", help="labelled queries, JSON lines")
    search.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    search.add_argument(
        "--database",
        metavar="URL",
        help="import into (or, if it holds the dataset already, use) this database",
    )
    search.add_argument(
        "--baseline-queries", type=positive, metavar="K", help="run the naive baseline on K sampled queries"
    )


def _dispatch(settings: Settings, args: argparse.Namespace) -> int:
    if args.cli_command == "run":
        return command_run(settings)
    if args.cli_command == "sync":
        return command_sync(settings, args.guild)
    if args.cli_command == "commands":
        return command_commands(settings, as_json=args.json)
    if args.cli_command == "ask":
        return command_ask(settings, args)
    if args.cli_command == "complete":
        return command_complete(settings, args)
    if args.cli_command == "console":
        return command_console(settings, args)
    if args.cli_command == "lesson":
        return command_lesson(settings, args)
    if args.cli_command == "bench":
        return command_bench(args)
    return command_db(settings, args)


def missing_driver(error: ImportError) -> str | None:
    """The one line for a PostgreSQL URL whose driver (psycopg) is not installed, else None."""
    if "psycopg" not in f"{error.name or ''} {error}":
        return None
    return (
        "DATABASE_URL is a PostgreSQL URL, but its driver (psycopg) is not installed; "
        'install the postgres extra: pip install -e ".[postgres]"'
    )


def _quiet_broken_pipe() -> int:
    """The reader of standard output went away (``parlbot ask ... | head -1``): end quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's last flush has somewhere to go
    os.close(devnull)
    return EXIT_BROKEN_PIPE


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = _dispatch(Settings.from_env(), args)
        sys.stdout.flush()  # a closed pipe shows up here, inside the handlers below
        return code
    except (UsageError, CommandLineError, SettingsError) as error:
        print(f"parlbot: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ImportError as error:
        message = missing_driver(error)
        if message is None:
            raise
        print(f"parlbot: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return _quiet_broken_pipe()


if __name__ == "__main__":
    raise SystemExit(main())
