"""The change log: every write to an entry is numbered in its own transaction, and another process's
``Library`` brings its index up to date from the counter (``catch_up``), through PostgreSQL's
LISTEN/NOTIFY while it listens, and from the counter after any notification it missed."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlmodel import col, select

from bot.change_feed import (
    PAYLOAD_MAX,
    ChangeListener,
    changes_since,
    conninfo,
    latest_change,
    payload,
    record_changes,
    record_seed,
)
from bot.cli import db_import
from bot.curation.changes import Actor
from bot.library import Library
from bot.search.index import DocumentKind
from bot.search.text import fold
from db.dataset.schema import Entry, IncidentEntry
from db.dataset.writer import BATCH
from db.models import SHARED_GUILD, AuditAction, EntityKind, EntryChange
from db.session import Database
from tests.discord_harness import database_url_of

GUILD = 1_000_000_000_000_001
MOD = Actor(GUILD, 501)
# A guard against a hang, not a speed assertion: every wait below is for something that happens.
GUARD_SECONDS = 30
on_postgresql = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def retitle(library: Library, slug: str, title: str, actor: Actor = MOD) -> None:
    """Give the actor's guild its own copy of incident ``slug``, titled ``title``."""

    def change(current: Entry | None) -> Entry:
        assert isinstance(current, IncidentEntry)
        return current.model_copy(update={"title": title})

    library.apply(
        actor=actor,
        kind=EntityKind.INCIDENT,
        key=slug,
        change=change,
        summary="retitled",
        action=AuditAction.EDIT,
    )


def titles(library: Library, query: str, guild_id: int | None = GUILD) -> list[str]:
    return [label for label, _key in library.complete("incident", query, guild_id=guild_id)]


@pytest.fixture
def writer(seeded_database: Database) -> Iterator[Library]:
    """One process's library: it writes."""
    opened = Library.open(database_url_of(seeded_database))
    yield opened
    opened.close()


@pytest.fixture
def reader(seeded_database: Database) -> Iterator[Library]:
    """Another process's library over the same database: it hears of the writer's changes."""
    opened = Library.open(database_url_of(seeded_database))
    yield opened
    opened.close()


def test_a_write_records_its_entry_under_the_next_change_number(writer: Library) -> None:
    with writer.database.session() as session:
        before = changes_since(session, 0)

    retitle(writer, "trudeau-1971", "Zanzibar quokka filibuster")

    with writer.database.session() as session:
        [change] = changes_since(session, before[-1].id if before else 0)
    assert (change.guild_id, change.kind, change.key) == (GUILD, EntityKind.INCIDENT, "trudeau-1971")


def test_changes_older_than_a_day_are_pruned_by_the_next_write(writer: Library) -> None:
    now = dt.datetime.now(dt.UTC)
    with writer.database.session() as session:
        record_changes(session, GUILD, {(EntityKind.PERSON, "old")}, now=now - dt.timedelta(days=2))
        record_changes(session, GUILD, {(EntityKind.PERSON, "new")}, now=now)
        session.commit()
        kept = session.exec(select(col(EntryChange.key)).order_by(col(EntryChange.id))).all()
    assert "old" not in kept
    assert kept[-1] == "new"


def test_changes_past_a_batch_are_all_recorded_in_order_and_numbered(writer: Library) -> None:
    keys = [f"p{number:05d}" for number in range(BATCH * 2 + 3)]
    with writer.database.session() as session:
        last = record_changes(session, GUILD, {(EntityKind.PERSON, key) for key in keys})
        session.commit()
        recorded = session.exec(
            select(EntryChange).where(col(EntryChange.key).in_(keys)).order_by(col(EntryChange.id))
        ).all()
    assert [change.key for change in recorded] == keys
    assert recorded[-1].id == last


def test_the_notification_names_the_keys_when_they_fit_and_only_the_change_when_not() -> None:
    few = {(EntityKind.INCIDENT, "singh-2020")}
    many = {(EntityKind.INCIDENT, f"incident-number-{n}") for n in range(1000)}

    assert json.loads(payload(GUILD, 7, few)) == {
        "guild": GUILD,
        "change": 7,
        "keys": ["incident:singh-2020"],
    }
    assert json.loads(payload(GUILD, 8, many)) == {"guild": GUILD, "change": 8}
    assert len(payload(GUILD, 8, many).encode()) <= PAYLOAD_MAX


