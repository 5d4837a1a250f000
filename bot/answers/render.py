"""Answers in, Discord-shaped replies out: every limit is enforced here, by construction.

The renderer knows Discord's JSON shapes (embeds as dicts, buttons as plain descriptions) but not
discord.py; cogs turn a ``Reply`` into a message. Every reply states that it is unofficial and
links its sources.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from bot import limits
from bot.answers.queries import (
    Appearance,
    IncidentDetail,
    IncidentRef,
    MotionView,
    PartyRef,
    PersonDetail,
    PositionView,
    QuoteView,
    RulingView,
    SourceRef,
    TermRef,
)
from bot.defuse import defuse, message_text, one_line
from bot.errors import NotFound
from bot.limits import clip
from bot.messages.catalogue import Msg, current_locale, day_words, language_words, say
from bot.messages.outcomes import OUTCOME
from bot.search.text import fold
from db.models import Attribution, Delivery, MotionResult, Procedure, Stance

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
PROCEDURE = {
    Procedure.UNANIMOUS_CONSENT: Msg.PROCEDURE_UNANIMOUS_CONSENT,
    Procedure.LEAVE: Msg.PROCEDURE_LEAVE,
    Procedure.SUSPENSION_OF_STANDING_ORDERS: Msg.PROCEDURE_SUSPENSION_OF_STANDING_ORDERS,
    Procedure.CLOSURE: Msg.PROCEDURE_CLOSURE,
    Procedure.ORDER_OF_THE_HOUSE: Msg.PROCEDURE_ORDER_OF_THE_HOUSE,
    Procedure.ORDINARY: Msg.PROCEDURE_ORDINARY,
}
RESULT = {
    MotionResult.PASSED: Msg.RESULT_PASSED,
    MotionResult.FAILED: Msg.RESULT_FAILED,
    MotionResult.NOT_MOVED: Msg.RESULT_NOT_MOVED,
    MotionResult.WITHDRAWN: Msg.RESULT_WITHDRAWN,
    MotionResult.DEFERRED: Msg.RESULT_DEFERRED,
    MotionResult.UNKNOWN: Msg.RESULT_UNKNOWN,
}


def unofficial(tail: str | None = None) -> str:
    """The footer every answer carries, followed by ``tail`` (a slug, a page) when given."""
    return f"{say(Msg.UNOFFICIAL)} · {tail}" if tail else say(Msg.UNOFFICIAL)


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
    TERM = "term"

    @classmethod
    def named(cls, name: str) -> Action:
        """The action a button's id names; one no longer known (an old message's) is a polite not-found."""
        try:
            return cls(name)
        except ValueError:
            raise NotFound(Msg.BUTTON_GONE) from None


@dataclass(frozen=True, slots=True)
class Button:
    """A button that asks the bot for ``action`` on ``argument``; ``replace`` edits the message in place.
    Its label is shown defused and clipped (``bot.defuse.one_line``)."""

    label: str
    action: str  # an ``Action``; a button rebuilt from an old message's id may name one no longer known
    argument: str
    replace: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", one_line(self.label, limits.BUTTON_LABEL))


@dataclass(frozen=True, slots=True)
class Reply:
    """What the bot answers: its content is shown defused (``bot.defuse``) and clipped to Discord's limit
    here, once; its embeds come defused from ``EmbedBuilder``, its buttons from ``Button``."""

    content: str | None = None
    embeds: tuple[dict[str, Any], ...] = ()
    buttons: tuple[Button, ...] = ()
    ephemeral: bool = False

    def __post_init__(self) -> None:
        if self.content is not None:
            object.__setattr__(self, "content", message_text(self.content) or None)


@dataclass
class EmbedBuilder:
    """Builds one embed whose parts and total stay within Discord's limits, every text in it defused
    (``bot.defuse``) when it is built."""

    title: str
    description: str = ""
    url: str | None = None
    footer: str = field(default_factory=unofficial)
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    timestamp: dt.date | None = None  # the day the embed is about (an incident's date)

    def add(self, name: str, value: str, *, inline: bool = False) -> None:
        if defuse(value).strip() and len(self.fields) < limits.EMBED_FIELDS:
            self.fields.append((clip(name, limits.FIELD_NAME), clip(value, limits.FIELD_VALUE), inline))

    def build(self, budget: int = limits.EMBED_TOTAL) -> dict[str, Any]:
        """The embed as Discord's JSON, dropping trailing fields if ``budget`` characters are exceeded."""
        title = one_line(self.title, limits.EMBED_TITLE)
        footer = clip(defuse(self.footer, lines=False), limits.FOOTER)
        used = len(title) + len(footer)
        description = defuse(self.description)
        description = clip(description, min(limits.EMBED_DESCRIPTION, max(budget - used, 0)))
        used += len(description)
        fields = []
        for raw_name, raw_value, inline in self.fields:
            name, value = one_line(raw_name, limits.FIELD_NAME), clip(defuse(raw_value), limits.FIELD_VALUE)
            if used + len(name) + len(value) > budget:
                break
            used += len(name) + len(value)
            fields.append({"name": name, "value": value, "inline": inline})
        embed: dict[str, Any] = {"title": title, "color": COLOUR, "footer": {"text": footer}}
        if description:
            embed["description"] = description
        if self.url:
            embed["url"] = self.url
        if self.timestamp:
            embed["timestamp"] = dt.datetime.combine(self.timestamp, dt.time(), dt.UTC).isoformat()
        if fields:
            embed["fields"] = fields
        return embed


