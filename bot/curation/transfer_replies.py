"""Replies for /import and /export: the dry-run plan, progress, the outcome, the export's note.

Like ``bot.render``, it knows Discord's JSON shapes but not discord.py; every reply is private.
"""

from __future__ import annotations

from bot import limits
from bot.answers.render import EmbedBuilder, Reply, echo
from bot.curation.transfer import ImportPlan, plan_table
from bot.limits import clip
from db.dataset.schema import Dataset

FOOTER = "parlbot import"
CANCELLED = "Import cancelled: nothing was written."
EXPIRED = "This import expired, so nothing was written; run `/import` again."
BAR = 20


def _table(plan: ImportPlan) -> str:
    return f"```\n{plan_table(plan)}\n```"


def plan_reply(plan: ImportPlan, filename: str) -> Reply:
    """The dry run: counts per kind, every rejected entry with its reasons, and what happens next."""
    embed = EmbedBuilder(title=f"Import {echo(filename)}: dry run", description=_table(plan), footer=FOOTER)
    if plan.rejected:
        embed.add(
            "Rejected (so nothing can be imported)",
            "\n".join(f"• {planned}: {'; '.join(planned.reasons)}" for planned in plan.rejected),
        )
        question = "Nothing was written. Fix the rejected entries and run `/import` again."
    elif not plan.writes:
        question = "Nothing to import: this server already has every entry exactly so."
    else:
        question = (
            f"Import {len(plan.writes)} entr{'y' if len(plan.writes) == 1 else 'ies'} into this server? "
            "It is all or nothing, and each entry is recorded in `/history`. This question expires in five"
            " minutes."
        )
    return Reply(content=question, embeds=(embed.build(),), ephemeral=True)


def progress_text(done: int, total: int) -> str:
    """``Importing… [#####     ] 12/40``"""
    filled = BAR * done // total if total else BAR
    return f"Importing… `[{'#' * filled}{' ' * (BAR - filled)}]` {done}/{total}"


def done_reply(plan: ImportPlan) -> Reply:
    text = f"Imported: {plan.summary}. Each entry is recorded in `/history` as an import."
    return Reply(
        content=text,
        embeds=(EmbedBuilder(title="Import done", description=_table(plan), footer=FOOTER).build(),),
        ephemeral=True,
    )


def failed_text(message: str) -> str:
    return clip(f"Nothing was imported (all or nothing): {message}", limits.CONTENT)


def export_text(dataset: Dataset) -> str:
    counts = {
        "incidents": len(dataset.incidents),
        "people": len(dataset.people),
        "parties": len(dataset.parties),
        "sources": len(dataset.sources),
        "chambers": len(dataset.chambers),
    }
    listed = ", ".join(f"{count} {kind}" for kind, count in counts.items())
    return (
        f"This server's parlbot entries, with the shared entries they refer to ({listed}), in the dataset"
        " format. `/import` takes this file back, here or in another server."
    )
