"""Parsing slash command lines, as typed in Discord, against a CommandTree."""

from __future__ import annotations

from typing import Any, Literal

import discord
import pytest
from discord import app_commands

from bot.loopback.commandline import CommandLineError, parse, tokenize, usage
from bot.loopback.session import OfflineSession

GUILD = discord.Object(id=1246000000000000100)


def build_tree() -> app_commands.CommandTree[discord.Client]:
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )

    @tree.command(description="Look up an incident")
    async def incident(
        interaction: discord.Interaction, query: str, year: app_commands.Range[int, 1867, 2100] | None = None
    ) -> None: ...

    @tree.command(description="Say something")
    async def echo(
        interaction: discord.Interaction, text: str, loud: bool = False, ratio: float = 1.0
    ) -> None: ...

    @tree.command(description="Pick a shade")
    async def colour(interaction: discord.Interaction, shade: Literal["light", "dark"]) -> None: ...

    @tree.command(name="who-objected", description="Who objected")
    async def who_objected(interaction: discord.Interaction, query: str) -> None: ...

    admin = app_commands.Group(name="admin", description="Moderator tools")
    entries = app_commands.Group(name="entries", description="Entries", parent=admin)

    @admin.command(description="Mark a member")
    async def mark(
        interaction: discord.Interaction,
        member: discord.Member,
        where: discord.TextChannel,
        reason: str = "none",
    ) -> None: ...

    @entries.command(description="Add an entry")
    async def add(interaction: discord.Interaction, slug: str) -> None: ...

    tree.add_command(admin)

    @tree.command(description="Guild only", guild=GUILD)
    async def local(interaction: discord.Interaction, note: str) -> None: ...

    return tree


@pytest.fixture(scope="module")
def tree() -> app_commands.CommandTree[discord.Client]:
    return build_tree()


def options_of(line: str, tree: app_commands.CommandTree[Any], **kwargs: Any) -> list[dict[str, Any]]:
    return parse(line, tree, **kwargs).options


def test_a_named_option_becomes_discords_option_json(tree: app_commands.CommandTree[Any]) -> None:
    assert options_of("/echo text:hi", tree) == [{"name": "text", "type": 3, "value": "hi"}]


@pytest.mark.parametrize("line", ['/echo text:"two words"', "/echo text:'two words'", '/echo "two words"'])
def test_quotes_keep_a_value_with_spaces_together(tree: app_commands.CommandTree[Any], line: str) -> None:
    parsed = parse(line, tree)

    assert parsed.values["text"] == "two words"


def test_a_token_that_begins_with_a_quote_is_a_value_even_with_a_colon(
    tree: app_commands.CommandTree[Any],
) -> None:
    assert parse('/echo "text:hi"', tree).values == {"text": "text:hi"}


def test_an_apostrophe_inside_a_word_is_just_a_letter(tree: app_commands.CommandTree[Any]) -> None:
    assert parse("/echo text:O'Brien", tree).values == {"text": "O'Brien"}


def test_a_quoted_value_may_contain_escaped_quotes(tree: app_commands.CommandTree[Any]) -> None:
    assert parse(r'/echo text:"say \"no\""', tree).values == {"text": 'say "no"'}


def test_bare_words_fill_the_first_required_option(tree: app_commands.CommandTree[Any]) -> None:
    assert options_of("/incident singh 2020", tree) == [{"name": "query", "type": 3, "value": "singh 2020"}]


def test_bare_words_and_named_options_mix(tree: app_commands.CommandTree[Any]) -> None:
    assert parse("/incident singh year:2020", tree).values == {"query": "singh", "year": 2020}


def test_a_command_name_with_a_hyphen_is_found(tree: app_commands.CommandTree[Any]) -> None:
    parsed = parse("/who-objected singh-2020", tree)

    assert (parsed.name, parsed.values) == ("who-objected", {"query": "singh-2020"})


def test_integers_numbers_and_booleans_are_converted(tree: app_commands.CommandTree[Any]) -> None:
    options = options_of("/echo text:x loud:yes ratio:0.5", tree)

    assert options == [
        {"name": "text", "type": 3, "value": "x"},
        {"name": "loud", "type": 5, "value": True},
        {"name": "ratio", "type": 10, "value": 0.5},
    ]


def test_a_choice_is_accepted_by_name_and_sent_as_its_value(tree: app_commands.CommandTree[Any]) -> None:
    assert parse("/colour shade:Dark", tree).values == {"shade": "dark"}


def test_a_value_that_is_not_a_choice_lists_the_choices(tree: app_commands.CommandTree[Any]) -> None:
    with pytest.raises(CommandLineError, match=r"'light', 'dark'"):
        parse("/colour shade:purple", tree)


