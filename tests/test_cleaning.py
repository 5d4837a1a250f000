"""Clean input without Discord: ``db.cleaning`` (the rules), ``bot.inputs`` (our words for a refusal)
and the dataset's text types, which clean before they judge (docs/CURATION.md, "Clean input")."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from pydantic import ValidationError

from bot import inputs
from bot.curation import forms, problems
from bot.curation.form_spec import Verb
from bot.curation.values import PersonValues
from bot.errors import InvalidInput
from bot.messages.catalogue import Msg, say
from db.cleaning import ID_MAX, NOT_SPACES, ControlCharacter, clean_line, clean_text, is_id
from db.dataset.schema import PersonEntry, QuoteEntry
from db.models import NAME_MAX

EVERY_CHARACTER = [chr(point) for point in range(sys.maxunicode + 1)]
WHITESPACE = [c for c in EVERY_CHARACTER if c.isspace()]
CONTROLS = [c for c in EVERY_CHARACTER if unicodedata.category(c) == "Cc" and not c.isspace()]
INVISIBLE = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u180e"]
QUOTE = {"speaker_label": "Jane Doe", "delivery": "verbatim", "source": "doe-2021-example"}


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("Jane Doe", "Jane Doe"),
        ("  Jane   Doe  ", "Jane Doe"),
        ("Jane\tDoe\n", "Jane Doe"),
        ("Jane\x1c\x1d\x1e\x1fDoe", "Jane Doe"),
        ("\x85Jane\u2028Doe\u2029", "Jane Doe"),
        ("Jane\u200b Doe\ufeff", "Jane Doe"),
        ("Mai\u00adpi-Clarke", "Maipi-Clarke"),
        ("« Bonjour »", "« Bonjour »"),  # a single no-break space (French typography) stays
        ("Jane \u00a0Doe", "Jane Doe"),
        ("\u200dJane\u200d\u200c", "Jane"),  # a joiner joins nothing at an end
        ("👩\u200d💻", "👩\u200d💻"),  # ... and stays inside
    ],
)
def test_a_line_collapses_whitespace_trims_its_ends_and_drops_invisible_characters(
    given: str, stored: str
) -> None:
    assert clean_line(given) == stored


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("One line.", "One line."),
        ("First\r\nsecond\rthird", "First\nsecond\nthird"),
        ("First\u2028second\u2029third\x85fourth\x1cfifth\v\f", "First\nsecond\nthird\nfourth\nfifth"),
        ("  Indented\tand   spaced  \nnext  \n\n", "Indented\tand   spaced\nnext"),
        ("Unit\x1fseparator", "Unit separator"),
        ("\u200b\n  Words\ufeff\u200b  \n", "Words"),
    ],
)
def test_a_text_keeps_its_lines_and_tabs_and_loses_trailing_and_blank_ends(given: str, stored: str) -> None:
    assert clean_text(given) == stored


@pytest.mark.parametrize("blank", [*WHITESPACE, *INVISIBLE, " \u200b\x1c\u3000\u2028 "])
def test_whatever_python_or_unicode_counts_as_whitespace_is_blank(blank: str) -> None:
    assert clean_line(blank) == ""
    assert clean_text(blank) == ""


def test_whitespace_other_than_unicodes_spaces_is_what_the_rules_name() -> None:
    assert set(NOT_SPACES) == {c for c in WHITESPACE if unicodedata.category(c) != "Zs"}


@pytest.mark.parametrize("control", [*CONTROLS, chr(0xD800), chr(0xDFFF)])  # lone surrogates too
def test_a_control_character_is_refused_never_removed(control: str) -> None:
    for clean in (clean_line, clean_text):
        with pytest.raises(ControlCharacter) as refused:
            clean(f"a{control}b")
        assert refused.value.character == control


def test_cleaning_twice_changes_nothing_more() -> None:
    samples = ["  a \u00a0\u2028 b\u200b ", "x\r\n\r\n  y\t \n", "\u200dz\u3000\u3000w"]
    for clean in (clean_line, clean_text):
        assert [clean(clean(sample)) for sample in samples] == [clean(sample) for sample in samples]


@pytest.mark.parametrize(("number", "holds"), [(0, False), (1, True), (ID_MAX, True), (ID_MAX + 1, False)])
def test_an_id_is_one_a_table_can_hold(number: int, holds: bool) -> None:
    assert is_id(number) is holds
    assert ID_MAX == 2**31 - 1


def test_a_members_line_with_a_control_character_is_refused_naming_the_option() -> None:
    with pytest.raises(InvalidInput) as refused:
        inputs.line("a\x00b", option="name")
    assert refused.value.message == say(Msg.CONTROL_CHARACTER, path="`name`", character="U+0000")


def test_a_members_text_longer_than_its_limit_once_cleaned_is_refused() -> None:
    assert inputs.text("  abc  ", limit=3) == "abc"
    with pytest.raises(InvalidInput) as refused:
        inputs.text("abcd", option="reason", limit=3)
    assert refused.value.message == say(Msg.TOO_LONG, path="`reason`", length=4, limit=3)


@pytest.mark.parametrize(
    ("value", "low", "high", "choices", "msg"),
    [
        ("fine", 1, 10, (), None),
        ("\x1c\u200b", 1, 10, (), Msg.EMPTY),
        ("\x1c\u200b", None, 10, (), None),  # an optional text may be blank
        ("x" * 11, 1, 10, (), Msg.TOO_LONG),
        ("a\x07b", None, None, (), Msg.CONTROL_CHARACTER),
        (2**31, 1, ID_MAX, (), Msg.OUT_OF_RANGE),
        (0, 1, ID_MAX, (), Msg.OUT_OF_RANGE),
        (ID_MAX, 1, ID_MAX, (), None),
        ("de", None, None, ("en", "fr"), Msg.NOT_UNDERSTOOD),
    ],
)
def test_a_value_is_refused_where_discord_would_have_refused_it(
    value: object, low: int | None, high: int | None, choices: tuple[str, ...], msg: Msg | None
) -> None:
    refused = inputs.refusal("option", value, low=low, high=high, choices=choices)
    assert (refused and refused.msg) == msg


def test_an_entrys_texts_are_cleaned_before_their_limits_judge_them() -> None:
    person = PersonEntry.model_validate(
        {"slug": " jane-doe\u200b", "name": " Jane\u2028 Doe" + " " * NAME_MAX}
    )
    quote = QuoteEntry.model_validate({**QUOTE, "text": "First  \r\nsecond\u200b\n"})

    assert (person.slug, person.name) == ("jane-doe", "Jane Doe")
    assert quote.text == "First\nsecond"


def test_an_entry_holding_a_control_character_is_refused_in_a_moderators_words() -> None:
    with pytest.raises(ValidationError) as refused:
        QuoteEntry.model_validate({**QUOTE, "text": "a\x00b"})
    [detail] = refused.value.errors()

    described = problems.describe(detail, [], QuoteEntry, None)

    assert described == say(Msg.CONTROL_CHARACTER, path="`text`", character="U+0000")


def test_a_slug_blank_once_cleaned_is_refused_as_required() -> None:
    with pytest.raises(InvalidInput) as refused:
        forms.plan(Verb.ADD, PersonValues(slug="\x1c\u200b", name="Jane Doe"), lambda kind, key: None)
    assert refused.value.message == say(Msg.REQUIRED, path="`slug`")
