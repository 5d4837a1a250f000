"""Turn database rows into search documents (``bot.search.Document``).

A SELECT per table, or per table and batch of incidents: what documents show of other incidents (titles,
dates) is read for every incident at once, the rest of an incident's rows and those of its quotes,
rulings and motions a batch of incidents at a time, and rows are grouped in Python by incident. Field
weights say how much a match in each text counts; names and titles are 1.0, the people and parties
of an incident a little less, descriptive text (summaries, roles) least.

Removed rows are not searchable. A guild's removed incident, person or party becomes a tombstone
document (``Document.removed``) that hides the shared entry with its slug in that guild. Every
document belongs to one curated entry (``Document.entry``); ``entry_documents`` rebuilds the documents
of the entries a write changed, so the index is updated without a rebuild. An incident's documents
also show the names of the people, parties and chamber it refers to, so a write to one of those
changes the documents of its incidents too (``referring_incidents``).

Labels are what a member reads in autocomplete and in ``/search`` results, so each document is
labelled in English and in French (``Document.label_fr``, kept where it reads differently): titles
and names in the language the data gives them in (``title_fr``, ``name_fr``, ``abbreviation_fr``), and
worded labels (a ruling's, a motion's) said in each catalogue. Both are worded here whatever language
the write that rebuilt them was asked in.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, TypeVar

from sqlalchemy import Select, union
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from bot import limits
from bot.messages.catalogue import DEFAULT_LOCALE, Msg, current_locale, in_language, say, speaking
from bot.messages.outcomes import OUTCOME
from bot.search.index import LABEL_MAX, SHARED_GUILD, Document, DocumentKind, Facets, Place, TextField
from bot.search.places import country_words
from bot.search.text import fold
from bot.search.vocabulary import french_roles, words_for
from db.dataset.writer import collector_paused
from db.models import (
    Chamber,
    EntityKind,
    Incident,
    Motion,
    Participant,
    Party,
    Person,
    Position,
    Quote,
    Ruling,
    Term,
)

__all__ = ["each_document", "entry_documents", "incident_documents", "load_documents", "referring_incidents"]

# Field weights (tuned with bench/search_bench.py together with bot.search's constants).
W_NAME = 1.0  # titles, names, quote and motion text
W_PEOPLE = 0.85  # the people of an incident, a quote's speaker, a ruling's chair
W_PARTY = 0.7  # party names and abbreviations, both languages
W_CONTEXT = 0.6  # year, chamber, kind and outcome words, roles
W_PLACE = 0.75  # an incident's country and its words: above a party named after the country ("canada")
W_DETAIL = 0.45  # summaries, motion text and quotes as seen from their incident, incident titles
W_BACKGROUND = 0.3  # an incident's title as seen from one of its rulings, whose own summary says more

_Child = TypeVar("_Child", Quote, Ruling, Motion, Participant)
_People = dict[int | None, Person]


_SEARCHABLE: dict[EntityKind, DocumentKind] = {
    EntityKind.INCIDENT: DocumentKind.INCIDENT,
    EntityKind.PERSON: DocumentKind.PERSON,
    EntityKind.PARTY: DocumentKind.PARTY,
    EntityKind.TERM: DocumentKind.TERM,
}


_NAMED = frozenset({EntityKind.PERSON, EntityKind.PARTY, EntityKind.CHAMBER})  # what incidents name

ENTRIES_READ_ALONE = 200
"""Up to this many entries, ``entry_documents`` reads only their rows; past it, the guild's."""


def entry_documents(
    session: Session, *, guild_id: int, entries: Collection[tuple[EntityKind, str]]
) -> list[Document]:
    """The documents these entries of ``guild_id``'s own scope give (a tombstone for a removed one).

    None for an entry the guild has no row of its own for, or of a kind that is not searchable
    (sources, chambers). The rows read are those of these entries and of what they show (a person's
    incidents, the people and parties an incident names), with the loader's code; many entries (an
    import's) are read with one load of the guild's documents.
    """
    if not any(kind in _SEARCHABLE for kind, _ in entries):
        return []
    only: dict[EntityKind, set[str]] | None = None
    if len(entries) <= ENTRIES_READ_ALONE:
        only = {kind: {key for entry_kind, key in entries if entry_kind is kind} for kind in _SEARCHABLE}
    with collector_paused():
        return [
            doc
            for doc in _documents(session, _Scope.of_entries(session, guild_id, only))
            if doc.entry in entries
        ]


def incident_cast(session: Session, *, guild_id: int, incidents: Collection[str]) -> set[str]:
    """Slugs of the guild's own people taking part in these incidents of the guild, removed or not:
    a person's document shows the title, date and role of each incident of theirs.

    Past ``ENTRIES_READ_ALONE`` incidents (an import), those of every incident of the guild."""
    if not incidents:
        return set()
    statement = (
        select(col(Person.slug))
        .join(Participant, col(Participant.person_id) == col(Person.id))
        .join(Incident, col(Incident.id) == col(Participant.incident_id))
        .where(col(Incident.guild_id) == guild_id, col(Person.guild_id) == guild_id)
    )
    if len(incidents) <= ENTRIES_READ_ALONE:
        statement = statement.where(col(Incident.slug).in_(incidents))
    return set(session.exec(statement))


