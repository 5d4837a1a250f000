"""Answers in, Discord-shaped replies out: every limit is enforced here, by construction.

The renderer knows Discord's JSON shapes (embeds as dicts, buttons as plain descriptions) but not
discord.py; cogs turn a ``Reply`` into a message. Every reply states that it is unofficial and
links its sources.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from bot import limits
from bot.answers.queries import (
    IncidentDetail,
    IncidentRef,
    MotionView,
    PersonDetail,
    PositionView,
    QuoteView,
    RulingView,
    SourceRef,
)
from bot.errors import NotFound
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from db.models import Attribution, Delivery, Stance

COLOUR = 0x2F5D8A
QUOTES_SHOWN = 3
SOURCES_SHOWN = 5
PAGE_SIZE = 8
assert PAGE_SIZE <= 2 * limits.BUTTONS_PER_ROW  # a page's buttons, one per result, fill two rows
_Item = TypeVar("_Item")

ATTRIBUTION = {
    Attribution.RECORDED: Msg.ATTRIBUTION_RECORDED,
    Attribution.SELF_ACKNOWLEDGED: Msg.ATTRIBUTION_SELF_ACKNOWLEDGED,
    Attribution.NEWS_REPORTED: Msg.ATTRIBUTION_NEWS_REPORTED,
    Attribution.INFERRED: Msg.ATTRIBUTION_INFERRED,
}
STANCE = {
    Stance.YES: Msg.STANCE_YES,
    Stance.NO: Msg.STANCE_NO,
    Stance.ABSTAIN: Msg.STANCE_ABSTAIN,
    Stance.ABSENT: Msg.STANCE_ABSENT,
    Stance.PAIRED: Msg.STANCE_PAIRED,
    Stance.CONSENT: Msg.STANCE_CONSENT,
    Stance.OBJECT: Msg.STANCE_OBJECT,
    Stance.UNKNOWN: Msg.STANCE_UNKNOWN,
}
DELIVERY_NOTE: dict[Delivery, Msg | None] = {
    Delivery.VERBATIM: None,
    Delivery.TRANSLATED: Msg.DELIVERY_TRANSLATED,
    Delivery.REPORTED: Msg.DELIVERY_REPORTED,
}


def unofficial(tail: str | None = None) -> str:
    """The footer every answer carries, followed by ``tail`` (a slug, a page) when given."""
    return f"{say(Msg.UNOFFICIAL)} · {tail}" if tail else say(Msg.UNOFFICIAL)


def _delivery(delivery: Delivery) -> str:
    """How a quote's wording reached us, as a note after the speaker ("" when verbatim)."""
    note = DELIVERY_NOTE[delivery]
    return "" if note is None else f" {say(note)}"


class Action(StrEnum):
    """What a button (or a search hit) asks the bot to show: ``Library.act`` answers each, and a reply
    button's custom id carries it (``parlbot:n:quotes:singh-2020``)."""

    INCIDENT = "incident"
    OBJECTED = "objected"
    QUOTES = "quotes"
    SOURCES = "sources"
    RULING = "ruling"
    QUOTE = "quote"
    PERSON = "person"

    @classmethod
    def named(cls, name: str) -> Action:
        """The action a button's id names; one no longer known (an old message's) is a polite not-found."""
        try:
            return cls(name)
        except ValueError:
            raise NotFound(Msg.BUTTON_GONE) from None


@dataclass(frozen=True, slots=True)
class Button:
    """A button that asks the bot for ``action`` on ``argument``; ``replace`` edits the message in place."""

    label: str
    action: str  # an ``Action``; a button rebuilt from an old message's id may name one no longer known
    argument: str
    replace: bool = False


@dataclass(frozen=True, slots=True)
class Reply:
    content: str | None = None
    embeds: tuple[dict[str, Any], ...] = ()
    buttons: tuple[Button, ...] = ()
    ephemeral: bool = False


