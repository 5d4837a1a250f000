"""Parse a slash command as typed in Discord (``/incident query:"singh 2020"``) against a CommandTree.

The bot's own tree is the schema: command and subcommand names, option names, types, choices,
ranges and which options are required all come from ``app_commands.Command.parameters``. The
result is the option JSON Discord would send in the interaction (``{"name", "type", "value"}``,
wrapped in subcommand/group options). An ATTACHMENT option's value is the name of the file to attach
(``/import file:guild.json``); ``OfflineSession.invoke`` uploads it and puts its attachment id there.
Names and choices may also be typed as a member of another locale sees them (``/recherche
requête:singh``, ``sanction:"désignation par son nom"``): the JSON names them in English, as Discord
does.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord
from discord import AppCommandOptionType as OptionType
from discord import app_commands

from bot.messages.catalogue import LOCALES, command_catalogue

Json = dict[str, Any]
AnyCommand = app_commands.Command[Any, ..., Any]
AnyTree = app_commands.CommandTree[Any]

MAX_SAFE_INTEGER: Final = 2**53
TRUE_WORDS: Final = frozenset({"true", "yes", "y", "on", "1"})
FALSE_WORDS: Final = frozenset({"false", "no", "n", "off", "0"})
OPTION_NAME: Final = re.compile(r"^[-_\w]+$")
QUOTES: Final = "\"'"
MENTION: Final = {
    OptionType.user: re.compile(r"^(?:<@!?(\d+)>|(\d+))$"),
    OptionType.channel: re.compile(r"^(?:<#(\d+)>|(\d+))$"),
    OptionType.role: re.compile(r"^(?:<@&(\d+)>|(\d+))$"),
    OptionType.mentionable: re.compile(r"^(?:<@[!&]?(\d+)>|(\d+))$"),
}
TYPE_HINTS: Final = {
    OptionType.string: "text",
    OptionType.integer: "integer",
    OptionType.number: "number",
    OptionType.boolean: "true|false",
    OptionType.user: "@user",
    OptionType.channel: "#channel",
    OptionType.role: "@role",
    OptionType.mentionable: "@mention",
    OptionType.attachment: "file",
}


class CommandLineError(ValueError):
    """The line is not a command this tree can run; the message says why and what would work."""


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    quoted: bool  # the token started with a quote, so it is a value even if it holds a colon
    closed: bool = True  # False when the line ended inside a quote


@dataclass(frozen=True, slots=True)
class ParsedCommand:
    """One command line, resolved against the tree."""

    name: str  # the top-level command name, as in the interaction's ``data.name``
    path: tuple[str, ...]  # ("ruling",) or ("admin", "incident", "add")
    command: AnyCommand
    options: list[Json]  # Discord's option JSON, wrapped in subcommand/group options
    values: dict[str, Any]  # display name -> converted value, for the leaf command
    focused: str | None  # the focused option's display name (autocomplete only)
    guild_id: int | None  # set when the command is registered to a guild rather than globally

    @property
    def qualified_name(self) -> str:
        return " ".join(self.path)


def tokenize(text: str, *, allow_unclosed: bool = False) -> list[Token]:
    """Split on whitespace, where a quote opens a value only at the start of a token or of a value.

    ``query:"singh 2020"`` and ``"singh 2020"`` are one value each; a backslash escapes the quote
    character inside quotes. A double quote closes at the next double quote; left open, it is a
    CommandLineError (or, with ``allow_unclosed``, a value still being typed). An apostrophe is a
    letter (``O'Brien``, ``can't``, ``'tis``) unless it opens a value that a later apostrophe closes
    at the end of a word: ``query:'Speaker's ruling'`` is ``Speaker's ruling``.
    """
    tokens: list[Token] = []
    index = _skip_spaces(text, 0)
    while index < len(text):
        token, index = _read_token(text, index, allow_unclosed=allow_unclosed)
        tokens.append(token)
        index = _skip_spaces(text, index)
    return tokens


def _skip_spaces(text: str, index: int) -> int:
    while index < len(text) and text[index].isspace():
        index += 1
    return index


def _read_token(text: str, index: int, *, allow_unclosed: bool) -> tuple[Token, int]:
    """The token starting at ``index``, and the index just past it."""
    chars: list[str] = []
    quoted, closed, seen_quote = False, True, False
    while index < len(text) and not text[index].isspace():
        if not seen_quote and text[index] in QUOTES and _opens_value(chars):
            found = _read_quoted(text, index, allow_unclosed=allow_unclosed)
            if found is not None:
                value, index, closed = found
                quoted, seen_quote = not chars, True
                chars.append(value)
                continue
        chars.append(text[index])
        index += 1
    return Token("".join(chars), quoted, closed), index


def _opens_value(chars: Sequence[str]) -> bool:
    """Whether a quote here would open a value: at the token's start, or just after its first colon."""
    return not chars or (chars[-1] == ":" and ":" not in "".join(chars[:-1]))


def _read_quoted(text: str, index: int, *, allow_unclosed: bool) -> tuple[str, int, bool] | None:
    """The quoted value opened at ``index``, the index past it and whether it closed.

    None when the opening character is an apostrophe that nothing closes: then it is a letter.
    """
    quote = text[index]
    chars: list[str] = []
    position = index + 1
    while position < len(text):
        char = text[position]
        if char == "\\" and text[position + 1 : position + 2] in (quote, "\\"):
            chars.append(text[position + 1])
            position += 2
            continue
        if char == quote and (quote == '"' or _ends_word(text, position + 1)):
            return "".join(chars), position + 1, True
        chars.append(char)
        position += 1
    if quote == "'":
        return None
    if not allow_unclosed:
        raise CommandLineError(f"Unclosed {quote} quote in: {text.strip()}")
    return "".join(chars), position, False


def _ends_word(text: str, index: int) -> bool:
    return index >= len(text) or text[index].isspace()


def usage(command: AnyCommand) -> str:
    """``/incident query:<text> [year:<integer>]``; an option with fixed choices lists them:
    ``stance:<yes|no|object|...>`` (a choice of several words in quotes, as it is typed)."""
    parts = [f"/{command.qualified_name}"]
    for parameter in command.parameters:
        hint = f"{parameter.display_name}:<{_kind_hint(parameter)}>"
        parts.append(hint if parameter.required else f"[{hint}]")
    return " ".join(parts)


def _kind_hint(parameter: app_commands.Parameter) -> str:
    if parameter.choices:
        return "|".join(f'"{c.name}"' if " " in c.name else c.name for c in parameter.choices)
    return TYPE_HINTS.get(parameter.type, parameter.type.name)


def _translations(kind: str, english: str) -> set[str]:
    """What a name or choice (``kind``) reads in every language parlbot speaks, casefolded."""
    found = (command_catalogue(locale).get((kind, english)) for locale in LOCALES)
    return {english.casefold(), *(text.casefold() for text in found if text)}


def _named(items: Sequence[Any], word: str, name: Callable[[Any], str]) -> Any | None:
    """The item ``word`` names: by its own name first, else by a translation of it."""
    folded = word.casefold()
    return next((item for item in items if name(item) == folded), None) or next(
        (item for item in items if folded in _translations("name", name(item))), None
    )


def _suggest(word: str, names: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, names, n=3, cutoff=0.5)
    if close:
        return "Did you mean " + " or ".join(f"/{name}" for name in close) + "?"
    return "Known commands: " + ", ".join(f"/{name}" for name in sorted(names)) + "."


def _find_root(
    tree: AnyTree, name: str, guild: discord.abc.Snowflake | None
) -> tuple[AnyCommand | app_commands.Group, int | None]:
    chat_input = discord.AppCommandType.chat_input
    if guild is not None:
        found = tree.get_command(name, guild=guild, type=chat_input)
        if isinstance(found, app_commands.Command | app_commands.Group):
            return found, guild.id
    found = tree.get_command(name, type=chat_input)
    if isinstance(found, app_commands.Command | app_commands.Group):
        return found, None
    for scope in (guild, None) if guild is not None else (None,):
        commands = tree.get_commands(guild=scope, type=chat_input)
        translated = _named(commands, name, lambda command: command.name)
        if isinstance(translated, app_commands.Command | app_commands.Group):
            return translated, scope.id if scope is not None else None
    names = {command.name for command in tree.get_commands(type=chat_input)}
    if guild is not None:
        names |= {command.name for command in tree.get_commands(guild=guild, type=chat_input)}
    if not names:
        raise CommandLineError("This bot has no slash commands.")
    raise CommandLineError(f"Unknown command /{name}. {_suggest(name, sorted(names))}")


def _choice_value(parameter: app_commands.Parameter, raw: str) -> str | int | float | None:
    for choice in parameter.choices:
        if raw == str(choice.value) or raw.casefold() in _translations("choice", choice.name):
            return choice.value
    return None


def convert(parameter: app_commands.Parameter, raw: str, command: AnyCommand) -> str | int | float | bool:
    """``raw`` as the JSON value Discord would send for ``parameter``, or a CommandLineError."""
    where = f"option {parameter.display_name} of /{command.qualified_name}"
    if parameter.choices:
        return _choice(parameter, raw, where)
    converter = _CONVERTERS.get(parameter.type)
    if converter is None:
        raise CommandLineError(
            f"{where} takes a {parameter.type.name}, which cannot be given on a command line."
        )
    return converter(parameter, raw, where)


def _choice(parameter: app_commands.Parameter, raw: str, where: str) -> str | int | float:
    value = _choice_value(parameter, raw)
    if value is None:
        listed = ", ".join(f"{choice.name!r}" for choice in parameter.choices)
        raise CommandLineError(f"{raw!r} is not a choice for {where}; choose one of {listed}.")
    return value


def _text(parameter: app_commands.Parameter, raw: str, where: str) -> str:
    low, high = parameter.min_value, parameter.max_value
    if low is not None and len(raw) < low:
        raise CommandLineError(f"{where} needs at least {int(low)} characters, got {len(raw)}.")
    if high is not None and len(raw) > high:
        raise CommandLineError(f"{where} takes at most {int(high)} characters, got {len(raw)}.")
    return raw


def _integer(parameter: app_commands.Parameter, raw: str, where: str) -> int:
    try:
        integer = int(raw.replace("_", ""))
    except ValueError:
        raise CommandLineError(f"{raw!r} is not a whole number ({where}).") from None
    _check_range(parameter, integer, where)
    if abs(integer) > MAX_SAFE_INTEGER:
        raise CommandLineError(f"{raw} is too large for {where}.")
    return integer


def _number(parameter: app_commands.Parameter, raw: str, where: str) -> float:
    try:
        number = float(raw)
    except ValueError:
        raise CommandLineError(f"{raw!r} is not a number ({where}).") from None
    if not math.isfinite(number):
        raise CommandLineError(f"{raw!r} is not a finite number ({where}).")
    _check_range(parameter, number, where)
    return number


def _boolean(parameter: app_commands.Parameter, raw: str, where: str) -> bool:
    word = raw.casefold()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise CommandLineError(f"{raw!r} is not true or false ({where}).")


def _file_name(parameter: app_commands.Parameter, raw: str, where: str) -> str:
    return raw  # a file name; the session uploads the file and sends its attachment id


def _mention(parameter: app_commands.Parameter, raw: str, where: str) -> str:
    match = MENTION[parameter.type].fullmatch(raw)
    if match is None:
        hint = TYPE_HINTS[parameter.type]
        raise CommandLineError(f"{raw!r} is not a {hint.lstrip('@#')} mention or id ({where}).")
    return match.group(1) or match.group(2)


# How a command line's text becomes each option type's JSON value (``where`` names the option).
_Converter = Callable[[app_commands.Parameter, str, str], str | int | float | bool]
_CONVERTERS: Final[Mapping[OptionType, _Converter]] = {
    OptionType.string: _text,
    OptionType.integer: _integer,
    OptionType.number: _number,
    OptionType.boolean: _boolean,
    OptionType.attachment: _file_name,
    **dict.fromkeys(MENTION, _mention),
}


def _check_range(parameter: app_commands.Parameter, value: float, where: str) -> None:
    if parameter.min_value is not None and value < parameter.min_value:
        raise CommandLineError(f"{where} must be at least {parameter.min_value}, got {value}.")
    if parameter.max_value is not None and value > parameter.max_value:
        raise CommandLineError(f"{where} must be at most {parameter.max_value}, got {value}.")


def parse(
    line: str,
    tree: AnyTree,
    *,
    guild: discord.abc.Snowflake | None = None,
    focus_last: bool = False,
) -> ParsedCommand:
    """Resolve ``line`` against ``tree`` into Discord's interaction option JSON.

    With ``focus_last`` (autocomplete) the last option typed is marked ``focused`` and may be
    partial or empty (``/incident query:`` or ``/incident query:sin``); required options may be
    missing, as they are while someone is still typing.
    """
    head, rest = _split_line(line, allow_unclosed=focus_last)
    root, guild_id = _find_root(tree, head.text.lower(), guild)
    command, path, rest = _find_leaf(root, rest)
    raw, last = _raw_values(command, rest)
    focused: str | None = None
    if focus_last:
        focused = _focus(command, raw, last)
    else:
        _require_options(command, raw)
    leaves, values = _leaf_options(command, raw, focused)
    return ParsedCommand(
        name=path[0],
        path=path,
        command=command,
        options=_wrap(path, leaves),
        values=values,
        focused=focused,
        guild_id=guild_id,
    )


def _split_line(line: str, *, allow_unclosed: bool) -> tuple[Token, list[Token]]:
    """The command name token and the tokens after it."""
    text = line.strip()
    if not text.startswith("/"):
        raise CommandLineError(f"Commands start with '/', e.g. /incident query:singh (got {text!r}).")
    tokens = tokenize(text[1:], allow_unclosed=allow_unclosed)
    if not tokens or not tokens[0].text:
        raise CommandLineError("Type a command name after '/', e.g. /incident query:singh.")
    head, rest = tokens[0], tokens[1:]
    if head.quoted or not OPTION_NAME.fullmatch(head.text):
        raise CommandLineError(f"{head.text!r} is not a command name.")
    return head, rest


def _find_leaf(
    node: AnyCommand | app_commands.Group, rest: list[Token]
) -> tuple[AnyCommand, tuple[str, ...], list[Token]]:
    """Follow subcommand words down from ``node``: the command, its name path and the tokens left."""
    path = [node.name]
    while isinstance(node, app_commands.Group):
        subcommands = sorted(child.name for child in node.commands)
        if not rest or rest[0].quoted or ":" in rest[0].text:
            raise CommandLineError(f"/{node.qualified_name} needs a subcommand: {', '.join(subcommands)}.")
        word = rest[0].text.lower()
        child = _named(node.commands, word, lambda command: command.name)
        if child is None:
            close = difflib.get_close_matches(word, subcommands, n=1, cutoff=0.5)
            hint = f" Did you mean {close[0]}?" if close else ""
            raise CommandLineError(
                f"/{node.qualified_name} has no subcommand {word!r}.{hint} "
                f"Subcommands: {', '.join(subcommands)}."
            )
        node, rest = child, rest[1:]
        path.append(node.name)
    return node, tuple(path), rest


def _raw_values(command: AnyCommand, tokens: Sequence[Token]) -> tuple[dict[str, str], str | None]:
    """Each given option's text by display name, and the option the last token gave a value to.

    ``name:value`` tokens name their option. The words after a text option's value are more of it
    (``query:i will not`` is "i will not"), a ``name:`` that names no option among them too
    (``query:chamber:uk year:2016`` is one /search query with two filters); other bare words
    together fill the first unfilled required option (else the first unfilled one): those before any
    ``name:``, and those after an option that takes one word (an integer, a choice, a mention, ...).
    """
    words: dict[str, list[str]] = {}
    bare: list[Token] = []
    last: str | None = None
    current: str | None = None  # the text option that free words are still being added to
    for token in tokens:
        name, sep, value = token.text.partition(":")
        names = sep and not token.quoted and OPTION_NAME.fullmatch(name)
        if names and (current is None or _is_option(command, name)):
            last = _option_key(command, name, words)
            words[last] = [value]
            current = last if _takes_free_text(command, last) else None
        elif current is not None:
            words[current].append(token.text)
            last = current
        else:
            bare.append(token)
            last = None
    raw = {key: " ".join(part for part in parts if part) for key, parts in words.items()}
    if bare:
        target = _bare_target(command, raw, bare)
        raw[target] = " ".join(token.text for token in bare)
        last = last or target
    return raw, last


def _parameter(command: AnyCommand, name: str) -> app_commands.Parameter | None:
    found: app_commands.Parameter | None = _named(command.parameters, name, lambda p: p.display_name)
    return found


def _is_option(command: AnyCommand, name: str) -> bool:
    return _parameter(command, name) is not None


def _takes_free_text(command: AnyCommand, name: str) -> bool:
    """Whether option ``name`` takes text of any words (a string with no choices)."""
    parameter = next(p for p in command.parameters if p.display_name == name)
    return parameter.type is OptionType.string and not parameter.choices


def _option_key(command: AnyCommand, name: str, given: Collection[str]) -> str:
    """The option ``name:`` names, checked to exist and not to be given twice."""
    parameter = _parameter(command, name)
    names = [parameter.display_name for parameter in command.parameters]
    if parameter is None:
        valid = ", ".join(names) or "none"
        raise CommandLineError(
            f"/{command.qualified_name} has no option {name!r}. Options: {valid}. Usage: {usage(command)}"
        )
    key = parameter.display_name
    if key in given:
        raise CommandLineError(f"Option {key} is given twice.")
    return key


def _bare_target(command: AnyCommand, given: Mapping[str, str], bare: Sequence[Token]) -> str:
    """The option bare tokens fill: the first unfilled required one, else the first unfilled one."""
    unfilled = [p for p in command.parameters if p.display_name not in given]
    target = next((p for p in unfilled if p.required), unfilled[0] if unfilled else None)
    if target is None:
        extra = " ".join(token.text for token in bare)
        raise CommandLineError(
            f"Every option of /{command.qualified_name} is already given; {extra!r} is left over."
        )
    if len(bare) > 1 and target.type is not OptionType.string:
        raise CommandLineError(
            f"Only one bare value fits {target.display_name}; name the others. Usage: {usage(command)}"
        )
    return target.display_name


def _focus(command: AnyCommand, raw: dict[str, str], last: str | None) -> str:
    """The option autocomplete asks about: the last one typed, or an empty first one on a bare line."""
    if last is None and not raw and command.parameters:
        last = command.parameters[0].display_name
        raw[last] = ""
    if last is None:
        raise CommandLineError("Nothing to complete: end the line with an option, e.g. query:")
    return last


def _require_options(command: AnyCommand, raw: Mapping[str, str]) -> None:
    missing = [p.display_name for p in command.parameters if p.required and p.display_name not in raw]
    if missing:
        raise CommandLineError(
            f"Missing required option{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            f"for /{command.qualified_name}. Usage: {usage(command)}"
        )


def _leaf_options(
    command: AnyCommand, raw: Mapping[str, str], focused: str | None
) -> tuple[list[Json], dict[str, Any]]:
    """The leaf command's option JSON in parameter order, and the converted values by display name."""
    values: dict[str, Any] = {}
    leaves: list[Json] = []
    for parameter in command.parameters:
        name = parameter.display_name
        if name not in raw:
            continue
        option: Json = {"name": name, "type": parameter.type.value}
        if name == focused:
            option["value"] = raw[name]
            option["focused"] = True
            values[name] = raw[name]
        else:
            values[name] = option["value"] = convert(parameter, raw[name], command)
        leaves.append(option)
    return leaves, values


def _wrap(path: Sequence[str], leaves: list[Json]) -> list[Json]:
    """The leaf options inside their subcommand (and group) options, as Discord nests them."""
    if len(path) == 3:
        return [{"type": 2, "name": path[1], "options": [{"type": 1, "name": path[2], "options": leaves}]}]
    if len(path) == 2:
        return [{"type": 1, "name": path[1], "options": leaves}]
    return leaves
