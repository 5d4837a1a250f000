"""A quiz's life in the database: start, ask, answer, close, end. No Discord here.

Each function takes the session keyword-only and never commits; ``bot.library.Library`` runs each in
one transaction. A click is one transaction that locks its question row, so a click and the question's
closing never interleave: a click either lands before the close (and is scored by it) or finds the
question closed (and is refused). Closing sets ``closed_at`` and scores the answers in the same
transaction, only if ``closed_at`` was still unset, so scoring happens exactly once however many
paths (the timer, ``/quiz next``, the last answer, a restart) try to close the same question.

Question numbers run from 1; ``Quiz.current`` is the number asked last (0 before the first).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlmodel import Session, col, func, select

from bot.errors import Conflict, Forbidden, NotFound
from bot.limits import clip
from bot.messages.catalogue import DEFAULT_LOCALE, Msg, current_locale
from bot.quiz.questions import Question
from db.cleaning import is_id
from db.models import NAME_MAX, Quiz, QuizAnswer, QuizQuestion, QuizScore, QuizStatus


class Taken(StrEnum):
    """What became of a click."""

    TAKEN = "taken"  # a first answer
    CHANGED = "changed"  # a different answer replaced the member's earlier one
    SAME = "same"  # the member clicked the answer they had already given
    CLOSED = "closed"  # the question is closed: nothing was recorded


@dataclass(frozen=True, slots=True)
class Asked:
    """A question as it is being asked."""

    id: int
    quiz_id: int
    channel_id: int
    number: int
    total: int
    prompt: str
    choices: tuple[str, ...]
    closes_at: dt.datetime


@dataclass(frozen=True, slots=True)
class Closed:
    """A question once closed: the right answer, who got it (display names), and the source."""

    id: int
    channel_id: int
    message_id: int | None
    number: int
    total: int
    prompt: str
    choices: tuple[str, ...]
    answer: int
    source: str
    answered: int
    right: tuple[str, ...]
    locale: str  # the language the quiz was started in: its questions' and its reveals'


@dataclass(frozen=True, slots=True)
class Click:
    """The outcome of a click, and whether everyone expected has now answered (see ``_all_answered``)."""

    taken: Taken
    number: int
    choice: str
    all_answered: bool = False


@dataclass(frozen=True, slots=True)
class Standing:
    """A member's name and points, in a leaderboard or the guild's scores (never what they answered)."""

    name: str
    points: int


@dataclass(frozen=True, slots=True)
class Ended:
    """A quiz that ended: how many of its questions were asked, and its leaderboard."""

    asked: int
    total: int
    finished: bool  # the last question was asked (not stopped early)
    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class Advanced:
    """What ``/quiz next`` (or ``/quiz stop``) did: closed the current question (``closed`` shows it,
    whether it closed now or earlier), then asked the next one or, after the last, ended the quiz."""

    closed: Closed | None
    asked: Asked | None
    ended: Ended | None


@dataclass(frozen=True, slots=True)
class Waiting:
    """An open question, for rescheduling its timer after a restart."""

    id: int
    channel_id: int
    closes_at: dt.datetime


def utc(moment: dt.datetime) -> dt.datetime:
    """``moment`` as an aware UTC time (SQLite hands back naive ones)."""
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment.astimezone(dt.UTC)


def _id(row: Quiz | QuizQuestion) -> int:
    if row.id is None:
        raise RuntimeError(f"{type(row).__name__} has no id: flush the session first")
    return row.id


def running(session: Session, *, channel_id: int) -> Quiz | None:
    """The open quiz in the channel, if any."""
    return session.exec(select(Quiz).where(col(Quiz.live_channel_id) == channel_id)).first()


def _running(session: Session, channel_id: int, *, lock: bool = False) -> Quiz:
    statement = select(Quiz).where(col(Quiz.live_channel_id) == channel_id)
    quiz = session.exec(statement.with_for_update() if lock else statement).first()
    if quiz is None:
        raise NotFound(Msg.QUIZ_NONE_RUNNING)
    return quiz


def _total(session: Session, quiz_id: int) -> int:
    return session.exec(select(func.count()).where(col(QuizQuestion.quiz_id) == quiz_id)).one()


def _question(session: Session, quiz_id: int, number: int, *, lock: bool = False) -> QuizQuestion | None:
    statement = select(QuizQuestion).where(
        col(QuizQuestion.quiz_id) == quiz_id, col(QuizQuestion.number) == number
    )
    return session.exec(statement.with_for_update() if lock else statement).first()


def start(
    session: Session,
    *,
    guild_id: int,
    channel_id: int,
    user_id: int,
    questions: Sequence[Question],
    settings: dict[str, Any],
    seconds: int,
    now: dt.datetime,
) -> Asked:
    """Start a quiz of ``questions`` in the channel and ask the first. A channel holds one open quiz:
    ``Conflict`` if it has one (the unique ``live_channel_id`` also refuses a second started at once)."""
    if running(session, channel_id=channel_id) is not None:
        raise Conflict(Msg.QUIZ_ALREADY_RUNNING)
    if not questions:
        raise NotFound(Msg.QUIZ_NO_QUESTIONS)
    quiz = Quiz(
        guild_id=guild_id,
        channel_id=channel_id,
        live_channel_id=channel_id,
        started_by=user_id,
        settings={**settings, "seconds": seconds, "locale": current_locale()},
        created_at=now,
    )
    session.add(quiz)
    session.flush()
    for number, question in enumerate(questions, 1):
        session.add(
            QuizQuestion(
                quiz_id=_id(quiz),
                number=number,
                kind=question.kind,
                prompt=question.prompt,
                choices=list(question.choices),
                answer=question.answer,
                source=question.source,
            )
        )
    session.flush()
    return _ask(session, quiz, now)


def _ask(session: Session, quiz: Quiz, now: dt.datetime) -> Asked:
    quiz.current += 1
    question = _question(session, _id(quiz), quiz.current)
    if question is None:
        raise RuntimeError(f"quiz {quiz.id} has no question {quiz.current}")
    question.opened_at = now
    question.closes_at = now + dt.timedelta(seconds=int(quiz.settings["seconds"]))
    session.flush()
    return Asked(
        id=_id(question),
        quiz_id=_id(quiz),
        channel_id=quiz.channel_id,
        number=question.number,
        total=_total(session, _id(quiz)),
        prompt=question.prompt,
        choices=tuple(question.choices),
        closes_at=question.closes_at,
    )


def set_message(session: Session, *, question_id: int, message_id: int) -> None:
    """Remember which message asks the question (to reveal its answer there)."""
    question = session.get(QuizQuestion, question_id)
    if question is not None:
        question.message_id = message_id
        session.flush()


def ensure_runner(quiz: Quiz, *, user_id: int, teacher: bool) -> None:
    """Only the member who started the quiz, or a teacher, runs it (``/quiz next``, ``/quiz stop``)."""
    if not teacher and quiz.started_by != user_id:
        raise Forbidden(Msg.QUIZ_NOT_YOURS)


def answer(
    session: Session,
    *,
    question_id: int,
    guild_id: int | None,
    user_id: int,
    display_name: str,
    choice: int,
    now: dt.datetime,
) -> Click:
    """Record (or change) the member's answer, unless the question is closed or its time is up. A click
    from outside the quiz's guild (``guild_id``) is refused."""
    question = None
    if is_id(question_id):
        statement = select(QuizQuestion).where(col(QuizQuestion.id) == question_id)
        question = session.exec(statement.with_for_update()).first()
    if question is None or not 0 <= choice < len(question.choices):
        raise NotFound(Msg.QUIZ_QUESTION_GONE)
    if session.exec(select(Quiz.guild_id).where(col(Quiz.id) == question.quiz_id)).one() != guild_id:
        raise Forbidden(Msg.ANOTHER_SERVER)
    label = question.choices[choice]
    if question.closed_at is not None or question.closes_at is None or utc(question.closes_at) <= utc(now):
        return Click(Taken.CLOSED, question.number, label)
    given = session.exec(
        select(QuizAnswer).where(
            col(QuizAnswer.question_id) == question_id, col(QuizAnswer.user_id) == user_id
        )
    ).first()
    name = clip(display_name, NAME_MAX)
    if given is None:
        taken = Taken.TAKEN
        session.add(
            QuizAnswer(
                question_id=question_id, user_id=user_id, display_name=name, choice=choice, answered_at=now
            )
        )
    elif given.choice == choice:
        taken = Taken.SAME
    else:
        taken = Taken.CHANGED
        given.choice, given.answered_at, given.display_name = choice, now, name
    session.flush()
    return Click(taken, question.number, label, all_answered=_all_answered(session, question))