def listed(items: Iterable[str], limit: int = limits.FIELD_VALUE) -> str:
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
    """User text quoted back, clipped (its mentions are defused with the rest of the reply)."""
    return clip(text, 100)


def _date(day: dt.date) -> str:
    return day_words(day)


def _link(text: str, url: str | None) -> str:
    """``text`` as a markdown link to ``url`` (plain when there is none), its brackets defused."""
    text = clip(text.replace("[", "(").replace("]", ")"), 120)
    return f"[{text}]({url})" if url else text


def _dated(text: str, day: dt.date | None) -> str:
    return f"{text}, {_date(day)}" if day else text


def source_link(source: SourceRef) -> str:
    """A source as a reference work cites it: its title, publisher and date, linked when it has a link
    ("[Title](url) — Publisher, 17 June 2020"; "News report, 17 June 2020" when no publisher is known)."""
    if source.title:
        text = _link(source.title, source.url) + (f" — {source.publisher}" if source.publisher else "")
    else:
        text = _link(source.publisher or say(Msg.NEWS_REPORT), source.url)
    return _dated(text, source.published)


def source_cite(source: SourceRef) -> str:
    """A source named in passing, after a fact it supports: its publisher (else its title), linked."""
    name = source.publisher or source.title
    return _link(name, source.url) if name else _dated(say(Msg.NEWS_REPORT), source.published)


