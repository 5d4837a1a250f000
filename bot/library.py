"""The Discord-free facade the cogs call: search, query and render, for one question at a time.

Methods that touch the database are synchronous and meant for ``asyncio.to_thread``; ``complete``
reads only the in-memory index, so autocomplete can call it directly on the event loop.

Curation methods (``apply``, ``remove``, ``restore``, ``undo``, ``approve``, ...) run one
``bot.curation`` use case in one transaction and commit once; those that change an entry then update
the search index for exactly that entry (and the guild's incidents that show its name), so the next
question in that guild sees the change.
"""

from __future__ import annotations

import datetime as dt
import gc
import logging
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, TypeVar

from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session

from bot import limits
from bot.answers import glossary, render
from bot.answers.detail_cache import DetailCache
from bot.answers.queries import (
    IncidentDetail,
    incident_detail,
    person_detail,
    quote_view,
    ruling_view,
    term_detail,
)
from bot.answers.render import Action, Choice, Reply
from bot.change_feed import (
    OWN_CHANGES,
    ChangeListener,
    changes_since,
    conninfo,
    latest_change,
    record_changes,
    record_seed,
)
from bot.classroom import collections, incidents
from bot.classroom import settings as guild_settings
from bot.classroom.collections import CollectionChange, CollectionSummary
from bot.classroom.incidents import NO_FILTERS, Anniversaries, IncidentLine, TimelineFilters
from bot.classroom.settings import GuildSettings
from bot.curation import change_log, changes, references, transfer
from bot.curation.change_log import LoggedChange, ShownChange
from bot.curation.change_view import Section
from bot.curation.changes import Actor, Change, Removed
from bot.curation.transfer import ImportPlan, Progress
from bot.curation.untold import UntoldOutcomes
from bot.errors import Conflict, InvalidInput, NotFound
from bot.lessons.sheet import Lesson, lesson_sheet, unit_sheet
from bot.memory import give_back_free_memory, set_aside_live_objects
from bot.messages.catalogue import Msg, say
from bot.quiz import custom
from bot.quiz import questions as quiz_questions
from bot.quiz import sessions as quiz
from bot.quiz.pool import pool as quiz_pool
from bot.search import snapshots
from bot.search.documents import (
    each_document,
    entry_documents,
    incident_cast,
    load_documents,
    referring_incidents,
)
from bot.search.filters import Filters, ParsedQuery, parse_query
from bot.search.index import Ambiguous, Clear, Document, DocumentKind, Exact, NoMatch, SearchIndex
from bot.search.text import fold
from bot.settings import OVERLAY_IDLE_SECONDS
from db.cleaning import is_id
from db.dataset.reader import export_dataset
from db.dataset.rows import GuildView
from db.dataset.schema import Dataset, Entry, IncidentEntry
from db.dataset.writer import collector_paused
from db.models import SHARED_GUILD, AuditAction, AuditEntry, EntityKind, Suggestion
from db.session import Database

SEARCH_RESULTS = 40
SWEEP_SECONDS = 60.0  # how often, at most, a question looks for idle overlays to evict
# An overlay loaded with this many documents or more is set aside from the garbage collector's walks
# (``set_aside_live_objects``): one of 60,000 made each full collection a 180 ms pause. A smaller one is
# not worth that function's own full collection (each overlay load would pay it).
SET_ASIDE_OVERLAY = 10_000
_Result = TypeVar("_Result")

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Topic:
    """What one command looks for (``what``, in words), and which action answers a hit."""

    what: Msg
    kinds: tuple[DocumentKind, ...]
    action: Action


TOPICS: dict[str, Topic] = {
    "incident": Topic(Msg.TOPIC_INCIDENT, (DocumentKind.INCIDENT,), Action.INCIDENT),
    "who-objected": Topic(
        Msg.TOPIC_WHO_OBJECTED, (DocumentKind.INCIDENT, DocumentKind.MOTION), Action.OBJECTED
    ),
    "quote": Topic(Msg.TOPIC_QUOTE, (DocumentKind.QUOTE,), Action.QUOTE),
    "ruling": Topic(Msg.TOPIC_RULING, (DocumentKind.RULING, DocumentKind.INCIDENT), Action.RULING),
    "person": Topic(Msg.TOPIC_PERSON, (DocumentKind.PERSON,), Action.PERSON),
    "explain": Topic(Msg.TOPIC_TERM, (DocumentKind.TERM,), Action.TERM),
}
# What pressing a /search result shows, by the kind of entry found.
ACTION_FOR_KIND = {
    DocumentKind.INCIDENT: Action.INCIDENT,
    DocumentKind.PERSON: Action.PERSON,
    DocumentKind.QUOTE: Action.QUOTE,
    DocumentKind.RULING: Action.RULING,
    DocumentKind.MOTION: Action.OBJECTED,
    DocumentKind.TERM: Action.TERM,
}
SEARCH_KINDS = tuple(ACTION_FOR_KIND)
# Autocomplete-only topics: the references the moderators' commands take.
COMPLETE_ONLY: dict[str, tuple[DocumentKind, ...]] = {
    "party": (DocumentKind.PARTY,),
    "term": (DocumentKind.TERM,),
}
ENTRY_KINDS = (DocumentKind.INCIDENT, DocumentKind.PERSON, DocumentKind.PARTY, DocumentKind.TERM)
# The references the moderators' commands take that the index holds (sources and chambers it does not).
REFERENCE_DOCUMENTS = {EntityKind(kind.value): kind for kind in ENTRY_KINDS}


def _argument(action: Action, document: Document) -> str:
    """The argument ``action`` needs to answer ``document``: its own key (a ruling's, so that the rulings
    shown lead with it), or its incident's slug."""
    if action in {Action.QUOTE, Action.PERSON} or document.incident is None:
        return document.key
    if action is Action.RULING and document.kind is DocumentKind.RULING:
        return document.key
    return document.incident


def _choice(action: Action, document: Document) -> Choice:
    return Choice(document.shown, action, _argument(action, document))


def _told_apart(documents: Sequence[Document]) -> list[tuple[str, str]]:
    """(label, key) choices in the language being spoken; where labels repeat, each says how it differs
    (its detail, else its rank)."""
    repeated = {label for label, count in Counter(d.shown for d in documents).items() if count > 1}
    told = []
    for rank, document in enumerate(documents, 1):
        label, detail = document.shown, document.shown_detail
        if label in repeated:
            label = f"{label} — {detail}" if detail else f"{label} ({rank})"
        told.append((limits.clip(label, limits.CHOICE_NAME), document.key))
    return told


