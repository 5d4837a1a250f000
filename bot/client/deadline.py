"""Discord's clock: an interaction is acknowledged (answered or deferred) within 3 s or it is lost.

The clock starts when the gateway hands the interaction over (``ParlBot.dispatch`` notes it), not when
its handler gets to run: in a burst, hundreds of handlers wait their turn on the event loop, and a
deadline counted from each handler's start would be missed by all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from typing import TYPE_CHECKING, Final

import discord

if TYPE_CHECKING:
    from bot.client.bot import ParlBot
    from bot.client.workers import Workers

ACKNOWLEDGE_WITHIN: Final = 3.0  # Discord's deadline for the first response
# A reply not ready this long after arrival is deferred; the rest of the 3 s is the deferral's margin.
ANSWER_WITHIN: Final = 1.0
_ARRIVED: Final = "parlbot.deadline.arrived"
POLL: Final = 0.01  # how often ``Arrivals`` looks whether the waiting interactions are acknowledged
# The longest a deferred reply's follow-up waits for others' acknowledgements (it has 15 minutes; an
# interaction no handler answers, such as a press on a button nothing knows, must not hold it long).
YIELD_AT_MOST: Final = 2.0


def note_arrival(interaction: discord.Interaction[ParlBot]) -> None:
    """Start ``interaction``'s clock (once), as the gateway hands it over."""
    interaction.extras.setdefault(_ARRIVED, time.monotonic())


def age(interaction: discord.Interaction[ParlBot]) -> float:
    """Seconds since ``interaction`` arrived (0 if its arrival was never noted)."""
    arrived = interaction.extras.get(_ARRIVED)
    return 0.0 if arrived is None else time.monotonic() - arrived


def patience(interaction: discord.Interaction[ParlBot], workers: Workers) -> float:
    """How long a reply's work may still be awaited before the interaction must be deferred: none when
    its work would queue behind other jobs (a burst) or when the interaction has waited long already."""
    if workers.congested():
        return 0.0
    return max(0.0, ANSWER_WITHIN - age(interaction))


class Arrivals:
    """The interactions handed over and not yet acknowledged, oldest first.

    A deferred reply's follow-up waits (``settled``) until none is left, or at most ``YIELD_AT_MOST``:
    in a burst the event loop spends its first seconds on acknowledgements, which have 3 s, before
    follow-ups, which have 15 minutes. One watcher task polls while anyone waits.
    """

    def __init__(self) -> None:
        self._waiting: deque[discord.Interaction[ParlBot]] = deque()
        self._settled: asyncio.Future[None] | None = None

    def note(self, interaction: discord.Interaction[ParlBot]) -> None:
        note_arrival(interaction)
        self._prune()  # holds only what is owed an answer: at most the last 3 s of interactions
        self._waiting.append(interaction)

    def __len__(self) -> int:
        return len(self._waiting)

    def _prune(self) -> bool:
        """Forget the oldest while acknowledged or past Discord's deadline; whether any is left."""
        waiting = self._waiting
        while waiting and (waiting[0].response.is_done() or age(waiting[0]) > ACKNOWLEDGE_WITHIN):
            waiting.popleft()
        return bool(waiting)

    async def settled(self) -> None:
        """Return once every interaction that arrived is acknowledged (or ``YIELD_AT_MOST`` passed)."""
        if not self._prune():
            return
        if self._settled is None:
            self._settled = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().create_task(self._watch(self._settled), name="parlbot-arrivals")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._settled), YIELD_AT_MOST)

    async def _watch(self, settled: asyncio.Future[None]) -> None:
        # discord.py tells nobody when an interaction is acknowledged, so this looks now and then.
        while self._prune():  # noqa: ASYNC110
            await asyncio.sleep(POLL)
        self._settled = None
        settled.set_result(None)
