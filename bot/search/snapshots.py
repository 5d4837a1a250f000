"""The shared search index saved to a file, so that a restart loads it instead of building it.

Building the index is most of a cold start (at 100k incidents, two minutes); loading a saved copy takes
a tenth of that. A snapshot is only ever a shortcut to the index the database would give: it is used
only when it is proved to be that index, less the changes the change log (``bot.change_feed``) still
holds, which ``Library.open`` then re-indexes as it does another process's writes. A snapshot is
refused (and the index built) when:

- the code that turns rows into documents and documents into an index is not the code that wrote it
  (``code_fingerprint``), or the database is at another migration;
- the change it was taken at is not in the database's change log, the same row (number, time, entry):
  another database, or a log pruned past it, so changes since may be lost;
- more changes came after it than are worth re-indexing rather than building (``catch_up_limit``);
- the file is not this user's alone (it is a pickle: loading it runs what it says), or cannot be read.

The file is a JSON header line (``Stamp``) and the pickled ``SearchIndex``, its arrays laid out to be
mapped rather than read when it is loaded (``bot.search.mapped``); it is written to a temporary file beside
it and moved into place, so a process killed while saving leaves the previous snapshot (and a process that
mapped the previous one keeps reading it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import hashlib
import json
import logging
import os
import pickle
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sqlalchemy import func
from sqlmodel import Session, col, select

from bot.search import mapped
from bot.search.index import SearchIndex
from db.models import EntryChange

FORMAT = 2  # bumped when the file's layout changes
# Changes past the snapshot that ``Library.open`` re-indexes rather than build the index: a share of the
# documents, and at least a few hundred. Measured at 10k incidents (60,606 documents; a build 12-15 s),
# Library.open after so many changed incidents: 50 1.3 s, 200 5.5 s (past 200 entries, the incidents'
# people with them, a catch-up reads the guild's documents whole), 1,000 9.9 s, 3,000 13.1 s.
CATCH_UP_SHARE = 0.05
CATCH_UP_FLOOR = 200
STALE_SECONDS = 3600.0  # a temporary file this old is left from a save that was killed: removed

# The code whose output a snapshot holds: documents (their texts, labels in both languages, facets), the
# index built from them, and the rows they are read from.
_ROOT = Path(__file__).resolve().parents[2]
_SHAPING = ("bot/search", "bot/messages", "bot/limits.py", "db/models.py")

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Stamp:
    """What a snapshot was taken of: the code, the database's migration, and the last change the index
    reflects, as the change log holds it (its number, time and entry)."""

    code: str
    revision: str | None
    change: int
    at: str
    guild_id: int
    kind: str
    key: str
    documents: int  # how many the index held
    format: int = FORMAT

    @classmethod
    def taken(cls, session: Session, revision: str | None, change: int, documents: int) -> Stamp | None:
        """The stamp of an index of ``documents`` that reflects every change up to ``change``; None when
        the log does not hold that change (no change yet: nothing to prove a snapshot current against)."""
        row = session.get(EntryChange, change) if change else None
        if row is None:
            return None
        at = row.at.isoformat()
        return cls(code_fingerprint(), revision, change, at, row.guild_id, str(row.kind), row.key, documents)

    @property
    def catch_up_limit(self) -> int:
        """The most changes past this stamp worth re-indexing rather than building the index."""
        return max(CATCH_UP_FLOOR, int(self.documents * CATCH_UP_SHARE))


def _digest_of_code() -> str:
    """A digest of the code a snapshot's content depends on (``_SHAPING``), and of the versions of Python
    and numpy that pickle it."""
    digest = hashlib.sha256(f"{FORMAT} {sys.version_info[:2]} {np.__version__}".encode())
    for name in _SHAPING:
        top = _ROOT / name
        for path in sorted(top.rglob("*")) if top.is_dir() else [top]:
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(_ROOT).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


# Taken as this module is imported, beside the modules it describes: a process whose files are replaced
# while it runs (a new release installed before the old one stops) stamps what it saves with the code it
# runs, not with the files it would load next.
_CODE = _digest_of_code()


def code_fingerprint() -> str:
    """The digest of the code this process runs (``_digest_of_code``, taken at import)."""
    return _CODE


def save(path: Path, index: SearchIndex, stamp: Stamp) -> bool:
    """Write the snapshot (readable and writable by this user only); whether it was written. A failure
    is logged, never raised: the index in memory is what matters."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(path)
        with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
            file.write(json.dumps(dataclasses.asdict(stamp)).encode() + b"\n")
            index.dump(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        log.warning("Could not save the search index to %s: %s", path, error)
        with contextlib.suppress(OSError):  # a temporary file that was never made, or cannot be removed
            temporary.unlink(missing_ok=True)
        return False
    log.info("Saved the search index (%d documents) to %s", len(index), path)
    return True


def _remove_stale(path: Path) -> None:
    """Remove the temporary files of saves of ``path`` that were killed midway (a stop that outlasted a
    process manager's timeout); those of saves still running, as another process's may be, are younger."""
    cutoff = time.time() - STALE_SECONDS
    for temporary in path.parent.glob(f"{glob.escape(path.name)}.*.tmp"):
        with contextlib.suppress(OSError):  # gone already, or not ours to remove
            if temporary.stat().st_mtime < cutoff:
                temporary.unlink()


def restore(path: Path, session: Session, revision: str | None) -> tuple[SearchIndex, int] | None:
    """The saved index and the last change it reflects, when the snapshot at ``path`` is current for this
    code and this database (module docstring); else None, with the reason logged."""
    try:
        with path.open("rb") as file:
            stamp = _stamp(file.readline())
            refusal = _refusal(os.fstat(file.fileno())) or _outdated(stamp, session, revision)
            if stamp is None or refusal:
                log.info("Building the search index: the snapshot %s %s", path, refusal)
                return None
            index = mapped.load(file)  # this user's own file (``_refusal``), as ``save`` wrote it
    except FileNotFoundError:
        log.info("Building the search index: no snapshot at %s yet", path)
        return None
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError) as error:
        log.warning("Building the search index: the snapshot %s could not be read (%s)", path, error)
        return None
    if not isinstance(index, SearchIndex):
        log.warning("Building the search index: %s holds no search index", path)
        return None
    log.info("Loaded the search index (%d documents) from %s, at change %d", len(index), path, stamp.change)
    return index, stamp.change


def _refusal(status: os.stat_result) -> str | None:
    """Why a file is not to be unpickled: another user's, or writable by others (POSIX)."""
    if hasattr(os, "getuid") and status.st_uid != os.getuid():
        return "belongs to another user"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "may be written by other users"
    return None


def _stamp(line: bytes) -> Stamp | None:
    try:
        return Stamp(**json.loads(line))
    except (ValueError, TypeError):  # not JSON, or not a stamp's fields
        return None


def _outdated(stamp: Stamp | None, session: Session, revision: str | None) -> str | None:
    """Why a snapshot of this stamp is not the database's index less the changes the log holds."""
    if stamp is None or stamp.format != FORMAT:
        return "was written by another version of parlbot"
    if stamp.code != code_fingerprint():
        return "was written by other code"
    if stamp.revision != revision:
        return f"is of a database at migration {stamp.revision}, not {revision}"
    if Stamp.taken(session, revision, stamp.change, stamp.documents) != stamp:
        return f"was taken at change {stamp.change}, which this database's change log does not hold"
    pending = session.exec(select(func.count()).where(col(EntryChange.id) > stamp.change)).one()
    if pending > stamp.catch_up_limit:
        return f"is {pending} changes behind (building is quicker past {stamp.catch_up_limit})"
    return None
