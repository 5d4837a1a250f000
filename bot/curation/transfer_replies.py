"""Replies for /import and /export: the dry-run plan, progress, the outcome, the export's note.

Like ``bot.render``, it knows Discord's JSON shapes but not discord.py; every reply is private.
"""

from __future__ import annotations

from bot.answers.render import EmbedBuilder, Reply, echo
from bot.curation.transfer import ImportPlan, plan_table
from bot.messages.catalogue import Msg, say
from db.dataset.schema import Dataset

BAR = 20


def _table(plan: ImportPlan) -> str:
    return f"```\n{plan_table(plan)}\n```"


def plan_reply(plan: ImportPlan, filename: str) -> Reply:
    """The dry run: counts per kind, every rejected entry with its reasons, and what happens next."""
    embed = EmbedBuilder(
        title=say(Msg.DRY_RUN, filename=echo(filename)),
        description=_table(plan),
        footer=say(Msg.IMPORT_FOOTER),
    )
    if plan.rejected:
        embed.add(
            say(Msg.REJECTED_ENTRIES),
            "\n".join(f"• {planned}: {'; '.join(planned.reasons)}" for planned in plan.rejected),
        )
        question = say(Msg.FIX_AND_RETRY)
    elif not plan.writes:
        question = say(Msg.NOTHING_TO_IMPORT)
    else:
        confirm = Msg.CONFIRM_IMPORT_ONE if len(plan.writes) == 1 else Msg.CONFIRM_IMPORT_MANY
        question = say(confirm, count=len(plan.writes))
    return Reply(content=question, embeds=(embed.build(),), ephemeral=True)


def progress_text(done: int, total: int) -> str:
    """``Importing… [#####     ] 12/40``"""
    filled = BAR * done // total if total else BAR
    return say(Msg.IMPORTING, bar="#" * filled + " " * (BAR - filled), done=done, total=total)


def done_reply(plan: ImportPlan) -> Reply:
    embed = EmbedBuilder(title=say(Msg.IMPORT_DONE), description=_table(plan), footer=say(Msg.IMPORT_FOOTER))
    return Reply(content=say(Msg.IMPORTED, summary=plan.summary), embeds=(embed.build(),), ephemeral=True)


def failed_reply(message: str) -> Reply:
    """An import that failed, in the message that showed its progress."""
    return Reply(content=say(Msg.IMPORT_FAILED, problem=message), ephemeral=True)


def export_text(dataset: Dataset) -> str:
    return say(
        Msg.EXPORT_NOTE,
        incidents=len(dataset.incidents),
        people=len(dataset.people),
        parties=len(dataset.parties),
        sources=len(dataset.sources),
        chambers=len(dataset.chambers),
    )
