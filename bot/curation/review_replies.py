"""Replies for the review queue (``/review``) and for telling members what became of their suggestions.

Like ``bot.render``, it knows Discord's JSON shapes but not discord.py, and keeps every reply inside
Discord's limits. A suggestion is shown as what it would change in the entry the guild sees now, in the
change view ``/history`` uses too (``bot.curation.change_view``): every field before and after, the
full text of a new quote or ruling, and when that does not fit in one message, a file with all of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.answers.render import EmbedBuilder, Reply
from bot.curation.change_view import Section
from bot.curation.changes import kind_name
from bot.curation.replies import (
    FullReply,
    add_change,
    change_text,
    credit,
    echo_long,
    outcome_line,
    sentence,
)
from bot.defuse import user_mention
from bot.messages.catalogue import Msg, say
from db.models import LABEL_MAX, AuditAction, Suggestion

REASON_MAX = LABEL_MAX  # a rejection's reason, as the suggester is told it


def review_reply(
    suggestion: Suggestion,
    sections: Sequence[Section],
    *,
    position: int,
    total: int,
    note: str = "",
) -> FullReply:
    """One pending suggestion: who proposed what, when, and what approving it would change.

    ``sections`` is what it changes in the entry the guild sees now; ``note`` says what became of the
    previous one. When the change does not fit, the reply says so and ``file_text`` holds all of it.
    """
    title = Msg.REVIEW_ADD_TITLE if suggestion.action is AuditAction.ADD else Msg.REVIEW_CHANGE_TITLE
    waiting = say(Msg.REVIEW_POSITION, position=position + 1, total=total)
    embed = EmbedBuilder(
        title=say(title, suggestion=suggestion.id, kind=kind_name(suggestion.kind), key=suggestion.key),
        description=echo_long(suggestion.summary),
        footer=f"{say(Msg.REVIEW_FOOTER)} · {waiting}",
    )
    created = int(suggestion.created_at.timestamp())
    embed.add(say(Msg.SUGGESTED_BY), f"{user_mention(suggestion.author_id)} <t:{created}:R>", inline=True)
    if not sections:
        embed.add(say(Msg.WHAT_WOULD_CHANGE), say(Msg.NOTHING_ANY_MORE))
    complete = add_change(embed, sections, rest=Msg.CHANGE_BEHIND_BUTTON)
    reply = Reply(content=note or None, embeds=(embed.build(),), ephemeral=True)
    return FullReply(reply, None if complete else change_text([embed.title, suggestion.summary], sections))


def approved_note(suggestion: Suggestion, change: int, moderator_id: int) -> str:
    """What the moderator reads after approving: the change made, and whom it credits."""
    credited = sentence(credit(moderator_id, suggestion.author_id))
    return f"{say(Msg.APPROVED, suggestion=suggestion.id, change=change)} {credited}."


def queue_done_reply(note: str = "") -> Reply:
    return Reply(content=f"{note}\n{say(Msg.REVIEW_EMPTY)}".strip(), ephemeral=True)


def outcomes_reply(outcomes: Sequence[Suggestion]) -> Reply:
    """What became of the member's suggestions since they last asked (sent to them privately)."""
    return Reply(content="\n".join(outcome_line(s) for s in outcomes), ephemeral=True)