def referring_incidents(
    session: Session, *, guild_id: int, entries: Collection[tuple[EntityKind, str]]
) -> set[str]:
    """Slugs of the guild's incidents that refer to any of these people, parties or chambers.

    They are the incidents whose documents (their own, and their quotes', rulings' and motions')
    show those names: as participants and their parties, speakers, chairs, movers, who took a
    position, or the chamber. A reference may be to the guild's own row or to the shared one.

    Past ``ENTRIES_READ_ALONE`` people, parties and chambers (an import), every incident of the guild:
    ``entry_documents`` reads the whole guild for that many anyway, and the statements stay within the
    databases' limits on bound parameters. Other entries (incidents, terms) are named by no incident.
    """
    entries = [(kind, key) for kind, key in entries if kind in _NAMED]
    if not entries:
        return set()
    if len(entries) > ENTRIES_READ_ALONE:
        every = select(col(Incident.slug)).where(col(Incident.guild_id) == guild_id)
        return set(session.exec(every))

    def ids(table: type[Person] | type[Party] | type[Chamber], kind: EntityKind) -> set[int]:
        slugs = {key for entry_kind, key in entries if entry_kind is kind}
        if not slugs:
            return set()
        statement = select(col(table.id)).where(
            col(table.slug).in_(slugs), col(table.guild_id).in_({SHARED_GUILD, guild_id})
        )
        return {row_id for row_id in session.exec(statement) if row_id is not None}

    people = ids(Person, EntityKind.PERSON)
    parties = ids(Party, EntityKind.PARTY)
    chambers = ids(Chamber, EntityKind.CHAMBER)
    incidents = select(col(Incident.slug)).where(col(Incident.guild_id) == guild_id)

    def of(table: type[_Child]) -> SelectOfScalar[str]:
        return incidents.join(table, col(table.incident_id) == col(Incident.id))

    positions = of(Motion).join(Position, col(Position.motion_id) == col(Motion.id))
    participants_of_party = of(Participant).join(Person, col(Person.id) == col(Participant.person_id))
    references: list[tuple[set[int], SelectOfScalar[str]]] = [
        (chambers, incidents.where(col(Incident.chamber_id).in_(chambers))),
        (people, of(Participant).where(col(Participant.person_id).in_(people))),
        (people, of(Quote).where(col(Quote.person_id).in_(people))),
        (people, of(Ruling).where(col(Ruling.ruled_by_id).in_(people))),
        (people, of(Motion).where(col(Motion.moved_by_id).in_(people))),
        (people, positions.where(col(Position.person_id).in_(people))),
        (parties, of(Participant).where(col(Participant.party_id).in_(parties))),
        # A participant naming no party of their own at the time shows their person's party.
        (parties, participants_of_party.where(col(Person.party_id).in_(parties))),
        (parties, positions.where(col(Position.party_id).in_(parties))),
    ]
    return {slug for wanted, statement in references if wanted for slug in session.exec(statement)}


def load_documents(session: Session, *, guild_id: int | None = None) -> list[Document]:
    """Documents for every row in scope: every guild (``None``) or exactly one guild's rows."""
    with collector_paused():
        return list(_documents(session, _Scope(guild_id)))


def each_document(session: Session, *, guild_id: int | None = None) -> Iterator[Document]:
    """``load_documents``' documents made one at a time, as they are taken, from the rows it reads (at the
    first): for an index built from them, which packs them as it goes, so that they are never all objects
    at once. Take them while ``session`` is open, with the collector paused for many (``Library.open``)."""
    return _documents(session, _Scope(guild_id))