@dataclass
class EmbedBuilder:
    """Builds one embed whose parts and total stay within Discord's limits."""

    title: str
    description: str = ""
    url: str | None = None
    footer: str = field(default_factory=unofficial)
    fields: list[tuple[str, str, bool]] = field(default_factory=list)

    def add(self, name: str, value: str, *, inline: bool = False) -> None:
        if value.strip() and len(self.fields) < limits.EMBED_FIELDS:
            self.fields.append((clip(name, limits.FIELD_NAME), clip(value, limits.FIELD_VALUE), inline))

    def build(self, budget: int = limits.EMBED_TOTAL) -> dict[str, Any]:
        """The embed as Discord's JSON, dropping trailing fields if ``budget`` characters are exceeded."""
        title = clip(self.title, limits.EMBED_TITLE)
        footer = clip(self.footer, limits.FOOTER)
        used = len(title) + len(footer)
        description = clip(self.description, min(limits.EMBED_DESCRIPTION, max(budget - used, 0)))
        used += len(description)
        fields = []
        for name, value, inline in self.fields:
            if used + len(name) + len(value) > budget:
                break
            used += len(name) + len(value)
            fields.append({"name": name, "value": value, "inline": inline})
        embed: dict[str, Any] = {"title": title, "color": COLOUR, "footer": {"text": footer}}
        if description:
            embed["description"] = description
        if self.url:
            embed["url"] = self.url
        if fields:
            embed["fields"] = fields
        return embed


def _lines(items: Iterable[str], limit: int = limits.FIELD_VALUE) -> str:
    """Join lines, stopping before ``limit`` with a count of what did not fit.

    The first line is clipped rather than dropped, so a long entry still shows its beginning.
    """
    items = list(items)
    out: list[str] = []
    used = 0
    for index, item in enumerate(items):
        rest = len(items) - index
        tail = "\n" + say(Msg.AND_MORE, count=rest - 1) if rest > 1 else ""
        if not out:
            item = clip(item, limit - len(tail))
        elif used + len(item) + 1 + len(tail) > limit:
            out.append(say(Msg.AND_MORE, count=rest))
            break
        out.append(item)
        used += len(item) + 1
    return "\n".join(out)


def echo(text: str) -> str:
    """User text quoted back: clipped, and with every ``@`` defused so it can never read as a mention.

    ``allowed_mentions`` already stops pings; this also stops ``@everyone`` from *looking* like one.
    """
    return clip(text, 100).replace("@", "@\u200b")


def _date(day: dt.date) -> str:
    return f"{day:%-d %B %Y}"


def source_link(source: SourceRef) -> str:
    name = source.publisher if not source.title or source.title.startswith("(") else source.title
    name = clip(name.replace("[", "(").replace("]", ")"), 120)
    return f"[{name}]({source.url})" if source.url else say(Msg.NO_LINK, name=name)


def _incident_line(ref: IncidentRef) -> str:
    return f"{ref.title} ({_date(ref.date)}, `{ref.slug}`)"


def _quote_line(quote: QuoteView, *, limit: int = 300) -> str:
    return f"“{clip(quote.text, limit)}” — {quote.speaker}{_delivery(quote.delivery)}"


def _position_who(position: PositionView) -> str:
    """Who took the position, naming their party unless the label already does."""
    party = position.party
    if not party or position.who in party or party in position.who:
        return party if party and position.who in party else position.who
    return f"{position.who}, {party}"


def _position_how(position: PositionView) -> str:
    how = f"{say(ATTRIBUTION[position.attribution]).capitalize()} ({source_link(position.source)})"
    return f"{how}: {position.detail}" if position.detail else how


def _position_line(position: PositionView) -> str:
    return f"**{_position_who(position)}** {say(STANCE[position.stance])} — {_position_how(position)}"


def _motion_text(motion: MotionView) -> str:
    parts = [clip(motion.text, 500)]
    if motion.moved_by:
        parts.append(say(Msg.MOVED_BY, who=motion.moved_by))
    outcome = motion.result.value.replace("_", " ")
    parts.append(say(Msg.PROCEDURE, procedure=motion.procedure.value.replace("_", " "), result=outcome))
    if motion.result_detail:
        parts.append(clip(motion.result_detail, 300))
    return "\n".join(parts)


def _ruling_text(ruling: RulingView) -> str:
    role = f" ({ruling.role})" if ruling.role and ruling.role not in ruling.ruled_by else ""
    return say(
        Msg.WITH_SOURCE,
        text=f"**{ruling.ruled_by}**{role}: {ruling.summary}",
        source=source_link(ruling.source),
    )


