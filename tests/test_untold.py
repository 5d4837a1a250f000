"""Telling members what became of their suggestions costs no query per command (``bot.curation.untold``):
a guild's members with untold outcomes are read once and trusted for ``FRESH_FOR`` seconds; a decision
in this process is heard at the author's next command, one in another process once the list is older
than that."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from bot.curation.untold import FRESH_FOR
from bot.library import Library
from db.models import SuggestionStatus
from tests.discord_harness import database_url_of
from tests.test_curation import GUILD, MEMBER, MOD, suggest_rename
from tests.test_deadlines import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def clocked(library: Library, clock: ManualClock) -> Iterator[Library]:
    """This process's library, on a clock moved by hand."""
    opened = Library.open(database_url_of(library.database), seed=False, clock=clock)
    yield opened
    opened.close()


@contextmanager
def suggestion_reads(library: Library) -> Iterator[list[str]]:
    """The statements ``library`` runs on the suggestion table while the block runs."""
    seen: list[str] = []

    def note(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if "FROM suggestion" in statement:
            seen.append(statement)

    event.listen(library.database.engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(library.database.engine, "before_cursor_execute", note)


def test_members_with_nothing_to_hear_cost_one_query_for_the_whole_guild(clocked: Library) -> None:
    with suggestion_reads(clocked) as reads:
        told = [clocked.take_outcomes(guild_id=GUILD, user_id=member) for member in range(100, 150)]

    assert told == [[]] * 50
    assert len(reads) == 1


def test_a_decision_in_this_process_is_heard_at_the_authors_next_command(clocked: Library) -> None:
    suggestion_id = suggest_rename(clocked)
    assert clocked.take_outcomes(guild_id=GUILD, user_id=MEMBER.user_id) == []

    clocked.approve(actor=MOD, suggestion_id=suggestion_id)

    told = clocked.take_outcomes(guild_id=GUILD, user_id=MEMBER.user_id)
    assert [(s.id, s.status) for s in told] == [(suggestion_id, SuggestionStatus.APPROVED)]


def test_a_decision_in_another_process_is_heard_once_the_guilds_list_is_old(
    clocked: Library, library: Library, clock: ManualClock
) -> None:
    suggestion_id = suggest_rename(library)
    assert clocked.take_outcomes(guild_id=GUILD, user_id=MEMBER.user_id) == []
    library.reject(actor=MOD, suggestion_id=suggestion_id, reason="not in the source")  # the other process

    clock.now += FRESH_FOR - 0.1
    assert clocked.take_outcomes(guild_id=GUILD, user_id=MEMBER.user_id) == []
    clock.now += 0.1
    told = clocked.take_outcomes(guild_id=GUILD, user_id=MEMBER.user_id)

    assert [(s.id, s.status) for s in told] == [(suggestion_id, SuggestionStatus.REJECTED)]
