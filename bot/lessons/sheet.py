"""A lesson sheet in Markdown: what happened, the people, the procedure, the key quotes, the ruling and
its sanction, three discussion questions and the sources; and a unit's sheet, the sheets of a
collection's incidents under one title.

Every fact is one bullet line ending with footnote marks (``[1][3]``) that match the numbered Sources
list at the end: a quote, motion, position or ruling cites its own source; the summary, the people and
the incident's kind rest on all of the incident's sources together, so they cite them all; a term cites
the source that states its meaning. Headings and labels come from the catalogue.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.answers.queries import IncidentDetail, MotionView, QuoteView, RulingView, SourceRef, TermDetail
from bot.answers.render import (
    ATTRIBUTION,
    STANCE,
    delivery_line,
    person_in_incident,
    ruling_headline,
    text_in_language,
    title_of,
)
from bot.lessons.citations import Citations
from bot.lessons.questions import discussion_questions
from bot.messages.catalogue import Msg, day_words, say
from bot.search.text import fold


@dataclass(frozen=True, slots=True)
class Lesson:
    """A sheet ready to attach: what it is about (``name``, a slug; ``title``, in words) and its Markdown."""

    name: str
    title: str
    text: str

    @property
    def filename(self) -> str:
        """``lesson-singh-2020.md``."""
        return f"lesson-{self.name}.md"

    @property
    def content(self) -> bytes:
        return self.text.encode("utf-8")


def _one_line(text: str) -> str:
    """A text on one line, so that a fact stays one bullet."""
    return " ".join(text.split())


def _fact(text: str, marks: str) -> str:
    return f"- {_one_line(text)} {marks}"


def _words(value: str) -> str:
    return value.replace("_", " ")


def _motion_facts(motion: MotionView, cite: Citations) -> list[str]:
    parts = [say(Msg.LESSON_MOTION, text=motion.text)]
    if motion.moved_by:
        parts.append(say(Msg.MOVED_BY, who=motion.moved_by))
    parts.append(say(Msg.PROCEDURE, procedure=_words(motion.procedure), result=_words(motion.result)))
    if motion.result_detail:
        parts.append(motion.result_detail)
    facts = [_fact(" · ".join(parts), cite.cite([motion.source]))]
    for position in motion.positions:
        who = person_in_incident(position.who, None, position.party)
        said = say(
            Msg.LESSON_POSITION,
            who=who,
            stance=say(STANCE[position.stance]),
            how=say(ATTRIBUTION[position.attribution]),
        )
        if position.detail:
            said = f"{said}: {position.detail}"
        facts.append(_fact(said, cite.cite([position.source])))
    return facts


def _quote_fact(quote: QuoteView, cite: Citations) -> str:
    delivery = delivery_line(quote)
    text = f"“{quote.text}” — {quote.speaker}" + (f" ({delivery})" if delivery else "")
    return _fact(text, cite.cite([quote.source]))


def _ruling_fact(ruling: RulingView, cite: Citations) -> str:
    return _fact(
        f"**{ruling_headline(ruling)}**: {text_in_language(ruling.summary, ruling.summary_fr)}",
        cite.cite([ruling.source]),
    )


def _term_fact(term: TermDetail, cite: Citations) -> str:
    return _fact(f"**{term.name}**: {term.definition}", cite.cite([term.source]))


def _source_line(number: int, source: SourceRef) -> str:
    title = source.title or source.publisher or say(Msg.NEWS_REPORT)
    parts = [title]
    if source.title and source.publisher:
        parts.append(source.publisher)
    if source.published:
        parts.append(day_words(source.published))
    line = f"- [{number}] " + " — ".join(_one_line(part) for part in parts)
    return f"{line}. <{source.url}>" if source.url else f"{line}."


def _section(heading: str, lines: Sequence[str], empty: Msg) -> list[str]:
    return ["", f"## {heading}", "", *(lines or [f"_{say(empty)}_"])]


def lesson_sheet(detail: IncidentDetail, terms: Iterable[TermDetail] = ()) -> Lesson:
    """The incident's lesson sheet; ``terms`` are the glossary terms it is linked with."""
    cite = Citations()
    everything = cite.cite(detail.sources)  # numbers the incident's own sources first, in its order
    ref = detail.ref
    happened = [
        _fact(text_in_language(detail.summary, detail.summary_fr), everything),
        _fact(
            say(Msg.LESSON_WHEN, date=day_words(ref.date), chamber=detail.chamber, country=detail.country),
            everything,
        ),
        _fact(say(Msg.LESSON_KIND, kind=_words(detail.kind)), everything),
    ]
    if detail.notes:
        happened.append(_fact(say(Msg.LESSON_SOURCES_DIFFER, notes=detail.notes), everything))
    people = [
        _fact(person_in_incident(p.name, p.role, p.party, strong=True), everything)
        for p in detail.participants
    ]
    procedure = [fact for motion in detail.motions for fact in _motion_facts(motion, cite)]
    procedure += [_term_fact(term, cite) for term in terms]
    questions = [f"{n}. {_one_line(question)}" for n, question in enumerate(discussion_questions(detail), 1)]
    lines = [
        f"# {say(Msg.LESSON_TITLE, title=title_of(ref))}",
        "",
        f"_{say(Msg.UNOFFICIAL)} · `{ref.slug}`_",
        *_section(say(Msg.LESSON_WHAT_HAPPENED), happened, Msg.LESSON_NOTHING),
        *_section(say(Msg.LESSON_PEOPLE), people, Msg.LESSON_NO_PEOPLE),
        *_section(say(Msg.LESSON_PROCEDURE), procedure, Msg.LESSON_NO_PROCEDURE),
        *_section(say(Msg.KEY_QUOTES), [_quote_fact(q, cite) for q in detail.quotes], Msg.LESSON_NO_QUOTES),
        *_section(
            say(Msg.LESSON_RULING), [_ruling_fact(r, cite) for r in detail.rulings], Msg.LESSON_NO_RULING
        ),
        *_section(say(Msg.LESSON_QUESTIONS), questions, Msg.LESSON_NOTHING),
        *_section(
            say(Msg.SOURCES), [_source_line(n, s) for n, s in enumerate(cite.sources, 1)], Msg.LESSON_NOTHING
        ),
    ]
    return Lesson(ref.slug, title_of(ref), "\n".join(lines) + "\n")


def unit_name(name: str) -> str:
    """A collection's name as a file name's part: ``Unit 2: Order!`` → ``unit-2-order``."""
    return "-".join(fold(name).split()) or "unit"


def unit_sheet(name: str, sheets: Sequence[Lesson]) -> Lesson:
    """One sheet for a unit (a collection named ``name``): its incidents' sheets in order, each a
    section with its own numbered Sources list, so that every footnote resolves within its incident."""
    lines = [f"# {say(Msg.LESSON_UNIT_TITLE, name=name)}", "", f"_{say(Msg.UNOFFICIAL)}_"]
    lines += [f"{index}. {sheet.title} (`{sheet.name}`)" for index, sheet in enumerate(sheets, 1)]
    for sheet in sheets:
        lines += ["", "---", ""]
        lines += [f"#{line}" if line.startswith("#") else line for line in sheet.text.splitlines()]
    return Lesson(unit_name(name), say(Msg.LESSON_UNIT, name=name), "\n".join(lines) + "\n")
