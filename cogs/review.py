"""/review: moderators approve or reject the guild's pending suggestions, one at a time.

Approving writes through ``Library.approve`` exactly as a moderator's own change (audited, re-indexed);
a suggestion whose entry changed since it was made is marked stale instead. The member who suggested
is told each outcome privately after the next command they run in that guild (one listener,
``on_app_command_completion``, for every command).

Every press and every reason submitted is checked again before it acts (``reviewing``): in the queue's
guild, by a member who is still one of its moderators.
"""

from __future__ import annotations

import io
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.workers import DEFERRED
from bot.curation import review_replies
from bot.curation.changes import Actor, Suggestion
from bot.errors import Conflict, ParlbotError
from bot.messages.catalogue import Msg, say
from cogs.checks import ensure_moderator, guard, moderator_only
from cogs.common import Guard, Interaction, Modal, View, deliver, in_time, message_kwargs

if TYPE_CHECKING:
    from bot.client.bot import ParlBot

REVIEW_TIMEOUT = 900.0
REJECT_MODAL_ID = "parlbot:review:reject"  # then the suggestion's number and the moderator's id


def reviewing(guild_id: int) -> Guard:
    """What every press on ``guild_id``'s queue and every reason for it asks before it acts: that it comes
    from that guild, from one of its moderators."""
    return guard(guild_id, partial(ensure_moderator, refusal=Msg.NOT_A_REVIEWER))


class ReviewQueue(View):
    """The guild's pending suggestions as loaded by /review; any of its moderators may decide them."""

    def __init__(self, guild_id: int, suggestions: list[Suggestion]) -> None:
        super().__init__(timeout=REVIEW_TIMEOUT, guard=reviewing(guild_id))
        self.guild_id = guild_id
        self.suggestions = suggestions
        self.position = 0
        self.file_text: str | None = None  # the whole current change, when it does not fit the message

    @property
    def current(self) -> Suggestion:
        return self.suggestions[self.position]

    async def page(self, interaction: Interaction, note: str = "", *, edit: bool) -> dict[str, Any]:
        """Message keyword arguments showing the current suggestion (or that none are left); ``edit``
        when they are to replace the message pressed."""
        if not self.suggestions:
            self.stop()
            return {**message_kwargs(review_replies.queue_done_reply(note)), "embeds": [], "view": None}
        self.position = min(self.position, len(self.suggestions) - 1)
        suggestion, library = self.current, interaction.client.library
        sections = await in_time(
            interaction, lambda: library.shown_suggestion(suggestion), edit=edit, ephemeral=True
        )
        shown = review_replies.review_reply(
            suggestion, sections, position=self.position, total=len(self.suggestions), note=note
        )
        self.file_text = shown.file_text
        self.previous.disabled = self.position == 0
        self.next.disabled = self.position >= len(self.suggestions) - 1
        if self.file_text is None:
            self.remove_item(self.full)
        elif self.full not in self.children:
            self.add_item(self.full)
        return {**message_kwargs(shown.reply), "view": self}

    async def decided(self, interaction: Interaction, note: str, *, drop: bool = True) -> None:
        """Show ``note`` above the next suggestion, dropping the one just decided from the queue."""
        if drop:
            del self.suggestions[self.position]
        await deliver(interaction, await self.page(interaction, note, edit=True), edit=True)

    @discord.ui.button(label=say(Msg.APPROVE), style=discord.ButtonStyle.success, row=0)
    async def approve(self, interaction: Interaction, _button: discord.ui.Button[ReviewQueue]) -> None:
        suggestion, library = self.current, interaction.client.library
        actor = Actor(self.guild_id, interaction.user.id)
        try:
            audit = await in_time(
                interaction, lambda: library.approve(actor=actor, suggestion_id=suggestion.id or 0), edit=True
            )
        except Conflict as error:
            await self.decided(interaction, say(Msg.NO_LONGER_WAITING, problem=error.message))
            return
        except ParlbotError as error:
            note = say(Msg.NOT_APPLIED, suggestion=suggestion.id, problem=error.message)
            await self.decided(interaction, note, drop=False)
            return
        note = review_replies.approved_note(suggestion, audit.id or 0, interaction.user.id)
        await self.decided(interaction, note)

    @discord.ui.button(label=say(Msg.REJECT), style=discord.ButtonStyle.danger, row=0)
    async def reject(self, interaction: Interaction, _button: discord.ui.Button[ReviewQueue]) -> None:
        await interaction.response.send_modal(RejectReason(self, interaction.user.id))

    @discord.ui.button(label=say(Msg.PREVIOUS), style=discord.ButtonStyle.secondary, row=1)
    async def previous(self, interaction: Interaction, _button: discord.ui.Button[ReviewQueue]) -> None:
        self.position -= 1
        await deliver(interaction, await self.page(interaction, edit=True), edit=True)

    @discord.ui.button(label=say(Msg.NEXT), style=discord.ButtonStyle.secondary, row=1)
    async def next(self, interaction: Interaction, _button: discord.ui.Button[ReviewQueue]) -> None:
        self.position += 1
        await deliver(interaction, await self.page(interaction, edit=True), edit=True)

    @discord.ui.button(label=say(Msg.FULL_CHANGE), style=discord.ButtonStyle.secondary, row=1)
    async def full(self, interaction: Interaction, _button: discord.ui.Button[ReviewQueue]) -> None:
        """The whole change the current suggestion makes, as a file only the moderator sees."""
        name = f"suggestion-{self.current.id}.txt"
        await interaction.response.send_message(
            file=discord.File(io.BytesIO((self.file_text or "").encode()), filename=name), ephemeral=True
        )


