"""Import and export in the dataset format (docs/DATASET.md), for one guild's scope. No Discord here.

``plan_import`` says, entry by entry, what importing a decoded dataset document into a guild would do:
*added* (the guild sees no such entry), *changed*, *unchanged* (the guild already sees exactly it), or
*rejected* with the reasons: the dataset's own validators, a duplicate in the file, and references
checked in the guild's view (its own entries, then the shared ones, then the file's accepted entries).
Quiz questions belong to a guild: the shared scope refuses them (no guild would ever ask them).

``apply_import`` plans again inside the write transaction (the guild may have changed since a dry run),
hands that plan to the caller before writing (``on_plan``: the command line prints it, so a large file is
read and judged once, not once for the table and again for the write), refuses the whole import when any
entry is rejected, and otherwise writes every added or changed entry in bulk: one slug map for the whole
import (a SELECT per kind, rows locked on PostgreSQL), then the loader's ``BulkWriter`` kind by kind in
batches of INSERTs and UPDATEs. In a guild each entry gets the audit record ``changes.apply`` would write
for it (action ``import``, the guild's own state before and after, so ``undo`` reverts it like any
change), inserted in batches too; in the shared scope (the command line only) nothing is audited and the
file's ``dataset_version`` is recorded as ``seed`` does. It never commits: the caller commits once, so an
import lands whole or not at all.

Export is ``db.dataset.export_dataset``; ``export_name`` names the file a guild is handed.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from bot.curation import changes
from bot.curation.changes import Actor, kind_name
from bot.errors import Conflict, InvalidInput
from bot.limits import clip
from bot.messages.catalogue import Msg, say
from db.dataset.files import dump_dataset
from db.dataset.reader import stored_entry
from db.dataset.rows import EntryRow, GuildView, slug_column, slug_of, slug_taken
from db.dataset.schema import (
    SECTIONS,
    Dataset,
    DatasetError,
    Entry,
    References,
    SourceEntry,
    Version,
    entry_problems,
    parse_entry,
)
from db.dataset.seed import record_version
from db.dataset.writer import BATCH, BulkWriter, collector_paused, insert_rows
from db.models import LABEL_MAX, SHARED_GUILD, AuditAction, AuditEntry, EntityKind
from db.session import hold_for_writing

__all__ = [
    "ImportPlan",
    "Outcome",
    "PlannedEntry",
    "Progress",
    "UnreadableFile",
    "apply_import",
    "decode",
    "export_file",
    "export_name",
    "plan_import",
    "plan_table",
]

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each entry an import writes."""


class UnreadableFile(InvalidInput):
    """The file is not a dataset at all (not JSON, another format or version): nothing can be planned."""


class Outcome(StrEnum):
    ADDED = "added"
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class PlannedEntry:
    """What importing one entry of the file would do; ``at`` is its JSON path (``incidents[3]``)."""

    at: str
    kind: EntityKind
    key: str | None  # None when the entry has no readable slug
    outcome: Outcome
    entry: Entry | None = None  # set unless rejected
    reasons: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.at} ({self.kind} {self.key or '?'})"


@dataclass(frozen=True, slots=True)
class ImportPlan:
    guild_id: int
    dataset_version: str
    entries: tuple[PlannedEntry, ...]
    cast_left: frozenset[str]  # the scope's people an incident it rewrites no longer names

    def count(self, outcome: Outcome, kind: EntityKind | None = None) -> int:
        return sum(1 for p in self.entries if p.outcome is outcome and kind in (None, p.kind))

    @property
    def rejected(self) -> list[PlannedEntry]:
        return [p for p in self.entries if p.outcome is Outcome.REJECTED]

    @property
    def writes(self) -> list[tuple[EntityKind, Entry]]:
        """The entries an import writes (added or changed), in writing order."""
        return [
            (p.kind, p.entry)
            for p in self.entries
            if p.entry is not None and p.outcome in (Outcome.ADDED, Outcome.CHANGED)
        ]

    @property
    def written(self) -> set[tuple[EntityKind, str]]:
        """The entries an import writes, as (kind, key): what the change log records and re-indexing reads."""
        return {(kind, slug_of(entry)) for kind, entry in self.writes}

    @property
    def touched(self) -> set[tuple[EntityKind, str]]:
        """The entries whose documents the import changes: those it writes, and the people in
        ``cast_left`` (their documents showed the incidents they left). What the change log records."""
        return self.written | {(EntityKind.PERSON, slug) for slug in self.cast_left}

    @property
    def summary(self) -> str:
        """``2 added, 1 changed, 40 unchanged, 0 rejected``"""
        return ", ".join(f"{self.count(outcome)} {outcome}" for outcome in Outcome)

    def refused(self) -> InvalidInput:
        """The error refusing the whole import: every rejected entry with its reasons."""
        lines = [f"• {planned}: {'; '.join(planned.reasons)}" for planned in self.rejected]
        refused = Msg.REFUSED_ONE if len(lines) == 1 else Msg.REFUSED_MANY
        return InvalidInput(refused, count=len(lines), reasons="\n".join(lines))

    def refusal(self) -> str:
        """Why nothing is imported: every rejected entry with its reasons (the message of ``refused``)."""
        return self.refused().message


