"""/review and the suggester's outcome, end to end through the CommandTree with raw payloads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.curation.changes import kind_name
from bot.curation.replies import credit
from bot.defuse import defuse
from bot.library import Library
from bot.loopback import payloads
from bot.loopback.payloads import DEFAULT_GUILD_ID, DEFAULT_USER_ID, Invoker
from bot.loopback.rest import RecordedRequest
from bot.loopback.session import OfflineSession, message_bodies, modals
from bot.messages.catalogue import Msg, say
from cogs.review import REJECT_MODAL_ID
from db.dataset.files import read_dataset
from db.dataset.schema import SHIPPED_DATASET
from db.models import EntityKind
from tests.discord_harness import all_text, buttons, choices, file_reply, first_message, is_ephemeral

MODERATOR_ID = 1_246_000_000_000_000_999
SECOND_MODERATOR_ID = 1_246_000_000_000_000_998
OTHER_GUILD_ID = 1_246_000_000_000_000_888
OTHER_CHANNEL_ID = 1_246_000_000_000_000_887
SUGGESTION = '/suggest-edit person person:jagmeet-singh name:"Jagmeet S. Singh"'
# The suggestion's summary, as the forms word it ("edited person jagmeet-singh: name").
SUMMARY = say(Msg.EDITED_SUMMARY, what=f"{kind_name(EntityKind.PERSON)} jagmeet-singh", fields="name")


def as_moderator(session: OfflineSession) -> Invoker:
    return replace(session.invoker.with_user(MODERATOR_ID, "moderator"), moderator=True)


def elsewhere(session: OfflineSession) -> Invoker:
    """The same moderator, in another guild the bot is in (where they moderate too)."""
    other = replace(as_moderator(session), guild_id=OTHER_GUILD_ID, channel_id=OTHER_CHANNEL_ID)
    session.bot._connection.parsers["GUILD_CREATE"](payloads.guild_create(other))
    return other


def pending(library: Library) -> list[int]:
    """The numbers of the suggestions still waiting in the session's guild."""
    return [suggestion.id or 0 for suggestion in library.pending_suggestions(guild_id=DEFAULT_GUILD_ID)]


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
    assert embed["description"] == f"{SUMMARY}\n{say(Msg.CHANGE_LEGEND)}"
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields[say(Msg.SUGGESTED_BY)].startswith(f"<@{DEFAULT_USER_ID}> <t:")
    assert fields["Name"] == "~~Jagmeet Singh~~ → __Jagmeet S. Singh__"
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

    credited = defuse(credit(MODERATOR_ID, DEFAULT_USER_ID))
    assert edited(pressed)["content"] == "\n".join(
        (
            f"{say(Msg.APPROVED, suggestion=1, change=1)} {credited[:1].upper()}{credited[1:]}.",
            say(Msg.REVIEW_EMPTY),
        )
    )
    answer, told = message_bodies(next_use)
    assert answer["embeds"][0]["title"] == "Jagmeet S. Singh"
    assert is_ephemeral(told)
    assert told["content"] == outcome(Msg.STATUS_APPROVED)
    # The notice follows the answer, which went out at once or, if the work took over a second (as a
    # full collection of a busy test process can make it), after a deferral.
    assert next_use[-1].route == "followup"


async def test_the_member_is_told_an_outcome_only_once(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)
    await discord_session.press(button_id(body, Msg.APPROVE), invoker=as_moderator(discord_session))
    await discord_session.invoke("/person jagmeet-singh")

    again = await discord_session.invoke("/person jagmeet-singh")

    bodies = message_bodies(again)
    assert len(bodies) == 1  # the answer, and no second notice
    assert bodies[0]["embeds"][0]["title"] == "Jagmeet S. Singh"


async def test_rejecting_with_a_reason_tells_the_member_the_reason(discord_session: OfflineSession) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)
    moderator = as_moderator(discord_session)

    opened = await discord_session.press(button_id(body, Msg.REJECT), invoker=moderator)
    [modal] = modals(opened)
    submitted = await discord_session.submit(
        modal["custom_id"],
        {"reason": "The Hansard spells it so"},
        message=body_message(discord_session, body),
        invoker=moderator,
    )
    next_use = await discord_session.invoke("/person jagmeet-singh")

    assert modal["custom_id"].startswith(REJECT_MODAL_ID)
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