def test_catching_up_reindexes_another_process_s_write_in_a_loaded_guild(
    writer: Library, reader: Library
) -> None:
    assert titles(reader, "zanzibar quokka") == []  # the guild's first question loads its overlay

    retitle(writer, "trudeau-1971", "Zanzibar quokka filibuster")
    assert titles(reader, "zanzibar quokka") == []  # nothing heard yet
    reader.catch_up()

    assert titles(reader, "zanzibar quokka") == ["Zanzibar quokka filibuster (1971)"]


def test_catching_up_reindexes_another_process_s_write_to_the_shared_entries(
    writer: Library, reader: Library
) -> None:
    document = writer.export(guild_id=SHARED_GUILD).model_dump(mode="json")
    [incident] = [i for i in document["incidents"] if i["slug"] == "trudeau-1971"]
    incident["title"] = "Zanzibar quokka filibuster"
    writer.import_dataset(document, actor=Actor(SHARED_GUILD, 0))  # as `parlbot db import` does
    reader.catch_up()

    assert titles(reader, "zanzibar quokka", guild_id=None) == ["Zanzibar quokka filibuster (1971)"]


def test_catching_up_leaves_an_unloaded_guild_to_load_fresh_at_its_first_question(
    writer: Library, reader: Library
) -> None:
    retitle(writer, "trudeau-1971", "Zanzibar quokka filibuster")
    seen = reader.catch_up()

    assert reader.index.guild_documents(GUILD) == []
    with reader.database.session() as session:
        assert seen == latest_change(session)
    assert titles(reader, "zanzibar quokka") == ["Zanzibar quokka filibuster (1971)"]


