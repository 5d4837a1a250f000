"""The curation write path (docs/CURATION.md) on both databases: guild scope, shadowing, tombstones,
validation, audit, undo, optimistic concurrency, suggestions and the incremental index update."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import func, select

from bot.answers.render import Reply
from bot.curation import changes, entries
from bot.curation.changes import Actor, EntityKind, kind_name
from bot.errors import Conflict, Forbidden, InvalidInput, NotFound
from bot.library import Library
from bot.messages.catalogue import Msg, say
from bot.search.documents import load_documents
from bot.search.index import Document, DocumentKind, SearchIndex
from db.dataset.reader import export_dataset
from db.dataset.rows import slug_of
from db.dataset.schema import (
    ChamberEntry,
    Entry,
    IncidentEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    QuoteEntry,
    SourceEntry,
    TermEntry,
)
from db.models import SHARED_GUILD, AuditAction, AuditEntry, Person, SuggestionStatus
from tests.discord_harness import before
from tests.test_entries import QUOTE

GUILD = 1_000_000_000_000_001
OTHER = 1_000_000_000_000_002
MOD = Actor(GUILD, 501)
SECOND_MOD = Actor(GUILD, 502)
OTHER_MOD = Actor(OTHER, 601)


NEW: dict[EntityKind, Entry] = {
    EntityKind.CHAMBER: ChamberEntry(
        slug="ca-senate", name="Senate of Canada", legislature="Parliament of Canada", country="Canada"
    ),
    EntityKind.PARTY: PartyEntry(slug="rhinoceros-party", name="Rhinoceros Party", country="Canada"),
    EntityKind.PERSON: PersonEntry(slug="jane-doe", name="Jane Doe", party="new-democratic-party"),
    EntityKind.SOURCE: SourceEntry(
        key="doe-2021-example", url="https://example.org/doe", publisher="Example"
    ),
    EntityKind.INCIDENT: IncidentEntry.model_validate(
        {
            "slug": "doe-2021",
            "title": "Jane Doe named by the Speaker",
            "date": "2021-03-04",
            "chamber": "ca-house-of-commons",
            "kind": "naming",
            "summary": "The Speaker named Jane Doe.",
            "sources": ["singh-2020-cbc"],
            "quotes": [{**QUOTE, "text": "Quixotic quokkas quarrel."}],
        }
    ),
    EntityKind.TERM: TermEntry(
        slug="closure",
        name="Closure",
        definition="A motion that ends a debate, “quixotically” quoted.",
        source="singh-2020-cbc",
        incidents=["singh-2020"],
    ),
}
SHARED_KEYS = {
    EntityKind.CHAMBER: "ca-house-of-commons",
    EntityKind.PARTY: "new-democratic-party",
    EntityKind.PERSON: "jagmeet-singh",
    EntityKind.SOURCE: "singh-2020-cbc",
    EntityKind.INCIDENT: "singh-2020",
    EntityKind.TERM: "naming",
}
NAME_FIELD = {
    EntityKind.CHAMBER: "name",
    EntityKind.PARTY: "name",
    EntityKind.PERSON: "name",
    EntityKind.SOURCE: "publisher",
    EntityKind.INCIDENT: "title",
    EntityKind.TERM: "name",
}
KINDS = [kind for kind in EntityKind if kind is not EntityKind.QUESTION]  # the kinds the dataset ships


def renamed(kind: EntityKind) -> Callable[[Entry | None], Entry]:
    def change(entry: Entry | None) -> Entry:
        assert entry is not None
        return entry.model_copy(update={NAME_FIELD[kind]: "Corrected name"})

    return change


def name_of(entry: Entry | None) -> str | None:
    return None if entry is None else str(getattr(entry, NAME_FIELD[kind_of(entry)]))


def kind_of(entry: Entry) -> EntityKind:
    return next(kind for kind, model in changes.MODELS.items() if isinstance(entry, model))


def visible(library: Library, guild_id: int, kind: EntityKind, key: str) -> Entry | None:
    with library.database.session() as session:
        return changes.visible_entry(session, guild_id=guild_id, kind=kind, key=key)


def state(library: Library, guild_id: int, kind: EntityKind, key: str) -> changes.EntryState | None:
    with library.database.session() as session:
        return changes.current_state(session, guild_id=guild_id, kind=kind, key=key)


def audit_count(library: Library) -> int:
    with library.database.session() as session:
        return session.exec(select(func.count()).select_from(AuditEntry)).one()


def history(library: Library, guild_id: int, **narrow: Any) -> list[AuditEntry]:
    return library.history(guild_id=guild_id, **narrow)


def add(library: Library, kind: EntityKind, actor: Actor = MOD, entry: Entry | None = None) -> AuditEntry:
    entry = NEW[kind] if entry is None else entry
    key = slug_of(entry)
    return library.apply(
        actor=actor,
        kind=kind,
        key=key,
        change=lambda _: entry,
        summary=f"added {key}",
        action=AuditAction.ADD,
    )


def edit_singh(
    library: Library, change: Callable[[IncidentEntry], Entry], actor: Actor = MOD, **options: Any
) -> AuditEntry:
    """Change singh-2020 as the guild sees it, through ``Library.apply``."""
    return library.apply(
        actor=actor,
        kind=EntityKind.INCIDENT,
        key="singh-2020",
        change=changes.existing(IncidentEntry, change),
        summary=options.pop("summary", "changed singh-2020"),
        **options,
    )


def with_fields(**update: Any) -> Callable[[IncidentEntry], Entry]:
    """A raw change (no validation on the way), as a careless caller might build one."""
    return lambda entry: entry.model_copy(update=update)


def add_quote(library: Library, actor: Actor = MOD, **fields: Any) -> AuditEntry:
    return edit_singh(library, lambda entry: entries.add_quote(entry, {**QUOTE, **fields}), actor)


def text_of(reply: Reply) -> str:
    return (reply.content or "") + json.dumps(reply.embeds, ensure_ascii=False)


# -- add, edit, remove, restore of every kind of entry ----------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_an_added_entry_is_seen_in_its_guild_and_nowhere_else(library: Library, kind: EntityKind) -> None:
    add(library, kind)

    key = slug_of(NEW[kind])
    assert visible(library, GUILD, kind, key) == NEW[kind]
    assert visible(library, OTHER, kind, key) is None
    assert visible(library, SHARED_GUILD, kind, key) is None


@pytest.mark.parametrize("kind", KINDS)
def test_editing_a_shared_entry_writes_a_guild_copy_that_shadows_it(
    library: Library, kind: EntityKind
) -> None:
    key = SHARED_KEYS[kind]
    original = name_of(visible(library, GUILD, kind, key))

    library.apply(actor=MOD, kind=kind, key=key, change=renamed(kind), summary="corrected the name")

    assert name_of(visible(library, GUILD, kind, key)) == "Corrected name"
    assert name_of(visible(library, OTHER, kind, key)) == original
    assert name_of(visible(library, SHARED_GUILD, kind, key)) == original


@pytest.mark.parametrize("kind", KINDS)
def test_removing_a_shared_entry_leaves_a_tombstone_in_that_guild_only(
    library: Library, kind: EntityKind
) -> None:
    key = SHARED_KEYS[kind]

    library.remove(actor=MOD, kind=kind, key=key)

    assert visible(library, GUILD, kind, key) is None
    assert visible(library, OTHER, kind, key) is not None
    tombstone = state(library, GUILD, kind, key)
    assert tombstone is not None
    assert tombstone["removed"] is True
    assert tombstone["entry"] == visible(library, OTHER, kind, key).model_dump(mode="json", exclude_none=True)


@pytest.mark.parametrize("kind", KINDS)
def test_restoring_a_removed_entry_brings_it_back(library: Library, kind: EntityKind) -> None:
    add(library, kind)
    key = slug_of(NEW[kind])
    library.remove(actor=MOD, kind=kind, key=key)

    library.restore(actor=MOD, kind=kind, key=key)

    assert visible(library, GUILD, kind, key) == NEW[kind]
    assert [entry.action for entry in history(library, GUILD, key=key)] == [
        AuditAction.RESTORE,
        AuditAction.REMOVE,
        AuditAction.ADD,
    ]


def test_restoring_an_entry_that_is_not_removed_is_refused(library: Library) -> None:
    with pytest.raises(NotFound) as caught:
        library.restore(actor=MOD, kind=EntityKind.INCIDENT, key="singh-2020")
    assert (caught.value.msg, caught.value.fields) == (
        Msg.NOT_REMOVED,
        {"kind": kind_name(EntityKind.INCIDENT, capital=True), "key": "singh-2020"},
    )


def test_every_write_bumps_the_revision(library: Library) -> None:
    add(library, EntityKind.PERSON)
    library.apply(
        actor=MOD, kind=EntityKind.PERSON, key="jane-doe", change=renamed(EntityKind.PERSON), summary="s"
    )
    library.remove(actor=MOD, kind=EntityKind.PERSON, key="jane-doe")

    revision = library.revision(guild_id=GUILD, kind=EntityKind.PERSON, key="jane-doe")
    assert revision == 3


# -- every sub-change, written through apply ---------------------------------------------------------

SUB_CHANGES: dict[str, Callable[[IncidentEntry], IncidentEntry]] = {
    "add quote": lambda e: entries.add_quote(e, QUOTE),
    "edit quote": lambda e: entries.edit_quote(e, 3, said_to="the Speaker"),
    "remove quote": lambda e: entries.remove_quote(e, 0),
    "add ruling": lambda e: entries.add_ruling(
        e,
        {
            "ruled_by_label": "The House",
            "outcome": "warned",
            "summary": "Warned.",
            "source": "singh-2020-cbc",
        },
    ),
    "edit ruling": lambda e: entries.edit_ruling(e, 0, outcome="named"),
    "remove ruling": lambda e: entries.remove_ruling(e, 1),
    "add motion": lambda e: entries.add_motion(
        e,
        {"text": "That we adjourn.", "procedure": "ordinary", "result": "failed", "source": "singh-2020-cbc"},
    ),
    "edit motion": lambda e: entries.edit_motion(e, 0, result_detail="Denied (CBC)."),
    "remove motion": lambda e: entries.remove_motion(e, 0),
    "add position": lambda e: entries.add_position(
        e,
        0,
        {
            "party": "green-party-of-canada",
            "label": "Greens",
            "stance": "consent",
            "attribution": "inferred",
            "source": "singh-2020-cbc",
        },
    ),
    "edit position": lambda e: entries.edit_position(e, 0, 0, stance="unknown"),
    "remove position": lambda e: entries.remove_position(e, 0, 1),
    "add participant": lambda e: entries.add_participant(
        e, {"person": "andrew-scheer", "role": "Opposition Leader"}
    ),
    "edit participant": lambda e: entries.edit_participant(e, 0, role="Deputy Speaker"),
    "remove participant": lambda e: entries.remove_participant(e, 4),
    "add alias": lambda e: entries.add_alias(e, "Therrien racist"),
    "edit alias": lambda e: entries.edit_alias(e, "Singh ejected", "Singh expelled"),
    "remove alias": lambda e: entries.remove_alias(e, "Singh Therrien"),
}


@pytest.mark.parametrize("name", list(SUB_CHANGES))
def test_each_sub_change_is_stored_as_the_changed_entry(library: Library, name: str) -> None:
    shared = visible(library, GUILD, EntityKind.INCIDENT, "singh-2020")
    assert isinstance(shared, IncidentEntry)
    expected = SUB_CHANGES[name](shared)

    edit_singh(library, SUB_CHANGES[name], summary=name)

    assert visible(library, GUILD, EntityKind.INCIDENT, "singh-2020") == expected
    assert visible(library, OTHER, EntityKind.INCIDENT, "singh-2020") == shared


def test_two_quotes_added_one_after_the_other_both_land(library: Library) -> None:
    add_quote(library, MOD, text="First new quote.")
    add_quote(library, SECOND_MOD, text="Second new quote.")

    incident = visible(library, GUILD, EntityKind.INCIDENT, "singh-2020")
    assert isinstance(incident, IncidentEntry)
    assert [quote.text for quote in incident.quotes[-2:]] == ["First new quote.", "Second new quote."]


def test_a_guild_entry_may_refer_to_its_own_person_before_the_shared_ones(library: Library) -> None:
    add(library, EntityKind.PERSON)

    add_quote(library, speaker="jane-doe", speaker_label="Jane Doe")

    with library.database.session() as session:
        guild_person = session.exec(select(Person).where(Person.slug == "jane-doe")).one()
        exported = export_dataset(session, guild_id=GUILD)
    assert guild_person.guild_id == GUILD
    assert exported.incidents[0].quotes[-1].speaker == "jane-doe"
    assert [person.slug for person in exported.people if person.slug == "jane-doe"] == ["jane-doe"]


def test_an_export_leaves_removed_entries_out(library: Library) -> None:
    add(library, EntityKind.PERSON)
    library.remove(actor=MOD, kind=EntityKind.PERSON, key="jane-doe")

    with library.database.session() as session:
        exported = export_dataset(session, guild_id=GUILD)

    assert "jane-doe" not in {person.slug for person in exported.people}


# -- validation: a polite message per problem, and nothing written ----------------------------------


def assert_refused(library: Library, write: Callable[[], object], message: str) -> None:
    before = audit_count(library)
    with pytest.raises(InvalidInput) as caught:
        write()
    assert message in caught.value.message
    assert audit_count(library) == before
    assert state(library, GUILD, EntityKind.INCIDENT, "singh-2020") is None


def test_an_unknown_reference_is_refused_with_close_slugs(library: Library) -> None:
    assert_refused(
        library,
        lambda: add_quote(library, speaker="jagmet-singh"),
        say(
            Msg.PROBLEM_AT,
            place=say(
                Msg.FIELD_OF,
                field="speaker",
                place=say(Msg.PLACE_NAMED, part=say(Msg.PART_QUOTE), number=9, label="Jagmeet Singh"),
            ),
            problem="unknown person 'jagmet-singh' (did you mean 'jagmeet-singh'?)",
        ),
    )


def test_a_reference_to_a_shared_entry_the_guild_removed_is_refused(library: Library) -> None:
    library.remove(actor=MOD, kind=EntityKind.PERSON, key="jagmeet-singh")

    assert_refused(
        library, lambda: add_quote(library, speaker="jagmeet-singh"), "unknown person 'jagmeet-singh'"
    )


def test_a_citation_of_a_source_the_incident_does_not_list_is_refused(library: Library) -> None:
    assert_refused(
        library,
        lambda: add_quote(library, source="trudeau-2016-cbc"),
        "source 'trudeau-2016-cbc' is not listed in the incident's sources",
    )


def test_adding_a_slug_the_guild_already_sees_is_refused(library: Library) -> None:
    entry = PersonEntry(slug="jagmeet-singh", name="Someone Else")
    before = audit_count(library)
    with pytest.raises(InvalidInput) as caught:
        library.apply(
            actor=MOD,
            kind=EntityKind.PERSON,
            key="jagmeet-singh",
            change=lambda _: entry,
            summary="s",
            action=AuditAction.ADD,
        )
    assert caught.value.message == say(Msg.ALREADY_EXISTS, a_kind=say(Msg.A_PERSON), key="jagmeet-singh")
    assert audit_count(library) == before


@pytest.mark.parametrize("date", ["17/06/2020", "2020-02-30"])
def test_a_date_that_does_not_parse_asks_for_yyyy_mm_dd(library: Library, date: str) -> None:
    assert_refused(
        library,
        lambda: edit_singh(library, with_fields(date=date)),
        say(Msg.NOT_A_DATE, path="`date`", value=date),
    )


def test_text_over_its_limit_is_refused_with_limit_and_length(library: Library) -> None:
    assert_refused(
        library,
        lambda: edit_singh(library, with_fields(summary="x" * 4005)),
        say(Msg.TOO_LONG, path="`summary`", length=4005, limit=4000),
    )


def test_a_quote_without_a_source_is_refused(library: Library) -> None:
    quote = {name: value for name, value in QUOTE.items() if name != "source"}
    assert_refused(
        library,
        lambda: edit_singh(library, lambda entry: entries.add_quote(entry, quote)),
        before(Msg.SOURCE_REQUIRED, "sources", path=say(Msg.PLACE, part=say(Msg.PART_QUOTE), number=9)),
    )


def test_a_change_that_changes_nothing_is_refused(library: Library) -> None:
    assert_refused(
        library,
        lambda: edit_singh(library, lambda entry: entry),
        say(Msg.UNCHANGED, kind=kind_name(EntityKind.INCIDENT), key="singh-2020"),
    )


def test_a_slug_cannot_change(library: Library) -> None:
    assert_refused(
        library,
        lambda: edit_singh(library, with_fields(slug="singh-2021")),
        say(Msg.SLUG_FIXED, kind=kind_name(EntityKind.INCIDENT), key="singh-2020"),
    )


def test_editing_an_entry_the_guild_does_not_see_is_not_found(library: Library) -> None:
    with pytest.raises(NotFound) as caught:
        library.apply(
            actor=MOD,
            kind=EntityKind.INCIDENT,
            key="nobody-1999",
            change=renamed(EntityKind.INCIDENT),
            summary="s",
        )
    assert (caught.value.msg, caught.value.fields) == (
        Msg.NOTHING_TO_EDIT,
        {"kind": kind_name(EntityKind.INCIDENT), "key": "nobody-1999"},
    )


def test_the_shared_dataset_cannot_be_written(library: Library) -> None:
    with pytest.raises(Forbidden):
        library.remove(actor=Actor(SHARED_GUILD, 1), kind=EntityKind.INCIDENT, key="singh-2020")


# -- audit -----------------------------------------------------------------------------------------


def test_a_write_is_audited_with_the_state_before_and_after(library: Library) -> None:
    add_quote(library)
    record = edit_singh(
        library, lambda entry: entries.remove_quote(entry, 8), SECOND_MOD, summary="removed the zebra quote"
    )

    assert (record.guild_id, record.actor_id, record.action, record.kind, record.key) == (
        GUILD,
        SECOND_MOD.user_id,
        AuditAction.EDIT,
        EntityKind.INCIDENT,
        "singh-2020",
    )
    assert record.summary == "removed the zebra quote"
    assert record.before is not None
    assert record.after is not None
    assert record.before["entry"]["quotes"][-1]["text"] == QUOTE["text"]
    assert [quote["text"] for quote in record.after["entry"]["quotes"]] == [
        quote["text"] for quote in record.before["entry"]["quotes"][:8]
    ]


def test_the_first_guild_write_has_no_state_before(library: Library) -> None:
    record = add_quote(library)

    assert record.before is None
    assert record.after is not None
    assert record.after["removed"] is False


def test_history_is_newest_first_and_narrows_to_one_entry(library: Library) -> None:
    add(library, EntityKind.PERSON)
    add_quote(library)
    library.remove(actor=MOD, kind=EntityKind.PERSON, key="jane-doe")

    assert [(e.action, e.key) for e in history(library, GUILD)] == [
        (AuditAction.REMOVE, "jane-doe"),
        (AuditAction.EDIT, "singh-2020"),
        (AuditAction.ADD, "jane-doe"),
    ]
    assert [e.key for e in history(library, GUILD, kind=EntityKind.INCIDENT)] == ["singh-2020"]
    assert history(library, OTHER) == []


# -- undo ------------------------------------------------------------------------------------------


def test_undoing_an_add_removes_the_entry_entirely(library: Library) -> None:
    add(library, EntityKind.INCIDENT)

    library.undo(actor=MOD)

    assert visible(library, GUILD, EntityKind.INCIDENT, "doe-2021") is None
    assert state(library, GUILD, EntityKind.INCIDENT, "doe-2021") is None


def test_undoing_an_edit_of_a_shared_entry_shows_the_shared_one_again(library: Library) -> None:
    shared = visible(library, GUILD, EntityKind.INCIDENT, "singh-2020")
    add_quote(library)

    library.undo(actor=MOD)

    assert state(library, GUILD, EntityKind.INCIDENT, "singh-2020") is None
    assert visible(library, GUILD, EntityKind.INCIDENT, "singh-2020") == shared


def test_undoing_a_second_edit_brings_back_the_first(library: Library) -> None:
    add_quote(library, text="First new quote.")
    after_first = state(library, GUILD, EntityKind.INCIDENT, "singh-2020")
    add_quote(library, text="Second new quote.")

    library.undo(actor=MOD)

    assert state(library, GUILD, EntityKind.INCIDENT, "singh-2020") == after_first


def test_undoing_a_remove_restores_the_entry(library: Library) -> None:
    library.remove(actor=MOD, kind=EntityKind.PERSON, key="jagmeet-singh")

    library.undo(actor=MOD)

    assert name_of(visible(library, GUILD, EntityKind.PERSON, "jagmeet-singh")) == "Jagmeet Singh"


def test_an_undo_is_audited_and_marks_what_it_undid(library: Library) -> None:
    change = add_quote(library)

    undo = library.undo(actor=MOD)

    assert (undo.action, undo.undoes_id, undo.before, undo.after) == (
        AuditAction.UNDO,
        change.id,
        change.after,
        None,
    )
    assert history(library, GUILD)[1].undone_by_id == undo.id


def test_undo_takes_the_actors_own_latest_change(library: Library) -> None:
    mine = add(library, EntityKind.PERSON)
    add(library, EntityKind.PARTY, actor=SECOND_MOD)

    undone = library.undo(actor=MOD)

    assert undone.undoes_id == mine.id
    assert visible(library, GUILD, EntityKind.PARTY, "rhinoceros-party") is not None


def test_undo_refuses_when_the_entry_changed_since(library: Library) -> None:
    first = add_quote(library, text="First new quote.")
    add_quote(library, SECOND_MOD, text="Second new quote.")
    before = audit_count(library)

    with pytest.raises(Conflict) as caught:
        library.undo(actor=MOD, audit_id=first.id)
    assert caught.value.msg is Msg.CHANGED_SINCE_CHANGE
    assert audit_count(library) == before


def test_a_change_cannot_be_undone_twice(library: Library) -> None:
    change = add_quote(library)
    library.undo(actor=MOD, audit_id=change.id)

    with pytest.raises(Conflict) as caught:
        library.undo(actor=MOD, audit_id=change.id)
    assert caught.value.msg is Msg.ALREADY_UNDONE


def test_undo_with_nothing_to_undo_says_so(library: Library) -> None:
    with pytest.raises(NotFound) as caught:
        library.undo(actor=MOD)
    assert caught.value.msg is Msg.NOTHING_TO_UNDO


def test_undoing_an_add_that_other_entries_refer_to_is_refused(library: Library) -> None:
    add(library, EntityKind.PERSON)
    add_quote(library, SECOND_MOD, speaker="jane-doe", speaker_label="Jane Doe")

    with pytest.raises(Conflict) as caught:
        library.undo(actor=MOD)
    assert (caught.value.msg, caught.value.fields) == (
        Msg.STILL_REFERRED_TO,
        {"kind": kind_name(EntityKind.PERSON), "key": "jane-doe"},
    )
    assert visible(library, GUILD, EntityKind.PERSON, "jane-doe") is not None


# -- guild isolation -------------------------------------------------------------------------------


def test_another_guilds_change_cannot_be_undone(library: Library) -> None:
    change = add_quote(library)

    with pytest.raises(NotFound) as caught:
        library.undo(actor=OTHER_MOD, audit_id=change.id)
    assert (caught.value.msg, caught.value.fields) == (Msg.NO_SUCH_CHANGE, {"change": change.id})
    assert state(library, GUILD, EntityKind.INCIDENT, "singh-2020") == change.after


def test_another_guilds_suggestion_cannot_be_approved_or_rejected(library: Library) -> None:
    suggestion = library.suggest(
        actor=MOD, kind=EntityKind.PERSON, key="jagmeet-singh", change=renamed(EntityKind.PERSON), summary="s"
    )
    assert suggestion.id is not None

    with pytest.raises(NotFound):
        library.approve(actor=OTHER_MOD, suggestion_id=suggestion.id)
    with pytest.raises(NotFound):
        library.reject(actor=OTHER_MOD, suggestion_id=suggestion.id)
    assert [s.id for s in library.pending_suggestions(guild_id=GUILD)] == [suggestion.id]


def test_a_guild_write_never_touches_another_guilds_copy(library: Library) -> None:
    library.apply(
        actor=OTHER_MOD,
        kind=EntityKind.PERSON,
        key="jagmeet-singh",
        change=renamed(EntityKind.PERSON),
        summary="s",
    )
    library.remove(actor=MOD, kind=EntityKind.PERSON, key="jagmeet-singh")

    assert name_of(visible(library, OTHER, EntityKind.PERSON, "jagmeet-singh")) == "Corrected name"


# -- optimistic concurrency ------------------------------------------------------------------------


def test_a_write_based_on_an_old_revision_is_refused(library: Library) -> None:
    opened = library.revision(guild_id=GUILD, kind=EntityKind.INCIDENT, key="singh-2020")
    add_quote(library, SECOND_MOD)
    saved = state(library, GUILD, EntityKind.INCIDENT, "singh-2020")

    with pytest.raises(Conflict) as caught:
        edit_singh(library, with_fields(title="Corrected name"), expected_revision=opened)
    assert (caught.value.msg, caught.value.fields) == (
        Msg.CHANGED_MEANWHILE,
        {"kind": kind_name(EntityKind.INCIDENT), "key": "singh-2020"},
    )
    assert state(library, GUILD, EntityKind.INCIDENT, "singh-2020") == saved


def test_a_write_based_on_the_current_revision_lands(library: Library) -> None:
    add_quote(library, SECOND_MOD)

    edit_singh(library, with_fields(title="Corrected name"), expected_revision=1)

    assert name_of(visible(library, GUILD, EntityKind.INCIDENT, "singh-2020")) == "Corrected name"


# -- suggestions -----------------------------------------------------------------------------------

MEMBER = Actor(GUILD, 777)


def suggest_rename(library: Library) -> int:
    suggestion = library.suggest(
        actor=MEMBER,
        kind=EntityKind.PERSON,
        key="jagmeet-singh",
        change=renamed(EntityKind.PERSON),
        summary="fix the name",
    )
    assert suggestion.id is not None
    return suggestion.id


def test_a_suggestion_waits_without_changing_anything(library: Library) -> None:
    suggestion_id = suggest_rename(library)

    pending = library.pending_suggestions(guild_id=GUILD)
    assert [(s.id, s.author_id, s.base, s.proposal["entry"]["name"]) for s in pending] == [
        (suggestion_id, MEMBER.user_id, None, "Corrected name")
    ]
    assert name_of(visible(library, GUILD, EntityKind.PERSON, "jagmeet-singh")) == "Jagmeet Singh"
    assert audit_count(library) == 0


def test_an_invalid_suggestion_is_refused_like_a_write(library: Library) -> None:
    with pytest.raises(InvalidInput, match="unknown person 'jagmet-singh'"):
        library.suggest(
            actor=MEMBER,
            kind=EntityKind.INCIDENT,
            key="singh-2020",
            change=changes.existing(
                IncidentEntry, lambda e: entries.add_quote(e, {**QUOTE, "speaker": "jagmet-singh"})
            ),
            summary="s",
        )


def test_approving_a_suggestion_writes_it_through_apply(library: Library) -> None:
    suggestion_id = suggest_rename(library)

    record = library.approve(actor=MOD, suggestion_id=suggestion_id)

    assert (record.action, record.suggestion_id, record.actor_id) == (
        AuditAction.APPROVE,
        suggestion_id,
        MOD.user_id,
    )
    assert name_of(visible(library, GUILD, EntityKind.PERSON, "jagmeet-singh")) == "Corrected name"
    assert library.pending_suggestions(guild_id=GUILD) == []


def test_a_suggestion_made_before_an_edit_is_stale(library: Library) -> None:
    suggestion_id = suggest_rename(library)
    library.apply(
        actor=MOD,
        kind=EntityKind.PERSON,
        key="jagmeet-singh",
        change=changes.existing(PersonEntry, lambda e: entries.add_alias(e, "JS")),
        summary="s",
    )

    with pytest.raises(Conflict) as caught:
        library.approve(actor=MOD, suggestion_id=suggestion_id)
    assert caught.value.msg is Msg.CHANGED_SINCE_SUGGESTION

    outcomes = library.take_outcomes(guild_id=GUILD, user_id=MEMBER.user_id)
    assert [(s.id, s.status) for s in outcomes] == [(suggestion_id, SuggestionStatus.STALE)]
    assert name_of(visible(library, GUILD, EntityKind.PERSON, "jagmeet-singh")) == "Jagmeet Singh"


def test_a_rejected_suggestion_keeps_its_reason_and_changes_nothing(library: Library) -> None:
    suggestion_id = suggest_rename(library)

    rejected = library.reject(actor=MOD, suggestion_id=suggestion_id, reason="the source spells it so")

    assert (rejected.status, rejected.reviewer_id, rejected.reason) == (
        SuggestionStatus.REJECTED,
        MOD.user_id,
        "the source spells it so",
    )
    assert name_of(visible(library, GUILD, EntityKind.PERSON, "jagmeet-singh")) == "Jagmeet Singh"


def test_a_decided_suggestion_cannot_be_decided_again(library: Library) -> None:
    suggestion_id = suggest_rename(library)
    library.reject(actor=MOD, suggestion_id=suggestion_id)

    with pytest.raises(Conflict) as caught:
        library.approve(actor=MOD, suggestion_id=suggestion_id)
    assert (caught.value.msg, caught.value.fields) == (
        Msg.ALREADY_DECIDED,
        {"suggestion": suggestion_id, "status": say(Msg.STATUS_REJECTED)},
    )


def test_the_author_is_told_each_outcome_once(library: Library) -> None:
    approved = suggest_rename(library)
    library.approve(actor=MOD, suggestion_id=approved)
    waiting = library.suggest(
        actor=MEMBER,
        kind=EntityKind.PARTY,
        key="new-democratic-party",
        change=renamed(EntityKind.PARTY),
        summary="s",
    )

    first = library.take_outcomes(guild_id=GUILD, user_id=MEMBER.user_id)
    second = library.take_outcomes(guild_id=GUILD, user_id=MEMBER.user_id)

    assert [(s.id, s.status) for s in first] == [(approved, SuggestionStatus.APPROVED)]
    assert waiting.id not in {s.id for s in first}
    assert second == []


# -- guild config ----------------------------------------------------------------------------------


def test_the_moderator_role_is_per_guild(library: Library) -> None:
    library.set_moderator_role(actor=MOD, role_id=4242)

    assert library.moderator_role(guild_id=GUILD) == 4242
    assert library.moderator_role(guild_id=OTHER) is None


def test_clearing_the_moderator_role_goes_back_to_manage_server(library: Library) -> None:
    library.set_moderator_role(actor=MOD, role_id=4242)
    library.set_moderator_role(actor=SECOND_MOD, role_id=None)

    assert library.moderator_role(guild_id=GUILD) is None


# -- the search index follows every write ----------------------------------------------------------


def test_a_new_quote_is_found_in_its_guild_right_after_the_write(library: Library) -> None:
    add_quote(library)

    found = library.answer("quote", "zebra crossings unparliamentary", guild_id=GUILD)
    elsewhere = library.answer("quote", "zebra crossings unparliamentary", guild_id=OTHER)

    assert "Zebra crossings are unparliamentary." in text_of(found)
    assert "Zebra crossings are unparliamentary." not in text_of(elsewhere)


def test_a_removed_quote_is_no_longer_found(library: Library) -> None:
    add_quote(library)
    edit_singh(library, lambda entry: entries.remove_quote(entry, 8))

    assert "Zebra crossings" not in text_of(library.answer("quote", "zebra crossings", guild_id=GUILD))


def test_an_edit_re_indexes_only_the_documents_it_changed(library: Library) -> None:
    edit_singh(library, lambda entry: entry.model_copy(update={"title": f"{entry.title} (our copy)"}))
    held = [doc.ident for doc in library.index.guild_documents(GUILD) if not doc.removed]
    slots = {ident: library.index._entries[ident] for ident in held}  # an upsert gives a new slot

    edit_singh(library, lambda entry: entry.model_copy(update={"summary": "A corrected summary of the day."}))

    moved = {ident for ident, slot in slots.items() if library.index._entries[ident] != slot}
    assert moved == {(DocumentKind.INCIDENT, "singh-2020", GUILD)}
    assert len(held) > 8  # its quotes, rulings and motions, which the summary is not in, kept theirs


def test_a_guild_correction_of_a_quote_replaces_the_shared_one_there(library: Library) -> None:
    edit_singh(library, lambda entry: entries.edit_quote(entry, 3, text="I shall not."))

    in_guild = text_of(library.answer("quote", "I will not", guild_id=GUILD))
    elsewhere = text_of(library.answer("quote", "I will not", guild_id=OTHER))

    assert "I will not." not in in_guild
    assert "I will not." in elsewhere


def test_a_corrected_incident_title_is_answered_in_that_guild_only(library: Library) -> None:
    edit_singh(library, with_fields(title="Corrected name"))

    assert "Corrected name" in text_of(library.answer("incident", "singh-2020", guild_id=GUILD))
    assert "Corrected name" not in text_of(library.answer("incident", "singh-2020", guild_id=OTHER))


def test_a_removed_shared_incident_is_not_found_in_that_guild(library: Library) -> None:
    library.remove(actor=MOD, kind=EntityKind.INCIDENT, key="singh-2020")

    hits = library.index.search("Jagmeet Singh I will not", guild_id=GUILD, limit=40)

    assert hits
    assert all(hit.document.incident != "singh-2020" for hit in hits)
    not_found = say(Msg.NO_MATCH, what=say(Msg.TOPIC_INCIDENT), query="singh-2020")
    assert not_found in text_of(library.answer("incident", "singh-2020", guild_id=GUILD))
    assert "Jagmeet Singh" in text_of(library.answer("incident", "singh-2020", guild_id=OTHER))


def test_undoing_a_removal_brings_the_incident_back_into_search(library: Library) -> None:
    library.remove(actor=MOD, kind=EntityKind.INCIDENT, key="singh-2020")

    library.undo(actor=MOD)

    assert library.index.guild_documents(GUILD) == []
    assert "Jagmeet Singh" in text_of(library.answer("incident", "singh-2020", guild_id=GUILD))


def test_the_index_after_writes_matches_a_rebuild(library: Library) -> None:
    add(library, EntityKind.INCIDENT)
    add(library, EntityKind.PERSON)
    add_quote(library)
    library.remove(actor=MOD, kind=EntityKind.PARTY, key="new-democratic-party")

    assert_index_matches_a_rebuild(library)


def assert_index_matches_a_rebuild(library: Library, incident: str | None = None) -> None:
    """The guild's documents (only the incident's, when one is named) are those a rebuild makes, searched on
    the same texts."""
    with library.database.session() as session:
        rebuilt = SearchIndex(load_documents(session))

    def documents(index: SearchIndex) -> list[tuple[Document, list[str]]]:
        found = sorted(index.guild_documents(GUILD), key=lambda d: d.ident)
        return [(d, index.texts(*d.ident)) for d in found if incident in {None, d.incident}]

    assert documents(library.index) == documents(rebuilt)


def searched_texts(library: Library, incident: str) -> set[str]:
    """The texts (folded) the guild's documents of an incident (its own, its quotes', ...) are searched on."""
    documents = library.index.guild_documents(GUILD)
    return {text for doc in documents if doc.incident == incident for text in library.index.texts(*doc.ident)}


def test_renaming_whom_or_what_a_guild_incident_names_reindexes_that_incident(library: Library) -> None:
    for kind in (EntityKind.CHAMBER, EntityKind.PARTY):
        add(library, kind)
    person = NEW[EntityKind.PERSON].model_copy(update={"party": "rhinoceros-party"})
    add(library, EntityKind.PERSON, entry=person)
    incident = NEW[EntityKind.INCIDENT].model_copy(
        update={
            "chamber": "ca-senate",
            "participants": [ParticipantEntry(person="jane-doe", role="Senator")],  # shows her own party
            "quotes": [QuoteEntry.model_validate({**QUOTE, "speaker": "jane-doe"})],
        }
    )
    add(library, EntityKind.INCIDENT, entry=incident)

    for kind, key in (
        (EntityKind.CHAMBER, "ca-senate"),
        (EntityKind.PARTY, "rhinoceros-party"),
        (EntityKind.PERSON, "jane-doe"),
    ):
        library.apply(actor=MOD, kind=kind, key=key, change=renamed(kind), summary="renamed")
        assert "corrected name" in searched_texts(library, "doe-2021"), kind
        assert_index_matches_a_rebuild(library, "doe-2021")
        library.undo(actor=MOD)
        assert "corrected name" not in searched_texts(library, "doe-2021"), kind
    library.remove(actor=MOD, kind=EntityKind.PERSON, key="jane-doe")
    assert "jane doe" not in searched_texts(library, "doe-2021")
    assert_index_matches_a_rebuild(library, "doe-2021")
    library.restore(actor=MOD, kind=EntityKind.PERSON, key="jane-doe")
    assert "jane doe" in searched_texts(library, "doe-2021")


def person_texts(library: Library, person: str) -> set[str]:
    """The texts (folded) the guild's document of a person is searched on: their incidents' titles among
    them."""
    assert library.index.get(DocumentKind.PERSON, person, GUILD) is not None
    return set(library.index.texts(DocumentKind.PERSON, person, GUILD))


def test_a_person_shows_their_incidents_as_edits_leave_them(library: Library) -> None:
    add(library, EntityKind.PERSON)
    cast = [ParticipantEntry(person="jane-doe", role="Member")]
    incident = NEW[EntityKind.INCIDENT].model_copy(update={"participants": cast})
    add(library, EntityKind.INCIDENT, entry=incident)

    def edit(**update: Any) -> None:
        library.apply(
            actor=MOD,
            kind=EntityKind.INCIDENT,
            key="doe-2021",
            change=lambda entry: entry.model_copy(update=update) if entry else None,
            summary="edited",
        )
        assert_index_matches_a_rebuild(library)

    edit(title="Corrected title")
    assert "corrected title" in person_texts(library, "jane-doe")
    edit(participants=[])  # she leaves the cast: her document no longer shows the incident
    assert "corrected title" not in person_texts(library, "jane-doe")
    library.undo(actor=MOD)
    assert "corrected title" in person_texts(library, "jane-doe")
    library.remove(actor=MOD, kind=EntityKind.INCIDENT, key="doe-2021")
    assert "corrected title" not in person_texts(library, "jane-doe")
    assert_index_matches_a_rebuild(library)