async def test_a_moderator_of_another_server_cannot_approve_this_servers_suggestion(
    discord_session: OfflineSession, library: Library
) -> None:
    await discord_session.invoke(SUGGESTION)
    body = await review(discord_session)

    pressed = first_message(
        await discord_session.press(button_id(body, Msg.APPROVE), invoker=elsewhere(discord_session))
    )

    assert is_ephemeral(pressed)
    assert pressed["content"] == say(Msg.ANOTHER_SERVER)
    assert pending(library) == [1]


async def open_reject_form(session: OfflineSession, moderator: Invoker, *, turns: int = 0) -> str:
    """Open /review as ``moderator``, turn ``turns`` pages, press Reject: the form's custom id."""
    body = first_message(await session.invoke("/review", invoker=moderator))
    for _ in range(turns):
        body = edited(await session.press(button_id(body, Msg.NEXT), invoker=moderator))
    [modal] = modals(await session.press(button_id(body, Msg.REJECT), invoker=moderator))
    return str(modal["custom_id"])


async def test_a_reason_sent_from_another_server_rejects_nothing(
    discord_session: OfflineSession, library: Library
) -> None:
    await discord_session.invoke(SUGGESTION)
    form = await open_reject_form(discord_session, as_moderator(discord_session))

    sent = first_message(
        await discord_session.submit(form, {"reason": "Not sourced yet"}, invoker=elsewhere(discord_session))
    )

    assert is_ephemeral(sent)
    assert sent["content"].startswith(say(Msg.ANOTHER_SERVER))
    assert "Not sourced yet" in sent["content"]
    assert pending(library) == [1]


async def test_a_reason_sent_by_another_member_than_the_one_who_opened_the_form_rejects_nothing(
    discord_session: OfflineSession, library: Library
) -> None:
    await discord_session.invoke(SUGGESTION)
    form = await open_reject_form(discord_session, as_moderator(discord_session))
    second = replace(as_moderator(discord_session), user_id=SECOND_MODERATOR_ID)

    sent = first_message(await discord_session.submit(form, {"reason": "No"}, invoker=second))

    assert sent["content"] == say(Msg.FORM_NOT_YOURS)
    assert pending(library) == [1]


async def test_two_moderators_rejecting_at_once_each_reject_the_suggestion_they_opened(
    discord_session: OfflineSession, library: Library
) -> None:
    await discord_session.invoke(SUGGESTION)
    await discord_session.invoke('/suggest-edit party party:new-democratic-party name:"NDP"')
    first = as_moderator(discord_session)
    second = replace(first, user_id=SECOND_MODERATOR_ID)
    first_form = await open_reject_form(discord_session, first)
    await open_reject_form(discord_session, second, turns=1)

    await discord_session.submit(first_form, {"reason": "Not so"}, invoker=first)

    assert pending(library) == [2]


async def test_an_empty_queue_says_so(discord_session: OfflineSession) -> None:
    body = await review(discord_session)

    assert say(Msg.REVIEW_EMPTY) in all_text(body)
    assert buttons(body) == []


# -- what a moderator sees of a change ----------------------------------------------------------------

SUMMARY_NOW = next(  # singh-2020's summary in the shipped dataset
    incident.summary for incident in read_dataset(SHIPPED_DATASET).incidents if incident.slug == "singh-2020"
)


def field_list(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(field["name"], field["value"]) for embed in body["embeds"] for field in embed.get("fields", [])]


def fields_of(body: dict[str, Any]) -> dict[str, str]:
    return dict(field_list(body))


def words(text: str) -> list[str]:
    return text.split()


def long_text(count: int) -> str:
    """A quote of ``count`` distinct words, far longer than one embed field."""
    return " ".join(f"word{n}" for n in range(count))


