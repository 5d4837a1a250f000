"""/export and /import: a guild's entries as a dataset file, and a dataset file into a guild.

/import shows the dry run first (``Library.plan_import``), asks the moderator who ran it to confirm,
then writes everything in one transaction (``Library.import_dataset``), editing the message as it
goes. The rules live in ``bot.transfer``; the replies in ``bot.render_transfer``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime as dt
import io
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers.render import Reply
from bot.client.tree import error_message
from bot.curation import transfer, transfer_replies
from bot.curation.transfer import ImportPlan
from bot.errors import InvalidInput
from bot.messages.catalogue import Msg, say
from cogs.checks import ensure_moderator, guard, moderator_only
from cogs.common import Interaction, OwnedView, actor_of, deliver, in_time, message_kwargs, send

if TYPE_CHECKING:
    from bot.client.bot import ParlBot

IMPORT_MAX_BYTES = 5 * 1024 * 1024
CONFIRM_TIMEOUT = 300.0
PROGRESS_INTERVAL = 1.0  # seconds between progress edits, at most one in flight


class ProgressEdits:
    """Shows an import's progress by editing the message, from the thread the import runs in."""

    def __init__(self, interaction: Interaction, loop: asyncio.AbstractEventLoop) -> None:
        self.interaction = interaction
        self.loop = loop
        self.shown_at = 0.0
        self.edit: concurrent.futures.Future[Any] | None = None

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if (self.edit is not None and not self.edit.done()) or now - self.shown_at < PROGRESS_INTERVAL:
            return
        self.shown_at = now
        content = transfer_replies.progress_text(done, total)
        self.edit = asyncio.run_coroutine_threadsafe(
            self.interaction.edit_original_response(content=content), self.loop
        )

    async def settle(self) -> None:
        """Wait for the edit in flight, so the final message is the last one written."""
        if self.edit is not None:
            await asyncio.wrap_future(self.edit)


class ConfirmImport(OwnedView):
    """Import / Cancel, for the moderator who ran /import only, in the guild it was planned for and while
    still a moderator there; expires after five minutes."""

    def __init__(self, prompt: Interaction, document: object, plan: ImportPlan) -> None:
        super().__init__(
            prompt.user.id,
            Msg.IMPORT_NOT_YOURS,
            timeout=CONFIRM_TIMEOUT,
            guard=guard(prompt.guild_id, ensure_moderator),
        )
        self.prompt = prompt
        self.document = document
        self.total = len(plan.writes)

    @discord.ui.button(label=say(Msg.IMPORT), style=discord.ButtonStyle.success)
    async def confirm(self, interaction: Interaction, _button: discord.ui.Button[ConfirmImport]) -> None:
        self.stop()
        library, actor = interaction.client.library, actor_of(interaction)
        progress = ProgressEdits(interaction, asyncio.get_running_loop())
        await interaction.response.edit_message(
            content=transfer_replies.progress_text(0, self.total), embeds=[], view=None
        )
        try:
            plan = await in_time(
                interaction, lambda: library.import_dataset(self.document, actor=actor, progress=progress)
            )
        except Exception as error:  # every failure is reported in the message it concerns
            await progress.settle()
            failed = transfer_replies.failed_reply(error_message(interaction, error))
            await interaction.edit_original_response(**message_kwargs(failed))
            return
        await progress.settle()
        await interaction.edit_original_response(**message_kwargs(transfer_replies.done_reply(plan)))

    @discord.ui.button(label=say(Msg.CANCEL), style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: Interaction, _button: discord.ui.Button[ConfirmImport]) -> None:
        self.stop()
        await send(interaction, Reply(content=say(Msg.IMPORT_CANCELLED)), edit=True)

    async def on_timeout(self) -> None:
        await self.prompt.edit_original_response(content=say(Msg.IMPORT_EXPIRED), embeds=[], view=None)


class Transfer(commands.Cog):
    @app_commands.command(name="export", description="Download this server's parlbot entries as a file.")
    @app_commands.guild_only()
    @moderator_only(reading=True)
    async def export(self, interaction: Interaction) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id or 0

        def exported() -> tuple[str, bytes]:
            dataset = library.export(guild_id=guild_id)
            return transfer_replies.export_text(dataset), transfer.export_file(dataset)

        text, content = await in_time(interaction, exported, ephemeral=True)
        if len(content) > interaction.filesize_limit:
            raise InvalidInput(Msg.EXPORT_TOO_BIG, guild=guild_id)
        name = transfer.export_name(guild_id, dt.datetime.now(dt.UTC).date())
        message = message_kwargs(Reply(content=text))
        message["file"] = discord.File(io.BytesIO(content), filename=name)
        await deliver(interaction, message, ephemeral=True)

    @app_commands.command(name="import", description="Load a parlbot dataset file into this server.")
    @app_commands.describe(file="A dataset file, as /export or parlbot db export writes it")
    @app_commands.guild_only()
    @moderator_only()
    async def import_(self, interaction: Interaction, file: discord.Attachment) -> None:
        if file.size > IMPORT_MAX_BYTES:
            raise InvalidInput(
                Msg.FILE_TOO_BIG,
                filename=file.filename,
                megabytes=file.size / 1024 / 1024,
                limit=IMPORT_MAX_BYTES // 1024 // 1024,
                guild=interaction.guild_id,
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        data = await file.read()

        def planned() -> tuple[object, ImportPlan]:
            document = transfer.decode(data, file.filename)
            return document, library.plan_import(document, guild_id=guild_id)

        document, plan = await in_time(interaction, planned, ephemeral=True)
        kwargs = message_kwargs(transfer_replies.plan_reply(plan, file.filename))
        if plan.writes and not plan.rejected:
            kwargs["view"] = ConfirmImport(interaction, document, plan)
        await interaction.followup.send(**kwargs, ephemeral=True)


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Transfer())
