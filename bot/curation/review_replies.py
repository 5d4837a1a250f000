"""Replies for the review queue (``/review``) and for telling members what became of their suggestions.

Like ``bot.render``, it knows Discord's JSON shapes but not discord.py, and keeps every reply inside
Discord's limits. A suggestion is shown as what it would change in the entry the guild sees now:
field by field for texts, as counts for lists (``quotes: 3 → 4``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot import limits
from bot.answers.render import EmbedBuilder, Reply
from bot.curation.changes import kind_name
from bot.curation.replies import echo_long, outcome_line
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from db.dataset.schema import Entry
from db.models import LABEL_MAX, AuditAction, Suggestion

SHOWN = 120  # characters of one field value in a change line


REASON_MAX = LABEL_MAX  # a rejection's reason, as the suggester is told it


def _shown(value: object) -> str:
    if isinstance(value, list):
        return say(Msg.ITEM if len(value) == 1 else Msg.ITEMS, count=len(value))
    return f"“{echo_long(clip(str(value), SHOWN))}”"


def changes(before: Mapping[str, object] | None, after: Mapping[str, object]) -> list[str]:
    """Field by field, what ``after`` changes in ``before`` (dataset JSON of one entry)."""
    before = before or {}
    lines = []
    for name in [*after, *(name for name in before if name not in after)]:
        old, new = before.get(name), after.get(name)
        if old == new:
            continue
        if old is None:
            lines.append(f"**{name}**: {_shown(new)}")
        elif new is None:
            lines.append(f"**{name}**: {_shown(old)} → {say(Msg.CLEARED)}")
        elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
            lines.append(f"**{name}**: {say(Msg.SOME_CHANGED, count=len(new))}")
        else:
            lines.append(f"**{name}**: {_shown(old)} → {_shown(new)}")
    return lines


def review_reply(
    suggestion: Suggestion, current: Entry | None, *, position: int, total: int, note: str = ""
) -> Reply:
    """One pending suggestion: who proposed what, when, and what approving it would change.

    ``current`` is the entry the guild sees now, None when it sees none; ``note`` says what became of
    the previous one.
    """
    proposal = (suggestion.proposal or {}).get("entry") or {}
    title = Msg.REVIEW_ADD_TITLE if suggestion.action is AuditAction.ADD else Msg.REVIEW_CHANGE_TITLE
    waiting = say(Msg.REVIEW_POSITION, position=position + 1, total=total)
    embed = EmbedBuilder(
        title=say(title, suggestion=suggestion.id, kind=kind_name(suggestion.kind), key=suggestion.key),
        description=echo_long(suggestion.summary),
        footer=f"{say(Msg.REVIEW_FOOTER)} · {waiting}",
    )
    created = int(suggestion.created_at.timestamp())
    embed.add(say(Msg.SUGGESTED_BY), f"<@{suggestion.author_id}> <t:{created}:R>", inline=True)
    before = None if current is None else current.model_dump(mode="json", exclude_none=True)
    embed.add(say(Msg.WHAT_WOULD_CHANGE), _lines(changes(before, proposal)) or say(Msg.NOTHING_ANY_MORE))
    return Reply(content=clip(note, limits.CONTENT) or None, embeds=(embed.build(),), ephemeral=True)


def _lines(lines: Sequence[str]) -> str:
    text = ""
    for index, line in enumerate(lines):
        more = "\n" + say(Msg.AND_MORE, count=len(lines) - index)
        if len(text) + len(line) + 1 + len(more) > limits.FIELD_VALUE:
            return text + more
        text += ("\n" if text else "") + line
    return text


def queue_done_reply(note: str = "") -> Reply:
    return Reply(content=clip(f"{note}\n{say(Msg.REVIEW_EMPTY)}".strip(), limits.CONTENT), ephemeral=True)


def outcomes_reply(outcomes: Sequence[Suggestion]) -> Reply:
    """What became of the member's suggestions since they last asked (sent to them privately)."""
    return Reply(content=clip("\n".join(outcome_line(s) for s in outcomes), limits.CONTENT), ephemeral=True)
