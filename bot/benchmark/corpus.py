"""``parlbot bench corpus``: a realistic synthetic dataset and the queries people would type against it.

``write_corpus(directory, incidents=N, seed=S)`` writes ``dataset.json`` (the documented dataset format,
docs/DATASET.md: importable with ``parlbot db import``, valid for ``parlbot db check``) and
``queries.jsonl`` (``bot.benchmark.queries``). The same seed gives the same bytes.

The dataset is streamed, an entry a line, so a million incidents need neither the whole document in
memory nor pydantic over it; every entry has the fields ``db.dataset.schema`` requires, null fields left
out as in the canonical text (which indents more and sorts the top-level lists; readers sort them).
Each incident has two participants (a member and the one they clashed with, drawn from the chamber's
members so that some recur), two quotes, a ruling by the chamber's chair and a motion, all citing the
incident's one source.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.benchmark import names
from bot.benchmark.facts import Facts, Person
from bot.benchmark.names import LANGUAGES, Language
from bot.benchmark.noise import ascii_slug
from bot.benchmark.queries import Query, incident_queries, nonsense_queries, write_queries

DATASET_FILE = "dataset.json"
QUERIES_FILE = "queries.jsonl"
QUERIED_INCIDENTS = 200  # incidents the query file asks about (fewer when the corpus is smaller)
CHAIRS_PER_CHAMBER = 4
SLUG_ROOM = 48  # a slug is at most 64 characters: room for the year and a counter

_LANGUAGE = {language.name: language for language in LANGUAGES}


@dataclass(frozen=True, slots=True)
class Chamber:
    slug: str
    name: str
    legislature: str
    country: str
    chair_title: str
    languages: tuple[Language, ...]


@dataclass(frozen=True, slots=True)
class Story:
    """An incident template; ``{who}``, ``{target}``, ``{word}``, ``{topic}``, ``{chair}``, ``{seat}``."""

    kind: str
    title: str
    outcome: str
    said: str  # what the member said
    ruled: str  # what the chair said
    ruling: str  # the ruling's summary
    motion: str
    procedure: str
    result: str
    question: str  # how someone asks about it


STORIES: tuple[Story, ...] = (
    Story("refusal_to_withdraw", "{who} ordered out for calling {target} a {word} and refusing to withdraw",
          "ordered_to_leave_sitting", "I will not withdraw the word {word}.",
          "The member will withdraw that unparliamentary remark or leave the chamber.",
          "The {chair} ruled {word} unparliamentary; {who} refused to withdraw and was ordered out.",
          "That the member for {seat} be suspended from the service of the House.", "ordinary", "passed",
          "who was ejected for calling {target} a {word}"),
    Story("unparliamentary_language",
          "{who} calls {target} a {word}, then withdraws the unparliamentary remark", "words_withdrawn",
          "I withdraw {word} and I apologise to the House.",
          "Order! That word is unparliamentary and the member knows it.",
          "The {chair} asked {who} to withdraw {word}; the remark was withdrawn.",
          "That the House censure the member for {seat} for the remark about {target}.", "ordinary", "failed",
          "who called {target} a {word}"),
    Story("naming", "The {chair} names {who} during the {topic} debate", "named",
          "You cannot silence the {topic} question by naming me.",
          "I name the member for {seat}. The sergeant-at-arms will escort the member out.",
          "{who} was named by the {chair} for disregarding the authority of the chair.",
          "That the member for {seat} be suspended.", "ordinary", "passed",
          "why was {who} named by the speaker"),
    Story("suspension", "{who} suspended for five sittings after the {topic} walkout", "suspended_by_house",
          "Suspend me if you like, the {topic} will not go away.",
          "The question is that the member be suspended for five sittings.",
          "The House suspended {who} for five sittings on the motion of {target}.",
          "That the member for {seat} be suspended for five sittings.", "ordinary", "passed",
          "who was suspended over the {topic} walkout"),
    Story("disorder", "{who} throws a {prop} across the floor over the {topic}", "ordered_to_leave_period",
          "Take your {prop} back, this {topic} is a disgrace.",
          "Order! Order! The member will leave the chamber for the rest of the week.",
          "The {chair} ordered {who} out for the rest of the week after the {prop} was thrown.",
          "That the member for {seat} apologise to the House.", "ordinary", "withdrawn",
          "who threw a {prop} in parliament"),
    Story("mace", "{who} seizes the mace during the vote on the {topic}", "sitting_suspended",
          "This mace belongs to the people, not to the government.",
          "The sitting is suspended; the sergeant-at-arms will return the mace to the table.",
          "The {chair} suspended the sitting after {who} took the mace.",
          "That the member for {seat} be named for taking the mace.", "ordinary", "passed",
          "who grabbed the mace during the {topic} vote"),
    Story("point_of_order", "{who}'s point of order on the {topic} ruled out of order", "no_sanction",
          "On a point of order, the minister has misled the House on the {topic}.",
          "That is not a point of order; it is a matter of debate.",
          "The {chair} ruled the point of order raised by {who} out of order.",
          "That the {topic} papers be tabled.", "ordinary", "deferred",
          "what was the point of order about the {topic}"),
    Story("privilege", "The {chair} finds a prima facie breach of privilege over the leaked {topic}",
          "privilege_found", "The privileges of this House have been breached by {target}.",
          "I find that a prima facie case of privilege has been made out.",
          "The {chair} found a prima facie breach of privilege in the leak of the {topic}.",
          "That the matter of the leaked {topic} be referred to the committee of privileges.", "ordinary",
          "passed", "breach of privilege over the leaked {topic}"),
    Story("speakers_ruling", "The {chair} rules {target}'s remark about {who} unparliamentary",
          "asked_to_withdraw", "The member opposite is a {word} and the House should hear it.",
          "Unparliamentary language will not be tolerated; the member will withdraw.",
          "The {chair} asked {target} to withdraw the word {word} used of {who}.",
          "That the ruling of the {chair} be disagreed with.", "ordinary", "failed",
          "speaker ruling on calling {who} a {word}"),
    Story("sitting_suspended", "Sitting suspended as {who} leads a sit-in over the {topic}",
          "sitting_suspended",
          "We will sit here until the {topic} is heard.",
          "The House is in disorder; the sitting is suspended for thirty minutes.",
          "The {chair} suspended the sitting during the sit-in led by {who}.",
          "That the House adjourn.", "closure", "failed", "sit-in over the {topic}"),
    Story("unanimous_consent", "{who}'s unanimous consent motion on the {topic} blocked by {target}",
          "no_sanction", "Why will nobody stand up for the {topic}?",
          "Is there unanimous consent? I hear a no. There is no consent.",
          "The {chair} found no unanimous consent for the motion of {who}.",
          "That the House call on the government to act on the {topic} without delay.", "unanimous_consent",
          "not_moved", "who said no to the {topic} motion"),
)  # fmt: skip


class Cast:
    """The chambers, their parties and members, and each chamber's chairs, drawn from one generator."""

    def __init__(self, rng: random.Random, members: int) -> None:
        self.rng = rng
        self.chambers = [
            Chamber(slug, name, legislature, country, chair, tuple(_LANGUAGE[lang] for lang in langs))
            for slug, name, legislature, country, chair, langs in names.CHAMBERS
        ]
        self.parties: list[dict[str, Any]] = []
        self.party_slugs: dict[str, list[str]] = {}
        for chamber in self.chambers:
            self.party_slugs[chamber.slug] = [self._party(chamber) for _ in range(rng.randint(6, 14))]
        self.people: list[Person] = []
        self._slugs: set[str] = set()
        self.members: dict[str, list[Person]] = {chamber.slug: [] for chamber in self.chambers}
        self.chairs = {
            chamber.slug: [self._person(chamber) for _ in range(CHAIRS_PER_CHAMBER)]
            for chamber in self.chambers
        }
        for _ in range(members):
            chamber = rng.choice(self.chambers)
            self.members[chamber.slug].append(self._person(chamber))

    def _party(self, chamber: Chamber) -> str:
        rng = self.rng
        shape = rng.randrange(3)
        first, second = rng.sample(names.PARTY_ADJECTIVES, 2)
        noun = rng.choice(names.PARTY_NOUNS)
        if shape == 0:
            name = f"{first} {noun}"
        elif shape == 1:
            name = f"{first} {second} {noun}"
        else:
            name = f"{noun} for {rng.choice(chamber.languages).place(rng)}"
        slug = self._unique(
            ascii_slug(f"{name} {chamber.slug.split('-')[0]}"), {p["slug"] for p in self.parties}
        )
        abbreviation = "".join(word[0] for word in name.split() if word[0].isupper())[:32]
        party: dict[str, Any] = {"slug": slug, "name": name, "country": chamber.country}
        if len(abbreviation) > 1:
            party["abbreviation"] = abbreviation
        self.parties.append(party)
        return slug

    @staticmethod
    def _unique(slug: str, taken: set[str]) -> str:
        candidate, number = slug, 1
        while candidate in taken:
            number += 1
            candidate = f"{slug}-{number}"
        return candidate

    def _person(self, chamber: Chamber) -> Person:
        rng = self.rng
        language = rng.choice(chamber.languages)
        given, surname = rng.choice(language.given), language.surname(rng)
        name = f"{given} {surname}"
        slug = self._unique(ascii_slug(name)[:SLUG_ROOM].strip("-"), self._slugs)
        self._slugs.add(slug)
        person = Person(
            slug, name, given, surname, rng.choice(self.party_slugs[chamber.slug]), language.place(rng)
        )
        self.people.append(person)
        return person

    def member(self, chamber: Chamber) -> Person:
        """A member of the chamber; the first members come up most often (a few have many incidents)."""
        members = self.members[chamber.slug]
        return members[int(len(members) * self.rng.random() ** 2)]