def _answerers(session: Session, question_id: int) -> set[int]:
    return set(session.exec(select(QuizAnswer.user_id).where(col(QuizAnswer.question_id) == question_id)))


def _all_answered(session: Session, question: QuizQuestion) -> bool:
    """Whether everyone who answered the previous question has answered this one: the class, as far as
    the quiz knows it. The first question has no previous one, so it waits for its time or the teacher."""
    if question.number == 1:
        return False
    previous = _question(session, question.quiz_id, question.number - 1)
    if previous is None:
        return False
    expected = _answerers(session, _id(previous))
    return bool(expected) and expected <= _answerers(session, _id(question))


def close(session: Session, *, question_id: int, now: dt.datetime) -> Closed | None:
    """Close the question and score its answers; None if it was closed already (scored then)."""
    question = session.exec(
        select(QuizQuestion).where(col(QuizQuestion.id) == question_id).with_for_update()
    ).first()
    if question is None or question.closed_at is not None or question.opened_at is None:
        return None
    question.closed_at = now
    quiz = session.get(Quiz, question.quiz_id)
    if quiz is None:
        raise RuntimeError(f"question {question_id} has no quiz")
    answers = list(session.exec(select(QuizAnswer).where(col(QuizAnswer.question_id) == question_id)))
    for given in answers:
        _score(session, quiz.guild_id, given, right=given.choice == question.answer)
    session.flush()
    return _closed(session, quiz, question, answers)


