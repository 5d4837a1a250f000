"""The shared index ``Library.open`` builds lives as long as the library: it is frozen out of the cyclic
collector's walks (``gc.freeze``), which at 100k incidents took seconds each, and handed back at
``close``. What the build freed goes back to the system (``bot.memory``)."""

from __future__ import annotations

import gc
import platform

import pytest

from bot import library as library_module
from bot.library import Library
from bot.memory import give_back_free_memory
from db.session import Database
from tests.discord_harness import database_url_of


def walked_by_the_collector(obj: object) -> bool:
    return any(tracked is obj for tracked in gc.get_objects())


def test_an_opened_librarys_index_is_left_out_of_the_collectors_walks(seeded_database: Database) -> None:
    library = Library.open(database_url_of(seeded_database))
    try:
        held = library.index._exact  # the documents by exact name: one of the index's many containers
        assert gc.is_tracked(held)
        assert not walked_by_the_collector(held)
    finally:
        library.close()


def test_a_closed_librarys_index_is_the_collectors_again(seeded_database: Database) -> None:
    library = Library.open(database_url_of(seeded_database))
    held = library.index._exact
    library.close()
    assert walked_by_the_collector(held)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_free_heap_memory_goes_back_to_the_system_where_the_c_library_is_glibc() -> None:
    assert give_back_free_memory()


def test_opening_a_library_gives_back_what_building_its_index_freed(
    seeded_database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[None] = []
    monkeypatch.setattr(library_module, "give_back_free_memory", lambda: calls.append(None) or True)
    Library.open(database_url_of(seeded_database)).close()
    assert len(calls) == 1
