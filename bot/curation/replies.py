"""Replies for the moderators' commands: confirmations, prompts, history pages, audit lines.

Like ``bot.render`` (whose ``Reply``, ``EmbedBuilder`` and ``clip`` it uses), it knows Discord's JSON
shapes but not discord.py, and keeps every reply inside Discord's limits. Replies to moderators and to
members making suggestions are private (``ephemeral``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot import limits
from bot.answers.render import EmbedBuilder, Reply, echo, page_of, pages_for
from bot.curation.changes import Removed, kind_name, status_name
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from db.models import AuditAction, AuditEntry, Suggestion

HISTORY_PAGE = 10


def _sentence(summary: str) -> str:
    return summary[:1].upper() + summary[1:]


def done_reply(audit: AuditEntry) -> Reply:
    """What a moderator sees after a write: what changed, its number, and how to take it back."""
    text = say(Msg.DONE, summary=_sentence(echo_long(audit.summary)), change=audit.id)
    if audit.action is not AuditAction.UNDO:
        text += " " + say(Msg.UNDO_HINT)
    return Reply(content=clip(text, limits.CONTENT), ephemeral=True)


def suggested_reply(suggestion: Suggestion) -> Reply:
    """Thanks for a suggestion, saying that nothing changes until a moderator approves it."""
    text = say(Msg.SUGGESTED, suggestion=suggestion.id, summary=echo_long(suggestion.summary))
    return Reply(content=clip(text, limits.CONTENT), ephemeral=True)


def outcome_line(suggestion: Suggestion) -> str:
    """A decided suggestion, as its author is told it."""
    reason = f": {echo_long(suggestion.reason)}" if suggestion.reason else ""
    return say(
        Msg.OUTCOME,
        suggestion=suggestion.id,
        summary=echo_long(suggestion.summary),
        status=status_name(suggestion.status),
        reason=reason,
    )


def echo_long(text: str) -> str:
    """Entry text quoted back in a reply: defused like ``echo``, but clipped less."""
    return clip(text, limits.FIELD_VALUE).replace("@", "@\u200b")


def confirm_reply(what: str) -> Reply:
    """The question a removal asks before it removes anything."""
    text = say(Msg.REMOVAL_CONFIRM, what=echo_long(what))
    return Reply(content=clip(text, limits.CONTENT), ephemeral=True)


def failed_reply(message: str, texts: Mapping[str, str]) -> Reply:
    """A write that was refused, handing back the long texts typed so that nothing is lost."""
    parts = [message, say(Msg.NOTHING_SAVED)]
    if texts:
        parts.append(say(Msg.YOUR_TEXT))
        budget = (limits.CONTENT - len("\n".join(parts)) - 20) // len(texts)
        for label, text in texts.items():
            body = clip(text.replace("```", "'''"), max(budget - len(label) - 10, 20))
            parts.append(f"{label}:\n```\n{body}\n```")
    return Reply(content=clip("\n".join(parts), limits.CONTENT), ephemeral=True)


def audit_line(audit: AuditEntry) -> str:
    """One change in a history: number, what, who (a mention that never pings) and when."""
    undone = f" · {say(Msg.UNDONE_BY, change=audit.undone_by_id)}" if audit.undone_by_id else ""
    when = f"<t:{int(audit.created_at.timestamp())}:R>"
    return f"**#{audit.id}** {clip(audit.summary, 300)} — <@{audit.actor_id}>, {when}{undone}"


def audit_choice(audit: AuditEntry) -> str:
    """A change as an autocomplete choice for ``/undo``."""
    return clip(f"#{audit.id} {audit.summary}", limits.CHOICE_NAME)


def history_page_reply(target: str, changes: Sequence[AuditEntry], *, page: int) -> Reply:
    """One page of an entry's changes, newest first; ``page`` counts from 0 and is clamped."""
    pages = pages_for(len(changes), HISTORY_PAGE)
    page, shown = page_of(changes, page, HISTORY_PAGE)
    footer = " · ".join(
        (say(Msg.CURATION_FOOTER), say(Msg.PAGE, page=page + 1, pages=pages), say(Msg.HISTORY_HINT))
    )
    embed = EmbedBuilder(title=say(Msg.HISTORY_TITLE, target=echo(target)), footer=footer)
    embed.description = "\n".join(audit_line(audit) for audit in shown) or say(Msg.NO_CHANGES)
    return Reply(embeds=(embed.build(),), ephemeral=True)


def removed_page_reply(entries: Sequence[Removed], *, page: int) -> Reply:
    """One page of the guild's removed entries, most recent first; ``page`` counts from 0."""
    pages = pages_for(len(entries), HISTORY_PAGE)
    page, shown = page_of(entries, page, HISTORY_PAGE)
    footer = " · ".join(
        (say(Msg.CURATION_FOOTER), say(Msg.PAGE, page=page + 1, pages=pages), say(Msg.REMOVED_HINT))
    )
    embed = EmbedBuilder(title=say(Msg.REMOVED_TITLE), footer=footer)
    lines = (
        say(
            Msg.REMOVED_LINE, kind=kind_name(e.kind), key=e.key, when=f"<t:{int(e.removed_at.timestamp())}:R>"
        )
        for e in shown
    )
    embed.description = "\n".join(lines) or say(Msg.NOTHING_REMOVED)
    return Reply(embeds=(embed.build(),), ephemeral=True)


def config_reply(role_id: int | None) -> Reply:
    right = say(Msg.MODERATORS_MANAGE_SERVER) if role_id is None else say(Msg.MODERATORS_ROLE, role=role_id)
    text = f"{right}\n{say(Msg.CONFIG_HINT)}"
    return Reply(content=text, ephemeral=True)
