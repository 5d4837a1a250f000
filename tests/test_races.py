"""Two moderators writing one entry at once (docs/CURATION.md, "No lost edit"), on both databases: one
write lands, the other is refused with a polite ``Conflict``; never an IntegrityError, never an edit
silently overwritten by one made from an older view, nothing half-written.

Each race runs ``ROUNDS`` times, its writers released together by a barrier; a second ``Library`` on the
same database (``rival``) stands for another process. Where the guild has no row of its own yet (a first
copy of a shared entry, a new slug), each writer's change also waits until both have read what they
change, so that both write from the same view: the race at its closest, every round.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from sqlalchemy import event

from bot.curation import changes, entries
from bot.curation.changes import Actor, Change, EntityKind, kind_name
from bot.errors import Conflict
from bot.library import Library
from bot.messages.catalogue import Msg, say
from db.dataset.schema import Entry, IncidentEntry, PersonEntry
from db.models import SHARED_GUILD, AuditAction, AuditEntry
from db.session import Database
from tests.discord_harness import all_text, database_url_of, first_message, is_ephemeral
from tests.test_transfer import shipped

ROUNDS = 20
GUILD = 1_000_000_000_000_101  # round n races in guild GUILD + n, which has no row of its own yet
INCIDENT = "trudeau-1971"  # the shipped incident with the fewest parts: the quickest to write
QUOTE = {
    "speaker": "pierre-trudeau",
    "speaker_label": "Pierre Trudeau",
    "text": "Fuddle duddle.",
    "delivery": "verbatim",
    "source": "trudeau-1971-cbc-archives",
}
WAIT = 60.0  # seconds a barrier waits before failing the test rather than hanging it

TITLES = ("Title of the first", "Title of the second")  # what each writer makes of the incident's title
PEOPLE = (PersonEntry(slug="jane-doe", name="Jane Doe"), PersonEntry(slug="jane-doe", name="Jane Roe"))
QUOTED = ("Quoted by the first.", "Quoted by the second.")

Outcome = AuditEntry | Exception
Write = Callable[[Library, int], AuditEntry]
"""One writer's write: its library and its number (0 or 1: also the member who writes)."""


@pytest.fixture
def rival(library: Library) -> Iterator[Library]:
    """Another process's Library on the same database."""
    other = Library.open(database_url_of(library.database), seed=False)
    yield other
    other.close()


