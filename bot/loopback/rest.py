"""``FakeDiscord``: a loopback HTTP server speaking enough of Discord's REST API v10 for discord.py.

It answers login, interaction callbacks, webhook follow-ups and edits, and command sync, and serves the
files members attach to commands (``upload``); it keeps the messages it created (so a later edit of
``@original`` shows up in a later ``GET``), records every request, and rejects bodies that break
Discord's limits with HTTP 400 and error code 50035, the way Discord does. Nothing here talks to the
real Discord.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Self

import discord
from aiohttp import BodyPartReader, web

from bot import limits
from bot.loopback.payloads import DEFAULT_APPLICATION_ID, Snowflakes, attachment, bot_user

API_PREFIX: Final = "/api/v10"
ATTACHMENTS_PREFIX: Final = "/attachments"  # where the fake serves uploaded files, as Discord's CDN does

COMMAND_NAME_PATTERN: Final = re.compile(rf"^[-_\w]{{1,{limits.COMMAND_NAME}}}$")
LOCALES: Final = frozenset(locale.value for locale in discord.Locale)  # the keys localizations may use

# Message flags and interaction types Discord uses.
EPHEMERAL: Final = 1 << 6
LOADING: Final = 1 << 7
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CALLBACK_TYPES: Final = frozenset({1, 4, 5, 6, 7, 8, 9})
# Which callback types Discord accepts for which interaction type.
ALLOWED_CALLBACKS: Final[Mapping[int, frozenset[int]]] = {
    PING: frozenset({1}),
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}

# Discord's clock: the first response within 3 s of the interaction's creation, follow-ups and edits
# of its messages within 15 minutes; after that the interaction is unknown (404, code 10062).
ACKNOWLEDGE_WITHIN: Final = 3.0
TOKEN_LIFETIME: Final = 15 * 60.0

Json = dict[str, Any]
Body = dict[str, Any] | list[Any] | None


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request discord.py sent, as the fake saw it.

    ``route`` names the operation ("login", "application", "callback", "followup", "get_original",
    "edit_original", "delete_original", "get_followup", "edit_followup", "delete_followup",
    "sync_commands", "get_commands", "channel_message", "get_attachment", "unknown"); ``body`` is the
    JSON body (the ``payload_json`` part for multipart bodies); ``files`` the names of a multipart
    body's files and ``contents`` their bytes, in the same order; ``status`` is what the fake answered;
    ``at`` is when it arrived (``time.monotonic()``).
    """

    route: str
    method: str
    path: str
    body: Body
    status: int = 200
    token: str | None = None
    query: Mapping[str, str] = field(default_factory=dict)
    files: tuple[str, ...] = ()
    contents: tuple[bytes, ...] = ()
    at: float = field(default_factory=time.monotonic, compare=False)


@dataclass(frozen=True, slots=True)
class BodyProblem:
    """One broken rule: where in the body (``path``), Discord's error code and message."""

    path: tuple[str | int, ...]
    code: str
    message: str


@dataclass(slots=True)
class InteractionRecord:
    """What the fake knows about one interaction it was told about (or first saw in a callback)."""

    id: int
    token: str
    type: int | None = None
    channel_id: int | None = None
    guild_id: int | None = None
    message_id: int | None = None  # the message a component was on
    callback_type: int | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    created_at: float | None = None  # on the fake's clock, when the interaction was dispatched