@dataclass(frozen=True, slots=True)
class _Scope:
    """Which rows a load reads: a guild's (``None``: every guild's), and of those only the entries
    ``only`` names by kind and slug, with the rows their documents show (``None``: all)."""

    guild_id: int | None
    only: dict[EntityKind, set[str]] | None = None
    incident_ids: frozenset[int] = frozenset()  # with ``only``: the incidents read (``of_entries``)
    named_ids: frozenset[int] = frozenset()  # with ``only``: those it names, whose own documents are wanted

    def lacks(self, kind: EntityKind) -> bool:
        """Whether the scope is narrowed to entries none of which is of ``kind``: no row of it to read."""
        return self.only is not None and not self.only[kind]

    def lacks_incidents(self, *, named: bool = False) -> bool:
        """Whether the scope is narrowed to entries that show no incident (name none, if ``named``): no
        incident or child row to read."""
        return self.only is not None and not (self.named_ids if named else self.incident_ids)

    def rows(self, table: Any, statement: Select[Any], kind: EntityKind) -> Select[Any]:
        """``statement`` on ``table`` narrowed to the scope's guild and, if ``only``, to its slugs."""
        if self.guild_id is not None:
            statement = statement.where(table.c.guild_id == self.guild_id)
        if self.only is not None:
            statement = statement.where(table.c.slug.in_(self.only[kind]))
        return statement

    def incidents(self, statement: Select[Any], *, named: bool = False) -> Select[Any]:
        """``statement`` narrowed to the scope's incidents: with ``only``, those ``of_entries`` found
        (only those it names, if ``named``: an incident read for a person's sake shows no quote there)."""
        incidents = Incident.__table__  # type: ignore[attr-defined]
        if self.only is not None:
            # A list of ids, not a subquery: the planner then looks the few incidents (and their child
            # rows) up by id instead of scanning every incident of the guild.
            return statement.where(incidents.c.id.in_(self.named_ids if named else self.incident_ids))
        if self.guild_id is not None:
            statement = statement.where(incidents.c.guild_id == self.guild_id)
        return statement

    @classmethod
    def of_entries(cls, session: Session, guild_id: int, only: dict[EntityKind, set[str]] | None) -> _Scope:
        """The guild's scope narrowed to ``only``'s entries (``None``: all of them), holding the ids of
        the incidents it reads: those it names and those its people take part in (a person's document
        shows their incidents)."""
        if only is None:
            return cls(guild_id)
        incidents = Incident.__table__  # type: ignore[attr-defined]
        participants, people = Participant.__table__, Person.__table__  # type: ignore[attr-defined]
        named = select(incidents.c.id).where(
            incidents.c.guild_id == guild_id, incidents.c.slug.in_(only[EntityKind.INCIDENT])
        )
        appearing = (
            select(participants.c.incident_id)
            .join(incidents, incidents.c.id == participants.c.incident_id)
            .join(people, people.c.id == participants.c.person_id)
            .where(
                incidents.c.guild_id == guild_id,
                people.c.guild_id == guild_id,
                people.c.slug.in_(only[EntityKind.PERSON]),
            )
        )
        connection = session.connection()
        ids = (
            frozenset(row_id for (row_id,) in connection.execute(named))
            if only[EntityKind.INCIDENT]
            else frozenset()
        )
        if only[EntityKind.PERSON]:
            appearances = frozenset(row_id for (row_id,) in connection.execute(appearing))
            return cls(guild_id, only, ids | appearances, ids)
        return cls(guild_id, only, ids, ids)

    def referable(self, table: Any, statement: Select[Any], kind: EntityKind, ids: set[int]) -> Select[Any]:
        """``statement`` on rows a guild's incidents may point at, the guild's own and the shared ones;
        with ``only``, those it names and those of ``ids`` (the ones its incidents show): ids from a
        union of the two, each read by its own index, where an OR of them would scan the table."""
        scopes = {SHARED_GUILD, self.guild_id}
        if self.only is not None:
            named = select(table.c.id).where(table.c.slug.in_(self.only[kind]))
            if self.guild_id is not None:
                named = named.where(table.c.guild_id.in_(scopes))
            return statement.where(
                table.c.id.in_(union(named, select(table.c.id).where(table.c.id.in_(ids))))
            )
        if self.guild_id is not None:
            statement = statement.where(table.c.guild_id.in_(scopes))
        return statement


