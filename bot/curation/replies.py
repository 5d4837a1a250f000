"""Replies for the moderators' commands: confirmations, prompts, history pages, audit lines.

Like ``bot.render`` (whose ``Reply``, ``EmbedBuilder`` and ``clip`` it uses), it knows Discord's JSON
shapes but not discord.py, and keeps every reply inside Discord's limits. Replies to moderators and to
members making suggestions are private (``ephemeral``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot import limits
from bot.answers.render import EmbedBuilder, Reply, echo, page_of, pages_for
from bot.curation import change_view
from bot.curation.change_log import LoggedChange, ShownChange
from bot.curation.change_view import Section
from bot.curation.changes import Removed, kind_name, status_name
from bot.defuse import role_mention, user_mention
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from db.models import AuditAction, AuditEntry, Suggestion

HISTORY_PAGE = 10
NOTE_ROOM = 400  # characters kept free in an embed for the field saying what did not fit


def sentence(summary: str) -> str:
    """``summary`` as the start of a sentence (its first letter capitalized)."""
    return summary[:1].upper() + summary[1:]


def done_reply(audit: AuditEntry) -> Reply:
    """What a moderator sees after a write: what changed, its number, and how to take it back."""
    text = say(Msg.DONE, summary=sentence(echo_long(audit.summary)), change=audit.id)
    if audit.action is not AuditAction.UNDO:
        text += " " + say(Msg.UNDO_HINT)
    return Reply(content=text, ephemeral=True)


def suggested_reply(suggestion: Suggestion) -> Reply:
    """Thanks for a suggestion, saying that nothing changes until a moderator approves it."""
    text = say(Msg.SUGGESTED, suggestion=suggestion.id, summary=echo_long(suggestion.summary))
    return Reply(content=text, ephemeral=True)


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
    """Entry text quoted back in a reply: clipped like ``echo``, but less."""
    return clip(text, limits.FIELD_VALUE)


def confirm_reply(what: str) -> Reply:
    """The question a removal asks before it removes anything."""
    text = say(Msg.REMOVAL_CONFIRM, what=echo_long(what))
    return Reply(content=text, ephemeral=True)


def failed_reply(message: str, texts: Mapping[str, str]) -> Reply:
    """A write that was refused, handing back the long texts typed so that nothing is lost."""
    parts = [message, say(Msg.NOTHING_SAVED)]
    if texts:
        parts.append(say(Msg.YOUR_TEXT))
        budget = (limits.CONTENT - len("\n".join(parts)) - 20) // len(texts)
        for label, text in texts.items():
            body = clip(text.replace("```", "'''"), max(budget - len(label) - 10, 20))
            parts.append(f"{label}:\n```\n{body}\n```")
    return Reply(content="\n".join(parts), ephemeral=True)


def credit(actor_id: int, suggested_by: int | None = None) -> str:
    """Who made a change: the moderator, or the member who suggested it and the moderator who approved."""
    if suggested_by is None:
        return user_mention(actor_id)
    return say(Msg.CREDIT_SUGGESTED, author=user_mention(suggested_by), moderator=user_mention(actor_id))


def audit_line(change: LoggedChange) -> str:
    """One change in a history: number, what, who (mentions that never ping) and when."""
    audit = change.audit
    undone = f" · {say(Msg.UNDONE_BY, change=audit.undone_by_id)}" if audit.undone_by_id else ""
    when = f"<t:{int(audit.created_at.timestamp())}:R>"
    who = credit(audit.actor_id, change.suggested_by)
    return f"**#{audit.id}** {clip(echo_long(audit.summary), 300)} — {who}, {when}{undone}"


def audit_choice(audit: AuditEntry) -> str:
    """A change as a choice (``/undo``'s autocomplete, ``/history``'s menu), before it is clipped."""
    return f"#{audit.id} {audit.summary}"


def history_page_reply(target: str, changes: Sequence[LoggedChange], *, page: int) -> Reply:
    """One page of an entry's changes, newest first; ``page`` counts from 0 and is clamped."""
    pages = pages_for(len(changes), HISTORY_PAGE)
    page, shown = page_of(changes, page, HISTORY_PAGE)
    footer = " · ".join(
        (say(Msg.CURATION_FOOTER), say(Msg.PAGE, page=page + 1, pages=pages), say(Msg.HISTORY_HINT))
    )
    embed = EmbedBuilder(title=say(Msg.HISTORY_TITLE, target=echo(target)), footer=footer)
    embed.description = "\n".join(audit_line(change) for change in shown) or say(Msg.NO_CHANGES)
    return Reply(embeds=(embed.build(),), ephemeral=True)


