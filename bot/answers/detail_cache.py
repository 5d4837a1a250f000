"""A bounded cache of read answers (incident details), forgotten per guild on every write.

Loading an incident's detail takes a couple of dozen queries (its people, parties, quotes, rulings,
motions and sources, each as the guild sees them): most of a lookup's time. The same incidents are
asked about again and again, so the detail is kept, keyed by (guild, slug, language): names are
picked in the language being spoken when the detail is read.

A write in a guild forgets that guild's details; a write to the shared dataset (guild 0) forgets
every guild's, since every guild sees the shared entries. Forgetting happens after the write is
committed and before the index shows it, so a reader never gets a detail older than what search
found. The least recently used details go first past ``size``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from bot.messages.catalogue import current_locale
from db.models import SHARED_GUILD

__all__ = ["DetailCache"]

_Value = TypeVar("_Value")
_Key = tuple[int, str, str]  # guild, slug, language


class DetailCache(Generic[_Value]):
    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._values: OrderedDict[_Key, _Value] = OrderedDict()
        self._generation = 0  # bumped by every forget: a load that raced a write is not kept

    def get(self, guild_id: int | None, slug: str, load: Callable[[], _Value | None]) -> _Value | None:
        """The cached value, else ``load()`` (kept unless ``None`` or a write landed meanwhile)."""
        key = (guild_id or SHARED_GUILD, slug, current_locale())
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
                return value
            generation = self._generation
        value = load()
        with self._lock:
            if value is not None and generation == self._generation:
                self._values[key] = value
                if len(self._values) > self.size:
                    self._values.popitem(last=False)
        return value

    def forget(self, guild_id: int) -> None:
        """Drop the guild's values (every guild's when ``guild_id`` is the shared scope)."""
        with self._lock:
            self._generation += 1
            if guild_id == SHARED_GUILD:
                self._values.clear()
                return
            for key in [key for key in self._values if key[0] == guild_id]:
                del self._values[key]

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)