def _documents(session: Session, scope: _Scope) -> Iterator[Document]:
    """The scope's documents: a removed row's (read with the live ones) is a tombstone.

    A narrowed scope (a write's entries) has few rows, read at once. Otherwise every incident's row is read
    at once without its long texts (``_SHOWN``), for the documents that show it; its own document's rows
    (its summaries, quotes, rulings and motions) are read a batch of incidents at a time
    (``INCIDENTS_AT_ONCE``), and so are its quotes', rulings' and motions' documents: the rows are never
    all held, whatever the number of incidents."""
    columns = Incident.__table__.c  # type: ignore[attr-defined]
    narrowed = scope.only is not None
    selected = list(columns) if narrowed else [columns[name] for name in _SHOWN]
    statement = scope.incidents(select(*selected).order_by(columns.id))
    every_incident = [] if scope.lacks_incidents() else _rows(session, statement)
    incidents = [incident for incident in every_incident if incident.removed_at is None]
    participants = _children(session, Participant, scope)
    held = {table: _children(session, table, scope, named=True) for table in _NAMING} if narrowed else {}
    # A guild's incident may sit in a shared chamber and name shared people and parties (a whole scope
    # reads every person and party its incidents may name: ``_Scope.referable``).
    named: list[int | None] = [p.person_id for p in participants]
    named += [getattr(row, name) for table, rows in held.items() for row in rows for name in _NAMING[table]]
    chambers = {c.id: c for c in _referable(session, Chamber, scope, None)}
    people = {p.id: p for p in _referable(session, Person, scope, _ids(named))}
    named = [p.party_id for p in participants] + [p.party_id for p in people.values()]
    parties = {p.id: p for p in _referable(session, Party, scope, _ids(named))}
    terms = _scoped(session, Term, scope)
    rows: list[tuple[EntityKind, Iterable[Any]]] = [
        (EntityKind.INCIDENT, every_incident),
        (EntityKind.PERSON, people.values()),
        (EntityKind.PARTY, parties.values()),
        (EntityKind.TERM, terms),
    ]
    tombstones = [
        _tombstone(_SEARCHABLE[kind], row.slug, row.guild_id)
        for kind, of_kind in rows
        for row in _wanted(of_kind, kind, scope.guild_id, scope.only)
        if row.removed_at is not None and row.guild_id != SHARED_GUILD
    ]
    yield from tombstones
    yield from (term_document(term) for term in terms if term.removed_at is None)
    shown = _Shown.of(
        incidents=incidents,
        chambers=chambers,
        parties={i: p for i, p in parties.items() if p.removed_at is None},
        people={i: p for i, p in people.items() if p.removed_at is None},
        participants=participants,
    )
    spans: list[tuple[int, int] | None] = [None] if narrowed else [*_spans(incidents)]

    def read(table: type[_Child], span: tuple[int, int] | None) -> list[_Child]:
        """The rows of ``table`` of the span's incidents (a narrowed scope's, read at once)."""
        return held[table] if span is None else _children(session, table, scope, named=True, span=span)

    for span in spans:
        own = incidents
        if span is not None:
            statement = select(Incident.__table__).where(  # type: ignore[attr-defined]
                columns.id.between(*span), columns.removed_at.is_(None)
            )
            own = _rows(session, scope.incidents(statement.order_by(columns.id)))
        yield from shown.incident_documents(
            own,
            quotes=read(Quote, span),
            rulings=read(Ruling, span),
            motions=read(Motion, span),
            only=scope.only,
        )
    yield from shown.person_documents(scope.guild_id, scope.only)
    yield from shown.party_documents(scope.guild_id, scope.only)

    def batch_by_batch(
        table: type[_Child], make: Callable[[_Child, Incident, _People, Facets], Document]
    ) -> Iterator[Document]:
        for span in spans:
            yield from shown.child_documents(read(table, span), make)

    yield from batch_by_batch(Quote, _quote_document)
    yield from batch_by_batch(Ruling, _ruling_document)
    yield from batch_by_batch(Motion, _motion_document)


_SHOWN = ("id", "guild_id", "slug", "title", "title_fr", "date", "chamber_id", "kind", "removed_at")
"""The columns of an incident that documents other than its own show (and its tombstone): read for every
incident at once, where its summaries and aliases are read a batch at a time."""

INCIDENTS_AT_ONCE = 10_000
"""A load reads the rows of this many incidents at a time for their documents."""

_NAMING: dict[Any, tuple[str, ...]] = {
    Quote: ("person_id",),
    Ruling: ("ruled_by_id", "subject_id"),
    Motion: ("moved_by_id",),
}
"""An incident's quotes, rulings and motions, and their columns that name a person."""


def _spans(incidents: Sequence[Any]) -> list[tuple[int, int]]:
    """The first and last ids of each batch of ``INCIDENTS_AT_ONCE`` incidents (in the order of their ids)."""
    return [
        (incidents[start].id, incidents[min(start + INCIDENTS_AT_ONCE, len(incidents)) - 1].id)
        for start in range(0, len(incidents), INCIDENTS_AT_ONCE)
    ]


def _ids(ids: Iterable[int | None]) -> set[int]:
    return {row_id for row_id in ids if row_id is not None}


def _tombstone(kind: DocumentKind, slug: str, guild_id: int) -> Document:
    return Document(kind=kind, key=slug, label=slug, guild_id=guild_id, removed=True)


def _rows(session: Session, statement: Select[Any]) -> list[Any]:
    """The rows ``statement`` selects as plain column tuples (SQLAlchemy Core), not ORM objects: they
    have the table's attribute names and column types, and cost a fraction to build and keep."""
    return list(session.connection().execute(statement))


_KINDS: dict[Any, EntityKind] = {
    Incident: EntityKind.INCIDENT,
    Person: EntityKind.PERSON,
    Party: EntityKind.PARTY,
    Term: EntityKind.TERM,
    Chamber: EntityKind.CHAMBER,
}


def _scoped(session: Session, table: Any, scope: _Scope) -> list[Any]:
    """The scope's rows of ``table``, live and removed."""
    if scope.lacks(_KINDS[table]):
        return []
    columns = table.__table__
    return _rows(session, scope.rows(columns, select(columns), _KINDS[table]))


def _referable(session: Session, table: Any, scope: _Scope, ids: set[int] | None) -> list[Any]:
    """Rows a guild's incidents may point at: the guild's own and the shared ones (``ids`` None: all
    of them, whatever ``scope.only``)."""
    columns = table.__table__
    statement = select(columns)
    if ids is None:
        return _rows(session, _Scope(scope.guild_id).referable(columns, statement, _KINDS[table], set()))
    return _rows(session, scope.referable(columns, statement, _KINDS[table], ids))