def race(write: Write, writers: Sequence[Library]) -> list[Outcome]:
    """Run ``write`` for each writer in threads released together; what each returned, or raised."""
    start = threading.Barrier(len(writers), timeout=WAIT)
    outcomes: list[Outcome | None] = [None] * len(writers)

    def run(number: int) -> None:
        try:
            start.wait()
            outcomes[number] = write(writers[number], number)
        except Exception as error:  # an IntegrityError too: the assertions show it
            outcomes[number] = error

    threads = [threading.Thread(target=run, args=(number,)) for number in range(len(writers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [outcome for outcome in outcomes if outcome is not None]


def winner(outcomes: Sequence[Outcome], refusal: Msg) -> int:
    """Which write landed, once checked that exactly one did and the other was refused with ``refusal``."""
    landed = [number for number, outcome in enumerate(outcomes) if isinstance(outcome, AuditEntry)]
    refused = [(type(outcome), getattr(outcome, "msg", None)) for outcome in outcomes if outcome is not None]
    assert len(landed) == 1, outcomes
    assert [pair for pair in refused if pair[0] is not AuditEntry] == [(Conflict, refusal)], outcomes
    return landed[0]


def after_both_read(both_read: threading.Barrier | None, make: Callable[[Entry | None], Entry]) -> Change:
    """``make``, called once both writers have read the entry (at once, when ``both_read`` is None)."""

    def change(current: Entry | None) -> Entry:
        if both_read is not None:
            both_read.wait()
        return make(current)

    return change


def retitled(title: str, both_read: threading.Barrier | None = None) -> Change:
    def make(current: Entry | None) -> Entry:
        assert isinstance(current, IncidentEntry)
        return current.model_copy(update={"title": title})

    return after_both_read(both_read, make)


def retitle(
    writer: Library, number: int, *, guild_id: int, opened: int | None, both_read: threading.Barrier | None
) -> AuditEntry:
    """Give the incident the writer's title, from the form ``opened`` at that revision (None: a command)."""
    return writer.apply(
        actor=Actor(guild_id, number),
        kind=EntityKind.INCIDENT,
        key=INCIDENT,
        change=retitled(TITLES[number], both_read),
        summary="retitled",
        expected_revision=opened,
    )


def add_person(
    writer: Library, number: int, *, guild_id: int, both_read: threading.Barrier | None
) -> AuditEntry:
    return writer.apply(
        actor=Actor(guild_id, number),
        kind=EntityKind.PERSON,
        key="jane-doe",
        change=after_both_read(both_read, lambda _nothing: PEOPLE[number]),
        summary="added Jane",
        action=AuditAction.ADD,
    )


def add_quote(writer: Library, number: int, *, guild_id: int) -> AuditEntry:
    return writer.apply(
        actor=Actor(guild_id, number),
        kind=EntityKind.INCIDENT,
        key=INCIDENT,
        change=changes.existing(
            IncidentEntry, lambda entry: entries.add_quote(entry, {**QUOTE, "text": QUOTED[number]})
        ),
        summary="quoted",
    )


def visible(library: Library, guild_id: int, kind: EntityKind, key: str) -> Entry | None:
    return library.visible_entry(guild_id=guild_id, kind=kind, key=key)


def changes_to(library: Library, guild_id: int, kind: EntityKind, key: str) -> list[tuple[AuditAction, int]]:
    """The audit log of one entry in the guild, oldest first: (action, who)."""
    logged = library.history(guild_id=guild_id, kind=kind, key=key)
    return [(audit.action, audit.actor_id) for audit in reversed(logged)]


@pytest.mark.parametrize("opened", [None, 0], ids=["command", "form-opened-on-the-shared-entry"])
def test_racing_first_copies_of_a_shared_entry_keep_one_edit_and_refuse_the_other(
    library: Library, rival: Library, opened: int | None
) -> None:
    shared = visible(library, SHARED_GUILD, EntityKind.INCIDENT, INCIDENT)
    assert isinstance(shared, IncidentEntry)
    for guild_id in range(GUILD, GUILD + ROUNDS):
        both_read = threading.Barrier(2, timeout=WAIT)
        write = partial(retitle, guild_id=guild_id, opened=opened, both_read=both_read)

        won = winner(race(write, [library, rival]), Msg.CHANGED_MEANWHILE)

        stored = visible(library, guild_id, EntityKind.INCIDENT, INCIDENT)
        assert stored == shared.model_copy(update={"title": TITLES[won]})
        assert changes_to(library, guild_id, EntityKind.INCIDENT, INCIDENT) == [(AuditAction.EDIT, won)]


def test_racing_adds_of_one_new_slug_keep_one_entry_and_refuse_the_other(
    library: Library, rival: Library
) -> None:
    for guild_id in range(GUILD, GUILD + ROUNDS):
        write = partial(add_person, guild_id=guild_id, both_read=threading.Barrier(2, timeout=WAIT))

        won = winner(race(write, [library, rival]), Msg.ADDED_MEANWHILE)

        assert visible(library, guild_id, EntityKind.PERSON, "jane-doe") == PEOPLE[won]
        assert changes_to(library, guild_id, EntityKind.PERSON, "jane-doe") == [(AuditAction.ADD, won)]


def own_copy(library: Library, guild_id: int) -> None:
    """Give the guild its own copy of the incident (revision 1), made by member 9."""
    library.apply(
        actor=Actor(guild_id, 9),
        kind=EntityKind.INCIDENT,
        key=INCIDENT,
        change=retitled("The guild's own title"),
        summary="copied",
    )


def test_racing_edits_from_one_revision_of_the_guilds_copy_keep_one_and_refuse_the_other(
    library: Library, rival: Library
) -> None:
    for guild_id in range(GUILD, GUILD + ROUNDS):
        own_copy(library, guild_id)
        write = partial(retitle, guild_id=guild_id, opened=1, both_read=None)

        won = winner(race(write, [library, rival]), Msg.CHANGED_MEANWHILE)

        stored = visible(library, guild_id, EntityKind.INCIDENT, INCIDENT)
        assert isinstance(stored, IncidentEntry)
        assert stored.title == TITLES[won]
        logged = changes_to(library, guild_id, EntityKind.INCIDENT, INCIDENT)
        assert logged == [(AuditAction.EDIT, 9), (AuditAction.EDIT, won)]


def test_racing_quotes_added_to_the_guilds_copy_are_each_stored_or_refused(
    library: Library, rival: Library
) -> None:
    """No revision given (a slash command): the later write changes the entry as it is then; one whose
    view went stale before it could lock the row (SQLite reads first) is refused, never stored over the
    other."""
    for guild_id in range(GUILD, GUILD + ROUNDS):
        own_copy(library, guild_id)

        outcomes = race(partial(add_quote, guild_id=guild_id), [library, rival])

        landed = [number for number, outcome in enumerate(outcomes) if isinstance(outcome, AuditEntry)]
        refused = [getattr(outcome, "msg", outcome) for outcome in outcomes if isinstance(outcome, Exception)]
        assert landed, outcomes
        assert refused in ([], [Msg.CHANGED_MEANWHILE]), outcomes
        stored = visible(library, guild_id, EntityKind.INCIDENT, INCIDENT)
        assert isinstance(stored, IncidentEntry)
        assert sorted(quote.text for quote in stored.quotes if quote.text in QUOTED) == [
            QUOTED[n] for n in landed
        ]


# -- writes overtaken between their look and their insert ----------------------------------------------


@contextmanager
def landing_first(database: Database, table: str, write: Callable[[], object]) -> Iterator[None]:
    """Run ``write`` (another moderator's) to its commit just before ``database`` first inserts a row into
    ``table``: the other write overtakes this one between its look at the entry and its own insert."""
    pending = [write]

    def overtake(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if pending and statement.startswith(f"INSERT INTO {table} "):
            pending.pop()()

    event.listen(database.engine, "before_cursor_execute", overtake)
    try:
        yield
    finally:
        event.remove(database.engine, "before_cursor_execute", overtake)
    assert not pending, f"nothing was inserted into {table}"


def test_an_import_racing_an_add_of_one_of_its_new_slugs_lands_whole_or_is_refused_whole(
    library: Library, rival: Library
) -> None:
    """Where the import holds the database before it writes (SQLite), the add waits and is then refused,
    the slug being taken by then; where it cannot (PostgreSQL locks only rows that exist), an add that
    gets there first makes the import refused whole."""
    document = shipped()
    document["people"].append(PEOPLE[0].model_dump(mode="json", exclude_none=True))

    def rival_add() -> AuditEntry:
        return add_person(rival, 1, guild_id=GUILD, both_read=None)

    refusal: Conflict | None = None
    with racing_first_write(library.database, rival_add) as added:
        try:
            library.import_dataset(document, actor=Actor(GUILD, 0))
        except Conflict as refused:
            refusal = refused

    [add] = added
    if refusal is not None:
        assert refusal.msg is Msg.IMPORT_OVERTAKEN
        assert isinstance(add, AuditEntry)
        assert visible(library, GUILD, EntityKind.PERSON, "jane-doe") == PEOPLE[1]
        assert [(audit.action, audit.key) for audit in library.history(guild_id=GUILD)] == [
            (AuditAction.ADD, "jane-doe")
        ]
    else:
        assert getattr(add, "msg", None) in (Msg.ADDED_MEANWHILE, Msg.ALREADY_EXISTS), add
        assert visible(library, GUILD, EntityKind.PERSON, "jane-doe") == PEOPLE[0]
        assert {audit.actor_id for audit in library.history(guild_id=GUILD)} == {0}


@contextmanager
def racing_first_write(database: Database, write: Callable[[], AuditEntry]) -> Iterator[list[Outcome]]:
    """Start ``write`` (another moderator's, in a thread of its own) just before ``database``'s first
    statement that writes, and give it a moment to land: it does unless this writer holds the data it
    read by then. Yields a list that holds what the other write returned, or raised, once the block
    ends."""
    pending = [write]
    outcome: list[Outcome] = []

    def run() -> None:
        try:
            outcome.append(write())
        except Exception as error:  # the test says which refusals it accepts
            outcome.append(error)

    racer = threading.Thread(target=run)

    def overtake(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if pending and statement.startswith(("INSERT", "UPDATE", "DELETE")):
            pending.pop()
            racer.start()
            racer.join(0.2)

    event.listen(database.engine, "before_cursor_execute", overtake)
    try:
        yield outcome
    finally:
        event.remove(database.engine, "before_cursor_execute", overtake)
        if racer.ident is not None:
            racer.join(WAIT)
    assert not pending, "nothing was written"


def test_an_import_racing_an_edit_audits_the_state_it_replaced(library: Library, rival: Library) -> None:
    """However an import and an edit of one of its entries interleave, the entry's history is a chain:
    each change's "before" is the state the change before it left, so undo restores what was there. The
    edit lands before or after the import, or is refused as a conflict; it is never written over unseen."""
    own_copy(library, GUILD)
    document = shipped()
    [imported] = [incident for incident in document["incidents"] if incident["slug"] == INCIDENT]
    imported["title"] = "The imported title"

    def rival_edit() -> AuditEntry:
        return retitle(rival, 1, guild_id=GUILD, opened=None, both_read=None)

    with racing_first_write(library.database, rival_edit) as edited:
        library.import_dataset(document, actor=Actor(GUILD, 0))

    [outcome] = edited
    assert isinstance(outcome, AuditEntry) or getattr(outcome, "msg", None) is Msg.CHANGED_MEANWHILE, outcome
    logged = list(reversed(library.history(guild_id=GUILD, kind=EntityKind.INCIDENT, key=INCIDENT)))
    assert logged[0].actor_id == 9
    assert sorted(audit.actor_id for audit in logged[1:]) == (
        [0, 1] if isinstance(outcome, AuditEntry) else [0]
    )
    for older, newer in itertools.pairwise(logged):
        assert newer.before == older.after, (older.actor_id, newer.actor_id)


# -- an approval overtaken between its check and its write ----------------------------------------------


@contextmanager
def landing_before_read(database: Database, reads: int, write: Callable[[], object]) -> Iterator[list[int]]:
    """Run ``write`` (another moderator's) to its commit just before ``database``'s read number ``reads``
    (from 0), if that read comes before the first statement that writes or locks; yields a list that
    holds ``reads`` once the write has landed, and nothing if it never did."""
    landed: list[int] = []
    seen = [0]
    armed = [True]

    def overtake(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if not armed[0]:
            return
        if not statement.startswith("SELECT") or "FOR UPDATE" in statement:
            armed[0] = False  # past here the other write would wait on this one's lock
            return
        if seen[0] == reads:
            write()
            landed.append(reads)
        seen[0] += 1

    event.listen(database.engine, "before_cursor_execute", overtake)
    try:
        yield landed
    finally:
        event.remove(database.engine, "before_cursor_execute", overtake)


def test_an_approval_overtaken_by_an_edit_at_any_read_before_its_write_is_refused_and_keeps_the_edit(
    library: Library, rival: Library
) -> None:
    """Whichever of the approval's reads the other moderator's edit lands before, the approval is refused
    as a conflict (its suggestion is stale) and the edit stays: the suggestion never overwrites it."""
    for reads in range(ROUNDS):
        guild_id = GUILD + reads
        own_copy(library, guild_id)
        suggestion = library.suggest(
            actor=Actor(guild_id, 5),
            kind=EntityKind.INCIDENT,
            key=INCIDENT,
            change=retitled(TITLES[0]),
            summary="suggested title",
        )

        def rival_edit(guild_id: int = guild_id) -> None:
            retitle(rival, 1, guild_id=guild_id, opened=None, both_read=None)

        with landing_before_read(library.database, reads, rival_edit) as landed:
            try:
                outcome: Outcome = library.approve(actor=Actor(guild_id, 0), suggestion_id=suggestion.id or 0)
            except Conflict as refused:
                outcome = refused
        if not landed:
            assert reads > 0, "the approval reads the suggestion before it writes"
            break
        assert isinstance(outcome, Conflict), outcome
        assert outcome.msg in (Msg.CHANGED_SINCE_SUGGESTION, Msg.CHANGED_MEANWHILE), outcome
        stored = visible(library, guild_id, EntityKind.INCIDENT, INCIDENT)
        assert isinstance(stored, IncidentEntry)
        assert stored.title == TITLES[1]
        assert library.pending_suggestions(guild_id=guild_id) == []
        assert changes_to(library, guild_id, EntityKind.INCIDENT, INCIDENT) == [
            (AuditAction.EDIT, 9),
            (AuditAction.EDIT, 1),
        ]
    else:
        pytest.fail(f"the approval read more than {ROUNDS} times before writing")


# -- end to end ------------------------------------------------------------------------------------------


async def test_an_overtaken_first_copy_is_answered_privately_as_a_conflict(moderator_session, rival) -> None:
    library: Library = moderator_session.bot.library
    guild_id = moderator_session.invoker.guild_id

    def rival_edit() -> None:
        rival.apply(
            actor=Actor(guild_id, 9),
            kind=EntityKind.INCIDENT,
            key=INCIDENT,
            change=retitled("The other moderator's title"),
            summary="retitled",
        )

    with landing_first(library.database, "incident", rival_edit):
        requests = await moderator_session.invoke(f'/edit incident incident:{INCIDENT} title:"My title"')

    answer = first_message(requests)
    assert say(Msg.CHANGED_MEANWHILE, kind=kind_name(EntityKind.INCIDENT), key=INCIDENT) in answer["content"]
    assert is_ephemeral(answer)
    assert say(Msg.APOLOGY) not in all_text(answer)
    stored = visible(library, guild_id, EntityKind.INCIDENT, INCIDENT)
    assert isinstance(stored, IncidentEntry)
    assert stored.title == "The other moderator's title"