def test_a_subcommand_is_wrapped_with_mentions_and_channels_as_ids(
    tree: app_commands.CommandTree[Any],
) -> None:
    parsed = parse("/admin mark member:<@!1234> where:<#5678> reason:spam", tree)

    assert parsed.path == ("admin", "mark")
    assert parsed.options == [
        {
            "type": 1,
            "name": "mark",
            "options": [
                {"name": "member", "type": 6, "value": "1234"},
                {"name": "where", "type": 7, "value": "5678"},
                {"name": "reason", "type": 3, "value": "spam"},
            ],
        }
    ]


def test_a_subcommand_in_a_group_is_wrapped_twice(tree: app_commands.CommandTree[Any]) -> None:
    parsed = parse("/admin entries add slug:singh-2020", tree)

    assert parsed.options == [
        {
            "type": 2,
            "name": "entries",
            "options": [
                {"type": 1, "name": "add", "options": [{"name": "slug", "type": 3, "value": "singh-2020"}]}
            ],
        }
    ]


def test_a_guild_command_is_found_in_its_guild_and_says_so(tree: app_commands.CommandTree[Any]) -> None:
    parsed = parse("/local note:hi", tree, guild=GUILD)

    assert parsed.guild_id == GUILD.id


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("incident singh", r"start with '/'"),
        ("/", r"Type a command name"),
        ("/incidnt singh", r"Unknown command /incidnt\. Did you mean /incident\?"),
        ("/zzzzzz", r"Known commands: .*/echo.*/incident"),
        ("/local note:hi", r"Unknown command /local"),  # not without its guild
        ("/incident singh colour:red", r"no option 'colour'\. Options: query, year\."),
        (
            "/incident",
            r"Missing required option query for /incident\. Usage: /incident query:<text> \[year:<integer>\]",
        ),
        ("/incident query:x year:abc", r"'abc' is not a whole number"),
        ("/incident query:x year:1200", r"must be at least 1867"),
        ("/echo text:x loud:maybe", r"'maybe' is not true or false"),
        ("/echo text:x ratio:lots", r"'lots' is not a number"),
        ("/echo text:a text:b", r"Option text is given twice"),
        ('/echo text:"unfinished', r'Unclosed " quote'),
        ("/admin", r"/admin needs a subcommand: entries, mark"),
        ("/admin mrk", r"no subcommand 'mrk'\. Did you mean mark\?"),
        ("/admin mark member:someone where:<#1>", r"'someone' is not a user mention or id"),
        ("/echo 1 2 text:x", r"Only one bare value fits loud; name the others"),
        ("/colour shade:dark extra", r"Every option of /colour is already given; 'extra' is left over"),
    ],
)
def test_a_malformed_line_is_explained(tree: app_commands.CommandTree[Any], line: str, message: str) -> None:
    with pytest.raises(CommandLineError, match=message):
        parse(line, tree)


def test_focus_last_marks_an_empty_option_being_typed(tree: app_commands.CommandTree[Any]) -> None:
    parsed = parse("/incident query:", tree, focus_last=True)

    assert parsed.options == [{"name": "query", "type": 3, "value": "", "focused": True}]
    assert parsed.focused == "query"


def test_focus_last_keeps_a_partial_value_unconverted(tree: app_commands.CommandTree[Any]) -> None:
    parsed = parse("/incident query:singh year:20", tree, focus_last=True)

    assert parsed.options == [
        {"name": "query", "type": 3, "value": "singh"},
        {"name": "year", "type": 4, "value": "20", "focused": True},
    ]


def test_focus_last_on_a_bare_command_focuses_its_first_option(tree: app_commands.CommandTree[Any]) -> None:
    assert options_of("/incident", tree, focus_last=True) == [
        {"name": "query", "type": 3, "value": "", "focused": True}
    ]


def test_focus_last_accepts_a_quote_still_open(tree: app_commands.CommandTree[Any]) -> None:
    parsed = parse('/incident query:"singh ja', tree, focus_last=True)

    assert parsed.values == {"query": "singh ja"}


def test_focus_last_on_bare_words_focuses_the_option_they_fill(tree: app_commands.CommandTree[Any]) -> None:
    assert parse("/incident sin", tree, focus_last=True).focused == "query"


def test_tokenize_marks_tokens_that_began_with_a_quote() -> None:
    assert [(t.text, t.quoted) for t in tokenize('a:"b c" "d:e" f')] == [
        ("a:b c", False),
        ("d:e", True),
        ("f", False),
    ]


def test_usage_shows_required_and_optional_options(tree: app_commands.CommandTree[Any]) -> None:
    command = tree.get_command("echo")
    assert isinstance(command, app_commands.Command)

    assert usage(command) == "/echo text:<text> [loud:<true|false>] [ratio:<number>]"


def test_usage_lists_the_choices_of_an_option_that_has_them(tree: app_commands.CommandTree[Any]) -> None:
    command = tree.get_command("colour")
    assert isinstance(command, app_commands.Command)

    assert usage(command) == "/colour shade:<light|dark>"


