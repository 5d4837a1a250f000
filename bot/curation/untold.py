"""Which members of a guild have decided suggestions they were not told about yet, remembered briefly.

Every command a member completes asks whether they have outcomes to hear (``cogs.review.tell_outcomes``);
asking the database each time would cost a query per command, most of them finding nothing. Instead a
guild's list of such members is read at once (one query for all its members) and trusted for
``FRESH_FOR`` seconds. A decision made in this process forgets the guild's list (``forget``), so its
author hears of it at their next command; one made in another process is heard at a command made
``FRESH_FOR`` seconds after it, or later.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Final

FRESH_FOR: Final = 5.0  # seconds a guild's list is trusted


class UntoldOutcomes:
    """``read(guild_id)`` gives the guild's members with untold outcomes; ``clock`` is in seconds."""

    def __init__(self, read: Callable[[int], set[int]], clock: Callable[[], float]) -> None:
        self._read = read
        self._clock = clock
        self._lock = threading.Lock()  # held for dict operations only, never while reading
        self._lists: dict[int, tuple[float, frozenset[int]]] = {}
        self._forgotten: dict[int, int] = {}  # guild -> how many times its list was forgotten

    def may_have(self, guild_id: int, user_id: int) -> bool:
        """Whether the member may have outcomes to hear (False: certainly none, as of the guild's list)."""
        now = self._clock()
        with self._lock:
            known = self._lists.get(guild_id)
            generation = self._forgotten.get(guild_id, 0)
        if known is None or now - known[0] >= FRESH_FOR:
            known = (now, frozenset(self._read(guild_id)))
            with self._lock:
                if self._forgotten.get(guild_id, 0) == generation:  # no decision since the read began
                    self._lists[guild_id] = known
        return user_id in known[1]

    def told(self, guild_id: int, user_id: int) -> None:
        """The member was just told every outcome they had."""
        with self._lock:
            known = self._lists.get(guild_id)
            if known is not None:
                self._lists[guild_id] = (known[0], known[1] - {user_id})

    def forget(self, guild_id: int) -> None:
        """A suggestion of the guild was just decided: read its list again at the next question."""
        with self._lock:
            self._lists.pop(guild_id, None)
            self._forgotten[guild_id] = self._forgotten.get(guild_id, 0) + 1
