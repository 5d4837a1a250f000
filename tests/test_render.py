"""The renderer keeps every reply inside Discord's limits, however large the entry."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from bot import limits
from bot.answers import render
from bot.answers.queries import (
    Appearance,
    IncidentDetail,
    IncidentRef,
    MotionView,
    ParticipantView,
    PartyRef,
    PersonDetail,
    PositionView,
    QuoteView,
    RulingView,
    SourceRef,
)
from bot.messages.catalogue import Msg, say
from bot.messages.outcomes import OUTCOME
from db.models import (
    Attribution,
    Delivery,
    IncidentKind,
    MotionResult,
    Procedure,
    RulingOutcome,
    Stance,
)

HUGE = "word " * 2000
REF = IncidentRef("huge-2020", "T" * 400, dt.date(2020, 6, 17))
PARTY = PartyRef("NDP", ("New Democratic Party", "NDP", "New Democrats"))
SOURCE = SourceRef("src", "https://example.org/" + "p" * 200, "A title", "Publisher", None)


def quote(i: int) -> QuoteView:
    return QuoteView(i, REF, "Speaker " * 40, HUGE, "Someone", HUGE, Delivery.VERBATIM, SOURCE)


def huge_incident() -> IncidentDetail:
    position = PositionView("Party " * 60, None, Stance.OBJECT, Attribution.NEWS_REPORTED, HUGE, SOURCE)
    motion = MotionView(
        1,
        REF,
        HUGE,
        "Mover",
        Procedure.UNANIMOUS_CONSENT,
        MotionResult.NOT_MOVED,
        HUGE,
        (position,) * 40,
        SOURCE,
    )
    ruling = RulingView(1, REF, "Speaker", "Speaker", RulingOutcome.NAMED, HUGE, SOURCE)
    return IncidentDetail(
        ref=REF,
        chamber="House",
        country="Canada",
        kind=IncidentKind.NAMING,
        summary=HUGE,
        notes=HUGE,
        aliases=(),
        participants=tuple(ParticipantView(f"p{i}", "Name " * 20, HUGE[:600], PARTY) for i in range(60)),
        motions=(motion,) * 12,
        quotes=tuple(quote(i) for i in range(30)),
        rulings=(ruling,) * 12,
        sources=(SOURCE,) * 40,
    )


def embed_characters(embed: dict[str, Any]) -> int:
    fields = embed.get("fields", [])
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + len(embed.get("footer", {}).get("text", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in fields)
    )


def assert_within_limits(reply: render.Reply) -> None:
    assert reply.content is None or len(reply.content) <= limits.CONTENT
    assert len(reply.embeds) <= limits.EMBEDS
    assert sum(embed_characters(e) for e in reply.embeds) <= limits.EMBED_TOTAL
    for embed in reply.embeds:
        assert len(embed["title"]) <= limits.EMBED_TITLE
        assert len(embed.get("description", "")) <= limits.EMBED_DESCRIPTION
        assert len(embed["footer"]["text"]) <= limits.FOOTER
        assert len(embed.get("fields", [])) <= limits.EMBED_FIELDS
        for field in embed.get("fields", []):
            assert len(field["name"]) <= limits.FIELD_NAME
            assert 0 < len(field["value"]) <= limits.FIELD_VALUE
    assert len(reply.buttons) <= limits.ACTION_ROWS * limits.BUTTONS_PER_ROW
    assert all(len(b.label) <= limits.BUTTON_LABEL for b in reply.buttons)


def test_clip_leaves_short_text_alone() -> None:
    assert limits.clip("I will not", 20) == "I will not"


def test_clip_cuts_at_a_word_boundary_and_marks_the_cut() -> None:
    clipped = limits.clip("I simply withdraw and replace with the aforementioned adjective", 30)
    assert clipped == "I simply withdraw and replace…"
    assert len(clipped) <= 30


def test_oversized_incident_stays_within_every_embed_limit() -> None:
    reply = render.incident_reply(huge_incident())
    assert_within_limits(reply)
    assert reply.embeds[0]["title"].endswith(limits.ELLIPSIS)


def test_oversized_incident_offers_buttons_for_what_did_not_fit() -> None:
    labels = [b.label for b in render.incident_reply(huge_incident()).buttons]
    assert labels == [say(Msg.ALL_QUOTES, count=30), say(Msg.ALL_SOURCES, count=40), say(Msg.WHO_OBJECTED)]


def test_oversized_who_objected_gives_each_position_a_field_saying_how_it_is_known() -> None:
    reply = render.who_objected_reply(huge_incident())
    assert_within_limits(reply)
    position = reply.embeds[0]["fields"][1]
    assert position["name"].endswith(f": {say(Msg.STANCE_OBJECT)}")
    news = say(Msg.ATTRIBUTION_NEWS_REPORTED).capitalize()
    assert position["value"].startswith(f"• {news} ([Publisher](https://example.org/")


def test_long_field_lists_say_how_many_more_there_are() -> None:
    value = render.incident_reply(huge_incident()).embeds[0]["fields"][0]["value"]
    assert value.splitlines()[-1] == say(Msg.AND_MORE, count=59)


def test_every_other_reply_stays_within_limits() -> None:
    detail = huge_incident()
    person = PersonDetail(
        "p",
        "Name " * 100,
        ("alias",) * 50,
        "Party",
        tuple(Appearance(REF, HUGE) for _ in range(40)),
        detail.quotes,
    )
    choices = [render.Choice(HUGE[:300], "incident", f"slug-{i}") for i in range(60)]
    for reply in (
        render.quotes_reply("Quotes " + HUGE, detail.quotes, slug=REF.slug),
        render.quote_reply(detail.quotes[0]),
        render.rulings_reply(detail.rulings),
        render.person_reply(person),
        render.sources_reply(detail),
        render.did_you_mean_reply(HUGE, choices),
        render.no_match_reply(HUGE, "incident", choices),
        render.search_page_reply(HUGE, choices, page=3),
        render.help_reply(
            [(f"/cmd{i}", HUGE) for i in range(40)],
            teachers=[(f"/teach{i}", HUGE) for i in range(40)],
            moderators=[(f"/mod{i}", HUGE) for i in range(40)],
        ),
    ):
        assert_within_limits(reply)


def test_did_you_mean_offers_at_most_five_buttons_that_replace_the_prompt() -> None:
    choices = [render.Choice(f"Incident {i}", "incident", f"slug-{i}") for i in range(9)]
    reply = render.did_you_mean_reply("singh", choices)
    assert [b.argument for b in reply.buttons] == [f"slug-{i}" for i in range(5)]
    assert all(b.replace for b in reply.buttons)
    assert reply.ephemeral


def test_no_match_is_private_and_suggests_entries() -> None:
    reply = render.no_match_reply("zzz", "incident", [render.Choice("Singh 2020", "incident", "singh-2020")])
    assert reply.ephemeral
    assert reply.content is not None
    assert reply.content == "\n".join(
        (
            say(Msg.NO_MATCH, what="incident", query="zzz")
            + " "
            + say(Msg.NO_MATCH_SUGGESTIONS, suggestions="• Singh 2020"),
            say(Msg.NO_MATCH_TIP),
        )
    )
    assert "/search" in reply.content


def test_search_pages_are_clamped_to_the_last_page() -> None:
    choices = [render.Choice(f"Entry {i}", "incident", f"slug-{i}") for i in range(10)]
    reply = render.search_page_reply("entry", choices, page=7)
    assert reply.embeds[0]["description"].splitlines() == ["9. Entry 8", "10. Entry 9"]
    assert reply.embeds[0]["footer"]["text"].endswith(say(Msg.PAGE, page=2, pages=2))


def test_a_source_is_its_title_publisher_and_date_linked() -> None:
    source = SourceRef("s", "https://example.org/a", "A title", "CBC News", dt.date(2020, 6, 18))
    assert render.source_link(source) == "[A title](https://example.org/a) — CBC News, 18 June 2020"


def test_a_source_without_title_is_its_publisher_linked() -> None:
    source = SourceRef("s", "https://example.org/a", None, "CBC News", None)
    assert render.source_link(source) == "[CBC News](https://example.org/a)"


def test_a_source_without_publisher_or_link_is_a_dated_news_report_and_its_note_stays_out() -> None:
    source = SourceRef("seed", None, None, None, dt.date(2020, 6, 17), note="The seed article")
    assert render.source_link(source) == f"{say(Msg.NEWS_REPORT)}, 17 June 2020"
    assert render.source_cite(source) == f"{say(Msg.NEWS_REPORT)}, 17 June 2020"


def test_source_titles_cannot_break_markdown_links() -> None:
    source = SourceRef("s", "https://example.org/a", "A [bracketed] title", None, None)
    assert render.source_link(source) == "[A (bracketed) title](https://example.org/a)"


def test_a_person_in_an_incident_is_name_role_then_party() -> None:
    line = render.person_in_incident("Carol Hughes", "Assistant Deputy Speaker, in the chair", PARTY)
    assert line == "Carol Hughes — Assistant Deputy Speaker, in the chair (NDP)"


def test_a_party_the_role_already_names_is_not_repeated() -> None:
    assert render.person_in_incident("Jagmeet Singh", "NDP Leader", PARTY) == "Jagmeet Singh — NDP Leader"
    bloc = PartyRef("BQ", ("Bloc Québécois", "BQ", "Bloc"))
    assert render.person_in_incident("Alain Therrien", "Bloc House Leader", bloc) == (
        "Alain Therrien — Bloc House Leader"
    )
    assert render.person_in_incident("Bloc Québécois", None, bloc) == "Bloc Québécois"


def test_a_party_is_found_in_a_role_only_as_whole_words() -> None:
    assert render.person_in_incident("A. Member", "Sandpiper", PartyRef("NDP", ("NDP", "Piper"))) == (
        "A. Member — Sandpiper (NDP)"
    )


def test_a_person_in_an_incident_can_show_the_name_in_bold() -> None:
    assert (
        render.person_in_incident("Anthony Rota", "Speaker", None, strong=True)
        == "**Anthony Rota** — Speaker"
    )


def test_trivial_aliases_are_dropped() -> None:
    aliases = ["Rota", "Rota Anthony", "Tony"]
    assert render.telling_aliases("Anthony Rota", aliases) == ["Tony"]
    assert render.telling_aliases("Lloyd Russell-Moyle", ["Lloyd Russell Moyle", "Russell-Moyle"]) == []
    assert render.telling_aliases("Claude DeBellefeuille", ["Claude De Bellefeuille"]) == []


def ruling(
    subject: str | None, outcome: RulingOutcome = RulingOutcome.ORDERED_TO_LEAVE_SITTING
) -> RulingView:
    return RulingView(1, REF, "Speaker Greg Fergus", "Speaker", outcome, "Summary.", SOURCE, subject=subject)


def test_a_ruling_says_who_ruled_on_whom_and_the_sanction_in_that_order() -> None:
    assert render.ruling_headline(ruling("Rachael Thomas")) == say(
        Msg.RULED_ON,
        who="Speaker Greg Fergus",
        subject="Rachael Thomas",
        outcome=say(Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING),
    )
    assert say(Msg.OUTCOME_ORDERED_TO_LEAVE_SITTING) == "ordered to leave for the rest of the sitting"


def test_a_ruling_on_no_one_in_particular_says_who_ruled_and_what() -> None:
    assert render.ruling_headline(ruling(None, RulingOutcome.SITTING_SUSPENDED)) == say(
        Msg.RULED, who="Speaker Greg Fergus", outcome=say(Msg.OUTCOME_SITTING_SUSPENDED)
    )


def test_every_ruling_outcome_has_plain_words() -> None:
    assert set(OUTCOME) == set(RulingOutcome)


def translated(original: str | None = None, language: str | None = "French") -> QuoteView:
    source = SourceRef("s", None, None, "HuffPost Canada", None)
    return QuoteView(
        1, REF, "Jagmeet Singh", "It’s true", None, None, Delivery.TRANSLATED, source, original, language
    )


def test_a_translated_quote_says_so_under_it_in_plain_words_not_in_the_title() -> None:
    reply = render.quote_reply(translated())
    embed = reply.embeds[0]
    assert embed["title"] == "Jagmeet Singh"
    line = say(Msg.DELIVERY_TRANSLATED, language="French", publisher="HuffPost Canada")
    assert embed["description"] == f"> It’s true\n_{line}_"
    assert line == "Said in French; English as printed by HuffPost Canada."


def test_a_quote_in_another_language_shows_the_original_beside_the_english() -> None:
    reply = render.quote_reply(translated("C’est vrai"))
    original = next(f for f in reply.embeds[0]["fields"] if f["name"] == say(Msg.ORIGINAL, language="French"))
    assert original["value"] == "> C’est vrai"
    listed = render.quotes_reply("Quotes", [translated("C’est vrai")]).embeds[0]["fields"][0]["value"]
    assert listed.splitlines()[:2] == [
        "“It’s true”",
        say(Msg.ORIGINAL_WORDS, text="C’est vrai", language="French"),
    ]


def test_a_reported_quote_names_who_reported_it_once() -> None:
    quote = replace(translated(language=None), delivery=Delivery.REPORTED)
    assert render.delivery_line(quote) == say(Msg.DELIVERY_REPORTED, publisher="HuffPost Canada")
    assert render.delivery_line(replace(quote, delivery=Delivery.VERBATIM)) is None


def test_an_embed_about_a_day_carries_it_as_an_iso_timestamp() -> None:
    embed = render.EmbedBuilder(title="T", timestamp=dt.date(2020, 6, 17)).build()
    assert embed["timestamp"] == "2020-06-17T00:00:00+00:00"
    assert "timestamp" not in render.EmbedBuilder(title="T").build()


def test_positions_of_the_same_who_and_stance_are_one_entry_with_each_source_under_it() -> None:
    bloc = PartyRef("BQ", ("Bloc Québécois", "BQ"))
    news = PositionView("Bloc Québécois", bloc, Stance.OBJECT, Attribution.NEWS_REPORTED, "Said no.", SOURCE)
    own = replace(news, attribution=Attribution.SELF_ACKNOWLEDGED, detail="We said no.")
    motion = replace(huge_incident().motions[0], text="A motion.", result_detail=None, positions=(news, own))
    detail = replace(huge_incident(), motions=(motion,))
    fields = render.who_objected_reply(detail).embeds[0]["fields"]
    assert [f["name"] for f in fields] == [say(Msg.MOTION), f"Bloc Québécois: {say(Msg.STANCE_OBJECT)}"]
    link = "[Publisher](https://example.org/" + "p" * 200 + ")"
    assert fields[1]["value"].splitlines() == [
        f"• {say(Msg.ATTRIBUTION_NEWS_REPORTED).capitalize()} ({link}): Said no.",
        f"• {say(Msg.ATTRIBUTION_SELF_ACKNOWLEDGED).capitalize()} ({link}): We said no.",
    ]
