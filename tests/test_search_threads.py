"""The search index read from several threads while another keeps writing to it.

Autocomplete reads the index on the event loop while ``Library`` writes to it from worker threads
(``asyncio.to_thread``), so every read must see each document either fully indexed or not at all,
and never fail because a write is half done. The interpreter's switch interval is cut to a
microsecond here so that threads interleave inside the index's methods, not only between them.
"""

from __future__ import annotations

import pickle
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from bot.search.index import (
    Ambiguous,
    Clear,
    Document,
    DocumentKind,
    Exact,
    NoMatch,
    SearchIndex,
    TextField,
    without_texts,
)

GUILD = 7
READERS = 3
WRITES = 150  # upsert/replace/remove rounds of every flickering document

WORDS = (
    *("speaker", "mace", "privilege", "contempt", "named", "suspended", "withdraw", "unparliamentary"),
    *("remark", "order", "sitting", "chamber", "motion", "division", "closure", "filibuster"),
    *("heckle", "apology", "ruling", "member"),
)
# Made-up names no dictionary word is a typo of, so a search for one finds its own document only.
NAMES = ("quillfeather", "brambleworth", "thistledown", "marchbanks", "oakenshaw", "wetherby")


def stable(n: int) -> Document:
    words = " ".join(WORDS[(n + k) % len(WORDS)] for k in range(6))
    return Document(
        kind=DocumentKind.INCIDENT if n % 2 else DocumentKind.PERSON,
        key=f"stable-{n}",
        label=f"Stable {n}",
        exact=(f"stable-{n}",),
        fields=(TextField(f"Stable {n} {words}"), TextField(f"{words} {n}", 0.5)),
    )


def flicker(name: str, version: int) -> Document:
    """A document the writer keeps adding, rewriting and removing; its label tells its version."""
    return Document(
        kind=DocumentKind.QUOTE,
        key=f"flicker-{name}",
        label=f"{name} v{version}",
        exact=(name,),
        fields=(
            TextField(f"{name} v{version} {WORDS[version % len(WORDS)]}"),
            TextField(f"edition{version}", 0.5),
        ),
    )


STABLE = [stable(n) for n in range(120)]
HELD_STABLE = [without_texts(doc) for doc in STABLE]  # as the index holds and finds them


@pytest.fixture
def busy_interpreter() -> Iterator[None]:
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def write(index: SearchIndex, done: threading.Event) -> None:
    try:
        for version in range(WRITES):
            for name in NAMES:
                index.upsert(flicker(name, version))
            # A guild's tombstone hides a shared document there; a guild's own copy replaces it.
            index.upsert(replace(STABLE[version % len(STABLE)], guild_id=GUILD, removed=True))
            index.upsert(replace(STABLE[(version + 1) % len(STABLE)], guild_id=GUILD, label="Our copy"))
            for name in NAMES[::2]:
                index.upsert(flicker(name, version + 1))  # a rewrite in place
            for name in NAMES:
                index.remove(DocumentKind.QUOTE, f"flicker-{name}")
            index.remove(DocumentKind.INCIDENT, STABLE[version % len(STABLE)].key, GUILD)
            index.remove(DocumentKind.PERSON, STABLE[version % len(STABLE)].key, GUILD)
            index.remove(DocumentKind.INCIDENT, STABLE[(version + 1) % len(STABLE)].key, GUILD)
            index.remove(DocumentKind.PERSON, STABLE[(version + 1) % len(STABLE)].key, GUILD)
    finally:
        done.set()


def whole(doc: Document) -> bool:
    """A found document is one the writer wrote, all of it (as the index holds it): not a mix of two
    versions."""
    if doc.key.startswith("flicker-"):
        name, version = doc.label.split(" v")
        return doc == without_texts(flicker(name, int(version)))
    if doc.guild_id == GUILD:
        shared = replace(doc, guild_id=0, label=f"Stable {doc.key[7:]}")
        return doc.label == "Our copy" and shared in HELD_STABLE
    return doc in HELD_STABLE