def incident_reply(detail: IncidentDetail) -> Reply:
    ref = detail.ref
    embed = EmbedBuilder(
        title=ref.title,
        description=f"{detail.summary}\n\n**{_date(ref.date)}** · {detail.chamber}",
        url=detail.sources[0].url if detail.sources else None,
        footer=unofficial(ref.slug),
    )
    embed.add(
        say(Msg.PEOPLE_INVOLVED),
        _lines(
            f"**{p.name}** — {p.role}" + (f" ({p.party})" if p.party else "") for p in detail.participants
        ),
    )
    for motion in detail.motions:
        embed.add(say(Msg.MOTION), _motion_text(motion))
        if motion.positions:
            embed.add(say(Msg.WHO_OBJECTED_OR_VOTED), _lines(_position_line(p) for p in motion.positions))
    embed.add(say(Msg.KEY_QUOTES), _lines(_quote_line(q, limit=200) for q in detail.quotes[:QUOTES_SHOWN]))
    for ruling in detail.rulings:
        embed.add(say(Msg.RULING), _ruling_text(ruling))
    embed.add(say(Msg.SOURCES), _lines(source_link(s) for s in detail.sources[:SOURCES_SHOWN]))
    buttons = []
    if len(detail.quotes) > QUOTES_SHOWN:
        buttons.append(Button(say(Msg.ALL_QUOTES, count=len(detail.quotes)), Action.QUOTES, ref.slug))
    if len(detail.sources) > SOURCES_SHOWN:
        buttons.append(Button(say(Msg.ALL_SOURCES, count=len(detail.sources)), Action.SOURCES, ref.slug))
    if detail.motions:
        buttons.append(Button(say(Msg.WHO_OBJECTED), Action.OBJECTED, ref.slug))
    return Reply(embeds=(embed.build(),), buttons=tuple(buttons))


def who_objected_reply(detail: IncidentDetail) -> Reply:
    """Each motion, then one field per recorded position, saying how each is known."""
    ref = detail.ref
    embed = EmbedBuilder(title=say(Msg.WHO_OBJECTED_TITLE, title=ref.title), footer=unofficial(ref.slug))
    if not detail.motions:
        embed.description = say(Msg.NO_MOTION)
    for motion in detail.motions:
        embed.add(
            say(Msg.MOTION),
            say(Msg.WITH_SOURCE, text=_motion_text(motion), source=source_link(motion.source)),
        )
        if not motion.positions:
            embed.add(say(Msg.POSITIONS), say(Msg.NO_POSITIONS))
        for position in motion.positions:
            who = clip(_position_who(position), limits.FIELD_NAME - 30)
            embed.add(f"{who}: {say(STANCE[position.stance])}", _position_how(position))
    return Reply(embeds=(embed.build(),), buttons=(_show_incident(ref.slug),))


def _show_incident(slug: str) -> Button:
    return Button(say(Msg.SHOW_INCIDENT), Action.INCIDENT, slug)


def quotes_reply(title: str, quotes: Sequence[QuoteView], *, slug: str | None = None) -> Reply:
    embed = EmbedBuilder(title=title, footer=unofficial(slug))
    for quote in quotes:
        context = f"\n_{clip(quote.context, 200)}_" if quote.context else ""
        embed.add(
            quote.speaker + _delivery(quote.delivery),
            f"“{clip(quote.text, 700)}”{context}\n{source_link(quote.source)}",
        )
    return Reply(embeds=(embed.build(),))


def quote_reply(quote: QuoteView) -> Reply:
    embed = EmbedBuilder(
        title=clip(f"{quote.speaker}{_delivery(quote.delivery)}", limits.EMBED_TITLE),
        description=f"> {quote.text}",
        url=quote.source.url,
        footer=unofficial(quote.incident.slug),
    )
    if quote.said_to:
        embed.add(say(Msg.SAID_TO), quote.said_to, inline=True)
    if quote.context:
        embed.add(say(Msg.CONTEXT), quote.context)
    embed.add(say(Msg.INCIDENT), _incident_line(quote.incident))
    embed.add(say(Msg.SOURCE), source_link(quote.source))
    return Reply(embeds=(embed.build(),), buttons=(_show_incident(quote.incident.slug),))


def rulings_reply(rulings: Sequence[RulingView]) -> Reply:
    first = rulings[0].incident
    embed = EmbedBuilder(title=say(Msg.RULING_TITLE, title=first.title), footer=unofficial(first.slug))
    embed.description = f"**{_date(first.date)}**"
    for ruling in rulings:
        embed.add(ruling.outcome.value.replace("_", " ").capitalize(), _ruling_text(ruling))
    return Reply(embeds=(embed.build(),), buttons=(_show_incident(first.slug),))


def person_reply(person: PersonDetail) -> Reply:
    embed = EmbedBuilder(title=person.name, footer=unofficial(person.slug))
    facts = []
    if person.party:
        facts.append(say(Msg.PARTY, party=person.party))
    if person.aliases:
        facts.append(say(Msg.ALSO_KNOWN_AS, aliases=", ".join(person.aliases)))
    embed.description = "\n".join(facts)
    embed.add(
        say(Msg.APPEARS_IN),
        _lines(
            say(Msg.APPEARANCE, incident=_incident_line(a.incident), role=a.role) for a in person.appearances
        )
        or say(Msg.NO_INCIDENTS),
    )
    embed.add(say(Msg.QUOTES), _lines(_quote_line(q, limit=150) for q in person.quotes))
    buttons = tuple(
        Button(clip(a.incident.title, 80), Action.INCIDENT, a.incident.slug) for a in person.appearances[:5]
    )
    return Reply(embeds=(embed.build(),), buttons=buttons)


