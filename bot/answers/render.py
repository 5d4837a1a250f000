"""Answers in, Discord-shaped replies out: every limit is enforced here, by construction.

The renderer knows Discord's JSON shapes (embeds as dicts, buttons as plain descriptions) but not
discord.py; cogs turn a ``Reply`` into a message. Every reply states that it is unofficial and
links its sources.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
from bot.limits import clip
from db.models import Attribution, Delivery, Stance

COLOUR = 0x2F5D8A
UNOFFICIAL = "Unofficial summary from cited sources · parlbot"
QUOTES_SHOWN = 3
SOURCES_SHOWN = 5
PAGE_SIZE = 8
_Item = TypeVar("_Item")

ATTRIBUTION = {
    Attribution.RECORDED: "in the official record",
    Attribution.SELF_ACKNOWLEDGED: "acknowledged by the member",
    Attribution.NEWS_REPORTED: "reported by news",
    Attribution.INFERRED: "inferred, not stated outright by a source",
}
STANCE = {
    Stance.YES: "voted yes",
    Stance.NO: "voted no",
    Stance.ABSTAIN: "abstained",
    Stance.ABSENT: "was absent",
    Stance.PAIRED: "was paired",
    Stance.CONSENT: "consented",
    Stance.OBJECT: "objected",
    Stance.UNKNOWN: "position unknown",
}
DELIVERY_NOTE = {
    Delivery.VERBATIM: "",
    Delivery.TRANSLATED: " (English rendering as printed)",
    Delivery.REPORTED: " (as reported; wording varies between sources)",
}


@dataclass(frozen=True, slots=True)
class Button:
    """A button that asks the bot for ``action`` on ``argument``; ``replace`` edits the message in place."""

    label: str
    action: str
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
    footer: str = UNOFFICIAL
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
        tail = f"\n… and {rest - 1} more" if rest > 1 else ""
        if not out:
            item = clip(item, limit - len(tail))
        elif used + len(item) + 1 + len(tail) > limit:
            out.append(f"… and {rest} more")
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
    return f"[{name}]({source.url})" if source.url else f"{name} (stored excerpt, no link)"


def _incident_line(ref: IncidentRef) -> str:
    return f"{ref.title} ({_date(ref.date)}, `{ref.slug}`)"


def _quote_line(quote: QuoteView, *, limit: int = 300) -> str:
    return f"“{clip(quote.text, limit)}” — {quote.speaker}{DELIVERY_NOTE[quote.delivery]}"


def _position_who(position: PositionView) -> str:
    """Who took the position, naming their party unless the label already does."""
    party = position.party
    if not party or position.who in party or party in position.who:
        return party if party and position.who in party else position.who
    return f"{position.who}, {party}"


def _position_how(position: PositionView) -> str:
    how = f"{ATTRIBUTION[position.attribution].capitalize()} ({source_link(position.source)})"
    return f"{how}: {position.detail}" if position.detail else how


def _position_line(position: PositionView) -> str:
    return f"**{_position_who(position)}** {STANCE[position.stance]} — {_position_how(position)}"


def _motion_text(motion: MotionView) -> str:
    parts = [clip(motion.text, 500)]
    if motion.moved_by:
        parts.append(f"Moved by: {motion.moved_by}")
    outcome = motion.result.value.replace("_", " ")
    parts.append(f"Procedure: {motion.procedure.value.replace('_', ' ')} · Result: {outcome}")
    if motion.result_detail:
        parts.append(clip(motion.result_detail, 300))
    return "\n".join(parts)


def _ruling_text(ruling: RulingView) -> str:
    role = f" ({ruling.role})" if ruling.role and ruling.role not in ruling.ruled_by else ""
    return f"**{ruling.ruled_by}**{role}: {ruling.summary}\nSource: {source_link(ruling.source)}"


def incident_reply(detail: IncidentDetail) -> Reply:
    ref = detail.ref
    embed = EmbedBuilder(
        title=ref.title,
        description=f"{detail.summary}\n\n**{_date(ref.date)}** · {detail.chamber}",
        url=detail.sources[0].url if detail.sources else None,
        footer=f"{UNOFFICIAL} · {ref.slug}",
    )
    embed.add(
        "People involved",
        _lines(
            f"**{p.name}** — {p.role}" + (f" ({p.party})" if p.party else "") for p in detail.participants
        ),
    )
    for motion in detail.motions:
        embed.add("Motion", _motion_text(motion))
        if motion.positions:
            embed.add("Who objected or voted", _lines(_position_line(p) for p in motion.positions))
    embed.add("Key quotes", _lines(_quote_line(q, limit=200) for q in detail.quotes[:QUOTES_SHOWN]))
    for ruling in detail.rulings:
        embed.add("Ruling", _ruling_text(ruling))
    embed.add("Sources", _lines(source_link(s) for s in detail.sources[:SOURCES_SHOWN]))
    buttons = []
    if len(detail.quotes) > QUOTES_SHOWN:
        buttons.append(Button(f"All {len(detail.quotes)} quotes", "quotes", ref.slug))
    if len(detail.sources) > SOURCES_SHOWN:
        buttons.append(Button(f"All {len(detail.sources)} sources", "sources", ref.slug))
    if detail.motions:
        buttons.append(Button("Who objected?", "objected", ref.slug))
    return Reply(embeds=(embed.build(),), buttons=tuple(buttons))


def who_objected_reply(detail: IncidentDetail) -> Reply:
    """Each motion, then one field per recorded position, saying how each is known."""
    ref = detail.ref
    embed = EmbedBuilder(title=f"Who objected: {ref.title}", footer=f"{UNOFFICIAL} · {ref.slug}")
    if not detail.motions:
        embed.description = "No motion is recorded for this incident, so there is no objection to report."
    for motion in detail.motions:
        embed.add("Motion", f"{_motion_text(motion)}\nSource: {source_link(motion.source)}")
        if not motion.positions:
            embed.add("Positions", "No one's position is named in the sources.")
        for position in motion.positions:
            who = clip(_position_who(position), limits.FIELD_NAME - 30)
            embed.add(f"{who}: {STANCE[position.stance]}", _position_how(position))
    return Reply(embeds=(embed.build(),), buttons=(Button("Show the incident", "incident", ref.slug),))


def quotes_reply(title: str, quotes: Sequence[QuoteView], *, slug: str | None = None) -> Reply:
    embed = EmbedBuilder(title=title, footer=f"{UNOFFICIAL} · {slug}" if slug else UNOFFICIAL)
    for quote in quotes:
        context = f"\n_{clip(quote.context, 200)}_" if quote.context else ""
        embed.add(
            quote.speaker + DELIVERY_NOTE[quote.delivery],
            f"“{clip(quote.text, 700)}”{context}\n{source_link(quote.source)}",
        )
    return Reply(embeds=(embed.build(),))


def quote_reply(quote: QuoteView) -> Reply:
    embed = EmbedBuilder(
        title=clip(f"{quote.speaker}{DELIVERY_NOTE[quote.delivery]}", limits.EMBED_TITLE),
        description=f"> {quote.text}",
        url=quote.source.url,
        footer=f"{UNOFFICIAL} · {quote.incident.slug}",
    )
    if quote.said_to:
        embed.add("Said to", quote.said_to, inline=True)
    if quote.context:
        embed.add("Context", quote.context)
    embed.add("Incident", _incident_line(quote.incident))
    embed.add("Source", source_link(quote.source))
    return Reply(
        embeds=(embed.build(),), buttons=(Button("Show the incident", "incident", quote.incident.slug),)
    )


def rulings_reply(rulings: Sequence[RulingView]) -> Reply:
    first = rulings[0].incident
    embed = EmbedBuilder(title=f"Ruling: {first.title}", footer=f"{UNOFFICIAL} · {first.slug}")
    embed.description = f"**{_date(first.date)}**"
    for ruling in rulings:
        embed.add(ruling.outcome.value.replace("_", " ").capitalize(), _ruling_text(ruling))
    return Reply(embeds=(embed.build(),), buttons=(Button("Show the incident", "incident", first.slug),))


def person_reply(person: PersonDetail) -> Reply:
    embed = EmbedBuilder(title=person.name, footer=f"{UNOFFICIAL} · {person.slug}")
    facts = []
    if person.party:
        facts.append(f"Party: {person.party}")
    if person.aliases:
        facts.append(f"Also known as: {', '.join(person.aliases)}")
    embed.description = "\n".join(facts)
    embed.add(
        "Appears in",
        _lines(f"{_incident_line(a.incident)} — as {a.role}" for a in person.appearances) or "No incidents.",
    )
    embed.add("Quotes", _lines(_quote_line(q, limit=150) for q in person.quotes))
    buttons = tuple(
        Button(clip(a.incident.title, 80), "incident", a.incident.slug) for a in person.appearances[:5]
    )
    return Reply(embeds=(embed.build(),), buttons=buttons)


def sources_reply(detail: IncidentDetail) -> Reply:
    embed = EmbedBuilder(title=f"Sources: {detail.ref.title}", footer=f"{UNOFFICIAL} · {detail.ref.slug}")
    embed.description = _lines((f"{i}. {source_link(s)}" for i, s in enumerate(detail.sources, 1)), 4000)
    if detail.notes:
        embed.add("Where sources differ", detail.notes)
    return Reply(embeds=(embed.build(),), ephemeral=True)


@dataclass(frozen=True, slots=True)
class Choice:
    """A did-you-mean or search candidate: what to show and what pressing it asks for."""

    label: str
    action: str
    argument: str


def did_you_mean_reply(query: str, candidates: Sequence[Choice]) -> Reply:
    shown = candidates[: limits.BUTTONS_PER_ROW]
    lines = "\n".join(f"• {c.label}" for c in shown)
    return Reply(
        content=clip(
            f"I found more than one close match for “{echo(query)}”. Did you mean:\n{lines}",
            limits.CONTENT,
        ),
        buttons=tuple(
            Button(clip(c.label, limits.BUTTON_LABEL), c.action, c.argument, replace=True) for c in shown
        ),
        ephemeral=True,
    )


def no_match_reply(query: str, what: str, suggestions: Sequence[Choice]) -> Reply:
    text = f"I could not find any {what} matching “{echo(query)}”."
    if suggestions:
        text += " Some entries you could try:\n" + "\n".join(f"• {s.label}" for s in suggestions[:5])
    text += "\nTip: start typing and pick from the suggestions, or try `/search`."
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
    embed = EmbedBuilder(title=f"Search: {echo(query)}", footer=f"{UNOFFICIAL} · page {page + 1}/{pages}")
    start = page * PAGE_SIZE
    embed.description = (
        _lines((f"{start + i}. {c.label}" for i, c in enumerate(shown, 1)), 4000) if shown else "No results."
    )
    buttons = tuple(
        Button(clip(c.label, limits.BUTTON_LABEL), c.action, c.argument)
        for c in shown[: limits.BUTTONS_PER_ROW]
    )
    return Reply(embeds=(embed.build(),), buttons=buttons)


def help_reply(commands: Sequence[tuple[str, str]]) -> Reply:
    """``commands`` is (usage, description) pairs taken from the command tree."""
    embed = EmbedBuilder(
        title="parlbot help",
        description=(
            "Ask about parliamentary incidents: ejections, unparliamentary language, Speaker's rulings, "
            "motions and who objected. Every `query` option suggests entries as you type; typos and "
            "half-typed names are fine."
        ),
    )
    for usage, description in commands:
        embed.add(usage, description)
    return Reply(embeds=(embed.build(),), ephemeral=True)