async def test_review_shows_a_suggested_quotes_full_text_split_across_fields(
    discord_session: OfflineSession,
) -> None:
    text = long_text(300)  # about 2,300 characters: three fields' worth
    await discord_session.invoke(
        f'/suggest quote incident:singh-2020 text:"{text}" speaker:jagmeet-singh source:singh-2020-cbc'
    )

    fields = field_list(await review(discord_session))

    part = say(Msg.CHANGE_PART_ADDED, part="Quote", number=9)
    shown = [value for name, value in fields if name in {part, say(Msg.CHANGE_CONTINUED, title=part)}]
    assert len(shown) > 1
    assert words(text) == [w for w in words(" ".join(shown)) if w.startswith("word")]
    assert "**speaker**: Jagmeet Singh" in shown[0]
    assert say(Msg.CHANGE_NOT_SHOWN) not in dict(fields)


async def test_a_change_too_long_for_one_message_says_so_and_gives_the_whole_change_as_a_file(
    discord_session: OfflineSession,
) -> None:
    summary, notes = long_text(600), long_text(650)  # about 4,600 and 5,000 characters: not one message
    await discord_session.invoke(
        f'/suggest-edit incident incident:singh-2020 summary:"{summary[:3990]}" notes:"{notes[:3990]}"'
    )
    body = await review(discord_session)

    file = file_reply(
        await discord_session.press(button_id(body, Msg.FULL_CHANGE), invoker=as_moderator(discord_session))
    )

    fields = fields_of(body)
    assert fields[say(Msg.CHANGE_NOT_SHOWN)].endswith(
        say(Msg.CHANGE_BEHIND_BUTTON, items="\0").partition("\0")[2]
    )
    assert file.files == ("suggestion-1.txt",)
    content = file.contents[0].decode()
    assert "{+" + summary[:3990].rsplit(" ", 1)[0] in content
    assert "[-" + SUMMARY_NOW in content


async def test_a_change_too_long_for_one_message_opens_from_history_with_the_whole_change_attached(
    discord_session: OfflineSession,
) -> None:
    summary = long_text(600)[:3990]
    await discord_session.invoke(
        f'/suggest-edit incident incident:singh-2020 summary:"{summary}" notes:"{summary}"'
    )
    moderator = as_moderator(discord_session)
    await discord_session.press(button_id(await review(discord_session), Msg.APPROVE), invoker=moderator)
    page = first_message(await discord_session.invoke("/history target:singh-2020", invoker=moderator))

    opened = file_reply(await discord_session.press(select_id(page), values=["1"], invoker=moderator))

    assert opened.files == ("change-1.txt",)
    fields = fields_of(first_message([opened]))
    assert fields[say(Msg.CHANGE_NOT_SHOWN)].endswith(say(Msg.CHANGE_IN_FILE, items="\0").partition("\0")[2])
    assert "== Notes ==\n[-" in opened.contents[0].decode()


async def test_an_edit_suggestion_shows_before_and_after_with_the_changed_words_marked(
    discord_session: OfflineSession,
) -> None:
    changed = SUMMARY_NOW.replace("systemic racism", "systemic bias")
    await discord_session.invoke(f'/suggest-edit incident incident:singh-2020 summary:"{changed}"')

    body = await review(discord_session)

    continued = say(Msg.CHANGE_CONTINUED, title="Summary")
    summary = " ".join(value for name, value in field_list(body) if name in {"Summary", continued})
    assert summary.startswith("On Wednesday afternoon, 17 June 2020, a few minutes after a special sitting")
    assert "would recognize systemic ~~racism~~ __bias__ in the RCMP, and did not get it." in summary
    assert summary.endswith("the one-day suspension was not enough.")
    assert say(Msg.CHANGE_LEGEND) in body["embeds"][0]["description"]


async def test_a_party_reference_shows_the_partys_name_not_its_slug(discord_session: OfflineSession) -> None:
    await discord_session.invoke("/suggest-edit person person:jagmeet-singh party:bloc-quebecois")

    body = await review(discord_session)

    assert fields_of(body)["Party"] == "~~New Democratic Party~~ → __Bloc Québécois__"
    assert "bloc-quebecois" not in all_text(body)


