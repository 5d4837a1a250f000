"""/export and /import, end to end through the CommandTree with raw payloads and real attachments."""

from __future__ import annotations

import datetime as dt
import json
import sys
from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest

from bot.library import Library
from bot.loopback import payloads
from bot.loopback.payloads import DEFAULT_GUILD_ID, Invoker
from bot.loopback.rest import RecordedRequest
from bot.loopback.session import OfflineSession, message_bodies
from bot.messages.catalogue import Msg, say
from db.dataset.schema import SHIPPED_DATASET, parse_dataset
from tests.discord_harness import buttons, file_reply, first_message, is_ephemeral

JANE = {"slug": "jane-doe", "name": "Jane Doe"}
OTHER_GUILD_ID = 1_246_000_000_000_000_888


def with_people(*people: dict[str, str]) -> bytes:
    document: dict[str, Any] = json.loads(SHIPPED_DATASET.read_text(encoding="utf-8"))
    document["people"] += people
    return json.dumps(document).encode()


async def import_file(session: OfflineSession, content: bytes) -> dict[str, Any]:
    return first_message(await session.invoke("/import file:in.json", files={"in.json": content}))


def loaded_cog() -> ModuleType:
    """The ``cogs.transfer`` module the bot loaded (``load_extension`` executes it anew)."""
    return sys.modules["cogs.transfer"]


def button_id(body: dict[str, Any], label: Msg) -> str:
    return str(next(b["custom_id"] for b in buttons(body) if b["label"] == say(label)))


def guild_people(library: Library, guild_id: int = DEFAULT_GUILD_ID) -> list[str]:
    return [person.slug for person in library.export(guild_id=guild_id).people]


def contents(requests: list[RecordedRequest]) -> list[str]:
    return [str(body.get("content")) for body in message_bodies(requests)]


async def test_export_attaches_the_guilds_data_as_a_valid_dataset(
    moderator_session: OfflineSession, library: Library
) -> None:
    await import_and_confirm(moderator_session, with_people(JANE))

    callback = file_reply(await moderator_session.invoke("/export"))

    name = f"parlbot-{DEFAULT_GUILD_ID}-{dt.datetime.now(dt.UTC).date().isoformat()}.json"
    assert callback.files == (name,)
    body = first_message([callback])
    assert is_ephemeral(body)
    assert body["attachments"] == [{"id": 0, "filename": name}]
    exported = parse_dataset(json.loads(callback.contents[0]))
    assert [person.slug for person in exported.people] == ["jane-doe"]
    assert exported == library.export(guild_id=DEFAULT_GUILD_ID)


async def test_export_is_refused_to_a_member_who_is_not_a_moderator(discord_session: OfflineSession) -> None:
    [callback] = await discord_session.invoke("/export")

    assert callback.files == ()
    assert first_message([callback])["content"] == say(Msg.NOT_A_MODERATOR_TO_READ)


async def test_import_shows_the_dry_run_and_writes_nothing_yet(
    moderator_session: OfflineSession, library: Library
) -> None:
    body = await import_file(moderator_session, with_people(JANE, {"slug": "john-roe", "name": "John Roe"}))

    assert body["content"] == say(Msg.CONFIRM_IMPORT_MANY, count=2)
    table = body["embeds"][0]["description"].splitlines()
    assert table[4].split() == ["person", "2", "0", "58", "0"]
    assert table[-2].split() == ["total", "2", "0", "136", "0"]
    assert [b["label"] for b in buttons(body)] == [say(Msg.IMPORT), say(Msg.CANCEL)]
    assert "get_attachment" in [r.route for r in moderator_session.fake.requests]
    assert guild_people(library) == []


async def test_import_with_a_rejected_row_shows_the_reasons_and_offers_nothing(
    moderator_session: OfflineSession, library: Library
) -> None:
    body = await import_file(moderator_session, with_people(JANE, {"slug": "john-roe", "name": "", "x": "y"}))

    fields = {field["name"]: field["value"] for field in body["embeds"][0]["fields"]}
    assert fields[say(Msg.REJECTED_ENTRIES)] == (
        "• people[59] (person john-roe): people[59].name: String should have at least 1 character;"
        " people[59].x: Extra inputs are not permitted"
    )
    assert body["content"] == say(Msg.FIX_AND_RETRY)
    assert buttons(body) == []
    assert guild_people(library) == []


async def import_and_confirm(session: OfflineSession, content: bytes) -> list[RecordedRequest]:
    body = await import_file(session, content)
    return await session.press(button_id(body, Msg.IMPORT))


