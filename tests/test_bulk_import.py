"""A bulk import (``transfer.apply_import``) writes what the one-entry write path writes, on both
databases: the same rows, the same audit records, undone the same way; all or nothing; and a
re-import of the same file writes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import Session, col, func, select

from bot.curation import changes, transfer
from bot.curation.changes import Actor, EntityKind, kind_name
from bot.curation.transfer import Outcome
from bot.library import Library
from bot.messages.catalogue import Msg, say
from bot.search import documents
from bot.search.index import Document
from db import session as session_module
from db.dataset import schema
from db.dataset.files import dump_dataset
from db.dataset.reader import export_dataset
from db.dataset.rows import slug_of
from db.dataset.schema import Dataset, IncidentEntry
from db.models import SHARED_GUILD, AuditAction, AuditEntry, Incident
from tests.generated_dataset import generated_dataset

GUILD = 2_000_000_000_000_011
OTHER = 2_000_000_000_000_012
MOD = Actor(GUILD, 502)

SECTIONS = [section for section, _ in schema.SECTIONS]


def generated() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(dump_dataset(generated_dataset()))
    return document


def by_slug(dataset: Dataset) -> dict[str, dict[str, Any]]:
    """Each section's entries by slug (an export lists referred entries first, so order differs)."""
    return {section: {slug_of(entry): entry for entry in getattr(dataset, section)} for section in SECTIONS}


def audit_records(session: Session, guild_id: int) -> list[tuple[Any, ...]]:
    statement = select(AuditEntry).where(col(AuditEntry.guild_id) == guild_id).order_by(col(AuditEntry.id))
    return [
        (a.action, a.kind, a.key, a.actor_id, a.summary, a.before, a.after, a.undoes_id, a.undone_by_id)
        for a in session.exec(statement)
    ]


def write_one_by_one(session: Session, document: dict[str, Any], actor: Actor) -> None:
    """The import written the way it was before the bulk writer: ``changes.apply`` per entry."""
    for kind, entry in transfer.plan_import(session, document, guild_id=actor.guild_id).writes:
        changes.apply(
            session,
            actor=actor,
            kind=kind,
            key=slug_of(entry),
            change=lambda _current, entry=entry: entry,
            summary=say(Msg.IMPORTED_SUMMARY, kind=kind_name(kind), key=slug_of(entry)),
            action=AuditAction.IMPORT,
        )


def ident(doc: Document) -> tuple[str, str, int]:
    return (doc.kind.value, doc.key, doc.guild_id)


def count(library: Library, table: type[AuditEntry] | type[Incident]) -> int:
    with library.database.session() as session:
        return session.exec(select(func.count()).select_from(table)).one()


def test_a_bulk_import_writes_the_rows_and_audit_records_the_one_entry_path_writes(library: Library) -> None:
    document = generated()

    library.import_dataset(document, actor=MOD)

    with library.database.session() as session:
        write_one_by_one(session, document, Actor(OTHER, MOD.user_id))
        session.commit()
        imported = export_dataset(session, guild_id=GUILD)
        written = export_dataset(session, guild_id=OTHER)
        assert by_slug(imported) == by_slug(written) == by_slug(generated_dataset())
        assert audit_records(session, GUILD) == audit_records(session, OTHER)
        assert len(audit_records(session, GUILD)) == sum(
            len(document.get(section, [])) for section in SECTIONS
        )


def test_an_imported_change_to_the_guilds_own_entry_is_audited_and_undone_like_any_change(
    library: Library,
) -> None:
    document = generated()
    library.import_dataset(document, actor=MOD)
    first = document["incidents"][0]
    first["title"] = "A corrected title"
    first["quotes"] = []

    plan = library.import_dataset(document, actor=MOD)
    with library.database.session() as session:
        write_one_by_one(session, generated(), Actor(OTHER, MOD.user_id))
        changed = generated()
        changed["incidents"][0] = first
        write_one_by_one(session, changed, Actor(OTHER, MOD.user_id))
        session.commit()
        assert audit_records(session, GUILD)[-1] == audit_records(session, OTHER)[-1]
    library.undo(actor=MOD)

    assert [(p.key, p.outcome) for p in plan.entries if p.outcome is not Outcome.UNCHANGED] == [
        (first["slug"], Outcome.CHANGED)
    ]
    restored = library.visible_entry(guild_id=GUILD, kind=EntityKind.INCIDENT, key=first["slug"])
    assert isinstance(restored, IncidentEntry)
    assert restored == generated_dataset().incidents[0]


