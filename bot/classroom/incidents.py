"""Incidents as a class lists them (date, title, chamber), read in a guild's view: a collection's, a
timeline's (by chamber, person and dates), and the anniversaries nearest a day.

Functions take the session keyword-only and never commit; ``anniversaries`` is plain arithmetic.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, or_, select

from bot.errors import InvalidInput
from bot.limits import clip
from bot.messages.catalogue import Msg
from db.dataset.rows import GuildView
from db.models import SHARED_GUILD, Chamber, Incident, Participant, Person, Quote, Ruling

LEAP_YEAR = 2000  # where every day of the year, 29 February too, has its place
DAYS = 366


@dataclass(frozen=True, slots=True)
class IncidentLine:
    slug: str
    title: str
    date: dt.date
    chamber: str  # its name


@dataclass(frozen=True, slots=True)
class TimelineFilters:
    """What ``/timeline`` narrows to: a chamber and a person (slugs), and dates (inclusive)."""

    chamber: str | None = None
    person: str | None = None
    start: dt.date | None = None
    end: dt.date | None = None


NO_FILTERS = TimelineFilters()
DATE = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")


def bound(text: str, *, end: bool) -> dt.date:
    """A ``from`` (``end`` False) or ``to`` date as typed: a year (2020), a month (2020-06) or a day
    (2020-06-17), taken from its first day or to its last."""
    match = DATE.fullmatch(text.strip())
    try:
        if match is None:
            raise ValueError(text)
        year, month, day = int(match[1]), match[2], match[3]
        if month is None:
            return dt.date(year, 12, 31) if end else dt.date(year, 1, 1)
        if day is None:
            first = dt.date(year, int(month), 1)
            return (first + dt.timedelta(days=31)).replace(day=1) - dt.timedelta(days=1) if end else first
        return dt.date(year, int(month), int(day))
    except ValueError:
        raise InvalidInput(Msg.TIMELINE_BAD_DATE, value=clip(text, 40)) from None


def timeline_filters(
    *, chamber: str | None = None, person: str | None = None, start: str | None = None, end: str | None = None
) -> TimelineFilters:
    """``/timeline``'s options as filters; dates that cannot be read, or that run backwards, are refused."""
    first = None if start is None else bound(start, end=False)
    last = None if end is None else bound(end, end=True)
    if first is not None and last is not None and first > last:
        raise InvalidInput(Msg.TIMELINE_BAD_RANGE, start=first.isoformat(), end=last.isoformat())
    return TimelineFilters(chamber=chamber, person=person, start=first, end=last)


def _lines(session: Session, incidents: Iterable[Incident]) -> dict[str, IncidentLine]:
    rows = list(incidents)
    chamber_ids = {row.chamber_id for row in rows}
    chambers = {c.id: c.name for c in session.exec(select(Chamber).where(col(Chamber.id).in_(chamber_ids)))}
    return {
        row.slug: IncidentLine(row.slug, row.title, row.date, chambers.get(row.chamber_id, ""))
        for row in rows
    }


def _visible(session: Session, guild_id: int, slugs: Iterable[str] | None = None) -> list[Incident]:
    ids = GuildView(session, guild_id).ids(Incident)
    wanted = ids.values() if slugs is None else [ids[slug] for slug in slugs if slug in ids]
    return list(session.exec(select(Incident).where(col(Incident.id).in_(set(wanted)))))


def lines_for(session: Session, *, guild_id: int, slugs: Sequence[str]) -> list[IncidentLine]:
    """The lines of these incidents the guild sees, in the order of ``slugs``."""
    lines = _lines(session, _visible(session, guild_id, slugs))
    return [lines[slug] for slug in slugs if slug in lines]


def _scoped_ids(session: Session, table: type[Chamber] | type[Person], slug: str, guild_id: int) -> set[int]:
    """Every row of ``table`` with ``slug`` in the shared scope or the guild's: a shared incident
    refers to the shared row even where the guild has its own copy."""
    statement = select(table.id).where(
        col(table.slug) == slug, col(table.guild_id).in_({SHARED_GUILD, guild_id})
    )
    return {row_id for row_id in session.exec(statement) if row_id is not None}


def _with_person(session: Session, person_ids: set[int]) -> set[int]:
    """Incidents (ids) a person took part in, was quoted in, ruled in or was ruled on."""
    found: set[int] = set()
    found.update(
        session.exec(select(Participant.incident_id).where(col(Participant.person_id).in_(person_ids)))
    )
    found.update(session.exec(select(Quote.incident_id).where(col(Quote.person_id).in_(person_ids))))
    found.update(
        session.exec(
            select(Ruling.incident_id).where(
                or_(col(Ruling.ruled_by_id).in_(person_ids), col(Ruling.subject_id).in_(person_ids))
            )
        )
    )
    return found


def timeline(session: Session, *, guild_id: int, filters: TimelineFilters = NO_FILTERS) -> list[IncidentLine]:
    """The incidents the guild sees within ``filters``, in date order (then by slug)."""
    incidents = _visible(session, guild_id)
    if filters.chamber is not None:
        chambers = _scoped_ids(session, Chamber, filters.chamber, guild_id)
        incidents = [row for row in incidents if row.chamber_id in chambers]
    if filters.person is not None:
        involved = _with_person(session, _scoped_ids(session, Person, filters.person, guild_id))
        incidents = [row for row in incidents if row.id in involved]
    if filters.start is not None:
        incidents = [row for row in incidents if row.date >= filters.start]
    if filters.end is not None:
        incidents = [row for row in incidents if row.date <= filters.end]
    lines = _lines(session, incidents)
    return sorted(lines.values(), key=lambda line: (line.date, line.slug))


def _day_of_year(day: dt.date) -> int:
    return dt.date(LEAP_YEAR, day.month, day.day).toordinal()


@dataclass(frozen=True, slots=True)
class Anniversaries:
    """The incidents whose anniversary is nearest ``today``: on it (``exact``), else on ``day`` (any
    year's date on that day of the year), the nearer of the next and the last, the next on a tie."""

    today: dt.date
    exact: bool
    day: dt.date
    lines: tuple[IncidentLine, ...]


def anniversaries(lines: Sequence[IncidentLine], today: dt.date) -> Anniversaries | None:
    """The nearest anniversaries to ``today`` among ``lines``, oldest first; None when there are none."""
    if not lines:
        return None
    now = _day_of_year(today)

    def distance(line: IncidentLine) -> tuple[int, int]:
        ahead = (_day_of_year(line.date) - now) % DAYS
        return (min(ahead, DAYS - ahead), 0 if ahead <= DAYS - ahead else 1)  # nearer first, then the next

    nearest = min(distance(line) for line in lines)
    found = tuple(sorted((line for line in lines if distance(line) == nearest), key=lambda line: line.date))
    return Anniversaries(today, nearest[0] == 0, found[0].date, found)
