"""Import and export (bot.transfer) on both databases: the dry-run plan, all-or-nothing writes, progress,
the shared scope, and the export → import round trip between guilds."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from sqlmodel import col, func, select

from bot.curation import changes, entries, transfer
from bot.curation.changes import Actor, EntityKind, kind_name
from bot.curation.transfer import Outcome, UnreadableFile, apply_import, decode, plan_table
from bot.errors import InvalidInput
from bot.library import Library
from bot.messages.catalogue import Msg, say
from bot.search.index import DocumentKind
from bot.search.text import fold
from db.dataset.files import dump_dataset
from db.dataset.reader import export_dataset
from db.dataset.schema import SHIPPED_DATASET, IncidentEntry
from db.models import SHARED_GUILD, AuditAction, AuditEntry, DatasetVersion

GUILD = 2_000_000_000_000_001
OTHER = 2_000_000_000_000_002
MOD = Actor(GUILD, 501)

NEW_PERSON = {"slug": "jane-doe", "name": "Jane Doe", "party": "new-democratic-party"}


def shipped() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SHIPPED_DATASET.read_text(encoding="utf-8"))
    return document


def incident(document: dict[str, Any], slug: str) -> dict[str, Any]:
    found: dict[str, Any] = next(entry for entry in document["incidents"] if entry["slug"] == slug)
    return found


def mixed() -> dict[str, Any]:
    """The shipped file with one person added, one incident retitled and one incident's date broken."""
    document = shipped()
    document["people"].append(NEW_PERSON)
    incident(document, "singh-2020")["title"] = "Singh ordered out (corrected title)"
    incident(document, "skinner-2016")["date"] = "2016-02-30"
    return document


def audits(library: Library) -> int:
    with library.database.session() as session:
        return session.exec(select(func.count()).select_from(AuditEntry)).one()


def visible_name(library: Library, guild_id: int, kind: EntityKind, key: str) -> str | None:
    with library.database.session() as session:
        entry = changes.visible_entry(session, guild_id=guild_id, kind=kind, key=key)
    return None if entry is None else str(getattr(entry, "title" if kind is EntityKind.INCIDENT else "name"))


def test_a_dry_run_counts_added_changed_unchanged_and_rejected_with_reasons(library: Library) -> None:
    plan = library.plan_import(mixed(), guild_id=GUILD)

    assert plan.summary == "1 added, 1 changed, 134 unchanged, 1 rejected"
    assert [(p.at, p.kind, p.key) for p in plan.entries if p.outcome is Outcome.ADDED] == [
        ("people[58]", EntityKind.PERSON, "jane-doe")
    ]
    assert [p.key for p in plan.entries if p.outcome is Outcome.CHANGED] == ["singh-2020"]
    [rejected] = plan.rejected
    assert (rejected.key, rejected.reasons) == (
        "skinner-2016",
        ("incidents[8].date: Input should be a valid date or datetime, day value is outside expected range",),
    )


def test_a_plan_that_consumes_the_document_judges_it_alike_and_empties_its_sections(library: Library) -> None:
    document = mixed()

    with library.database.session() as session:
        consumed = transfer.plan_import(session, document, guild_id=GUILD, consume=True)
        kept = transfer.plan_import(session, mixed(), guild_id=GUILD)

    assert consumed == kept
    assert [document[section] for section in ("chambers", "parties", "people", "sources", "incidents")] == [
        []
    ] * 5
    assert document["dataset_version"] == mixed()["dataset_version"]


def test_a_plan_leaves_the_document_whole_for_the_import_confirmed_after_it(library: Library) -> None:
    document = mixed()

    library.plan_import(document, guild_id=GUILD)

    assert document == mixed()


def test_a_dry_run_writes_nothing(library: Library) -> None:
    library.plan_import(mixed(), guild_id=GUILD)

    assert audits(library) == 0
    assert visible_name(library, GUILD, EntityKind.PERSON, "jane-doe") is None


