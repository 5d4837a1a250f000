"""/review and the suggester's outcome, end to end through the CommandTree with raw payloads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.curation.changes import kind_name
from bot.loopback.payloads import DEFAULT_USER_ID, Invoker
from bot.loopback.rest import RecordedRequest
from bot.loopback.session import OfflineSession, message_bodies, modals
from bot.messages.catalogue import Msg, say
from cogs.review import REJECT_MODAL_ID
from db.models import EntityKind
from tests.discord_harness import all_text, buttons, first_message, is_ephemeral

MODERATOR_ID = 1_246_000_000_000_000_999
SUGGESTION = '/suggest-edit person person:jagmeet-singh name:"Jagmeet S. Singh"'
# The suggestion's summary, as the forms word it ("edited person jagmeet-singh: name").
SUMMARY = say(Msg.EDITED_SUMMARY, what=f"{kind_name(EntityKind.PERSON)} jagmeet-singh", fields="name")


def as_moderator(session: OfflineSession) -> Invoker:
    return replace(session.invoker.with_user(MODERATOR_ID, "moderator"), moderator=True)


def button_id(body: dict[str, Any], label: Msg) -> str:
    return str(next(b["custom_id"] for b in buttons(body) if b["label"] == say(label)))


def title(suggestion: int, kind: str, key: str) -> str:
    return say(Msg.REVIEW_CHANGE_TITLE, suggestion=suggestion, kind=kind, key=key)


def footer(position: int, total: int) -> str:
    return f"{say(Msg.REVIEW_FOOTER)} · {say(Msg.REVIEW_POSITION, position=position, total=total)}"


def outcome(status: Msg, reason: str = "") -> str:
    return say(Msg.OUTCOME, suggestion=1, summary=SUMMARY, status=say(status), reason=reason)


def edited(requests: list[RecordedRequest]) -> dict[str, Any]:
    """The message a component interaction left: its callback's update, or its last edit."""
    return message_bodies(requests)[-1]


async def review(session: OfflineSession) -> dict[str, Any]:
    return first_message(await session.invoke("/review", invoker=as_moderator(session)))


async def test_review_shows_a_suggestion_with_who_when_and_what_would_change(
    discord_session: OfflineSession,
) -> None:
    await discord_session.invoke(SUGGESTION)

    body = await review(discord_session)

    embed = body["embeds"][0]
    assert is_ephemeral(body)
    assert embed["title"] == title(1, "person", "jagmeet-singh")
    assert embed["description"] == SUMMARY
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields[say(Msg.SUGGESTED_BY)].startswith(f"<@{DEFAULT_USER_ID}> <t:")
    assert fields[say(Msg.WHAT_WOULD_CHANGE)] == "**name**: “Jagmeet Singh” → “Jagmeet S. Singh”"
    assert embed["footer"]["text"] == footer(1, 1)
    labels = [say(msg) for msg in (Msg.APPROVE, Msg.REJECT, Msg.PREVIOUS, Msg.NEXT)]
    assert [b["label"] for b in buttons(body)] == labels


async def test_approving_writes_the_entry_and_the_member_is_told_after_their_next_command(
    discord_session: OfflineSession,
) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)

    pressed = await discord_session.press(button_id(body, Msg.APPROVE), invoker=as_moderator(discord_session))
    next_use = await discord_session.invoke("/person jagmeet-singh")

    assert edited(pressed)["content"] == "\n".join(
        (say(Msg.APPROVED, suggestion=1, change=1), say(Msg.REVIEW_EMPTY))
    )
    answer, told = message_bodies(next_use)
    assert answer["embeds"][0]["title"] == "Jagmeet S. Singh"
    assert is_ephemeral(told)
    assert told["content"] == outcome(Msg.STATUS_APPROVED)
    assert [r.route for r in next_use] == ["callback", "followup"]