def _names_party(text: str, party: PartyRef) -> bool:
    """Whether ``text`` already names ``party`` (by any of its names, as whole words)."""
    folded = text.casefold()
    return any(re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", folded) for name in party.names)


def person_in_incident(name: str, role: str | None, party: PartyRef | None, *, strong: bool = False) -> str:
    """A person in an incident: name, role then, party once ("Carol Hughes — Assistant Deputy Speaker
    (NDP)"); a party the name or role already says ("NDP Leader", "Bloc Québécois") is not repeated."""
    said = f"{name} — {role}" if role else name
    shown = (f"**{name}** — {role}" if role else f"**{name}**") if strong else said
    return shown if party is None or _names_party(said, party) else f"{shown} ({party.short})"


def text_in_language(english: str, french: str | None, limit: int = limits.EMBED_DESCRIPTION) -> str:
    """A text of the data (a title, a summary) in the language being spoken: in French, the entry's
    French where it has one, else the English marked as shown in English only (within ``limit``); in
    English, the English. Names are not marked: they are the same in both languages."""
    if current_locale() != "fr":
        return english
    if french:
        return french
    note = say(Msg.ENGLISH_ONLY)
    return f"{clip(english, limit - len(note) - 1)} {note}"


def title_of(ref: IncidentRef) -> str:
    """The incident's title in the language being spoken (``text_in_language``)."""
    return text_in_language(ref.title, ref.title_fr, limits.EMBED_TITLE)


def incident_ref_line(ref: IncidentRef) -> str:
    return f"{title_of(ref)} ({_date(ref.date)}, `{ref.slug}`)"


def delivery_line(quote: QuoteView) -> str | None:
    """How the quote's words reached us, in plain words for under the quote (None when verbatim)."""
    printer = quote.source.publisher or quote.source.title or say(Msg.A_NEWS_REPORT)
    if quote.delivery is Delivery.REPORTED:
        return say(Msg.DELIVERY_REPORTED, publisher=printer)
    if quote.delivery is Delivery.TRANSLATED and quote.original_language:
        language = language_words(quote.original_language)
        return say(Msg.DELIVERY_TRANSLATED, language=language, publisher=printer)
    if quote.delivery is Delivery.TRANSLATED:
        return say(Msg.DELIVERY_TRANSLATED_UNNAMED, publisher=printer)
    return None


def _original_line(quote: QuoteView, limit: int) -> str | None:
    """The words as said, where a source prints them beside the English."""
    if not quote.original_text:
        return None
    language = language_words(quote.original_language or "")
    return say(Msg.ORIGINAL_WORDS, text=clip(quote.original_text, limit), language=language)


def _quote_body(quote: QuoteView, limit: int, *extra: str | None, speaker: bool = False) -> str:
    """The quote's words (and its speaker), its original beside them, then ``extra`` lines and how the
    words reached us."""
    words = say(Msg.QUOTED, text=clip(quote.text, limit)) + (f" — {quote.speaker}" if speaker else "")
    delivery = delivery_line(quote)
    parts = [words, _original_line(quote, limit), *extra, f"_{delivery}_" if delivery else None]
    return "\n".join(part for part in parts if part)


def _quote_line(quote: QuoteView, *, limit: int = 300) -> str:
    return _quote_body(quote, limit, speaker=True)


def _position_who(position: PositionView) -> str:
    """Who took the position, naming their party unless the label already does."""
    return person_in_incident(position.who, None, position.party)


def _position_groups(positions: Sequence[PositionView]) -> list[list[PositionView]]:
    """Positions of the same who and stance together (one per source), in first-seen order."""
    groups: dict[tuple[str, Stance], list[PositionView]] = {}
    for position in positions:
        groups.setdefault((_position_who(position), position.stance), []).append(position)
    return list(groups.values())


def _position_heading(group: Sequence[PositionView]) -> str:
    who = clip(_position_who(group[0]), limits.FIELD_NAME - 30)
    return say(Msg.LABELLED, label=who, text=say(STANCE[group[0].stance]))


def _position_how(position: PositionView) -> str:
    how = f"{say(ATTRIBUTION[position.attribution]).capitalize()} ({source_cite(position.source)})"
    return say(Msg.LABELLED, label=how, text=position.detail) if position.detail else how


def _position_summary(group: Sequence[PositionView]) -> str:
    """One line for a who and stance: how it is known, each way once with its sources."""
    sources: dict[Attribution, list[str]] = {}
    for position in group:
        sources.setdefault(position.attribution, []).append(source_cite(position.source))
    how = " · ".join(f"{say(ATTRIBUTION[a])} ({'; '.join(cites)})" for a, cites in sources.items())
    first = group[0]
    return f"**{_position_who(first)}** {say(STANCE[first.stance])} — {how}"


def _motion_text(motion: MotionView) -> str:
    parts = [clip(motion.text, 500)]
    if motion.moved_by:
        parts.append(say(Msg.MOVED_BY, who=motion.moved_by))
    procedure, result = say(PROCEDURE[motion.procedure]), say(RESULT[motion.result])
    parts.append(say(Msg.PROCEDURE, procedure=procedure, result=result))
    if motion.result_detail:
        parts.append(clip(motion.result_detail, 300))
    return "\n".join(parts)


def ruling_headline(ruling: RulingView) -> str:
    """Who ruled, on whom, with what sanction, in that order."""
    who = ruling.ruled_by
    if ruling.role and ruling.role.casefold() not in who.casefold():
        who = f"{who} ({ruling.role})"
    outcome = say(OUTCOME[ruling.outcome])
    if ruling.subject:
        return say(Msg.RULED_ON, who=who, subject=ruling.subject, outcome=outcome)
    return say(Msg.RULED, who=who, outcome=outcome)


def _ruling_text(ruling: RulingView) -> str:
    summary = text_in_language(ruling.summary, ruling.summary_fr)
    return say(Msg.WITH_SOURCE, text=summary, source=source_cite(ruling.source))


def incident_reply(detail: IncidentDetail) -> Reply:
    ref = detail.ref
    summary = text_in_language(detail.summary, detail.summary_fr)
    embed = EmbedBuilder(
        title=title_of(ref),
        description=f"{summary}\n\n**{_date(ref.date)}** · {detail.chamber}",
        url=detail.sources[0].url if detail.sources else None,
        footer=unofficial(ref.slug),
        timestamp=ref.date,
    )
    embed.add(
        say(Msg.PEOPLE_INVOLVED),
        listed(person_in_incident(p.name, p.role, p.party, strong=True) for p in detail.participants),
    )
    for motion in detail.motions:
        embed.add(say(Msg.MOTION), _motion_text(motion))
        if motion.positions:
            groups = _position_groups(motion.positions)
            embed.add(say(Msg.WHO_OBJECTED_OR_VOTED), listed(_position_summary(g) for g in groups))
    embed.add(say(Msg.KEY_QUOTES), listed(_quote_line(q, limit=200) for q in detail.quotes[:QUOTES_SHOWN]))
    for ruling in detail.rulings:
        embed.add(say(Msg.RULING), f"**{ruling_headline(ruling)}**\n{_ruling_text(ruling)}")
    embed.add(say(Msg.SOURCES), listed(source_link(s) for s in detail.sources[:SOURCES_SHOWN]))
    embed.add(say(Msg.INCIDENT_TERMS), terms_line(detail.terms))
    buttons = []
    if len(detail.quotes) > QUOTES_SHOWN:
        buttons.append(Button(say(Msg.ALL_QUOTES, count=len(detail.quotes)), Action.QUOTES, ref.slug))
    if len(detail.sources) > SOURCES_SHOWN:
        buttons.append(Button(say(Msg.ALL_SOURCES, count=len(detail.sources)), Action.SOURCES, ref.slug))
    if detail.motions:
        buttons.append(Button(say(Msg.WHO_OBJECTED), Action.OBJECTED, ref.slug))
    return Reply(embeds=(embed.build(),), buttons=tuple(buttons))


def terms_line(terms: Sequence[TermRef]) -> str:
    """The glossary terms an incident is linked with, each with what ``/explain`` takes ("" for none)."""
    return " · ".join(f"{term.name} (`{term.slug}`)" for term in terms)


def who_objected_reply(detail: IncidentDetail) -> Reply:
    """Each motion, then one field per who and stance, listing how each source knows it."""
    ref = detail.ref
    embed = EmbedBuilder(
        title=say(Msg.WHO_OBJECTED_TITLE, title=title_of(ref)),
        footer=unofficial(ref.slug),
        timestamp=ref.date,
    )
    if not detail.motions:
        embed.description = say(Msg.NO_MOTION)
    for motion in detail.motions:
        embed.add(
            say(Msg.MOTION),
            say(Msg.WITH_SOURCE, text=_motion_text(motion), source=source_cite(motion.source)),
        )
        if not motion.positions:
            embed.add(say(Msg.POSITIONS), say(Msg.NO_POSITIONS))
        for group in _position_groups(motion.positions):
            embed.add(_position_heading(group), listed(f"• {_position_how(p)}" for p in group))
    return Reply(embeds=(embed.build(),), buttons=(_show_incident(ref.slug),))


def _show_incident(slug: str) -> Button:
    return Button(say(Msg.SHOW_INCIDENT), Action.INCIDENT, slug)


def quotes_reply(title: str, quotes: Sequence[QuoteView], *, slug: str | None = None) -> Reply:
    embed = EmbedBuilder(
        title=title, footer=unofficial(slug), timestamp=quotes[0].incident.date if quotes else None
    )
    for quote in quotes:
        context = f"_{clip(quote.context, 200)}_" if quote.context else None
        embed.add(quote.speaker, _quote_body(quote, 700, context, source_link(quote.source)))
    return Reply(embeds=(embed.build(),))


def quote_reply(quote: QuoteView) -> Reply:
    delivery = delivery_line(quote)
    embed = EmbedBuilder(
        title=quote.speaker,
        description=f"> {quote.text}" + (f"\n_{delivery}_" if delivery else ""),
        url=quote.source.url,
        footer=unofficial(quote.incident.slug),
        timestamp=quote.incident.date,
    )
    if quote.original_text:
        language = language_words(quote.original_language or "")
        embed.add(say(Msg.ORIGINAL, language=language), f"> {quote.original_text}")
    if quote.speaker_role:
        said_by = person_in_incident(quote.speaker, quote.speaker_role, quote.speaker_party)
        embed.add(say(Msg.SAID_BY), said_by)
    if quote.said_to:
        embed.add(say(Msg.SAID_TO), quote.said_to, inline=True)
    if quote.context:
        embed.add(say(Msg.CONTEXT), quote.context)
    embed.add(say(Msg.INCIDENT), incident_ref_line(quote.incident))
    embed.add(say(Msg.SOURCE), source_link(quote.source))
    return Reply(embeds=(embed.build(),), buttons=(_show_incident(quote.incident.slug),))


def rulings_reply(rulings: Sequence[RulingView]) -> Reply:
    """The rulings of one incident, in the order given (the one asked about first)."""
    first = rulings[0].incident
    embed = EmbedBuilder(
        title=say(Msg.RULING_TITLE, title=title_of(first)),
        footer=unofficial(first.slug),
        timestamp=first.date,
    )
    embed.description = f"**{_date(first.date)}**"
    for ruling in rulings:
        embed.add(ruling_headline(ruling), _ruling_text(ruling))
    return Reply(embeds=(embed.build(),), buttons=(_show_incident(first.slug),))


def telling_aliases(name: str, aliases: Iterable[str]) -> list[str]:
    """The aliases that tell a reader something: not a piece of the name ("Rota" for Anthony Rota), nor
    the name folded or reordered ("Lloyd Russell Moyle")."""
    words = fold(name).split()
    telling = []
    for alias in aliases:
        said = fold(alias).split()
        if not set(said) <= set(words) and "".join(said) != "".join(words):
            telling.append(alias)
    return telling


def _roles(person: PersonDetail) -> list[str]:
    """Each office the sources give the person (party once), with the chamber and the days it is given
    for: "Speaker — House of Commons (UK), 11 April 2016, 10 December 2018"."""
    days: dict[tuple[str, str | None], list[dt.date]] = {}
    for appearance in person.appearances:
        office = person_in_incident(appearance.role.split(";")[0].strip(), None, appearance.party)
        days.setdefault((office, appearance.chamber), []).append(appearance.incident.date)
    return [
        f"{office} — " + ", ".join([*([chamber] if chamber else []), *(_date(day) for day in dates)])
        for (office, chamber), dates in days.items()
    ]


def _appearance_line(appearance: Appearance) -> str:
    line = say(Msg.APPEARANCE, incident=incident_ref_line(appearance.incident), role=appearance.role)
    if appearance.rulings:
        outcomes = ", ".join(say(OUTCOME[outcome]) for outcome in dict.fromkeys(appearance.rulings))
        line += " " + say(Msg.RULINGS_ON_THEM, outcomes=outcomes)
    return line


def person_reply(person: PersonDetail) -> Reply:
    embed = EmbedBuilder(title=person.name, footer=unofficial(person.slug))
    facts = []
    if person.party:
        facts.append(say(Msg.PARTY, party=person.party))
    aliases = telling_aliases(person.name, person.aliases)
    if aliases:
        facts.append(say(Msg.ALSO_KNOWN_AS, aliases=", ".join(aliases)))
    embed.description = "\n".join(facts)
    embed.add(say(Msg.ROLES), listed(_roles(person)))
    embed.add(
        say(Msg.APPEARS_IN),
        listed(_appearance_line(a) for a in person.appearances) or say(Msg.NO_INCIDENTS),
    )
    embed.add(say(Msg.QUOTES), listed(_quote_line(q, limit=150) for q in person.quotes))
    buttons = tuple(
        Button(title_of(a.incident), Action.INCIDENT, a.incident.slug) for a in person.appearances[:5]
    )
    return Reply(embeds=(embed.build(),), buttons=buttons)


def _noted_source(number: int, source: SourceRef) -> str:
    line = f"{number}. {source_link(source)}"
    return f"{line}\n   _{clip(source.note, 300)}_" if source.note else line


def sources_reply(detail: IncidentDetail) -> Reply:
    """Every source of the incident with its provenance notes, where sources differ, and how the quotes'
    words reached us."""
    embed = EmbedBuilder(
        title=say(Msg.SOURCES_TITLE, title=title_of(detail.ref)),
        footer=unofficial(detail.ref.slug),
        timestamp=detail.ref.date,
    )
    embed.description = listed((_noted_source(i, s) for i, s in enumerate(detail.sources, 1)), 4000)
    if detail.notes:
        embed.add(say(Msg.SOURCES_DIFFER), text_in_language(detail.notes, None, limits.FIELD_VALUE))
    embed.add(
        say(Msg.QUOTE_NOTES),
        listed(f"{say(Msg.QUOTED, text=clip(q.text, 60))} — {q.note}" for q in detail.quotes if q.note),
    )
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
        content=say(Msg.DID_YOU_MEAN, query=echo(query), choices=lines),
        buttons=tuple(Button(c.label, c.action, c.argument, replace=True) for c in shown),
        ephemeral=True,
    )