def test_the_plan_table_has_a_row_per_kind_and_totals(library: Library) -> None:
    table = plan_table(library.plan_import(mixed(), guild_id=GUILD)).splitlines()

    assert table[0].split() == ["added", "changed", "unchanged", "rejected"]
    assert table[3].split() == ["person", "1", "0", "58", "0"]
    assert table[-1].split() == ["total", "1", "1", "134", "1"]


def test_a_reference_the_guild_does_not_see_is_rejected_with_close_slugs(library: Library) -> None:
    document = shipped()
    incident(document, "singh-2020")["quotes"][0]["speaker"] = "jagmet-singh"

    [rejected] = library.plan_import(document, guild_id=GUILD).rejected

    assert rejected.reasons == (
        "incidents[7].quotes[0].speaker: unknown person 'jagmet-singh' (did you mean 'jagmeet-singh'?)",
    )


def test_an_entry_given_twice_is_rejected(library: Library) -> None:
    document = shipped()
    document["people"].append({**NEW_PERSON, "name": "Jane Doe"})
    document["people"].append({**NEW_PERSON, "name": "Janet Doe"})

    [rejected] = library.plan_import(document, guild_id=GUILD).rejected

    assert (rejected.at, rejected.reasons) == (
        "people[59]",
        (say(Msg.TWICE, at="people[59]", kind=kind_name(EntityKind.PERSON), key="jane-doe"),),
    )


def test_an_import_with_a_rejected_entry_is_refused_whole_with_the_reasons(library: Library) -> None:
    with pytest.raises(InvalidInput) as refused:
        library.import_dataset(mixed(), actor=MOD)

    assert refused.value.msg is Msg.REFUSED_ONE
    assert refused.value.message == say(
        Msg.REFUSED_ONE,
        count=1,
        reasons="• incidents[8] (incident skinner-2016): incidents[8].date: Input should be a valid date or"
        " datetime, day value is outside expected range",
    )
    assert audits(library) == 0
    assert visible_name(library, GUILD, EntityKind.PERSON, "jane-doe") is None


def test_a_failure_midway_rolls_back_every_entry_already_written(library: Library) -> None:
    document = shipped()
    document["people"] += [NEW_PERSON, {"slug": "john-roe", "name": "John Roe"}]
    incident(document, "singh-2020")["title"] = "Singh ordered out (corrected title)"

    def fail_after_two(done: int, total: int) -> None:
        if done == 2:
            raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        library.import_dataset(document, actor=MOD, progress=fail_after_two)

    assert audits(library) == 0
    assert visible_name(library, GUILD, EntityKind.PERSON, "jane-doe") is None
    assert visible_name(library, GUILD, EntityKind.PERSON, "john-roe") is None
    assert library.index.guild_documents(GUILD) == []


def test_an_import_writes_each_entry_through_the_audited_write_path(library: Library) -> None:
    document = mixed()
    incident(document, "skinner-2016")["date"] = "2016-04-11"

    plan = library.import_dataset(document, actor=MOD)

    assert plan.summary == "1 added, 1 changed, 135 unchanged, 0 rejected"
    with library.database.session() as session:
        written = session.exec(select(AuditEntry).order_by(col(AuditEntry.id))).all()
    assert [(a.action, a.kind, a.key, a.actor_id, a.guild_id) for a in written] == [
        (AuditAction.IMPORT, EntityKind.PERSON, "jane-doe", MOD.user_id, GUILD),
        (AuditAction.IMPORT, EntityKind.INCIDENT, "singh-2020", MOD.user_id, GUILD),
    ]
    assert (
        visible_name(library, GUILD, EntityKind.INCIDENT, "singh-2020")
        == "Singh ordered out (corrected title)"
    )
    assert (
        visible_name(library, OTHER, EntityKind.INCIDENT, "singh-2020")
        != "Singh ordered out (corrected title)"
    )


def test_an_imported_entry_is_found_in_that_guild_right_away(library: Library) -> None:
    library.import_dataset(mixed() | {"incidents": shipped()["incidents"]}, actor=MOD)

    assert [hit.document.key for hit in library.index.search("Jane Doe", guild_id=GUILD, limit=1)] == [
        "jane-doe"
    ]
    assert all(hit.document.key != "jane-doe" for hit in library.index.search("Jane Doe", guild_id=OTHER))


