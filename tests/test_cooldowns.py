"""Cooldowns (``bot.client.cooldowns``): a bot configured as in production, through the loopback.

The bot reads its settings the way ``parlbot run`` does (``Settings.from_env``, nothing but the
database given), so every limit here is the production one from ``bot.settings.COOLDOWNS``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from discord import app_commands

from bot.client.bot import ParlBot
from bot.library import Library
from bot.loopback.payloads import Invoker
from bot.loopback.session import OfflineSession, choices
from bot.messages.catalogue import Msg
from bot.settings import COOLDOWNS, Rate, Settings
from tests.discord_harness import before, first_message, is_ephemeral

OTHER_MEMBER, THIRD_MEMBER = 1_246_000_000_000_000_501, 1_246_000_000_000_000_502
OTHER_CHANNEL = 1_246_000_000_000_000_201
LOOKUP = "/incident singh-2020"


def production(settings: Settings) -> Settings:
    """The settings ``parlbot run`` reads from an environment that names only the database."""
    return Settings.from_env({"DATABASE_URL": settings.database_url}, None)


@pytest.fixture
async def session(parlbot_settings: Settings, library: Library) -> AsyncIterator[OfflineSession]:
    """A moderator, talking to a bot configured as in production."""
    bot = ParlBot(settings=production(parlbot_settings), library=library)
    async with OfflineSession(bot, moderator=True) as offline:
        yield offline


def per_member(command: str) -> Rate:
    rate = COOLDOWNS[command].user
    assert rate is not None
    return rate


def per_channel(command: str) -> Rate:
    rate = COOLDOWNS[command].channel
    assert rate is not None
    return rate


def seconds_to_wait(body: dict[str, object]) -> int | None:
    """The N of "try again in N s", when the reply is the cooldown's; else None."""
    content = str(body.get("content") or "")
    lead = before(Msg.SLOW_DOWN, "seconds")
    found = re.fullmatch(re.escape(lead) + r"(\d+)\D*", content)
    return int(found[1]) if found else None


async def run_out(session: OfflineSession, line: str, uses: int, invoker: Invoker | None = None) -> None:
    """Use ``line`` ``uses`` times, each answered (none of them refused by a cooldown)."""
    for _ in range(uses):
        assert seconds_to_wait(first_message(await session.invoke(line, invoker=invoker))) is None


@pytest.mark.parametrize(
    ("line", "command"), [(LOOKUP, "incident"), ("/search bercow", "search"), ("/export", "export")]
)
async def test_a_command_past_its_limit_says_privately_how_many_seconds_to_wait(
    session: OfflineSession, line: str, command: str
) -> None:
    rate = per_member(command)
    await run_out(session, line, rate.uses)

    refused = first_message(await session.invoke(line))

    assert is_ephemeral(refused)
    waited = seconds_to_wait(refused)
    assert waited is not None
    assert 1 <= waited <= rate.seconds


async def test_autocomplete_past_the_limit_still_offers_choices(session: OfflineSession) -> None:
    await run_out(session, LOOKUP, per_member("incident").uses)
    assert seconds_to_wait(first_message(await session.invoke(LOOKUP))) is not None

    offered = [
        choices(await session.complete("/incident query:singh"))
        for _ in range(per_member("incident").uses + 1)
    ]

    assert all("singh-2020" in [choice["value"] for choice in offer] for offer in offered)


async def test_another_member_in_the_same_channel_is_not_held_back_by_the_first_ones_limit(
    session: OfflineSession,
) -> None:
    await run_out(session, LOOKUP, per_member("incident").uses)

    answer = first_message(await session.invoke(LOOKUP, invoker=session.invoker.with_user(OTHER_MEMBER)))

    assert seconds_to_wait(answer) is None
    assert "Singh" in answer["embeds"][0]["title"]


async def test_a_channel_past_its_limit_holds_back_everyone_there_and_no_one_elsewhere(
    session: OfflineSession,
) -> None:
    for n in range(per_channel("incident").uses):  # as many members, once each: none meets their own limit
        await run_out(session, LOOKUP, 1, invoker=session.invoker.with_user(OTHER_MEMBER + 10 + n))

    here = first_message(await session.invoke(LOOKUP, invoker=session.invoker.with_user(THIRD_MEMBER)))
    elsewhere = first_message(
        await session.invoke(
            LOOKUP, invoker=replace(session.invoker.with_user(THIRD_MEMBER), channel_id=OTHER_CHANNEL)
        )
    )

    assert seconds_to_wait(here) is not None
    assert seconds_to_wait(elsewhere) is None


async def test_a_cooldown_is_logged_as_refused_and_not_as_an_error(
    session: OfflineSession, caplog: pytest.LogCaptureFixture
) -> None:
    await run_out(session, LOOKUP, per_member("incident").uses)
    caplog.clear()
    caplog.set_level(logging.INFO)

    await session.invoke(LOOKUP)

    [line] = [record for record in caplog.records if record.name == "bot.client.interaction_log"]
    assert line.outcome == "refused"
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


async def test_each_bot_counts_its_own_uses(
    session: OfflineSession, parlbot_settings: Settings, library: Library
) -> None:
    await run_out(session, LOOKUP, per_member("incident").uses)

    restarted = ParlBot(settings=production(parlbot_settings), library=library)
    async with OfflineSession(restarted, moderator=True) as again:
        answer = first_message(await again.invoke(LOOKUP))

    assert seconds_to_wait(answer) is None


async def test_the_table_names_only_commands_of_the_tree(session: OfflineSession) -> None:
    names = {
        command.qualified_name
        for command in session.bot.tree.walk_commands()
        if isinstance(command, app_commands.Command)
    }

    assert set(COOLDOWNS) <= names


async def test_without_cooldowns_nothing_is_held_back(parlbot_settings: Settings, library: Library) -> None:
    settings = Settings.from_env({"DATABASE_URL": parlbot_settings.database_url, "COOLDOWNS": "off"}, None)
    async with OfflineSession(ParlBot(settings=settings, library=library)) as unlimited:
        answers = [
            first_message(await unlimited.invoke(LOOKUP)) for _ in range(per_member("incident").uses + 1)
        ]

    assert [seconds_to_wait(answer) for answer in answers] == [None] * len(answers)
