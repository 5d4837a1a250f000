"""The shared index ``Library.open`` builds lives as long as the library: it is frozen out of the cyclic
collector's walks (``gc.freeze``), which at 100k incidents took seconds each, and handed back at
``close``."""

from __future__ import annotations

import gc

from bot.library import Library
from db.session import Database
from tests.discord_harness import database_url_of


def walked_by_the_collector(obj: object) -> bool:
    return any(tracked is obj for tracked in gc.get_objects())


def test_an_opened_librarys_documents_are_left_out_of_the_collectors_walks(seeded_database: Database) -> None:
    library = Library.open(database_url_of(seeded_database))
    try:
        document = library.index.documents()[0]
        assert gc.is_tracked(document)
        assert not walked_by_the_collector(document)
    finally:
        library.close()


def test_a_closed_librarys_documents_are_the_collectors_again(seeded_database: Database) -> None:
    library = Library.open(database_url_of(seeded_database))
    document = library.index.documents()[0]
    library.close()
    assert walked_by_the_collector(document)
