"""Replies for the moderators' commands: confirmations, prompts, history pages, audit lines.

Like ``bot.render`` (whose ``Reply``, ``EmbedBuilder`` and ``clip`` it uses), it knows Discord's JSON
shapes but not discord.py, and keeps every reply inside Discord's limits. Replies to moderators and to
members making suggestions are private (``ephemeral``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot import limits
from bot.answers.render import EmbedBuilder, Reply, echo, page_of, pages_for
from bot.limits import clip
from db.models import AuditAction, AuditEntry, Suggestion

HISTORY_PAGE = 10
EXPIRED = "This confirmation expired, so nothing was removed."
CANCELLED = "Cancelled: nothing was removed."
FOOTER = "parlbot curation"


def _sentence(summary: str) -> str:
    return summary[:1].upper() + summary[1:]


def done_reply(audit: AuditEntry) -> Reply:
    """What a moderator sees after a write: what changed, its number, and how to take it back."""
    hint = "" if audit.action is AuditAction.UNDO else " `/undo` reverts it."
    text = f"{_sentence(echo_long(audit.summary))} (change #{audit.id}).{hint}"
    return Reply(content=clip(text, limits.CONTENT), ephemeral=True)


def suggested_reply(suggestion: Suggestion) -> Reply:
    """Thanks for a suggestion, saying that nothing changes until a moderator approves it."""
    text = (
        f"Thank you! Suggestion #{suggestion.id} ({echo_long(suggestion.summary)}) is waiting for a"
        " moderator's review; nothing changes until one approves it."
    )
    return Reply(content=clip(text, limits.CONTENT), ephemeral=True)


def outcome_line(suggestion: Suggestion) -> str:
    """A decided suggestion, as its author is told it."""
    reason = f": {echo_long(suggestion.reason)}" if suggestion.reason else ""
    status = suggestion.status
    return f"Your suggestion #{suggestion.id} ({echo_long(suggestion.summary)}) was {status}{reason}."


def echo_long(text: str) -> str:
    """Entry text quoted back in a reply: defused like ``echo``, but clipped less."""
    return clip(text, limits.FIELD_VALUE).replace("@", "@\u200b")


def confirm_reply(what: str) -> Reply:
    """The question a removal asks before it removes anything."""
    text = (
        f"Remove {echo_long(what)}?\nIt disappears from every answer in this server; `/undo` or"
        " `/history` can bring it back. This question expires in a minute."
    )
    return Reply(content=clip(text, limits.CONTENT), ephemeral=True)


def failed_reply(message: str, texts: Mapping[str, str]) -> Reply:
    """A write that was refused, handing back the long texts typed so that nothing is lost."""
    parts = [message, "Nothing was saved."]
    if texts:
        parts.append("Your text, so that you can copy it:")
        budget = (limits.CONTENT - len("\n".join(parts)) - 20) // len(texts)
        for label, text in texts.items():
            body = clip(text.replace("```", "'''"), max(budget - len(label) - 10, 20))
            parts.append(f"{label}:\n```\n{body}\n```")
    return Reply(content=clip("\n".join(parts), limits.CONTENT), ephemeral=True)


def audit_line(audit: AuditEntry) -> str:
    """One change in a history: number, what, who (a mention that never pings) and when."""
    undone = f" · undone by #{audit.undone_by_id}" if audit.undone_by_id else ""
    when = f"<t:{int(audit.created_at.timestamp())}:R>"
    return f"**#{audit.id}** {clip(audit.summary, 300)} — <@{audit.actor_id}>, {when}{undone}"


def audit_choice(audit: AuditEntry) -> str:
    """A change as an autocomplete choice for ``/undo``."""
    return clip(f"#{audit.id} {audit.summary}", limits.CHOICE_NAME)


def history_page_reply(target: str, changes: Sequence[AuditEntry], *, page: int) -> Reply:
    """One page of an entry's changes, newest first; ``page`` counts from 0 and is clamped."""
    pages = pages_for(len(changes), HISTORY_PAGE)
    page, shown = page_of(changes, page, HISTORY_PAGE)
    embed = EmbedBuilder(
        title=f"History: {echo(target)}", footer=f"{FOOTER} · page {page + 1}/{pages} · /undo entry:N"
    )
    embed.description = "\n".join(audit_line(audit) for audit in shown) or "No changes recorded."
    return Reply(embeds=(embed.build(),), ephemeral=True)


def config_reply(role_id: int | None) -> Reply:
    if role_id is None:
        right = "Members with **Manage Server** are parlbot's moderators (no moderator role is set)."
    else:
        right = f"Members with the <@&{role_id}> role are parlbot's moderators."
    text = (
        f"{right}\nMembers with Manage Server can always change this with `/config moderator-role`;"
        " everyone else can `/suggest` entries and `/suggest-edit` corrections."
    )
    return Reply(content=text, ephemeral=True)
