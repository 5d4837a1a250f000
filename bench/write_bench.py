"""Measure single moderator writes in a guild that holds many incidents of its own.

Run ``python bench/write_bench.py --incidents 1000 10000 100000 [--writes 50] [--database URL]``. For
each size a fresh database (SQLite in a temporary directory by default; ``--database``'s URL, whose
tables are dropped and migrated again first: give it a database of its own) is seeded with the shipped
dataset and gets the guild's incidents through ``Library.import_dataset`` (bench/import_bench.py's
copies of tests/generated_dataset.py). Then ``--writes`` rounds of single writes go through the
``Library`` the bot uses, each timed from the call to its return (committed and re-indexed, so visible
to the next lookup): an incident's title edited, a quote added to one, a new person added, an incident
removed and restored, and the latest of these undone. The table gives p50 and p99 ms per kind of write,
in all and without the search index's update that follows the commit (``Library._reindex``): the
database's part.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlmodel import SQLModel  # noqa: E402

from bench.import_bench import ACTOR, GUILD, scaled  # noqa: E402
from bot.curation import entries  # noqa: E402
from bot.curation.changes import Actor, existing  # noqa: E402
from bot.library import Library  # noqa: E402
from db.dataset.schema import Entry, IncidentEntry, PersonEntry  # noqa: E402
from db.models import AuditAction, EntityKind  # noqa: E402
from db.session import Database  # noqa: E402

MOD = Actor(GUILD, ACTOR)
KINDS = ("edit title", "add quote", "add person", "remove", "restore", "undo")


def _fresh(url: str) -> None:
    """Drop every table of ``url``'s database, so that it is migrated and seeded from scratch."""
    database = Database(url)
    SQLModel.metadata.drop_all(database.engine)
    with database.engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    database.dispose()


class TimedLibrary(Library):
    """The bot's ``Library``, noting how long the search index's updates took in all."""

    reindexing = 0.0

    def _reindex(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        super()._reindex(*args, **options)
        self.reindexing += time.perf_counter() - started


def built(url: str, document: dict[str, Any]) -> TimedLibrary:
    """A library over a freshly seeded database, with ``document`` imported into the guild."""
    library = TimedLibrary.open(url)
    library.import_dataset(document, actor=MOD)
    return library


def _titled(entry: IncidentEntry) -> Entry:
    return entry.model_copy(update={"title": f"{entry.title} (corrected)"})


def _quoted(entry: IncidentEntry) -> Entry:
    quote = {
        "speaker": entry.participants[0].person,
        "speaker_label": "A member",
        "text": "The member will come to order.",
        "delivery": "verbatim",
        "source": entry.sources[0],
    }
    return entries.add_quote(entry, quote)


def _writes(library: Library, slug: str, round_number: int) -> list[tuple[str, Callable[[], object]]]:
    """One round: each kind of write, in an order in which each applies (undo reverts the restore)."""
    person = PersonEntry(slug=f"bench-person-{round_number}", name=f"Bench Person {round_number}")
    incident = EntityKind.INCIDENT
    return [
        ("edit title", lambda: library.apply(
            actor=MOD, kind=incident, key=slug, change=existing(IncidentEntry, _titled), summary="title")),
        ("add quote", lambda: library.apply(
            actor=MOD, kind=incident, key=slug, change=existing(IncidentEntry, _quoted), summary="quote")),
        ("add person", lambda: library.apply(
            actor=MOD, kind=EntityKind.PERSON, key=person.slug, change=lambda _: person, summary="person",
            action=AuditAction.ADD)),
        ("remove", lambda: library.remove(actor=MOD, kind=incident, key=slug)),
        ("restore", lambda: library.restore(actor=MOD, kind=incident, key=slug)),
        ("undo", lambda: library.undo(actor=MOD)),
    ]  # fmt: skip


def timed(library: TimedLibrary, slugs: list[str]) -> dict[str, tuple[list[float], list[float]]]:
    """Milliseconds per write, in all and the database's part, by kind, one round per slug."""
    times: dict[str, tuple[list[float], list[float]]] = {kind: ([], []) for kind in KINDS}
    for number, slug in enumerate(slugs):
        for kind, write in _writes(library, slug, number):
            reindexed, started = library.reindexing, time.perf_counter()
            write()
            total = time.perf_counter() - started
            times[kind][0].append(total * 1000)
            times[kind][1].append((total - (library.reindexing - reindexed)) * 1000)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _cell(value: object, name: str) -> str:
    """A table cell: the kind of write left-aligned, numbers right-aligned."""
    text = str(value)
    return text.ljust(len(name)) if text in KINDS else text.rjust(len(name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incidents", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--writes", type=int, default=50, help="rounds of writes per size")
    parser.add_argument("--database", help="a URL of a database of the bench's own (default: SQLite)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    header = ("incidents", "write       ", "p50 ms", "p99 ms", "max ms", "database p50", "database p99")
    print("  ".join(header), flush=True)
    for size in args.incidents:
        document = scaled(size)
        with tempfile.TemporaryDirectory() as directory:
            url = args.database or f"sqlite:///{directory}/bench.sqlite3"
            if args.database:
                _fresh(url)
            library = built(url, document)
            slugs = random.Random(args.seed).sample([i["slug"] for i in document["incidents"]], args.writes)
            times = timed(library, slugs)
            library.close()
        for kind, (values, database) in times.items():
            cells = (size, kind, *(f"{percentile(values, fraction):.1f}" for fraction in (0.5, 0.99)))
            cells += (f"{max(values):.1f}", *(f"{percentile(database, f):.1f}" for f in (0.5, 0.99)))
            print("  ".join(_cell(c, n) for c, n in zip(cells, header, strict=True)), flush=True)


if __name__ == "__main__":
    main()
