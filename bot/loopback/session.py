"""``OfflineSession``: run a real bot against the loopback Discord, one interaction at a time.

The session starts a ``FakeDiscord``, points ``discord.http.Route.BASE`` at it (restoring the old
value on exit), logs the bot in (which runs ``setup_hook`` and loads the cogs), makes the guild
known through GUILD_CREATE, and then feeds INTERACTION_CREATE payloads to discord.py's own parser.

Waiting is deterministic: ``parse_interaction_create`` is synchronous and schedules everything that
will answer the interaction (the ``CommandTree-invoker`` task, view/modal/dynamic-item dispatch
tasks, ``on_interaction`` listeners) before it returns. The session awaits exactly the tasks created
during that call, then the event listeners those dispatched in turn (``on_app_command_completion``
runs once a command finishes; a view's timeout timer is never waited for), so when ``invoke``
returns, discord.py has finished handling the interaction and every request it sent is recorded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Self

import discord
from discord.ext import commands

from bot.loopback import payloads
from bot.loopback.commandline import CommandLineError, ParsedCommand, parse
from bot.loopback.payloads import (
    DEFAULT_APPLICATION_ID,
    DEFAULT_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    DEFAULT_USER_ID,
    MEMBER_PERMISSIONS,
    Invoker,
    Json,
)
from bot.loopback.rest import FakeDiscord, RecordedRequest, walk_components

DUMMY_TOKEN: Final = "offline.parlbot.token"  # noqa: S105 - the fake accepts any token
# Tasks discord.py schedules that are timers, not handlers: never wait for them.
_TIMER_MARKERS: Final = ("timeout",)
# The names of the tasks ``Client.dispatch`` runs event listeners in.
_LISTENER_PREFIX: Final = "discord.py: "
# Generous bound on how long one interaction may take; exceeded only when something hangs.
DEFAULT_TIMEOUT: Final = 60.0


class InteractionHangs(RuntimeError):
    """The bot did not finish handling an interaction within the session's timeout."""