def _entry_lines(out: TextIO, name: str, entries: Iterator[dict[str, Any]]) -> None:
    """``"name": [`` then each entry on a line of its own, then ``]``."""
    out.write(f'  "{name}": [')
    separator = "\n    "
    for entry in entries:
        out.write(separator + json.dumps(entry, ensure_ascii=False))
        separator = ",\n    "
    out.write("\n  ],\n")


def _slug(taken: dict[str, int], surname: str, year: int) -> str:
    """``<surname>-<year>`` (docs/DATASET.md), with a counter where that is taken."""
    base = f"{ascii_slug(surname)[:SLUG_ROOM].strip('-')}-{year}"
    count = taken[base] = taken.get(base, 0) + 1
    return base if count == 1 else f"{base}-{count}"


def _incident(
    cast: Cast, story: Story, taken: dict[str, int], rng: random.Random
) -> tuple[dict[str, Any], dict[str, Any], Facts]:
    """An incident, its source, and what it is about."""
    chamber = rng.choice(cast.chambers)
    if not cast.members[chamber.slug]:
        chamber = next(c for c in cast.chambers if cast.members[c.slug])
    who, target = cast.member(chamber), cast.member(chamber)
    chair = rng.choice(cast.chairs[chamber.slug])
    year = rng.randint(1950, 2025)
    word = rng.choice(names.INSULTS)
    topic = f"{rng.choice(names.TOPIC_SUBJECTS)} {rng.choice(names.TOPIC_OBJECTS)}"
    fill = {
        "who": who.name,
        "target": target.name,
        "word": word,
        "prop": rng.choice(names.PROPS),
        "topic": topic,
        "chair": chamber.chair_title,
        "seat": who.seat,
    }
    slug = _slug(taken, who.surname, year)
    source = f"{slug}-{ascii_slug(rng.choice(names.PUBLISHERS))}"
    title = story.title.format(**fill)
    title = title[:1].upper() + title[1:]
    said, ruled = story.said.format(**fill), story.ruled.format(**fill)
    date = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    other_party = target.party if target.party != who.party else rng.choice(cast.party_slugs[chamber.slug])
    incident: dict[str, Any] = {
        "slug": slug,
        "title": title[:256],
        "date": date,
        "chamber": chamber.slug,
        "kind": story.kind,
        "summary": f"During the {topic} debate, {story.ruling.format(**fill)} "
        f"{who.surname} sits for {who.seat}.",
        "sources": [source],
        "participants": [
            {"person": who.slug, "role": f"Member for {who.seat}", "party": who.party},
            {"person": target.slug, "role": f"Minister of {rng.choice(names.PORTFOLIOS)}",
             "party": target.party},
        ],
        "motions": [
            {
                "text": story.motion.format(**fill),
                "moved_by": target.slug if story.procedure != "unanimous_consent" else who.slug,
                "procedure": story.procedure,
                "result": story.result,
                "source": source,
                "positions": [
                    {"party": other_party, "label": "the government benches", "stance": "object"
                     if story.procedure == "unanimous_consent" else "yes", "attribution": "news_reported",
                     "source": source},
                    {"person": who.slug, "label": who.name, "stance": "no", "attribution": "recorded",
                     "source": source},
                ],
            }
        ],
        "quotes": [
            {"speaker": who.slug, "speaker_label": who.name, "text": said, "delivery": "verbatim",
             "source": source},
            {"speaker": chair.slug, "speaker_label": f"{chamber.chair_title} {chair.name}", "text": ruled,
             "said_to": who.name, "delivery": "reported", "source": source},
        ],
        "rulings": [
            {"ruled_by": chair.slug, "ruled_by_label": f"{chamber.chair_title} {chair.name}",
             "role": chamber.chair_title, "subject": who.slug, "outcome": story.outcome,
             "summary": story.ruling.format(**fill), "source": source},
        ],
    }  # fmt: skip
    if rng.random() < 0.1:
        incident["aliases"] = [f"{word.split()[-1].capitalize()}gate {year}"]
    facts = Facts(slug, who, target, chair, word, topic, year, title, said, story.question.format(**fill))
    source_entry = {
        "key": source,
        "url": f"https://records.example/{chamber.slug}/{slug}",
        "title": title[:300],
        "publisher": source.removeprefix(f"{slug}-").replace("-", " ").title(),
        "published": date,
    }
    return incident, source_entry, facts


