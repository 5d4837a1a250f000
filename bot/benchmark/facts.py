"""What the corpus generator knows about an incident it wrote, for writing queries against it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Person:
    slug: str
    name: str
    given: str
    surname: str
    party: str
    seat: str


@dataclass(frozen=True, slots=True)
class Facts:
    slug: str
    who: Person  # the member at the centre of it
    target: Person  # whom they clashed with
    chair: Person
    word: str  # what was said (or thrown)
    topic: str
    year: int
    title: str
    said: str  # the member's quote
    question: str  # a plain question about it