def _children(
    session: Session,
    table: type[_Child],
    scope: _Scope,
    *,
    named: bool = False,
    span: tuple[int, int] | None = None,
) -> list[_Child]:
    """Child rows of the scope's live incidents (of those it names, if ``named``: see ``incidents``), of
    the incidents whose ids are in ``span`` if given, in the order of their ids."""
    if scope.lacks_incidents(named=named):
        return []
    children, incidents = table.__table__, Incident.__table__  # type: ignore[attr-defined]
    statement = (
        select(children)
        .join(incidents, incidents.c.id == children.c.incident_id)
        .where(incidents.c.removed_at.is_(None))
        .order_by(children.c.id)
    )
    if span is not None:
        statement = statement.where(children.c.incident_id.between(*span))
    return _rows(session, scope.incidents(statement, named=named))


def incident_documents(
    *,
    incidents: Sequence[Incident],
    chambers: dict[int | None, Chamber],
    parties: dict[int | None, Party],
    people: dict[int | None, Person],
    participants: Sequence[Participant],
    quotes: Sequence[Quote],
    rulings: Sequence[Ruling],
    motions: Sequence[Motion],
    guild_id: int | None,
    only: Mapping[EntityKind, Collection[str]] | None = None,
) -> Iterator[Document]:
    """Build documents from already loaded rows (``load_documents`` without the SELECTs, its rows all at
    once): those of ``only``'s entries, by kind and slug, if given (the rest were read for their sake).
    Each is made as it is taken."""
    shown = _Shown.of(
        incidents=incidents, chambers=chambers, parties=parties, people=people, participants=participants
    )
    yield from shown.incident_documents(incidents, quotes=quotes, rulings=rulings, motions=motions, only=only)
    yield from shown.person_documents(guild_id, only)
    yield from shown.party_documents(guild_id, only)
    yield from shown.child_documents(quotes, _quote_document)
    yield from shown.child_documents(rulings, _ruling_document)
    yield from shown.child_documents(motions, _motion_document)


@dataclass(frozen=True, slots=True)
class _Shown:
    """What documents show of rows other than their own: the people, parties and chambers incidents name,
    each incident's cast and facets, and each person's incidents. Made once for a load, whose documents
    are then made a kind, and a batch of rows, at a time."""

    incident_of: dict[int | None, Incident]  # every incident, its ``_SHOWN`` columns at least
    chambers: dict[int | None, Chamber]
    parties: dict[int | None, Party]
    people: dict[int | None, Person]
    casts: dict[int | None, list[Participant]]  # by incident, in order of rank
    places: dict[int | None, Place]
    facets: dict[int | None, Facets]  # by incident
    appearances: dict[int | None, list[tuple[Incident, Participant]]]  # by person

    @classmethod
    def of(
        cls,
        *,
        incidents: Sequence[Incident],
        chambers: dict[int | None, Chamber],
        parties: dict[int | None, Party],
        people: dict[int | None, Person],
        participants: Sequence[Participant],
    ) -> _Shown:
        casts: dict[int | None, list[Participant]] = defaultdict(list)
        for participant in sorted(participants, key=lambda p: p.rank):
            casts[participant.incident_id].append(participant)
        places = {chamber_id: _place(chamber) for chamber_id, chamber in chambers.items()}
        appearances: dict[int | None, list[tuple[Incident, Participant]]] = defaultdict(list)
        for incident in incidents:
            for participant in casts.get(incident.id, []):
                person = people.get(participant.person_id)
                # no guild's rows in shared documents
                if person is not None and person.guild_id == incident.guild_id:
                    appearances[participant.person_id].append((incident, participant))
        return cls(
            incident_of={incident.id: incident for incident in incidents},
            chambers=chambers,
            parties=parties,
            people=people,
            casts=casts,
            places=places,
            facets={incident.id: _incident_facets(incident, places) for incident in incidents},
            appearances=appearances,
        )

    def incident_documents(
        self,
        incidents: Iterable[Incident],
        *,
        quotes: Iterable[Quote],
        rulings: Iterable[Ruling],
        motions: Iterable[Motion],
        only: Mapping[EntityKind, Collection[str]] | None,
    ) -> Iterator[Document]:
        """The documents of these incidents (whole rows) of ``only``'s, given their quotes, rulings and
        motions."""
        quotes_of, rulings_of, motions_of = _group(quotes), _group(rulings), _group(motions)
        for incident in _wanted(incidents, EntityKind.INCIDENT, None, only):
            yield _incident_document(
                incident,
                chamber=self.chambers.get(incident.chamber_id),
                cast=self.casts.get(incident.id, []),
                people=self.people,
                parties=self.parties,
                quotes=quotes_of.get(incident.id, []),
                motions=motions_of.get(incident.id, []),
                rulings=rulings_of.get(incident.id, []),
                facets=self.facets[incident.id],
            )

    def person_documents(
        self, guild_id: int | None, only: Mapping[EntityKind, Collection[str]] | None
    ) -> Iterator[Document]:
        for person in _wanted(self.people.values(), EntityKind.PERSON, guild_id, only):
            appearances = self.appearances.get(person.id, [])
            merged = _merged(self.facets[incident.id] for incident, _ in appearances)
            yield _person_document(person, self.parties, appearances, merged)

    def party_documents(
        self, guild_id: int | None, only: Mapping[EntityKind, Collection[str]] | None
    ) -> Iterator[Document]:
        for party in _wanted(self.parties.values(), EntityKind.PARTY, guild_id, only):
            home = tuple(self.places[c.id] for c in self.chambers.values() if c.country == party.country)
            yield _party_document(party, Facets(chambers=home))

    def child_documents(
        self, children: Iterable[_Child], make: Callable[[_Child, Incident, _People, Facets], Document]
    ) -> Iterator[Document]:
        """The documents of these quotes, rulings or motions, each made by ``make``."""
        for child in children:
            yield make(
                child, self.incident_of[child.incident_id], self.people, self.facets[child.incident_id]
            )


