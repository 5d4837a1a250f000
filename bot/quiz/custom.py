"""Teachers' own quiz questions (``/quiz add``): curated entries of kind ``QUESTION``, written through
``bot.curation.changes.apply`` (so audited and undoable), asked beside the generated ones. No Discord."""

from __future__ import annotations

import random

from sqlmodel import Session, col, select

from bot.answers.queries import SourceRef
from bot.answers.render import source_link
from bot.inputs import line
from bot.quiz.questions import Question, QuestionKind, label
from db.dataset.schema import QuestionEntry
from db.models import QUESTION_MAX, CustomQuestion, Source

__all__ = ["QUESTION_MAX", "custom_questions", "new_entry", "next_slug"]

SLUG_PREFIX = "question-"


def next_slug(session: Session, *, guild_id: int) -> str:
    """The slug of the guild's next question: ``question-N``, one past the highest N it ever used (a
    removed question's slug stays its own, so an undo never finds it taken)."""
    slugs = session.exec(select(CustomQuestion.slug).where(col(CustomQuestion.guild_id) == guild_id))
    numbers = [int(slug[len(SLUG_PREFIX) :]) for slug in slugs if slug[len(SLUG_PREFIX) :].isdigit()]
    return f"{SLUG_PREFIX}{max(numbers, default=0) + 1}"


def new_entry(slug: str, *, prompt: str, answer: str, wrong: list[str], source: str) -> QuestionEntry:
    """The entry ``/quiz add`` proposes, its texts cleaned (``bot.inputs``) but unvalidated:
    ``changes.apply`` validates it politely."""
    return QuestionEntry.model_construct(
        slug=slug,
        prompt=line(prompt, option="prompt"),
        answer=line(answer, option="answer"),
        wrong=[line(choice, option="wrong") for choice in wrong],
        source=line(source, option="source"),
    )


def custom_questions(session: Session, *, guild_id: int, rng: random.Random) -> list[Question]:
    """The guild's own questions that are not removed, their choices in an order ``rng`` draws."""
    rows = session.exec(
        select(CustomQuestion, Source)
        .join(Source, col(Source.id) == col(CustomQuestion.source_id))
        .where(col(CustomQuestion.guild_id) == guild_id, col(CustomQuestion.removed_at).is_(None))
        .order_by(col(CustomQuestion.id))
    ).all()
    found = []
    for row, source in rows:
        choices = [label(row.answer), *(label(choice) for choice in row.wrong)]
        right = choices[0]
        rng.shuffle(choices)
        ref = SourceRef(source.key, source.url, source.title, source.publisher, source.published)
        found.append(
            Question(
                kind=QuestionKind.CUSTOM.value,
                prompt=row.prompt,
                choices=tuple(choices),
                answer=choices.index(right),
                source=source_link(ref),
            )
        )
    return found
