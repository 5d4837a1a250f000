"""What a moderator's write reads: its entry once before and, when rewritten, once after (bot.curation
.changes), each read of an incident a few statements whatever it holds (db.dataset.reader)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event
from sqlmodel import select

from bot.curation.changes import EntityKind
from bot.library import Library
from db.dataset import reader
from db.dataset.reader import stored_entry
from db.dataset.schema import IncidentEntry
from db.models import SHARED_GUILD, Incident
from db.session import Database
from tests.test_curation import MOD, renamed


@contextmanager
def statements(database: Database) -> Iterator[list[str]]:
    """The statements run on ``database`` while the block runs."""
    seen: list[str] = []

    def note(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        seen.append(statement)

    event.listen(database.engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(database.engine, "before_cursor_execute", note)


@pytest.fixture
def incident_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The slugs of the incidents read back from their rows, in order (the reader still reads them)."""
    read: list[str] = []
    read_incident = reader._incident_entry

    def noted(session: Any, incident: Incident, refs: reader.SlugsById) -> IncidentEntry:
        read.append(incident.slug)
        return read_incident(session, incident, refs)

    monkeypatch.setattr(reader, "_incident_entry", noted)
    return read


def edit_title(library: Library) -> None:
    incident = EntityKind.INCIDENT
    library.apply(actor=MOD, kind=incident, key="singh-2020", change=renamed(incident), summary="title")


def test_reading_a_stored_incident_takes_a_few_statements_however_many_rows_it_names(
    shipped_db: Database,
) -> None:
    with shipped_db.session() as session:
        incidents = list(session.exec(select(Incident).where(Incident.guild_id == SHARED_GUILD)))
        counted = []
        for incident in incidents:
            with statements(shipped_db) as run:
                entry = stored_entry(session, incident)
            assert isinstance(entry, IncidentEntry)
            named = {p.person for p in entry.participants} | set(entry.sources)
            counted.append((len(named), len(run)))

    assert max(names for names, _ in counted) > 10
    assert max(run for _, run in counted) <= 10  # its five tables, positions, four tables of references


def test_a_first_edit_of_a_shared_incident_reads_it_once_and_its_guild_copy_once(
    library: Library, incident_reads: list[str]
) -> None:
    edit_title(library)

    assert incident_reads == ["singh-2020", "singh-2020"]


def test_an_edit_of_the_guild_s_own_incident_reads_it_once_before_and_once_after(
    library: Library, incident_reads: list[str]
) -> None:
    edit_title(library)
    incident_reads.clear()

    library.apply(
        actor=MOD,
        kind=EntityKind.INCIDENT,
        key="singh-2020",
        change=lambda entry: entry.model_copy(update={"title": "Corrected again"}),
        summary="t",
    )

    assert incident_reads == ["singh-2020", "singh-2020"]
    edited = library.visible_entry(guild_id=MOD.guild_id, kind=EntityKind.INCIDENT, key="singh-2020")
    assert isinstance(edited, IncidentEntry)
    assert edited.title == "Corrected again"


def test_removing_restoring_and_undoing_read_the_guild_s_incident_once_each(
    library: Library, incident_reads: list[str]
) -> None:
    edit_title(library)
    reads = []
    for write in (
        lambda: library.remove(actor=MOD, kind=EntityKind.INCIDENT, key="singh-2020"),
        lambda: library.restore(actor=MOD, kind=EntityKind.INCIDENT, key="singh-2020"),
        lambda: library.undo(actor=MOD),
    ):
        incident_reads.clear()
        write()
        reads.append(len(incident_reads))

    assert reads == [1, 1, 1]
    assert library.visible_entry(guild_id=MOD.guild_id, kind=EntityKind.INCIDENT, key="singh-2020") is None