_Named = TypeVar("_Named", Incident, Person, Party, Term)


def _wanted(
    rows: Iterable[_Named],
    kind: EntityKind,
    guild_id: int | None,
    only: Mapping[EntityKind, Collection[str]] | None,
) -> list[_Named]:
    """The rows of ``guild_id`` (None: of every guild) that are ``only``'s entries of ``kind`` (None: all)."""
    return [
        row
        for row in rows
        if (guild_id is None or row.guild_id == guild_id) and (only is None or row.slug in only[kind])
    ]


def _place(chamber: Chamber) -> Place:
    names = (chamber.name, chamber.name_fr, *country_words(chamber.country))
    return Place(chamber.slug, tuple(name for name in names if name), chamber.name_fr)


def _incident_facets(incident: Incident, places: dict[int | None, Place]) -> Facets:
    place = places.get(incident.chamber_id)
    return Facets(
        chambers=(place,) if place is not None else (),
        years=(incident.date.year,),
        incident_kinds=(incident.kind,),
    )


def _merged(all_facets: Iterable[Facets]) -> Facets:
    """One person's facets: the chambers, years and kinds of every incident they appear in."""
    listed = list(all_facets)
    return Facets(
        chambers=tuple({p.slug: p for f in listed for p in f.chambers}.values()),
        years=tuple(sorted({y for f in listed for y in f.years})),
        incident_kinds=tuple(sorted({k for f in listed for k in f.incident_kinds})),
    )


def _group(rows: Iterable[_Child]) -> dict[int | None, list[_Child]]:
    grouped: dict[int | None, list[_Child]] = defaultdict(list)
    for row in rows:
        grouped[row.incident_id].append(row)
    return grouped


def _words(value: str) -> str:
    """An enum value as words: ``"unanimous_consent"`` -> ``"unanimous consent"``."""
    return value.replace("_", " ")


@cache
def _said(value: str) -> tuple[str, ...]:
    """An incident kind or ruling outcome as words, and the everyday words for it in English and in
    French ("ejected", "expulsé")."""
    return (_words(value), *words_for(value))


@cache
def _role(role: str | None, weight: float) -> tuple[tuple[str | None, float], ...]:
    """A role as the source words it, and the French for the offices it names ("Speaker": "Président
    de la Chambre"); roles are few, so each is worded once."""
    return ((role, weight), *((french, weight) for french in french_roles(fold(role or ""))))


def _fields(*pairs: tuple[str | None, float]) -> tuple[TextField, ...]:
    seen: dict[str, float] = {}
    for text, weight in pairs:
        if text and text.strip() and seen.get(text, 0.0) < weight:
            seen[text] = weight
    return tuple(_field(text, weight) for text, weight in seen.items())


@lru_cache(maxsize=1 << 16)
def _field(text: str, weight: float) -> TextField:
    """A field, shared: most texts recur from document to document (a party's or chamber's name, a
    role, the words for an incident's kind), and a load holds every document's fields at once (the index
    keeps them folded, not these)."""
    return TextField(text, weight)


def _party_names(party: Party | None) -> list[str | None]:
    if party is None:
        return []
    return [party.name, party.name_fr, party.abbreviation, party.abbreviation_fr, *party.aliases]


_BREAKS = re.compile(r"[^\S\u00a0\u202f]+")  # whitespace but the no-break spaces French puts before ":"


def clip(text: str, limit: int) -> str:
    """``text`` on one line (labels are choice names), clipped to ``limit`` characters."""
    return limits.clip(_BREAKS.sub(" ", text).strip(), limit)


