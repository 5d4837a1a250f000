"""The message catalogues: every id has a text in every language, with the same fields as the English,
well formed; ``say`` fills them in the language being spoken, and a few English sentences are pinned
word for word (the other tests assert by id)."""

from __future__ import annotations

import re
import string

import pytest

from bot.curation.changes import KIND_NAMES, STATUS_NAMES, kind_name
from bot.curation.entries import PARTS
from bot.errors import Conflict, InvalidInput, NotFound
from bot.messages.catalogue import LOCALES, Msg, catalogue, say, speaking
from db.models import EntityKind, SuggestionStatus

ID = re.compile(r"[a-z]+(\.[a-z]+(-[a-z]+)*)+")


def fields_of(text: str) -> list[tuple[str, str | None, str | None]]:
    """The (name, conversion, format spec) of every ``{field}`` in ``text``."""
    return [
        (name, conversion, spec)
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    ]


def sample(spec: str | None) -> object:
    return 1.5 if spec else "x"


ENGLISH = catalogue("en")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_has_a_text_in_every_catalogue(locale: str) -> None:
    texts = catalogue(locale)
    assert sorted(set(Msg.__members__.values()) - set(map(Msg, texts))) == []
    assert sorted(set(texts) - {msg.value for msg in Msg}) == [], "texts for ids that no longer exist"
    assert all(texts[msg.value].strip() for msg in Msg)


@pytest.mark.parametrize("msg", list(Msg))
def test_every_id_reads_area_dot_name(msg: Msg) -> None:
    assert ID.fullmatch(msg.value)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("msg", list(Msg))
def test_every_text_has_well_formed_named_fields(msg: Msg, locale: str) -> None:
    fields = fields_of(catalogue(locale)[msg.value])  # raises on an unbalanced brace
    for name, conversion, spec in fields:
        assert name.isidentifier(), f"{msg}: {{{name}}} is not a named field"
        assert conversion in (None, "r", "s")
        assert "{" not in (spec or ""), f"{msg}: nested field in {{{name}:{spec}}}"
    with speaking(locale):
        assert say(msg, **{name: sample(spec) for name, _, spec in fields})


@pytest.mark.parametrize("msg", list(Msg))
def test_every_translation_has_the_fields_of_the_english(msg: Msg) -> None:
    english = sorted(fields_of(ENGLISH[msg.value]))
    for locale in LOCALES:
        assert sorted(fields_of(catalogue(locale)[msg.value])) == english, f"{locale}: {msg}"


def test_say_speaks_the_language_of_the_block_and_english_outside_it() -> None:
    with speaking("fr"):
        french = say(Msg.NEXT)
    assert french != say(Msg.NEXT) == "Next ▶"


def test_speaking_refuses_a_language_without_a_catalogue() -> None:
    with pytest.raises(ValueError, match="de"):
        speaking("de").__enter__()


def test_say_fills_the_fields_by_name() -> None:
    assert say(Msg.NO_SUCH_CHANGE, change=12) == "There is no change #12 in this server."
    assert say(Msg.NOT_UNDERSTOOD, value="x") == "I could not understand 'x' for that option."
    assert say(Msg.FILE_TOO_BIG, filename="a.json", megabytes=2.34, limit=5, guild=7).startswith(
        "a.json is 2.3 MB; /import takes dataset files up to 5 MB."
    )


def test_say_refuses_a_missing_field() -> None:
    with pytest.raises(KeyError):
        say(Msg.NO_SUCH_CHANGE)