def write_corpus(directory: Path, *, incidents: int, seed: int) -> tuple[int, int]:
    """Write the dataset and the queries into ``directory``; returns (incidents, queries) written."""
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)  # noqa: S311  (a reproducible corpus, not a secret)
    cast = Cast(rng, members=max(40, incidents))
    queried_every = max(1, incidents // QUERIED_INCIDENTS)
    facts: list[Facts] = []
    taken: dict[str, int] = {}
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        sources = (directory / DATASET_FILE).with_suffix(".sources.tmp")
        with sources.open("w", encoding="utf-8") as source_lines:
            separator = "\n    "
            for number in range(incidents):
                entry, source, fact = _incident(cast, rng.choice(STORIES), taken, rng)
                source_lines.write(separator + json.dumps(source, ensure_ascii=False))
                spool.write(separator + json.dumps(entry, ensure_ascii=False))
                separator = ",\n    "
                if number % queried_every == 0:
                    facts.append(fact)
        _write_dataset(directory / DATASET_FILE, cast, seed, incidents, sources, spool)
        sources.unlink()
    queries = _queries(facts, random.Random(seed + 1))  # noqa: S311
    write_queries(directory / QUERIES_FILE, queries)
    return incidents, len(queries)


def _write_dataset(path: Path, cast: Cast, seed: int, count: int, sources: Path, spool: TextIO) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write('{\n  "format": "parlbot-dataset",\n  "version": 1,\n')
        out.write(f'  "dataset_version": "bench-{count}-seed-{seed}",\n')
        _entry_lines(
            out,
            "chambers",
            (
                {"slug": c.slug, "name": c.name, "legislature": c.legislature, "country": c.country}
                for c in cast.chambers
            ),
        )
        _entry_lines(out, "parties", iter(cast.parties))
        _entry_lines(
            out,
            "people",
            ({"slug": p.slug, "name": p.name, "aliases": [p.surname], "party": p.party} for p in cast.people),
        )
        out.write('  "sources": [')
        with sources.open(encoding="utf-8") as source_lines:
            shutil.copyfileobj(source_lines, out)
        out.write('\n  ],\n  "incidents": [')
        spool.seek(0)
        shutil.copyfileobj(spool, out)
        out.write("\n  ]\n}\n")


def _queries(facts: list[Facts], rng: random.Random) -> list[Query]:
    queries: list[Query] = []
    for number, fact in enumerate(facts):
        queries.extend(incident_queries(fact, rng, keystrokes_too=number % 4 == 0))
    queries.extend(nonsense_queries(rng, max(3, len(facts) // 4)))
    return queries
