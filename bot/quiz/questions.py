"""Quiz questions generated from the database: the facts an incident records, asked as multiple choice.

Every question is built from one fact (who ruled, who objected, which chamber, which year, who said a
quote, what a ruling decided, what a motion asked) and the source that states it. Its wrong choices are
the same kind of thing taken from the rest of the pool (another ruler, another party or person, another
chamber, another year of the same decade, another outcome, another motion), never anything that is
also true of the fact (another objector to the same motion, another outcome of a ruling on the same
member), never the right answer twice and never two labels that fold alike. A fact with fewer than two
such wrong choices asks nothing. Randomness comes from the caller's ``random.Random``, so a seed makes a
quiz reproducible. No Discord and no database here: ``bot.quiz.pool`` reads the incidents.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot import limits
from bot.answers.queries import IncidentDetail, MotionView, RulingView
from bot.answers.render import source_link
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from bot.messages.outcomes import OUTCOME
from bot.search.text import fold
from db.models import RulingOutcome, Stance

MIN_WRONG = 2
MAX_WRONG = 3  # four choices in all
QUOTE_SHOWN = 240
MOTION_SHOWN = 160
# Outcomes that are not a sanction on a member, left out of "what followed" questions.
NOT_SANCTIONS = frozenset(
    {RulingOutcome.PRIVILEGE_FOUND, RulingOutcome.PRIVILEGE_NOT_FOUND, RulingOutcome.SITTING_SUSPENDED}
)
OBJECTING = {Stance.OBJECT: Msg.QUIZ_ASK_OBJECTED, Stance.NO: Msg.QUIZ_ASK_VOTED_AGAINST}


class QuestionKind(StrEnum):
    """What a question asks; the value is the ``kind`` option's choice and the stored kind."""

    RULED_BY = "ruled-by"
    OBJECTED = "objected"
    CHAMBER = "chamber"
    YEAR = "year"
    QUOTE = "quote"
    SANCTION = "sanction"
    MOTION = "motion"
    CUSTOM = "custom"  # a teacher's own question (bot.quiz.custom)


@dataclass(frozen=True, slots=True)
class Question:
    """A multiple-choice question: ``choices[answer]`` is right, and ``source`` says so."""

    kind: str
    prompt: str
    choices: tuple[str, ...]
    answer: int
    source: str
    incident: str | None = None  # the incident's slug, for generated questions

    @property
    def right(self) -> str:
        return self.choices[self.answer]


@dataclass(frozen=True, slots=True)
class Pooled:
    """An incident as a quiz draws on it, with its chamber's slug (for the ``chamber`` filter)."""

    chamber: str
    detail: IncidentDetail


@dataclass(frozen=True, slots=True)
class Filters:
    """Which incidents and kinds a quiz asks about; None is "any"."""

    incidents: frozenset[str] | None = None  # slugs (one incident, or a collection's)
    chamber: str | None = None
    kind: QuestionKind | None = None

    @property
    def takes_custom(self) -> bool:
        """Whether teachers' own questions (about no incident in particular) may be asked."""
        return self.incidents is None and self.chamber is None and self.kind in (None, QuestionKind.CUSTOM)

    def takes(self, pooled: Pooled) -> bool:
        return (self.incidents is None or pooled.detail.ref.slug in self.incidents) and (
            self.chamber is None or pooled.chamber == self.chamber
        )


def label(text: str) -> str:
    """A choice as a button shows it: one line, at most ``BUTTON_LABEL`` characters."""
    return clip(" ".join(text.split()), limits.BUTTON_LABEL)


def same(one: str, other: str) -> bool:
    """Whether two labels name the same thing: equal once folded, or one's words all in the other's
    ("Speaker John Bercow" and "John Bercow")."""
    a, b = fold(one).split(), fold(other).split()
    return bool(a) and bool(b) and (set(a) <= set(b) or set(b) <= set(a))


@dataclass(frozen=True)
class Fact:
    """What a question needs before its wrong choices are drawn: the right answer, the other true
    answers (never offered as wrong), the nearest wrong ones (drawn first) and the rest of the pool."""

    kind: QuestionKind
    incident: str
    prompt: str
    answer: str
    source: str
    true: tuple[str, ...] = ()
    near: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()

    def question(self, rng: random.Random) -> Question | None:
        right = label(self.answer)
        taken = [right, *(label(t) for t in self.true)]
        wrong: list[str] = []
        near, rest = list(dict.fromkeys(self.near)), list(dict.fromkeys(self.pool))
        rng.shuffle(near)
        rng.shuffle(rest)
        for candidate in map(label, [*near, *rest]):
            if len(wrong) == MAX_WRONG:
                break
            if not any(same(candidate, seen) for seen in [*taken, *wrong]):
                wrong.append(candidate)
        if len(wrong) < MIN_WRONG:
            return None
        choices = [right, *wrong]
        rng.shuffle(choices)
        return Question(
            kind=self.kind.value,
            prompt=self.prompt,
            choices=tuple(choices),
            answer=choices.index(right),
            source=self.source,
            incident=self.incident,
        )


