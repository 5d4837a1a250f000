"""``load_documents`` reads plain columns, and builds exactly the documents that loading the rows as ORM
objects built: on the shipped dataset and the generated one, with a guild's own entries, its copy of a
shared incident (in French too), its tombstones over shared entries and its removed entries."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from sqlmodel import Session, col, select

from bot.curation.changes import Actor, AuditAction, EntityKind, existing
from bot.library import Library
from bot.search import documents
from bot.search.documents import each_document, entry_documents, load_documents, referring_incidents
from bot.search.index import SHARED_GUILD, Document, DocumentKind
from db.dataset.files import dump_dataset
from db.dataset.schema import IncidentEntry, PersonEntry
from db.models import Chamber, Incident, Motion, Participant, Party, Person, Quote, Ruling, Term
from db.session import Database
from tests.generated_dataset import generated_dataset
from tests.test_write_reads import statements

GUILD = 2_000_000_000_000_021
MOD = Actor(GUILD, 503)


def orm_documents(session: Session, guild_id: int | None) -> list[Document]:
    """The documents as the loader built them from ORM objects (the oracle)."""

    def scoped(table: Any, *, removed: bool = False) -> list[Any]:
        removed_at = col(table.removed_at)
        statement = select(table).where(removed_at.is_not(None) if removed else removed_at.is_(None))
        statement = statement.order_by(col(table.id))  # incidents and their rows are read in order of ids
        if guild_id is not None:
            statement = statement.where(col(table.guild_id) == guild_id)
        return list(session.exec(statement))

    def referable(table: Any) -> dict[int, Any]:
        statement = select(table)
        if guild_id is not None:
            statement = statement.where(col(table.guild_id).in_({0, guild_id}))
        return {row.id: row for row in session.exec(statement)}

    def children(table: Any) -> list[Any]:
        statement = select(table).join(Incident, col(Incident.id) == col(table.incident_id))
        statement = statement.where(col(Incident.removed_at).is_(None)).order_by(col(table.id))
        if guild_id is not None:
            statement = statement.where(col(Incident.guild_id) == guild_id)
        return list(session.exec(statement))

    tombstones = [
        Document(kind=kind, key=row.slug, label=row.slug, guild_id=row.guild_id, removed=True)
        for kind, table in (
            (DocumentKind.INCIDENT, Incident),
            (DocumentKind.PERSON, Person),
            (DocumentKind.PARTY, Party),
            (DocumentKind.TERM, Term),
        )
        for row in scoped(table, removed=True)
        if row.guild_id != SHARED_GUILD
    ]
    parties, people = referable(Party), referable(Person)
    return (
        tombstones
        + [documents.term_document(term) for term in scoped(Term)]
        + list(
            documents.incident_documents(
                incidents=scoped(Incident),
                chambers=referable(Chamber),
                parties={i: p for i, p in parties.items() if p.removed_at is None},
                people={i: p for i, p in people.items() if p.removed_at is None},
                participants=children(Participant),
                quotes=children(Quote),
                rulings=children(Ruling),
                motions=children(Motion),
                guild_id=guild_id,
            )
        )
    )


@pytest.fixture
def overlaid(library: Library) -> Library:
    """The shipped dataset, the generated one imported into a guild, and the guild's overlays."""
    generated: dict[str, Any] = json.loads(dump_dataset(generated_dataset()))
    library.import_dataset(generated, actor=MOD)
    library.apply(
        actor=MOD,
        kind=EntityKind.INCIDENT,
        key="singh-2020",
        change=existing(
            IncidentEntry,
            lambda entry: entry.model_copy(update={"title_fr": "Singh expulsé (copie de la guilde)"}),
        ),
        summary="a French title in the guild",
    )
    library.remove(actor=MOD, kind=EntityKind.PERSON, key="jagmeet-singh")
    library.remove(actor=MOD, kind=EntityKind.INCIDENT, key=generated["incidents"][0]["slug"])
    return library


@pytest.mark.parametrize("guild_id", [None, GUILD, SHARED_GUILD])
def test_column_loading_builds_the_documents_orm_objects_built(
    overlaid: Library, guild_id: int | None
) -> None:
    with overlaid.database.session() as session:
        expected = orm_documents(session, guild_id)
        loaded = load_documents(session, guild_id=guild_id)

    assert loaded == expected
    assert any(doc.removed for doc in loaded) is (guild_id != SHARED_GUILD)
    assert any(doc.label_fr for doc in loaded)