def _score(session: Session, guild_id: int, given: QuizAnswer, *, right: bool) -> None:
    score = session.exec(
        select(QuizScore)
        .where(col(QuizScore.guild_id) == guild_id, col(QuizScore.user_id) == given.user_id)
        .with_for_update()
    ).first()
    if score is None:
        score = QuizScore(guild_id=guild_id, user_id=given.user_id, display_name=given.display_name)
        session.add(score)
    score.display_name = given.display_name
    score.points += int(right)
    score.answered += 1


def _closed(session: Session, quiz: Quiz, question: QuizQuestion, answers: Sequence[QuizAnswer]) -> Closed:
    right = sorted(
        (a for a in answers if a.choice == question.answer), key=lambda a: (a.answered_at, a.user_id)
    )
    return Closed(
        id=_id(question),
        channel_id=quiz.channel_id,
        message_id=question.message_id,
        number=question.number,
        total=_total(session, _id(quiz)),
        prompt=question.prompt,
        choices=tuple(question.choices),
        answer=question.answer,
        source=question.source,
        answered=len(answers),
        right=tuple(a.display_name for a in right),
        locale=str(quiz.settings.get("locale") or DEFAULT_LOCALE),
    )


def _close_current(session: Session, quiz: Quiz, now: dt.datetime) -> Closed | None:
    """Close the quiz's current question (if still open) and return it as closed, for showing its answer
    again above what comes next; None before the first question."""
    current = _question(session, _id(quiz), quiz.current)
    if current is None:
        return None
    closed = close(session, question_id=_id(current), now=now)
    if closed is not None:
        return closed
    answers = list(session.exec(select(QuizAnswer).where(col(QuizAnswer.question_id) == _id(current))))
    return _closed(session, quiz, current, answers)


