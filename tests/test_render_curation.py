"""Replies for the moderators' commands stay within Discord's limits and say what happened."""

from __future__ import annotations

import datetime as dt

from bot import limits
from bot.curation import replies
from bot.curation.change_log import LoggedChange
from bot.messages.catalogue import Msg, say
from db.models import AuditAction, AuditEntry, EntityKind


def audit(number: int, summary: str = "added alias “Jag” to person jagmeet-singh") -> AuditEntry:
    return AuditEntry(
        id=number,
        guild_id=1,
        actor_id=42,
        created_at=dt.datetime(2024, 6, 1, tzinfo=dt.UTC),
        action=AuditAction.EDIT,
        kind=EntityKind.PERSON,
        key="jagmeet-singh",
        summary=summary,
    )


def test_a_done_reply_says_what_changed_and_how_to_undo_it() -> None:
    reply = replies.done_reply(audit(7))
    done = say(Msg.DONE, summary="Added alias “Jag” to person jagmeet-singh", change=7)
    assert reply.content == f"{done} {say(Msg.UNDO_HINT)}"
    assert reply.ephemeral


def test_a_refused_write_hands_back_every_long_text_within_the_message_limit() -> None:
    reply = replies.failed_reply("That change can't be saved.", {"Text": "x " * 3000, "Context": "Short."})
    assert reply.content is not None
    assert len(reply.content) <= limits.CONTENT
    assert reply.content.startswith(
        f"That change can't be saved.\n{say(Msg.NOTHING_SAVED)}\n{say(Msg.YOUR_TEXT)}"
    )
    assert "Context:\n```\nShort.\n```" in reply.content


def test_an_audit_line_mentions_the_moderator_and_the_undo() -> None:
    entry = audit(3)
    entry.undone_by_id = 4
    line = replies.audit_line(LoggedChange(entry))
    assert line.startswith("**#3** added alias “Jag” to person jagmeet-singh — <@42>, <t:")
    assert line.endswith(f" · {say(Msg.UNDONE_BY, change=4)}")


def test_history_pages_are_clamped_and_counted() -> None:
    changes = [LoggedChange(audit(n)) for n in range(25, 0, -1)]
    reply = replies.history_page_reply("person jagmeet-singh", changes, page=9)
    embed = reply.embeds[0]
    assert embed["footer"]["text"].startswith(
        f"{say(Msg.CURATION_FOOTER)} · {say(Msg.PAGE, page=3, pages=3)}"
    )
    assert embed["description"].startswith("**#5**")


def test_the_config_reply_names_the_role_without_pinging() -> None:
    assert replies.config_reply(99).content == f"{say(Msg.MODERATORS_ROLE, role=99)}\n{say(Msg.CONFIG_HINT)}"
    assert "<@&99>" in str(replies.config_reply(99).content)
    assert str(replies.config_reply(None).content).startswith(say(Msg.MODERATORS_MANAGE_SERVER))
