"""Properties that hold for any input (Hypothesis): folding, rendering within Discord's limits and
defused, and the command-line parser reading back what a line says.

Examples come from ``tests.strategies`` (hostile text and the views built from it); how many per test
is the profile ``tests/conftest.py`` loads.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from discord import AppCommandOptionType as OptionType
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.answers import render
from bot.answers.glossary import term_reply
from bot.answers.queries import IncidentDetail, PersonDetail, QuoteView, RulingView, TermDetail
from bot.loopback.commandline import CommandLineError, parse
from bot.loopback.rest import validate_message
from bot.messages.catalogue import LOCALES, speaking
from bot.search.text import fold
from tests.discord_harness import assert_defused
from tests.strategies import hostile_text, of_type

# -- folding (bot.search.text.fold) -------------------------------------------------------------------


@given(st.text())
def test_folded_text_folds_to_itself(text: str) -> None:
    assert fold(fold(text)) == fold(text)


def test_a_compatibility_character_that_decomposes_to_a_capital_folds_to_its_small_letter() -> None:
    assert fold("ϒ") == fold("Υ") == "υ"


@given(st.text())
def test_folded_text_has_nothing_left_to_casefold_and_no_accent(text: str) -> None:
    # Casefolded rather than lower case: Unicode folds Cherokee to its capitals.
    folded = fold(text)
    assert folded.casefold() == folded
    assert not any(unicodedata.combining(char) for char in folded)


@given(st.text())
def test_folded_text_is_words_of_letters_and_digits_one_space_apart(text: str) -> None:
    folded = fold(text)
    assert all(word and all(char.isalnum() for char in word) for word in folded.split(" ") if folded)
    assert folded == folded.strip()


# -- rendering (bot.answers.render): within Discord's limits and defused -------------------------------


def body_of(reply: render.Reply) -> dict[str, Any]:
    """``reply`` as the message body a cog sends: its buttons in rows of five, as ``cogs.common`` lays
    them (which keeps to 25 and to custom ids that fit: ids are not the renderer's to check)."""
    shown = [{"type": 2, "style": 2, "label": b.label, "custom_id": "x"} for b in reply.buttons[:25]]
    rows = [{"type": 1, "components": shown[start : start + 5]} for start in range(0, len(shown), 5)]
    return {"content": reply.content, "embeds": list(reply.embeds), "components": rows}


def choices() -> st.SearchStrategy[list[render.Choice]]:
    return st.lists(st.builds(render.Choice, hostile_text(), st.sampled_from(render.Action), st.text()))


RENDERERS: list[tuple[str, st.SearchStrategy[Callable[[], render.Reply]]]] = [
    ("incident", of_type(IncidentDetail).map(lambda d: lambda: render.incident_reply(d))),
    ("who objected", of_type(IncidentDetail).map(lambda d: lambda: render.who_objected_reply(d))),
    ("sources", of_type(IncidentDetail).map(lambda d: lambda: render.sources_reply(d))),
    ("quote", of_type(QuoteView).map(lambda q: lambda: render.quote_reply(q))),
    (
        "quotes",
        st.tuples(hostile_text(), of_type(tuple[QuoteView, ...])).map(
            lambda pair: lambda: render.quotes_reply(pair[0], pair[1])
        ),
    ),
    (
        "rulings",
        st.lists(of_type(RulingView), min_size=1, max_size=3).map(lambda r: lambda: render.rulings_reply(r)),
    ),
    ("person", of_type(PersonDetail).map(lambda p: lambda: render.person_reply(p))),
    ("term", of_type(TermDetail).map(lambda t: lambda: term_reply(t))),
    (
        "did you mean",
        st.tuples(hostile_text(), choices()).map(lambda pair: lambda: render.did_you_mean_reply(*pair)),
    ),
    (
        "no match",
        st.tuples(hostile_text(), hostile_text(), choices()).map(lambda t: lambda: render.no_match_reply(*t)),
    ),
    (
        "search page",
        st.tuples(hostile_text(), choices(), st.integers(-2, 40)).map(
            lambda t: lambda: render.search_page_reply(t[0], t[1], page=t[2])
        ),
    ),
]


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.one_of(*(strategy for _, strategy in RENDERERS)), st.sampled_from(LOCALES))
def test_every_reply_fits_discords_limits_and_is_defused(
    render_it: Callable[[], render.Reply], locale: str
) -> None:
    with speaking(locale):
        body = body_of(render_it())
    assert validate_message(body) == []
    assert_defused(body)


# -- the command-line parser (bot.loopback.commandline) ------------------------------------------------


def typed(value: str) -> str:
    """``value`` as one quoted token of a command line (its quotes and backslashes escaped)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def option_value(parameter: app_commands.Parameter) -> st.SearchStrategy[tuple[str, Any]]:
    """(what is typed, the value Discord would send) for ``parameter``, of any value its type allows."""
    if parameter.choices:
        return st.sampled_from(parameter.choices).map(lambda choice: (typed(choice.name), choice.value))
    kind, low, high = parameter.type, parameter.min_value, parameter.max_value
    if kind is OptionType.integer:
        fitting = st.integers(None if low is None else int(low), None if high is None else int(high))
        return st.one_of(fitting, st.integers(-(2**63), 2**63)).map(lambda n: (str(n), n))
    if kind is OptionType.number:
        return st.floats().map(lambda x: (repr(x), x))
    if kind is OptionType.boolean:
        return st.booleans().map(lambda b: (str(b).lower(), b))
    if kind in (OptionType.user, OptionType.role, OptionType.channel, OptionType.mentionable):
        prefix = {OptionType.channel: "<#", OptionType.role: "<@&"}.get(kind, "<@")
        return st.integers(0, 2**64).map(lambda n: (f"{prefix}{n}>", str(n)))
    fitting = st.text(min_size=int(low or 0), max_size=int(high or 100))
    return st.one_of(fitting, hostile_text()).map(lambda text: (typed(text), text))  # attachments' names too


def leaves(tree: app_commands.CommandTree[Any], guild: Any) -> list[app_commands.Command[Any, ..., Any]]:
    commands = [*tree.get_commands(), *tree.get_commands(guild=guild)]
    found: list[app_commands.Command[Any, ..., Any]] = []
    while commands:
        command = commands.pop()
        if isinstance(command, app_commands.Group):
            commands += command.commands
        elif isinstance(command, app_commands.Command):
            found.append(command)
    return sorted(found, key=lambda command: command.qualified_name)


@st.composite
def command_lines(
    draw: st.DrawFn, tree: app_commands.CommandTree[Any], guild: Any
) -> tuple[str, dict[str, Any]]:
    """A command line giving every required option of a command and some of the others, and the values
    it gives them."""
    command = draw(st.sampled_from(leaves(tree, guild)))
    given_values: dict[str, Any] = {}
    words = [f"/{command.qualified_name}"]
    for parameter in command.parameters:
        if parameter.required or draw(st.booleans()):
            text, value = draw(option_value(parameter))
            words.append(f"{parameter.display_name}:{text}")
            given_values[parameter.display_name] = value
    return " ".join(words), given_values


async def test_a_command_line_reads_back_the_values_it_gives_or_is_refused_in_its_own_words(
    discord_session,
) -> None:
    tree, guild = discord_session.bot.tree, discord_session.guild

    @settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(command_lines(tree, guild))
    def reads_back(line_and_values: tuple[str, dict[str, Any]]) -> None:
        line, meant = line_and_values
        try:
            read = parse(line, tree, guild=guild).values
        except CommandLineError:
            return  # a value out of range or too long, refused as the parser words it
        assert read == meant, line

    reads_back()