def planner_incidents(library: Library) -> float:
    """How many incident rows PostgreSQL's planner believes there are (-1: never counted)."""
    with library.database.session() as session:
        statement = text("SELECT reltuples FROM pg_class WHERE oid = 'incident'::regclass")
        return float(session.execute(statement).scalar_one())


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_an_import_of_many_entries_has_postgresql_count_the_rows_it_wrote(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = generated()
    before = planner_incidents(library)
    monkeypatch.setattr(session_module, "ANALYZE_AFTER", len(document["incidents"]))

    library.import_dataset(document, actor=MOD)

    assert before < count(library, Incident) == planner_incidents(library)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_an_import_of_fewer_entries_leaves_the_statistics_to_autovacuum(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = generated()
    with library.database.engine.begin() as connection:  # so that only the import could count them
        connection.exec_driver_sql("ALTER TABLE incident SET (autovacuum_enabled = false)")
    before = planner_incidents(library)
    monkeypatch.setattr(session_module, "ANALYZE_AFTER", len(document["incidents"]) * 10)

    library.import_dataset(document, actor=MOD)

    assert planner_incidents(library) == before


def test_a_failure_while_writing_incidents_leaves_nothing_written(library: Library) -> None:
    document = generated()
    before_incidents = len(
        document["chambers"] + document["parties"] + document["people"] + document["sources"]
    )

    def fail_in_the_incidents(done: int, _total: int) -> None:
        if done == before_incidents + 1:
            raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        library.import_dataset(document, actor=MOD, progress=fail_in_the_incidents)

    assert count(library, AuditEntry) == 0
    with library.database.session() as session:
        assert by_slug(export_dataset(session, guild_id=GUILD)) == {section: {} for section in SECTIONS}


def test_importing_the_same_file_again_reports_it_unchanged_and_writes_nothing(library: Library) -> None:
    document = generated()
    library.import_dataset(document, actor=MOD)
    audits, incidents = count(library, AuditEntry), count(library, Incident)
    revision = library.revision(
        guild_id=GUILD, kind=EntityKind.INCIDENT, key=document["incidents"][0]["slug"]
    )

    plan = library.import_dataset(document, actor=MOD)

    assert plan.summary == f"0 added, 0 changed, {len(plan.entries)} unchanged, 0 rejected"
    assert (count(library, AuditEntry), count(library, Incident)) == (audits, incidents)
    assert revision == 1
    assert (
        library.revision(guild_id=GUILD, kind=EntityKind.INCIDENT, key=document["incidents"][0]["slug"]) == 1
    )


def test_after_a_re_import_of_a_shared_incident_the_index_holds_exactly_its_documents(
    library: Library,
) -> None:
    """Rewriting a shared incident replaces its quotes' rows (new ids, so new document keys): the old
    documents go, none is found twice."""
    document = library.export(guild_id=SHARED_GUILD).model_dump(mode="json")
    [singh] = [incident for incident in document["incidents"] if incident["slug"] == "singh-2020"]
    singh["title"] += " (corrected)"

    library.import_dataset(document, actor=Actor(SHARED_GUILD, 0))

    with library.database.session() as session:
        loaded = documents.load_documents(session, guild_id=SHARED_GUILD)
    singh_2020 = ("incident", "singh-2020")
    held = [
        doc for doc in library.index.documents() if doc.guild_id == SHARED_GUILD and doc.entry == singh_2020
    ]
    singh_loaded = [doc for doc in loaded if doc.entry == singh_2020]
    assert sorted(map(ident, held)) == sorted(map(ident, singh_loaded))
    assert all(library.index.holds(doc) for doc in singh_loaded)
    assert len(held) > 8  # the incident, its quotes, rulings and motions


@pytest.mark.parametrize("read_alone", [documents.ENTRIES_READ_ALONE, 5])
def test_after_an_import_the_index_holds_exactly_the_guilds_documents(
    library: Library, monkeypatch: pytest.MonkeyPatch, read_alone: int
) -> None:
    monkeypatch.setattr(documents, "ENTRIES_READ_ALONE", read_alone)
    document = generated()
    library.import_dataset(document, actor=MOD)
    document["people"][0]["name"] = "Renamed Person"

    library.import_dataset(document, actor=MOD)

    with library.database.session() as session:
        loaded = documents.load_documents(session, guild_id=GUILD)
    assert sorted(map(ident, library.index.guild_documents(GUILD))) == sorted(map(ident, loaded))
    assert all(library.index.holds(doc) for doc in loaded)
    assert any("Renamed Person" in (field.text for field in doc.fields) for doc in loaded if doc.incident)
