"""A second dataset, generated, with names the shipped one does not use: so search is not tuned to
the shipped twelve incidents alone.

``generated_dataset()`` is deterministic (a fixed seed): three chambers in three countries, their
parties and members, and one incident per member of ``CAST`` written from a template of its kind,
with a quote, a ruling and, for consent requests, a motion. ``write_generated(path)`` writes it in
the documented format (docs/DATASET.md) through ``write_dataset``; tests load that file through
``read_dataset`` and ``load_dataset``, the real import path. ``GENERATED`` lists what each incident
is about, so tests/search_cases.py can write queries against it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.search.text import fold
from db.dataset.files import write_dataset
from db.dataset.schema import Dataset

SEED = 2026

CHAMBERS = (
    ("ie-dail-eireann", "Dáil Éireann", "Houses of the Oireachtas", "Ireland", "Ceann Comhairle"),
    ("za-national-assembly", "National Assembly of South Africa", "Parliament of South Africa",
     "South Africa", "Speaker"),
    ("in-lok-sabha", "Lok Sabha", "Parliament of India", "India", "Speaker"),
)  # fmt: skip

PARTIES = (  # slug, name, abbreviation, chamber
    ("fianna-fail", "Fianna Fáil", "FF", "ie-dail-eireann"),
    ("sinn-fein", "Sinn Féin", "SF", "ie-dail-eireann"),
    ("irish-labour", "Irish Labour Party", None, "ie-dail-eireann"),
    ("african-national-congress", "African National Congress", "ANC", "za-national-assembly"),
    ("democratic-alliance", "Democratic Alliance", "DA", "za-national-assembly"),
    ("economic-freedom-fighters", "Economic Freedom Fighters", "EFF", "za-national-assembly"),
    ("bharatiya-janata-party", "Bharatiya Janata Party", "BJP", "in-lok-sabha"),
    ("indian-national-congress", "Indian National Congress", "INC", "in-lok-sabha"),
    ("aam-aadmi-party", "Aam Aadmi Party", "AAP", "in-lok-sabha"),
)

# The member at the centre of each incident, with the chamber's people it names.
CAST = (
    ("Siobhán O'Driscoll", "ie-dail-eireann"),
    ("Declan Fitzmaurice", "ie-dail-eireann"),
    ("Aoife Brennock", "ie-dail-eireann"),
    ("Padraig Culhane", "ie-dail-eireann"),
    ("Ciarán Mulqueen", "ie-dail-eireann"),
    ("Nomvula Mthembu", "za-national-assembly"),
    ("Thabo Sekgoma", "za-national-assembly"),
    ("Pieter van Rensburg", "za-national-assembly"),
    ("Lindiwe Khumalo", "za-national-assembly"),
    ("Mosiuoa Ramaphele", "za-national-assembly"),
    ("Anjali Deshpande", "in-lok-sabha"),
    ("Rajesh Venkataraman", "in-lok-sabha"),
    ("Harpreet Dhillon", "in-lok-sabha"),
    ("Meenakshi Iyengar", "in-lok-sabha"),
    ("Suresh Kulkarni", "in-lok-sabha"),
    ("Eamon Gallagher", "ie-dail-eireann"),
    ("Zanele Ndlovu", "za-national-assembly"),
    ("Vikram Chaturvedi", "in-lok-sabha"),
)
# Whom they targeted, and who was in the chair, per chamber.
TARGETS = {
    "ie-dail-eireann": ("Micheál Tánaiste Ó Broin", "Gráinne Kavanagh", "Fergal Dunleavy"),
    "za-national-assembly": ("Sipho Mabuza", "Johan Steenkamp", "Ayanda Zulu"),
    "in-lok-sabha": ("Arvind Raghunathan", "Kavita Banerjee", "Sanjay Thakur"),
}
CHAIRS = {
    "ie-dail-eireann": "Brigid Ó Fearghail",
    "za-national-assembly": "Baleka Mnisi",
    "in-lok-sabha": "Om Prakash Birla",
}


@dataclass(frozen=True, slots=True)
class Story:
    """One incident template: its kind, what happened, the ruling's outcome, and a quote."""

    kind: str
    title: str  # {who}, {target}, {word}, {topic}
    outcome: str
    quote: str


