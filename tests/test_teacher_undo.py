"""/undo for teachers through the loopback: a teacher (the holder of the guild's teacher role, not a
moderator) undoes changes to what teachers write, quiz questions and glossary terms, and nothing else;
moderators still undo every change."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.curation.changes import Actor, EntityKind, kind_name
from bot.loopback.payloads import Invoker
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from db.dataset.schema import PersonEntry, TermEntry
from db.models import AuditAction
from tests.discord_harness import choices, first_message, is_ephemeral

TEACHERS = 1_246_000_000_000_000_888
TEACHER_ID = 77
QUESTION = (
    '/quiz add prompt:"Which office keeps order in the Commons?" answer:"The Speaker"'
    ' wrong1:"The Clerk" wrong2:"The Whip" source:singh-2020-cbc'
)
ALIAS = "/add alias target:person:jagmeet-singh alias:Jag2"


async def ask(session: OfflineSession, line: str, invoker: Invoker | None = None) -> dict[str, Any]:
    return first_message(await session.invoke(line, invoker=invoker))


async def teacher_of(session: OfflineSession) -> Invoker:
    """Name the guild's teacher role, and return a member who holds it without being a moderator."""
    manager = replace(session.invoker, extra_roles=(TEACHERS,))
    await ask(session, f"/config teacher-role role:{TEACHERS}", manager)
    return replace(session.invoker, user_id=TEACHER_ID, moderator=False, extra_roles=(TEACHERS,))


def visible(session: OfflineSession, kind: EntityKind, key: str) -> object:
    guild_id = session.invoker.guild_id or 0
    return session.bot.library.visible_entry(guild_id=guild_id, kind=kind, key=key)  # type: ignore[attr-defined]


def actor(session: OfflineSession, user_id: int) -> Actor:
    return Actor(session.invoker.guild_id or 0, user_id)


def undid(session: OfflineSession) -> tuple[int | None, int, EntityKind]:
    """The guild's newest change, an undo: the change it undid, who undid it, and the kind of entry."""
    guild_id = session.invoker.guild_id or 0
    latest = session.bot.library.history(guild_id=guild_id)[0]  # type: ignore[attr-defined]
    assert latest.action is AuditAction.UNDO
    return latest.undoes_id, latest.actor_id, latest.kind


async def test_a_teacher_undoes_their_quiz_question(moderator_session: OfflineSession) -> None:
    teacher = await teacher_of(moderator_session)
    await ask(moderator_session, QUESTION, teacher)

    undone = await ask(moderator_session, "/undo", teacher)

    assert is_ephemeral(undone)
    assert undid(moderator_session) == (1, TEACHER_ID, EntityKind.QUESTION)
    assert visible(moderator_session, EntityKind.QUESTION, "question-1") is None


async def test_a_teacher_undoes_a_glossary_term(moderator_session: OfflineSession) -> None:
    teacher = await teacher_of(moderator_session)
    term = TermEntry(
        slug="naming-2", name="Naming again", definition="Named, again.", source="singh-2020-cbc"
    )
    moderator_session.bot.library.apply(  # type: ignore[attr-defined]
        actor=actor(moderator_session, TEACHER_ID),
        kind=EntityKind.TERM,
        key="naming-2",
        change=lambda _current: term,
        summary="added a term",
        action=AuditAction.ADD,
    )

    undone = await ask(moderator_session, "/undo entry:1", teacher)

    assert is_ephemeral(undone)
    assert undid(moderator_session) == (1, TEACHER_ID, EntityKind.TERM)
    assert visible(moderator_session, EntityKind.TERM, "naming-2") is None


async def test_a_teacher_is_refused_on_a_change_to_an_incident_and_it_stays(
    moderator_session: OfflineSession,
) -> None:
    teacher = await teacher_of(moderator_session)
    await ask(moderator_session, '/edit incident incident:singh-2020 title:"A corrected title"')

    refused = await ask(moderator_session, "/undo entry:1", teacher)

    assert is_ephemeral(refused)
    assert refused["content"] == say(
        Msg.UNDO_NOT_A_TEACHERS_KIND, change=1, kind=kind_name(EntityKind.INCIDENT, article=True)
    )
    incident = visible(moderator_session, EntityKind.INCIDENT, "singh-2020")
    assert getattr(incident, "title", None) == "A corrected title"


async def test_a_teachers_autocomplete_lists_only_their_questions_and_terms(
    moderator_session: OfflineSession,
) -> None:
    teacher = await teacher_of(moderator_session)
    # A change the teacher made to a person (as a moderator, before the teacher role was theirs alone).
    moderator_session.bot.library.apply(  # type: ignore[attr-defined]
        actor=actor(moderator_session, TEACHER_ID),
        kind=EntityKind.PERSON,
        key="jane-doe",
        change=lambda _current: PersonEntry(slug="jane-doe", name="Jane Doe"),
        summary="added Jane Doe",
        action=AuditAction.ADD,
    )
    await ask(moderator_session, QUESTION, teacher)

    listed = choices(await moderator_session.complete("/undo entry:", invoker=teacher))
    await ask(moderator_session, "/undo", teacher)
    bare_undid = undid(moderator_session)
    again = await ask(moderator_session, "/undo", teacher)

    assert [choice["value"] for choice in listed] == [2]
    assert bare_undid == (2, TEACHER_ID, EntityKind.QUESTION)
    assert again["content"] == say(Msg.NOTHING_TO_UNDO)
    assert visible(moderator_session, EntityKind.PERSON, "jane-doe") is not None


async def test_a_member_who_neither_moderates_nor_teaches_is_refused(
    moderator_session: OfflineSession,
) -> None:
    await teacher_of(moderator_session)
    await ask(moderator_session, ALIAS)
    someone = replace(moderator_session.invoker, user_id=78, moderator=False, extra_roles=())

    refused = await ask(moderator_session, "/undo entry:1", someone)
    listed = choices(await moderator_session.complete("/undo entry:", invoker=someone))

    assert is_ephemeral(refused)
    assert refused["content"] == say(Msg.UNDO_NOT_STAFF)
    assert listed == []


async def test_a_moderator_still_undoes_any_change_a_teachers_question_too(
    moderator_session: OfflineSession,
) -> None:
    teacher = await teacher_of(moderator_session)
    await ask(moderator_session, QUESTION, teacher)
    await ask(moderator_session, ALIAS)

    moderator = moderator_session.invoker.user_id
    listed = choices(await moderator_session.complete("/undo entry:"))
    await ask(moderator_session, "/undo")
    own = undid(moderator_session)
    await ask(moderator_session, "/undo entry:1")
    teachers = undid(moderator_session)

    assert [choice["value"] for choice in listed] == [2]  # the moderator's own changes, as before
    assert own == (2, moderator, EntityKind.PERSON)
    assert teachers == (1, moderator, EntityKind.QUESTION)
    assert visible(moderator_session, EntityKind.QUESTION, "question-1") is None
