"""Guild overlays on demand: the index holds the shared documents, and a guild's own only from its first
question until it has been idle for ``overlay_idle_seconds`` (by the library's clock)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from bot import library as library_module
from bot.library import Library
from bot.loopback.session import OfflineSession, choices
from bot.search.index import DocumentKind
from db.session import Database
from tests.discord_harness import database_url_of
from tests.test_change_feed import GUILD, retitle, titles

OTHER = 1_000_000_000_000_002
IDLE = 600.0


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def own_keys(library: Library, guild_id: int = GUILD) -> set[str]:
    return {doc.key for doc in library.index.guild_documents(guild_id) if doc.kind is DocumentKind.INCIDENT}


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def url(seeded_database: Database) -> str:
    """The seeded database, where GUILD has its own copy of trudeau-1971 (written by another library)."""
    url = database_url_of(seeded_database)
    writer = Library.open(url)
    retitle(writer, "trudeau-1971", "Zanzibar quokka filibuster")
    writer.close()
    return url


@pytest.fixture
def library(url: str, clock: Clock) -> Iterator[Library]:
    opened = Library.open(url, overlay_idle_seconds=IDLE, clock=clock)
    yield opened
    opened.close()


def test_an_opened_library_holds_the_shared_documents_only(library: Library) -> None:
    assert library.loaded_overlays() == set()
    assert own_keys(library) == set()
    assert library.index.get(DocumentKind.INCIDENT, "trudeau-1971") is not None


def test_a_guild_s_first_question_loads_its_overlay(library: Library) -> None:
    assert titles(library, "zanzibar quokka") == ["Zanzibar quokka filibuster (1971)"]
    assert library.loaded_overlays() == {GUILD}
    assert own_keys(library) == {"trudeau-1971"}


def test_a_large_loaded_overlay_is_left_out_of_the_garbage_collector_s_walks(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(library_module, "SET_ASIDE_OVERLAY", 1)  # as large as it takes
    titles(library, "zanzibar quokka")

    walked = {id(tracked) for tracked in gc.get_objects()}  # its generations: not what gc.freeze set aside
    overlay = library.index.guild_documents(GUILD)
    assert overlay
    assert not any(id(doc) in walked for doc in overlay)


def test_another_guild_s_question_loads_only_that_guild_s_overlay(library: Library) -> None:
    assert titles(library, "zanzibar quokka", guild_id=OTHER) == []
    assert library.loaded_overlays() == {OTHER}
    assert own_keys(library) == set()


def test_an_overlay_idle_for_the_idle_time_is_evicted_at_a_later_question(
    library: Library, clock: Clock
) -> None:
    titles(library, "zanzibar quokka")
    clock.now += IDLE

    titles(library, "zanzibar quokka", guild_id=OTHER)

    assert library.loaded_overlays() == {OTHER}
    assert own_keys(library) == set()


def test_each_question_keeps_the_overlay_for_another_idle_time(library: Library, clock: Clock) -> None:
    titles(library, "zanzibar quokka")
    clock.now += IDLE - 1
    titles(library, "zanzibar quokka")
    clock.now += IDLE - 1

    titles(library, "anything", guild_id=OTHER)

    assert library.loaded_overlays() == {GUILD, OTHER}
    assert own_keys(library) == {"trudeau-1971"}


def test_an_evicted_guild_s_next_question_sees_a_write_made_while_it_was_out(
    library: Library, clock: Clock, url: str
) -> None:
    titles(library, "zanzibar quokka")
    clock.now += IDLE
    assert library.evict_idle() == [GUILD]
    writer = Library.open(url)
    retitle(writer, "trudeau-1971", "Wombat prorogation")
    writer.close()

    assert titles(library, "wombat prorogation") == ["Wombat prorogation (1971)"]
    assert titles(library, "zanzibar quokka") == []


def test_a_write_in_an_unloaded_guild_loads_its_overlay_with_the_write(library: Library) -> None:
    retitle(library, "singh-2020", "Platypus point of order")

    assert library.loaded_overlays() == {GUILD}
    assert own_keys(library) == {"trudeau-1971", "singh-2020"}


def test_concurrent_first_questions_share_one_complete_overlay(library: Library) -> None:
    start = threading.Barrier(6)
    answers: list[list[str]] = []

    def ask() -> None:
        start.wait()
        answers.append(titles(library, "zanzibar quokka"))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert answers == [["Zanzibar quokka filibuster (1971)"]] * 6
    assert [doc.key for doc in library.index.guild_documents(GUILD) if doc.kind is DocumentKind.INCIDENT] == [
        "trudeau-1971"
    ]


async def test_a_guilds_first_autocomplete_reads_its_overlay_off_the_event_loop(
    discord_session: OfflineSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    library: Library = discord_session.bot.library  # type: ignore[attr-defined]
    guild = discord_session.invoker.guild_id
    assert guild is not None
    assert not library.has_overlay(guild)
    loaded_in: list[str] = []
    load = Library._load_overlay

    def noting_the_thread(self: Library, guild_id: int) -> None:
        loaded_in.append(threading.current_thread().name)
        load(self, guild_id)

    monkeypatch.setattr(Library, "_load_overlay", noting_the_thread)
    assert choices(await discord_session.complete("/incident query:sin"))
    assert library.has_overlay(guild)
    assert len(loaded_in) == 1
    assert loaded_in[0] != threading.main_thread().name  # the event loop runs in the main thread