class _Header(BaseModel):
    """A dataset document with its entries left unparsed, so each one is judged on its own."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["parlbot-dataset"]
    version: Literal[1]
    dataset_version: Version
    chambers: list[object]
    parties: list[object]
    people: list[object]
    sources: list[object]
    incidents: list[object]
    terms: list[object] = Field(default_factory=list)  # the glossary: a file may have none
    questions: list[object] = Field(default_factory=list)  # a guild's quiz questions: likewise


def decode(data: bytes, name: str) -> object:
    """The JSON document in ``data`` (a file called ``name``), or ``UnreadableFile`` saying why not."""
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UnreadableFile(Msg.NOT_TEXT, name=name) from None
    except json.JSONDecodeError as error:
        raise UnreadableFile(Msg.NOT_JSON, name=name, error=error) from None


def _header(document: object) -> _Header:
    try:
        return _Header.model_validate(document)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in detail['loc']) or say(Msg.WHOLE_FILE)}: {detail['msg']}"
            for detail in error.errors()
        )
        raise UnreadableFile(Msg.NOT_A_DATASET, problems=problems) from None


def _raw_key(data: object) -> str | None:
    if isinstance(data, dict):
        key = data.get("slug", data.get("key"))
        return key if isinstance(key, str) else None
    return None


@dataclass(frozen=True, slots=True)
class _Found:
    """The rows an import's slugs name, found in one pass: the scope's own rows (removed or not), the
    entries stored in them, and the entry each slug shows in the guild now (absent: none, or removed)."""

    own: dict[type[EntryRow], dict[str, EntryRow]]
    stored: dict[tuple[EntityKind, str], Entry]
    visible: dict[tuple[EntityKind, str], Entry]


def _find(session: Session, slugs: dict[EntityKind, set[str]], guild_id: int, *, lock: bool) -> _Found:
    """One slug map for the whole import: a SELECT per kind (and batch of slugs), the shared rows with
    the guild's; ``lock`` locks them FOR UPDATE (on PostgreSQL) until the transaction ends."""
    found = _Found({}, {}, {})
    for kind, keys in slugs.items():
        table = changes.TABLES[kind]
        own = found.own.setdefault(table, {})
        shared: dict[str, EntryRow] = {}
        ordered = sorted(keys)
        for start in range(0, len(ordered), BATCH):
            statement = select(table).where(
                col(table.guild_id).in_({SHARED_GUILD, guild_id}),
                slug_column(table).in_(ordered[start : start + BATCH]),
            )
            rows = session.exec(statement.with_for_update() if lock else statement)
            for row in cast("Iterable[EntryRow]", rows):
                (own if row.guild_id == guild_id else shared)[slug_of(row)] = row
        for key, row in (shared | own).items():
            entry = stored_entry(session, row)
            if key in own:
                found.stored[kind, key] = entry
            if row.removed_at is None:
                found.visible[kind, key] = entry
    return found


def plan_import(session: Session, document: object, *, guild_id: int, consume: bool = False) -> ImportPlan:
    """What importing ``document`` (decoded JSON) into ``guild_id``'s scope would do; writes nothing.
    ``consume``: as ``apply_import``'s."""
    with collector_paused():
        return _plan(session, document, guild_id, lock=False, consume=consume)[0]