STORIES = (
    Story("refusal_to_withdraw", "{who} ordered out for calling {target} a {word} and refusing to withdraw",
          "ordered_to_leave_sitting", "I will not withdraw the word {word}."),
    Story("naming", "{chair} names {who} for disrupting the {topic} debate", "named",
          "The member is named and will leave the chamber."),
    Story("mace", "{who} grabs the mace during the vote on the {topic}", "sitting_suspended",
          "This mace belongs to the people, not to you."),
    Story("disorder", "{who} throws a {word} across the floor in protest at the {topic}",
          "ordered_to_leave_period",
          "Take your {word} back, this is a parliament."),
    Story("privilege", "{chair} finds a prima facie question of privilege over the leaked {topic} report",
          "privilege_found", "The privileges of this House have been breached by {target}."),
    Story("unparliamentary_language", "{who} calls {target} a {word}, then withdraws and apologises",
          "words_withdrawn", "I withdraw {word} and I apologise to the House."),
    Story("suspension", "{who} suspended by the House for five sittings after the {topic} walkout",
          "suspended_by_house", "You can suspend me but you cannot silence the {topic} question."),
    Story("unanimous_consent", "{who}'s consent motion on the {topic} blocked by {target}", "no_sanction",
          "Why will nobody stand up for the {topic}?"),
    Story("sitting_suspended", "Sitting suspended as {who} leads a sit-in over the {topic}",
          "sitting_suspended",
          "We will sit here until the {topic} is heard."),
)  # fmt: skip
INSULTS = (
    "hypocrite",
    "coward",
    "clown",
    "scoundrel",
    "bully",
    "traitor",
    "charlatan",
    "weasel",
    "liar",
    "buffoon",
    "gangster",
    "puppet",
    "fraud",
    "thug",
    "snake",
    "crook",
    "parasite",
    "windbag",
)
PROPS = ("shoe", "sandwich", "turnip", "rubber chicken", "lettuce", "brick")
PROPPED = {"disorder"}  # stories whose {word} is a thing thrown, not a word said
TOPICS = ("water tariff", "fishing quota", "pension freeze", "broadband rollout", "railway levy",
          "mining licence", "rent cap", "grain subsidy", "coastal erosion", "tobacco duty",
          "forestry sale", "airport expansion", "dairy price", "school meals", "metro fares",
          "salt tax", "data privacy", "flood relief")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Generated:
    """What one generated incident is about (for writing queries against it)."""

    slug: str
    who: str  # the member's full name
    person: str  # their slug
    target: str
    chair: str
    word: str
    topic: str
    year: int
    kind: str
    country: str
    title: str
    quote: str


def _slug(name: str) -> str:
    return "-".join(fold(name).split())


def _plan() -> list[Generated]:
    rng = random.Random(SEED)
    countries = {slug: country for slug, _, _, country, _ in CHAMBERS}
    plans = []
    for number, (who, chamber) in enumerate(CAST):
        story = STORIES[number % len(STORIES)]
        target = TARGETS[chamber][number % 3]
        word = PROPS[number % len(PROPS)] if story.kind in PROPPED else INSULTS[number]
        topic = TOPICS[number]
        year = 1990 + rng.randrange(35)
        surname = _slug(who).split("-")[-1]
        fields = {"who": who, "target": target, "word": word, "topic": topic, "chair": CHAIRS[chamber]}
        plans.append(
            Generated(
                slug=f"{surname}-{year}",
                who=who,
                person=_slug(who),
                target=target,
                chair=CHAIRS[chamber],
                word=word,
                topic=topic,
                year=year,
                kind=story.kind,
                country=countries[chamber],
                title=story.title.format(**fields),
                quote=story.quote.format(**fields),
            )
        )
    return plans