def _suffixed(text: str, suffix: str) -> str:
    """``text`` clipped so that ``text + suffix`` fits in a label."""
    return clip(text, LABEL_MAX - len(suffix)) + suffix


def _in_both(word: Callable[[], str]) -> tuple[str, str]:
    """A label worded by ``word`` in English and in French (``Document`` keeps the French only where
    it differs)."""
    with speaking(DEFAULT_LOCALE):
        english = word()
    with speaking("fr"):
        return english, word()


def _detail(text: str | None) -> str | None:
    """A detail as far as a label can show it: the rest would be clipped off the choice anyway."""
    return text[:LABEL_MAX] if text else None


def _incident_document(
    incident: Incident,
    *,
    chamber: Chamber | None,
    cast: Sequence[Participant],
    people: dict[int | None, Person],
    parties: dict[int | None, Party],
    quotes: Sequence[Quote],
    motions: Sequence[Motion],
    rulings: Sequence[Ruling],
    facets: Facets,
) -> Document:
    pairs: list[tuple[str | None, float]] = [(incident.title, W_NAME), (incident.title_fr, W_NAME)]
    for alias in incident.aliases:
        pairs.append((alias, W_NAME))
    for participant in cast:
        person = people.get(participant.person_id)
        if person is not None:
            pairs.append((person.name, W_PEOPLE))
            pairs.extend((alias, W_PEOPLE) for alias in person.aliases)
        pairs.extend(_role(participant.role, W_CONTEXT))
        party = parties.get(participant.party_id) or (
            parties.get(person.party_id) if person is not None else None
        )
        pairs.extend((name, W_PARTY) for name in _party_names(party))
        pairs.append((participant.party_label, W_CONTEXT))
    if chamber is not None:
        pairs += [(chamber.name, W_CONTEXT), (chamber.name_fr, W_CONTEXT)]
        pairs.extend((word, W_PLACE) for word in country_words(chamber.country))
    pairs.append((str(incident.date.year), W_CONTEXT))
    pairs.extend(
        (words, W_CONTEXT)
        for value in (incident.kind, *(r.outcome for r in rulings))
        for words in _said(value)
    )
    pairs += [(incident.summary, W_DETAIL), (incident.summary_fr, W_DETAIL)]
    pairs.extend((motion.text, W_DETAIL) for motion in motions)
    pairs.extend((quote.text, W_DETAIL) for quote in quotes)
    year = f" ({incident.date.year})"
    label, label_fr = _in_both(lambda: _suffixed(in_language(incident.title, incident.title_fr), year))
    return Document(
        kind=DocumentKind.INCIDENT,
        key=incident.slug,
        label=label,
        label_fr=label_fr,
        incident=incident.slug,
        guild_id=incident.guild_id,
        exact=(incident.slug, *incident.aliases),
        fields=_fields(*pairs),
        date=incident.date,
        facets=facets,
    )


def _person_document(
    person: Person,
    parties: dict[int | None, Party],
    appearances: Sequence[tuple[Incident, Participant]],
    facets: Facets,
) -> Document:
    party = parties.get(person.party_id)
    pairs: list[tuple[str | None, float]] = [(person.name, W_NAME)]
    pairs.extend((alias, W_NAME) for alias in person.aliases)
    pairs.extend((name, W_PARTY) for name in _party_names(party))
    latest: dt.date | None = None
    for incident, participant in appearances:
        pairs.extend(_role(participant.role, W_CONTEXT))
        pairs.extend((name, W_PARTY) for name in _party_names(parties.get(participant.party_id)))
        pairs += [(incident.title, W_DETAIL), (incident.title_fr, W_DETAIL)]
        latest = incident.date if latest is None else max(latest, incident.date)

    def word() -> str:
        if party is None:
            return clip(person.name, LABEL_MAX)
        short = in_language(party.abbreviation, party.abbreviation_fr) if party.abbreviation else None
        return _suffixed(person.name, f" ({clip(short or in_language(party.name, party.name_fr), 40)})")

    label, label_fr = _in_both(word)
    return Document(
        kind=DocumentKind.PERSON,
        key=person.slug,
        label=label,
        label_fr=label_fr,
        guild_id=person.guild_id,
        exact=(person.slug, person.name, *person.aliases),
        fields=_fields(*pairs),
        date=latest,
        facets=facets,
    )


def _party_document(party: Party, facets: Facets) -> Document:
    def word() -> str:
        """Its name, then both abbreviations, the language's own first: "New Democratic Party (NDP/NPD)"."""
        first = in_language(party.abbreviation or "", party.abbreviation_fr)
        abbreviations = "/".join(
            dict.fromkeys(a for a in (first, party.abbreviation, party.abbreviation_fr) if a)
        )
        suffix = f" ({clip(abbreviations, 30)})" if abbreviations else ""
        return _suffixed(in_language(party.name, party.name_fr), suffix)

    exact = [party.slug, *(a for a in (party.abbreviation, party.abbreviation_fr) if a), *party.aliases]
    label, label_fr = _in_both(word)
    return Document(
        kind=DocumentKind.PARTY,
        key=party.slug,
        label=label,
        label_fr=label_fr,
        guild_id=party.guild_id,
        exact=tuple(exact),
        fields=_fields(
            (party.name, W_NAME),
            (party.name_fr, W_NAME),
            *((alias, W_NAME) for alias in party.aliases),
            (party.country, W_CONTEXT),
        ),
        facets=facets,
    )


