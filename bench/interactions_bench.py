"""Interactions per second through discord.py against the loopback Discord, and first-response times.

Run ``python bench/interactions_bench.py [--count N] [--database URL]``. The real ``ParlBot`` (the
bot ``parlbot run`` builds) answers ``/incident`` lookups and ``/incident`` autocomplete fed to
discord.py's own gateway parser as raw INTERACTION_CREATE payloads; the loopback Discord
(``bot.loopback``) records every HTTP request with its arrival time. Two ways of arriving:

- *sequential*: one interaction after another, each handled before the next is dispatched (the
  rate of one busy conversation);
- *burst*: all N dispatched at once, then awaited together (a busy server's worst second).

The table gives, per kind, the interactions per second and the time from dispatch to the first
response discord.py sent (the callback Discord's 3-second deadline is about). Without
``--database`` a temporary SQLite database is created and seeded with the shipped dataset.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli import build_bot  # noqa: E402
from bot.library import Library  # noqa: E402
from bot.loopback.payloads import Json  # noqa: E402
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


@dataclass(frozen=True, slots=True)
class Row:
    mode: str
    kind: str
    count: int
    seconds: float
    first_ms: list[float]

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def _payloads(session: OfflineSession, kind: str, count: int) -> list[Json]:
    if kind == "lookup":
        return [session.command_payload(LOOKUPS[n % len(LOOKUPS)]) for n in range(count)]
    return [session.autocomplete_payload(PREFIXES[n % len(PREFIXES)]) for n in range(count)]


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


async def _sequential(session: OfflineSession, kind: str, count: int) -> Row:
    payloads = _payloads(session, kind, count)
    started: dict[str, float] = {}
    begin = time.perf_counter()
    for payload in payloads:
        started[str(payload["token"])] = time.monotonic()
        await session.dispatch(payload)
    return Row("sequential", kind, count, time.perf_counter() - begin, _first_responses(session, started))


async def _burst(session: OfflineSession, kind: str, count: int) -> Row:
    payloads = _payloads(session, kind, count)
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
    await asyncio.sleep(0.05)  # let the handlers finish what follows their first response
    started = {str(payload["token"]): now for payload in payloads}
    return Row("burst", kind, count, time.perf_counter() - begin, _first_responses(session, started))


async def measure(database_url: str, count: int) -> list[Row]:
    library = Library.open(database_url)
    try:
        # One member asks thousands of times: the cooldowns would refuse nearly all of it, so they are off.
        bot = build_bot(Settings(database_url=database_url, cooldowns={}), library)
        async with OfflineSession(bot) as session:
            for kind in ("lookup", "autocomplete"):  # warm the caches and the connection pool
                await _sequential(session, kind, 20)
            rows = [await _sequential(session, kind, count) for kind in ("lookup", "autocomplete")]
            rows += [await _burst(session, kind, count) for kind in ("lookup", "autocomplete")]
        return rows
    finally:
        library.close()


def table(rows: Sequence[Row]) -> str:
    lines = [
        f"{'mode':<11} {'kind':<13} {'count':>6} {'seconds':>8} {'per s':>8} "
        f"{'first p50 ms':>13} {'first p99 ms':>13} {'late >3s':>9}"
    ]
    for row in rows:
        late = sum(1 for ms in row.first_ms if ms > 3000.0)
        lines.append(
            f"{row.mode:<11} {row.kind:<13} {row.count:>6} {row.seconds:>8.2f} {row.rate:>8.0f} "
            f"{statistics.median(row.first_ms):>13.2f} {_percentile(row.first_ms, 0.99):>13.2f} {late:>9}"
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