class DiscordHTTPError(Exception):
    """Raised inside a handler to answer with a Discord-style JSON error."""

    def __init__(self, status: int, code: int, message: str, errors: Json | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.body: Json = {"code": code, "message": message}
        if errors is not None:
            self.body["errors"] = errors


def json_response(data: Any, *, status: int = 200) -> web.Response:
    """A JSON answer whose ``Content-Type`` is exactly ``application/json`` (discord.py checks that)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


# --- validation -------------------------------------------------------------------------------


def _too_long(path: tuple[str | int, ...], limit: int) -> BodyProblem:
    return BodyProblem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_length(
    problems: list[BodyProblem], value: Any, limit: int, path: tuple[str | int, ...], *, minimum: int = 0
) -> None:
    if value is None:
        return
    if not isinstance(value, str | list):
        problems.append(BodyProblem(path, "BASE_TYPE_STRING", "Could not interpret the value as a string."))
        return
    if len(value) > limit:
        problems.append(_too_long(path, limit))
    elif len(value) < minimum:
        problems.append(BodyProblem(path, "BASE_TYPE_MIN_LENGTH", f"Must be {minimum} or more in length."))


def validate_embeds(embeds: Any, prefix: tuple[str | int, ...] = ()) -> list[BodyProblem]:
    problems: list[BodyProblem] = []
    if embeds is None:
        return problems
    path = (*prefix, "embeds")
    if not isinstance(embeds, list):
        return [BodyProblem(path, "BASE_TYPE_ARRAY", "Must be an array.")]
    _check_length(problems, embeds, limits.EMBEDS, path)
    for index, embed in enumerate(embeds):
        at = (*path, index)
        _check_length(problems, embed.get("title"), limits.EMBED_TITLE, (*at, "title"))
        _check_length(problems, embed.get("description"), limits.EMBED_DESCRIPTION, (*at, "description"))
        fields = embed.get("fields") or []
        _check_length(problems, fields, limits.EMBED_FIELDS, (*at, "fields"))
        for number, item in enumerate(fields):
            field_at = (*at, "fields", number)
            _check_length(problems, item.get("name"), limits.FIELD_NAME, (*field_at, "name"), minimum=1)
            _check_length(problems, item.get("value"), limits.FIELD_VALUE, (*field_at, "value"), minimum=1)
        footer = embed.get("footer") or {}
        _check_length(problems, footer.get("text"), limits.FOOTER, (*at, "footer", "text"))
        author = embed.get("author") or {}
        _check_length(problems, author.get("name"), limits.AUTHOR_NAME, (*at, "author", "name"))
    total = sum(limits.embed_characters(embed) for embed in embeds if isinstance(embed, Mapping))
    if total > limits.EMBED_TOTAL:
        problems.append(
            BodyProblem(
                path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {limits.EMBED_TOTAL}"
            )
        )
    return problems


_SELECT_TYPES: Final = frozenset({3, 5, 6, 7, 8})


def validate_components(components: Any, prefix: tuple[str | int, ...] = ()) -> list[BodyProblem]:
    problems: list[BodyProblem] = []
    if components is None:
        return problems
    path = (*prefix, "components")
    if not isinstance(components, list):
        return [BodyProblem(path, "BASE_TYPE_ARRAY", "Must be an array.")]
    _check_length(problems, components, limits.ACTION_ROWS, path)
    for index, row in enumerate(components):
        if row.get("type") == 1:  # components v2 layouts are not used by parlbot; accept them unchecked
            _check_action_row(problems, row, (*path, index))
    return problems


def _check_action_row(problems: list[BodyProblem], row: Mapping[str, Any], at: tuple[str | int, ...]) -> None:
    children = row.get("components") or []
    buttons = [child for child in children if child.get("type") == 2]
    selects = [child for child in children if child.get("type") in _SELECT_TYPES]
    if len(buttons) > limits.BUTTONS_PER_ROW:
        problems.append(_too_long((*at, "components"), limits.BUTTONS_PER_ROW))
    if selects and len(children) > 1:
        problems.append(
            BodyProblem(
                (*at, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select must be alone in its row.",
            )
        )
    for number, child in enumerate(children):
        child_at = (*at, "components", number)
        _check_length(problems, child.get("custom_id"), limits.CUSTOM_ID, (*child_at, "custom_id"))
        if child.get("type") == 2:
            _check_button(problems, child, child_at)
        if child.get("type") == 3:
            _check_select_options(problems, child, child_at)


def _check_button(problems: list[BodyProblem], button: Mapping[str, Any], at: tuple[str | int, ...]) -> None:
    _check_length(problems, button.get("label"), limits.BUTTON_LABEL, (*at, "label"))
    if button.get("style") == 5 and not button.get("url"):
        problems.append(BodyProblem((*at, "url"), "BASE_TYPE_REQUIRED", "This field is required"))
    if button.get("style") != 5 and button.get("style") != 6 and not button.get("custom_id"):
        problems.append(BodyProblem((*at, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))


def _check_select_options(
    problems: list[BodyProblem], select: Mapping[str, Any], at: tuple[str | int, ...]
) -> None:
    options = select.get("options") or []
    _check_length(problems, options, limits.SELECT_OPTIONS, (*at, "options"))
    for number, option in enumerate(options):
        option_at = (*at, "options", number)
        _check_length(
            problems, option.get("label"), limits.SELECT_OPTION_LABEL, (*option_at, "label"), minimum=1
        )
        _check_length(problems, option.get("value"), 100, (*option_at, "value"), minimum=1)


def validate_message(body: Mapping[str, Any], prefix: tuple[str | int, ...] = ()) -> list[BodyProblem]:
    """Every limit a message body (create or edit) breaks, as Discord would report them."""
    problems: list[BodyProblem] = []
    _check_length(problems, body.get("content"), limits.CONTENT, (*prefix, "content"))
    problems += validate_embeds(body.get("embeds"), prefix)
    problems += validate_components(body.get("components"), prefix)
    return problems


def validate_choices(data: Mapping[str, Any]) -> list[BodyProblem]:
    problems: list[BodyProblem] = []
    choices = data.get("choices")
    path: tuple[str | int, ...] = ("data", "choices")
    if not isinstance(choices, list):
        return [BodyProblem(path, "BASE_TYPE_REQUIRED", "This field is required")]
    _check_length(problems, choices, limits.CHOICES, path)
    for index, choice in enumerate(choices):
        _check_length(problems, choice.get("name"), limits.CHOICE_NAME, (*path, index, "name"), minimum=1)
        value = choice.get("value")
        if isinstance(value, str):
            _check_length(problems, value, limits.CHOICE_VALUE, (*path, index, "value"))
    return problems


def validate_modal(data: Mapping[str, Any]) -> list[BodyProblem]:
    problems: list[BodyProblem] = []
    _check_length(problems, data.get("title"), limits.MODAL_TITLE, ("data", "title"), minimum=1)
    _check_length(problems, data.get("custom_id"), limits.CUSTOM_ID, ("data", "custom_id"), minimum=1)
    _check_length(
        problems, data.get("components") or [], limits.MODAL_FIELDS, ("data", "components"), minimum=1
    )
    return problems


def command_characters(option: Mapping[str, Any]) -> int:
    """A command's size against ``limits.COMMAND_TOTAL_CHARACTERS``: its names, descriptions, choices."""
    total = len(option.get("name") or "") + len(option.get("description") or "")
    for choice in option.get("choices") or []:
        total += len(str(choice.get("name") or "")) + len(str(choice.get("value") or ""))
    for child in option.get("options") or []:
        total += command_characters(child)
    return total


def _check_name(
    problems: list[BodyProblem], name: Any, path: tuple[str | int, ...], *, lowercase: bool
) -> None:
    if not isinstance(name, str) or not COMMAND_NAME_PATTERN.fullmatch(name):
        problems.append(
            BodyProblem(path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
        )
    elif lowercase and name != name.lower():
        problems.append(
            BodyProblem(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name must be lowercase.")
        )


def _localizations(
    problems: list[BodyProblem], item: Mapping[str, Any], key: str, at: tuple[str | int, ...]
) -> Json:
    """``item[key]`` (a locale → text map, or nothing), with every locale Discord does not know refused."""
    localized = item.get(key) or {}
    if not isinstance(localized, dict):
        problems.append(
            BodyProblem((*at, key), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        )
        return {}
    for locale in localized:
        if locale not in LOCALES:
            problems.append(
                BodyProblem(
                    (*at, key, locale), "ENUM_TYPE_COERCE", f"Value {locale!r} is not a valid enum value."
                )
            )
    return {locale: text for locale, text in localized.items() if locale in LOCALES}


def _check_localized(
    problems: list[BodyProblem], item: Mapping[str, Any], at: tuple[str | int, ...], *, described: bool = True
) -> None:
    """A command's or option's ``name_localizations`` (each a valid lower-case name) and, when it has a
    description, ``description_localizations`` (each 1-100 characters)."""
    for locale, name in _localizations(problems, item, "name_localizations", at).items():
        _check_name(problems, name, (*at, "name_localizations", locale), lowercase=True)
    if described:
        for locale, text in _localizations(problems, item, "description_localizations", at).items():
            path = (*at, "description_localizations", locale)
            _check_length(problems, text, limits.COMMAND_DESCRIPTION, path, minimum=1)


def _check_unique_localized_names(
    problems: list[BodyProblem], items: list[Json], path: tuple[str | int, ...], *, by_type: bool = False
) -> None:
    """Siblings (options; or commands of one type) must differ by name in every locale, as they do in the
    default one."""
    taken: set[tuple[object, str, str]] = set()
    for index, item in enumerate(items):
        kind = int(item.get("type", 1)) if by_type else None
        for locale, name in (item.get("name_localizations") or {}).items():
            if (kind, locale, name) in taken:
                problems.append(
                    BodyProblem(
                        (*path, index, "name_localizations", locale),
                        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                        "Option names must be unique",
                    )
                )
            taken.add((kind, locale, name))


def _check_options(problems: list[BodyProblem], options: Any, path: tuple[str | int, ...]) -> None:
    if not options:
        return
    _check_length(problems, options, limits.COMMAND_OPTIONS, path)
    _check_unique_localized_names(problems, options, path)
    seen_optional = False
    names: set[str] = set()
    for index, option in enumerate(options):
        at = (*path, index)
        name = option.get("name")
        _check_name(problems, name, (*at, "name"), lowercase=True)
        if name in names:
            problems.append(
                BodyProblem(
                    (*at, "name"),
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            )
        names.add(name)
        _check_length(
            problems, option.get("description"), limits.COMMAND_DESCRIPTION, (*at, "description"), minimum=1
        )
        _check_localized(problems, option, at)
        if option.get("type") in (1, 2):
            _check_options(problems, option.get("options"), (*at, "options"))
            continue
        if option.get("required"):
            if seen_optional:
                problems.append(
                    BodyProblem(
                        (*at, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        _check_length(problems, choices, limits.CHOICES, (*at, "choices"))
        for number, choice in enumerate(choices):
            choice_at = (*at, "choices", number)
            _check_length(problems, choice.get("name"), limits.CHOICE_NAME, (*choice_at, "name"), minimum=1)
            for locale, text in _localizations(problems, choice, "name_localizations", choice_at).items():
                path = (*choice_at, "name_localizations", locale)
                _check_length(problems, text, limits.CHOICE_NAME, path, minimum=1)
            if isinstance(choice.get("value"), str):
                _check_length(problems, choice.get("value"), limits.CHOICE_VALUE, (*choice_at, "value"))


def validate_commands(commands: Any, *, guild: bool) -> list[BodyProblem]:
    """Every rule a bulk command overwrite breaks (names, descriptions, options, sizes, counts)."""
    if not isinstance(commands, list):
        return [BodyProblem((), "BASE_TYPE_ARRAY", "Must be an array.")]
    problems: list[BodyProblem] = []
    counts: dict[int, int] = {}
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        at: tuple[str | int, ...] = (index,)
        kind = int(command.get("type", 1))
        counts[kind] = counts.get(kind, 0) + 1
        name = command.get("name")
        if (kind, name) in seen:
            problems.append(
                BodyProblem(
                    (*at, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {name}",
                )
            )
        seen.add((kind, name))
        if kind == 1:
            _check_name(problems, name, (*at, "name"), lowercase=True)
            _check_length(
                problems,
                command.get("description"),
                limits.COMMAND_DESCRIPTION,
                (*at, "description"),
                minimum=1,
            )
            _check_localized(problems, command, at)
            _check_options(problems, command.get("options"), (*at, "options"))
            if command_characters(command) > limits.COMMAND_TOTAL_CHARACTERS:
                problems.append(
                    BodyProblem(
                        at,
                        "APPLICATION_COMMAND_TOO_LARGE",
                        f"Command exceeds maximum size ({limits.COMMAND_TOTAL_CHARACTERS})",
                    )
                )
        else:
            _check_length(problems, name, 32, (*at, "name"), minimum=1)
            _check_localized(problems, command, at, described=False)
    _check_unique_localized_names(problems, commands, (), by_type=True)
    if counts.get(1, 0) > limits.GLOBAL_CHAT_INPUT_COMMANDS:
        problems.append(_too_long((), limits.GLOBAL_CHAT_INPUT_COMMANDS))
    for kind in (2, 3):
        if counts.get(kind, 0) > limits.CONTEXT_MENU_COMMANDS:
            problems.append(_too_long((), limits.CONTEXT_MENU_COMMANDS))
    del guild  # the same rules apply to guild commands
    return problems


def error_tree(problems: list[BodyProblem]) -> Json:
    """Discord's nested ``errors`` object: ``{"data": {"content": {"_errors": [...]}}}``."""
    tree: Json = {}
    for problem in problems:
        node = tree
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return tree


def reject_if(problems: list[BodyProblem]) -> None:
    if problems:
        raise DiscordHTTPError(400, 50035, "Invalid Form Body", error_tree(problems))


# --- the server -------------------------------------------------------------------------------

Handler = Callable[[web.Request, Body], Any]


class FakeDiscord:
    """A loopback Discord REST API (v10) on 127.0.0.1 and a random free port.

    Use as ``async with FakeDiscord() as fake:``; point ``discord.http.Route.BASE`` at
    ``fake.api_base``. ``requests`` holds every request in arrival order. ``clock`` (seconds,
    ``time.monotonic`` unless told) is Discord's clock: a first response more than
    ``ACKNOWLEDGE_WITHIN`` after ``register_interaction``, or a follow-up more than ``TOKEN_LIFETIME``
    after it, is answered 404 Unknown interaction, as Discord answers one that expired.
    Given a ``token``, a request authorized with another gets Discord's 401, as a bad ``DISCORD_TOKEN``
    does.
    """

    def __init__(
        self,
        *,
        application_id: int = DEFAULT_APPLICATION_ID,
        bot_name: str = "parlbot",
        snowflakes: Snowflakes | None = None,
        clock: Callable[[], float] = time.monotonic,
        token: str | None = None,
    ) -> None:
        self.application_id = application_id
        self.clock = clock
        self.token = token
        self.bot_name = bot_name
        self.snowflakes = snowflakes or Snowflakes()
        self.requests: list[RecordedRequest] = []
        self.messages: dict[int, Json] = {}
        self.commands: dict[int | None, list[Json]] = {}
        self._interactions: dict[str, InteractionRecord] = {}  # by token
        self._files: dict[int, bytes] = {}  # uploaded attachments' contents, by attachment id
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    # lifecycle

    async def start(self) -> None:
        app = web.Application(middlewares=[self._errors])
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._dispatch)
        app.router.add_get(ATTACHMENTS_PREFIX + "/{attachment_id}/{filename}", self._serve_file)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` should be set to."""
        if self._port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://127.0.0.1:{self._port}{API_PREFIX}"

    # what the tests and the session use

    def register_interaction(
        self,
        interaction_id: int,
        token: str,
        *,
        type: int,
        channel_id: int | None = None,
        guild_id: int | None = None,
        message_id: int | None = None,
    ) -> None:
        """Tell the fake about an interaction it is about to receive callbacks for."""
        self._interactions[token] = InteractionRecord(
            id=interaction_id,
            token=token,
            type=type,
            channel_id=channel_id,
            guild_id=guild_id,
            message_id=message_id,
            created_at=self.clock(),
        )

    def upload(self, filename: str, content: bytes, content_type: str | None = None) -> Json:
        """Keep a file a member attaches to a command; returns its attachment object, whose url serves it."""
        attachment_id = self.snowflakes.next()
        self._files[attachment_id] = content
        url = f"http://127.0.0.1:{self._port}{ATTACHMENTS_PREFIX}/{attachment_id}/{filename}"
        return attachment(attachment_id, filename, len(content), url, content_type)

    def requests_for(self, token: str) -> list[RecordedRequest]:
        return [request for request in self.requests if request.token == token]

    def original(self, token: str) -> Json | None:
        """The current state of an interaction's original response, or ``None``."""
        record = self._interactions.get(token)
        if record is None or record.original_id is None:
            return None
        return self.messages.get(record.original_id)

    def answers(self, token: str) -> list[Json]:
        """The stored messages an interaction's answer created or edited, oldest first.

        That is its original response (for a component, the message it was on when the answer edited
        or acknowledged it), then its follow-ups; deleted ones are left out.
        """
        record = self._interactions.get(token)
        if record is None:
            return []
        ids = [record.original_id, *record.followup_ids]
        return [self.messages[i] for i in ids if i is not None and i in self.messages]

    def find_message(self, custom_id: str) -> Json | None:
        """The newest stored message carrying a component with ``custom_id``."""
        for message in reversed(self.messages.values()):
            if any(c.get("custom_id") == custom_id for c in walk_components(message.get("components") or [])):
                return message
        return None

    async def wait_for(self, route: str, *, token: str | None = None) -> RecordedRequest:
        """The first recorded request for ``route`` (and ``token``), waiting until it arrives."""

        def found() -> RecordedRequest | None:
            for request in self.requests:
                if request.route == route and (token is None or request.token == token):
                    return request
            return None

        async with self._changed:
            await self._changed.wait_for(lambda: found() is not None)
        result = found()
        assert result is not None
        return result

    # plumbing

    @web.middleware
    async def _errors(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        try:
            response: web.StreamResponse = await handler(request)
        except DiscordHTTPError as error:
            return json_response(error.body, status=error.status)
        return response

    async def _read_body(self, request: web.Request) -> tuple[Body, dict[str, bytes]]:
        """The JSON body, and a multipart body's files by name (in order)."""
        if not request.can_read_body:
            return None, {}
        if request.content_type.startswith("multipart/"):
            body: Body = None
            files: dict[str, bytes] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files[part.filename or part.name or ""] = bytes(await part.read())
            return body, files
        text = await request.text()
        if not text:
            return None, {}
        try:
            loaded = json.loads(text)
        except json.JSONDecodeError as error:
            raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from error
        if not isinstance(loaded, dict | list):
            raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.")
        return loaded, {}

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        route, token, handler = self._route(request.method, path)
        status = 200
        try:
            authorization = request.headers.get("Authorization")
            if self.token is not None and authorization not in (None, f"Bot {self.token}"):
                raise DiscordHTTPError(401, 0, "401: Unauthorized")
            result = handler(request, body)
            response = result if isinstance(result, web.StreamResponse) else json_response(result)
            status = response.status
        except DiscordHTTPError as error:
            status = error.status
            raise
        finally:
            self.requests.append(
                RecordedRequest(
                    route=route,
                    method=request.method,
                    path=path,
                    body=body,
                    status=status,
                    token=token,
                    query=dict(request.query),
                    files=tuple(files),
                    contents=tuple(files.values()),
                )
            )
            async with self._changed:
                self._changed.notify_all()
        return response

    async def _serve_file(self, request: web.Request) -> web.Response:
        content = self._files.get(int(request.match_info["attachment_id"]))
        status = 404 if content is None else 200
        self.requests.append(RecordedRequest("get_attachment", request.method, request.path, None, status))
        if content is None:
            return web.Response(status=404, text="404: Not Found")
        return web.Response(body=content, content_type="application/octet-stream")

    def _route(self, method: str, path: str) -> tuple[str, str | None, Handler]:
        parts = path.strip("/").split("/")
        app = str(self.application_id)
        match method, parts:
            case "GET", ["users", "@me"]:
                return "login", None, lambda _r, _b: bot_user(self.application_id, self.bot_name)
            case "GET", ["oauth2", "applications", "@me"]:
                return "application", None, lambda _r, _b: self._application()
            case "POST", ["interactions", interaction_id, token, "callback"]:
                return "callback", token, lambda r, b: self._callback(int(interaction_id), token, r, b)
            case "POST", ["webhooks", application_id, token] if application_id == app:
                return "followup", token, lambda r, b: self._followup(token, r, b)
            case _, ["webhooks", application_id, token, "messages", message] if application_id == app:
                kind = "original" if message == "@original" else "followup"
                verb = {"GET": "get", "PATCH": "edit", "DELETE": "delete"}.get(method, method.lower())
                return (
                    f"{verb}_{kind}",
                    token,
                    lambda _r, b: self._webhook_message(method, token, message, b),
                )
            case "PUT", ["applications", application_id, "commands"] if application_id == app:
                return "sync_commands", None, lambda _r, b: self._sync(None, b)
            case "PUT", ["applications", application_id, "guilds", guild_id, "commands"] if (
                application_id == app
            ):
                return "sync_commands", None, lambda _r, b: self._sync(int(guild_id), b)
            case "GET", ["applications", application_id, "commands"] if application_id == app:
                return "get_commands", None, lambda _r, _b: self.commands.get(None, [])
            case "GET", ["applications", application_id, "guilds", guild_id, "commands"] if (
                application_id == app
            ):
                return "get_commands", None, lambda _r, _b: self.commands.get(int(guild_id), [])
            case "POST", ["channels", channel_id, "messages"]:
                return "channel_message", None, lambda _r, b: self._channel_message(int(channel_id), b)
            case "PATCH", ["channels", channel_id, "messages", message_id]:
                return (
                    "edit_channel_message",
                    None,
                    lambda _r, b: self._edit_channel_message(int(channel_id), int(message_id), b),
                )
        return "unknown", None, self._not_found

    def _not_found(self, _request: web.Request, _body: Body) -> Any:
        raise DiscordHTTPError(404, 0, "404: Not Found")

    def _application(self) -> Json:
        owner = {"id": "1", "username": "owner", "discriminator": "0", "avatar": None, "global_name": None}
        return {
            "id": str(self.application_id),
            "name": self.bot_name,
            "icon": None,
            "description": "Answers questions about parliamentary incidents.",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner,
            "verify_key": "0" * 64,
            "team": None,
            "flags": 1 << 23,  # GATEWAY_MESSAGE_CONTENT_LIMITED
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        }

    # messages

    def _message(self, body: Mapping[str, Any], record: InteractionRecord, *, flags: int) -> Json:
        message_id = self.snowflakes.next()
        message: Json = {
            "id": str(message_id),
            "type": 20 if record.type == APPLICATION_COMMAND else 0,
            "channel_id": str(record.channel_id or 0),
            "content": body.get("content") or "",
            "embeds": [{"type": "rich", **embed} for embed in body.get("embeds") or []],
            "components": list(body.get("components") or []),
            "attachments": [],
            "author": bot_user(self.application_id, self.bot_name),
            "application_id": str(self.application_id),
            "webhook_id": str(self.application_id),
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "flags": flags | (int(body.get("flags") or 0) & EPHEMERAL),
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": bool(body.get("tts")),
        }
        if record.guild_id is not None:
            message["guild_id"] = str(record.guild_id)
        self.messages[message_id] = message
        return message

    def _edit(self, message: Json, body: Mapping[str, Any]) -> Json:
        for key in ("content", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key == "components" else "")
        if "embeds" in body:
            message["embeds"] = [{"type": "rich", **embed} for embed in body["embeds"] or []]
        message["flags"] = int(message.get("flags", 0)) & ~LOADING
        message["edited_timestamp"] = now_iso()
        return message

    def _record(self, interaction_id: int | None, token: str) -> InteractionRecord:
        record = self._interactions.get(token)
        if record is None:
            record = InteractionRecord(id=interaction_id or 0, token=token)
            self._interactions[token] = record
        return record

    @staticmethod
    def _require_new_message(body: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> None:
        if not (
            body.get("content") or body.get("embeds") or body.get("components") or body.get("attachments")
        ):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")
        reject_if(validate_message(body, prefix))

    # interaction callback

    def _callback(
        self, interaction_id: int, token: str, request: web.Request, body: Body
    ) -> Json | web.Response:
        callback_type, data = self._callback_type(body)
        record = self._record(interaction_id, token)
        self._check_alive(record, ACKNOWLEDGE_WITHIN)
        self._check_acknowledgeable(record, interaction_id, callback_type)
        self._check_callback_data(callback_type, data)

        record.callback_type = callback_type
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        interaction: Json = {"id": str(interaction_id), "type": record.type or APPLICATION_COMMAND}
        answer: Json = {"interaction": interaction}
        message = self._callback_message(record, callback_type, data)
        if message is not None:
            record.original_id = int(message["id"])
            interaction["response_message_id"] = message["id"]
            interaction["response_message_loading"] = callback_type == 5
            interaction["response_message_ephemeral"] = ephemeral or bool(int(message["flags"]) & EPHEMERAL)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        if callback_type in (4, 5, 7) and message is not None:
            answer["resource"] = {"type": callback_type, "message": message}
        elif callback_type == 9:
            answer["resource"] = {"type": callback_type}
        return answer

    @staticmethod
    def _callback_type(body: Body) -> tuple[int, Json]:
        """A callback body's type (one Discord knows, else 400) and its ``data``."""
        if not isinstance(body, dict) or body.get("type") not in CALLBACK_TYPES:
            reject_if(
                [
                    BodyProblem(
                        ("type",), "BASE_TYPE_CHOICES", f"Value must be one of {sorted(CALLBACK_TYPES)}."
                    )
                ]
            )
        assert isinstance(body, dict)
        data: Json = body.get("data") or {}
        return int(body["type"]), data

    def _check_alive(self, record: InteractionRecord, within: float) -> None:
        """Refuse a request about an interaction older than ``within`` seconds on Discord's clock."""
        if record.created_at is not None and self.clock() - record.created_at > within:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")

    @staticmethod
    def _check_acknowledgeable(record: InteractionRecord, interaction_id: int, callback_type: int) -> None:
        """Refuse a callback for another interaction's token, a second one, or one of the wrong type."""
        if record.id and record.id != interaction_id:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        if record.callback_type is not None:
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if record.type is not None and callback_type not in ALLOWED_CALLBACKS.get(
            record.type, CALLBACK_TYPES
        ):
            reject_if(
                [
                    BodyProblem(
                        ("type",),
                        "INTERACTION_CALLBACK_TYPE_INVALID",
                        "Invalid callback type for this interaction.",
                    )
                ]
            )

    @classmethod
    def _check_callback_data(cls, callback_type: int, data: Json) -> None:
        """Discord's limits on what a callback carries: a message, choices or a modal."""
        if callback_type == 4:
            cls._require_new_message(data, ("data",))
        elif callback_type == 7:
            reject_if(validate_message(data, ("data",)))
        elif callback_type == 8:
            reject_if(validate_choices(data))
        elif callback_type == 9:
            reject_if(validate_modal(data))

    def _callback_message(self, record: InteractionRecord, callback_type: int, data: Json) -> Json | None:
        """The message a callback creates (4, or 5's "thinking") or acknowledges or edits (6, 7)."""
        if callback_type == 4:
            return self._message(data, record, flags=0)
        if callback_type == 5:
            return self._message({"flags": data.get("flags")}, record, flags=LOADING)
        if callback_type not in (6, 7) or record.message_id is None:
            return None
        message = self.messages.get(record.message_id)
        if message is not None and callback_type == 7:
            self._edit(message, data)
        return message

    # webhook follow-ups and edits

    def _acknowledged(self, token: str) -> InteractionRecord:
        record = self._interactions.get(token)
        if record is None or record.callback_type is None:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        self._check_alive(record, TOKEN_LIFETIME)
        return record

    def _followup(self, token: str, request: web.Request, body: Body) -> Any:
        record = self._acknowledged(token)
        if not isinstance(body, dict):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")
        self._require_new_message(body)
        original = self.messages.get(record.original_id) if record.original_id is not None else None
        if original is not None and int(original.get("flags", 0)) & LOADING:
            # Discord turns the first follow-up after a "thinking" defer into the original response.
            message = self._edit(original, body)
            message["edited_timestamp"] = None
        else:
            message = self._message(body, record, flags=0)
            record.followup_ids.append(int(message["id"]))
        if request.query.get("wait", "").lower() in ("1", "true"):
            return message
        return web.Response(status=204)

    def _webhook_message(self, method: str, token: str, which: str, body: Body) -> Any:
        record = self._acknowledged(token)
        if which == "@original":
            message_id = record.original_id
        elif which.isdigit() and int(which) in record.followup_ids:
            message_id = int(which)
        else:
            message_id = None
        message = self.messages.get(message_id) if message_id is not None else None
        if message is None:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        if method == "GET":
            return message
        if method == "PATCH":
            if not isinstance(body, dict):
                body = {}
            reject_if(validate_message(body))
            return self._edit(message, body)
        if method == "DELETE":
            del self.messages[int(message["id"])]
            return web.Response(status=204)
        raise DiscordHTTPError(405, 0, "405: Method Not Allowed")

    def _channel_message(self, channel_id: int, body: Body) -> Json:
        if not isinstance(body, dict):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")
        self._require_new_message(body)
        record = InteractionRecord(id=0, token="", channel_id=channel_id)
        return self._message(body, record, flags=0)

    def _edit_channel_message(self, channel_id: int, message_id: int, body: Body) -> Json:
        """The bot edits one of its messages outside any interaction (a quiz question when time is up)."""
        message = self.messages.get(message_id)
        if message is None or int(message.get("channel_id") or 0) != channel_id:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        if int(message.get("flags") or 0) & EPHEMERAL:
            raise DiscordHTTPError(404, 10008, "Unknown Message")  # Discord hides ephemeral messages
        if not isinstance(body, dict):
            body = {}
        reject_if(validate_message(body))
        return self._edit(message, body)

    # command sync

    def _sync(self, guild_id: int | None, body: Body) -> list[Json]:
        reject_if(validate_commands(body, guild=guild_id is not None))
        assert isinstance(body, list)
        stored: list[Json] = []
        for command in body:
            entry: Json = {
                "id": str(self.snowflakes.next()),
                "application_id": str(self.application_id),
                "version": str(self.snowflakes.next()),
                "type": 1,
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                "description": "",
                **command,
            }
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        self.commands[guild_id] = stored
        return stored


def walk_components(components: list[Json]) -> Iterator[Json]:
    """Every component, rows and their children alike, depth first."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
