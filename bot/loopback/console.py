"""``parlbot console``: one offline bot, driven a line at a time, for flows that take several steps.

    /incident 2016            a slash command, written as for ``parlbot ask``
    press 2                   click the 2nd button (or select option) of the last reply
    press dodgy               ... or the one whose label starts with, or has a word starting with, "dodgy"
    submit topic:"a title"    fill in the form (modal) the bot opened last and send it
    as 42 --moderator         from now on, member 42 (with Manage Server) asks, in the same guild
    as 43 --name alice        ... or member 43, whose name is alice (a class of students, say)

Answers print as ``parlbot ask`` prints them (``bot.transcript``). A bad line is explained on stderr and
the console reads on. Each line runs to completion on one event loop kept between lines
(``asyncio.Runner``); the next line is read while the loop is idle, so Ctrl-C at the prompt ends the
console at once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import difflib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Final, NoReturn, TextIO

from bot.loopback.commandline import OPTION_NAME, CommandLineError, tokenize
from bot.loopback.payloads import Json
from bot.loopback.rest import RecordedRequest
from bot.loopback.session import InteractionHangs, ModalField, OfflineSession, modal_fields, modals
from bot.loopback.transcript import Pressable, check_answer, pressables, print_answer
from bot.search.text import fold

PROMPT: Final = "parlbot> "
QUIT: Final = frozenset({"quit", "exit"})
HELP: Final = """\
Console commands (one a line; EOF or quit ends):
  /command option:value ...   run a slash command, written as for `parlbot ask`
  press LABEL | press N       click a button or choose a select option of the last reply: the N-th
                              (counting from 1, in printed order), or by label (case-insensitive;
                              a unique start of the label or of one of its words is enough); a
                              press answered with nothing to press (a private receipt) leaves the
                              buttons pressed the ones the next press acts on
  submit field:value ...      fill in and send the form the bot opened last; fields are named by
                              custom_id or label; the words after a value are more of it, as in
                              /command lines (topic:two words), and a quoted value may hold a colon
  as USER [--moderator] [--roles ID,...] [--locale LOCALE] [--name NAME]
                              from now on USER (an id) asks, in the same guild; --moderator gives
                              Manage Server, --roles the ids of the roles the member holds,
                              --locale their Discord locale (fr answers in French; default: as before),
                              --name their user name (shown as their display name, capitalized)
  help                        this list
  quit                        end the console (so does end of input)
Lines starting with # are comments."""


def snowflake(text: str) -> int:
    """A Discord id typed on the command line (an ``argparse`` type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a Discord id (a number)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a Discord id (a positive number)")
    return value


def role_ids(text: str) -> tuple[int, ...]:
    """Comma-separated role ids, e.g. ``1,2`` (an ``argparse`` type)."""
    return tuple(snowflake(part.strip()) for part in text.split(",") if part.strip())


def add_member_arguments(parser: argparse.ArgumentParser) -> None:
    """``--moderator`` and ``--roles``: what the asking member holds in the guild."""
    parser.add_argument("--moderator", action="store_true", help="the member asking holds Manage Server")
    parser.add_argument(
        "--roles", type=role_ids, default=(), metavar="ID,...", help="ids of the roles the member holds"
    )


class _LineParser(argparse.ArgumentParser):
    """An argument parser for one console line: a mistake raises instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(f"{message}. Usage: {self.format_usage().removeprefix('usage: ').strip()}")


def _as_parser() -> _LineParser:
    parser = _LineParser(prog="as", add_help=False)
    parser.add_argument("user", metavar="USER", type=snowflake)
    add_member_arguments(parser)
    parser.add_argument("--locale", help="the member's Discord locale")
    parser.add_argument("--name", default=None, metavar="NAME", help="the member's user name")
    return parser


