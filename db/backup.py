"""SQLite backups, taken and restored with SQLite's online backup API (``sqlite3.Connection.backup``).

``backup`` copies a consistent snapshot of the database while the bot runs (in WAL mode, without
holding up its writes) into a file of its own. ``restore`` first checks that a file is a parlbot
database (``PRAGMA integrity_check``, and a migration revision this release knows), then copies it
over the configured database in one transaction and migrates it up to head. PostgreSQL has its own
tools (``pg_dump``, ``pg_restore``; docs/DEPLOY.md).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from alembic.script import ScriptDirectory
from alembic.util import CommandError

from db.session import MIGRATIONS_DIR, Database


class BackupRefused(Exception):
    """A backup or restore that cannot be done; ``str(error)`` says why, in one line."""


def _database_file(database: Database) -> Path:
    """The SQLite file ``database`` is kept in; refused for an in-memory or missing one."""
    name = database.url.database
    if not database.is_sqlite or name in (None, "", ":memory:"):
        raise BackupRefused(f"{database!r} is not a SQLite file")
    path = Path(str(name))
    if not path.is_file():
        raise BackupRefused(f"there is no database at {path} yet")
    return path


@contextmanager
def _connection(database: Database) -> Iterator[sqlite3.Connection]:
    """One of the engine's own connections (its pragmas set), as the driver's ``sqlite3.Connection``."""
    pooled = database.engine.raw_connection()
    try:
        connection = pooled.driver_connection
        assert isinstance(connection, sqlite3.Connection)
        yield connection
    finally:
        pooled.close()


def _refuse_same_file(path: Path, database: Database) -> None:
    name = database.url.database
    if name and path.exists() and Path(name).exists() and path.samefile(name):
        raise BackupRefused(f"{path} is the configured database itself")


def backup(database: Database, target: Path) -> None:
    """Copy ``database`` (a SQLite file) into ``target`` as one self-contained file (rollback journal,
    no ``-wal`` beside it). The copy is written beside ``target`` and renamed over it once complete,
    so a backup already there is replaced only by a whole one."""
    original = _database_file(database)
    _refuse_same_file(target, database)
    partial: Path | None = None
    try:
        descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
        os.close(descriptor)
        partial = Path(name)
        shutil.copymode(original, partial)  # as private as the database, no more, no less
        with _connection(database) as source, closing(sqlite3.connect(partial)) as copy:
            source.backup(copy)  # every page in one step: one snapshot
            copy.execute("PRAGMA journal_mode=DELETE")
        partial.replace(target)
    except (OSError, sqlite3.Error) as error:
        raise BackupRefused(f"cannot write {target}: {getattr(error, 'strerror', None) or error}") from None
    finally:
        if partial is not None:
            partial.unlink(missing_ok=True)


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def backup_revision(path: Path) -> str:
    """The migration revision of the parlbot database at ``path``; ``BackupRefused`` when it is not
    one: not a SQLite database, damaged, without parlbot's migrations, or from a later release."""
    if not path.is_file():
        raise BackupRefused(f"cannot read {path}: no such file")
    try:
        with closing(_read_only(path)) as connection:
            problems = [row[0] for row in connection.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupRefused(f"{path} is damaged (integrity check: {problems[0]})")
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
            versions = (
                [row[0] for row in connection.execute("SELECT version_num FROM alembic_version")]
                if "alembic_version" in tables
                else []
            )
    except sqlite3.DatabaseError as error:
        raise BackupRefused(f"{path} is not a readable SQLite database ({error})") from None
    if len(versions) != 1:
        raise BackupRefused(f"{path} is not a parlbot database (no migration revision recorded)")
    try:
        ScriptDirectory(str(MIGRATIONS_DIR)).get_revision(versions[0])
    except CommandError:
        raise BackupRefused(
            f"{path} comes from a later parlbot (revision {versions[0]}); install that release to restore it"
        ) from None
    return str(versions[0])


def restore(source: Path, database: Database) -> str:
    """Replace the content of ``database`` (a SQLite file, created if missing) with the parlbot database
    at ``source``, in one transaction, then migrate it up to head. Returns the revision the backup was
    at. The bot must be stopped: a running one's search index would not know of the change."""
    revision = backup_revision(source)
    _refuse_same_file(source, database)
    try:
        with closing(_read_only(source)) as copy, _connection(database) as target:
            copy.backup(target)
    except sqlite3.Error as error:
        raise BackupRefused(f"cannot restore {source}: {error}") from None
    database.upgrade()
    return revision