def _plan(
    session: Session, document: object, guild_id: int, *, lock: bool, consume: bool
) -> tuple[ImportPlan, _Found]:
    header = _header(document)
    if consume:
        _empty_sections(document)
    view = GuildView(session, guild_id)
    known = {kind: set(view.ids(changes.TABLES[kind])) for _, kind in SECTIONS}
    references = References(
        chambers=known[EntityKind.CHAMBER],
        parties=known[EntityKind.PARTY],
        people=known[EntityKind.PERSON],
        sources=known[EntityKind.SOURCE],
        incidents=known[EntityKind.INCIDENT],
    )
    judged: list[PlannedEntry] = []
    for section, kind in SECTIONS:
        seen: set[str] = set()
        urls: set[str] = set()
        raw: list[object] = getattr(header, section)
        for index, data in enumerate(raw):
            raw[index] = None  # the header's list: once parsed, an entry is held as its model alone
            at = f"{section}[{index}]"
            try:
                entry = parse_entry(changes.MODELS[kind], data, at)
            except DatasetError as error:
                reasons = tuple(str(problem) for problem in error.problems)
                judged.append(PlannedEntry(at, kind, _raw_key(data), Outcome.REJECTED, reasons=reasons))
                continue
            key = slug_of(entry)
            reasons_found = [str(problem) for problem in entry_problems(entry, references, at)]
            if key in seen:
                reasons_found.insert(0, say(Msg.TWICE, at=at, kind=kind_name(kind), key=key))
            if isinstance(entry, SourceEntry) and entry.url is not None:
                if entry.url in urls:
                    reasons_found.append(say(Msg.DUPLICATE_URL, at=at, url=entry.url))
                urls.add(entry.url)
            seen.add(key)
            if kind is EntityKind.QUESTION and guild_id == SHARED_GUILD:
                reasons_found.append(say(Msg.QUESTION_NOT_SHARED, at=at))
            if reasons_found:
                judged.append(PlannedEntry(at, kind, key, Outcome.REJECTED, reasons=tuple(reasons_found)))
                continue
            known[kind].add(key)
            judged.append(PlannedEntry(at, kind, key, Outcome.ADDED, entry))
    slugs: dict[EntityKind, set[str]] = {}
    for planned in judged:
        if planned.key is not None and planned.entry is not None:
            slugs.setdefault(planned.kind, set()).add(planned.key)
    found = _find(session, slugs, guild_id, lock=lock)
    outcomes = tuple(_outcome(planned, found) for planned in judged)
    return ImportPlan(guild_id, header.dataset_version, outcomes, _cast_left(outcomes, found)), found


def _empty_sections(document: object) -> None:
    """Empty the entry lists of ``document`` (a dict, as its header was read from it): the header's own
    copies of those lists then hold each raw entry alone, so judging one lets it go."""
    for section, _ in SECTIONS:
        entries = cast("dict[str, object]", document).get(section)
        if isinstance(entries, list):
            entries.clear()


def _outcome(planned: PlannedEntry, found: _Found) -> PlannedEntry:
    """An accepted entry (planned as added) as the entry the guild sees now makes it."""
    if planned.entry is None or planned.key is None:
        return planned
    current = found.visible.get((planned.kind, planned.key))
    if current is None:
        return planned
    return replace(planned, outcome=Outcome.UNCHANGED if current == planned.entry else Outcome.CHANGED)


def _cast_left(outcomes: Iterable[PlannedEntry], found: _Found) -> frozenset[str]:
    """The people the scope's own incidents name now and the file's versions of them do not."""
    left: set[str] = set()
    for planned in outcomes:
        if planned.kind is EntityKind.INCIDENT and planned.outcome is Outcome.CHANGED:
            before = found.stored.get((planned.kind, planned.key or ""))
            left |= changes.entry_cast(before) - changes.entry_cast(planned.entry)
    return frozenset(left)