def choose(items: Sequence[Pressable], wanted: str) -> Pressable:
    """The item ``wanted`` names: a 1-based number, else the label, its start, or a word's start."""
    if not items:
        raise CommandLineError("The last reply has no buttons or options to press.")
    listing = ", ".join(f"{number} {item}" for number, item in enumerate(items, 1))
    if wanted.isdigit():
        if 1 <= int(wanted) <= len(items):
            return items[int(wanted) - 1]
        raise CommandLineError(f"There is no button {wanted}; the last reply has {len(items)}: {listing}.")
    key = fold(wanted)
    numbered = [(number, item, fold(item.label)) for number, item in enumerate(items, 1)]
    for matches in (
        [(n, item) for n, item, label in numbered if label == key],
        [(n, item) for n, item, label in numbered if label.startswith(key)],
        [(n, item) for n, item, label in numbered if f" {key}" in f" {label}"],
    ):
        if len(matches) == 1:
            return matches[0][1]
        if matches:
            which = ", ".join(f"{number} {item}" for number, item in matches)
            raise CommandLineError(
                f"{wanted!r} matches {len(matches)} buttons: {which}. Type more of the label, or its number."
            )
    raise CommandLineError(f"No button of the last reply matches {wanted!r}. It has: {listing}.")


def find_field(fields: Sequence[ModalField], name: str) -> ModalField:
    """The text input ``name`` means: by custom_id, or by custom_id or label once both are folded."""
    exact = [field for field in fields if field.custom_id == name]
    folded = [field for field in fields if fold(name) in (fold(field.custom_id), fold(field.label))]
    for matches in (exact, folded):
        if len(matches) == 1:
            return matches[0]
    names = ", ".join(f"{field.custom_id} ({field.label})" for field in fields)
    problem = "names more than one field" if folded else "is not a field of this form"
    raise CommandLineError(f"{name!r} {problem}. Fields: {names}.")


