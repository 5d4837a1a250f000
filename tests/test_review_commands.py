"""/review and the suggester's outcome, end to end through the CommandTree with raw payloads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.loopback.payloads import DEFAULT_USER_ID, Invoker
from bot.loopback.rest import RecordedRequest
from bot.loopback.session import OfflineSession, message_bodies, modals
from cogs.review import NOT_A_REVIEWER, REJECT_MODAL_ID
from tests.discord_harness import all_text, buttons, first_message, is_ephemeral

MODERATOR_ID = 1_246_000_000_000_000_999
SUGGESTION = '/suggest-edit person person:jagmeet-singh name:"Jagmeet S. Singh"'


def as_moderator(session: OfflineSession) -> Invoker:
    return replace(session.invoker.with_user(MODERATOR_ID, "moderator"), moderator=True)


def button_id(body: dict[str, Any], label: str) -> str:
    return str(next(b["custom_id"] for b in buttons(body) if b["label"] == label))


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
    assert embed["title"] == "Suggestion #1: change person jagmeet-singh"
    assert embed["description"] == "edited person jagmeet-singh: name"
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["Suggested by"].startswith(f"<@{DEFAULT_USER_ID}> <t:")
    assert fields["What would change"] == "**name**: “Jagmeet Singh” → “Jagmeet S. Singh”"
    assert embed["footer"]["text"] == "parlbot review · 1 of 1 waiting"
    assert [b["label"] for b in buttons(body)] == ["Approve", "Reject", "◀ Previous", "Next ▶"]


async def test_approving_writes_the_entry_and_the_member_is_told_after_their_next_command(
    discord_session: OfflineSession,
) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)

    pressed = await discord_session.press(button_id(body, "Approve"), invoker=as_moderator(discord_session))
    next_use = await discord_session.invoke("/person jagmeet-singh")

    assert edited(pressed)["content"].startswith("Approved suggestion #1 (change #1).")
    assert "No suggestions are waiting for review here." in edited(pressed)["content"]
    answer, told = message_bodies(next_use)
    assert answer["embeds"][0]["title"] == "Jagmeet S. Singh"
    assert is_ephemeral(told)
    assert told["content"] == "Your suggestion #1 (edited person jagmeet-singh: name) was approved."
    assert [r.route for r in next_use] == ["callback", "followup"]


async def test_the_member_is_told_an_outcome_only_once(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)
    await discord_session.press(button_id(body, "Approve"), invoker=as_moderator(discord_session))
    await discord_session.invoke("/person jagmeet-singh")

    again = await discord_session.invoke("/person jagmeet-singh")

    assert [r.route for r in again] == ["callback"]


async def test_rejecting_with_a_reason_tells_the_member_the_reason(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)
    moderator = as_moderator(discord_session)

    opened = await discord_session.press(button_id(body, "Reject"), invoker=moderator)
    [modal] = modals(opened)
    submitted = await discord_session.submit(
        REJECT_MODAL_ID,
        {"reason": "The Hansard spells it so"},
        message=body_message(discord_session, body),
        invoker=moderator,
    )
    next_use = await discord_session.invoke("/person jagmeet-singh")

    assert modal["custom_id"] == REJECT_MODAL_ID
    assert edited(submitted)["content"].startswith("Rejected suggestion #1.")
    answer, told = message_bodies(next_use)
    assert answer["embeds"][0]["title"] == "Jagmeet Singh"
    assert told["content"] == (
        "Your suggestion #1 (edited person jagmeet-singh: name) was rejected: The Hansard spells it so."
    )


def body_message(session: OfflineSession, body: dict[str, Any]) -> dict[str, Any]:
    found = session.fake.find_message(button_id(body, "Reject"))
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

    pressed = await discord_session.press(button_id(body, "Approve"), invoker=moderator)
    next_use = await discord_session.invoke("/person jagmeet-singh")

    assert edited(pressed)["content"].startswith(
        "Person `jagmeet-singh` changed after suggestion #1 was made, so it can't be applied as it is."
        " It is no longer waiting for review."
    )
    assert message_bodies(next_use)[0]["embeds"][0]["title"] == "Jagmeet Singh (MP)"
    assert message_bodies(next_use)[1]["content"].startswith(
        "Your suggestion #1 (edited person jagmeet-singh: name) was stale"
    )


async def test_next_and_previous_turn_through_the_queue(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    await discord_session.invoke('/suggest-edit party party:new-democratic-party name:"NDP"')
    body = await review(discord_session)
    moderator = as_moderator(discord_session)

    turned = edited(await discord_session.press(button_id(body, "Next ▶"), invoker=moderator))
    back = edited(await discord_session.press(button_id(turned, "◀ Previous"), invoker=moderator))

    assert turned["embeds"][0]["title"] == "Suggestion #2: change party new-democratic-party"
    assert turned["embeds"][0]["footer"]["text"] == "parlbot review · 2 of 2 waiting"
    assert back["embeds"][0]["title"] == "Suggestion #1: change person jagmeet-singh"


async def test_review_is_refused_to_a_member_who_is_not_a_moderator(discord_session: OfflineSession) -> None:
    body = first_message(await discord_session.invoke("/review"))

    assert is_ephemeral(body)
    assert body["content"].startswith("Only this server's parlbot moderators can change entries")


async def test_a_member_cannot_press_approve(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)

    pressed = await discord_session.press(button_id(body, "Approve"))
    queue = await review(discord_session)

    assert first_message(pressed)["content"] == NOT_A_REVIEWER
    assert queue["embeds"][0]["title"] == "Suggestion #1: change person jagmeet-singh"


async def test_an_empty_queue_says_so(discord_session: OfflineSession) -> None:
    body = await review(discord_session)

    assert "No suggestions are waiting for review here." in all_text(body)
    assert buttons(body) == []
