"""Interactions per second through discord.py against the loopback Discord, and first-response times.

Run ``python bench/interactions_bench.py [--count N] [--database URL]``. The real ``ParlBot`` (the
bot ``parlbot run`` builds) answers ``/incident`` lookups and ``/incident`` autocomplete fed to
discord.py's own gateway parser as raw INTERACTION_CREATE payloads; the loopback Discord
(``bot.loopback``) records every HTTP request with its arrival time. Two ways of arriving:

- *sequential*: one interaction after another, each handled before the next is dispatched (the
  rate of one busy conversation);
- *burst*: all N dispatched at once, then awaited together (a busy server's worst second): N
  lookups, N autocompletes, and N *mixed* ones (half lookups, three tenths autocomplete, a fifth
  moderators' edits), each from a member of its own in a channel of its own, as a busy server's are.

The table gives, per kind, the interactions per second and the time from dispatch to the first
response discord.py sent (the callback Discord's 3-second deadline is about), and how many came too
late: the loopback answers those 404 Unknown interaction, as Discord does. Without ``--database`` a
temporary SQLite database is created and seeded with the shipped dataset.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.benchmark.measure import percentile  # noqa: E402
from bot.cli import build_bot  # noqa: E402
from bot.library import Library  # noqa: E402
from bot.loopback.payloads import Invoker, Json  # noqa: E402
from bot.loopback.rest import RecordedRequest  # noqa: E402
from bot.loopback.session import OfflineSession  # noqa: E402
from bot.settings import Settings  # noqa: E402

LOOKUPS = (
    "/incident query:singh-2020",
    "/incident query:singh 2020",
    "/incident query:jagmet singh",
    "/incident query:trudeau 2011",
    "/incident query:skinner",
    "/incident query:who called the prime minister a racist",
)
PREFIXES = ("/incident query:s", "/incident query:sin", "/incident query:trud", "/incident query:poilie")
EDITS = (
    "/edit person person:jagmeet-singh party:bloc-quebecois",
    "/edit person person:jagmeet-singh party:ndp",
    "/edit person person:pierre-poilievre party:liberal",
    "/edit person person:pierre-poilievre party:conservative",
)
CROWD_IDS = 1_300_000_000_000_000_000  # the burst's members and channels: ids from here up
MIX = (("lookup", 5), ("autocomplete", 3), ("edit", 2))  # kinds of a mixed burst, in tenths


@dataclass(frozen=True, slots=True)
class Row:
    mode: str
    kind: str
    count: int
    seconds: float
    first_ms: list[float]
    refused: int = 0  # first responses the loopback refused as past Discord's deadline

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0


def _payload(session: OfflineSession, kind: str, n: int, invoker: Invoker | None = None) -> Json:
    if kind == "lookup":
        return session.command_payload(LOOKUPS[n % len(LOOKUPS)], invoker=invoker)
    if kind == "edit":
        return session.command_payload(EDITS[n % len(EDITS)], invoker=invoker)
    return session.autocomplete_payload(PREFIXES[n % len(PREFIXES)], invoker=invoker)


def _payloads(session: OfflineSession, kind: str, count: int) -> list[Json]:
    return [_payload(session, kind, n) for n in range(count)]


def _crowd(session: OfflineSession, kinds: Sequence[str]) -> list[Json]:
    """One interaction of each of ``kinds``, each from a member of its own in a channel of its own."""
    crowd = []
    for n, kind in enumerate(kinds):
        invoker = replace(
            session.invoker,
            user_id=CROWD_IDS + n,
            channel_id=CROWD_IDS + n,
            moderator=kind == "edit",
        )
        crowd.append(_payload(session, kind, n, invoker))
    return crowd


def _mixed(count: int) -> list[str]:
    """``count`` kinds in ``MIX``'s proportions, interleaved."""
    pattern = [kind for kind, tenths in MIX for _ in range(tenths)]
    return [pattern[n % len(pattern)] for n in range(count)]


