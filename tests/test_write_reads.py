"""What a moderator's write reads and writes (bot.curation.changes): its entry once, before, each read of an
incident a few statements whatever it holds (db.dataset.reader); then, of the guild's own incident, only the
child tables that changed, the state audited after being what the rows read back as."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event
from sqlmodel import Session, select

from bot.curation import changes
from bot.curation.changes import EntityKind
from bot.library import Library
from db.dataset import reader
from db.dataset.reader import stored_entry
from db.dataset.rows import GuildView, own_row, row_id
from db.dataset.schema import IncidentEntry, References
from db.models import SHARED_GUILD, Incident, Participant, Person, Quote
from db.session import Database
from tests.test_curation import MOD, SUB_CHANGES, add_quote, edit_singh, renamed


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
    read_incident = reader._incident_of

    def noted(incident: Incident, children: reader.IncidentRows, refs: reader.SlugsById) -> IncidentEntry:
        read.append(incident.slug)
        return read_incident(incident, children, refs)

    monkeypatch.setattr(reader, "_incident_of", noted)
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


def test_an_entry_s_references_are_looked_up_in_one_statement_the_guild_s_own_rows_first(
    library: Library,
) -> None:
    library.apply(
        actor=MOD, kind=EntityKind.PERSON, key="jagmeet-singh", change=renamed(EntityKind.PERSON), summary="n"
    )
    wanted = References(
        chambers=["ca-house-of-commons"],
        parties=["green-party-of-canada"],
        people=["jagmeet-singh", "alain-therrien", "nobody-at-all"],
        sources=["singh-2020-cbc"],
    )

    with library.database.session() as session, statements(library.database) as run:
        view = GuildView(session, MOD.guild_id)
        known = view.known(wanted)
        own = own_id(session, Person, "jagmeet-singh")

    assert len(run) == 2  # the look-up, then the guild's own person
    assert set(known.people) == {"jagmeet-singh", "alain-therrien"}
    assert (set(known.chambers), set(known.parties), set(known.sources)) == (
        {"ca-house-of-commons"},
        {"green-party-of-canada"},
        {"singh-2020-cbc"},
    )
    assert view.person("jagmeet-singh") == own


def test_a_first_edit_of_a_shared_incident_reads_it_once(library: Library, incident_reads: list[str]) -> None:
    edit_title(library)

    assert incident_reads == ["singh-2020"]


def test_an_edit_of_the_guild_s_own_incident_reads_it_once(
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

    assert incident_reads == ["singh-2020"]
    edited = library.visible_entry(guild_id=MOD.guild_id, kind=EntityKind.INCIDENT, key="singh-2020")
    assert isinstance(edited, IncidentEntry)
    assert edited.title == "Corrected again"


@pytest.mark.parametrize("name", list(SUB_CHANGES))
def test_each_change_to_the_guild_s_own_incident_is_stored_and_audited_as_written(
    library: Library, name: str
) -> None:
    edit_title(library)
    own = library.visible_entry(guild_id=MOD.guild_id, kind=EntityKind.INCIDENT, key="singh-2020")
    assert isinstance(own, IncidentEntry)

    audit = edit_singh(library, SUB_CHANGES[name], summary=name)

    with library.database.session() as session:
        stored = changes.current_state(
            session, guild_id=MOD.guild_id, kind=EntityKind.INCIDENT, key="singh-2020"
        )
    assert stored == audit.after
    assert stored is not None
    assert stored["entry"] == changes.entry_state(SUB_CHANGES[name](own), removed=False)["entry"]


def child_writes(run: list[str]) -> set[str]:
    """The child tables of incidents that ``run``'s statements delete from or insert into."""
    written = set()
    for statement in run:
        words = statement.split()
        if words[:2] in (["DELETE", "FROM"], ["INSERT", "INTO"]) and words[2] in CHILD_TABLES:
            written.add(words[2])
    return written


CHILD_TABLES = {"incidentsource", "participant", "motion", "position", "quote", "ruling"}


def own_id(session: Session, table: type[Incident] | type[Person], slug: str) -> int:
    """The id of the guild's own row with ``slug``, which it must have."""
    row = own_row(session, table, slug, guild_id=MOD.guild_id)
    assert row is not None
    return row_id(row)


def quote_ids(library: Library) -> list[int | None]:
    with library.database.session() as session:
        incident = own_id(session, Incident, "singh-2020")
        return [quote.id for quote in session.exec(select(Quote).where(Quote.incident_id == incident))]


def test_a_title_edit_of_the_guild_s_own_incident_rewrites_none_of_its_child_rows(library: Library) -> None:
    edit_title(library)
    quotes = quote_ids(library)

    with statements(library.database) as run:
        edit_singh(library, lambda entry: entry.model_copy(update={"title": "Corrected again"}))

    assert child_writes(run) == set()
    assert quote_ids(library) == quotes


def test_a_quote_added_to_the_guild_s_own_incident_rewrites_its_quotes_alone(library: Library) -> None:
    edit_title(library)

    with statements(library.database) as run:
        add_quote(library)

    assert child_writes(run) == {"quote"}


def test_a_position_added_rewrites_the_motions_with_their_positions(library: Library) -> None:
    edit_title(library)

    with statements(library.database) as run:
        edit_singh(library, SUB_CHANGES["add position"])

    assert child_writes(run) == {"motion", "position"}


def test_an_edit_points_the_incident_at_the_guild_s_own_copy_of_a_person_made_since(library: Library) -> None:
    edit_title(library)
    library.apply(
        actor=MOD, kind=EntityKind.PERSON, key="jagmeet-singh", change=renamed(EntityKind.PERSON), summary="n"
    )

    edit_singh(library, lambda entry: entry.model_copy(update={"title": "Corrected again"}))

    with library.database.session() as session:
        own_person = own_id(session, Person, "jagmeet-singh")
        incident = own_id(session, Incident, "singh-2020")
        cast = session.exec(select(Participant.person_id).where(Participant.incident_id == incident)).all()
    assert own_person in cast


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