GENERATED: tuple[Generated, ...] = tuple(_plan())


def _people(rng: random.Random) -> list[dict[str, Any]]:
    party_of_chamber: dict[str, list[str]] = {}
    for slug, _, _, chamber in PARTIES:
        party_of_chamber.setdefault(chamber, []).append(slug)
    people: dict[str, dict[str, Any]] = {}
    named = [(who, chamber) for who, chamber in CAST]
    named += [(target, chamber) for chamber, names in TARGETS.items() for target in names]
    named += [(chair, chamber) for chamber, chair in CHAIRS.items()]
    for name, chamber in named:
        surname = name.split()[-1]
        people[_slug(name)] = {
            "slug": _slug(name),
            "name": name,
            "aliases": [surname],
            "party": rng.choice(party_of_chamber[chamber]),
        }
    return list(people.values())


def _incident(plan: Generated, chamber: str, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    story = next(s for s in STORIES if s.kind == plan.kind)
    source = {
        "key": f"{plan.slug}-gazette",
        "publisher": "The Parliamentary Gazette (generated)",
        "title": plan.title[:300],
        "published": f"{plan.year}-{rng.randrange(1, 13):02d}-15",
    }
    incident: dict[str, Any] = {
        "slug": plan.slug,
        "title": plan.title,
        "date": source["published"],
        "chamber": chamber,
        "kind": plan.kind,
        "summary": f"A generated account: {plan.title}, in the {plan.topic} debate. {plan.chair} chaired.",
        "sources": [source["key"]],
        "participants": [
            {"person": plan.person, "role": "Member"},
            {"person": _slug(plan.target), "role": "Minister"},
            {"person": _slug(plan.chair), "role": "Presiding officer"},
        ],
        "quotes": [
            {
                "speaker": plan.person,
                "speaker_label": plan.who,
                "text": plan.quote,
                "delivery": "verbatim",
                "source": source["key"],
            }
        ],
        "rulings": [
            {
                "ruled_by": _slug(plan.chair),
                "ruled_by_label": plan.chair,
                "outcome": story.outcome,
                "summary": f"{plan.chair} ruled on {plan.who}.",
                "source": source["key"],
            }
        ],
    }
    if plan.kind == "unanimous_consent":
        incident["motions"] = [
            {
                "text": f"That the House act on the {plan.topic} without delay.",
                "moved_by": plan.person,
                "procedure": "unanimous_consent",
                "result": "not_moved",
                "source": source["key"],
            }
        ]
    return incident, source


def generated_dataset() -> Dataset:
    """The generated dataset, validated by the format's own models."""
    rng = random.Random(SEED)
    chamber_of = dict(CAST)
    incidents, sources = [], []
    for plan in GENERATED:
        incident, source = _incident(plan, chamber_of[plan.who], rng)
        incidents.append(incident)
        sources.append(source)
    document = {
        "format": "parlbot-dataset",
        "version": 1,
        "dataset_version": "generated.1",
        "chambers": [
            {"slug": slug, "name": name, "legislature": legislature, "country": country}
            for slug, name, legislature, country, _ in CHAMBERS
        ],
        "parties": [
            {
                "slug": slug,
                "name": name,
                "country": next(c[3] for c in CHAMBERS if c[0] == chamber),
                **({"abbreviation": abbreviation} if abbreviation else {}),
            }
            for slug, name, abbreviation, chamber in PARTIES
        ],
        "people": _people(rng),
        "sources": sources,
        "incidents": incidents,
    }
    return Dataset.model_validate(document)


def write_generated(path: Path) -> Path:
    """Write the generated dataset to ``path`` in canonical form; returns ``path``."""
    write_dataset(generated_dataset(), path)
    return path
