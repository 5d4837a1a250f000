"""The labelled query file: one JSON object a line, and the queries the corpus generator writes.

A line is ``{"command": "incident" | "complete" | "search", "query": "...", "expect": KEY or null}``
with two optional fields: ``topic``, what a ``complete`` completes (a topic of ``Library.complete``:
``incident``, the default, ``person``, ``search``...), and ``style``, how the query was typed
(``prefix``, ``typo``, ``reordered``, ``dropped``, ``accents``, ``question``, ``name``, ``quote``,
``nonsense``), which the report breaks recall down by. ``expect`` is the slug or key of the entry that
should be found (an incident's slug also counts for its quotes, rulings and motions); ``null`` means
nothing should be: nonsense, or a prefix too short to tell (it is timed but not scored).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.benchmark import names
from bot.benchmark.facts import Facts
from bot.benchmark.noise import unaccented, with_typos
from bot.library import COMPLETE_ONLY, TOPICS
from bot.search.vocabulary import STOP_WORDS

COMMANDS = ("incident", "complete", "search")
COMPLETE_TOPICS = (*TOPICS, *COMPLETE_ONLY, "search")  # what ``Library.complete`` completes
NAME_LEAD = 3  # a name prefix is expected to find its entry once this many letters of the surname are typed


class QueryFileError(Exception):
    """A query file that cannot be read; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Query:
    command: str
    query: str
    expect: str | None
    topic: str = "incident"
    style: str = ""

    def to_json(self) -> str:
        line: dict[str, str | None] = {"command": self.command, "query": self.query, "expect": self.expect}
        if self.command == "complete":
            line["topic"] = self.topic
        if self.style:
            line["style"] = self.style
        return json.dumps(line, ensure_ascii=False)


def write_queries(path: Path, queries: Iterable[Query]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for query in queries:
            out.write(query.to_json() + "\n")


def _field(data: dict[str, object], name: str, where: str, *, optional: bool = False) -> str | None:
    value = data.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str) or (not value and name != "query"):
        raise QueryFileError(f"{where}: {name!r} must be a string")
    return value


def _parse(line: str, where: str) -> Query:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise QueryFileError(f"{where}: not JSON ({error.msg})") from None
    if not isinstance(data, dict):
        raise QueryFileError(f"{where}: expected a JSON object")
    command = _field(data, "command", where)
    if command not in COMMANDS:
        raise QueryFileError(f"{where}: command must be one of {', '.join(COMMANDS)}, not {command!r}")
    query = _field(data, "query", where)
    assert query is not None
    topic = _field(data, "topic", where, optional=True) or "incident"
    if topic not in COMPLETE_TOPICS:
        raise QueryFileError(f"{where}: topic must be one of {', '.join(COMPLETE_TOPICS)}, not {topic!r}")
    expect = _field(data, "expect", where, optional=True)
    return Query(command, query, expect, topic, _field(data, "style", where, optional=True) or "")


def read_queries(path: Path) -> list[Query]:
    """Every query of the file (blank lines skipped), or ``QueryFileError`` at the first bad line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise QueryFileError(f"cannot read {path}: {reason}") from None
    queries = [_parse(line, f"{path}:{number}") for number, line in enumerate(lines, 1) if line.strip()]
    if not queries:
        raise QueryFileError(f"{path}: no queries")
    return queries


# --- the queries the corpus generator writes ---------------------------------------------------


def keystrokes(text: str, expect: str, *, known_from: int, command: str, topic: str) -> Iterator[Query]:
    """``text`` typed a letter at a time; ``expect`` once ``known_from`` characters are typed."""
    for end in range(1, len(text) + 1):
        if text[end - 1] != " ":
            shown = expect if end >= known_from else None
            yield Query(command, text[:end], shown, topic, "prefix")


def _dropped(title: str, rng: random.Random) -> str:
    """The title's meaningful words, some dropped and the rest shuffled a little."""
    words = [word for word in title.split() if word.lower().strip(".,'") not in STOP_WORDS]
    kept = [word for word in words if rng.random() < 0.6] or words[:2]
    if len(kept) > 2 and rng.random() < 0.5:
        kept[0], kept[1] = kept[1], kept[0]
    return " ".join(kept)


def incident_queries(fact: Facts, rng: random.Random, *, keystrokes_too: bool) -> list[Query]:
    """The queries about one incident: typos, word order, dropped words, accents, questions, names."""
    who, slug = fact.who, fact.slug
    hint = fact.word if rng.random() < 0.5 else fact.topic
    queries = [
        Query("incident", with_typos(f"{who.given} {who.surname} {hint}", rng, rng.choice((1, 2))), slug,
              style="typo"),
        Query("incident", f"{hint} {who.surname}", slug, style="reordered"),
        Query("incident", _dropped(fact.title, rng), slug, style="dropped"),
        Query("incident", unaccented(f"{who.name} {fact.topic}").lower(), slug, style="accents"),
        Query("incident", fact.question, slug, style="question"),
        Query("search", who.name, who.slug, style="name"),
        Query("search", unaccented(fact.target.name), fact.target.slug, style="accents"),
        Query("search", " ".join(fact.said.split()[:5]) + f" {who.surname}", slug, style="quote"),
        Query("complete", with_typos(f"{who.surname} {fact.year}", rng, 1), slug, style="typo"),
        Query("complete", f"{who.given} {who.surname}", who.slug, "person", style="name"),
    ]  # fmt: skip
    if keystrokes_too:
        known = len(who.given) + 1 + NAME_LEAD
        queries += keystrokes(who.name, who.slug, known_from=known, command="complete", topic="person")
        text = f"{who.surname} {hint}"
        queries += keystrokes(
            text, slug, known_from=len(who.surname) + 3, command="complete", topic="incident"
        )
    return queries


def _gibberish(rng: random.Random) -> str:
    consonants = "bcdfghjklmnpqrstvwxz"
    return " ".join(
        "".join(rng.choice(consonants) for _ in range(rng.randint(4, 7))) for _ in range(rng.randint(1, 2))
    )


def nonsense_queries(rng: random.Random, count: int) -> list[Query]:
    """Queries that should find nothing, for every command."""
    queries = []
    for number in range(count):
        text = names.NONSENSE[number % len(names.NONSENSE)] if number % 2 else _gibberish(rng)
        command = COMMANDS[number % len(COMMANDS)]
        queries.append(Query(command, text, None, style="nonsense"))
    return queries