def sources_reply(detail: IncidentDetail) -> Reply:
    embed = EmbedBuilder(
        title=say(Msg.SOURCES_TITLE, title=detail.ref.title), footer=unofficial(detail.ref.slug)
    )
    embed.description = _lines((f"{i}. {source_link(s)}" for i, s in enumerate(detail.sources, 1)), 4000)
    if detail.notes:
        embed.add(say(Msg.SOURCES_DIFFER), detail.notes)
    return Reply(embeds=(embed.build(),), ephemeral=True)


@dataclass(frozen=True, slots=True)
class Choice:
    """A did-you-mean or search candidate: what to show and what pressing it asks for."""

    label: str
    action: Action
    argument: str


def did_you_mean_reply(query: str, candidates: Sequence[Choice]) -> Reply:
    shown = candidates[: limits.BUTTONS_PER_ROW]
    lines = "\n".join(f"• {c.label}" for c in shown)
    return Reply(
        content=clip(say(Msg.DID_YOU_MEAN, query=echo(query), choices=lines), limits.CONTENT),
        buttons=tuple(
            Button(clip(c.label, limits.BUTTON_LABEL), c.action, c.argument, replace=True) for c in shown
        ),
        ephemeral=True,
    )


def no_match_reply(query: str, what: str, suggestions: Sequence[Choice]) -> Reply:
    """Nothing matched ``query`` among ``what`` (the topic in words, "incident or motion")."""
    text = say(Msg.NO_MATCH, what=what, query=echo(query))
    if suggestions:
        listed = "\n".join(f"• {s.label}" for s in suggestions[:5])
        text += " " + say(Msg.NO_MATCH_SUGGESTIONS, suggestions=listed)
    text += "\n" + say(Msg.NO_MATCH_TIP)
    return Reply(content=clip(text, limits.CONTENT), ephemeral=True)


def pages_for(count: int, size: int = PAGE_SIZE) -> int:
    """How many pages ``count`` items fill (at least one, even when empty)."""
    return max(1, -(-count // size))


def page_of(items: Sequence[_Item], page: int, size: int = PAGE_SIZE) -> tuple[int, Sequence[_Item]]:
    """``page`` (from 0) clamped to the pages there are, and the items on it."""
    page = min(max(page, 0), pages_for(len(items), size) - 1)
    return page, items[page * size : (page + 1) * size]


def search_page_reply(query: str, results: Sequence[Choice], *, page: int) -> Reply:
    """One page of ``/search`` results; ``page`` counts from 0 and is clamped to the last page."""
    pages = pages_for(len(results))
    page, shown = page_of(results, page)
    embed = EmbedBuilder(
        title=say(Msg.SEARCH_TITLE, query=echo(query)),
        footer=unofficial(say(Msg.PAGE, page=page + 1, pages=pages)),
    )
    start = page * PAGE_SIZE
    embed.description = (
        _lines((f"{start + i}. {c.label}" for i, c in enumerate(shown, 1)), 4000)
        if shown
        else say(Msg.NO_RESULTS)
    )
    # One button per result, so every result on the page opens (a page fills two rows at most).
    buttons = tuple(Button(clip(c.label, limits.BUTTON_LABEL), c.action, c.argument) for c in shown)
    return Reply(embeds=(embed.build(),), buttons=buttons)


def help_reply(commands: Sequence[tuple[str, str]], moderators: Sequence[tuple[str, str]] = ()) -> Reply:
    """(usage, description) pairs taken from the command tree: everyone's, then (for a moderator) the
    moderators' own, in an embed of their own."""
    embed = EmbedBuilder(title=say(Msg.HELP_TITLE), description=say(Msg.HELP_INTRO))
    for usage, description in commands:
        embed.add(usage, description)
    embeds = [embed.build()]
    if moderators:
        section = EmbedBuilder(
            title=say(Msg.HELP_MODERATORS_TITLE), description=say(Msg.HELP_MODERATORS_INTRO)
        )
        for usage, description in moderators:
            section.add(usage, description)
        embeds.append(section.build())
    return Reply(embeds=tuple(embeds), ephemeral=True)