def _size(embed: EmbedBuilder) -> int:
    """The characters ``embed`` counts towards Discord's total so far."""
    fields = sum(len(name) + len(value) for name, value, _inline in embed.fields)
    return len(clip(embed.title, limits.EMBED_TITLE)) + len(embed.description) + len(embed.footer) + fields


def add_change(embed: EmbedBuilder, sections: Sequence[Section], *, rest: Msg) -> bool:
    """Add a change to ``embed``, a field per section (a long one split over several), in order while they
    fit; then, if some did not, a field saying how many and what ``rest`` offers. Whether all fit."""
    if change_view.marked(sections):
        embed.description = f"{embed.description}\n{say(Msg.CHANGE_LEGEND)}".strip()
    fields = [
        (section.title if n == 0 else say(Msg.CHANGE_CONTINUED, title=section.title), piece)
        for section in sections
        for n, piece in enumerate(change_view.chunks(section.lines, limits.FIELD_VALUE))
    ]
    room = limits.EMBED_TOTAL - _size(embed) - NOTE_ROOM
    free = limits.EMBED_FIELDS - len(embed.fields) - 1
    shown = 0
    for name, value in fields:
        name = clip(name, limits.FIELD_NAME)
        if shown == free or len(name) + len(value) > room:
            break
        embed.add(name, value)
        room -= len(name) + len(value)
        shown += 1
    left = len(fields) - shown
    if left:
        items = say(Msg.ITEM if left == 1 else Msg.ITEMS, count=left)
        embed.add(say(Msg.CHANGE_NOT_SHOWN), say(rest, items=items))
    return not left


def change_text(heading: Sequence[str], sections: Sequence[Section]) -> str:
    """A change as a plain-text file: ``heading`` lines, then each section with its lines in full."""
    blocks = ["\n".join(heading)]
    for section in sections:
        lines = "\n".join(change_view.plain(line) for line in section.lines)
        blocks.append(f"== {section.title} ==\n{lines}")
    legend = "[-removed-] {+added+}" if change_view.marked(sections) else ""
    return "\n\n".join(block for block in (*blocks, legend) if block) + "\n"


@dataclass(frozen=True, slots=True)
class FullReply:
    """A reply and, when the change did not fit in it, the whole change as a file's text."""

    reply: Reply
    file_text: str | None


def change_reply(shown: ShownChange) -> FullReply:
    """One change of a history, opened: who and when, then each field before and after."""
    audit = shown.logged.audit
    embed = EmbedBuilder(
        title=say(Msg.CHANGE_TITLE, change=audit.id, summary=sentence(echo_long(audit.summary))),
        footer=f"{say(Msg.CURATION_FOOTER)} · {say(Msg.HISTORY_HINT)}",
    )
    embed.add(say(Msg.CHANGE_BY), credit(audit.actor_id, shown.logged.suggested_by), inline=True)
    when = f"<t:{int(audit.created_at.timestamp())}:R>"
    undone = f" · {say(Msg.UNDONE_BY, change=audit.undone_by_id)}" if audit.undone_by_id else ""
    embed.add(say(Msg.CHANGE_WHEN), when + undone, inline=True)
    if not shown.sections:
        embed.add(say(Msg.CHANGE_NOTHING), "—")
    complete = add_change(embed, shown.sections, rest=Msg.CHANGE_IN_FILE)
    file_text = None if complete else change_text([embed.title], shown.sections)
    return FullReply(Reply(embeds=(embed.build(),), ephemeral=True), file_text)


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


def moderators_line(role_id: int | None) -> str:
    """Who moderates: the role's members (mentioned, never pinged), or Manage Server."""
    if role_id is None:
        return say(Msg.MODERATORS_MANAGE_SERVER)
    return say(Msg.MODERATORS_ROLE, role=role_mention(role_id))


def config_reply(role_id: int | None) -> Reply:
    text = f"{moderators_line(role_id)}\n{say(Msg.CONFIG_HINT)}"
    return Reply(content=text, ephemeral=True)