def _first_responses(session: OfflineSession, started: dict[str, float]) -> list[float]:
    """Milliseconds from each interaction's dispatch to the first request answering it."""
    first: dict[str, float] = {}
    for request in session.fake.requests:
        token = request.token
        if token in started and request.route == "callback" and token not in first:
            first[token] = (request.at - started[token]) * 1000.0
    missing = len(started) - len(first)
    if missing:
        raise SystemExit(f"{missing} interaction(s) got no response")
    return list(first.values())


def _late(session: OfflineSession, started: dict[str, float]) -> int:
    """Interactions whose first response came after Discord's deadline (the loopback refused it)."""
    first: dict[str, RecordedRequest] = {}
    for request in session.fake.requests:
        if request.token in started and request.route == "callback":
            first.setdefault(request.token, request)
    return sum(1 for request in first.values() if request.status == 404)


async def _sequential(session: OfflineSession, kind: str, count: int) -> Row:
    payloads = _payloads(session, kind, count)
    started: dict[str, float] = {}
    begin = time.perf_counter()
    for payload in payloads:
        started[str(payload["token"])] = time.monotonic()
        await session.dispatch(payload)
    seconds = time.perf_counter() - begin
    return Row(
        "sequential", kind, count, seconds, _first_responses(session, started), _late(session, started)
    )


async def _burst(session: OfflineSession, kind: str, payloads: Sequence[Json]) -> Row:
    waiting = {str(payload["token"]) for payload in payloads}
    seen = len(session.fake.requests)
    begin = time.perf_counter()
    now = time.monotonic()
    for payload in payloads:  # as the gateway hands them over: each handled in a task of its own
        session.feed(payload)
    while waiting:
        await asyncio.sleep(0.002)
        answered = {request.token for request in session.fake.requests[seen:] if request.route == "callback"}
        waiting -= answered
    seconds = time.perf_counter() - begin
    # The follow-ups of deferred replies, before the next burst begins.
    await asyncio.gather(
        *(task for task in asyncio.all_tasks() if task.get_name() == "CommandTree-invoker"),
        return_exceptions=True,
    )
    started = {str(payload["token"]): now for payload in payloads}
    first = _first_responses(session, started)
    return Row("burst", kind, len(payloads), seconds, first, _late(session, started))


async def measure(database_url: str, count: int) -> list[Row]:
    library = Library.open(database_url)
    try:
        # One member asks thousands of times: the cooldowns would refuse nearly all of it, so they are off.
        bot = build_bot(Settings(database_url=database_url, cooldowns={}), library)
        async with OfflineSession(bot) as session:
            for kind in ("lookup", "autocomplete"):  # warm the caches and the connection pool
                await _sequential(session, kind, 20)
            rows = [await _sequential(session, kind, count) for kind in ("lookup", "autocomplete")]
            for kind in ("lookup", "autocomplete"):
                rows.append(await _burst(session, kind, _crowd(session, [kind] * count)))
            rows.append(await _burst(session, "mixed", _crowd(session, _mixed(count))))
        return rows
    finally:
        library.close()


def table(rows: Sequence[Row]) -> str:
    lines = [
        f"{'mode':<11} {'kind':<13} {'count':>6} {'seconds':>8} {'per s':>8} "
        f"{'first p50 ms':>13} {'first p99 ms':>13} {'first max ms':>13} {'late':>5}"
    ]
    for row in rows:
        p99 = percentile(sorted(row.first_ms), 0.99) or 0.0
        lines.append(
            f"{row.mode:<11} {row.kind:<13} {row.count:>6} {row.seconds:>8.2f} {row.rate:>8.0f} "
            f"{statistics.median(row.first_ms):>13.2f} {p99:>13.2f} "
            f"{max(row.first_ms):>13.2f} {row.refused:>5}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="interactions per kind and mode")
    parser.add_argument("--database", help="database URL (default: a new SQLite file, seeded)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        rows = asyncio.run(measure(url, args.count))
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
