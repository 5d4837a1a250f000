"""The shipped dataset, loaded into the shared scope."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import cache

from sqlmodel import Session

from db.dataset.files import read_dataset
from db.dataset.rows import slug_of
from db.dataset.schema import SECTIONS, SHIPPED_DATASET, Dataset
from db.dataset.writer import LoadReport, load_dataset
from db.models import SHARED_GUILD, DatasetVersion, EntityKind

Loaded = Callable[[Session, set[tuple[EntityKind, str]]], object]
"""Told, in the seed's own transaction, which shared entries it loaded (``bot.change_feed`` records
them, so that every running process re-indexes them)."""


def seed(session: Session, loaded: Loaded | None = None) -> LoadReport:
    """Load ``SHIPPED_DATASET`` into the shared scope and record its version; does not commit."""
    dataset = read_dataset(SHIPPED_DATASET)
    report = load_dataset(session, dataset, guild_id=SHARED_GUILD)
    record_version(session, dataset.dataset_version, guild_id=SHARED_GUILD)
    if loaded is not None:
        loaded(session, entry_keys(dataset))
    return report


def entry_keys(dataset: Dataset) -> set[tuple[EntityKind, str]]:
    """Every top-level entry of ``dataset`` as (kind, slug)."""
    return {(kind, slug_of(entry)) for section, kind in SECTIONS for entry in getattr(dataset, section)}


@cache
def shipped_version() -> str:
    """The ``dataset_version`` of the shipped file (read once a process)."""
    return read_dataset(SHIPPED_DATASET).dataset_version


def older_than_shipped(version: str) -> bool:
    """Whether ``version`` (``YEAR.MONTH.N``) is an earlier release than the shipped file's; a version
    that is not a release number (an operator's own import) is never older."""
    try:
        recorded = tuple(int(part) for part in version.split("."))
    except ValueError:
        return False
    return recorded < tuple(int(part) for part in shipped_version().split("."))


def record_version(session: Session, version: str, *, guild_id: int) -> None:
    """Record ``version`` as the scope's ``DatasetVersion`` (what its exports carry); does not commit."""
    now = dt.datetime.now(dt.UTC)
    recorded = session.get(DatasetVersion, guild_id)
    if recorded is None:
        session.add(DatasetVersion(guild_id=guild_id, version=version, loaded_at=now))
    else:
        recorded.version = version
        recorded.loaded_at = now
