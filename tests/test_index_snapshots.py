"""A saved search index (``bot.search.snapshots``): a library opened again loads the index it saved, brings
it up to date from the change log, and builds the index instead whenever the file cannot be proved to be
this database's index for this code."""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import pytest
from sqlmodel import delete

from bot.change_feed import latest_change
from bot.curation.changes import Actor
from bot.library import Library
from bot.search import mapped, snapshots
from bot.search.index import Document, DocumentKind, SearchIndex, TextField
from db.models import SHARED_GUILD, EntryChange
from db.session import Database
from tests.discord_harness import database_url_of
from tests.test_change_feed import GUILD, retitle, titles

BUILDING = "Building the search index"


@pytest.fixture
def snapshot(tmp_path: Path) -> Path:
    return tmp_path / "index.snapshot"


@pytest.fixture
def url(seeded_database: Database) -> str:
    return database_url_of(seeded_database)


@pytest.fixture
def saved(url: str, snapshot: Path) -> None:
    """A library opened once with ``snapshot`` (which builds the index and saves it) and closed."""
    Library.open(url, snapshot=snapshot).close()


def reopened(url: str, snapshot: Path, caplog: pytest.LogCaptureFixture) -> tuple[Library, bool]:
    """The library opened again with ``snapshot``, and whether it built its index (rather than loading it)."""
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=snapshots.__name__):
        library = Library.open(url, snapshot=snapshot)
    return library, any(record.getMessage().startswith(BUILDING) for record in caplog.records)


def retitle_shared(library: Library, slug: str, title: str) -> None:
    """Change a shared incident's title as ``parlbot db import`` does."""
    document = library.export(guild_id=SHARED_GUILD).model_dump(mode="json")
    [incident] = [i for i in document["incidents"] if i["slug"] == slug]
    incident["title"] = title
    library.import_dataset(document, actor=Actor(SHARED_GUILD, 0))


def header(snapshot: Path) -> dict[str, object]:
    with snapshot.open("rb") as file:
        stamp: dict[str, object] = json.loads(file.readline())
    return stamp


def test_opening_a_library_saves_its_index_for_this_user_only(url: str, snapshot: Path) -> None:
    library = Library.open(url, snapshot=snapshot)
    library.close()

    assert snapshot.is_file()
    assert snapshot.stat().st_mode & 0o777 == 0o600
    with library.database.session() as session:
        assert header(snapshot)["change"] == latest_change(session)


def test_a_library_opened_again_loads_the_index_it_saved(
    url: str, snapshot: Path, saved: None, caplog: pytest.LogCaptureFixture
) -> None:
    built = Library.open(url)
    library, building = reopened(url, snapshot, caplog)

    assert not building
    assert sorted(doc.ident for doc in library.index.documents()) == sorted(
        doc.ident for doc in built.index.documents()
    )
    assert library.index.documents() != []
    assert titles(library, "singh", guild_id=None) == titles(built, "singh", guild_id=None)
    library.close()
    built.close()


def test_a_change_made_after_the_snapshot_was_saved_is_in_the_index_loaded_from_it(
    url: str, snapshot: Path, saved: None, caplog: pytest.LogCaptureFixture
) -> None:
    other = Library.open(url)  # another process, or the command line, writing while this one is down
    retitle_shared(other, "trudeau-1971", "Zanzibar quokka filibuster")
    other.close()

    library, building = reopened(url, snapshot, caplog)

    assert not building
    assert titles(library, "zanzibar quokka", guild_id=None) == ["Zanzibar quokka filibuster (1971)"]
    assert not any(title.startswith('"Fuddle duddle"') for title in titles(library, "fuddle", guild_id=None))
    library.close()


def test_closing_saves_the_changes_the_library_made_itself(
    url: str, snapshot: Path, caplog: pytest.LogCaptureFixture
) -> None:
    library = Library.open(url, snapshot=snapshot)
    retitle_shared(library, "trudeau-1971", "Zanzibar quokka filibuster")
    library.close()
    with library.database.session() as session:
        assert header(snapshot)["change"] == latest_change(session)

    again, building = reopened(url, snapshot, caplog)

    assert not building
    assert titles(again, "zanzibar quokka", guild_id=None) == ["Zanzibar quokka filibuster (1971)"]
    again.close()


def test_a_guild_s_own_entries_are_not_saved_and_load_again_at_its_next_question(
    url: str, snapshot: Path, caplog: pytest.LogCaptureFixture
) -> None:
    library = Library.open(url, snapshot=snapshot)
    retitle(library, "trudeau-1971", "Zanzibar quokka filibuster")  # the guild's own copy: its overlay
    assert library.has_overlay(GUILD)
    library.close()

    again, building = reopened(url, snapshot, caplog)

    assert not building
    assert again.index.guild_documents(GUILD) == []
    assert titles(again, "zanzibar quokka") == ["Zanzibar quokka filibuster (1971)"]
    assert titles(again, "zanzibar quokka", guild_id=None) == []
    again.close()


def test_a_snapshot_taken_at_a_change_the_log_no_longer_holds_is_not_loaded(
    url: str, snapshot: Path, saved: None, caplog: pytest.LogCaptureFixture
) -> None:
    database = Database(url)
    with database.session() as session:  # pruned: changes since the snapshot may have gone with it
        session.exec(delete(EntryChange))
        session.commit()
    database.dispose()

    library, building = reopened(url, snapshot, caplog)

    assert building
    assert "change log does not hold" in caplog.text
    library.close()