async def test_the_member_is_told_an_outcome_only_once(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)
    await discord_session.press(button_id(body, Msg.APPROVE), invoker=as_moderator(discord_session))
    await discord_session.invoke("/person jagmeet-singh")

    again = await discord_session.invoke("/person jagmeet-singh")

    assert [r.route for r in again] == ["callback"]


async def test_rejecting_with_a_reason_tells_the_member_the_reason(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)
    moderator = as_moderator(discord_session)

    opened = await discord_session.press(button_id(body, Msg.REJECT), invoker=moderator)
    [modal] = modals(opened)
    submitted = await discord_session.submit(
        REJECT_MODAL_ID,
        {"reason": "The Hansard spells it so"},
        message=body_message(discord_session, body),
        invoker=moderator,
    )
    next_use = await discord_session.invoke("/person jagmeet-singh")

    assert modal["custom_id"] == REJECT_MODAL_ID
    assert edited(submitted)["content"].startswith(say(Msg.REJECTED, suggestion=1))
    answer, told = message_bodies(next_use)
    assert answer["embeds"][0]["title"] == "Jagmeet Singh"
    assert told["content"] == outcome(Msg.STATUS_REJECTED, ": The Hansard spells it so")


def body_message(session: OfflineSession, body: dict[str, Any]) -> dict[str, Any]:
    found = session.fake.find_message(button_id(body, Msg.REJECT))
    assert found is not None
    return found


async def test_a_suggestion_whose_entry_changed_since_is_marked_stale(
    discord_session: OfflineSession,
) -> None:
    await discord_session.invoke(SUGGESTION)
    moderator = as_moderator(discord_session)
    await discord_session.invoke(
        '/edit person person:jagmeet-singh name:"Jagmeet Singh (MP)"', invoker=moderator
    )
    body = await review(discord_session)

    pressed = await discord_session.press(button_id(body, Msg.APPROVE), invoker=moderator)
    next_use = await discord_session.invoke("/person jagmeet-singh")

    changed = say(Msg.CHANGED_SINCE_SUGGESTION, kind="Person", key="jagmeet-singh", suggestion=1)
    assert edited(pressed)["content"].startswith(say(Msg.NO_LONGER_WAITING, problem=changed))
    assert message_bodies(next_use)[0]["embeds"][0]["title"] == "Jagmeet Singh (MP)"
    stale = f": {say(Msg.STALE_REASON)}"
    assert message_bodies(next_use)[1]["content"] == outcome(Msg.STATUS_STALE, stale)


async def test_next_and_previous_turn_through_the_queue(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    await discord_session.invoke('/suggest-edit party party:new-democratic-party name:"NDP"')
    body = await review(discord_session)
    moderator = as_moderator(discord_session)

    turned = edited(await discord_session.press(button_id(body, Msg.NEXT), invoker=moderator))
    back = edited(await discord_session.press(button_id(turned, Msg.PREVIOUS), invoker=moderator))

    assert turned["embeds"][0]["title"] == title(2, "party", "new-democratic-party")
    assert turned["embeds"][0]["footer"]["text"] == footer(2, 2)
    assert back["embeds"][0]["title"] == title(1, "person", "jagmeet-singh")


async def test_review_is_refused_to_a_member_who_is_not_a_moderator(discord_session: OfflineSession) -> None:
    body = first_message(await discord_session.invoke("/review"))

    assert is_ephemeral(body)
    assert body["content"] == say(Msg.NOT_A_MODERATOR_TO_READ)


async def test_a_member_cannot_press_approve(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)

    pressed = await discord_session.press(button_id(body, Msg.APPROVE))
    queue = await review(discord_session)

    assert first_message(pressed)["content"] == say(Msg.NOT_A_REVIEWER)
    assert queue["embeds"][0]["title"] == title(1, "person", "jagmeet-singh")


async def test_an_empty_queue_says_so(discord_session: OfflineSession) -> None:
    body = await review(discord_session)

    assert say(Msg.REVIEW_EMPTY) in all_text(body)
    assert buttons(body) == []
