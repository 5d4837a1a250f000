"""One log line per interaction: what was used, where, by whom, how it ended and how long it took.

    interaction command=/incident kind=command guild=1 user=2 locale=fr outcome=ok ms=12

``command`` is the slash command's qualified name (for autocomplete too), or a component's or
modal's custom_id; ``locale`` is the asker's Discord locale (``bot.client.locale`` picks the reply's
language from it); option values and tokens are never logged. ``outcome`` is ``ok``, ``refused``
(a check said no), ``failed`` (a domain error the member was told about), ``unanswered`` (the
handler ended without answering), ``cancelled``, or the class name of an unexpected error (whose
traceback the error path logs). The same fields ride on the record as ``extra`` attributes, for
handlers that write structured logs.

``watch(interaction)``, called from inside the task that handles an interaction, starts its clock
and writes its line when that task ends (and has the bot count the task as in flight until then:
``ParlBot.handling``); ``note_failure(interaction, cause)`` and ``note_refusal``
say how it ended otherwise. ``ParlTree.interaction_check`` watches every slash command and
autocomplete; the views, modals and reply buttons of ``cogs.common`` watch button presses and modal
submits (discord.py handles those in tasks only they reach); ``bot.client.tree.error_message`` notes
every failure and ``refuse`` every refusal.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands

from bot.errors import Forbidden, ParlbotError

if TYPE_CHECKING:
    from bot.client.bot import ParlBot

log = logging.getLogger(__name__)

# Keys of ``Interaction.extras`` (which discord.py leaves to the bot) this module keeps its state in.
_STARTED: Final = "parlbot.interaction_log.started"
_OUTCOME: Final = "parlbot.interaction_log.outcome"

KINDS: Final = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
}


def watch(interaction: discord.Interaction[ParlBot]) -> None:
    """Start timing ``interaction`` (once) and log its line when the current task ends; until then the
    bot counts the task as in flight."""
    if _STARTED in interaction.extras:
        return
    task = asyncio.current_task()
    if task is None:
        return  # not handled in a task: nothing marks its end
    interaction.extras[_STARTED] = time.perf_counter()
    interaction.client.handling(task)
    task.add_done_callback(lambda done: _write(interaction, cancelled=done.cancelled()))


def note_failure(interaction: discord.Interaction[ParlBot], cause: BaseException) -> None:
    """Record how ``interaction`` failed; the first failure noted is the one logged."""
    interaction.extras.setdefault(_OUTCOME, outcome_of(cause))


def note_refusal(interaction: discord.Interaction[ParlBot]) -> None:
    """Record that a check refused the member (a view only its owner may use, say)."""
    interaction.extras.setdefault(_OUTCOME, "refused")


def outcome_of(cause: BaseException) -> str:
    """``refused`` for a check or a permission, ``failed`` for a domain error, else the error's class."""
    if isinstance(cause, app_commands.CheckFailure | Forbidden):
        return "refused"
    if isinstance(cause, ParlbotError | app_commands.TransformerError):
        return "failed"
    return type(cause).__name__


def subject(interaction: discord.Interaction[ParlBot]) -> str:
    """``/incident`` or ``/config moderator-role``; a component's or modal's custom_id."""
    data: Mapping[str, object] = interaction.data or {}
    if interaction.type in (
        discord.InteractionType.application_command,
        discord.InteractionType.autocomplete,
    ):
        command = interaction.command
        return f"/{command.qualified_name if command is not None else data.get('name', '?')}"
    return str(data.get("custom_id", "?"))


def fields(
    interaction: discord.Interaction[ParlBot], *, cancelled: bool = False
) -> dict[str, str | int | None]:
    """What the line says about ``interaction``, which has ended."""
    started = interaction.extras.get(_STARTED, time.perf_counter())
    return {
        "command": subject(interaction),
        "kind": KINDS.get(interaction.type, interaction.type.name),
        "guild": interaction.guild_id,
        "user": interaction.user.id,
        "locale": interaction.locale.value,
        "outcome": _outcome(interaction, cancelled=cancelled),
        "ms": round((time.perf_counter() - started) * 1000),
    }


def _outcome(interaction: discord.Interaction[ParlBot], *, cancelled: bool) -> str:
    noted = interaction.extras.get(_OUTCOME)
    if isinstance(noted, str):
        return noted
    if cancelled:
        return "cancelled"
    if interaction.command_failed:
        return "refused"  # the tree's interaction_check said no
    return "ok" if interaction.response.is_done() else "unanswered"


def _write(interaction: discord.Interaction[ParlBot], *, cancelled: bool) -> None:
    try:
        line = fields(interaction, cancelled=cancelled)
    except Exception:  # a log line must never break the bot
        log.exception("Could not describe interaction %s", interaction.id)
        return
    log.info("interaction %s", " ".join(f"{key}={_shown(value)}" for key, value in line.items()), extra=line)


def _shown(value: str | int | None) -> str:
    """A value as ``key=value`` shows it: ``-`` for none, quoted when it holds spaces or quotes."""
    if value is None:
        return "-"
    text = str(value)
    return json.dumps(text, ensure_ascii=False) if not text or any(c in text for c in ' "=\n') else text