class OfflineSession:
    """A logged-in bot talking to a loopback Discord.

    ``async with OfflineSession(bot, guild_id=..., user_id=..., locale="en-US") as session:``
    then ``await session.invoke("/incident query:singh")`` returns the requests discord.py sent
    in answer (``RecordedRequest``, in order). ``moderator`` gives the member Manage Server;
    ``roles`` are the ids of the roles the member holds; ``fake`` is a running ``FakeDiscord`` to share
    (by default the session starts its own).
    """

    def __init__(
        self,
        bot: commands.Bot,
        *,
        guild_id: int | None = DEFAULT_GUILD_ID,
        user_id: int = DEFAULT_USER_ID,
        locale: str = "en-US",
        moderator: bool = False,
        roles: Sequence[int] = (),
        channel_id: int = DEFAULT_CHANNEL_ID,
        username: str = "member",
        application_id: int = DEFAULT_APPLICATION_ID,
        timeout: float = DEFAULT_TIMEOUT,
        fake: FakeDiscord | None = None,
    ) -> None:
        self.bot = bot
        self.invoker = Invoker(
            application_id=application_id,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            username=username,
            locale=locale,
            guild_locale=locale,
            moderator=moderator,
            extra_roles=tuple(roles),
        )
        # A given ``fake`` is the caller's to start and close: a second bot can then meet the messages
        # the first one sent, as a restarted bot meets them on Discord.
        self.fake = fake or FakeDiscord(application_id=application_id)
        self._owns_fake = fake is None
        self.timeout = timeout
        self._previous_base: str | None = None
        self._command_ids: dict[tuple[str, int | None], int] = {}

    # lifecycle

    async def __aenter__(self) -> Self:
        if self._owns_fake:
            await self.fake.start()
        self._previous_base = discord.http.Route.BASE
        discord.http.Route.BASE = self.fake.api_base
        try:
            await self.bot.login(DUMMY_TOKEN)
            if self.invoker.guild_id is not None:
                self.bot._connection.parsers["GUILD_CREATE"](payloads.guild_create(self.invoker))
        except BaseException:
            await self._shutdown()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._shutdown()

    async def _shutdown(self) -> None:
        try:
            await self.bot.close()
        finally:
            if self._previous_base is not None:
                discord.http.Route.BASE = self._previous_base
                self._previous_base = None
            if self._owns_fake:
                await self.fake.close()

    # building interactions

    @property
    def guild(self) -> discord.Object | None:
        return discord.Object(self.invoker.guild_id) if self.invoker.guild_id is not None else None

    def parse(self, line: str, *, focus_last: bool = False) -> ParsedCommand:
        """``line`` resolved against the bot's tree (raises ``CommandLineError``)."""
        return parse(line, self.bot.tree, guild=self.guild, focus_last=focus_last)

    def command_id(self, name: str, guild_id: int | None) -> int:
        """The id Discord knows the command by: the synced one if the fake has it, else a stable new one."""
        for command in self.fake.commands.get(guild_id, []):
            if command.get("name") == name and int(command.get("type", 1)) == 1:
                return int(command["id"])
        key = (name, guild_id)
        if key not in self._command_ids:
            self._command_ids[key] = self.fake.snowflakes.next()
        return self._command_ids[key]

    def _ids(self) -> tuple[int, str]:
        return self.fake.snowflakes.next(), payloads.new_token()

    # running interactions

    async def invoke(
        self, line: str, *, invoker: Invoker | None = None, files: Mapping[str, bytes] | None = None
    ) -> list[RecordedRequest]:
        """Run a slash command line (type 2) and return the requests sent in answer.

        An ATTACHMENT option names a file: its content is ``files[name]`` when given, else the file
        ``name`` on disk; the fake serves it at the attachment's url, as Discord's CDN would.
        """
        return await self.dispatch(self.command_payload(line, invoker=invoker, files=files))

    def command_payload(
        self, line: str, *, invoker: Invoker | None = None, files: Mapping[str, bytes] | None = None
    ) -> Json:
        """The INTERACTION_CREATE payload (type 2) Discord would send for a slash command ``line``."""
        parsed = self.parse(line)
        attachments = {
            option["name"]: self._attach(str(option["value"]), files or {})
            for option in payloads.leaf_options(parsed.options)
            if option["type"] == discord.AppCommandOptionType.attachment.value
        }
        for option in payloads.leaf_options(parsed.options):
            if option["name"] in attachments:
                option["value"] = attachments[option["name"]]["id"]
        interaction_id, token = self._ids()
        return payloads.application_command(
            parsed.name,
            parsed.options,
            invoker or self.invoker,
            command_id=self.command_id(parsed.name, parsed.guild_id),
            interaction_id=interaction_id,
            token=token,
            command_guild_id=parsed.guild_id,
            attachments={attached["id"]: attached for attached in attachments.values()},
        )

    def _attach(self, name: str, files: Mapping[str, bytes]) -> Json:
        if name in files:
            content = files[name]
        else:
            try:
                content = Path(name).read_bytes()
            except OSError as error:
                raise CommandLineError(f"Cannot attach {name}: {error.strerror or error}.") from None
        content_type = "application/json" if name.endswith(".json") else None
        return self.fake.upload(Path(name).name, content, content_type)

    async def complete(self, line: str, *, invoker: Invoker | None = None) -> list[RecordedRequest]:
        """Ask for autocomplete (type 4) on the last option of ``line``."""
        return await self.dispatch(self.autocomplete_payload(line, invoker=invoker))

    def autocomplete_payload(self, line: str, *, invoker: Invoker | None = None) -> Json:
        """The INTERACTION_CREATE payload (type 4) asking for choices for the last option of ``line``."""
        parsed = self.parse(line, focus_last=True)
        interaction_id, token = self._ids()
        return payloads.autocomplete(
            parsed.name,
            parsed.options,
            invoker or self.invoker,
            command_id=self.command_id(parsed.name, parsed.guild_id),
            interaction_id=interaction_id,
            token=token,
            command_guild_id=parsed.guild_id,
        )

    async def press(
        self,
        custom_id: str,
        message: Json | int | None = None,
        *,
        values: Sequence[str] = (),
        invoker: Invoker | None = None,
    ) -> list[RecordedRequest]:
        """Press a button (or pick ``values`` in a select) on a message the fake stored.

        ``message`` is the message JSON or id; by default, the newest message carrying ``custom_id``.
        The payload carries the fake's current state of that message, edits included.
        """
        stored = self._stored_message(custom_id, message)
        component = next(
            (c for c in walk_components(stored.get("components") or []) if c.get("custom_id") == custom_id),
            None,
        )
        if component is None:
            raise CommandLineError(f"Message {stored['id']} has no component with custom_id {custom_id!r}.")
        interaction_id, token = self._ids()
        payload = payloads.message_component(
            custom_id,
            stored,
            invoker or self.invoker,
            component_type=int(component.get("type", 2)),
            values=values,
            interaction_id=interaction_id,
            token=token,
        )
        return await self.dispatch(payload)

    async def submit(
        self,
        custom_id: str,
        fields: Mapping[str, str],
        *,
        message: Json | None = None,
        invoker: Invoker | None = None,
    ) -> list[RecordedRequest]:
        """Submit the modal ``custom_id`` the bot opened last, with text input values keyed by custom_id.

        Like Discord's client, it refuses a field the modal lacks, an empty required field and a value
        outside a field's lengths (``CommandLineError``); a field left out keeps its prefilled text.
        """
        modal = next(
            (shown for shown in reversed(modals(self.fake.requests)) if shown.get("custom_id") == custom_id),
            None,
        )
        if modal is None:
            raise CommandLineError(f"The bot has not opened a modal with custom_id {custom_id!r}.")
        interaction_id, token = self._ids()
        payload = payloads.modal_submit(
            modal,
            _filled_in(modal, fields),
            invoker or self.invoker,
            interaction_id=interaction_id,
            token=token,
            message=message,
        )
        return await self.dispatch(payload)

    def _stored_message(self, custom_id: str, message: Json | int | None) -> Json:
        if message is None:
            found = self.fake.find_message(custom_id)
            if found is None:
                raise CommandLineError(
                    f"No message the bot sent has a component with custom_id {custom_id!r}."
                )
            return found
        message_id = message if isinstance(message, int) else int(message["id"])
        try:
            return self.fake.messages[message_id]
        except KeyError:
            raise CommandLineError(f"The bot has no message {message_id} (deleted, or never sent).") from None

    async def dispatch(self, payload: Json) -> list[RecordedRequest]:
        """Feed one INTERACTION_CREATE payload to discord.py; wait until it is handled.

        Returns the requests recorded for this interaction's token, in order. An exception that
        escaped discord.py's handling (for example from ``on_error`` itself) is re-raised here.
        """
        token = str(payload["token"])
        self._announce(payload)
        seen = asyncio.all_tasks()
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        handlers = [
            task
            for task in asyncio.all_tasks() - seen
            if not any(marker in task.get_name() for marker in _TIMER_MARKERS)
        ]
        while handlers:
            seen |= asyncio.all_tasks()
            _, pending = await asyncio.wait(handlers, timeout=self.timeout)
            if pending:
                names = ", ".join(task.get_name() for task in pending)
                raise InteractionHangs(f"Still handling the interaction after {self.timeout}s: {names}")
            for task in handlers:
                error = task.exception()
                if error is not None:
                    raise error
            handlers = [
                task for task in asyncio.all_tasks() - seen if task.get_name().startswith(_LISTENER_PREFIX)
            ]
        return self.fake.requests_for(token)

    def feed(self, payload: Json) -> None:
        """Hand one INTERACTION_CREATE payload to discord.py and return at once, as the gateway does:
        for many interactions arriving together (``fake.requests`` shows the answers as they come)."""
        self._announce(payload)
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)

    def _announce(self, payload: Json) -> None:
        """Tell the fake about the interaction, and the guild about the member's roles."""
        message = payload.get("message")
        self.fake.register_interaction(
            int(payload["id"]),
            str(payload["token"]),
            type=int(payload["type"]),
            channel_id=int(payload["channel_id"]) if payload.get("channel_id") else None,
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            message_id=int(message["id"]) if message else None,
        )
        self._know_roles(payload)

    def _know_roles(self, payload: Json) -> None:
        """Make the guild know every role the member holds, as Discord's guilds do.

        discord.py leaves role ids its guild does not know out of ``Member.roles``.
        """
        guild = self.bot.get_guild(int(payload["guild_id"])) if payload.get("guild_id") else None
        if guild is None:
            return
        for role_id in (payload.get("member") or {}).get("roles") or []:
            if guild.get_role(int(role_id)) is None:
                role = payloads.role(int(role_id), f"role-{str(role_id)[-4:]}", MEMBER_PERMISSIONS)
                self.bot._connection.parsers["GUILD_ROLE_CREATE"]({"guild_id": str(guild.id), "role": role})