class RejectReason(Modal, title=say(Msg.REJECT_TITLE)):
    """The reason a moderator gives for a rejection (optional); the suggester is told it."""

    reason: discord.ui.TextInput[RejectReason] = discord.ui.TextInput(
        label=say(Msg.REJECT_REASON),
        custom_id="reason",
        style=discord.TextStyle.paragraph,
        required=False,
        max_length=review_replies.REASON_MAX,
    )

    def __init__(self, queue: ReviewQueue, owner_id: int) -> None:
        suggestion = queue.current
        super().__init__(
            owner_id,
            guard=reviewing(queue.guild_id),
            custom_id=f"{REJECT_MODAL_ID}:{suggestion.id}:{owner_id}",
            timeout=REVIEW_TIMEOUT,
        )
        self.queue = queue
        self.suggestion = suggestion

    async def on_submit(self, interaction: Interaction) -> None:  # type: ignore[override]
        library, suggestion = interaction.client.library, self.suggestion
        actor = Actor(self.queue.guild_id, interaction.user.id)
        reason = self.reason.value or None  # cleaned by the core
        await in_time(
            interaction,
            lambda: library.reject(actor=actor, suggestion_id=suggestion.id or 0, reason=reason),
            edit=True,
        )
        if suggestion in self.queue.suggestions:
            self.queue.position = self.queue.suggestions.index(suggestion)
        await self.queue.decided(
            interaction,
            say(Msg.REJECTED, suggestion=suggestion.id),
            drop=suggestion in self.queue.suggestions,
        )


async def tell_outcomes(interaction: Interaction) -> None:
    """Send the member, privately, what became of their suggestions since they were last told."""
    if interaction.guild_id is None or interaction.response.type is discord.InteractionResponseType.modal:
        return  # a modal's answer comes later; they are told after their next command instead
    library, guild_id, user_id = interaction.client.library, interaction.guild_id, interaction.user.id
    # The member is answered already: this waits behind the work of interactions still owed an answer.
    outcomes = await interaction.client.workers.start(
        lambda: library.take_outcomes(guild_id=guild_id, user_id=user_id), DEFERRED
    )
    if outcomes:
        await interaction.followup.send(
            **message_kwargs(review_replies.outcomes_reply(outcomes)), ephemeral=True
        )


class Review(commands.Cog):
    @app_commands.command(description="Approve or reject the suggestions members made in this server.")
    @app_commands.guild_only()
    @moderator_only(reading=True)
    async def review(self, interaction: Interaction) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        waiting = await in_time(
            interaction, lambda: library.pending_suggestions(guild_id=guild_id), ephemeral=True
        )
        queue = ReviewQueue(guild_id, waiting)
        kwargs = await queue.page(interaction, edit=False)
        if kwargs["view"] is None:
            del kwargs["view"]
        await deliver(interaction, kwargs, ephemeral=True)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self,
        interaction: Interaction,
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        await tell_outcomes(interaction)


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Review())
