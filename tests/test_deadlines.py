"""Discord's clock: the loopback refuses what Discord would refuse as late, and the bot is never late.

Discord forgets an interaction not acknowledged within 3 s of its creation, and its token after 15
minutes (404, code 10062). The loopback keeps that clock (``FakeDiscord(clock=...)``), so a test
sees what a member would; the bot acknowledges before slow work (``cogs.common.respond``) and runs
the work of interactions still waiting for their first response ahead of the rest
(``bot.client.workers``). Burst figures come from ``bench/interactions_bench.py``, not from here.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.client.bot import ParlBot
from bot.client.workers import DEFERRED, URGENT, Workers
from bot.loopback.rest import ACKNOWLEDGE_WITHIN, TOKEN_LIFETIME, FakeDiscord
from bot.loopback.session import OfflineSession, message_bodies
from tests.discord_harness import all_text
from tests.test_loopback import call, interaction


class ManualClock:
    """Discord's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def clocked_discord(clock: ManualClock) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(clock=clock) as fake:
        yield fake


async def test_a_first_response_later_than_three_seconds_is_an_unknown_interaction(
    clocked_discord: FakeDiscord, clock: ManualClock
) -> None:
    interaction_id, token = interaction(clocked_discord)
    clock.now += ACKNOWLEDGE_WITHIN + 0.1

    status, answer, _ = await call(
        clocked_discord, "POST", f"/interactions/{interaction_id}/{token}/callback", {"type": 5}
    )

    assert (status, answer["code"]) == (404, 10062)


async def test_a_first_response_within_three_seconds_is_accepted(
    clocked_discord: FakeDiscord, clock: ManualClock
) -> None:
    interaction_id, token = interaction(clocked_discord)
    clock.now += ACKNOWLEDGE_WITHIN - 0.1

    status, _, _ = await call(
        clocked_discord, "POST", f"/interactions/{interaction_id}/{token}/callback", {"type": 5}
    )

    assert status == 204


async def test_a_follow_up_later_than_fifteen_minutes_is_an_unknown_interaction(
    clocked_discord: FakeDiscord, clock: ManualClock
) -> None:
    interaction_id, token = interaction(clocked_discord)
    await call(clocked_discord, "POST", f"/interactions/{interaction_id}/{token}/callback", {"type": 5})
    clock.now += TOKEN_LIFETIME + 1.0

    status, answer, _ = await call(
        clocked_discord, "POST", f"/webhooks/{clocked_discord.application_id}/{token}", {"content": "done"}
    )

    assert (status, answer["code"]) == (404, 10062)


# --- the worker pool ------------------------------------------------------------------------------


@pytest.fixture
def one_worker() -> Iterator[Workers]:
    workers = Workers(1)
    yield workers
    workers.shutdown()


def hold(workers: Workers, lane: int = URGENT) -> threading.Event:
    """Keep one of ``workers``' threads busy until the returned event is set."""
    release, holding = threading.Event(), threading.Event()

    def wait() -> None:
        holding.set()
        release.wait(timeout=30)

    workers.submit_in(lane, wait)
    assert holding.wait(timeout=30)
    return release


def test_urgent_work_runs_before_work_already_waiting_in_the_deferred_lane(one_worker: Workers) -> None:
    release = hold(one_worker)
    order: list[str] = []
    done = [
        one_worker.submit_in(DEFERRED, lambda: order.append("deferred reply")),
        one_worker.submit_in(URGENT, lambda: order.append("check before an answer")),
    ]

    release.set()
    for future in done:
        future.result(timeout=30)

    assert order == ["check before an answer", "deferred reply"]


def test_deferred_work_leaves_a_thread_free_for_urgent_work() -> None:
    workers = Workers(2)
    try:
        release = hold(workers, DEFERRED)
        waiting = workers.submit_in(DEFERRED, lambda: "deferred")

        assert workers.submit(lambda: "urgent").result(timeout=30) == "urgent"
        assert not waiting.done()
        release.set()
        assert waiting.result(timeout=30) == "deferred"
    finally:
        workers.shutdown()


