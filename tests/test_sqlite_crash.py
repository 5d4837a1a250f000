"""SIGKILL in the middle of writes to a SQLite file loses no acknowledged write and half-applies none.

Each round starts this module as a process of its own (``python -m tests.test_sqlite_crash URL ROUND
COUNT``), which adds people one by one through the real write path (``Library.apply``: the entry, its
audit record and its change-log row in one transaction, then the re-index) and prints each key once
``apply`` has returned, that is once the write is committed. The test kills it with SIGKILL at a
random moment (after a random number of acknowledged writes, up to a few writes later),
then checks the file: ``PRAGMA integrity_check`` says ok, every acknowledged write is there, and each
person has exactly its audit record and its change-log row (the one write in flight when the process
died may be there too, whole, or not at all). The rounds share the file, so each one starts by
recovering from the last one's crash.

``PARLBOT_CRASH_ROUNDS`` and ``PARLBOT_CRASH_WRITES`` (each round's planned writes) scale the test up
from the suite's few seconds, e.g. to the issue's 10 rounds during 1,000 writes.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlmodel import col, select

from bot.curation.changes import Actor
from bot.library import Library
from db.dataset.schema import PersonEntry
from db.models import AuditAction, AuditEntry, EntityKind, EntryChange, Person
from db.session import Database
from tests.conftest import SqliteTemplate

ROUNDS = int(os.environ.get("PARLBOT_CRASH_ROUNDS", "4"))
WRITES = int(os.environ.get("PARLBOT_CRASH_WRITES", "100"))  # each round's planned writes
WRITE_SECONDS = 0.05  # a few writes (15-40 ms each): the kill lands anywhere in one of them
WRITER = Actor(1_000_000_000_000_001, 501)
REPOSITORY = Path(__file__).resolve().parents[1]
GUARD_SECONDS = 120  # a guard against a hang, not a speed assertion


def key(round_: int, number: int) -> str:
    return f"crash-{round_}-{number}"


def round_of(slug: str) -> int:
    return int(slug.split("-")[1])


def write(url: str, round_: int, count: int) -> None:
    """The child: ``count`` people added one at a time, each key printed once committed; then it waits
    (for the kill it is sure to get)."""
    library = Library.open(url)
    for number in range(count):
        entry = PersonEntry(slug=key(round_, number), name=f"Crash {round_} {number}")
        library.apply(
            actor=WRITER,
            kind=EntityKind.PERSON,
            key=entry.slug,
            change=lambda _current, entry=entry: entry,
            summary=f"added {entry.slug}",
            action=AuditAction.ADD,
        )
        print(entry.slug, flush=True)
    sys.stdin.read()


def killed_while_writing(url: str, round_: int, chance: random.Random) -> list[str]:
    """Run one round's child, SIGKILL it at a random moment; the keys it acknowledged."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.test_sqlite_crash", url, str(round_), str(WRITES)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPOSITORY,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )
    assert child.stdout is not None
    acknowledged = [child.stdout.readline().strip() for _ in range(chance.randrange(WRITES))]
    time.sleep(chance.uniform(0, WRITE_SECONDS))
    child.send_signal(signal.SIGKILL)
    rest, _ = child.communicate(timeout=GUARD_SECONDS)
    assert child.returncode == -signal.SIGKILL
    return [*acknowledged, *rest.split()]


def integrity(database: Database) -> str:
    with database.engine.connect() as connection:
        return str(connection.exec_driver_sql("PRAGMA integrity_check").scalar())


def written(database: Database) -> tuple[set[str], Counter[str], set[str]]:
    """The crash people in the writer's guild, their audit records (counted) and change-log keys."""
    guild = WRITER.guild_id
    with database.session() as session:
        people = session.exec(select(Person.slug).where(Person.guild_id == guild)).all()
        audited = session.exec(
            select(AuditEntry.key).where(AuditEntry.guild_id == guild, AuditEntry.kind == EntityKind.PERSON)
        ).all()
        logged = session.exec(
            select(EntryChange.key).where(
                EntryChange.guild_id == guild, col(EntryChange.kind) == EntityKind.PERSON
            )
        ).all()
    return set(people), Counter(audited), set(logged)


@pytest.fixture
def crash_url(sqlite_template: SqliteTemplate, tmp_path: Path) -> str:
    """A seeded SQLite file of this test's own (the children open it; it needs no migration)."""
    path = tmp_path / "crash.sqlite3"
    shutil.copyfile(sqlite_template.seeded, path)
    return f"sqlite:///{path}"


def test_sigkill_during_writes_loses_no_acknowledged_write_and_half_applies_none(crash_url: str) -> None:
    chance = random.Random()
    acknowledged: set[str] = set()
    for round_ in range(ROUNDS):
        acknowledged.update(killed_while_writing(crash_url, round_, chance))
        database = Database(crash_url)
        try:
            assert integrity(database) == "ok"
            people, audited, logged = written(database)
        finally:
            database.dispose()
        assert acknowledged <= people
        assert audited == Counter(people)  # one audit record per person, none without its person
        assert logged == people
        # Committed but killed before it could say so: at most the one write in flight, per round.
        in_flight = Counter(round_of(slug) for slug in people - acknowledged)
        assert all(count == 1 for count in in_flight.values())


def main(argv: Sequence[str]) -> None:
    url, round_, count = argv
    write(url, int(round_), int(count))


if __name__ == "__main__":
    main(sys.argv[1:])