def test_the_snapshot_of_another_database_is_not_loaded(
    tmp_path: Path, snapshot: Path, caplog: pytest.LogCaptureFixture
) -> None:
    Library.open(f"sqlite:///{tmp_path / 'first.sqlite3'}", snapshot=snapshot).close()

    library, building = reopened(f"sqlite:///{tmp_path / 'second.sqlite3'}", snapshot, caplog)

    assert building
    library.close()


def test_a_snapshot_saved_after_another_process_migrated_the_database_is_not_loaded_after_it(
    url: str, snapshot: Path, caplog: pytest.LogCaptureFixture
) -> None:
    library = Library.open(url, snapshot=snapshot)
    retitle_shared(library, "trudeau-1971", "Zanzibar quokka filibuster")  # so that closing saves again
    with library.database.engine.begin() as connection:  # as a newer release's `parlbot db upgrade` would
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = 'a-later-migration'")
    library.close()

    assert header(snapshot)["revision"] != "a-later-migration"
    with library.database.session() as session, caplog.at_level(logging.INFO, logger=snapshots.__name__):
        assert snapshots.restore(snapshot, session, "a-later-migration") is None
    assert "not a-later-migration" in caplog.text


def test_a_snapshot_written_by_other_code_is_not_loaded(
    url: str, snapshot: Path, saved: None, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshots, "code_fingerprint", lambda: "a later release")

    library, building = reopened(url, snapshot, caplog)

    assert building
    assert "other code" in caplog.text
    library.close()


def test_a_snapshot_further_behind_than_catching_up_is_worth_is_not_loaded(
    url: str, snapshot: Path, saved: None, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = Library.open(url)
    retitle_shared(other, "trudeau-1971", "Zanzibar quokka filibuster")
    other.close()
    monkeypatch.setattr(snapshots, "CATCH_UP_FLOOR", 0)
    monkeypatch.setattr(snapshots, "CATCH_UP_SHARE", 0.0)

    library, building = reopened(url, snapshot, caplog)

    assert building
    assert titles(library, "zanzibar quokka", guild_id=None) == ["Zanzibar quokka filibuster (1971)"]
    library.close()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX file modes")
def test_a_snapshot_other_users_may_write_is_not_loaded(
    url: str, snapshot: Path, saved: None, caplog: pytest.LogCaptureFixture
) -> None:
    snapshot.chmod(0o666)

    library, building = reopened(url, snapshot, caplog)

    assert building
    assert "may be written by other users" in caplog.text
    library.close()


def test_a_damaged_snapshot_is_replaced_by_the_index_built_instead(
    url: str, snapshot: Path, saved: None, caplog: pytest.LogCaptureFixture
) -> None:
    content = snapshot.read_bytes()
    snapshot.write_bytes(content[: len(content) // 2])

    library, building = reopened(url, snapshot, caplog)
    library.close()
    again, building_again = reopened(url, snapshot, caplog)

    assert building
    assert not building_again
    assert titles(again, "singh", guild_id=None) != []
    again.close()


def test_a_snapshot_that_cannot_be_written_leaves_the_library_working(
    url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")

    with caplog.at_level(logging.WARNING, logger=snapshots.__name__):
        library = Library.open(url, snapshot=blocked / "index.snapshot")

    assert "Could not save the search index" in caplog.text
    assert titles(library, "singh", guild_id=None) != []
    library.close()


def test_a_loaded_index_finds_its_documents_by_the_texts_it_holds_apart_from_them(tmp_path: Path) -> None:
    documents = [
        Document(DocumentKind.PERSON, f"p{n}", f"Person {n}", fields=(TextField(f"born in town {n}", 0.6),))
        for n in range(3)
    ]
    with (tmp_path / "index").open("w+b") as written:
        SearchIndex(documents).dump(written)
        written.flush()
        loaded = mapped.load(written)

    assert isinstance(loaded, SearchIndex)
    assert [(doc.exact, doc.fields) for doc in loaded.documents()] == [((), ())] * 3
    assert [hit.document.key for hit in loaded.search("town 2")][:1] == ["p2"]


def test_saving_removes_what_a_save_killed_midway_left_and_not_what_one_under_way_is_writing(
    url: str, snapshot: Path
) -> None:
    snapshot.parent.mkdir(parents=True, exist_ok=True)
    killed = snapshot.with_name(f"{snapshot.name}.1.tmp")
    running = snapshot.with_name(f"{snapshot.name}.2.tmp")
    killed.write_bytes(b"half a snapshot")
    running.write_bytes(b"a snapshot being written")
    long_ago = time.time() - snapshots.STALE_SECONDS - 60
    os.utime(killed, (long_ago, long_ago))

    Library.open(url, snapshot=snapshot).close()

    assert not killed.exists()
    assert running.exists()
    assert snapshot.is_file()


def test_a_snapshot_is_stamped_with_the_code_the_process_runs_not_files_installed_since(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    running = snapshots.code_fingerprint()
    (tmp_path / "bot" / "search").mkdir(parents=True)
    (tmp_path / "bot" / "search" / "index.py").write_text("# a new release, installed while this one runs\n")
    monkeypatch.setattr(snapshots, "_ROOT", tmp_path)

    assert snapshots._digest_of_code() != running
    assert snapshots.code_fingerprint() == running
