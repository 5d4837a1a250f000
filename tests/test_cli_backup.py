"""``parlbot db backup`` and ``db restore``: SQLite's online backup API, the checks before a restore,
and PostgreSQL's own tools."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import inspect

from bot.cli import main
from db.backup import backup_revision
from db.models import Chamber
from db.session import Database
from tests.test_cli_transfer import GUILD, with_new_person, write
from tests.test_migrations import HEAD

EARLIER = "0006"  # a revision before HEAD, as a backup from an earlier release records


def configured() -> Path:
    """The SQLite file ``DATABASE_URL`` points at (the harness's copy of the seeded database)."""
    return Path(os.environ["DATABASE_URL"].removeprefix("sqlite:///"))


def use_database(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")


def row_counts(path: Path) -> dict[str, int]:
    """How many rows each table of the SQLite database at ``path`` holds."""
    database = Database(f"sqlite:///{path}")
    try:
        with database.engine.connect() as connection:
            return {
                table: int(connection.exec_driver_sql(f'SELECT count(*) FROM "{table}"').scalar_one())
                for table in inspect(connection).get_table_names()
            }
    finally:
        database.dispose()


def import_jane_doe(workdir: Path) -> None:
    """A guild's own person, written through ``parlbot db import`` (audited, in the change log)."""
    assert main(["db", "import", str(write(workdir / "in.json", with_new_person())), "--guild", GUILD]) == 0


def exported_people(workdir: Path) -> list[str]:
    assert main(["db", "export", "out.json", "--guild", GUILD]) == 0
    exported = json.loads((workdir / "out.json").read_text(encoding="utf-8"))
    return [person["slug"] for person in exported["people"]]


def test_a_backup_taken_while_another_connection_writes_restores_every_committed_row(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_jane_doe(workdir)
    other = Database(os.environ["DATABASE_URL"])
    with other.session() as session:
        session.add(Chamber(slug="uncommitted", name="Never", legislature="45th", country="Canada"))
        session.flush()  # holds the write lock while the backup runs; rolled back after

        assert main(["db", "backup", "backup.sqlite3"]) == 0
    other.dispose()
    committed = row_counts(configured())
    use_database(monkeypatch, workdir / "restored" / "parlbot.sqlite3")

    assert main(["db", "restore", "backup.sqlite3"]) == 0

    assert row_counts(workdir / "restored" / "parlbot.sqlite3") == committed
    assert exported_people(workdir) == ["jane-doe"]


def test_a_backup_is_one_self_contained_file(workdir: Path) -> None:
    assert main(["db", "backup", "backup.sqlite3"]) == 0

    with closing(sqlite3.connect(workdir / "backup.sqlite3")) as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert sorted(path.name for path in workdir.glob("backup.sqlite3*")) == ["backup.sqlite3"]


def test_a_backup_replaces_an_earlier_file_at_its_path_whole(workdir: Path) -> None:
    (workdir / "backup.sqlite3").write_text("last week's backup, say", encoding="utf-8")

    assert main(["db", "backup", "backup.sqlite3"]) == 0

    assert backup_revision(workdir / "backup.sqlite3") == HEAD
    assert [path.name for path in workdir.glob(".backup.sqlite3*")] == []  # no partial copy left


def test_a_restore_replaces_what_the_database_held(workdir: Path) -> None:
    assert main(["db", "backup", "backup.sqlite3"]) == 0
    before = row_counts(configured())
    import_jane_doe(workdir)

    assert main(["db", "restore", "backup.sqlite3"]) == 0

    assert row_counts(configured()) == before
    assert exported_people(workdir) == []


def test_a_restore_of_a_backup_from_an_earlier_release_migrates_it_to_head(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    earlier = Database(f"sqlite:///{workdir / 'earlier.sqlite3'}")
    earlier.upgrade(EARLIER)
    earlier.dispose()
    restored = Database(f"sqlite:///{workdir / 'restored.sqlite3'}")
    use_database(monkeypatch, workdir / "restored.sqlite3")

    assert main(["db", "restore", "earlier.sqlite3"]) == 0

    assert restored.current_revision() == HEAD
    assert f"revision {EARLIER}, migrated to {HEAD}" in capsys.readouterr().out
    restored.dispose()


def dataset_file(workdir: Path) -> Path:
    return write(workdir / "dataset.json", with_new_person())


def empty_database(workdir: Path) -> Path:
    path = workdir / "other.sqlite3"
    with closing(sqlite3.connect(path)) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    return path


def from_a_later_release(workdir: Path) -> Path:
    path = workdir / "later.sqlite3"
    shutil.copyfile(configured(), path)
    with closing(sqlite3.connect(path)) as later, later:
        later.execute("UPDATE alembic_version SET version_num = '9999'")
    return path


def truncated(workdir: Path) -> Path:
    path = workdir / "truncated.sqlite3"
    path.write_bytes(configured().read_bytes()[:50_000])
    return path


def missing(workdir: Path) -> Path:
    return workdir / "missing.sqlite3"


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (dataset_file, "is not a readable SQLite database"),
        (empty_database, "is not a parlbot database"),
        (from_a_later_release, "comes from a later parlbot (revision 9999)"),
        (truncated, "is not a readable SQLite database"),
        (missing, "no such file"),
    ],
)
def test_a_restore_of_a_file_that_is_not_a_parlbot_database_is_refused_and_changes_nothing(
    workdir: Path, capsys: pytest.CaptureFixture[str], make: Callable[[Path], Path], reason: str
) -> None:
    path = make(workdir)
    before = row_counts(configured())

    code = main(["db", "restore", str(path)])

    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("parlbot: error: ")
    assert f"{path}" in err
    assert reason in err
    assert err.count("\n") == 1  # one line, no traceback
    assert row_counts(configured()) == before


@pytest.mark.parametrize("action", ["backup", "restore"])
def test_the_configured_database_itself_is_refused(
    workdir: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    before = row_counts(configured())

    code = main(["db", action, str(configured())])

    assert code == 2
    assert "is the configured database itself" in capsys.readouterr().err
    assert row_counts(configured()) == before


def test_a_backup_before_there_is_a_database_is_refused_and_creates_none(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_database(monkeypatch, workdir / "never.sqlite3")

    code = main(["db", "backup", "backup.sqlite3"])

    assert code == 2
    assert "there is no database at" in capsys.readouterr().err
    assert not (workdir / "never.sqlite3").exists()
    assert not (workdir / "backup.sqlite3").exists()


@pytest.mark.parametrize("action", ["backup", "restore"])
def test_on_postgresql_backup_and_restore_print_pg_dump_and_pg_restore_commands(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://bot:secret@db.example:5432/parlbot")

    code = main(["db", action, "parlbot.dump"])

    err = capsys.readouterr().err
    assert code == 1
    assert "pg_dump --format=custom --file=FILE 'postgresql://bot@db.example:5432/parlbot'" in err
    assert (
        "pg_restore --clean --if-exists --no-owner --dbname='postgresql://bot@db.example:5432/parlbot'" in err
    )
    assert "secret" not in err
    assert not (workdir / "parlbot.dump").exists()
