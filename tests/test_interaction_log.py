"""One log line per interaction (``bot.client.interaction_log``), through the real bot and loopback."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from bot.client.interaction_log import outcome_of
from bot.errors import Forbidden, NotFound
from bot.loopback.payloads import DEFAULT_GUILD_ID, DEFAULT_USER_ID
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from tests.discord_harness import buttons, first_message, is_ephemeral

LOGGER = "bot.client.interaction_log"


@pytest.fixture
def lines(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger=LOGGER)
    return caplog


def logged(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == LOGGER]


def only_line(caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    records = logged(caplog)
    assert len(records) == 1, [record.getMessage() for record in records]
    return records[0]


async def test_a_command_that_answers_logs_ok_with_its_name_place_member_and_time(
    discord_session: OfflineSession, lines: pytest.LogCaptureFixture
) -> None:
    await discord_session.invoke('/incident query:"jagmet sigh"')

    record = only_line(lines)
    message = record.getMessage()
    where = f"guild={DEFAULT_GUILD_ID} user={DEFAULT_USER_ID} locale=en-US"
    assert message.startswith(f"interaction command=/incident kind=command {where} outcome=ok ms=")
    assert record.levelno == logging.INFO
    assert (record.command, record.guild, record.user, record.outcome) == (
        "/incident",
        DEFAULT_GUILD_ID,
        DEFAULT_USER_ID,
        "ok",
    )
    assert isinstance(record.ms, int)
    assert record.ms >= 0
    assert "jagmet" not in message  # option values are never logged
    assert "token" not in message


async def test_a_refused_command_logs_refused(
    discord_session: OfflineSession, lines: pytest.LogCaptureFixture
) -> None:
    body = first_message(await discord_session.invoke("/review"))  # an ordinary member, not a moderator

    assert is_ephemeral(body)
    assert "command=/review" in only_line(lines).getMessage()
    assert only_line(lines).outcome == "refused"


async def test_a_command_that_fails_politely_logs_failed(
    moderator_session: OfflineSession, lines: pytest.LogCaptureFixture
) -> None:
    body = first_message(await moderator_session.invoke("/undo"))  # nothing to undo yet

    assert body["content"] == "You have no change here left to undo."
    assert only_line(lines).outcome == "failed"


async def test_an_unexpected_error_logs_its_class_and_the_apology_is_still_sent(
    discord_session: OfflineSession, lines: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise LookupError("the database went away")

    monkeypatch.setattr(discord_session.bot.library, "answer", broken)
    body = first_message(await discord_session.invoke("/incident singh-2020"))

    assert body["content"].startswith("Sorry, something went wrong")
    line = only_line(lines)
    assert line.outcome == "LookupError"
    assert "outcome=LookupError" in line.getMessage()
    assert "singh-2020" not in line.getMessage()


async def test_autocomplete_logs_a_line_of_its_own_without_what_was_typed(
    discord_session: OfflineSession, lines: pytest.LogCaptureFixture
) -> None:
    await discord_session.complete("/incident query:therr")

    line = only_line(lines)
    assert line.getMessage().startswith("interaction command=/incident kind=autocomplete ")
    assert line.outcome == "ok"
    assert "therr" not in line.getMessage()


async def test_each_interaction_gets_one_line(
    discord_session: OfflineSession, lines: pytest.LogCaptureFixture
) -> None:
    await discord_session.invoke("/incident singh-2020")
    await discord_session.complete("/incident query:sin")
    await discord_session.invoke("/review")

    assert [(record.kind, record.outcome) for record in logged(lines)] == [
        ("command", "ok"),
        ("autocomplete", "ok"),
        ("command", "refused"),
    ]


def test_outcomes_name_refusals_domain_failures_and_other_errors() -> None:
    assert outcome_of(Forbidden(Msg.NOT_A_MODERATOR)) == "refused"
    assert outcome_of(NotFound(Msg.BUTTON_GONE)) == "failed"
    assert outcome_of(KeyError("x")) == "KeyError"


async def test_a_reply_button_press_logs_its_custom_id_as_a_component(
    discord_session: OfflineSession, lines: pytest.LogCaptureFixture
) -> None:
    await discord_session.invoke("/incident singh-2020")
    await discord_session.press("parlbot:n:quotes:singh-2020")

    line = logged(lines)[-1]
    assert (line.command, line.kind, line.outcome) == ("parlbot:n:quotes:singh-2020", "component", "ok")


async def test_a_press_on_someone_elses_pages_logs_refused(
    discord_session: OfflineSession, lines: pytest.LogCaptureFixture
) -> None:
    body = first_message(await discord_session.invoke("/search trudeau"))
    next_page = next(button for button in buttons(body) if button["label"] == say(Msg.NEXT))
    stranger = replace(discord_session.invoker, user_id=discord_session.invoker.user_id + 1)
    await discord_session.press(next_page["custom_id"], invoker=stranger)

    line = logged(lines)[-1]
    assert (line.kind, line.user, line.outcome) == ("component", stranger.user_id, "refused")