class Pool:
    """Every name, chamber, outcome and motion the pool holds, where wrong choices come from; names by
    chamber too, since another Speaker of the same House is the most plausible wrong answer."""

    def __init__(self, incidents: Sequence[IncidentDetail]) -> None:
        rulings = [ruling for detail in incidents for ruling in detail.rulings]
        self.outcomes = tuple(
            dict.fromkeys(r.outcome for r in rulings if r.outcome not in NOT_SANCTIONS)
        ) or tuple(o for o in RulingOutcome if o not in NOT_SANCTIONS)
        self.chambers = tuple(dict.fromkeys(detail.chamber for detail in incidents))
        self.motions = tuple(motion.text for detail in incidents for motion in detail.motions)
        self._rulers: dict[str, list[str]] = {}
        self._voices: dict[str, list[str]] = {}
        self._speakers: dict[str, list[str]] = {}
        for detail in incidents:
            self._rulers.setdefault(detail.chamber, []).extend(r.ruled_by for r in detail.rulings)
            self._voices.setdefault(detail.chamber, []).extend(
                [p.who for m in detail.motions for p in m.positions]
                + [p.party.short for p in detail.participants if p.party is not None]
            )
            self._speakers.setdefault(detail.chamber, []).extend(
                [q.speaker for q in detail.quotes] + [p.name for p in detail.participants]
            )

    @staticmethod
    def _split(names: dict[str, list[str]], chamber: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(the names of ``chamber``, everyone else's)."""
        others = [name for other, found in names.items() if other != chamber for name in found]
        return tuple(names.get(chamber, ())), tuple(others)

    def rulers(self, chamber: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return self._split(self._rulers, chamber)

    def voices(self, chamber: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Who takes positions on motions: people, parties and groups."""
        return self._split(self._voices, chamber)

    def speakers(self, chamber: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return self._split(self._speakers, chamber)


def _where(detail: IncidentDetail) -> dict[str, object]:
    return {"chamber": detail.chamber, "year": detail.ref.date.year, "title": detail.ref.title}


def _outcome(outcome: RulingOutcome) -> str:
    return say(OUTCOME[outcome])


def _ruled_by(detail: IncidentDetail, pool: Pool) -> Iterator[Fact]:
    near, rest = pool.rulers(detail.chamber)
    for ruling in detail.rulings:
        alike = [r for r in detail.rulings if r.outcome == ruling.outcome and r.subject == ruling.subject]
        fields = {**_where(detail), "outcome": _outcome(ruling.outcome)}
        prompt = (
            say(Msg.QUIZ_ASK_RULED_ON, subject=ruling.subject, **fields)
            if ruling.subject
            else say(Msg.QUIZ_ASK_RULED, **fields)
        )
        yield Fact(
            QuestionKind.RULED_BY,
            detail.ref.slug,
            prompt,
            ruling.ruled_by,
            source_link(ruling.source),
            true=tuple(r.ruled_by for r in alike),
            near=near,
            pool=rest,
        )


def _sanction(detail: IncidentDetail, pool: Pool) -> Iterator[Fact]:
    for ruling in detail.rulings:
        if ruling.subject is None or ruling.outcome in NOT_SANCTIONS:
            continue
        on_them = [r.outcome for r in detail.rulings if _same_subject(r, ruling)]
        yield Fact(
            QuestionKind.SANCTION,
            detail.ref.slug,
            say(Msg.QUIZ_ASK_SANCTION, who=ruling.ruled_by, subject=ruling.subject, **_where(detail)),
            _outcome(ruling.outcome),
            source_link(ruling.source),
            true=tuple(map(_outcome, on_them)),
            pool=tuple(map(_outcome, pool.outcomes)),
        )


def _same_subject(one: RulingView, other: RulingView) -> bool:
    return one.subject is not None and other.subject is not None and same(one.subject, other.subject)


def _objected(detail: IncidentDetail, pool: Pool) -> Iterator[Fact]:
    near, rest = pool.voices(detail.chamber)
    for motion in detail.motions:
        for stance, ask in OBJECTING.items():
            against = [p for p in motion.positions if p.stance is stance]
            if not against:
                continue
            others = [p.who for p in motion.positions if p.stance is not stance]
            yield Fact(
                QuestionKind.OBJECTED,
                detail.ref.slug,
                say(ask, motion=_motion_words(motion), **_where(detail)),
                against[0].who,
                source_link(against[0].source),
                true=tuple(p.who for p in against),
                near=tuple(others) + near,
                pool=rest,
            )


def _motion_words(motion: MotionView) -> str:
    return clip(" ".join(motion.text.split()), MOTION_SHOWN)


def _chamber(detail: IncidentDetail, pool: Pool) -> Iterator[Fact]:
    if detail.sources:
        yield Fact(
            QuestionKind.CHAMBER,
            detail.ref.slug,
            say(Msg.QUIZ_ASK_CHAMBER, **_where(detail)),
            detail.chamber,
            source_link(detail.sources[0]),
            pool=pool.chambers,
        )


def _year(detail: IncidentDetail, _pool: Pool) -> Iterator[Fact]:
    if detail.sources:
        year = detail.ref.date.year
        decade = range(year - year % 10, min(year - year % 10 + 10, dt.date.today().year + 1))
        yield Fact(
            QuestionKind.YEAR,
            detail.ref.slug,
            say(Msg.QUIZ_ASK_YEAR, **_where(detail)),
            str(year),
            source_link(detail.sources[0]),
            pool=tuple(str(other) for other in decade if other != year),
        )


def _quote(detail: IncidentDetail, pool: Pool) -> Iterator[Fact]:
    near, rest = pool.speakers(detail.chamber)
    for quote in detail.quotes:
        words = clip(" ".join(quote.text.split()), QUOTE_SHOWN)
        saying_it = [q.speaker for q in detail.quotes if fold(q.text) == fold(quote.text)]
        yield Fact(
            QuestionKind.QUOTE,
            detail.ref.slug,
            say(Msg.QUIZ_ASK_QUOTE, quote=words, **_where(detail)),
            quote.speaker,
            source_link(quote.source),
            true=tuple(saying_it),
            near=near,
            pool=rest,
        )


def _motion(detail: IncidentDetail, pool: Pool) -> Iterator[Fact]:
    for motion in detail.motions:
        yield Fact(
            QuestionKind.MOTION,
            detail.ref.slug,
            say(Msg.QUIZ_ASK_MOTION, **_where(detail)),
            motion.text,
            source_link(motion.source),
            true=tuple(m.text for m in detail.motions),
            pool=pool.motions,
        )


def _nothing(_detail: IncidentDetail, _pool: Pool) -> Iterator[Fact]:
    yield from ()


FACTS: dict[QuestionKind, Callable[[IncidentDetail, Pool], Iterable[Fact]]] = {
    QuestionKind.RULED_BY: _ruled_by,
    QuestionKind.OBJECTED: _objected,
    QuestionKind.CHAMBER: _chamber,
    QuestionKind.YEAR: _year,
    QuestionKind.QUOTE: _quote,
    QuestionKind.SANCTION: _sanction,
    QuestionKind.MOTION: _motion,
}


def questions(pooled: Sequence[Pooled], rng: random.Random, filters: Filters = Filters()) -> list[Question]:
    """Every question the filtered incidents give, wrong choices drawn from the whole pool."""
    pool = Pool([p.detail for p in pooled])
    kinds = [filters.kind] if filters.kind is not None else list(FACTS)
    found = []
    for entry in pooled:
        if not filters.takes(entry):
            continue
        for kind in kinds:
            for fact in FACTS.get(kind, _nothing)(entry.detail, pool):
                question = fact.question(rng)
                if question is not None:
                    found.append(question)
    return found


def draw(candidates: Sequence[Question], count: int, rng: random.Random) -> list[Question]:
    """``count`` of ``candidates`` (fewer if there are not enough), no prompt twice, kinds taking turns
    so that a short quiz is not all one kind."""
    by_kind: dict[str, list[Question]] = {}
    for question in rng.sample(list(candidates), len(candidates)):
        by_kind.setdefault(question.kind, []).append(question)
    turns = list(by_kind.values())
    rng.shuffle(turns)
    drawn: list[Question] = []
    prompts: set[str] = set()
    while turns and len(drawn) < count:
        for queue in list(turns):
            if not queue:
                turns.remove(queue)
                continue
            question = queue.pop()
            if question.prompt not in prompts and len(drawn) < count:
                prompts.add(question.prompt)
                drawn.append(question)
    return drawn
