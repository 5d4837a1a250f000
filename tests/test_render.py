"""The renderer keeps every reply inside Discord's limits, however large the entry."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot import limits
from bot.answers import render
from bot.answers.queries import (
    Appearance,
    IncidentDetail,
    IncidentRef,
    MotionView,
    ParticipantView,
    PersonDetail,
    PositionView,
    QuoteView,
    RulingView,
    SourceRef,
)
from bot.messages.catalogue import Msg, say
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
        participants=tuple(ParticipantView(f"p{i}", "Name " * 20, HUGE[:600], "Party") for i in range(60)),
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
    assert position["value"].startswith(f"{news} ([A title](https://example.org/")


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
        render.help_reply([(f"/cmd{i}", HUGE) for i in range(40)]),
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


def test_a_source_without_url_is_named_as_a_stored_excerpt() -> None:
    source = SourceRef("seed", None, None, "Seed article", None)
    assert render.source_link(source) == say(Msg.NO_LINK, name="Seed article")


def test_source_titles_cannot_break_markdown_links() -> None:
    source = SourceRef("s", "https://example.org/a", "A [bracketed] title", "Pub", None)
    assert render.source_link(source) == "[A (bracketed) title](https://example.org/a)"