class Console:
    """Runs console lines against one session, remembering the last reply and the open modal."""

    def __init__(self, session: OfflineSession, *, out: TextIO, err: TextIO, json_lines: bool) -> None:
        self.session = session
        self.invoker = session.invoker
        self.out = out
        self.err = err
        self.json_lines = json_lines
        self.last_reply: int | None = None  # the stored message ``press`` acts on
        self.open_modal: Json | None = None
        self.modal_origin: Json | None = None  # the message whose component opened the modal
        self.verbs: dict[str, Callable[[str], Awaitable[None]]] = {
            "press": self.press,
            "submit": self.submit,
            "as": self.act_as,
            "help": self.help,
        }

    def say(self, text: str) -> None:
        """A note for the person: with JSON lines it goes to stderr, keeping stdout machine-readable."""
        print(text, file=self.err if self.json_lines else self.out)

    async def handle(self, line: str) -> bool:
        """Run one line; ``False`` once the console should end. Problems are explained on stderr."""
        text = line.strip()
        verb, _, rest = text.partition(" ")
        if verb.lower() in QUIT:
            return False
        try:
            if text.startswith("/"):
                self.show(await self.session.invoke(text, invoker=self.invoker))
            elif text and not text.startswith("#"):
                await self.verb_named(verb.lower())(rest.strip())
        except CommandLineError as error:
            print(f"parlbot: {error}", file=self.err)
        except InteractionHangs as error:
            print(f"parlbot: the bot hangs: {error}", file=self.err)
        except Exception as error:  # the bot's own failure must not end the console
            print(f"parlbot: the bot failed while answering: {type(error).__name__}: {error}", file=self.err)
        return True

    def verb_named(self, verb: str) -> Callable[[str], Awaitable[None]]:
        if verb in self.verbs:
            return self.verbs[verb]
        close = difflib.get_close_matches(verb, [*self.verbs, *QUIT], n=1)
        hint = f" Did you mean {close[0]}?" if close else ""
        raise CommandLineError(
            f"Unknown console command {verb!r}.{hint} Slash commands start with '/'; "
            "type help for the console's own commands."
        )

    def show(self, requests: Sequence[RecordedRequest], *, origin: Json | None = None) -> None:
        """Print an answer and remember what it left: the newest message, and a modal it opened."""
        print_answer(requests, self.out, json_lines=self.json_lines, end="\n\n")
        check_answer(requests, self.err)
        replies = self.session.fake.answers(requests[0].token or "") if requests else []
        if replies:
            self.last_reply = int(replies[-1]["id"])
        opened = modals(requests)
        if opened:
            self.open_modal, self.modal_origin = opened[-1], origin

    async def press(self, wanted: str) -> None:
        message = self.session.fake.messages.get(self.last_reply) if self.last_reply is not None else None
        if message is None:
            raise CommandLineError("Nothing to press yet: run a slash command first.")
        if not wanted:
            raise CommandLineError("Press what? Give a button's label or number, e.g. press 1.")
        item = choose(pressables(message), wanted)
        if item.url:
            raise CommandLineError(f"{item} is a link; open it in a browser.")
        if item.disabled:
            raise CommandLineError(f"{item} is disabled.")
        if item.custom_id is None:
            raise CommandLineError(f"{item} has no custom_id, so it sends the bot nothing.")
        values = () if item.value is None else (item.value,)
        requests = await self.session.press(item.custom_id, message, values=values, invoker=self.invoker)
        self.show(requests, origin=message)
        answered = self.session.fake.answers(requests[0].token or "") if requests else []
        if not any(pressables(reply) for reply in answered):
            self.last_reply = int(message["id"])  # the next press is on these buttons again

    async def submit(self, rest: str) -> None:
        if self.open_modal is None:
            raise CommandLineError("No form is open; submit fills in the form (modal) the bot opened last.")
        fields = modal_fields(self.open_modal)
        words: dict[str, list[str]] = {}
        current: list[str] | None = None  # the field that unquoted words are still being added to
        for token in tokenize(rest):
            name, colon, value = token.text.partition(":")
            if colon and not token.quoted and OPTION_NAME.fullmatch(name):
                custom_id = find_field(fields, name).custom_id
                if custom_id in words:
                    raise CommandLineError(f"Field {name} is given twice.")
                current = words[custom_id] = [value]
            elif current is not None:
                current.append(token.text)
            else:
                raise CommandLineError(f"Write each field as name:value, not {token.text!r}.")
        values = {custom_id: " ".join(part for part in parts if part) for custom_id, parts in words.items()}
        requests = await self.session.submit(
            str(self.open_modal["custom_id"]), values, message=self.modal_origin, invoker=self.invoker
        )
        self.open_modal = self.modal_origin = None  # Discord closes the form once it is sent
        self.show(requests)

    async def act_as(self, rest: str) -> None:
        member = _as_parser().parse_args(rest.split())
        self.invoker = replace(
            self.invoker,
            user_id=member.user,
            moderator=member.moderator,
            extra_roles=member.roles,
            locale=member.locale or self.invoker.locale,
            username=member.name or self.session.invoker.username,
        )
        holds = [*(["Manage Server"] if member.moderator else []), *(f"role {r}" for r in member.roles)]
        holds.append(f"locale {self.invoker.locale}")
        named = f" ({member.name})" if member.name else ""
        self.say(f"Now asking as user {member.user}{named} ({', '.join(holds)}).")

    async def help(self, _rest: str) -> None:
        self.say(HELP)


def _read(lines: TextIO, interactive: bool) -> str | None:
    """The next line, or ``None`` at the end of input."""
    if not interactive:
        return lines.readline() or None
    try:
        return input(PROMPT)
    except EOFError:
        print()  # the shell's prompt then starts on a line of its own
        return None


def run_console(
    session: OfflineSession, lines: TextIO, *, out: TextIO, err: TextIO, json_lines: bool
) -> None:
    """Log ``session`` in, run every line of ``lines`` through a ``Console``, then log out.

    The prompt appears only when ``lines`` is a terminal, so piped scripts print answers alone.
    """
    interactive = lines.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  # line editing and history for input()
    console = Console(session, out=out, err=err, json_lines=json_lines)
    with asyncio.Runner() as runner:
        runner.run(session.__aenter__())
        try:
            while (line := _read(lines, interactive)) is not None and runner.run(console.handle(line)):
                out.flush()  # a program driving the console through a pipe sees each answer at once
        except KeyboardInterrupt:
            print(file=err)  # Ctrl-C ends the console like quit
        finally:
            runner.run(session.__aexit__(None, None, None))
