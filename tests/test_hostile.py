"""Hostile text (``tests/hostile_inputs.py``) through every text option and autocomplete of the bot.

Every one of the corpus's inputs goes into some command's text option, the commands and options
taken in turn so each gets its share, asked by a moderator (so the write paths run too), on SQLite
and PostgreSQL; every input is typed into some autocompleted option, and into a form's text (a quote,
then stored exactly as the cleaning rules make it, or refused). Whatever the bot answers is within
Discord's limits (the loopback refuses any body that is not), pings nobody, shows no control or bidi
character, and nothing is logged as an error: a refusal is a polite private answer.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import limits
from bot.curation.changes import Actor, EntityKind
from bot.loopback.payloads import Json, leaf_options
from bot.loopback.session import OfflineSession, choices, is_ephemeral, message_bodies, modals
from db.cleaning import ControlCharacter, clean_text
from db.dataset.schema import IncidentEntry
from tests.discord_harness import assert_defused
from tests.hostile_inputs import HOSTILE

SNAPSHOT = Path(__file__).parent / "snapshots" / "commands.json"
# Values for the required options beside the one under test, so the command gets as far as it can.
GIVEN = {
    "query": "singh",
    "incident": "singh-2020",
    "person": "jagmeet-singh",
    "party": "ndp",
    "target": "singh-2020",
    "term": "named",
    "name": "unit-1",
    "source": "cbc",
}
TEXT, NUMBER, ATTACHMENT, SUBCOMMAND, GROUP = 3, 4, 11, 1, 2
INCIDENT = EntityKind.INCIDENT


@dataclass(frozen=True, slots=True)
class Slot:
    """One text option of one command, with the line that fills the command's other required options."""

    command: str  # "add quote"
    option: str
    autocomplete: bool
    line: str  # the command with the option last, holding a value it accepts

    def __str__(self) -> str:
        return f"/{self.command} {self.option}"


def _leaves(command: Json, path: list[str]) -> Iterator[tuple[str, list[Json]]]:
    subs = [option for option in command.get("options", []) if option["type"] in (SUBCOMMAND, GROUP)]
    if not subs:
        yield " ".join(path), list(command.get("options", []))
    for sub in subs:
        yield from _leaves(sub, [*path, sub["name"]])


def _given(option: Json) -> str:
    if option.get("choices"):
        return str(option["choices"][0]["value"])
    return "1" if option["type"] == NUMBER else GIVEN.get(option["name"], "singh")


def _slots() -> list[Slot]:
    slots = []
    for command in json.loads(SNAPSHOT.read_text(encoding="utf-8")):
        for path, options in _leaves(command, [command["name"]]):
            if any(option["type"] == ATTACHMENT and option.get("required") for option in options):
                continue  # /import: a file, not text
            for target in (option for option in options if option["type"] == TEXT):
                others = [o for o in options if o.get("required") and o["name"] != target["name"]]
                words = [f"{o['name']}:{_given(o)}" for o in others]
                line = " ".join([f"/{path}", *words, f"{target['name']}:{_given(target)}"])
                slots.append(Slot(path, target["name"], bool(target.get("autocomplete")), line))
    return slots


SLOTS = _slots()
COMPLETED = [slot for slot in SLOTS if slot.autocomplete]


def _share(slots: list[Slot]) -> dict[Slot, list[str]]:
    """Every input to some slot, the slots in turn (each gets at least one)."""
    shares: dict[Slot, list[str]] = {slot: [] for slot in slots}
    for n, text in enumerate(HOSTILE):
        shares[slots[n % len(slots)]].append(text)
    return shares


COMMAND_SHARES = _share(SLOTS)
COMPLETE_SHARES = _share(COMPLETED)
# Each test runs the slots of one top-level command in one session (a session costs more than a reply).
ROOTS = sorted({slot.command.split()[0] for slot in SLOTS})
COMPLETED_ROOTS = sorted({slot.command.split()[0] for slot in COMPLETED})


def _inputs(root: str, shares: dict[Slot, list[str]]) -> list[tuple[Slot, str]]:
    """Every (slot, input) of the command ``root``'s options."""
    mine = [slot for slot in shares if slot.command.split()[0] == root]
    return [(slot, text) for slot in mine for text in shares[slot]]


def _with_value(payload: Json, option: str, value: str) -> Json:
    for leaf in leaf_options(payload["data"]["options"]):
        if leaf["name"] == option:
            leaf["value"] = value
            return payload
    raise AssertionError(f"no option {option} in {payload['data']}")


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def test_the_corpus_holds_three_hundred_distinct_inputs_and_reaches_every_text_option() -> None:
    assert len(HOSTILE) >= 300
    assert len(set(HOSTILE)) == len(HOSTILE)
    assert all(COMMAND_SHARES.values())
    assert all(COMPLETE_SHARES.values())
    assert len(SLOTS) > 150  # every text option of every command but /import