def test_the_english_wording_of_a_few_sentences() -> None:
    """The one test that pins English words; every other test asserts through the catalogue."""
    assert say(Msg.NO_MATCH, what="incident", query="zzz") == "I could not find any incident matching “zzz”."
    assert say(Msg.APOLOGY) == (
        "Sorry, something went wrong while answering that. It has been logged; please try again later."
    )
    assert say(Msg.NOT_A_MODERATOR) == (
        "Only this server's parlbot moderators can change entries, so nothing was changed. "
        "You can propose a change with `/suggest` or `/suggest-edit`."
    )
    assert say(Msg.APPROVED, suggestion=1, change=2) == "Approved suggestion #1 (change #2)."
    assert say(Msg.CONFIRM_IMPORT_MANY, count=2).startswith("Import 2 entries into this server?")
    assert [say(msg) for msg in (Msg.APPROVE, Msg.REJECT, Msg.PREVIOUS, Msg.NEXT)] == [
        "Approve",
        "Reject",
        "◀ Previous",
        "Next ▶",
    ]


def test_the_english_words_of_the_forms() -> None:
    """How the forms' words combine: an audit summary, a part's number, a modal's title and label."""
    by_singh = say(Msg.PART_BY, part=say(Msg.PART_QUOTE), who="Jagmeet Singh")
    added = say(Msg.ADDED_SUMMARY, what=say(Msg.ADDED_TO, added=by_singh, owner="singh-2020"))
    assert added == "added a quote by Jagmeet Singh to singh-2020"
    on_motion = say(Msg.PART_OF, part=say(Msg.PART_MOTION), number=1, owner="singh-2020")
    position = say(Msg.PART_OF, part=say(Msg.PART_POSITION), number=2, owner=on_motion)
    edited = say(Msg.EDITED_SUMMARY, what=position, fields="stance, label")
    assert edited == "edited position 2 of motion 1 of singh-2020: stance, label"
    renamed = say(Msg.ALIAS_RENAMED_SUMMARY, alias="Jag", of="person jagmeet-singh", new="Jags")
    assert renamed == "renamed alias “Jag” of person jagmeet-singh to “Jags”"
    assert say(Msg.NO_SUCH_NUMBER, owner="singh-2020", part="quote", number=9, count=5) == (
        "`singh-2020` has no quote 9: pick a number from 1 to 5."
    )
    opens = say(Msg.OPENS_A_FORM, description="Exactly as printed")
    assert opens == "Exactly as printed (left out: a form opens)"
    assert say(Msg.SUGGEST_EDIT_TITLE, subject="quote") == "Suggest a correction to quote"
    words = [say(msg) for msg in (Msg.REMOVE, Msg.LABEL_SAID_TO, Msg.LABEL_URL)]
    assert words == ["Remove", "Said to", "Url"]


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (EntityKind.INCIDENT, "There is already an incident `singh-2020` here"),
        (EntityKind.PERSON, "There is already a person `singh-2020` here"),
    ],
)
def test_an_existing_entry_is_named_with_its_article(kind: EntityKind, expected: str) -> None:
    text = say(Msg.ALREADY_EXISTS, a_kind=kind_name(kind, article=True), key="singh-2020")
    assert text.startswith(expected)


def test_every_kind_part_and_status_has_its_words() -> None:
    assert set(KIND_NAMES) == set(EntityKind)
    assert set(STATUS_NAMES) == set(SuggestionStatus)
    assert [kind_name(kind) for kind in EntityKind] == [kind.value for kind in EntityKind]
    assert [say(one) for one, _ in PARTS.values()] == list(PARTS)


def test_a_domain_error_keeps_its_id_its_fields_and_its_english_text() -> None:
    error = NotFound(Msg.NO_SUCH_SUGGESTION, suggestion=3)
    assert error.msg is Msg.NO_SUCH_SUGGESTION
    assert error.fields == {"suggestion": 3}
    assert error.message == str(error) == say(Msg.NO_SUCH_SUGGESTION, suggestion=3)


@pytest.mark.parametrize("sentence", ["Something the forms say.", Msg.NO_SUCH_CHANGE.value])
def test_a_domain_error_refuses_anything_but_a_catalogue_id(sentence: str) -> None:
    """A finished sentence (even one spelling an id) has no id to assert on, nor a text to translate."""
    with pytest.raises(TypeError):
        InvalidInput(sentence)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Conflict(sentence, change=1)  # type: ignore[arg-type]
