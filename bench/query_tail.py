"""The slowest queries of a labelled query file, timed through ``Library`` as ``parlbot bench search`` times
them: where a latency's tail comes from.

Run ``python bench/query_tail.py --database URL --queries FILE [--snapshot FILE] [--repeat N] [--slowest K]
[--writes W]`` on a database that holds the dataset (``parlbot bench search --database URL`` imports it
there). The queries run one after another in file order, the whole file ``--repeat`` times, and each
query's best time counts (its first run fills the index's caches of query words, as a busy server's are
filled). The table gives p50 / p95 / p99 / max in ms for each command, then its ``--slowest`` queries.
With ``--snapshot`` the index is loaded from that file where it is current, and built and saved there where
it is not (a change to ``bot/search`` makes the next run build it: ``bot.search.snapshots``). With
``--writes``, that many incidents (drawn with a fixed seed) are written to the index again before the
queries, each with a word of its own more, as moderators' edits leave it between two renumberings of its
slots: the rows of their words moved, new words in its vocabulary.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from sqlmodel import col, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.benchmark.measure import Outcome, percentile, run_ours  # noqa: E402
from bot.benchmark.queries import COMMANDS, Query, read_queries  # noqa: E402
from bot.library import Library  # noqa: E402
from bot.search.documents import entry_documents  # noqa: E402
from bot.search.index import SHARED_GUILD, TextField  # noqa: E402
from db.models import EntityKind, Incident  # noqa: E402

SHARES = {"p50": 0.50, "p95": 0.95, "p99": 0.99, "max": 1.0}


def best_times(library: Library, queries: Sequence[Query], repeat: int) -> list[Outcome]:
    """Each query's fastest of ``repeat`` runs of the whole file."""
    runs = [run_ours(library, queries).outcomes for _ in range(repeat)]
    return [min(tries, key=lambda outcome: outcome.ms) for tries in zip(*runs, strict=True)]


def write_again(library: Library, count: int, *, seed: int = 1) -> int:
    """Write ``count`` shared incidents' documents (their quotes', rulings' and motions' too) to the index
    again, each with a word of its own more; how many documents were written."""
    with library.database.session() as session:
        # read from the database: listing the index's documents would make an object of every one (``_Held``)
        shared = select(col(Incident.slug)).where(col(Incident.guild_id) == SHARED_GUILD)
        incidents = sorted(session.exec(shared))
        chosen = random.Random(seed).sample(incidents, min(count, len(incidents)))
        entries = {(EntityKind.INCIDENT, key) for key in chosen}
        documents = entry_documents(session, guild_id=SHARED_GUILD, entries=entries)
    for n, doc in enumerate(documents):
        library.index.upsert(replace(doc, fields=(*doc.fields, TextField(f"edited{n}"))))
    return len(documents)


def _shown(ms: float | None) -> str:
    """A time as the table shows it, rounded first as ``percentile`` rounds (so that the slowest query shows
    the max), or 0 for none."""
    return f"{round(ms or 0.0, 3):>9.2f}"


def table(outcomes: Sequence[Outcome], slowest: int) -> str:
    lines = [f"{'command':<10} {'queries':>8} " + " ".join(f"{name:>9}" for name in SHARES)]
    for command in COMMANDS:
        mine = sorted((o for o in outcomes if o.query.command == command), key=lambda o: o.ms)
        if not mine:
            continue
        times = [o.ms for o in mine]
        figures = " ".join(_shown(percentile(times, share)) for share in SHARES.values())
        lines.append(f"{command:<10} {len(mine):>8} {figures}")
        lines += [f"    {_shown(o.ms)}  {o.query.query!r}" for o in reversed(mine[len(mine) - slowest :])]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True, help="a database holding the dataset")
    parser.add_argument("--queries", required=True, type=Path, help="labelled queries, JSON lines")
    parser.add_argument("--snapshot", type=Path, help="load (or save) the index here")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the file; a query's best time counts")
    parser.add_argument("--slowest", type=int, default=10, help="slowest queries listed per command")
    parser.add_argument("--writes", type=int, default=0, help="incidents written again before the queries")
    options = parser.parse_args(argv)
    library = Library.open(options.database, seed=False, snapshot=options.snapshot)
    try:
        if options.writes > 0:
            print(f"{write_again(library, options.writes)} documents written again")
        outcomes = best_times(library, read_queries(options.queries), max(options.repeat, 1))
    finally:
        library.close()
    print(table(outcomes, options.slowest))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