# reading answers


def message_bodies(requests: Sequence[RecordedRequest]) -> list[Json]:
    """The message bodies the bot sent or edited in answer, in order (callback data, follow-ups, edits)."""
    bodies: list[Json] = []
    for request in requests:
        body = request.body
        if not isinstance(body, dict) or request.status >= 300:
            continue
        if request.route == "callback" and body.get("type") in (4, 7):
            bodies.append(dict(body.get("data") or {}))
        elif request.route in ("followup", "edit_original", "edit_followup"):
            bodies.append(body)
    return bodies


def choices(requests: Sequence[RecordedRequest]) -> list[Json]:
    """The autocomplete choices offered (callback type 8), or an empty list."""
    for request in requests:
        body = request.body
        if request.route == "callback" and isinstance(body, dict) and body.get("type") == 8:
            return list((body.get("data") or {}).get("choices") or [])
    return []


def modals(requests: Sequence[RecordedRequest]) -> list[Json]:
    """The modals the bot opened (callback type 9 data Discord accepted), in order."""
    return [
        dict(request.body.get("data") or {})
        for request in requests
        if request.route == "callback"
        and request.status < 300
        and isinstance(request.body, dict)
        and request.body.get("type") == 9
    ]


@dataclass(frozen=True, slots=True)
class ModalField:
    """A text input of a modal, with the label Discord shows for it (its own or its label component's)."""

    custom_id: str
    label: str
    paragraph: bool  # style 2; otherwise a one-line (short) input
    required: bool
    min_length: int | None
    max_length: int | None
    value: str  # the prefilled text, "" when none