async def approve_the_suggestion(session: OfflineSession) -> None:
    await session.invoke(SUGGESTION)
    body = await review(session)
    await session.press(button_id(body, Msg.APPROVE), invoker=as_moderator(session))


async def test_history_credits_the_member_who_suggested_and_the_moderator_who_approved(
    discord_session: OfflineSession,
) -> None:
    await approve_the_suggestion(discord_session)

    body = first_message(
        await discord_session.invoke(
            "/history target:person:jagmeet-singh", invoker=as_moderator(discord_session)
        )
    )

    line = body["embeds"][0]["description"]
    assert line.startswith(f"**#1** {SUMMARY} — ")
    assert say(Msg.CREDIT_SUGGESTED, author=f"<@{DEFAULT_USER_ID}>", moderator=f"<@{MODERATOR_ID}>") in line
    assert body["allowed_mentions"] == {"parse": []}


def select_id(body: dict[str, Any]) -> str:
    return str(
        next(c["custom_id"] for row in body["components"] for c in row["components"] if c["type"] == 3)
    )


async def test_history_opens_one_change_before_and_after_with_who_made_it(
    discord_session: OfflineSession,
) -> None:
    await approve_the_suggestion(discord_session)
    moderator = as_moderator(discord_session)
    page = first_message(await discord_session.invoke("/history target:jagmeet-singh", invoker=moderator))

    opened = first_message(await discord_session.press(select_id(page), values=["1"], invoker=moderator))

    assert is_ephemeral(opened)
    assert opened["embeds"][0]["title"] == say(
        Msg.CHANGE_TITLE, change=1, summary=SUMMARY[:1].upper() + SUMMARY[1:]
    )
    fields = fields_of(opened)
    assert fields["Name"] == "~~Jagmeet Singh~~ → __Jagmeet S. Singh__"
    assert fields[say(Msg.CHANGE_BY)] == defuse(credit(MODERATOR_ID, DEFAULT_USER_ID))


async def test_a_change_picked_from_another_server_is_not_shown(discord_session: OfflineSession) -> None:
    await approve_the_suggestion(discord_session)
    moderator = as_moderator(discord_session)
    page = first_message(await discord_session.invoke("/history target:jagmeet-singh", invoker=moderator))

    picked = first_message(
        await discord_session.press(select_id(page), values=["1"], invoker=elsewhere(discord_session))
    )

    assert is_ephemeral(picked)
    assert picked["content"] == say(Msg.ANOTHER_SERVER)
    assert "embeds" not in picked or not picked["embeds"]


async def test_history_takes_a_bare_source_key(discord_session: OfflineSession) -> None:
    moderator = as_moderator(discord_session)
    await discord_session.invoke(
        '/edit source source:singh-2020-cbc publisher:"CBC News (Canada)"', invoker=moderator
    )

    body = first_message(await discord_session.invoke("/history target:singh-2020-cbc", invoker=moderator))

    source = f"{kind_name(EntityKind.SOURCE)} singh-2020-cbc"
    assert body["embeds"][0]["title"] == say(Msg.HISTORY_TITLE, target=source)
    assert body["embeds"][0]["description"].startswith(
        f"**#1** {say(Msg.EDITED_SUMMARY, what=source, fields='publisher')} — <@{MODERATOR_ID}>"
    )


async def test_history_takes_a_bare_chamber_slug(discord_session: OfflineSession) -> None:
    moderator = as_moderator(discord_session)

    body = first_message(
        await discord_session.invoke("/history target:ca-house-of-commons", invoker=moderator)
    )

    chamber = f"{kind_name(EntityKind.CHAMBER)} ca-house-of-commons"
    assert body["embeds"][0]["title"] == say(Msg.HISTORY_TITLE, target=chamber)
    assert body["embeds"][0]["description"] == say(Msg.NO_CHANGES)


async def test_history_suggests_chambers_as_a_target(discord_session: OfflineSession) -> None:
    listed = choices(
        await discord_session.complete("/history target:ca-house", invoker=as_moderator(discord_session))
    )

    chamber = kind_name(EntityKind.CHAMBER)
    assert {"name": f"{chamber}: ca-house-of-commons", "value": "chamber:ca-house-of-commons"} in listed
