"""Read-side queries: database rows in, plain frozen answer objects out.

Every function takes a session keyword-only, reads, and never commits. A guild sees the shared
dataset plus its own entries; its own entry shadows a shared one with the same slug, and a removed
entry is absent (a guild's removed copy of a shared entry hides it in that guild).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlmodel import Session, col, select

from bot.messages.catalogue import in_language
from db.models import (
    SHARED_GUILD,
    Attribution,
    Chamber,
    Delivery,
    Incident,
    IncidentKind,
    IncidentSource,
    Motion,
    MotionResult,
    Participant,
    Party,
    Person,
    Position,
    Procedure,
    Quote,
    Ruling,
    RulingOutcome,
    Source,
    Stance,
    Term,
)


@dataclass(frozen=True, slots=True)
class SourceRef:
    key: str
    url: str | None
    title: str | None
    publisher: str | None
    published: dt.date | None
    note: str | None = None  # provenance, for /sources only


@dataclass(frozen=True, slots=True)
class PartyRef:
    """A party as an incident shows it: ``short`` (its abbreviation, else its name, else the source's
    wording) and every name that, found in a role, already says the party."""

    short: str
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class IncidentRef:
    slug: str
    title: str
    date: dt.date
    title_fr: str | None = None


@dataclass(frozen=True, slots=True)
class ParticipantView:
    slug: str
    name: str
    role: str
    party: PartyRef | None


@dataclass(frozen=True, slots=True)
class PositionView:
    who: str
    party: PartyRef | None
    stance: Stance
    attribution: Attribution
    detail: str | None
    source: SourceRef


@dataclass(frozen=True, slots=True)
class MotionView:
    id: int
    incident: IncidentRef
    text: str
    moved_by: str | None
    procedure: Procedure
    result: MotionResult
    result_detail: str | None
    positions: tuple[PositionView, ...]
    source: SourceRef


@dataclass(frozen=True, slots=True)
class QuoteView:
    id: int
    incident: IncidentRef
    speaker: str
    text: str
    said_to: str | None
    context: str | None
    delivery: Delivery
    source: SourceRef
    original_text: str | None = None
    original_language: str | None = None
    note: str | None = None  # provenance, for /sources only
    speaker_role: str | None = None  # the speaker's role in the incident, where they took part
    speaker_party: PartyRef | None = None


@dataclass(frozen=True, slots=True)
class RulingView:
    id: int
    incident: IncidentRef
    ruled_by: str
    role: str | None
    outcome: RulingOutcome
    summary: str
    source: SourceRef
    subject: str | None = None  # on whom it was ruled
    subject_slug: str | None = None
    summary_fr: str | None = None


@dataclass(frozen=True, slots=True)
class TermRef:
    """A glossary term as an incident names it."""

    slug: str
    name: str
    name_fr: str | None = None


@dataclass(frozen=True, slots=True)
class IncidentDetail:
    ref: IncidentRef
    chamber: str
    country: str
    kind: IncidentKind
    summary: str
    notes: str | None
    aliases: tuple[str, ...]
    participants: tuple[ParticipantView, ...]
    motions: tuple[MotionView, ...]
    quotes: tuple[QuoteView, ...]
    rulings: tuple[RulingView, ...]
    sources: tuple[SourceRef, ...]
    summary_fr: str | None = None
    terms: tuple[TermRef, ...] = ()  # the glossary terms linked with it


@dataclass(frozen=True, slots=True)
class Appearance:
    """A person's part in one incident: their role then, their party then, the rulings on them, and the
    chamber it happened in."""

    incident: IncidentRef
    role: str
    party: PartyRef | None = None
    rulings: tuple[RulingOutcome, ...] = ()
    chamber: str | None = None


@dataclass(frozen=True, slots=True)
class PersonDetail:
    slug: str
    name: str
    aliases: tuple[str, ...]
    party: str | None
    appearances: tuple[Appearance, ...]
    quotes: tuple[QuoteView, ...]


_Scoped = TypeVar("_Scoped", Incident, Person, Party, Term)


def _scopes(guild_id: int | None) -> set[int]:
    """The guild scopes ``guild_id`` may read: the shared dataset and its own entries."""
    return {SHARED_GUILD, SHARED_GUILD if guild_id is None else guild_id}


def _visible_rows(
    session: Session, model: type[_Scoped], slugs: Iterable[str], guild_id: int | None
) -> dict[str, _Scoped]:
    """The rows ``guild_id`` sees for ``slugs``: its own first, else the shared one.

    A removed row is absent, so a guild's removed row (a tombstone) also hides the shared row.
    """
    statement = (
        select(model)
        .where(col(model.slug).in_(set(slugs)), col(model.guild_id).in_(_scopes(guild_id)))
        .order_by(col(model.guild_id))
    )
    rows = {row.slug: row for row in session.exec(statement)}  # a guild's own row comes last and wins
    return {slug: row for slug, row in rows.items() if row.removed_at is None}


def _visible(session: Session, model: type[_Scoped], slug: str, guild_id: int | None) -> _Scoped | None:
    """The row with ``slug`` that ``guild_id`` sees, if any."""
    return _visible_rows(session, model, [slug], guild_id).get(slug)


def _seen_incidents(session: Session, incident_ids: Iterable[int], guild_id: int | None) -> set[int]:
    """Which of these incidents ``guild_id`` sees (not another guild's, not shadowed, not removed)."""
    incidents = _by_id(session, Incident, incident_ids).values()
    visible = _visible_rows(session, Incident, {row.slug for row in incidents}, guild_id)
    return {row.id for row in visible.values() if row.id is not None}


def _by_id(session: Session, model: type[Any], ids: Iterable[int | None]) -> dict[int, Any]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return {row.id: row for row in session.exec(select(model).where(col(model.id).in_(wanted)))}


def _source_ref(source: Source) -> SourceRef:
    return SourceRef(source.key, source.url, source.title, source.publisher, source.published, source.note)


def _incident_ref(incident: Incident) -> IncidentRef:
    return IncidentRef(incident.slug, incident.title, incident.date, incident.title_fr)


def _party_name(party: Party | None) -> str | None:
    if party is None:
        return None
    name = in_language(party.name, party.name_fr)
    abbreviation = in_language(party.abbreviation, party.abbreviation_fr) if party.abbreviation else None
    return f"{name} ({abbreviation})" if abbreviation else name


def _chamber_name(chamber: Chamber) -> str:
    return in_language(chamber.name, chamber.name_fr)


def _party_ref(party: Party | None, label: str | None = None) -> PartyRef | None:
    """The party as shown beside a person: its abbreviation, else its name, else the source's words."""
    if party is None:
        return PartyRef(label, (label,)) if label else None
    names = (party.name, party.name_fr, party.abbreviation, party.abbreviation_fr, label, *party.aliases)
    short = in_language(party.abbreviation, party.abbreviation_fr) if party.abbreviation else None
    return PartyRef(short or in_language(party.name, party.name_fr), tuple(name for name in names if name))


def _incident_refs(session: Session, ids: Iterable[int]) -> dict[int, IncidentRef]:
    return {i: _incident_ref(row) for i, row in _by_id(session, Incident, ids).items()}


def _quote_views(session: Session, quotes: Sequence[Quote]) -> tuple[QuoteView, ...]:
    sources = _by_id(session, Source, (q.source_id for q in quotes))
    incidents = _incident_refs(session, (q.incident_id for q in quotes))
    rows = session.exec(
        select(Participant).where(
            col(Participant.incident_id).in_({q.incident_id for q in quotes}),
            col(Participant.person_id).in_({q.person_id for q in quotes if q.person_id is not None}),
        )
    ).all()
    parts = {(p.incident_id, p.person_id): p for p in rows}
    parties = _by_id(session, Party, (p.party_id for p in rows))
    views = []
    for q in quotes:
        part = parts.get((q.incident_id, q.person_id or 0))  # the speaker's part in the incident
        views.append(
            QuoteView(
                id=q.id or 0,
                incident=incidents[q.incident_id],
                speaker=q.speaker_label,
                text=q.text,
                said_to=q.said_to,
                context=q.context,
                delivery=q.delivery,
                source=_source_ref(sources[q.source_id]),
                original_text=q.original_text,
                original_language=q.original_language,
                note=q.note,
                speaker_role=part.role if part else None,
                speaker_party=_party_ref(parties.get(part.party_id or 0), part.party_label) if part else None,
            )
        )
    return tuple(views)


def _ruling_views(session: Session, rulings: Sequence[Ruling]) -> tuple[RulingView, ...]:
    sources = _by_id(session, Source, (r.source_id for r in rulings))
    incidents = _incident_refs(session, (r.incident_id for r in rulings))
    subjects = _by_id(session, Person, (r.subject_id for r in rulings))
    return tuple(
        RulingView(
            id=r.id or 0,
            incident=incidents[r.incident_id],
            ruled_by=r.ruled_by_label,
            role=r.role,
            outcome=r.outcome,
            summary=r.summary,
            source=_source_ref(sources[r.source_id]),
            subject=r.subject_label or (subjects[r.subject_id].name if r.subject_id in subjects else None),
            subject_slug=subjects[r.subject_id].slug if r.subject_id in subjects else None,
            summary_fr=r.summary_fr,
        )
        for r in rulings
    )


def _motion_views(session: Session, motions: Sequence[Motion]) -> tuple[MotionView, ...]:
    motion_ids = [m.id for m in motions]
    positions = session.exec(
        select(Position).where(col(Position.motion_id).in_(motion_ids)).order_by(col(Position.id))
    ).all()
    sources = _by_id(session, Source, [m.source_id for m in motions] + [p.source_id for p in positions])
    parties = _by_id(session, Party, (p.party_id for p in positions))
    people = _by_id(session, Person, (m.moved_by_id for m in motions))
    incidents = _incident_refs(session, (m.incident_id for m in motions))

    def positions_of(motion_id: int | None) -> tuple[PositionView, ...]:
        return tuple(
            PositionView(
                who=p.label,
                party=_party_ref(parties.get(p.party_id or 0)),
                stance=p.stance,
                attribution=p.attribution,
                detail=p.detail,
                source=_source_ref(sources[p.source_id]),
            )
            for p in positions
            if p.motion_id == motion_id
        )

    def mover(motion: Motion) -> str | None:
        person = people.get(motion.moved_by_id or 0)
        return motion.moved_by_label or (person.name if person else None)

    return tuple(
        MotionView(
            id=m.id or 0,
            incident=incidents[m.incident_id],
            text=m.text,
            moved_by=mover(m),
            procedure=m.procedure,
            result=m.result,
            result_detail=m.result_detail,
            positions=positions_of(m.id),
            source=_source_ref(sources[m.source_id]),
        )
        for m in motions
    )


def incident_detail(session: Session, *, slug: str, guild_id: int | None) -> IncidentDetail | None:
    incident = _visible(session, Incident, slug, guild_id)
    if incident is None:
        return None
    chamber = session.get(Chamber, incident.chamber_id)
    participants = session.exec(
        select(Participant).where(Participant.incident_id == incident.id).order_by(col(Participant.rank))
    ).all()
    people = _by_id(session, Person, (p.person_id for p in participants))
    parties = _by_id(session, Party, (p.party_id for p in participants))
    links = session.exec(
        select(IncidentSource)
        .where(IncidentSource.incident_id == incident.id)
        .order_by(col(IncidentSource.rank))
    ).all()
    sources = _by_id(session, Source, (link.source_id for link in links))
    of_incident = Quote.incident_id == incident.id
    return IncidentDetail(
        ref=_incident_ref(incident),
        chamber=_chamber_name(chamber) if chamber else "",
        country=chamber.country if chamber else "",
        kind=incident.kind,
        summary=incident.summary,
        notes=incident.notes,
        aliases=tuple(incident.aliases),
        participants=tuple(
            ParticipantView(
                slug=people[p.person_id].slug,
                name=people[p.person_id].name,
                role=p.role,
                party=_party_ref(parties.get(p.party_id or 0), p.party_label),
            )
            for p in participants
        ),
        motions=_motion_views(
            session,
            session.exec(
                select(Motion).where(Motion.incident_id == incident.id).order_by(col(Motion.id))
            ).all(),
        ),
        quotes=_quote_views(
            session, session.exec(select(Quote).where(of_incident).order_by(col(Quote.rank))).all()
        ),
        rulings=_ruling_views(
            session,
            session.exec(
                select(Ruling).where(Ruling.incident_id == incident.id).order_by(col(Ruling.rank))
            ).all(),
        ),
        sources=tuple(_source_ref(sources[link.source_id]) for link in links),
        summary_fr=incident.summary_fr,
        terms=tuple(
            TermRef(term.slug, term.name, term.name_fr)
            for term in _visible_terms(session, guild_id)
            if incident.slug in term.incidents
        ),
    )


def quote_view(session: Session, *, quote_id: int, guild_id: int | None) -> QuoteView | None:
    """The quote, if its incident is one ``guild_id`` sees."""
    quote = session.get(Quote, quote_id)
    if quote is None or quote.incident_id not in _seen_incidents(session, [quote.incident_id], guild_id):
        return None
    return _quote_views(session, [quote])[0]


def ruling_view(session: Session, *, ruling_id: int, guild_id: int | None) -> RulingView | None:
    """The ruling, if its incident is one ``guild_id`` sees."""
    ruling = session.get(Ruling, ruling_id)
    if ruling is None or ruling.incident_id not in _seen_incidents(session, [ruling.incident_id], guild_id):
        return None
    return _ruling_views(session, [ruling])[0]


def person_detail(session: Session, *, slug: str, guild_id: int | None) -> PersonDetail | None:
    person = _visible(session, Person, slug, guild_id)
    if person is None:
        return None
    roles = session.exec(select(Participant).where(Participant.person_id == person.id)).all()
    quotes = session.exec(select(Quote).where(Quote.person_id == person.id).order_by(col(Quote.id))).all()
    rulings = session.exec(
        select(Ruling).where(Ruling.subject_id == person.id).order_by(col(Ruling.rank))
    ).all()
    seen = _seen_incidents(
        session, {p.incident_id for p in roles} | {q.incident_id for q in quotes}, guild_id
    )
    incidents = _by_id(session, Incident, seen)
    parties = _by_id(session, Party, (p.party_id for p in roles))
    chambers = _by_id(session, Chamber, (row.chamber_id for row in incidents.values()))
    appearances = sorted(
        (
            Appearance(
                _incident_ref(incidents[p.incident_id]),
                p.role,
                _party_ref(parties.get(p.party_id or 0), p.party_label),
                tuple(r.outcome for r in rulings if r.incident_id == p.incident_id),
                _chamber_name(chambers[incidents[p.incident_id].chamber_id]),
            )
            for p in roles
            if p.incident_id in seen
        ),
        key=lambda a: a.incident.date,
    )
    return PersonDetail(
        slug=person.slug,
        name=person.name,
        aliases=tuple(person.aliases),
        party=_party_name(session.get(Party, person.party_id) if person.party_id else None),
        appearances=tuple(appearances),
        quotes=_quote_views(session, [q for q in quotes if q.incident_id in seen]),
    )


# -- the glossary ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TermDetail:
    """A glossary term: its definition, the source that states its meaning, and the incidents (that the
    guild sees) it is linked with, oldest first."""

    slug: str
    name: str
    name_fr: str | None
    definition: str
    definition_fr: str | None
    aliases: tuple[str, ...]
    source: SourceRef
    incidents: tuple[IncidentRef, ...]


def _visible_terms(session: Session, guild_id: int | None) -> list[Term]:
    """Every term ``guild_id`` sees, by name."""
    statement = select(Term).where(col(Term.guild_id).in_(_scopes(guild_id)))
    slugs = {row.slug for row in session.exec(statement)}
    return sorted(
        _visible_rows(session, Term, slugs, guild_id).values(), key=lambda term: term.name.casefold()
    )


def term_detail(session: Session, *, slug: str, guild_id: int | None) -> TermDetail | None:
    term = _visible(session, Term, slug, guild_id)
    if term is None:
        return None
    source = session.get(Source, term.source_id)
    if source is None:
        raise LookupError(f"term {slug} cites no stored source")
    incidents = _visible_rows(session, Incident, term.incidents, guild_id).values()
    return TermDetail(
        slug=term.slug,
        name=term.name,
        name_fr=term.name_fr,
        definition=term.definition,
        definition_fr=term.definition_fr,
        aliases=tuple(term.aliases),
        source=_source_ref(source),
        incidents=tuple(sorted((_incident_ref(row) for row in incidents), key=lambda ref: ref.date)),
    )
