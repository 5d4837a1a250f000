"""Hostile values through real commands: raw payloads as a client that ignores Discord's own checks
could send them, on SQLite and PostgreSQL. Each is refused politely and privately (or cleaned), and
nothing is logged as an error: no traceback, no apology.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from bot.answers.render import Action
from bot.curation.changes import Actor
from bot.errors import NotFound
from bot.inputs import ID_MAX
from bot.library import Library
from bot.loopback.payloads import DEFAULT_GUILD_ID, DEFAULT_USER_ID, Invoker, leaf_options
from bot.loopback.rest import RecordedRequest
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from db.dataset.schema import IncidentEntry, PersonEntry
from db.models import NAME_MAX, EntityKind
from tests.discord_harness import choices, first_message, is_ephemeral
from tests.test_curation_commands import audit_count, member, opened_modal
from tests.test_transfer_commands import import_and_confirm, import_file, with_people

PERSON = "/add person slug:jane-doe name:Jane"
QUOTE = "/add quote incident:singh-2020 speaker:jagmeet-singh source:singh-2020-cbc"
BLANKS = ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u00a0", "\u200b", "\ufeff", " \x1c\u200b "]


async def sent(
    session: OfflineSession, line: str, invoker: Invoker | None = None, **values: object
) -> list[RecordedRequest]:
    """Run ``line`` with some of its options' values replaced by ``values``, as they are, in the payload."""
    payload = session.command_payload(line, invoker=invoker)
    given = {option["name"]: option for option in leaf_options(payload["data"]["options"])}
    for name, value in values.items():
        given[name]["value"] = value
    return await session.dispatch(payload)


def refusal(requests: list[RecordedRequest]) -> str:
    """The content of the answer, which must be private."""
    body = first_message(requests)
    assert is_ephemeral(body)
    return str(body["content"])


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def entry(library: Library, kind: EntityKind, key: str) -> Any:
    return library.visible_entry(guild_id=DEFAULT_GUILD_ID, kind=kind, key=key)


@pytest.mark.parametrize("blank", BLANKS)
async def test_a_slug_of_whitespace_python_strips_is_refused_as_empty(
    moderator_session: OfflineSession, caplog: pytest.LogCaptureFixture, blank: str
) -> None:
    changes = audit_count(moderator_session)

    answer = refusal(await sent(moderator_session, PERSON, slug=blank))

    assert answer == say(Msg.EMPTY, path="`slug`")
    assert errors(caplog) == []
    assert audit_count(moderator_session) == changes


async def test_a_member_suggesting_such_a_slug_is_refused_the_same_way(
    moderator_session: OfflineSession, caplog: pytest.LogCaptureFixture
) -> None:
    suggesting = member(moderator_session)

    requests = await sent(
        moderator_session, "/suggest person slug:jane-doe name:Jane", suggesting, slug="\x85"
    )

    assert refusal(requests) == say(Msg.EMPTY, path="`slug`")
    assert errors(caplog) == []


@pytest.mark.parametrize(
    ("line", "option"),
    [
        (f"{QUOTE} text:words", "text"),
        (PERSON, "name"),
        ("/add source key:doe-2021-example publisher:Example", "publisher"),
        ("/incident query:singh", "query"),
    ],
)
async def test_nul_in_a_text_is_refused_politely_and_nothing_is_written(
    moderator_session: OfflineSession, caplog: pytest.LogCaptureFixture, line: str, option: str
) -> None:
    changes = audit_count(moderator_session)

    answer = refusal(await sent(moderator_session, line, **{option: "a\x00b"}))

    assert answer == say(Msg.CONTROL_CHARACTER, path=f"`{option}`", character="U+0000")
    assert errors(caplog) == []
    assert audit_count(moderator_session) == changes


@pytest.mark.parametrize(
    ("control", "code"), [("\x1b[31m", "U+001B"), ("\x7f", "U+007F"), ("\x9b", "U+009B")]
)
async def test_any_other_control_character_is_refused_naming_it(
    moderator_session: OfflineSession, control: str, code: str
) -> None:
    answer = refusal(await sent(moderator_session, PERSON, name=f"Jane{control}Doe"))

    assert answer == say(Msg.CONTROL_CHARACTER, path="`name`", character=code)


async def test_a_modal_field_holding_nul_is_refused_politely_handing_back_the_rest_of_the_text(
    moderator_session: OfflineSession, caplog: pytest.LogCaptureFixture
) -> None:
    modal = opened_modal(await moderator_session.invoke(QUOTE))

    answer = refusal(await moderator_session.submit(modal["custom_id"], {"text": "I will\x00 not."}))

    assert answer.startswith(say(Msg.CONTROL_CHARACTER, path=f"`{say(Msg.LABEL_TEXT)}`", character="U+0000"))
    assert say(Msg.NOTHING_SAVED) in answer
    assert f"{say(Msg.LABEL_TEXT)}:\n```\nI will not.\n```" in answer
    assert errors(caplog) == []