def modal_fields(modal: Mapping[str, Any]) -> list[ModalField]:
    """The text inputs of a modal (type 9 data), in order, inside action rows or label components."""
    fields: list[ModalField] = []

    def visit(component: Json, label: str | None) -> None:
        if component.get("type") == 18:
            visit(component["component"], component.get("label"))
        elif component.get("type") == 4:
            custom_id = str(component["custom_id"])
            fields.append(
                ModalField(
                    custom_id=custom_id,
                    label=str(label or component.get("label") or custom_id),
                    paragraph=component.get("style") == 2,
                    required=bool(component.get("required", True)),
                    min_length=component.get("min_length"),
                    max_length=component.get("max_length"),
                    value=str(component.get("value") or ""),
                )
            )
        for child in component.get("components") or []:
            visit(child, None)

    for component in modal.get("components") or []:
        visit(component, None)
    return fields


def _filled_in(modal: Json, fields: Mapping[str, str]) -> dict[str, str]:
    """Every text input's submitted value, checked the way Discord's client checks a form."""
    known = {field.custom_id: field for field in modal_fields(modal)}
    for name in fields:
        if name not in known:
            raise CommandLineError(
                f"The modal {modal.get('title')!r} has no field {name!r}. Its fields: {', '.join(known)}."
            )
    values: dict[str, str] = {}
    for field in known.values():
        value = fields.get(field.custom_id, field.value)
        name = f"{field.label!r} ({field.custom_id})"
        if not value and field.required:
            raise CommandLineError(f"{name} is required.")
        if value and field.min_length is not None and len(value) < field.min_length:
            raise CommandLineError(f"{name} needs at least {field.min_length} characters.")
        if field.max_length is not None and len(value) > field.max_length:
            raise CommandLineError(f"{name} takes at most {field.max_length} characters, not {len(value)}.")
        values[field.custom_id] = value
    return values


def is_ephemeral(body: Mapping[str, Any]) -> bool:
    return bool(int(body.get("flags") or 0) & discord.MessageFlags.ephemeral.flag)