def test_a_person_renamed_by_an_import_finds_the_guild_incidents_naming_them(library: Library) -> None:
    document = shipped()
    document["people"].append(NEW_PERSON)
    incident(document, "singh-2020")["participants"].append({"person": "jane-doe", "role": "Whip"})
    library.import_dataset(document, actor=MOD)

    document["people"][-1] = NEW_PERSON | {"name": "Jane Quillfeather"}
    plan = library.import_dataset(document, actor=MOD)

    assert plan.summary.startswith("0 added, 1 changed")
    hits = library.index.search("Quillfeather", kinds=(DocumentKind.INCIDENT,), guild_id=GUILD, limit=1)
    assert [hit.document.key for hit in hits] == ["singh-2020"]


def test_a_person_an_import_casts_in_an_incident_shows_it_at_once(library: Library) -> None:
    document = shipped()
    document["people"].append(NEW_PERSON)
    library.import_dataset(document, actor=MOD)
    singh = incident(document, "singh-2020")
    singh["participants"].append({"person": "jane-doe", "role": "Whip"})

    library.import_dataset(document, actor=MOD)

    assert library.index.get(DocumentKind.PERSON, "jane-doe", GUILD) is not None
    assert fold(singh["title"]) in library.index.texts(DocumentKind.PERSON, "jane-doe", GUILD)


def test_a_person_an_import_takes_out_of_an_incident_no_longer_shows_it(library: Library) -> None:
    document = shipped()
    document["people"].append(NEW_PERSON)
    singh = incident(document, "singh-2020")
    singh["participants"].append({"person": "jane-doe", "role": "Whip"})
    library.import_dataset(document, actor=MOD)
    singh["participants"].pop()

    plan = library.import_dataset(document, actor=MOD)

    assert plan.cast_left == {"jane-doe"}
    texts = library.index.texts(DocumentKind.PERSON, "jane-doe", GUILD)
    assert texts  # held, and searched on its name
    assert fold(singh["title"]) not in texts


def test_progress_counts_every_entry_written(library: Library) -> None:
    document = shipped()
    document["people"] += [NEW_PERSON, {"slug": "john-roe", "name": "John Roe"}]
    seen: list[tuple[int, int]] = []

    library.import_dataset(document, actor=MOD, progress=lambda done, total: seen.append((done, total)))

    assert seen == [(1, 2), (2, 2)]


def test_export_then_import_into_another_guild_gives_identical_data(library: Library) -> None:
    library.apply(
        actor=MOD,
        kind=EntityKind.PERSON,
        key="jane-doe",
        change=lambda _: changes.MODELS[EntityKind.PERSON].model_validate(NEW_PERSON),
        summary="added Jane Doe",
        action=AuditAction.ADD,
    )
    library.apply(
        actor=MOD,
        kind=EntityKind.INCIDENT,
        key="singh-2020",
        change=changes.existing(IncidentEntry, lambda entry: entries.add_alias(entry, "Jane's day")),
        summary="added an alias",
    )
    exported = library.export(guild_id=GUILD)

    library.import_dataset(json.loads(dump_dataset(exported)), actor=Actor(OTHER, 601))

    assert dump_dataset(library.export(guild_id=OTHER)) == dump_dataset(exported)
    assert {p.slug for p in exported.people} >= {"jane-doe", "jagmeet-singh"}


QUESTION = {
    "slug": "question-1",
    "prompt": "Which office keeps order in the Commons?",
    "answer": "The Speaker",
    "wrong": ["The Clerk", "The Whip"],
    "source": "singh-2020-cbc",
}