@pytest.mark.parametrize("guild_id", [None, GUILD])
def test_documents_made_one_at_a_time_are_those_loaded_at_once(
    overlaid: Library, guild_id: int | None
) -> None:
    with overlaid.database.session() as session:
        assert list(each_document(session, guild_id=guild_id)) == load_documents(session, guild_id=guild_id)


@pytest.mark.parametrize("guild_id", [None, GUILD])
def test_documents_read_a_few_incidents_at_a_time_are_those_read_at_once(
    overlaid: Library, guild_id: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(documents, "INCIDENTS_AT_ONCE", 3)
    with overlaid.database.session() as session:
        assert len(documents._spans(list(session.exec(select(Incident))))) > 3
        assert list(each_document(session, guild_id=guild_id)) == orm_documents(session, guild_id)


def test_a_field_that_recurs_from_document_to_document_is_held_once(overlaid: Library) -> None:
    with overlaid.database.session() as session:
        fields = [field for doc in load_documents(session, guild_id=GUILD) for field in doc.fields]

    assert len(fields) > 2 * len(set(fields))  # parties', chambers' and roles' names recur
    assert len({id(field) for field in fields}) == len(set(fields))


def test_an_entrys_documents_are_those_the_guilds_load_gives_it(overlaid: Library) -> None:
    entries = {(EntityKind.INCIDENT, "singh-2020"), (EntityKind.PERSON, "jagmeet-singh")}
    with overlaid.database.session() as session:
        whole = [doc for doc in load_documents(session, guild_id=GUILD) if doc.entry in entries]
        assert entry_documents(session, guild_id=GUILD, entries=entries) == whole
    assert {(doc.kind, doc.key, doc.removed) for doc in whole} >= {
        (DocumentKind.INCIDENT, "singh-2020", False),
        (DocumentKind.PERSON, "jagmeet-singh", True),
    }


def test_an_entry_s_documents_are_read_in_a_statement_a_table_not_a_batch_at_a_time(
    overlaid: Library,
) -> None:
    entries = {(EntityKind.INCIDENT, "singh-2020"), (EntityKind.PERSON, "jagmeet-singh")}
    with overlaid.database.session() as session, statements(overlaid.database) as run:
        assert entry_documents(session, guild_id=GUILD, entries=entries)
    # the entries' ids, the incidents, their participants, quotes, rulings and motions, the chambers,
    # people, parties and terms: each read once
    assert len(run) <= 11


def test_a_person_s_documents_are_read_without_reading_incidents_they_take_no_part_in(
    overlaid: Library,
) -> None:
    newcomer = PersonEntry(slug="new-member", name="New Member")
    overlaid.apply(
        actor=MOD,
        kind=EntityKind.PERSON,
        key=newcomer.slug,
        change=lambda _: newcomer,
        summary="a new member",
        action=AuditAction.ADD,
    )
    entries = {(EntityKind.PERSON, newcomer.slug)}
    with overlaid.database.session() as session:
        whole = [doc for doc in load_documents(session, guild_id=GUILD) if doc.entry in entries]
        with statements(overlaid.database) as run:
            found = entry_documents(session, guild_id=GUILD, entries=entries)

    assert found == whole
    assert [doc.label for doc in found] == ["New Member"]
    read = {table for statement in run for table in re.findall(r"FROM (\w+)", statement)}
    assert read.isdisjoint({"incident", "quote", "ruling", "motion", "term"})


def test_many_written_incidents_refer_no_incident_to_re_index_but_many_people_refer_every_one(
    seeded_database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(documents, "ENTRIES_READ_ALONE", 1)  # the shipped dozen are "many"
    with seeded_database.session() as session:
        incidents = set(session.exec(select(col(Incident.slug))))
        people = set(session.exec(select(col(Person.slug))))

        by_incidents = referring_incidents(
            session, guild_id=SHARED_GUILD, entries={(EntityKind.INCIDENT, slug) for slug in incidents}
        )
        by_people = referring_incidents(
            session, guild_id=SHARED_GUILD, entries={(EntityKind.PERSON, slug) for slug in people}
        )

    assert by_incidents == set()
    assert by_people == incidents
