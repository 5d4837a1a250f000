"""Discord fixtures: the real ParlBot talking to the loopback Discord (a pytest plugin module).

Enable with ``pytest_plugins = ["tests.discord_harness"]`` in ``tests/conftest.py``. It builds on
conftest's ``seeded_database``, so every Discord test runs once per database backend.

    async def test_incident_answers_with_its_title(discord_session):
        reply = first_message(await discord_session.invoke("/incident singh-2020"))
        assert "Singh" in reply["embeds"][0]["title"]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import AsyncIterator, Collection, Iterator, Mapping, Sequence
from typing import Any

import pytest

from bot.client.bot import ParlBot
from bot.library import Library
from bot.loopback.payloads import DEFAULT_GUILD_ID, DEFAULT_USER_ID
from bot.loopback.rest import FakeDiscord, RecordedRequest, walk_components
from bot.loopback.session import OfflineSession, choices, is_ephemeral, message_bodies
from bot.messages.catalogue import Msg, say
from bot.search.index import SearchIndex
from bot.settings import Settings
from db.session import Database

__all__ = [
    "all_text",
    "assert_defused",
    "before",
    "buttons",
    "choices",
    "file_reply",
    "first_message",
    "is_ephemeral",
    "message_bodies",
    "shown_texts",
]


def database_url_of(database: Database) -> str:
    return database.url.render_as_string(hide_password=False)


def before(msg: Msg, left_out: str, **fields: object) -> str:
    """The text of ``msg`` up to where its field ``left_out`` goes (to match a message by its start)."""
    return say(msg, **fields, **{left_out: "\0"}).partition("\0")[0]


def file_reply(requests: Sequence[RecordedRequest]) -> RecordedRequest:
    """The one request that carried files: the callback, or the follow-up of a deferral (a reply whose work
    took over a second, as it may on a loaded machine, is deferred first, as it must be)."""
    [sent] = [request for request in requests if request.files]
    return sent


def first_message(requests: Sequence[RecordedRequest]) -> dict[str, Any]:
    """The first message body the bot sent in answer (callback data, or the follow-up after a defer)."""
    bodies = message_bodies(requests)
    assert bodies, f"the bot sent no message; requests were {[(r.route, r.status) for r in requests]}"
    return bodies[0]


def shown_texts(body: Mapping[str, Any]) -> list[str]:
    """Every string a member reads in ``body``: a message's content, embed texts and component labels
    (select options too), autocomplete's choices, a modal's title and labels (not its prefilled values:
    what a form holds is the entry's text itself, to edit)."""
    parts: list[str] = [str(body.get("content") or ""), str(body.get("title") or "")]
    for embed in body.get("embeds") or []:
        parts += [str(embed.get(key) or "") for key in ("title", "description")]
        parts += [str(f.get(key) or "") for f in embed.get("fields") or [] for key in ("name", "value")]
        parts.append(str((embed.get("footer") or {}).get("text") or ""))
        parts.append(str((embed.get("author") or {}).get("name") or ""))
    for component in walk_components(body.get("components") or []):
        parts += [str(component.get(key) or "") for key in ("label", "placeholder", "description")]
        parts += [str(option.get("label") or "") for option in component.get("options") or []]
    parts += [str(choice.get("name") or "") for choice in body.get("choices") or []]
    return [part for part in parts if part]


def all_text(body: dict[str, Any]) -> str:
    """Every human-readable string of a message body (``shown_texts``) and its embeds' links, joined."""
    links = [str(embed["url"]) for embed in body.get("embeds") or [] if embed.get("url")]
    return "\n".join([*shown_texts(body), *links])


RAW_MENTION = re.compile(r"@(?:everyone|here)|<(?:@[!&]?|#)\d+>", re.IGNORECASE)
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unseen(text: str) -> list[str]:
    """The characters of ``text`` a member cannot see that may change what they read: controls (but a
    newline) and bidirectional controls."""
    return [c for c in text if c in BIDI_CONTROLS or (unicodedata.category(c) == "Cc" and c != "\n")]


def assert_defused(body: Mapping[str, Any], *, mentions: Collection[str] = ()) -> None:
    """``body`` (a message, autocomplete's data or a modal's) shows no mention that would render as one,
    but the bot's own ``mentions`` ("<@&456>"), and no control or bidi control character."""
    for text in shown_texts(body):
        raw = [found for found in RAW_MENTION.findall(text) if found not in mentions]
        assert not raw, f"mentions {raw} render in {text!r}"
        assert not unseen(text), f"unseen characters {unseen(text)} in {text!r}"


def buttons(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        component
        for row in body.get("components") or []
        for component in row.get("components") or []
        if component.get("type") == 2
    ]


@pytest.fixture
def parlbot_settings(seeded_database: Database) -> Settings:
    """The bot's settings over the seeded database, without cooldowns: a test runs many commands as one
    member in a moment, as no person does (tests/test_cooldowns.py runs the production ones)."""
    return Settings(database_url=database_url_of(seeded_database), cooldowns={})


@pytest.fixture
def library(parlbot_settings: Settings, seeded_index: SearchIndex) -> Iterator[Library]:
    """The real Library over the seeded database (its own engine and index; closed after the test).

    What ``Library.open(parlbot_settings.database_url)`` builds, without repeating its work for every
    test: the database is migrated and seeded already, and the index is a copy of the one the
    session's template built (``seeded_index``).
    """
    opened = Library(Database(parlbot_settings.database_url), seeded_index)
    yield opened
    opened.close()


@pytest.fixture
def parlbot(parlbot_settings: Settings, library: Library) -> ParlBot:
    return ParlBot(settings=parlbot_settings, library=library)


@pytest.fixture
async def discord_session(parlbot: ParlBot) -> AsyncIterator[OfflineSession]:
    """A logged-in ParlBot (cogs loaded) in a guild, asked by an ordinary member in en-US."""
    async with OfflineSession(parlbot, guild_id=DEFAULT_GUILD_ID, user_id=DEFAULT_USER_ID) as session:
        yield session


@pytest.fixture
async def moderator_session(parlbot: ParlBot) -> AsyncIterator[OfflineSession]:
    """Like ``discord_session``, but the member asking has moderator permissions."""
    async with OfflineSession(parlbot, moderator=True) as session:
        yield session


def restarted(settings: Settings) -> ParlBot:
    """A second ParlBot on the same database, as after a restart: its own engine, a freshly built index.
    Run it in an ``OfflineSession`` sharing the first one's ``FakeDiscord`` to meet the messages the
    first bot sent (close its library after)."""
    return ParlBot(settings=settings, library=Library.open(settings.database_url, seed=False))


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A bare loopback Discord REST server, for tests that speak HTTP to it directly."""
    async with FakeDiscord() as fake:
        yield fake