def no_match_reply(query: str, what: str, suggestions: Sequence[Choice]) -> Reply:
    """Nothing matched ``query`` among ``what`` (the topic in words, "incident or motion")."""
    text = say(Msg.NO_MATCH, what=what, query=echo(query))
    if suggestions:
        listed = "\n".join(f"• {s.label}" for s in suggestions[:5])
        text += " " + say(Msg.NO_MATCH_SUGGESTIONS, suggestions=listed)
    text += "\n" + say(Msg.NO_MATCH_TIP)
    return Reply(content=text, ephemeral=True)


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
        listed((f"{start + i}. {c.label}" for i, c in enumerate(shown, 1)), 4000)
        if shown
        else say(Msg.NO_RESULTS)
    )
    # One button per result, so every result on the page opens (a page fills two rows at most).
    buttons = tuple(Button(c.label, c.action, c.argument) for c in shown)
    return Reply(embeds=(embed.build(),), buttons=buttons)


def help_reply(
    commands: Sequence[tuple[str, str]],
    *,
    teachers: Sequence[tuple[str, str]] = (),
    moderators: Sequence[tuple[str, str]] = (),
) -> Reply:
    """(usage, description) pairs taken from the command tree: everyone's, then the teachers' and the
    moderators' own (for those who are), each in an embed of its own; together they keep to the one
    message's embed total: a later section drops its last lines, or goes, before an earlier one."""
    embeds: list[dict[str, Any]] = []
    budget = limits.EMBED_TOTAL
    for lines, title, intro in (
        (commands, Msg.HELP_TITLE, Msg.HELP_INTRO),
        (teachers, Msg.HELP_TEACHERS_TITLE, Msg.HELP_TEACHERS_INTRO),
        (moderators, Msg.HELP_MODERATORS_TITLE, Msg.HELP_MODERATORS_INTRO),
    ):
        if embeds and not lines:
            continue  # the teachers' and moderators' sections show only to those they list commands for
        section = EmbedBuilder(title=say(title), description=say(intro))
        for usage, description in lines:
            section.add(usage, description)
        built = section.build(budget)
        if limits.embed_characters(built) > budget:  # not even its title and footer fit
            break
        embeds.append(built)
        budget -= limits.embed_characters(built)
    return Reply(embeds=tuple(embeds), ephemeral=True)