def test_a_busy_pool_is_congested_and_an_idle_one_is_not(one_worker: Workers) -> None:
    assert not one_worker.congested()
    release = hold(one_worker)

    assert one_worker.congested()
    release.set()


# --- the bot ------------------------------------------------------------------------------------


async def test_a_lookup_is_deferred_before_its_work_when_the_workers_are_busy(
    parlbot: ParlBot, discord_session: OfflineSession
) -> None:
    # Slow replies being prepared hold every thread but the one kept for urgent work, and more wait.
    releases = [hold(parlbot.workers, DEFERRED) for _ in range(parlbot.workers.threads - 1)]
    parlbot.workers.submit_in(DEFERRED, lambda: None)
    payload = discord_session.command_payload("/incident query:singh-2020")
    token = str(payload["token"])

    discord_session.feed(payload)
    acknowledged = await asyncio.wait_for(discord_session.fake.wait_for("callback", token=token), 30)
    assert acknowledged.body["type"] == 5  # deferred ("thinking"), while no worker could look it up
    for release in releases:
        release.set()
    await asyncio.wait_for(discord_session.fake.wait_for("followup", token=token), 30)

    [answer] = message_bodies(discord_session.fake.requests_for(token))
    assert "Singh" in all_text(answer)


# Commands whose first answer needs the database, and a piece of that answer: each is deferred before
# its work when the workers are busy, then answered in the follow-up.
ANSWERED_AFTER_THEIR_WORK = [
    ("/lesson incident:singh-2020", "Singh"),
    ("/timeline", "1971"),
    ("/collection show", "collection"),
    ("/quiz scores", "score"),
    ("/export", "`/import` takes this file back"),
    ("/review", "suggestion"),
    ("/history target:singh-2020", "singh-2020"),
    ("/removed", "removed"),
]


@pytest.mark.parametrize(("command", "shown"), ANSWERED_AFTER_THEIR_WORK)
async def test_a_command_is_deferred_before_its_database_work_when_the_workers_are_busy(
    moderator_session: OfflineSession, command: str, shown: str
) -> None:
    answer = await deferred_then_answered(moderator_session, command)

    assert shown.casefold() in all_text(answer).casefold()


async def deferred_then_answered(session: OfflineSession, command: str) -> dict[str, object]:
    """Send ``command`` while slow replies hold every worker thread but the one kept for urgent work
    (and more wait): it must be deferred at once; its answer, once the workers are free, is returned."""
    workers = session.bot.workers
    releases = [hold(workers, DEFERRED) for _ in range(workers.threads - 1)]
    workers.submit_in(DEFERRED, lambda: None)
    payload = session.command_payload(command)
    token = str(payload["token"])

    session.feed(payload)
    acknowledged = await asyncio.wait_for(session.fake.wait_for("callback", token=token), 30)
    assert acknowledged.body["type"] == 5, acknowledged.body  # deferred, while no worker was free
    for release in releases:
        release.set()
    await asyncio.wait_for(session.fake.wait_for("followup", token=token), 30)
    [answer] = message_bodies(session.fake.requests_for(token))
    return answer


async def test_the_loop_keeps_a_working_pool_after_the_bot_closes(parlbot: ParlBot) -> None:
    async with OfflineSession(parlbot):
        assert await asyncio.to_thread(lambda: "in the bot's pool") == "in the bot's pool"

    assert await asyncio.to_thread(lambda: "after it closed") == "after it closed"


async def test_the_bot_remembers_only_the_interactions_still_owed_an_answer(
    parlbot: ParlBot, discord_session: OfflineSession
) -> None:
    for _ in range(5):
        await discord_session.invoke("/incident query:singh-2020")  # each answered at once

    assert len(parlbot.arrivals) == 1  # the last one, forgotten when the next arrives
