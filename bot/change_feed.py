"""The change log and its listener: how one process's writes reach every other process's search index.

A write that changes curated entries records them (``record_changes``) in its own transaction; each
row's id is the change counter. On PostgreSQL the same transaction sends ``NOTIFY parlbot_changes``
(delivered at commit, never for a write rolled back), and every ``parlbot run`` process keeps a
``ChangeListener``: a daemon thread with a connection of its own that, on each notification and after
each (re)connect, has its ``Library`` re-index the changes past the last one it saw. A notification
missed (a dropped connection, a process started after the write) is caught up from the counter.

Writers on PostgreSQL take one transaction-level advisory lock before they number their changes, so
changes commit in counter order: a reader that has seen change N has seen every change before it.
The lock is held from ``record_changes`` (called just before commit) to the commit.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass

from sqlalchemy import delete, func, insert
from sqlalchemy.engine import URL
from sqlmodel import Session, col, select

from db.dataset.writer import BATCH
from db.models import SHARED_GUILD, EntityKind, EntryChange

CHANNEL = "parlbot_changes"
RETENTION = dt.timedelta(days=1)  # change rows older than this are pruned by the next write
PAYLOAD_MAX = 7900  # bytes; PostgreSQL refuses a NOTIFY payload of 8000 or more
WRITE_LOCK = 0x7061726C  # the advisory lock writers number their changes under ("parl")
OWN_CHANGES = "parlbot.changes"  # the session.info key of the change numbers a session recorded
APPLICATION_NAME = "parlbot-listener"  # how the listening connection shows in pg_stat_activity

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Changed:
    """One row of the change log: entry ``(kind, key)`` of ``guild_id`` was written by change ``id``."""

    id: int
    guild_id: int
    kind: EntityKind
    key: str


def _on_postgresql(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def record_changes(
    session: Session,
    guild_id: int,
    entries: Collection[tuple[EntityKind, str]],
    *,
    now: dt.datetime | None = None,
) -> int | None:
    """Record the write of ``entries`` (kind, key) in ``guild_id`` in the session's transaction; call it
    just before commit. On PostgreSQL the commit also sends ``NOTIFY parlbot_changes`` with the guild,
    the last change's number and, when they fit, the keys. Returns that number (None for no entries).

    The numbers are also noted in ``session.info[OWN_CHANGES]``, so that the ``Library`` that re-indexes
    the write itself can tell its listener to skip them. Prunes the rows older than ``RETENTION``.
    """
    if not entries:
        return None
    postgresql = _on_postgresql(session)
    if postgresql:
        session.exec(select(func.pg_advisory_xact_lock(WRITE_LOCK)))
    now = now or dt.datetime.now(dt.UTC)
    session.exec(delete(EntryChange).where(col(EntryChange.at) < now - RETENTION))
    ordered = sorted(set(entries))
    numbers: list[int] = []
    for start in range(0, len(ordered), BATCH):  # an import's hundreds of thousands, a batch at a time
        rows = [
            {"guild_id": guild_id, "kind": kind, "key": key, "at": now}
            for kind, key in ordered[start : start + BATCH]
        ]
        numbers.extend(
            session.exec(insert(EntryChange).returning(col(EntryChange.id)), params=rows).scalars()
        )
    session.info.setdefault(OWN_CHANGES, []).extend(numbers)
    last = max(numbers)
    if postgresql:
        session.exec(select(func.pg_notify(CHANNEL, payload(guild_id, last, entries))))
    return last


def record_seed(session: Session, entries: Collection[tuple[EntityKind, str]]) -> None:
    """``record_changes`` for a load of the shipped dataset into the shared scope (``Database.seed``)."""
    record_changes(session, SHARED_GUILD, entries)


def payload(guild_id: int, last: int | None, entries: Collection[tuple[EntityKind, str]]) -> str:
    """The NOTIFY payload: JSON with the guild, the last change and the ``kind:key``s when they fit
    (``LISTEN parlbot_changes`` in psql shows what changed; the listener reads the log itself)."""
    keys = sorted(f"{kind}:{key}" for kind, key in entries)
    text = json.dumps({"guild": guild_id, "change": last, "keys": keys})
    if len(text.encode()) <= PAYLOAD_MAX:
        return text
    return json.dumps({"guild": guild_id, "change": last})


def latest_change(session: Session) -> int:
    """The change counter now: the last change's number, 0 before the first."""
    return session.exec(select(func.max(EntryChange.id))).one() or 0


def changes_since(session: Session, after: int) -> list[Changed]:
    """Every change past number ``after``, in order."""
    rows = session.exec(select(EntryChange).where(col(EntryChange.id) > after).order_by(col(EntryChange.id)))
    return [Changed(row.id or 0, row.guild_id, row.kind, row.key) for row in rows]


def conninfo(url: URL) -> str:
    """A libpq connection string for the SQLAlchemy ``url`` (its options, such as a search path, kept)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class ChangeListener:
    """A daemon thread that LISTENs on ``parlbot_changes`` and calls ``catch_up`` after each notification
    and after each (re)connect; it never stops on a database error, it reconnects.

    ``catch_up`` applies the changes past the last it saw (``Library.catch_up``). ``wait_seconds`` bounds
    how long a wait for a notification lasts (how soon ``stop`` is heard, and how often the connection is
    checked); ``pause`` is how the thread waits ``retry_seconds`` before reconnecting (a test holds it).
    """

    def __init__(
        self,
        conninfo: str,
        catch_up: Callable[[], int],
        *,
        wait_seconds: float = 1.0,
        retry_seconds: float = 2.0,
        pause: Callable[[float], object] | None = None,
    ) -> None:
        self.conninfo = conninfo
        self.catch_up = catch_up
        self.wait_seconds = wait_seconds
        self.retry_seconds = retry_seconds
        self._stopping = threading.Event()
        self.pause = pause or self._stopping.wait
        self.connections = 0  # connections made so far (a reconnect adds one)
        self.backend_pid: int | None = None  # the PostgreSQL backend of the current connection
        self.listening = threading.Event()  # set while LISTENing and caught up
        self._thread = threading.Thread(target=self._run, name="parlbot-change-listener", daemon=True)

    def start(self) -> ChangeListener:
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        import psycopg  # the postgres extra: only a PostgreSQL database starts a listener

        while not self._stopping.is_set():
            try:
                self._listen()
            except (psycopg.Error, OSError) as error:
                log.warning("Change listener lost its connection (%s); reconnecting", error)
            except Exception:  # a failed catch-up must not end the thread: the next one retries
                log.exception("Change listener failed to apply changes; retrying")
            self.listening.clear()
            if not self._stopping.is_set():
                self.pause(self.retry_seconds)

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(self.conninfo, autocommit=True, application_name=APPLICATION_NAME) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self.connections += 1
            self.backend_pid = connection.info.backend_pid
            seen = self.catch_up()  # whatever was written while no connection was listening
            log.info("Listening for other processes' writes (caught up to change %d)", seen)
            self.listening.set()
            while not self._stopping.is_set():
                heard = list(connection.notifies(timeout=self.wait_seconds, stop_after=1))
                if heard:
                    self.catch_up()
                else:
                    connection.execute("SELECT 1")  # a dead connection shows itself here