def read_checks(index: SearchIndex, round_: int) -> None:
    name = NAMES[round_ % len(NAMES)]
    target = STABLE[round_ % len(STABLE)]
    guild = GUILD if round_ % 2 else None

    # A flickering document is found by its name with all its text, or not at all.
    hits = index.search(name, guild_id=guild)
    assert all(whole(hit.document) for hit in hits)
    mine = [hit for hit in hits if hit.document.key == f"flicker-{name}"]
    assert len(mine) <= 1
    if mine:
        assert mine[0] is hits[0]  # its exact name was indexed with it ...
        assert mine[0].score == 100.0  # ... and wins outright

    # A document nobody removes is always there (in the guild: the shared one, its copy, or hidden).
    resolved = index.resolve(target.key, guild_id=guild)
    if guild is None:
        assert isinstance(resolved, Exact)
        assert resolved.hit.document == without_texts(target)
    else:
        assert isinstance(resolved, Exact | Clear | Ambiguous | NoMatch)
        found = [resolved.hit] if isinstance(resolved, Exact | Clear) else []
        assert all(whole(hit.document) for hit in found)

    # Autocomplete: while typing a name, and the default list on an empty query.
    for typed in (name[:2], name[:5], name, ""):
        choices = index.complete(typed, guild_id=guild)
        assert len(choices) <= 25
        idents = [hit.document.ident for hit in choices]
        assert len(idents) == len(set(idents))
        assert all(whole(hit.document) for hit in choices)

    assert all(whole(doc) for doc in index.guild_documents(GUILD) if not doc.removed)
    assert len(index.documents()) >= len(STABLE)


def read(index: SearchIndex, done: threading.Event, rounds: list[int], failures: list[BaseException]) -> None:
    round_ = 0
    try:
        while not done.is_set():
            read_checks(index, round_)
            round_ += 1
    except BaseException as error:  # reported by the test, with its traceback
        failures.append(error)
    finally:
        rounds.append(round_)


def run_threads(targets: list[Callable[[], None]]) -> None:
    threads = [threading.Thread(target=target, daemon=True) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
        assert not thread.is_alive(), "a thread hangs"


@pytest.mark.usefixtures("busy_interpreter")
def test_readers_see_whole_documents_while_another_thread_writes() -> None:
    index = SearchIndex(STABLE)
    done = threading.Event()
    rounds: list[int] = []
    failures: list[BaseException] = []
    readers = [lambda: read(index, done, rounds, failures) for _ in range(READERS)]
    run_threads([lambda: write(index, done), *readers])
    if failures:
        raise failures[0]
    assert len(rounds) == READERS
    assert all(count > 0 for count in rounds)
    # The writer left the index as it found it.
    assert sorted(doc.key for doc in index.documents()) == sorted(doc.key for doc in STABLE)
    assert index.guild_documents(GUILD) == []
    for name in NAMES:
        assert index.get(DocumentKind.QUOTE, f"flicker-{name}") is None


def test_the_checks_pass_on_a_quiet_index() -> None:
    """The readers' checks themselves hold when nothing writes (so a failure above is a race)."""
    index = SearchIndex(STABLE)
    for round_ in range(12):
        read_checks(index, round_)
    for name in NAMES:
        index.upsert(flicker(name, 3))
    index.upsert(replace(STABLE[1], guild_id=GUILD, label="Our copy"))
    for round_ in range(12):
        read_checks(index, round_)


def test_a_copy_answers_like_its_original_and_writes_under_a_lock_of_its_own() -> None:
    original = SearchIndex(STABLE)
    copy = pickle.loads(pickle.dumps(original))
    copy.upsert(flicker(NAMES[0], 1))

    assert [hit.document for hit in copy.search("stable 7", limit=3)] == [
        hit.document for hit in original.search("stable 7", limit=3)
    ]
    assert original.search(NAMES[0]) == []
    assert copy.search(NAMES[0])[0].document.label == f"{NAMES[0]} v1"
    assert copy._lock is not original._lock