async def test_a_choice_of_several_words_is_listed_as_it_is_typed(discord_session: OfflineSession) -> None:
    with pytest.raises(CommandLineError) as refused:
        discord_session.parse("/add position incident:singh-2020 motion:1 stance:object")
    assert 'attribution:<recorded|"self acknowledged"|"news reported"|inferred>' in str(refused.value)
    parsed = discord_session.parse(
        '/add position incident:singh-2020 motion:1 stance:object attribution:"self acknowledged"'
    )
    assert parsed.values["attribution"] == "self_acknowledged"


async def test_the_real_bots_commands_parse_from_its_own_tree(discord_session: OfflineSession) -> None:
    parsed = discord_session.parse("/who-objected singh 2020")

    assert parsed.name == "who-objected"
    assert parsed.options == [{"name": "query", "type": 3, "value": "singh 2020"}]


def test_a_name_that_is_no_option_inside_a_text_value_is_part_of_it(
    tree: app_commands.CommandTree[Any],
) -> None:
    parsed = parse("/incident query:chamber:uk kind:naming year:2016", tree)

    assert parsed.options == [
        {"name": "query", "type": 3, "value": "chamber:uk kind:naming"},
        {"name": "year", "type": 4, "value": 2016},
    ]


@pytest.mark.parametrize("focus_last", [False, True])
def test_the_words_after_a_text_option_are_all_its_value(
    tree: app_commands.CommandTree[Any], focus_last: bool
) -> None:
    parsed = parse("/incident query:i will not", tree, focus_last=focus_last)

    assert parsed.values == {"query": "i will not"}
    assert parsed.focused == ("query" if focus_last else None)


def test_completing_a_multi_word_value_focuses_all_of_it(tree: app_commands.CommandTree[Any]) -> None:
    assert options_of("/incident query:i will", tree, focus_last=True) == [
        {"name": "query", "type": 3, "value": "i will", "focused": True}
    ]


def test_a_text_options_words_end_at_the_next_option(tree: app_commands.CommandTree[Any]) -> None:
    assert parse("/echo text:hi there loud:yes", tree).values == {"text": "hi there", "loud": True}


def test_words_after_an_option_of_one_word_fill_the_first_required_option(
    tree: app_commands.CommandTree[Any],
) -> None:
    assert parse("/incident year:2020 singh ja", tree).values == {"query": "singh ja", "year": 2020}


def test_completing_after_a_space_following_the_colon_drops_the_space(
    tree: app_commands.CommandTree[Any],
) -> None:
    assert parse("/incident query: sin", tree, focus_last=True).values == {"query": "sin"}


@pytest.mark.parametrize("focus_last", [False, True])
@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("/incident query:can't we act", "can't we act"),
        ("/incident query:o'toole", "o'toole"),
        ("/incident o'toole", "o'toole"),
        ("/incident query:'tis the season", "'tis the season"),
        ("/incident 'unfinished business", "'unfinished business"),
        ("/incident query:rock 'em", "rock 'em"),
        ('/incident query:"Speaker\'s ruling"', "Speaker's ruling"),
        ("/incident query:'Speaker's ruling'", "Speaker's ruling"),
        ("/incident 'Speaker's ruling'", "Speaker's ruling"),
        (r"/incident query:'it\'s' here", "it's here"),
    ],
)
def test_an_apostrophe_never_breaks_a_line(
    tree: app_commands.CommandTree[Any], line: str, value: str, focus_last: bool
) -> None:
    assert parse(line, tree, focus_last=focus_last).values == {"query": value}


def test_tokenize_keeps_apostrophes_as_letters_unless_they_close_a_value() -> None:
    assert [(t.text, t.quoted) for t in tokenize("a:can't 'tis")] == [("a:can't", False), ("'tis", False)]
    assert [(t.text, t.quoted) for t in tokenize("b:'x's y' 'z'")] == [("b:x's y", False), ("z", True)]


def test_an_unclosed_double_quote_is_explained_not_raised_as_a_traceback(
    tree: app_commands.CommandTree[Any],
) -> None:
    with pytest.raises(CommandLineError, match=r'Unclosed " quote in: incident query:"madam speaker'):
        parse('/incident query:"madam speaker', tree)


def test_a_command_and_its_options_may_be_typed_by_their_french_names(
    tree: app_commands.CommandTree[Any],
) -> None:
    parsed = parse("/qui-s-est-opposé requête:singh", tree)

    assert parsed.path == ("who-objected",)
    assert parsed.options == [{"name": "query", "type": 3, "value": "singh"}]


def test_a_subcommand_may_be_typed_by_its_french_name(tree: app_commands.CommandTree[Any]) -> None:
    assert parse("/admin entries ajouter slug:x", tree).path == ("admin", "entries", "add")


def test_an_english_name_wins_over_a_translation(tree: app_commands.CommandTree[Any]) -> None:
    assert parse("/incident query:singh", tree).values == {"query": "singh"}
