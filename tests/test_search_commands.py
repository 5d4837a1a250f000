"""/search with filters, plain questions and noise, and autocomplete with filters, through the
CommandTree (the loopback harness): what a member sees in the JSON discord.py sends back."""

from __future__ import annotations

from typing import Any

from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from tests.discord_harness import before, buttons, choices, first_message, is_ephemeral


async def ask(session: OfflineSession, line: str) -> dict[str, Any]:
    return first_message(await session.invoke(line))


def results(body: dict[str, Any]) -> list[str]:
    """The arguments the result buttons open (incident slugs, person slugs, quote keys)."""
    return [
        b["custom_id"].rsplit(":", 1)[-1] for b in buttons(body) if b["custom_id"].startswith("parlbot:n:")
    ]


async def test_a_chamber_filter_alone_lists_what_it_matches(discord_session) -> None:
    body = await ask(discord_session, "/search query:chamber:nz")
    opened = results(body)
    assert opened[0] == "maipi-clarke-2024"
    assert {"willie-jackson", "david-seymour"} <= set(opened)
    assert not {"singh-2020", "skinner-2016", "bishop-2014"} & set(opened)


async def test_chamber_and_year_range_filters_narrow_together(discord_session) -> None:
    body = await ask(discord_session, '/search query:"chamber:uk year:2010-2020"')
    description = body["embeds"][0]["description"]
    first, second = description.splitlines()[:2]
    assert first.startswith("1. Lloyd Russell-Moyle lifts the mace")
    assert first.endswith("(2018)")
    assert second.startswith("2. Dennis Skinner ordered out")
    assert second.endswith("(2016)")
    assert "(2021)" not in description  # Butler is UK but 2021
    assert "(1976)" not in description


async def test_a_quoted_chamber_name_and_a_dotted_year_range_are_filters_too(discord_session) -> None:
    body = await ask(discord_session, '/search query:"chamber:\\"house of commons\\" year:1970..1980 mace"')
    assert results(body)[0] == "heseltine-1976"


async def test_a_kind_filter_keeps_one_kind_of_entry(discord_session) -> None:
    body = await ask(discord_session, '/search query:"kind:ruling bercow"')
    labels = body["embeds"][0]["description"].splitlines()
    assert labels
    assert all("Speaker John Bercow on " in label for label in labels), labels


async def test_an_unknown_chamber_is_refused_naming_the_chambers_there_are(discord_session) -> None:
    body = await ask(discord_session, "/search query:chamber:narnia")
    assert is_ephemeral(body)
    assert body["content"].startswith(before(Msg.SEARCH_UNKNOWN_CHAMBER, "allowed", value="narnia"))
    for known in ("`uk`", "`nz`", "`canada`", "`aus`"):
        assert known in body["content"]


async def test_a_year_that_cannot_be_read_is_refused_with_the_forms_allowed(discord_session) -> None:
    body = await ask(discord_session, "/search query:year:lastyear")
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.SEARCH_BAD_YEAR, value="lastyear")


async def test_an_unknown_kind_is_refused_naming_the_kinds_there_are(discord_session) -> None:
    body = await ask(discord_session, "/search query:kind:gossip")
    assert is_ephemeral(body)
    assert body["content"].startswith(before(Msg.SEARCH_BAD_KIND, "allowed", value="gossip"))
    assert "`ruling`" in body["content"]
    assert "`naming`" in body["content"]


async def test_new_zealand_lists_new_zealand_only(discord_session) -> None:
    body = await ask(discord_session, '/search query:"new zealand"')
    opened = results(body)
    assert opened[0] == "maipi-clarke-2024"
    assert "jagmeet-singh" not in opened  # an NDP member, through "New Democratic"
    assert not {"singh-2020", "poilievre-2024", "trudeau-2016", "milliken-2010"} & set(opened)
    assert before(Msg.PAGE, "pages", page=1) + "1" in body["embeds"][0]["footer"]["text"]


async def test_a_question_in_plain_words_finds_the_incident(discord_session) -> None:
    body = await ask(discord_session, '/search query:"who got kicked out for calling someone a liar"')
    assert results(body)[0] == "maipi-clarke-2024"


async def test_autocomplete_takes_filters_and_completes_the_words_left(discord_session) -> None:
    listed = choices(await discord_session.complete('/incident query:"chamber:uk sk"'))
    assert [c["value"] for c in listed] == ["skinner-2016"]


async def test_autocomplete_with_a_filter_alone_lists_what_it_matches(discord_session) -> None:
    listed = [c["value"] for c in choices(await discord_session.complete("/incident query:year:2024"))]
    assert sorted(listed) == ["maipi-clarke-2024", "poilievre-2024"]


async def test_autocomplete_leaves_out_a_filter_it_cannot_use(discord_session) -> None:
    listed = choices(await discord_session.complete('/incident query:"year:soon poili"'))
    assert listed[0]["value"] == "poilievre-2024"


async def test_autocomplete_puts_a_half_typed_name_before_a_word_it_resembles(discord_session) -> None:
    listed = [c["value"] for c in choices(await discord_session.complete("/incident query:sihng"))]
    assert listed[0] == "singh-2020"


async def test_autocomplete_leaves_out_a_chamber_still_being_typed(discord_session) -> None:
    listed = choices(await discord_session.complete('/incident query:"chamber:ne poili"'))
    assert listed[0]["value"] == "poilievre-2024"