def term_document(term: Term) -> Document:
    """A glossary term: found by its names in both languages and its aliases, and by its definition."""
    names = (term.name, *(name for name in (term.name_fr,) if name), *term.aliases)
    return Document(
        kind=DocumentKind.TERM,
        key=term.slug,
        label=clip(term.name, LABEL_MAX),
        label_fr=clip(term.name_fr, LABEL_MAX) if term.name_fr else None,
        guild_id=term.guild_id,
        exact=(term.slug, *names),
        fields=_fields(
            *((name, W_NAME) for name in names),
            (term.definition, W_DETAIL),
            (term.definition_fr, W_DETAIL),
        ),
    )


def _speaker_name(person_id: int | None, people: dict[int | None, Person]) -> str | None:
    person = people.get(person_id) if person_id is not None else None
    return person.name if person is not None else None


def _quote_document(
    quote: Quote, incident: Incident, people: dict[int | None, Person], facets: Facets
) -> Document:
    speaker = _speaker_name(quote.person_id, people) or quote.speaker_label
    suffix = f"” — {clip(speaker, 40)} ({incident.slug})"
    return Document(
        kind=DocumentKind.QUOTE,
        key=f"quote:{quote.id}",
        label=_suffixed("“" + quote.text, suffix),
        incident=incident.slug,
        guild_id=incident.guild_id,
        fields=_fields(
            (quote.text, W_NAME),
            (speaker, W_PEOPLE),
            (quote.speaker_label, W_PEOPLE),
            (quote.said_to, W_CONTEXT),
            (quote.context, W_DETAIL),
            (incident.title, W_DETAIL),
            (incident.title_fr, W_DETAIL),
        ),
        date=incident.date,
        facets=facets,
    )


def _ruling_document(
    ruling: Ruling, incident: Incident, people: dict[int | None, Person], facets: Facets
) -> Document:
    subject = ruling.subject_label or _speaker_name(ruling.subject_id, people)
    ruled_by = clip(ruling.ruled_by_label, 50)

    def word() -> str:
        # In English the outcome's own words ("ordered to leave sitting"), short as a label wants.
        outcome = (
            _words(ruling.outcome) if current_locale() == DEFAULT_LOCALE else say(OUTCOME[ruling.outcome])
        )
        name = (
            say(Msg.RULING_CHOICE_ON, ruled_by=ruled_by, subject=clip(subject, 40), outcome=outcome)
            if subject
            else say(Msg.RULING_CHOICE, ruled_by=ruled_by, outcome=outcome)
        )
        return _suffixed(name, f" ({incident.slug})")

    label, label_fr = _in_both(word)
    return Document(
        kind=DocumentKind.RULING,
        key=f"ruling:{ruling.id}",
        label=label,
        label_fr=label_fr,
        incident=incident.slug,
        guild_id=incident.guild_id,
        fields=_fields(
            (ruling.ruled_by_label, W_PEOPLE),
            (_speaker_name(ruling.ruled_by_id, people), W_PEOPLE),
            (subject, W_PEOPLE),
            *((words, W_CONTEXT) for words in _said(ruling.outcome)),
            *_role(ruling.role, W_CONTEXT),
            (ruling.summary, W_DETAIL),
            (ruling.summary_fr, W_DETAIL),
            (incident.title, W_BACKGROUND),
            (incident.title_fr, W_BACKGROUND),
        ),
        date=incident.date,
        detail=_detail(ruling.summary),
        detail_fr=_detail(ruling.summary_fr),
        facets=facets,
    )


def _motion_document(
    motion: Motion, incident: Incident, people: dict[int | None, Person], facets: Facets
) -> Document:
    label, label_fr = _in_both(
        lambda: _suffixed(say(Msg.MOTION_CHOICE, text=motion.text), f" ({incident.slug})")
    )
    return Document(
        kind=DocumentKind.MOTION,
        key=f"motion:{motion.id}",
        label=label,
        label_fr=label_fr,
        incident=incident.slug,
        guild_id=incident.guild_id,
        fields=_fields(
            (motion.text, W_NAME),
            (motion.moved_by_label, W_PEOPLE),
            (_speaker_name(motion.moved_by_id, people), W_PEOPLE),
            (_words(motion.procedure), W_CONTEXT),
            (_words(motion.result), W_CONTEXT),
            (incident.title, W_DETAIL),
            (incident.title_fr, W_DETAIL),
        ),
        date=incident.date,
        facets=facets,
    )
