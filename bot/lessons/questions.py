"""Three discussion questions for a lesson sheet, made from the incident's own facts.

Each template asks about something the incident has (a quote and the ruling that followed, a
unanimous-consent request someone refused, a position known only from the press, a glossary term,
where the sources differ, ...); the first three that apply are asked, in the order below, and two
general questions about the chair and the rules make up the count when an incident has little.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from bot.answers.queries import IncidentDetail
from bot.answers.render import ATTRIBUTION, STANCE, _date
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from bot.messages.outcomes import OUTCOME
from db.models import Attribution, Procedure, Stance

QUESTIONS = 3
QUOTED = 160  # the most of a quote or motion a question repeats


def _words(value: str) -> str:
    return value.replace("_", " ")


def _about_a_quote(detail: IncidentDetail) -> Iterator[str]:
    """The words of the member the last ruling (the sanction that stood) was on, else the first quote."""
    if detail.quotes and detail.rulings:
        ruling = detail.rulings[-1]
        theirs = [quote for quote in detail.quotes if ruling.subject and quote.speaker == ruling.subject]
        quote = (theirs or list(detail.quotes))[0]
        yield say(
            Msg.LESSON_Q_QUOTE,
            speaker=quote.speaker,
            text=clip(quote.text, QUOTED),
            outcome=say(OUTCOME[ruling.outcome]),
        )


def _about_consent(detail: IncidentDetail) -> Iterator[str]:
    for motion in detail.motions:
        objections = [p for p in motion.positions if p.stance is Stance.OBJECT]
        if motion.procedure is Procedure.UNANIMOUS_CONSENT and objections:
            yield say(Msg.LESSON_Q_CONSENT, motion=clip(motion.text, QUOTED), objector=objections[0].who)
            return


def _about_attribution(detail: IncidentDetail) -> Iterator[str]:
    for motion in detail.motions:
        for position in motion.positions:
            if position.attribution is not Attribution.RECORDED:
                yield say(
                    Msg.LESSON_Q_ATTRIBUTION,
                    who=position.who,
                    stance=say(STANCE[position.stance]),
                    attribution=say(ATTRIBUTION[position.attribution]),
                )
                return


def _about_a_term(detail: IncidentDetail) -> Iterator[str]:
    if detail.terms:
        yield say(Msg.LESSON_Q_TERM, term=detail.terms[0].name)


def _about_the_sanction(detail: IncidentDetail) -> Iterator[str]:
    if detail.rulings and not detail.quotes:
        ruling = detail.rulings[-1]
        yield say(Msg.LESSON_Q_SANCTION, ruled_by=ruling.ruled_by, outcome=say(OUTCOME[ruling.outcome]))


def _about_a_motion(detail: IncidentDetail) -> Iterator[str]:
    for motion in detail.motions:
        if motion.procedure is not Procedure.UNANIMOUS_CONSENT:
            yield say(
                Msg.LESSON_Q_MOTION,
                motion=clip(motion.text, QUOTED),
                procedure=_words(motion.procedure),
                result=_words(motion.result),
            )
            return


def _about_the_sources(detail: IncidentDetail) -> Iterator[str]:
    if detail.notes and len(detail.sources) > 1:
        yield say(Msg.LESSON_Q_SOURCES)


def _in_the_chair(detail: IncidentDetail) -> Iterator[str]:
    yield say(Msg.LESSON_Q_CHAIR, chamber=detail.chamber, date=_date(detail.ref.date))


def _about_the_rules(detail: IncidentDetail) -> Iterator[str]:
    yield say(Msg.LESSON_Q_RULES)


TEMPLATES: tuple[Callable[[IncidentDetail], Iterator[str]], ...] = (
    _about_a_quote,
    _about_consent,
    _about_attribution,
    _about_a_term,
    _about_the_sanction,
    _about_a_motion,
    _about_the_sources,
    _in_the_chair,
    _about_the_rules,
)


def discussion_questions(detail: IncidentDetail) -> list[str]:
    """The first ``QUESTIONS`` questions whose facts the incident has."""
    asked = [question for template in TEMPLATES for question in template(detail)]
    return asked[:QUESTIONS]
