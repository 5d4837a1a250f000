"""One engine per database URL, sessions on it, and the migrations that shape it.

``Database`` accepts ``sqlite:///path``, ``sqlite://`` (in memory, one connection shared by every
session) and PostgreSQL as ``postgresql+psycopg://``, ``postgresql://`` or ``postgres://``.

A SQLite file is opened in WAL mode (readers and a writer never block each other; a write acknowledged
survives the process being killed) with ``synchronous=NORMAL``, and a write waits up to
``SQLITE_BUSY_TIMEOUT`` for another connection's write instead of failing at once with "database is
locked" (another process's ``parlbot db import``, say).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool
from sqlmodel import Session, SQLModel

from db.dataset.seed import Loaded, older_than_shipped, seed
from db.dataset.writer import LoadReport
from db.models import SHARED_GUILD, DatasetVersion

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
POSTGRES_DRIVER = "postgresql+psycopg"
SQLITE_BUSY_TIMEOUT = 30.0  # seconds a SQLite write waits for the lock another connection holds
# Each connection to a SQLite file; journal_mode is the file's own, but setting it again costs nothing.
SQLITE_FILE_PRAGMAS = ("foreign_keys=ON", "journal_mode=WAL", "synchronous=NORMAL")
ANALYZE_AFTER = 1000  # entries one import writes, past which PostgreSQL's planner statistics are refreshed


def normalize_url(url: str) -> URL:
    """Parse ``url``, pointing bare PostgreSQL schemes (``postgres://``, ``postgresql://``) at psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in {"postgres", "postgresql"}:
        parsed = parsed.set(drivername=POSTGRES_DRIVER)
    return parsed


def alembic_config(connection: Connection) -> Config:
    """An Alembic config for ``db/migrations`` that runs on ``connection`` (see ``env.py``)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


def _pragmas(*pragmas: str) -> Callable[[DBAPIConnection, ConnectionPoolEntry], None]:
    """A ``connect`` listener that runs ``PRAGMA`` each of ``pragmas`` on every new SQLite connection."""

    def run(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        cursor = dbapi_connection.cursor()
        for pragma in pragmas:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return run


def _create_engine(url: URL) -> Engine:
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    if url.database in (None, "", ":memory:"):
        # One connection for everyone: each new connection would be a new, empty database. Nothing to
        # wait for and no file to journal: WAL does not apply.
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _pragmas("foreign_keys=ON"))
        return engine
    Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    # The driver's timeout is SQLite's busy timeout, in force from the first statement (the WAL switch).
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT})
    event.listen(engine, "connect", _pragmas(*SQLITE_FILE_PRAGMAS))
    return engine


def hold_for_writing(session: Session) -> None:
    """Make what ``session`` reads from now on what it writes over, for a write that reads much first.

    On SQLite the write transaction begins now (``BEGIN IMMEDIATE``): no other connection commits
    until this one ends, so nothing read can go stale before it is written over. PostgreSQL locks the
    rows read ``FOR UPDATE`` instead, and a session already in its transaction holds what it has; for
    those this does nothing.
    """
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        return
    driver = connection.connection.dbapi_connection
    if driver is not None and not getattr(driver, "in_transaction", True):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


class Database:
    """Owns one engine for ``url``; hands out sessions and runs migrations on it."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.engine = _create_engine(self.url)

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session whose objects stay readable after commit; rolled back if left uncommitted."""
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    def upgrade(self, revision: str = "head") -> None:
        """Run ``alembic upgrade`` programmatically on this engine."""
        with self.engine.connect() as connection:
            # Batch migrations rebuild SQLite tables; foreign keys must be off while they do, and the
            # pragma only takes effect outside a transaction.
            self._sqlite_foreign_keys(connection, enabled=False)
            try:
                with connection.begin():
                    command.upgrade(alembic_config(connection), revision)
            finally:
                self._sqlite_foreign_keys(connection, enabled=True)

    def current_revision(self) -> str | None:
        """The revision the database is at, or None before the first migration."""
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def ensure_ready(self, seed: bool = True, *, loaded: Loaded | None = None) -> bool:
        """Upgrade to head and, if the shared scope was never seeded or holds an earlier release of the
        shipped dataset, load the shipped dataset (an upsert by slug: a newer release's corrections
        reach an existing database; guilds' own entries are not touched, and a shared dataset an
        operator imported under a later or non-release version is left as it is).

        Returns True when this call seeded the database; ``loaded`` is told what it loaded (``seed``).
        """
        self.upgrade()
        if not seed:
            return False
        with self.session() as session:
            recorded = session.get(DatasetVersion, SHARED_GUILD)
            if recorded is not None and not older_than_shipped(recorded.version):
                return False
        self.seed(loaded)
        return True

    def seed(self, loaded: Loaded | None = None) -> LoadReport:
        """Load the shipped dataset into the shared scope and record its version, in one transaction;
        ``loaded`` is told, in that transaction, which entries it loaded."""
        with self.session() as session:
            report = seed(session, loaded)
            session.commit()
        return report

    def imported(self, entries: int) -> None:
        """Tell the database an import committed ``entries`` entries; past ``ANALYZE_AFTER``, PostgreSQL
        refreshes its planner statistics (``ANALYZE``) at once.

        Until autovacuum's next pass, which may be minutes away, the planner would still count the rows
        of before the import: it planned each moderator's write after a first import of 2,000 incidents
        as if the guild had one, scanning all of them, 8 to 13 ms a write instead of 0.1. SQLite keeps
        no statistics unless asked to, so there is nothing to refresh.
        """
        if self.is_sqlite or entries < ANALYZE_AFTER:
            return
        tables = ", ".join(f'"{table.name}"' for table in SQLModel.metadata.sorted_tables)
        try:
            with self.engine.begin() as connection:
                connection.exec_driver_sql(f"ANALYZE {tables}")
        except SQLAlchemyError as error:  # the import stands; autovacuum will refresh them later
            log.warning("could not refresh the planner statistics after an import: %s", error)

    def dispose(self) -> None:
        self.engine.dispose()

    def _sqlite_foreign_keys(self, connection: Connection, *, enabled: bool) -> None:
        if self.is_sqlite:
            connection.exec_driver_sql(f"PRAGMA foreign_keys={'ON' if enabled else 'OFF'}")
            connection.commit()

    def __repr__(self) -> str:
        return f"Database({self.url.render_as_string(hide_password=True)!r})"