def apply_import(
    session: Session,
    document: object,
    *,
    guild_id: int,
    actor_id: int,
    progress: Progress | None = None,
    on_plan: Callable[[ImportPlan], None] | None = None,
    consume: bool = False,
) -> ImportPlan:
    """Import ``document`` into ``guild_id``'s scope, all or nothing; returns the plan it carried out,
    which ``on_plan`` is given first, as soon as it is made (before anything is written or refused).

    ``consume`` lets the plan empty ``document``'s entry lists, dropping each raw entry once it is parsed,
    so a file is not held twice over (as JSON and as entries): for a caller that decoded the file for
    this import alone (the command line, the benchmark), not for ``/import``'s preview and confirm.

    Raises ``InvalidInput`` (listing every rejected entry and why) when any entry is rejected, and
    ``Conflict`` when another writer added one of its new slugs after the plan looked; any error while
    writing leaves the transaction for the caller to roll back. Does not commit.
    """
    with collector_paused():
        try:
            return _apply(session, document, guild_id, actor_id, progress, on_plan, consume)
        except IntegrityError as error:
            if not slug_taken(error):
                raise
            raise Conflict(Msg.IMPORT_OVERTAKEN) from None


def _apply(
    session: Session,
    document: object,
    guild_id: int,
    actor_id: int,
    progress: Progress | None,
    on_plan: Callable[[ImportPlan], None] | None,
    consume: bool,
) -> ImportPlan:
    hold_for_writing(session)  # the states read below are the "before" of the audit records
    plan, found = _plan(session, document, guild_id, lock=True, consume=consume)
    if on_plan is not None:
        on_plan(plan)
    if plan.rejected:
        raise plan.refused()
    audited = guild_id != SHARED_GUILD
    writer = BulkWriter(session, guild_id, found.own, revise=audited)
    writes = plan.writes
    now = dt.datetime.now(dt.UTC)
    done = 0
    for _, kind in SECTIONS:
        of_kind = [entry for written_kind, entry in writes if written_kind is kind]
        for start in range(0, len(of_kind), BATCH):
            batch = of_kind[start : start + BATCH]
            writer.write(batch, rewrite=partial(_differs, found, kind))
            if audited:
                _audit(session, Actor(guild_id, actor_id), kind, batch, found, now)
            for _ in batch:
                done += 1
                if progress is not None:
                    progress(done, len(writes))
    if not audited:
        record_version(session, plan.dataset_version, guild_id=SHARED_GUILD)
    return plan


def _differs(found: _Found, kind: EntityKind, entry: Entry) -> bool:
    """Whether ``entry`` differs from what the scope's own row with its slug holds (if it has one)."""
    return found.stored.get((kind, slug_of(entry))) != entry


def _audit(
    session: Session,
    actor: Actor,
    kind: EntityKind,
    entries: Sequence[Entry],
    found: _Found,
    now: dt.datetime,
) -> None:
    """The audit records of entries just imported, each what ``changes.apply`` records, in one INSERT."""
    own = found.own.get(changes.TABLES[kind], {})
    rows: list[dict[str, Any]] = []
    for entry in entries:
        key = slug_of(entry)
        row, stored = own.get(key), found.stored.get((kind, key))
        before = None
        if row is not None and stored is not None:
            before = dict(changes.entry_state(stored, removed=row.removed_at is not None))
        rows.append(
            {
                "guild_id": actor.guild_id,
                "actor_id": actor.user_id,
                "created_at": now,
                "action": AuditAction.IMPORT,
                "kind": kind,
                "key": key,
                "summary": clip(say(Msg.IMPORTED_SUMMARY, kind=kind_name(kind), key=key), LABEL_MAX),
                "before": before,
                "after": dict(changes.entry_state(entry, removed=False)),
            }
        )
    insert_rows(session, AuditEntry, rows, copy=True)


def plan_table(plan: ImportPlan) -> str:
    """The plan as a fixed-width table: a row per kind, then the totals."""
    outcomes = list(Outcome)
    rows = [("", *(str(outcome) for outcome in outcomes))]
    for _, kind in SECTIONS:
        rows.append((str(kind), *(str(plan.count(outcome, kind)) for outcome in outcomes)))
    rows.append(("total", *(str(plan.count(outcome)) for outcome in outcomes)))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(width) if column == 0 else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    )


def export_name(guild_id: int, day: dt.date) -> str:
    """``parlbot-<guild>-<YYYY-MM-DD>.json``: the name of a guild's export file."""
    return f"parlbot-{guild_id}-{day.isoformat()}.json"


def export_file(dataset: Dataset) -> bytes:
    """The bytes of a guild's export file (the canonical dataset text)."""
    return dump_dataset(dataset).encode()
