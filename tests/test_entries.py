"""Sub-changes are pure functions over dataset entries, with polite messages when they cannot apply."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.curation import entries
from bot.errors import InvalidInput
from bot.messages.catalogue import Msg, say
from db.dataset.files import read_dataset
from db.dataset.schema import SHIPPED_DATASET, IncidentEntry, PersonEntry, QuoteEntry

QUOTE = {
    "speaker": "jagmeet-singh",
    "speaker_label": "Jagmeet Singh",
    "text": "Zebra crossings are unparliamentary.",
    "delivery": "verbatim",
    "source": "singh-2020-cbc",
}
RULING = {
    "ruled_by_label": "The House",
    "outcome": "warned",
    "summary": "Warned the member.",
    "source": "singh-2020-cbc",
}
MOTION = {
    "text": "That the House adjourn.",
    "procedure": "ordinary",
    "result": "failed",
    "source": "singh-2020-cbc",
}
PARTICIPANT = {"person": "alain-therrien", "role": "Bloc MP"}
POSITION = {
    "label": "The Greens",
    "stance": "consent",
    "attribution": "news_reported",
    "source": "singh-2020-cbc",
}


@pytest.fixture(scope="module")
def singh() -> IncidentEntry:
    return next(entry for entry in read_dataset(SHIPPED_DATASET).incidents if entry.slug == "singh-2020")


def lengths(entry: IncidentEntry) -> dict[str, int]:
    return {
        "quotes": len(entry.quotes),
        "rulings": len(entry.rulings),
        "motions": len(entry.motions),
        "participants": len(entry.participants),
        "positions": sum(len(motion.positions) for motion in entry.motions),
    }


ADDS: dict[str, Callable[[IncidentEntry], IncidentEntry]] = {
    "quotes": lambda e: entries.add_quote(e, QUOTE),
    "rulings": lambda e: entries.add_ruling(e, RULING),
    "motions": lambda e: entries.add_motion(e, MOTION),
    "participants": lambda e: entries.add_participant(e, PARTICIPANT),
    "positions": lambda e: entries.add_position(e, 0, POSITION),
}
REMOVES: dict[str, Callable[[IncidentEntry], IncidentEntry]] = {
    "quotes": lambda e: entries.remove_quote(e, 0),
    "rulings": lambda e: entries.remove_ruling(e, 0),
    "motions": lambda e: entries.remove_motion(e, 0),
    "participants": lambda e: entries.remove_participant(e, 0),
    "positions": lambda e: entries.remove_position(e, 0, 0),
}
EDITS: dict[str, tuple[Callable[[IncidentEntry], IncidentEntry], Callable[[IncidentEntry], Any]]] = {
    "quotes": (lambda e: entries.edit_quote(e, 1, text="Edited."), lambda e: e.quotes[1].text),
    "rulings": (lambda e: entries.edit_ruling(e, 1, summary="Edited."), lambda e: e.rulings[1].summary),
    "motions": (lambda e: entries.edit_motion(e, 0, result="passed"), lambda e: e.motions[0].result),
    "participants": (
        lambda e: entries.edit_participant(e, 2, role="Edited"),
        lambda e: e.participants[2].role,
    ),
    "positions": (
        lambda e: entries.edit_position(e, 0, 1, label="Edited"),
        lambda e: e.motions[0].positions[1].label,
    ),
}


@pytest.mark.parametrize("part", sorted(ADDS))
def test_adding_a_part_appends_it_and_leaves_the_original_alone(singh: IncidentEntry, part: str) -> None:
    changed = ADDS[part](singh)
    assert lengths(changed)[part] == lengths(singh)[part] + 1
    assert lengths(changed) | {part: lengths(singh)[part]} == lengths(singh)


@pytest.mark.parametrize("part", sorted(REMOVES))
def test_removing_a_part_drops_exactly_that_one(singh: IncidentEntry, part: str) -> None:
    changed = REMOVES[part](singh)
    assert lengths(changed)[part] == lengths(singh)[part] - 1


@pytest.mark.parametrize("part", sorted(EDITS))
def test_editing_a_part_changes_only_the_named_field(singh: IncidentEntry, part: str) -> None:
    edit, read = EDITS[part]
    changed = edit(singh)
    assert str(read(changed)) in {"Edited.", "Edited", "passed"}
    assert read(singh) != read(changed)
    assert lengths(changed) == lengths(singh)


def test_an_added_quote_is_the_last_one(singh: IncidentEntry) -> None:
    assert entries.add_quote(singh, QUOTE).quotes[-1] == QuoteEntry.model_validate(QUOTE)


def test_an_index_out_of_range_says_how_many_there_are(singh: IncidentEntry) -> None:
    with pytest.raises(InvalidInput) as caught:
        entries.edit_quote(singh, 12, text="x")
    assert caught.value.message == say(
        Msg.NO_SUCH_PART,
        part=say(Msg.PART_QUOTE),
        index=12,
        owner="`singh-2020`",
        count=8,
        parts=say(Msg.PART_QUOTES),
    )


def test_a_position_of_a_missing_motion_is_refused(singh: IncidentEntry) -> None:
    with pytest.raises(InvalidInput) as caught:
        entries.add_position(singh, 3, POSITION)
    assert caught.value.message == say(
        Msg.NO_SUCH_PART,
        part=say(Msg.PART_MOTION),
        index=3,
        owner="`singh-2020`",
        count=1,
        parts=say(Msg.PART_MOTION),
    )


def test_an_edit_that_changes_nothing_says_so(singh: IncidentEntry) -> None:
    with pytest.raises(InvalidInput) as caught:
        entries.edit_quote(singh, 0, text=singh.quotes[0].text)
    assert caught.value.message == say(
        Msg.PART_UNCHANGED, part=say(Msg.PART_QUOTE), index=0, owner="`singh-2020`"
    )


def test_a_quote_without_a_source_is_refused_politely(singh: IncidentEntry) -> None:
    quote = {name: value for name, value in QUOTE.items() if name != "source"}
    with pytest.raises(InvalidInput) as caught:
        entries.add_quote(singh, quote)
    assert caught.value.msg is Msg.CANNOT_SAVE
    sources = say(Msg.ONE_OF_SOURCES, keys=", ".join(f"`{key}`" for key in singh.sources))
    quote_9 = say(Msg.PLACE, part=say(Msg.PART_QUOTE), number=9)
    assert caught.value.message == say(
        Msg.CANNOT_SAVE, problem=say(Msg.SOURCE_REQUIRED, path=quote_9, sources=sources)
    )


def test_text_over_its_limit_gives_the_limit_and_the_length(singh: IncidentEntry) -> None:
    with pytest.raises(InvalidInput) as caught:
        entries.edit_quote(singh, 0, text="x" * 4001)
    quote_1 = say(Msg.PLACE_NAMED, part=say(Msg.PART_QUOTE), number=1, label=singh.quotes[0].speaker_label)
    text_of_quote_1 = say(Msg.FIELD_OF, field="text", place=quote_1)
    assert caught.value.fields == {
        "problem": say(Msg.TOO_LONG, path=text_of_quote_1, length=4001, limit=4000)
    }


def test_an_unknown_field_is_named(singh: IncidentEntry) -> None:
    with pytest.raises(InvalidInput) as caught:
        entries.edit_ruling(singh, 0, mood="grumpy")
    ruling_1 = say(
        Msg.PLACE_NAMED, part=say(Msg.PART_RULING), number=1, label=singh.rulings[0].ruled_by_label
    )
    assert caught.value.fields == {
        "problem": say(Msg.NOT_A_FIELD, path=say(Msg.FIELD_OF, field="mood", place=ruling_1))
    }


def test_every_problem_is_listed(singh: IncidentEntry) -> None:
    with pytest.raises(InvalidInput) as caught:
        entries.add_ruling(
            singh, {"ruled_by_label": "", "outcome": "exploded", "summary": "s", "source": "x"}
        )
    assert caught.value.msg is Msg.CANNOT_SAVE_MANY
    lines = str(caught.value.fields["problems"]).splitlines()
    ruling_4 = say(Msg.PLACE, part=say(Msg.PART_RULING), number=4)
    label_of, outcome_of = (
        say(Msg.FIELD_OF, field=name, place=ruling_4) for name in ("ruled_by_label", "outcome")
    )
    assert lines[0] == f"• {say(Msg.EMPTY, path=label_of)}"
    head, tail = say(Msg.NOT_ONE_OF, path=outcome_of, expected="\0", value="exploded").split("\0")
    assert lines[1].startswith(f"• {head}'called_to_order', ")
    assert lines[1].endswith(tail)
    assert len(lines) == 2


def test_aliases_are_added_renamed_and_removed() -> None:
    person = PersonEntry(slug="jane-doe", name="Jane Doe", aliases=["Jane"])
    added = entries.add_alias(person, "JD")
    renamed = entries.edit_alias(added, "JD", "J. Doe")
    removed = entries.remove_alias(renamed, "Jane")
    assert (added.aliases, renamed.aliases, removed.aliases) == (
        ["Jane", "JD"],
        ["Jane", "J. Doe"],
        ["J. Doe"],
    )


def test_a_duplicate_alias_is_refused() -> None:
    with pytest.raises(InvalidInput) as caught:
        entries.add_alias(PersonEntry(slug="jane-doe", name="Jane Doe", aliases=["Jane"]), "Jane")
    assert (caught.value.msg, caught.value.fields) == (Msg.HAS_ALIAS, {"slug": "jane-doe", "alias": "Jane"})


def test_removing_a_missing_alias_is_refused() -> None:
    with pytest.raises(InvalidInput) as caught:
        entries.remove_alias(PersonEntry(slug="jane-doe", name="Jane Doe"), "Janet")
    assert (caught.value.msg, caught.value.fields) == (Msg.NO_ALIAS, {"slug": "jane-doe", "alias": "Janet"})