async def test_whitespace_is_collapsed_and_invisible_characters_dropped_when_stored(
    moderator_session: OfflineSession, library: Library
) -> None:
    await sent(moderator_session, PERSON, name="\u200b Jane\u2028\x1f  Doe\t\ufeff")

    assert entry(library, EntityKind.PERSON, "jane-doe") == PersonEntry(slug="jane-doe", name="Jane Doe")


async def test_a_long_text_keeps_its_lines_and_loses_trailing_spaces(
    moderator_session: OfflineSession, library: Library
) -> None:
    modal = opened_modal(await moderator_session.invoke(QUOTE))

    await moderator_session.submit(
        modal["custom_id"], {"text": "I will not.  \r\nNot today\u2028ever\u200b \n"}
    )

    singh = entry(library, EntityKind.INCIDENT, "singh-2020")
    assert isinstance(singh, IncidentEntry)
    assert singh.quotes[-1].text == "I will not.\nNot today\never"


async def test_undo_of_an_id_beyond_what_the_database_holds_is_refused_politely(
    moderator_session: OfflineSession, caplog: pytest.LogCaptureFixture
) -> None:
    answer = refusal(await sent(moderator_session, "/undo entry:1", entry=2**31))

    assert answer == say(Msg.OUT_OF_RANGE, path="`entry`", value=2**31, low=1, high=ID_MAX)
    assert errors(caplog) == []


async def test_a_number_outside_its_options_range_is_refused(moderator_session: OfflineSession) -> None:
    answer = refusal(await sent(moderator_session, "/quiz start questions:5", questions=1_000_000))

    assert answer == say(Msg.OUT_OF_RANGE, path="`questions`", value=1_000_000, low=1, high=20)


async def test_a_value_outside_an_options_choices_is_refused(
    moderator_session: OfflineSession, library: Library
) -> None:
    answer = refusal(await sent(moderator_session, "/config language language:fr", language="xx"))

    assert answer == say(Msg.NOT_UNDERSTOOD, value="xx")
    assert library.guild_language(DEFAULT_GUILD_ID) is None


async def test_a_text_longer_than_its_option_allows_is_refused(moderator_session: OfflineSession) -> None:
    answer = refusal(await sent(moderator_session, PERSON, name="x" * (NAME_MAX + 1)))

    assert answer == say(Msg.TOO_LONG, path="`name`", length=NAME_MAX + 1, limit=NAME_MAX)


async def test_autocomplete_with_a_control_character_offers_nothing(
    moderator_session: OfflineSession, caplog: pytest.LogCaptureFixture
) -> None:
    payload = moderator_session.autocomplete_payload("/edit quote incident:singh-2020 number:")
    [incident, _number] = leaf_options(payload["data"]["options"])
    incident["value"] = "singh\x00-2020"

    offered = choices(await moderator_session.dispatch(payload))

    assert offered == []
    assert errors(caplog) == []


ASKER = Actor(DEFAULT_GUILD_ID, DEFAULT_USER_ID)
BEYOND = 2**31  # one more than an id a table holds


@pytest.mark.parametrize(
    ("ask", "msg"),
    [
        (lambda library: library.undo(actor=ASKER, audit_id=BEYOND), Msg.NO_SUCH_CHANGE),
        (
            lambda library: library.shown_change(guild_id=DEFAULT_GUILD_ID, audit_id=2**53),
            Msg.HISTORY_CHANGE_GONE,
        ),
        (lambda library: library.reject(actor=ASKER, suggestion_id=BEYOND), Msg.NO_SUCH_SUGGESTION),
        (lambda library: library.act(Action.QUOTE, f"quote:{BEYOND}", guild_id=None), Msg.BAD_REFERENCE),
        (
            lambda library: library.answer_quiz(
                question_id=BEYOND, guild_id=DEFAULT_GUILD_ID, user_id=1, display_name="Jane", choice=0
            ),
            Msg.QUIZ_QUESTION_GONE,
        ),
    ],
    ids=["undo", "history", "suggestion", "quote-button", "quiz-button"],
)
async def test_the_core_refuses_an_id_no_table_holds_as_not_found(
    library: Library, ask: Callable[[Library], object], msg: Msg
) -> None:
    with pytest.raises(NotFound) as refused:
        ask(library)

    assert refused.value.msg is msg


async def test_an_import_holding_a_control_character_is_refused_naming_where(
    moderator_session: OfflineSession, library: Library
) -> None:
    body = await import_file(moderator_session, with_people({"slug": "jane-doe", "name": "Jane\x00 Doe"}))

    rejected = {field["name"]: field["value"] for field in body["embeds"][0]["fields"]}
    assert rejected[say(Msg.REJECTED_ENTRIES)].endswith(
        ".name: contains the control character U+0000, which text cannot hold"
    )
    assert entry(library, EntityKind.PERSON, "jane-doe") is None


async def test_an_imports_texts_are_cleaned_like_a_moderators(
    moderator_session: OfflineSession, library: Library
) -> None:
    await import_and_confirm(
        moderator_session, with_people({"slug": "jane-doe", "name": " Jane\u00a0\x1c Doe\u200b"})
    )

    assert entry(library, EntityKind.PERSON, "jane-doe") == PersonEntry(slug="jane-doe", name="Jane Doe")