def _distinct(choices: Iterable[Choice]) -> list[Choice]:
    """Choices that lead to different answers, best first (an incident and its motion lead to one)."""
    seen: set[tuple[str, str]] = set()
    distinct = []
    for choice in choices:
        if (choice.action, choice.argument) not in seen:
            seen.add((choice.action, choice.argument))
            distinct.append(choice)
    return distinct


def utc_today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


@dataclass(frozen=True, slots=True)
class CollectionView:
    """A collection as shown: its name as written, and the incidents of it the guild sees, in order."""

    name: str
    incidents: tuple[IncidentLine, ...]


class Library:
    """The facade; its index holds the shared documents and the overlays of the guilds asked about lately.

    A guild's own documents (its overlay) are loaded at the guild's first question (``_index_for``, the
    one way every read reaches the index) and evicted once unasked about for ``overlay_idle_seconds``
    (by ``clock``), so a process serving thousands of guilds holds the shared documents once. Index
    writes (a local write's re-index, an overlay load or eviction, another process's changes) are
    serialised by one lock, so an overlay is never loaded from a snapshot older than a change applied.
    """

    def __init__(
        self,
        database: Database,
        index: SearchIndex,
        *,
        today: Callable[[], dt.date] = utc_today,
        chance: random.Random | None = None,
        changes_seen: int = 0,
        snapshot: Path | None = None,
        migration: str | None = None,
        overlay_idle_seconds: float = OVERLAY_IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.database = database
        self.index = index
        self.changes_seen = changes_seen  # the change counter the index reflects (``catch_up``)
        self.snapshot = snapshot  # where the shared index is saved (``save_snapshot``), if anywhere
        # The migration the database was at when the index was built or loaded: its snapshot's stamp, even
        # if another process migrates the database meanwhile (its next start then builds anew).
        self.migration = migration
        self._saved: int | None = None  # the change the snapshot file was taken at, if it is this index's
        self.from_snapshot = False  # whether ``open`` loaded the index from the snapshot rather than built it
        self.overlay_idle_seconds = overlay_idle_seconds
        self.clock = clock
        self._untold = UntoldOutcomes(
            lambda guild_id: self._run(lambda session: changes.untold_authors(session, guild_id)), clock
        )
        self._overlays: dict[int, float] = {}  # guild -> when last asked about (under _overlay_lock)
        self._overlay_lock = threading.Lock()  # held for a dict operation only, never for I/O
        self._index_lock = threading.RLock()
        self._swept = clock()
        self._listener: ChangeListener | None = None
        self._own_changes: set[int] = set()  # this library's writes past ``changes_seen``: not to redo
        self.today = today  # what /on-this-day calls today (a test fixes it)
        self.chance = chance or random.Random()  # noqa: S311  (what /random draws with: a warm-up, not a secret)
        # Every guild's settings, read at the first question about any (None until then) and replaced
        # whole, under the lock, after each write: readers never wait and never see half a change.
        self._settings: Mapping[int, GuildSettings] | None = None
        self._settings_lock = threading.Lock()
        self._details: DetailCache[IncidentDetail] = DetailCache()  # forgotten by every re-index

    @classmethod
    def open(
        cls,
        database_url: str,
        *,
        seed: bool = True,
        snapshot: Path | None = None,
        overlay_idle_seconds: float = OVERLAY_IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> Library:
        """Open (creating, migrating and seeding on first use) the database and index its shared documents
        (guilds' overlays load at their first question).

        With a ``snapshot`` file, the index is loaded from it when it is current (``bot.search.snapshots``)
        and the changes since are re-indexed; otherwise the index is built and saved there.
        """
        database = Database(database_url)
        database.ensure_ready(seed=seed, loaded=record_seed)
        revision = database.current_revision() if snapshot else None
        # Millions of objects, none garbage, kept until ``close``: the session closes before they are frozen.
        with collector_paused(keep=True), database.session() as session:
            restored = snapshots.restore(snapshot, session, revision) if snapshot else None
            if restored is None:
                # before the documents: a change after it is caught up, not lost
                seen = latest_change(session)
                index = SearchIndex(each_document(session, guild_id=SHARED_GUILD))
            else:
                index, seen = restored
        give_back_free_memory()
        library = cls(
            database,
            index,
            changes_seen=seen,
            snapshot=snapshot,
            migration=revision,
            overlay_idle_seconds=overlay_idle_seconds,
            clock=clock,
        )
        if restored is None:
            library.save_snapshot()
        else:
            library._saved = seen
            library.from_snapshot = True
            library.catch_up()
        library.load_settings()  # now, rather than on the event loop at the first question
        return library

    def save_snapshot(self) -> bool:
        """Save the shared index to the ``snapshot`` file, with every change caught up and without any
        guild's overlay (they are unloaded, to load again at their next question); whether the file now
        holds this index. A failure (the database or the file) is logged, not raised."""
        if self.snapshot is None:
            return False
        with self._index_lock:
            try:
                self.catch_up()
                if self._saved == self.changes_seen:
                    return True
                with self._overlay_lock:
                    loaded = list(self._overlays)
                    self._overlays.clear()
                self._unload(loaded)
                with self.database.session() as session:
                    stamp = snapshots.Stamp.taken(session, self.migration, self.changes_seen, len(self.index))
            except SQLAlchemyError as error:
                log.warning("Could not save the search index: the database failed (%s)", error)
                return False
            if stamp is None or not snapshots.save(self.snapshot, self.index, stamp):
                return False
            self._saved = self.changes_seen
            return True

    def close(self) -> None:
        """Stop hearing other processes' writes, save the index (``save_snapshot``), close the database."""
        if self._listener is not None:
            self._listener.stop()
            self._listener = None
        self.save_snapshot()
        gc.unfreeze()  # the index ``open`` froze is the collector's again (with whatever else was frozen)
        self.database.dispose()

    # The index: guild overlays on demand, and other processes' writes

    def _index_for(self, guild_id: int | None) -> SearchIndex:
        """The index, holding ``guild_id``'s overlay (loaded now if it is not); evicts idle overlays."""
        now = self.clock()
        if guild_id and not self._asked(guild_id, now):
            self._load_overlay(guild_id)
        due = now - self._swept >= min(SWEEP_SECONDS, self.overlay_idle_seconds)
        if due and self._index_lock.acquire(blocking=False):  # a sweep can wait for a later question
            try:
                self.evict_idle(now)
            finally:
                self._index_lock.release()
        return self.index

    def _asked(self, guild_id: int, now: float) -> bool:
        """Note that the guild was asked about ``now``, if its overlay is loaded; whether it is.

        Atomic with eviction's check, so an overlay being evicted is either kept or loaded again.
        """
        with self._overlay_lock:
            if guild_id in self._overlays:
                self._overlays[guild_id] = now
                return True
            return False

    def _load_overlay(self, guild_id: int) -> None:
        with self._index_lock:
            if self._asked(guild_id, self.clock()):  # another thread loaded it while this one waited
                return
            with self.database.session() as session:
                fresh = load_documents(session, guild_id=guild_id)
            self._replace(fresh, self.index.guild_documents(guild_id))
            if len(fresh) >= SET_ASIDE_OVERLAY:
                set_aside_live_objects()
            with self._overlay_lock:
                self._overlays[guild_id] = self.clock()

    def evict_idle(self, now: float | None = None) -> list[int]:
        """Drop the overlays unasked about for ``overlay_idle_seconds``; returns their guilds."""
        now = self.clock() if now is None else now
        with self._index_lock:
            self._swept = now
            with self._overlay_lock:
                idle = [g for g, asked in self._overlays.items() if now - asked >= self.overlay_idle_seconds]
                for guild_id in idle:
                    del self._overlays[guild_id]
            self._unload(idle)
        return idle

    def _unload(self, guilds: Iterable[int]) -> None:
        """Take these guilds' own documents out of the index (their overlays, no longer listed as loaded)."""
        for guild_id in guilds:
            self._replace((), self.index.guild_documents(guild_id))

    def has_overlay(self, guild_id: int) -> bool:
        """Whether the index holds the guild's own documents now (else its next question loads them)."""
        with self._overlay_lock:
            return guild_id in self._overlays

    def load_overlay(self, guild_id: int) -> None:
        """Have the index hold the guild's own documents, loading them now if it does not: a worker
        thread's job, so that questions answered on the event loop (autocomplete) never read them."""
        self._index_for(guild_id)

    def loaded_overlays(self) -> set[int]:
        """The guilds whose own documents the index holds now."""
        with self._overlay_lock:
            return set(self._overlays)

    def catch_up(self) -> int:
        """Re-index the entries changed by other processes since the last change seen (this library's
        own writes are re-indexed already); returns the last change seen."""
        with self._index_lock, self.database.session() as session:
            changed = changes_since(session, self.changes_seen)
            by_guild: defaultdict[int, set[tuple[EntityKind, str]]] = defaultdict(set)
            for change in changed:
                if change.id in self._own_changes:
                    self._own_changes.discard(change.id)
                else:
                    by_guild[change.guild_id].add((change.kind, change.key))
            for guild_id, entries in by_guild.items():
                self._reindex(session, guild_id, entries, loaded_only=True)
            if changed:
                self.changes_seen = changed[-1].id
        return self.changes_seen

    def listen(self) -> ChangeListener | None:
        """On PostgreSQL, start hearing other processes' writes (``bot.change_feed``) until ``close``;
        on SQLite (one process) there are none to hear."""
        if self.database.is_sqlite:
            return None
        self._listener = ChangeListener(conninfo(self.database.url), self.catch_up).start()
        return self._listener

    # Questions

    def answer(self, topic_name: str, query: str, *, guild_id: int | None) -> Reply:
        """Answer ``/<topic_name> query``: the match, a did-you-mean, or a polite no-match."""
        topic = TOPICS[topic_name]
        result = self._index_for(guild_id).resolve(query, kinds=topic.kinds, guild_id=guild_id)
        if isinstance(result, Exact | Clear):
            choice = _choice(topic.action, result.hit.document)
            return self.act(choice.action, self._lead(choice, query, guild_id), guild_id=guild_id)
        if isinstance(result, Ambiguous):
            choices = _distinct(_choice(topic.action, h.document) for h in result.candidates)
            incidents = {h.document.incident or h.document.key for h in result.candidates}
            if len(choices) == 1 or (topic.action is Action.RULING and len(incidents) == 1):
                return self.act(choices[0].action, self._lead(choices[0], query, guild_id), guild_id=guild_id)
            return render.did_you_mean_reply(query, choices)
        assert isinstance(result, NoMatch)
        suggestions = _distinct(_choice(topic.action, h.document) for h in result.suggestions)
        return render.no_match_reply(query, say(topic.what), suggestions)

    def _lead(self, choice: Choice, query: str, guild_id: int | None) -> str:
        """``choice``'s argument; for the rulings of an incident, the key of the one ``query`` matches
        best, so that the answer leads with it."""
        if choice.action is not Action.RULING or choice.argument.startswith("ruling:"):
            return choice.argument
        hits = self._index_for(guild_id).search(
            query, kinds=(DocumentKind.RULING,), guild_id=guild_id, limit=SEARCH_RESULTS
        )
        return next((h.document.key for h in hits if h.document.incident == choice.argument), choice.argument)

    def search(self, query: str, *, guild_id: int | None) -> list[Choice]:
        """``/search``: the entries of every kind ``query`` finds, best first, within its filters
        (``chamber:``, ``year:``, ``kind:``); a filter value that means nothing is refused politely."""
        parsed = parse_query(query)
        filters = self._usable(parsed)
        hits = self._index_for(guild_id).search(
            parsed.text, kinds=SEARCH_KINDS, guild_id=guild_id, limit=SEARCH_RESULTS, filters=filters
        )
        return [_choice(ACTION_FOR_KIND[hit.document.kind], hit.document) for hit in hits]

    def _usable(self, parsed: ParsedQuery) -> Filters:
        """The query's filters, or the polite refusal of the first one that cannot be used."""
        problem = parsed.problem
        if problem is not None:
            raise InvalidInput(problem.msg, value=render.echo(problem.value), allowed=problem.allowed)
        chamber = parsed.filters.chamber
        if chamber and not self.index.places_named(chamber):
            raise self._unknown_chamber(chamber)
        return parsed.filters

    def _unknown_chamber(self, typed: str) -> InvalidInput:
        """The refusal of a chamber no entry is in, naming the chambers there are."""
        known = ", ".join(
            f"`{min(map(fold, place.names[1:] or place.names), key=len)}` ({place.shown})"
            for place in self.index.places()
        )
        return InvalidInput(Msg.SEARCH_UNKNOWN_CHAMBER, value=render.echo(typed), allowed=known)

    def complete(self, topic_name: str, query: str, *, guild_id: int | None) -> list[tuple[str, str]]:
        """Autocomplete choices as (name, value) pairs; the value resolves exactly when submitted.

        ``topic_name`` is a key of ``TOPICS`` or ``COMPLETE_ONLY``, or ``"search"`` for every kind
        ``/search`` shows. Filters in the text narrow the choices; one that cannot be used is left out.
        """
        kinds = (
            TOPICS[topic_name].kinds if topic_name in TOPICS else COMPLETE_ONLY.get(topic_name, SEARCH_KINDS)
        )
        text, filters = self._typed(query)
        hits = self._index_for(guild_id).complete(text, kinds=kinds, guild_id=guild_id, filters=filters)
        return _told_apart([hit.document for hit in hits])

    def _typed(self, query: str) -> tuple[str, Filters]:
        """The words and filters of a query being typed; a chamber no entry is in (perhaps one
        half typed) is left out, as a value that cannot be read is."""
        parsed = parse_query(query)
        filters = parsed.filters
        if filters.chamber and not self.index.places_named(filters.chamber):
            filters = replace(filters, chamber=None)
        return parsed.text, filters

    def complete_entries(self, query: str, *, guild_id: int | None) -> list[tuple[str, str]]:
        """Incidents, people, parties and terms as ("person: Jagmeet Singh (NDP)", "person:jagmeet-singh")
        pairs, named in the language being spoken ("personne : Jagmeet Singh (NPD)")."""
        text, filters = self._typed(query)
        hits = self._index_for(guild_id).complete(text, kinds=ENTRY_KINDS, guild_id=guild_id, filters=filters)
        return [
            (
                say(Msg.LABELLED, label=changes.kind_name(EntityKind(doc.kind)), text=doc.shown),
                f"{doc.kind}:{doc.key}",
            )
            for doc in (hit.document for hit in hits)
        ]

    def resolve_entry(self, text: str, *, guild_id: int | None) -> tuple[EntityKind, str]:
        """The incident, person or party ``text`` names: its slug, an alias, or a clear winner by name.

        A close call is refused with the candidates to choose from; nothing close, as not found.
        """
        result = self._index_for(guild_id).resolve(text, kinds=ENTRY_KINDS, guild_id=guild_id)
        if isinstance(result, Exact | Clear):
            return EntityKind(result.hit.document.kind.value), result.hit.document.key
        if isinstance(result, Ambiguous):
            named = ", ".join(f"`{hit.document.kind}:{hit.document.key}`" for hit in result.candidates)
            raise InvalidInput(Msg.ENTRY_AMBIGUOUS, text=text, candidates=named)
        raise NotFound(Msg.ENTRY_UNKNOWN, text=text)

    def resolve_reference(
        self, *, guild_id: int, kind: EntityKind, text: str, option: str, incident: str | None = None
    ) -> str:
        """The slug (or source key) of the ``kind`` entry that ``text``, typed in ``option``, names in the
        guild's view: its slug, a name or an alias, or a clear winner by name.

        Incidents, people, parties and terms are resolved by the index; sources and chambers by key, then by
        name (a source among ``incident``'s own where it is known). A close call is refused with the
        candidates, nothing close with suggestions (``bot.curation.references``).
        """
        if kind in REFERENCE_DOCUMENTS:
            outcome = self._indexed(kind, text, guild_id)
        else:
            outcome = self._run(lambda s: self._keyed(s, kind, text, guild_id, incident))
        return references.settled(outcome, option=option, kind=kind, text=text)

    def _indexed(self, kind: EntityKind, text: str, guild_id: int) -> references.Outcome:
        result = self._index_for(guild_id).resolve(
            text, kinds=(REFERENCE_DOCUMENTS[kind],), guild_id=guild_id
        )
        if isinstance(result, Exact | Clear):
            return result.hit.document.key
        hits = result.candidates if isinstance(result, Ambiguous) else result.suggestions
        own_first = sorted(hits, key=lambda hit: hit.document.guild_id != guild_id)  # stable: best first
        found = tuple(references.Named(hit.document.key, hit.document.shown) for hit in own_first)
        return references.Close(found) if isinstance(result, Ambiguous) else references.Unknown(found)

    @staticmethod
    def _keyed(
        session: Session, kind: EntityKind, text: str, guild_id: int, incident: str | None
    ) -> references.Outcome:
        keys = GuildView(session, guild_id).ids(changes.TABLES[kind])
        if text in keys:
            return text
        cited = (
            changes.visible_entry(session, guild_id=guild_id, kind=EntityKind.INCIDENT, key=incident)
            if incident
            else None
        )
        pool = cited.sources if isinstance(cited, IncidentEntry) else sorted(keys)
        entries = (changes.visible_entry(session, guild_id=guild_id, kind=kind, key=key) for key in pool)
        return references.matched(text, [references.named(entry) for entry in entries if entry is not None])

    # Actions (what a hit or a button asks for)

    def act(self, action: Action, argument: str, *, guild_id: int | None) -> Reply:
        with self.database.session() as session:
            return self._actions[action](self, session, argument, guild_id)

    def _incident(self, session: Session, slug: str, guild_id: int | None) -> IncidentDetail:
        detail = self._details.get(
            guild_id, slug, lambda: incident_detail(session, slug=slug, guild_id=guild_id)
        )
        if detail is None:
            raise NotFound(Msg.INCIDENT_GONE, slug=slug)
        return detail

    def _show_incident(self, session: Session, slug: str, guild_id: int | None) -> Reply:
        return render.incident_reply(self._incident(session, slug, guild_id))

    def _show_objections(self, session: Session, slug: str, guild_id: int | None) -> Reply:
        return render.who_objected_reply(self._incident(session, slug, guild_id))

    def _show_quotes(self, session: Session, slug: str, guild_id: int | None) -> Reply:
        detail = self._incident(session, slug, guild_id)
        return render.quotes_reply(
            say(Msg.QUOTES_TITLE, title=render.title_of(detail.ref)), detail.quotes, slug=slug
        )

    def _show_sources(self, session: Session, slug: str, guild_id: int | None) -> Reply:
        return render.sources_reply(self._incident(session, slug, guild_id))

    def _show_rulings(self, session: Session, key: str, guild_id: int | None) -> Reply:
        """The rulings of an incident (``key`` its slug), or of a ruling's incident led by that ruling
        (``key`` ``ruling:12``)."""
        lead = None
        if key.startswith("ruling:"):
            lead = ruling_view(session, ruling_id=_id_of(key), guild_id=guild_id)
            if lead is None:
                raise NotFound(Msg.RULING_GONE)
            key = lead.incident.slug
        detail = self._incident(session, key, guild_id)
        if not detail.rulings:
            raise NotFound(Msg.NO_RULING, title=render.title_of(detail.ref))
        return render.rulings_reply(sorted(detail.rulings, key=lambda r: lead is None or r.id != lead.id))

    def _show_quote(self, session: Session, key: str, guild_id: int | None) -> Reply:
        quote = quote_view(session, quote_id=_id_of(key), guild_id=guild_id)
        if quote is None:
            raise NotFound(Msg.QUOTE_GONE)
        return render.quote_reply(quote)

    def _show_person(self, session: Session, slug: str, guild_id: int | None) -> Reply:
        person = person_detail(session, slug=slug, guild_id=guild_id)
        if person is None:
            raise NotFound(Msg.PERSON_GONE, slug=slug)
        return render.person_reply(person)

    def _show_term(self, session: Session, slug: str, guild_id: int | None) -> Reply:
        term = term_detail(session, slug=slug, guild_id=guild_id)
        if term is None:
            raise NotFound(Msg.TERM_GONE, slug=slug)
        return glossary.term_reply(term)

    # Curation (bot.curation has the rules; these add the transaction and the index update)

    def apply(
        self,
        *,
        actor: Actor,
        kind: EntityKind,
        key: str,
        change: Change,
        summary: str,
        action: AuditAction = AuditAction.EDIT,
        expected_revision: int | None = None,
    ) -> AuditEntry:
        """Add or change one entry in the actor's guild (see ``changes.apply``)."""
        return self._write(
            lambda session: changes.apply(
                session,
                actor=actor,
                kind=kind,
                key=key,
                change=change,
                summary=summary,
                action=action,
                expected_revision=expected_revision,
            )
        )

    def remove(
        self, *, actor: Actor, kind: EntityKind, key: str, expected_revision: int | None = None
    ) -> AuditEntry:
        return self._write(
            lambda session: changes.remove(
                session, actor=actor, kind=kind, key=key, expected_revision=expected_revision
            )
        )

    def restore(self, *, actor: Actor, kind: EntityKind, key: str) -> AuditEntry:
        return self._write(lambda session: changes.restore(session, actor=actor, kind=kind, key=key))

    def undo(
        self, *, actor: Actor, audit_id: int | None = None, kinds: Collection[EntityKind] = changes.EVERY_KIND
    ) -> AuditEntry:
        """Undo the actor's latest change in the guild, or the change ``audit_id``; ``kinds`` are the kinds
        of entry the actor may undo changes to (see ``changes.undo``)."""
        return self._write(lambda session: changes.undo(session, actor=actor, audit_id=audit_id, kinds=kinds))

    def approve(self, *, actor: Actor, suggestion_id: int) -> AuditEntry:
        """Apply a suggestion; one whose entry changed since is marked stale and raises ``Conflict``."""
        try:
            return self._write(
                lambda session: changes.approve(session, actor=actor, suggestion_id=suggestion_id)
            )
        except Conflict:
            self._run(lambda session: changes.mark_stale(session, actor=actor, suggestion_id=suggestion_id))
            raise
        finally:
            self._untold.forget(actor.guild_id)

    def suggest(
        self,
        *,
        actor: Actor,
        kind: EntityKind,
        key: str,
        change: Change,
        summary: str,
        action: AuditAction = AuditAction.EDIT,
    ) -> Suggestion:
        return self._run(
            lambda session: changes.suggest(
                session, actor=actor, kind=kind, key=key, change=change, summary=summary, action=action
            )
        )

    def reject(self, *, actor: Actor, suggestion_id: int, reason: str | None = None) -> Suggestion:
        try:
            return self._run(
                lambda session: changes.reject(
                    session, actor=actor, suggestion_id=suggestion_id, reason=reason
                )
            )
        finally:
            self._untold.forget(actor.guild_id)

    def take_outcomes(self, *, guild_id: int, user_id: int) -> list[Suggestion]:
        """The author's decided suggestions not yet told, marked as told in the same transaction; no
        query at all while the guild's recent list says the member has none (``bot.curation.untold``)."""
        if not self._untold.may_have(guild_id, user_id):
            return []

        def take(session: Session) -> list[Suggestion]:
            outcomes = changes.unnotified_outcomes(session, guild_id, user_id)
            changes.mark_notified(session, guild_id=guild_id, suggestion_ids=[s.id for s in outcomes if s.id])
            return outcomes

        outcomes = self._run(take)
        self._untold.told(guild_id, user_id)
        return outcomes

    # Reads for the moderators' commands

    def visible_entry(self, *, guild_id: int, kind: EntityKind, key: str) -> Entry | None:
        """The entry the guild sees (its own, else the shared one), or None."""
        return self._run(lambda s: changes.visible_entry(s, guild_id=guild_id, kind=kind, key=key))

    def revision(self, *, guild_id: int, kind: EntityKind, key: str) -> int:
        """The revision a form opened now is based on (pass it back as ``expected_revision``)."""
        return self._run(lambda s: changes.current_revision(s, guild_id=guild_id, kind=kind, key=key))

    def visible_keys(self, *, guild_id: int | None, kind: EntityKind) -> list[str]:
        """Every source key or chamber slug the guild sees, sorted (the search index holds neither)."""
        table = changes.TABLES[kind]
        return self._run(lambda s: sorted(GuildView(s, guild_id or SHARED_GUILD).ids(table)))

    def history(
        self, *, guild_id: int, kind: EntityKind | None = None, key: str | None = None
    ) -> list[AuditEntry]:
        """The guild's changes, newest first; ``kind`` and ``key`` narrow them to one entry."""
        return self._run(lambda s: changes.history(s, guild_id=guild_id, kind=kind, key=key))

    def change_log(
        self, *, guild_id: int, kind: EntityKind | None = None, key: str | None = None
    ) -> list[LoggedChange]:
        """``history``, each change with the member whose suggestion it approved."""
        return self._run(
            lambda s: change_log.logged(s, changes.history(s, guild_id=guild_id, kind=kind, key=key))
        )

    def shown_change(self, *, guild_id: int, audit_id: int) -> ShownChange:
        """Change ``audit_id`` of the guild's history with what it did, field by field."""
        return self._run(lambda s: change_log.shown_audit(s, guild_id=guild_id, audit_id=audit_id))

    def undoable(
        self, *, actor: Actor, kinds: Collection[EntityKind] = changes.EVERY_KIND
    ) -> list[AuditEntry]:
        """The actor's changes (to entries of ``kinds``) that ``undo`` can still revert, newest first."""
        return self._run(lambda s: changes.undoable(s, actor=actor, kinds=kinds))

    def removed(self, *, guild_id: int) -> list[Removed]:
        """The guild's removed entries, most recently removed first (``restore`` brings one back)."""
        return self._run(lambda s: changes.removed(s, guild_id=guild_id))

    def pending_suggestions(self, *, guild_id: int) -> list[Suggestion]:
        """The guild's suggestions waiting for review, oldest first."""
        return self._run(lambda s: changes.pending(s, guild_id))

    def shown_suggestion(self, suggestion: Suggestion) -> tuple[Section, ...]:
        """What approving ``suggestion`` would change in the entry its guild sees now, field by field."""
        return self._run(lambda s: change_log.shown_suggestion(s, suggestion))

    def moderator_role(self, *, guild_id: int) -> int | None:
        """The guild's moderator role, or None (then Manage Server is the moderator right)."""
        return self.guild_settings(guild_id).moderator_role_id

    def set_moderator_role(self, *, actor: Actor, role_id: int | None) -> None:
        """Name the guild's moderator role (None: back to Manage Server)."""
        self._set(actor, lambda s: changes.set_moderator_role(s, actor=actor, role_id=role_id))

    def _run(self, use_case: Callable[[Session], _Result]) -> _Result:
        """Run one use case in one transaction and commit it."""
        with self.database.session() as session:
            result = use_case(session)
            session.commit()
            return result

    # Import and export (bot.transfer has the rules)

    def plan_import(self, document: object, *, guild_id: int) -> ImportPlan:
        """What importing ``document`` (decoded JSON) into the guild would do; writes nothing."""
        with self.database.session() as session:
            return transfer.plan_import(session, document, guild_id=guild_id)

    def import_dataset(
        self, document: object, *, actor: Actor, progress: Progress | None = None
    ) -> ImportPlan:
        """Import ``document`` into the actor's guild in one transaction, then re-index what it wrote."""
        with self.database.session() as session:
            plan = commit_import(
                self.database,
                session,
                document,
                guild_id=actor.guild_id,
                actor_id=actor.user_id,
                progress=progress,
            )
            self._reindex(session, actor.guild_id, plan.written, cast=plan.cast_left)
        return plan

    def export(self, *, guild_id: int) -> Dataset:
        """The guild's own entries (and the shared ones they refer to) as a dataset."""
        with self.database.session() as session:
            return export_dataset(session, guild_id=guild_id)

    def _write(self, use_case: Callable[[Session], AuditEntry]) -> AuditEntry:
        """Run a write, commit it, then re-index the entry it changed in its guild (see ``_reindex``).

        The change log records the entry and, for an incident, the people the write took out of it:
        another process re-indexes them (``catch_up``) without knowing the state before."""
        with self.database.session() as session:
            audit = use_case(session)
            written = {(audit.kind, audit.key)}
            left = changes.cast_of(audit.before) - changes.cast_of(audit.after)
            record_changes(session, audit.guild_id, written | {(EntityKind.PERSON, slug) for slug in left})
            session.commit()
            self._reindex(session, audit.guild_id, written, cast=left)
        return audit

    def _reindex(
        self,
        session: Session,
        guild_id: int,
        entries: set[tuple[EntityKind, str]],
        *,
        loaded_only: bool = False,
        cast: Collection[str] = (),
    ) -> None:
        """Make the index hold exactly the committed documents of these entries of the guild, of the
        guild's incidents that show their names (a renamed person's, party's or chamber's), and of the
        guild's people whose documents show these incidents: those taking part now, and ``cast``, the
        people a write of one of them took out of it (its state before).

        A guild whose overlay is not loaded has it loaded now, fresh (a write is a question about the
        guild); with ``loaded_only`` (another process's write) it is left alone, to load at its next
        question. The changes the session recorded (``record_changes``) are then the listener's to skip.
        """
        with self._index_lock:
            self._details.forget(guild_id)
            if guild_id == SHARED_GUILD or guild_id in self._overlays:
                referring = referring_incidents(session, guild_id=guild_id, entries=entries)
                written = {key for kind, key in entries if kind is EntityKind.INCIDENT}
                taking_part = incident_cast(session, guild_id=guild_id, incidents=written) | set(cast)
                entries = (
                    entries
                    | {(EntityKind.INCIDENT, slug) for slug in referring}
                    | {(EntityKind.PERSON, slug) for slug in taking_part}
                )
                fresh = entry_documents(session, guild_id=guild_id, entries=entries)
                self._replace(fresh, self.index.entry_documents(guild_id, entries))
            elif not loaded_only:
                self._index_for(guild_id)
            recorded = session.info.pop(OWN_CHANGES, ())
            # ``catch_up`` takes them out of the set: the listener's, or the one before a snapshot is saved.
            if self._listener is not None or self.snapshot is not None:
                self._own_changes.update(n for n in recorded if n > self.changes_seen)

    def _replace(self, fresh: Sequence[Document], held: Sequence[Document]) -> None:
        """Upsert those of ``fresh`` that the index does not hold as they are (``SearchIndex.refresh``), and
        remove those of ``held`` (documents the index holds) that ``fresh`` lacks."""
        current = {doc.ident for doc in fresh}
        for doc in held:
            if doc.ident not in current:
                self.index.remove(doc.kind, doc.key, doc.guild_id)
        for doc in fresh:
            self.index.refresh(doc)

    # -- quizzes (bot.quiz has the rules; one transaction per call) -------------------------------------

    def quiz_candidates(
        self, *, guild_id: int | None, filters: quiz_questions.Filters, rng: random.Random
    ) -> list[quiz_questions.Question]:
        """Every question the guild's incidents give under ``filters``, and the guild's own questions when
        the filters take them (no incident, collection or chamber; any kind, or ``custom``)."""
        with self.database.session() as session:
            pooled = quiz_pool(session, guild_id=guild_id)
            own = custom.custom_questions(session, guild_id=guild_id or SHARED_GUILD, rng=rng)
        if filters.incidents is not None and not filters.incidents & {p.detail.ref.slug for p in pooled}:
            raise NotFound(Msg.QUIZ_NO_SUCH_INCIDENT, slug=", ".join(sorted(filters.incidents)))
        return quiz_questions.questions(pooled, rng, filters) + (own if filters.takes_custom else [])

    def add_quiz_question(
        self, *, actor: Actor, prompt: str, answer: str, wrong: list[str], source: str
    ) -> AuditEntry:
        """A teacher's own question, added to the guild's entries through the one write path (audited,
        undoable with ``undo``)."""

        def add(session: Session) -> AuditEntry:
            slug = custom.next_slug(session, guild_id=actor.guild_id)
            entry = custom.new_entry(slug, prompt=prompt, answer=answer, wrong=wrong, source=source)
            return changes.apply(
                session,
                actor=actor,
                kind=EntityKind.QUESTION,
                key=slug,
                change=lambda _current: entry,
                summary=say(Msg.QUIZ_ADDED_SUMMARY, key=slug, prompt=limits.clip(entry.prompt, 120)),
                action=AuditAction.ADD,
            )

        return self._write(add)

    def start_quiz(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        filters: quiz_questions.Filters,
        count: int,
        seconds: int,
        settings: Mapping[str, object],
    ) -> quiz.Asked:
        """Draw ``count`` questions (with ``chance``) and start a quiz of them in the channel, asking the
        first."""
        rng = self.chance
        drawn = quiz_questions.draw(
            self.quiz_candidates(guild_id=guild_id, filters=filters, rng=rng), count, rng
        )
        try:
            return self._run(
                lambda s: quiz.start(
                    s,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    user_id=user_id,
                    questions=drawn,
                    settings=dict(settings),
                    seconds=seconds,
                    now=_now(),
                )
            )
        except IntegrityError:  # another quiz was started in the channel at the same moment
            raise Conflict(Msg.QUIZ_ALREADY_RUNNING) from None

    def quiz_message(self, *, question_id: int, message_id: int) -> None:
        """Remember the message that asks the question."""
        self._run(lambda s: quiz.set_message(s, question_id=question_id, message_id=message_id))

    def answer_quiz(
        self, *, question_id: int, guild_id: int | None, user_id: int, display_name: str, choice: int
    ) -> quiz.Click:
        """A member's click on a choice in ``guild_id``: taken, changed, the same again, or refused (closed,
        or a question of another guild's quiz)."""
        return self._run(
            lambda s: quiz.answer(
                s,
                question_id=question_id,
                guild_id=guild_id,
                user_id=user_id,
                display_name=display_name,
                choice=choice,
                now=_now(),
            )
        )

    def close_question(self, *, question_id: int) -> quiz.Closed | None:
        """Close and score the question; None when it was closed already."""
        return self._run(lambda s: quiz.close(s, question_id=question_id, now=_now()))

    def next_question(self, *, channel_id: int, user_id: int, teacher: bool) -> quiz.Advanced:
        """Close the channel's current question and ask the next (or end the quiz after the last)."""
        return self._run(
            lambda s: quiz.advance(s, channel_id=channel_id, user_id=user_id, teacher=teacher, now=_now())
        )

    def stop_quiz(self, *, channel_id: int, user_id: int, teacher: bool) -> quiz.Advanced:
        """Close the channel's current question and end its quiz."""
        return self._run(
            lambda s: quiz.stop(s, channel_id=channel_id, user_id=user_id, teacher=teacher, now=_now())
        )

    def waiting_questions(self) -> list[quiz.Waiting]:
        """Every open question of every open quiz, to time again after a restart."""
        return self._run(quiz.waiting)

    def quiz_scores(self, *, guild_id: int) -> list[quiz.Standing]:
        """The guild's running totals, best first (names and points only)."""
        return self._run(lambda s: quiz.scores(s, guild_id=guild_id))

    def clear_quiz_scores(self, *, guild_id: int) -> int:
        """Forget the guild's totals; returns how many members had one."""
        return self._run(lambda s: quiz.clear_scores(s, guild_id=guild_id))

    # Lessons and the glossary (bot.lessons has the sheet)

    def incident_slug(self, query: str, *, guild_id: int | None) -> str:
        """The incident ``query`` names (a slug as autocomplete gives it, a name, a clear winner by words);
        several close ones, or none, are refused with the slugs to choose from."""
        result = self._index_for(guild_id).resolve(query, kinds=(DocumentKind.INCIDENT,), guild_id=guild_id)
        if isinstance(result, Exact | Clear):
            return result.hit.document.key
        if isinstance(result, Ambiguous):
            named = ", ".join(f"`{hit.document.key}`" for hit in result.candidates)
            raise InvalidInput(Msg.LESSON_WHICH, query=render.echo(query), candidates=named)
        raise NotFound(Msg.LESSON_NO_INCIDENT, query=render.echo(query))

    def lesson(self, query: str, *, guild_id: int | None) -> Lesson:
        """The lesson sheet of the incident ``query`` names, with the glossary terms it is linked with."""
        slug = self.incident_slug(query, guild_id=guild_id)
        with self.database.session() as session:
            return self._lesson(session, slug, guild_id)

    def unit_lesson(self, name: str, *, guild_id: int) -> Lesson:
        """One sheet for the guild's collection ``name``: its incidents' sheets, in the order added."""
        with self.database.session() as session:
            shown, slugs = collections.collection(session, guild_id=guild_id, name=name)
            if not slugs:
                raise NotFound(Msg.LESSON_EMPTY_UNIT, name=shown)
            return unit_sheet(shown, [self._lesson(session, slug, guild_id) for slug in slugs])

    def _lesson(self, session: Session, slug: str, guild_id: int | None) -> Lesson:
        detail = self._incident(session, slug, guild_id)
        terms = [term_detail(session, slug=ref.slug, guild_id=guild_id) for ref in detail.terms]
        return lesson_sheet(detail, [term for term in terms if term is not None])

    _actions: ClassVar[Mapping[Action, Callable[[Library, Session, str, int | None], Reply]]] = {
        Action.INCIDENT: _show_incident,
        Action.OBJECTED: _show_objections,
        Action.QUOTES: _show_quotes,
        Action.SOURCES: _show_sources,
        Action.RULING: _show_rulings,
        Action.QUOTE: _show_quote,
        Action.PERSON: _show_person,
        Action.TERM: _show_term,
    }

    # Classrooms (bot.classroom has the rules): guild settings, collections, warm-ups

    def load_settings(self) -> Mapping[int, GuildSettings]:
        """Every guild's settings, read into memory unless they are there already."""
        every = self._settings
        if every is None:
            with self._settings_lock:
                if self._settings is None:
                    with self.database.session() as session:
                        self._settings = guild_settings.every_guild(session)
                every = self._settings
        return every

    def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """The guild's settings, from memory (``load_settings``); outside a guild, the defaults."""
        return self.load_settings().get(guild_id or 0) or GuildSettings()

    def _set(self, actor: Actor, use_case: Callable[[Session], object]) -> None:
        """Run a settings write and commit it, then put the guild's fresh settings in memory."""
        with self._settings_lock, self.database.session() as session:
            use_case(session)
            session.commit()
            if self._settings is not None:
                fresh = guild_settings.guild_settings(session, guild_id=actor.guild_id)
                self._settings = {**self._settings, actor.guild_id: fresh}

    def replies_private(self, guild_id: int | None, channel_id: int | None) -> bool:
        """Whether lookups (and quiz feedback) answer privately in this channel: its own setting, else
        its guild's (``/config ephemeral``); never outside a guild. From memory."""
        return guild_id is not None and self.guild_settings(guild_id).replies_private(channel_id)

    def guild_language(self, guild_id: int | None) -> str | None:
        """The guild's reply language (``en`` or ``fr``) for members whose locale is neither, or None.
        From memory."""
        return None if guild_id is None else self.guild_settings(guild_id).language

    def teacher_role(self, guild_id: int) -> int | None:
        """The guild's own teacher role, or None (then its moderators teach). From memory."""
        return self.guild_settings(guild_id).teacher_role_id

    def set_teacher_role(self, *, actor: Actor, role_id: int | None) -> None:
        """Name the guild's teacher role (None: its moderators teach)."""
        self._set(actor, lambda s: guild_settings.set_teacher_role(s, actor=actor, role_id=role_id))

    def set_ephemeral(self, *, actor: Actor, channel_id: int | None, private: bool | None) -> None:
        """Make lookups private or public in the guild, or in one channel (``private`` None: the channel
        follows the guild again)."""
        self._set(
            actor,
            lambda s: guild_settings.set_ephemeral(s, actor=actor, channel_id=channel_id, private=private),
        )

    def set_language(self, *, actor: Actor, language: str | None) -> None:
        """The guild's reply language for members whose locale is neither English nor French."""
        self._set(actor, lambda s: guild_settings.set_language(s, actor=actor, language=language))

    def collections(self, guild_id: int) -> list[CollectionSummary]:
        """The guild's collections by name, each with how many of its incidents the guild sees."""
        return self._run(lambda s: collections.collections(s, guild_id=guild_id))

    def collection_names(self, guild_id: int, typed: str = "") -> list[str]:
        """The guild's collection names containing ``typed`` (any case), in name order."""
        wanted = typed.casefold().strip()
        names = self._run(lambda s: collections.collection_names(s, guild_id=guild_id))
        return [name for name in names if wanted in name.casefold()]

    def collection(self, guild_id: int, name: str) -> CollectionView:
        """The collection ``name`` (any case) with its incidents the guild sees, in the order added."""

        def read(session: Session) -> CollectionView:
            shown, slugs = collections.collection(session, guild_id=guild_id, name=name)
            return CollectionView(shown, tuple(incidents.lines_for(session, guild_id=guild_id, slugs=slugs)))

        return self._run(read)

    def collection_incidents(self, guild_id: int, name: str) -> list[str]:
        """The slugs of the collection's incidents the guild sees, in the order added (for quizzes,
        lessons and /random); an unknown name is ``NotFound``."""
        return self._run(lambda s: collections.collection(s, guild_id=guild_id, name=name)[1])

    def add_to_collection(self, *, actor: Actor, name: str, slug: str) -> CollectionChange:
        """Add an incident the guild sees to the collection ``name``, starting it if new."""
        return self._run(lambda s: collections.add_to_collection(s, actor=actor, name=name, slug=slug))

    def remove_from_collection(self, *, actor: Actor, name: str, slug: str) -> CollectionChange:
        return self._run(lambda s: collections.remove_from_collection(s, actor=actor, name=name, slug=slug))

    def remove_collection(self, *, actor: Actor, name: str) -> CollectionChange:
        """Remove a whole collection (not its incidents)."""
        return self._run(lambda s: collections.remove_collection(s, actor=actor, name=name))

    def timeline(self, guild_id: int, filters: TimelineFilters = NO_FILTERS) -> list[IncidentLine]:
        """The incidents the guild sees within ``filters``, in date order."""
        return self._run(lambda s: incidents.timeline(s, guild_id=guild_id, filters=filters))

    def random_incident(
        self, guild_id: int, *, collection: str | None = None, chamber: str | None = None
    ) -> Reply:
        """``/random``: an incident the guild sees (of a collection, of a chamber), as ``/incident``
        shows it."""

        def draw(session: Session) -> str:
            pool = incidents.timeline(session, guild_id=guild_id, filters=TimelineFilters(chamber=chamber))
            if collection is not None:
                _, members = collections.collection(session, guild_id=guild_id, name=collection)
                pool = [line for line in pool if line.slug in set(members)]
            if not pool:
                raise NotFound(Msg.RANDOM_NOTHING)
            return self.chance.choice(pool).slug

        return self.act(Action.INCIDENT, self._run(draw), guild_id=guild_id)

    def on_this_day(self, guild_id: int) -> Anniversaries | None:
        """The incidents whose anniversary is ``today`` (the clock's), else the nearest; None when the
        guild sees no incident at all."""
        today = self.today()
        return self._run(lambda s: incidents.anniversaries(incidents.timeline(s, guild_id=guild_id), today))

    def chamber_choices(self, typed: str) -> list[tuple[str, str]]:
        """Chambers as (name, slug) pairs, named in the language being spoken, whose slug or names hold
        every word typed (all when nothing is)."""
        places = self.index.places()
        if typed.strip():
            named = self.index.places_named(typed)
            places = [place for place in places if place.slug in named]
        return [(place.shown, place.slug) for place in places]

    def chamber_slug(self, typed: str) -> str:
        """The chamber ``typed`` names (its slug, or words only one chamber's names hold); otherwise
        refused with the chambers there are."""
        slugs = {place.slug for place in self.index.places()}
        if typed in slugs:
            return typed
        named = self.index.places_named(typed)
        if len(named) != 1:
            raise self._unknown_chamber(typed)
        return next(iter(named))


def commit_import(
    database: Database,
    session: Session,
    document: object,
    *,
    guild_id: int,
    actor_id: int,
    progress: Progress | None = None,
    on_plan: Callable[[ImportPlan], None] | None = None,
    consume: bool = False,
) -> ImportPlan:
    """Import ``document`` into ``guild_id`` in ``session`` (``transfer.apply_import``, which says what
    ``consume`` does) and commit it with its entries in the change log, which other processes re-index
    from and a saved index is proved current against; then let the database count what it wrote
    (``Database.imported``). How every import commits: ``/import``, ``parlbot db import`` and the
    benchmark's."""
    plan = transfer.apply_import(
        session,
        document,
        guild_id=guild_id,
        actor_id=actor_id,
        progress=progress,
        on_plan=on_plan,
        consume=consume,
    )
    record_changes(session, guild_id, plan.touched)
    session.commit()
    database.imported(len(plan.written))
    return plan


def _id_of(key: str) -> int:
    """``quote:12`` → 12; a malformed key (or a number no row can have) is a not-found, never a crash."""
    _, _, number = key.rpartition(":")
    if not (number.isascii() and number.isdigit() and is_id(int(number))):
        raise NotFound(Msg.BAD_REFERENCE)
    return int(number)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
