"""What every cog shares: the query option, sending a core ``Reply``, and the buttons replies carry."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot import limits
from bot.answers.render import Action, Button, Reply
from bot.client.bot import ParlBot
from bot.client.deadline import patience
from bot.client.gate import modal_refusal, named_fields
from bot.client.interaction_log import watch
from bot.client.locale import speak_to
from bot.client.tree import answer_failure, error_message, refuse
from bot.client.workers import DEFERRED
from bot.curation.changes import Actor
from bot.curation.replies import failed_reply
from bot.defuse import one_line
from bot.errors import InvalidInput, ParlbotError
from bot.inputs import line
from bot.messages.catalogue import Msg, say

Interaction = discord.Interaction[ParlBot]
Guard = Callable[[Interaction], Awaitable[None]]
"""What a view or modal checks again the moment it is used (``cogs.checks.guard``); raises to refuse."""

_Value = TypeVar("_Value", str, int)
_Result = TypeVar("_Result")

QUERY_MAX = limits.CHOICE_VALUE  # a choice's value is what a query option receives
# How long discord.py keeps a sent view in memory; clicks after that still reach ``ActionButton``
# through the bot's dynamic items, so the buttons keep working without the store growing forever.
VIEW_MEMORY = 300.0
PAGES_TIMEOUT = 600.0


def actor_of(interaction: Interaction) -> Actor:
    """Who makes a change, and in which guild; outside a guild, a polite refusal."""
    if interaction.guild_id is None:
        raise InvalidInput(Msg.IN_A_SERVER)
    return Actor(interaction.guild_id, interaction.user.id)


def choices(pairs: Iterable[tuple[str, _Value]]) -> list[app_commands.Choice[_Value]]:
    """Autocomplete's answer from (name, value) pairs, best first: every name defused on one line and
    clipped (``bot.defuse.one_line``), at most 25, leaving out a text value too long to send."""
    fitting = (
        app_commands.Choice(name=one_line(name, limits.CHOICE_NAME), value=value)
        for name, value in pairs
        if not isinstance(value, str) or len(value) <= limits.CHOICE_VALUE
    )
    return list(itertools.islice(fitting, limits.CHOICES))


class Query(app_commands.Transformer[ParlBot]):
    """A free-text ``query`` option with autocomplete from the in-memory index of one topic."""

    def __init__(self, topic: str) -> None:
        self.topic = topic

    @property
    def max_value(self) -> int:
        return QUERY_MAX

    async def transform(self, interaction: Interaction, value: Any) -> str:
        text = line(str(value))
        if not text:
            raise InvalidInput(Msg.EMPTY_QUERY)
        return text

    async def autocomplete(  # type: ignore[override]  # narrower choice type than the base's union
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        return choices(interaction.client.library.complete(self.topic, value, guild_id=interaction.guild_id))


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"parlbot:(?P<mode>[en]):(?P<action>[a-z]+):(?P<argument>.+)",
):
    """A button that asks the core for an action; it survives restarts because its state is its id.

    ``e`` buttons (did-you-mean) replace the message they are on; ``n`` buttons answer privately.
    """

    def __init__(self, button: Button) -> None:
        self.spec = button
        super().__init__(
            discord.ui.Button(
                label=button.label,
                style=discord.ButtonStyle.primary if button.replace else discord.ButtonStyle.secondary,
                custom_id=self.custom_id_for(button.action, button.argument, replace=button.replace),
            )
        )

    @staticmethod
    def custom_id_for(action: str, argument: str, *, replace: bool) -> str:
        return f"parlbot:{'e' if replace else 'n'}:{action}:{argument}"

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # discord.py types this for any client
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(Button("", match["action"], match["argument"], replace=match["mode"] == "e"))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        watch(interaction)
        await speak_to(interaction)
        library, spec = interaction.client.library, self.spec
        try:
            action = Action.named(spec.action)  # an old message's button may name one no longer known
            await respond(
                interaction,
                lambda: library.act(action, spec.argument, guild_id=interaction.guild_id),
                edit=spec.replace,
                ephemeral=not spec.replace,
            )
        except Exception as error:  # a dynamic item's view is discord.py's own, which only logs errors
            await answer_failure(interaction, error)


def view_for(reply: Reply) -> discord.ui.View | None:
    buttons = [
        b
        for b in reply.buttons
        if len(ActionButton.custom_id_for(b.action, b.argument, replace=b.replace)) <= limits.CUSTOM_ID
    ]
    if not buttons:
        return None
    view = discord.ui.View(timeout=VIEW_MEMORY)
    for button in buttons[: limits.ACTION_ROWS * limits.BUTTONS_PER_ROW]:
        view.add_item(ActionButton(button))
    return view


def message_kwargs(reply: Reply) -> dict[str, Any]:
    """``reply`` as keyword arguments for discord.py's send and edit methods; nobody is ever pinged."""
    kwargs: dict[str, Any] = {
        "content": reply.content,
        "embeds": [discord.Embed.from_dict(embed) for embed in reply.embeds],
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    view = view_for(reply)
    if view is not None:
        kwargs["view"] = view
    return kwargs


class View(discord.ui.View):
    """A view whose presses are logged and whose failures are answered like a command's: politely and
    privately (``answer_failure``). ``guard``, when given, is checked at every press before the item acts,
    once the view ``admits`` the member (a subclass that narrows who may press says so there)."""

    def __init__(self, *, timeout: float | None, guard: Guard | None = None) -> None:
        super().__init__(timeout=timeout)
        self.guard = guard

    async def interaction_check(self, interaction: Interaction) -> bool:  # type: ignore[override]
        watch(interaction)
        await speak_to(interaction)
        if not await self.admits(interaction):
            return False
        if self.guard is not None:
            await self.guard(interaction)
        return True

    async def admits(self, interaction: Interaction) -> bool:
        """Whether the member may use this view at all (refused privately if not): anyone, here."""
        return True

    async def on_error(  # type: ignore[override]
        self, interaction: Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        await answer_failure(interaction, error)


async def owned(interaction: Interaction, owner_id: int, refusal: Msg) -> bool:
    """Whether ``owner_id`` is the member using it; anyone else is refused privately, worded in the language
    of whoever it is (``speak_to`` set it)."""
    if interaction.user.id == owner_id:
        return True
    await refuse(interaction, say(refusal))
    return False


class Modal(discord.ui.Modal):
    """A modal for the member it was shown to (``owner_id``): its submits are logged, refused to anyone
    else, its texts refused where Discord would have refused them (``bot.client.gate``), checked again
    with ``guard`` before the form acts, and their failures answered like a command's. A refusal hands
    back what was typed (``typed``), so nothing is lost; after that, what was typed is the subclass's to
    keep."""

    def __init__(self, owner_id: int, *, guard: Guard, **options: Any) -> None:
        super().__init__(**options)
        self.owner_id = owner_id
        self.guard = guard

    async def interaction_check(self, interaction: Interaction) -> bool:  # type: ignore[override]
        watch(interaction)
        await speak_to(interaction)
        if not await owned(interaction, self.owner_id, Msg.FORM_NOT_YOURS):
            return False
        refused: ParlbotError | None = modal_refusal(self)
        if refused is None:
            try:
                await self.guard(interaction)
            except ParlbotError as error:
                refused = error
        if refused is not None:
            await send(interaction, failed_reply(error_message(interaction, refused), self.typed()))
            return False
        return True

    def typed(self) -> dict[str, str]:
        """The texts the member typed, by field, empty ones left out."""
        return {name: item.value for name, item in named_fields(self) if item.value}

    async def on_error(self, interaction: Interaction, error: Exception) -> None:  # type: ignore[override]
        await answer_failure(interaction, error)


class OwnedView(View):
    """A view only the member who asked for it may use; anyone else gets a polite private refusal,
    worded when refused, so in the language of whoever pressed (``View.interaction_check`` sets it)."""

    def __init__(
        self, owner_id: int, refusal: Msg, *, timeout: float | None, guard: Guard | None = None
    ) -> None:
        super().__init__(timeout=timeout, guard=guard)
        self.owner_id = owner_id
        self.refusal = refusal

    async def admits(self, interaction: Interaction) -> bool:
        return await owned(interaction, self.owner_id, self.refusal)


class Pages(OwnedView):
    """Previous/next buttons over the pages ``render(page)`` builds (with their own buttons, if any, in
    the rows above: ``NAV_ROW`` is the row below a page's two rows of buttons)."""

    NAV_ROW = 2

    def __init__(
        self,
        owner_id: int,
        refusal: Msg,
        pages: int,
        render: Callable[[int], Reply],
        *,
        guard: Guard | None = None,
    ) -> None:
        super().__init__(owner_id, refusal, timeout=PAGES_TIMEOUT, guard=guard)
        self.pages = pages
        self.render = render
        self.page = 0

    def show(self, page: int) -> dict[str, Any]:
        """Message keyword arguments for ``page``, with this view rebuilt around its buttons."""
        self.page = min(max(page, 0), self.pages - 1)
        reply = self.render(self.page)
        kwargs = message_kwargs(reply)
        self.clear_items()
        for button in reply.buttons:
            self.add_item(ActionButton(button))
        if self.pages > 1:
            self._nav(say(Msg.PREVIOUS), self.page - 1, disabled=self.page == 0)
            self._nav(say(Msg.NEXT), self.page + 1, disabled=self.page == self.pages - 1)
        kwargs["view"] = self
        return kwargs

    def _nav(self, label: str, page: int, *, disabled: bool) -> None:
        button: discord.ui.Button[Pages] = discord.ui.Button(
            label=label, row=self.NAV_ROW, disabled=disabled, style=discord.ButtonStyle.secondary
        )

        async def turn(interaction: Interaction) -> None:
            await interaction.response.edit_message(**self.show(page))

        button.callback = turn  # type: ignore[method-assign,assignment]
        self.add_item(button)

    async def send(self, interaction: Interaction, *, ephemeral: bool = False) -> None:
        await deliver(interaction, self.show(0), ephemeral=ephemeral)


async def send(
    interaction: Interaction, reply: Reply, *, edit: bool = False, ephemeral: bool = False
) -> None:
    await deliver(interaction, message_kwargs(reply), edit=edit, ephemeral=reply.ephemeral or ephemeral)


async def deliver(
    interaction: Interaction, kwargs: dict[str, Any], *, edit: bool = False, ephemeral: bool = False
) -> None:
    """Send (or with ``edit``, edit into the message pressed) a message's keyword arguments: as the
    interaction's first response, or as its follow-up once it was deferred."""
    if edit:
        kwargs.setdefault("view", None)
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
    elif interaction.response.is_done():
        await interaction.followup.send(**kwargs, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(**kwargs, ephemeral=ephemeral)


async def respond(
    interaction: Interaction, work: Callable[[], Reply], *, edit: bool = False, ephemeral: bool = False
) -> None:
    """Run ``work`` (database I/O) off the event loop and send its reply, in time (``in_time``)."""
    reply = await in_time(interaction, work, edit=edit, ephemeral=ephemeral)
    await send(interaction, reply, edit=edit, ephemeral=ephemeral)


async def in_time(
    interaction: Interaction, work: Callable[[], _Result], *, edit: bool = False, ephemeral: bool = False
) -> _Result:
    """Run ``work`` (database I/O) off the event loop and return its result, having deferred the
    interaction unless the result was ready soon enough after it arrived (``bot.client.deadline``):
    the caller then answers with ``deliver`` or ``send``, which follow up a deferral. When the workers
    are busy the interaction is deferred at once and its work waits in the deferred lane, behind the
    work of interactions not yet acknowledged: nobody misses Discord's 3 s because of someone else's
    reply. The work of an interaction acknowledged already waits in the deferred lane too. ``edit``
    defers as an update of the message pressed; ``ephemeral`` makes the deferral private.
    """
    workers = interaction.client.workers
    wait = 0.0 if interaction.response.is_done() else patience(interaction, workers)
    if wait > 0.0:
        job = workers.start(work)
        done, _ = await asyncio.wait({job}, timeout=wait)
        if not done:
            await _defer(interaction, edit=edit, ephemeral=ephemeral)
        result = await job
    else:
        await _defer(interaction, edit=edit, ephemeral=ephemeral)
        result = await workers.start(work, DEFERRED)
    if interaction.response.is_done():
        await interaction.client.arrivals.settled()  # others' acknowledgements before this follow-up
    return result


async def _defer(interaction: Interaction, *, edit: bool, ephemeral: bool) -> None:
    if interaction.response.is_done():
        return  # deferred already, by work done before this
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)


def lookup_private(interaction: Interaction) -> bool:
    """Whether a lookup answers privately here (``/config ephemeral``: the channel's setting, else the
    guild's). The library keeps the settings in memory, so this is asked on the event loop."""
    return interaction.client.library.replies_private(interaction.guild_id, interaction.channel_id)


async def lookup(interaction: Interaction, work: Callable[[], Reply]) -> None:
    """Send a lookup's reply (``work``, database I/O): privately where ``/config ephemeral`` says so."""
    await respond(interaction, work, ephemeral=lookup_private(interaction))


async def answer(interaction: Interaction, topic: str, query: str) -> None:
    """The body of a ``/<topic> query`` command: ask the library and send what it renders."""
    library = interaction.client.library
    await lookup(interaction, lambda: library.answer(topic, query, guild_id=interaction.guild_id))


async def setup(bot: ParlBot) -> None:
    """Loaded as an extension so that buttons from earlier replies keep working after a restart."""
    bot.add_dynamic_items(ActionButton)