async def test_confirming_writes_everything_and_ends_with_the_summary(
    moderator_session: OfflineSession, library: Library
) -> None:
    pressed = await import_and_confirm(moderator_session, with_people(JANE))
    found = first_message(await moderator_session.invoke("/person jane-doe"))

    shown = contents(pressed)
    assert shown[0] == say(Msg.IMPORTING, bar=" " * 20, done=0, total=1)
    assert shown[-1] == say(Msg.IMPORTED, summary="1 added, 0 changed, 136 unchanged, 0 rejected")
    assert guild_people(library) == ["jane-doe"]
    assert found["embeds"][0]["title"] == "Jane Doe"


async def test_a_long_import_shows_its_progress_by_editing_the_message(
    moderator_session: OfflineSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loaded_cog(), "PROGRESS_INTERVAL", 0.0)

    pressed = await import_and_confirm(
        moderator_session, with_people(JANE, {"slug": "john-roe", "name": "John Roe"})
    )

    edits = [r.body["content"] for r in pressed if r.route == "edit_original" and isinstance(r.body, dict)]
    assert edits[0] == say(Msg.IMPORTING, bar="#" * 10 + " " * 10, done=1, total=2)
    assert edits[-1] == say(Msg.IMPORTED, summary="2 added, 0 changed, 136 unchanged, 0 rejected")


async def test_only_the_moderator_who_ran_import_can_confirm_it(
    moderator_session: OfflineSession, library: Library
) -> None:
    body = await import_file(moderator_session, with_people(JANE))
    other: Invoker = replace(moderator_session.invoker.with_user(1_246_000_000_000_000_998, "other"))

    pressed = await moderator_session.press(button_id(body, Msg.IMPORT), invoker=other)

    assert first_message(pressed)["content"] == say(Msg.IMPORT_NOT_YOURS)
    assert guild_people(library) == []


async def test_an_import_confirmed_from_another_server_writes_nothing(
    moderator_session: OfflineSession, library: Library
) -> None:
    body = await import_file(moderator_session, with_people(JANE))
    elsewhere = replace(moderator_session.invoker, guild_id=OTHER_GUILD_ID)
    moderator_session.bot._connection.parsers["GUILD_CREATE"](payloads.guild_create(elsewhere))

    pressed = first_message(await moderator_session.press(button_id(body, Msg.IMPORT), invoker=elsewhere))

    assert is_ephemeral(pressed)
    assert pressed["content"] == say(Msg.ANOTHER_SERVER)
    assert guild_people(library) == guild_people(library, OTHER_GUILD_ID) == []


async def test_cancelling_writes_nothing(moderator_session: OfflineSession, library: Library) -> None:
    body = await import_file(moderator_session, with_people(JANE))

    pressed = await moderator_session.press(button_id(body, Msg.CANCEL))

    assert contents(pressed) == [say(Msg.IMPORT_CANCELLED)]
    assert guild_people(library) == []


async def test_a_file_that_is_not_json_is_answered_with_why(moderator_session: OfflineSession) -> None:
    body = await import_file(moderator_session, b"{not json")

    assert is_ephemeral(body)
    assert body["content"] == say(
        Msg.NOT_JSON,
        name="in.json",
        error="Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    )


async def test_a_file_over_the_size_cap_is_refused_before_it_is_read(
    moderator_session: OfflineSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loaded_cog(), "IMPORT_MAX_BYTES", 1024)

    body = await import_file(moderator_session, with_people(JANE))

    size = len(with_people(JANE)) / 1024 / 1024
    assert body["content"] == say(
        Msg.FILE_TOO_BIG, filename="in.json", megabytes=size, limit=0, guild=DEFAULT_GUILD_ID
    )
    assert "get_attachment" not in [r.route for r in moderator_session.fake.requests]


async def test_an_exported_file_imports_back_unchanged(moderator_session: OfflineSession) -> None:
    await import_and_confirm(moderator_session, with_people(JANE))
    exported = file_reply(await moderator_session.invoke("/export"))

    body = await import_file(moderator_session, exported.contents[0])

    assert body["content"] == say(Msg.NOTHING_TO_IMPORT)
    assert body["embeds"][0]["description"].splitlines()[-2].split() == ["total", "0", "0", "1", "0"]


async def test_import_is_refused_to_a_member_who_is_not_a_moderator(discord_session: OfflineSession) -> None:
    body = await import_file(discord_session, with_people(JANE))

    assert body["content"] == say(Msg.NOT_A_MODERATOR)
    assert "get_attachment" not in [r.route for r in discord_session.fake.requests]