@pytest.mark.parametrize("root", ROOTS)
async def test_hostile_text_in_an_option_is_answered_within_limits_and_defused(
    root: str, moderator_session: OfflineSession, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    for slot, text in _inputs(root, COMMAND_SHARES):
        payload = _with_value(moderator_session.command_payload(slot.line), slot.option, text)
        requests = await moderator_session.dispatch(payload)

        refused = [(r.route, r.status, r.body) for r in requests if r.status >= 400]
        assert not refused, f"{slot} with {text!r}: Discord refused {refused}"
        bodies: list[dict[str, Any]] = [*message_bodies(requests), *modals(requests)]
        assert bodies, f"{slot} with {text!r}: no answer"
        for body in bodies:
            assert_defused(body)
    assert not _errors(caplog)


@pytest.mark.parametrize("root", COMPLETED_ROOTS)
async def test_hostile_text_typed_into_autocomplete_offers_defused_choices(
    root: str, discord_session: OfflineSession, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    for slot, text in _inputs(root, COMPLETE_SHARES):
        payload = _with_value(discord_session.autocomplete_payload(slot.line), slot.option, text)
        requests = await discord_session.dispatch(payload)

        statuses = [r.status for r in requests if r.route == "callback"]
        assert len(statuses) == 1, f"{slot} with {text!r}: answered {statuses}"
        assert statuses[0] < 400, f"{slot} with {text!r}: Discord refused the choices"
        offered = choices(requests)
        assert len(offered) <= limits.CHOICES
        assert all(len(choice["name"]) <= limits.CHOICE_NAME for choice in offered)
        assert_defused({"choices": offered})
    assert not _errors(caplog)


async def test_a_refusal_of_hostile_text_is_private(moderator_session: OfflineSession) -> None:
    line = "/add person slug:x name:x"
    payload = _with_value(moderator_session.command_payload(line), "name", "a\x00b")

    [body] = message_bodies(await moderator_session.dispatch(payload))

    assert is_ephemeral(body)


QUOTE_FORM = "/add quote incident:singh-2020 speaker:jagmeet-singh source:singh-2020-cbc"


def _quotes(session: OfflineSession) -> list[str]:
    singh = session.bot.library.visible_entry(
        guild_id=session.invoker.guild_id, kind=INCIDENT, key="singh-2020"
    )
    assert isinstance(singh, IncidentEntry)
    return [quote.text for quote in singh.quotes]


def _stored_as(text: str) -> str | None:
    """What a quote typed as ``text`` is stored as, by the cleaning rules; None when it is refused."""
    try:
        return clean_text(text) or None
    except ControlCharacter:
        return None


async def test_hostile_text_in_a_form_is_stored_cleaned_exactly_or_refused_privately(
    moderator_session: OfflineSession, caplog: pytest.LogCaptureFixture
) -> None:
    """Every input of the corpus Discord's client would send, typed as a quote in ``/add quote``'s form:
    stored exactly as the cleaning rules make it (then undone, for the next), or refused in a private
    answer. (A payload holding what the client would not send is refused by ``bot.client.gate``.)"""
    caplog.set_level(logging.ERROR)
    library = moderator_session.bot.library
    moderator = Actor(moderator_session.invoker.guild_id, moderator_session.invoker.user_id)
    stored = typed = 0
    for text in HOSTILE:
        [modal] = modals(await moderator_session.invoke(QUOTE_FORM))
        [field] = [row["component"] for row in modal["components"] if row["component"]["custom_id"] == "text"]
        if not 0 < len(text) <= field["max_length"]:
            continue  # Discord's client sends no such text
        typed += 1
        before = _quotes(moderator_session)
        requests = await moderator_session.submit(modal["custom_id"], {"text": text})

        assert not [r for r in requests if r.status >= 400], f"{text!r}: Discord refused the answer"
        [answer] = message_bodies(requests)
        assert_defused(answer)
        expected, after = _stored_as(text), _quotes(moderator_session)
        if expected is None:
            assert after == before, f"{text!r} was stored"
            assert is_ephemeral(answer), f"{text!r}: refused in public"
        else:
            assert after == [*before, expected], f"{text!r} was not stored as cleaned"
            library.undo(actor=moderator)
            stored += 1
    assert typed > 300
    assert stored > typed // 3  # most of the corpus is text a quote may hold
    assert not _errors(caplog)
