"""The cache of incident details: kept per guild and language, forgotten by every write."""

from __future__ import annotations

from bot.answers.detail_cache import DetailCache
from bot.messages.catalogue import speaking
from db.models import SHARED_GUILD

GUILD, OTHER = 111, 222


def loads(cache: DetailCache[str], guild: int | None, slug: str, value: str | None) -> str | None:
    return cache.get(guild, slug, lambda: value)


def test_a_kept_detail_is_served_without_loading_again() -> None:
    cache: DetailCache[str] = DetailCache()
    loads(cache, GUILD, "singh-2020", "first")
    assert loads(cache, GUILD, "singh-2020", "second") == "first"


def test_details_are_kept_per_guild_and_per_language() -> None:
    cache: DetailCache[str] = DetailCache()
    loads(cache, GUILD, "singh-2020", "guild")
    with speaking("fr"):
        assert loads(cache, GUILD, "singh-2020", "french") == "french"
    assert loads(cache, OTHER, "singh-2020", "other guild") == "other guild"
    assert loads(cache, None, "singh-2020", "shared") == "shared"
    assert loads(cache, SHARED_GUILD, "singh-2020", "again") == "shared"


def test_nothing_is_kept_for_an_incident_that_is_not_found() -> None:
    cache: DetailCache[str] = DetailCache()
    assert loads(cache, GUILD, "nobody-1900", None) is None
    assert loads(cache, GUILD, "nobody-1900", "added since") == "added since"


def test_a_write_in_a_guild_forgets_that_guilds_details_only() -> None:
    cache: DetailCache[str] = DetailCache()
    loads(cache, GUILD, "singh-2020", "old")
    loads(cache, OTHER, "singh-2020", "other")
    cache.forget(GUILD)
    assert loads(cache, GUILD, "singh-2020", "new") == "new"
    assert loads(cache, OTHER, "singh-2020", "changed") == "other"


def test_a_write_to_the_shared_dataset_forgets_every_guilds_details() -> None:
    cache: DetailCache[str] = DetailCache()
    loads(cache, GUILD, "singh-2020", "old")
    loads(cache, None, "singh-2020", "old shared")
    cache.forget(SHARED_GUILD)
    assert len(cache) == 0


def test_a_detail_loaded_while_a_write_lands_is_not_kept() -> None:
    cache: DetailCache[str] = DetailCache()

    def load_racing_a_write() -> str:
        cache.forget(GUILD)  # the write commits while the detail is being read
        return "read before the write"

    assert cache.get(GUILD, "singh-2020", load_racing_a_write) == "read before the write"
    assert loads(cache, GUILD, "singh-2020", "after the write") == "after the write"


def test_the_least_recently_used_detail_goes_first_when_full() -> None:
    cache: DetailCache[str] = DetailCache(size=2)
    loads(cache, GUILD, "a-2001", "a")
    loads(cache, GUILD, "b-2002", "b")
    loads(cache, GUILD, "a-2001", "a again")  # a is now the most recently used
    loads(cache, GUILD, "c-2003", "c")
    assert loads(cache, GUILD, "a-2001", "reloaded") == "a"
    assert loads(cache, GUILD, "b-2002", "reloaded") == "reloaded"