def advance(session: Session, *, channel_id: int, user_id: int, teacher: bool, now: dt.datetime) -> Advanced:
    """``/quiz next``: close the current question, then ask the next, or end the quiz after the last."""
    quiz = _running(session, channel_id, lock=True)
    ensure_runner(quiz, user_id=user_id, teacher=teacher)
    closed = _close_current(session, quiz, now)
    if quiz.current < _total(session, _id(quiz)):
        return Advanced(closed, _ask(session, quiz, now), None)
    return Advanced(closed, None, _end(session, quiz, now))


def stop(session: Session, *, channel_id: int, user_id: int, teacher: bool, now: dt.datetime) -> Advanced:
    """``/quiz stop``: close the current question and end the quiz."""
    quiz = _running(session, channel_id, lock=True)
    ensure_runner(quiz, user_id=user_id, teacher=teacher)
    closed = _close_current(session, quiz, now)
    return Advanced(closed, None, _end(session, quiz, now))


def _end(session: Session, quiz: Quiz, now: dt.datetime) -> Ended:
    quiz.status = QuizStatus.ENDED
    quiz.live_channel_id = None
    quiz.ended_at = now
    session.flush()
    total = _total(session, _id(quiz))
    return Ended(
        asked=quiz.current,
        total=total,
        finished=quiz.current >= total,
        standings=leaderboard(session, quiz_id=_id(quiz)),
    )


def leaderboard(session: Session, *, quiz_id: int) -> tuple[Standing, ...]:
    """The quiz's points by member over its closed questions, best first (ties by name)."""
    rows = session.exec(
        select(QuizAnswer, QuizQuestion)
        .join(QuizQuestion, col(QuizQuestion.id) == col(QuizAnswer.question_id))
        .where(col(QuizQuestion.quiz_id) == quiz_id, col(QuizQuestion.closed_at).is_not(None))
        .order_by(col(QuizAnswer.answered_at))
    ).all()
    points: dict[int, int] = {}
    names: dict[int, str] = {}
    for given, question in rows:
        points[given.user_id] = points.get(given.user_id, 0) + int(given.choice == question.answer)
        names[given.user_id] = given.display_name
    ranked = sorted(points, key=lambda user: (-points[user], names[user].casefold(), user))
    return tuple(Standing(names[user], points[user]) for user in ranked)


def waiting(session: Session) -> list[Waiting]:
    """Every open question of every open quiz (what a restarted bot must time again)."""
    rows = session.exec(
        select(QuizQuestion, Quiz)
        .join(Quiz, col(Quiz.id) == col(QuizQuestion.quiz_id))
        .where(
            col(Quiz.status) == QuizStatus.OPEN,
            col(QuizQuestion.opened_at).is_not(None),
            col(QuizQuestion.closed_at).is_(None),
        )
        .order_by(col(QuizQuestion.id))
    ).all()
    return [
        Waiting(_id(question), quiz.channel_id, utc(question.closes_at))
        for question, quiz in rows
        if question.closes_at is not None
    ]


def scores(session: Session, *, guild_id: int) -> list[Standing]:
    """The guild's running totals, best first: names and points, nothing of who answered what."""
    rows = session.exec(
        select(QuizScore)
        .where(col(QuizScore.guild_id) == guild_id)
        .order_by(col(QuizScore.points).desc(), col(QuizScore.display_name), col(QuizScore.user_id))
    ).all()
    return [Standing(row.display_name, row.points) for row in rows]


def clear_scores(session: Session, *, guild_id: int) -> int:
    """Forget the guild's totals; returns how many members had one."""
    rows = list(session.exec(select(QuizScore).where(col(QuizScore.guild_id) == guild_id)))
    for row in rows:
        session.delete(row)
    session.flush()
    return len(rows)