def test_a_command_line_import_reaches_a_running_library(
    writer: Library, reader: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = writer.export(guild_id=SHARED_GUILD).model_dump(mode="json")
    [incident] = [i for i in document["incidents"] if i["slug"] == "trudeau-1971"]
    incident["title"] = "Zanzibar quokka filibuster"
    dataset = tmp_path / "dataset.json"
    dataset.write_text(json.dumps(document), encoding="utf-8")
    assert titles(reader, "zanzibar quokka") == []  # the guild's overlay, loaded before the import

    assert db_import(writer.database, dataset, guild=GUILD, dry_run=False) == 0
    reader.catch_up()

    assert "Imported into guild" in capsys.readouterr().out
    assert titles(reader, "zanzibar quokka") == ["Zanzibar quokka filibuster (1971)"]


def test_a_seed_of_a_newer_shipped_dataset_reaches_a_running_library(
    writer: Library, reader: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    """``parlbot db seed`` (or a newer release's first start) loads the shipped entries over the shared
    ones: the processes already running re-index them."""
    document = writer.export(guild_id=SHARED_GUILD).model_dump(mode="json")
    [incident] = [i for i in document["incidents"] if i["slug"] == "trudeau-1971"]
    incident["title"] = "Zanzibar quokka filibuster"
    document["dataset_version"] = "2000.1.1"  # an earlier release than the one shipped
    writer.import_dataset(document, actor=Actor(SHARED_GUILD, 0))
    reader.catch_up()
    assert titles(reader, "zanzibar quokka", guild_id=None) == ["Zanzibar quokka filibuster (1971)"]

    assert writer.database.ensure_ready(loaded=record_seed) is True
    reader.catch_up()

    assert titles(reader, "zanzibar quokka", guild_id=None) == []
    assert titles(reader, "fuddle duddle", guild_id=None)[0].startswith('"Fuddle duddle"')


def shows_incident(library: Library, person: str, title: str) -> bool:
    """Whether the guild's document of ``person`` is searched on ``title`` (their incidents' titles)."""
    assert library.index.get(DocumentKind.PERSON, person, GUILD) is not None
    return fold(title) in library.index.texts(DocumentKind.PERSON, person, GUILD)


@pytest.fixture
def cast_document(writer: Library, reader: Library) -> dict[str, Any]:
    """The guild's copy of the shared entries with Jane Doe taking part in singh-2020, imported by the
    writer and heard of by the reader (which has the guild loaded)."""
    document: dict[str, Any] = writer.export(guild_id=SHARED_GUILD).model_dump(mode="json")
    document["people"].append({"slug": "jane-doe", "name": "Jane Doe"})
    [singh] = [i for i in document["incidents"] if i["slug"] == "singh-2020"]
    singh["participants"].append({"person": "jane-doe", "role": "Whip"})
    writer.import_dataset(document, actor=MOD)
    reader.load_overlay(GUILD)
    reader.catch_up()  # so that the next catch-up hears of the test's own write only
    assert shows_incident(reader, "jane-doe", singh["title"])
    return document


def test_catching_up_reindexes_the_people_another_process_s_edit_took_out_of_an_incident(
    writer: Library, reader: Library, cast_document: dict[str, Any]
) -> None:
    def without_jane(current: Entry | None) -> Entry:
        assert isinstance(current, IncidentEntry)
        cast = [p for p in current.participants if p.person != "jane-doe"]
        return current.model_copy(update={"participants": cast})

    writer.apply(actor=MOD, kind=EntityKind.INCIDENT, key="singh-2020", change=without_jane, summary="cast")
    reader.catch_up()

    [singh] = [i for i in cast_document["incidents"] if i["slug"] == "singh-2020"]
    assert not shows_incident(reader, "jane-doe", singh["title"])


def test_catching_up_reindexes_the_people_another_process_s_import_took_out_of_an_incident(
    writer: Library, reader: Library, cast_document: dict[str, Any]
) -> None:
    [singh] = [i for i in cast_document["incidents"] if i["slug"] == "singh-2020"]
    singh["participants"].pop()

    writer.import_dataset(cast_document, actor=MOD)
    reader.catch_up()

    assert not shows_incident(reader, "jane-doe", singh["title"])


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_on_sqlite_a_library_has_no_other_process_to_listen_to(reader: Library) -> None:
    assert reader.listen() is None


# -- LISTEN/NOTIFY (PostgreSQL) --------------------------------------------------------------------


def wait_for_title(library: Library, query: str, title: str) -> None:
    """Wait (at most the guard) until ``title`` is offered for ``query``."""
    ready = threading.Event()
    deadline = threading.Timer(GUARD_SECONDS, ready.set)
    deadline.start()
    try:
        while not ready.is_set() and title not in titles(library, query):
            ready.wait(0.01)
    finally:
        deadline.cancel()
    assert title in titles(library, query)


@on_postgresql
def test_a_listening_library_hears_another_process_s_write(writer: Library, reader: Library) -> None:
    assert titles(reader, "zanzibar quokka") == []
    listener = reader.listen()
    assert listener is not None
    assert listener.listening.wait(GUARD_SECONDS)

    retitle(writer, "trudeau-1971", "Zanzibar quokka filibuster")

    wait_for_title(reader, "zanzibar quokka", "Zanzibar quokka filibuster (1971)")


@on_postgresql
def test_a_listener_started_after_a_write_catches_up_from_the_counter(
    writer: Library, reader: Library
) -> None:
    assert titles(reader, "zanzibar quokka") == []
    retitle(writer, "trudeau-1971", "Zanzibar quokka filibuster")  # its notification reaches no one

    listener = reader.listen()
    assert listener is not None
    assert listener.listening.wait(GUARD_SECONDS)  # set once connected and caught up

    assert titles(reader, "zanzibar quokka") == ["Zanzibar quokka filibuster (1971)"]


@on_postgresql
def test_a_listener_whose_connection_dropped_catches_up_after_reconnecting(
    writer: Library, reader: Library, seeded_database: Database
) -> None:
    assert titles(reader, "zanzibar quokka") == []
    dropped, resume = threading.Event(), threading.Event()

    def held(_seconds: float) -> Any:
        dropped.set()
        return resume.wait(GUARD_SECONDS)

    listener = ChangeListener(
        conninfo(reader.database.url), reader.catch_up, wait_seconds=0.1, pause=held
    ).start()
    try:
        assert listener.listening.wait(GUARD_SECONDS)
        admin = create_engine(seeded_database.url)
        with admin.connect() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": listener.backend_pid})
        admin.dispose()
        assert dropped.wait(GUARD_SECONDS)

        retitle(writer, "trudeau-1971", "Zanzibar quokka filibuster")  # while no one listens
        resume.set()

        wait_for_title(reader, "zanzibar quokka", "Zanzibar quokka filibuster (1971)")
        assert listener.connections == 2
    finally:
        resume.set()
        listener.stop()