def test_a_guilds_quiz_question_travels_with_its_export_and_is_imported_audited(library: Library) -> None:
    library.add_quiz_question(
        actor=MOD,
        prompt=QUESTION["prompt"],
        answer=QUESTION["answer"],
        wrong=QUESTION["wrong"],
        source=QUESTION["source"],
    )
    exported = library.export(guild_id=GUILD)
    other = Actor(OTHER, 601)

    plan = library.import_dataset(json.loads(dump_dataset(exported)), actor=other)

    assert [question.model_dump() for question in exported.questions] == [QUESTION]
    assert "singh-2020-cbc" in {source.key for source in exported.sources}  # what the question cites
    assert plan.count(Outcome.ADDED, EntityKind.QUESTION) == 1
    with library.database.session() as session:
        imported = changes.visible_entry(session, guild_id=OTHER, kind=EntityKind.QUESTION, key="question-1")
    assert imported == exported.questions[0]
    [audit] = library.history(guild_id=OTHER, kind=EntityKind.QUESTION, key="question-1")
    assert (audit.action, audit.actor_id) == (AuditAction.IMPORT, other.user_id)
    assert dump_dataset(library.export(guild_id=OTHER)) == dump_dataset(exported)


def test_an_export_without_questions_leaves_them_out_of_the_file(library: Library) -> None:
    assert "questions" not in json.loads(dump_dataset(library.export(guild_id=GUILD)))


def test_the_shared_scope_refuses_quiz_questions(library: Library) -> None:
    document = shipped() | {"questions": [QUESTION]}

    with library.database.session() as session:
        [rejected] = transfer.plan_import(session, document, guild_id=SHARED_GUILD).rejected

    assert (rejected.kind, rejected.reasons) == (
        EntityKind.QUESTION,
        (say(Msg.QUESTION_NOT_SHARED, at="questions[0]"),),
    )


def test_importing_into_the_shared_scope_writes_like_seed_and_records_the_version(library: Library) -> None:
    document = shipped()
    document["dataset_version"] = "2027.1.1"
    document["people"].append(NEW_PERSON)

    with library.database.session() as session:
        apply_import(session, document, guild_id=SHARED_GUILD, actor_id=0)
        session.commit()

    assert visible_name(library, OTHER, EntityKind.PERSON, "jane-doe") == "Jane Doe"
    with library.database.session() as session:
        recorded = session.get(DatasetVersion, SHARED_GUILD)
        assert recorded is not None
        assert recorded.version == "2027.1.1"
        assert export_dataset(session).dataset_version == "2027.1.1"
    assert audits(library) == 0


def test_an_import_hands_its_plan_over_before_writing_and_before_refusing(library: Library) -> None:
    document = shipped()
    document["people"].append(NEW_PERSON)
    seen: list[tuple[transfer.ImportPlan, object]] = []

    with library.database.session() as session:

        def look(plan: transfer.ImportPlan) -> None:  # what the import's own transaction holds by then
            seen.append(
                (plan, changes.visible_entry(session, guild_id=GUILD, kind=EntityKind.PERSON, key="jane-doe"))
            )

        carried_out = apply_import(session, document, guild_id=GUILD, actor_id=MOD.user_id, on_plan=look)
        session.commit()
    assert seen == [(carried_out, None)]  # the plan carried out, seen while nothing was written
    assert visible_name(library, GUILD, EntityKind.PERSON, "jane-doe") == "Jane Doe"

    document["people"].append({"slug": "john-roe", "name": "John Roe", "party": "whigs"})
    with library.database.session() as session, pytest.raises(InvalidInput):
        apply_import(
            session,
            document,
            guild_id=GUILD,
            actor_id=MOD.user_id,
            on_plan=lambda plan: seen.append((plan, None)),
        )
    assert len(seen) == 2
    assert [planned.key for planned in seen[1][0].rejected] == ["john-roe"]


def test_a_file_that_is_not_json_is_unreadable() -> None:
    with pytest.raises(UnreadableFile) as caught:
        decode(b"not json", "data.json")
    assert caught.value.msg is Msg.NOT_JSON
    assert caught.value.message == say(
        Msg.NOT_JSON, name="data.json", error="Expecting value: line 1 column 1 (char 0)"
    )


def test_a_document_of_another_format_is_unreadable(library: Library) -> None:
    document = copy.deepcopy(shipped()) | {"version": 2}

    with pytest.raises(UnreadableFile, match="version: Input should be 1") as caught:
        library.plan_import(document, guild_id=GUILD)
    assert caught.value.msg is Msg.NOT_A_DATASET
