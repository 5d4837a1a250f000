"""The labelled query set: noisy queries people type, and what each should find in the shipped dataset.

Used by tests/test_search.py (recall floors) and bench/search_bench.py (scorer comparison). Each case
names the kinds the command would search, so "therrien" means the incident for /incident and the
person for /person. Quotes, rulings and motions are identified by their incident and a fragment of
their label because their keys are row ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.search.index import Document, DocumentKind
from bot.search.text import fold

I = (DocumentKind.INCIDENT,)  # noqa: E741 - reads as a column of the table below
P = (DocumentKind.PERSON,)
PARTY = (DocumentKind.PARTY,)
Q = (DocumentKind.QUOTE,)
R = (DocumentKind.RULING,)
M = (DocumentKind.MOTION,)


@dataclass(frozen=True, slots=True)
class Case:
    query: str
    kinds: tuple[DocumentKind, ...] | None
    kind: DocumentKind
    key: str | None = None  # the slug for incidents, people, parties
    incident: str | None = None  # for quotes, rulings, motions
    contains: str | None = None  # a fragment of the expected label (folded comparison)
    topic: str = ""

    def matches(self, doc: Document) -> bool:
        if doc.kind is not self.kind:
            return False
        if self.key is not None and doc.key != self.key:
            return False
        if self.incident is not None and doc.incident != self.incident:
            return False
        return self.contains is None or fold(self.contains) in fold(doc.label)


def inc(query: str, slug: str, topic: str) -> Case:
    return Case(query, I, DocumentKind.INCIDENT, key=slug, topic=topic)


def person(query: str, slug: str, topic: str) -> Case:
    return Case(query, P, DocumentKind.PERSON, key=slug, topic=topic)


def party(query: str, slug: str, topic: str) -> Case:
    return Case(query, PARTY, DocumentKind.PARTY, key=slug, topic=topic)


def quote(query: str, incident: str, contains: str, topic: str = "quote") -> Case:
    return Case(query, Q, DocumentKind.QUOTE, incident=incident, contains=contains, topic=topic)


CASES: tuple[Case, ...] = (
    # typos
    inc("jagmet sigh", "singh-2020", "typo"),
    inc("poilievere wacko", "poilievre-2024", "typo"),
    inc("heseltien mace", "heseltine-1976", "typo"),
    inc("dennis skiner", "skinner-2016", "typo"),
    inc("bronwin bishop", "bishop-2014", "typo"),
    inc("russel moyle", "russell-moyle-2018", "typo"),
    inc("milikin privilege", "milliken-2010", "typo"),
    inc("dawn buttler", "butler-2021", "typo"),
    inc("fudle dudle", "trudeau-1971", "typo"),
    inc("elbowgte", "trudeau-2016", "typo"),
    person("john bercw", "john-bercow", "typo"),
    person("pierre polievre", "pierre-poilievre", "typo"),
    person("tereza may", "theresa-may", "typo"),
    person("jagmet singh", "jagmeet-singh", "typo"),
    # case, accents, punctuation
    inc("maipi clarke", "maipi-clarke-2024", "accents"),
    inc("Māori haka", "maipi-clarke-2024", "accents"),
    inc("MAIPI-CLARKE!!", "maipi-clarke-2024", "accents"),
    party("te pati maori", "te-pati-maori", "accents"),
    party("BLOC QUÉBÉCOIS", "bloc-quebecois", "accents"),
    party("bloc quebecois", "bloc-quebecois", "accents"),
    person("claude de bellefeuille", "claude-debellefeuille", "accents"),
    person("hana rāwhiti", "hana-rawhiti-maipi-clarke", "accents"),
    # word order
    inc("trudeau elbow", "trudeau-2016", "word order"),
    inc("mace heseltine", "heseltine-1976", "word order"),
    inc("racist singh", "singh-2020", "word order"),
    inc("dave dodgy", "skinner-2016", "word order"),
    inc("lied johnson butler", "butler-2021", "word order"),
    person("trudeau pierre", "pierre-trudeau", "word order"),
    # partial, half-typed words
    inc("poili", "poilievre-2024", "partial"),
    inc("hesel", "heseltine-1976", "partial"),
    inc("milli", "milliken-2010", "partial"),
    inc("dreyf", "bishop-2014", "partial"),
    inc("skinner bercow dod", "skinner-2016", "partial"),
    person("brosse", "ruth-ellen-brosseau", "partial"),
    person("mulc", "tom-mulcair", "partial"),
    # a person instead of the incident
    inc("therrien", "singh-2020", "person for incident"),
    person("therrien", "alain-therrien", "person for incident"),
    inc("gord brown", "trudeau-2016", "person for incident"),
    inc("peter kent", "trudeau-2011", "person for incident"),
    inc("david cameron", "skinner-2016", "person for incident"),
    inc("boris johnson", "butler-2021", "person for incident"),
    inc("greg fergus", "poilievre-2024", "person for incident"),
    inc("brownlee", "maipi-clarke-2024", "person for incident"),
    inc("seymour", "maipi-clarke-2024", "person for incident"),
    inc("lundrigan", "trudeau-1971", "person for incident"),
    inc("tony burke", "bishop-2014", "person for incident"),
    person("carol hughes", "carol-hughes", "person for incident"),
    # topics
    inc("rcmp motion", "singh-2020", "topic"),
    inc("afghan detainee documents", "milliken-2010", "topic"),
    inc("brexit mace", "russell-moyle-2018", "topic"),
    inc("red flag", "heseltine-1976", "topic"),
    inc("treaty principles bill", "maipi-clarke-2024", "topic"),
    inc("no confidence madam speaker", "bishop-2014", "topic"),
    inc("piece of shit", "trudeau-2011", "topic"),
    inc("systemic racism", "singh-2020", "topic"),
    inc("haka", "maipi-clarke-2024", "topic"),
    # years
    inc("2011 trudeau", "trudeau-2011", "year"),
    inc("1976 mace", "heseltine-1976", "year"),
    inc("2016 skinner", "skinner-2016", "year"),
    inc("mace 2018", "russell-moyle-2018", "year"),
    inc("1971", "trudeau-1971", "year"),
    # French names and abbreviations
    party("NPD", "new-democratic-party", "french"),
    party("Bloc", "bloc-quebecois", "french"),
    party("nouveau parti democratique", "new-democratic-party", "french"),
    party("parti conservateur", "conservative-party-of-canada", "french"),
    party("PCC", "conservative-party-of-canada", "french"),
    inc("npd singh", "singh-2020", "french"),
    inc("bloc racist", "singh-2020", "french"),
    # quotes
    quote("i will not", "singh-2020", "I will not"),
    quote("why can't we act", "singh-2020", "why can"),
    quote("i still refer to him as dodgy dave", "skinner-2016", "I still refer"),
    quote("replace wacko with extremist", "poilievre-2024", "replace wacko"),
    quote("what kind of man elbows a woman", "trudeau-2016", "What kind of man"),
    quote("put it back", "russell-moyle-2018", "Put it back"),
    quote("i name the member for isaacs", "bishop-2014", "I name the Member"),
    quote("appallingly disrespectful", "maipi-clarke-2024", "appallingly"),
    quote("prime minister has lied", "butler-2021", "somebody needs to tell the truth"),
    # exact names
    inc("singh-2020", "singh-2020", "exact"),
    inc("Elbowgate", "trudeau-2016", "exact"),
    # rulings and motions
    Case("bercow skinner", R, DocumentKind.RULING, incident="skinner-2016", topic="ruling"),
    Case("milliken privilege", R, DocumentKind.RULING, incident="milliken-2010", topic="ruling"),
    Case("no further confidence", M, DocumentKind.MOTION, incident="bishop-2014", topic="motion"),
    Case("systemic racism rcmp", M, DocumentKind.MOTION, incident="singh-2020", topic="motion"),
    # several kinds of noise at once
    inc("jagmeet sing rcmp", "singh-2020", "mixed"),
    inc("polievre wako", "poilievre-2024", "mixed"),
    inc("heseltime red flg", "heseltine-1976", "mixed"),
    inc("russle moyle brexit", "russell-moyle-2018", "mixed"),
    inc("cameron dodgy", "skinner-2016", "mixed"),
    inc("afgan detainees", "milliken-2010", "mixed"),
    inc("dreyfus isaacs", "bishop-2014", "mixed"),
    inc("wilie jakson liar", "maipi-clarke-2024", "mixed"),
    inc("trudo fuddle", "trudeau-1971", "mixed"),
    inc("brosseau elbowed", "trudeau-2016", "mixed"),
    inc("kent sh", "trudeau-2011", "mixed"),
    inc("conservative leader ejected", "poilievre-2024", "mixed"),
    quote("bercow symbolic protest", "russell-moyle-2018", "symbolic protest"),
    quote("lost my temper", "trudeau-2011", "lost my temper"),
    quote("misleading this house", "butler-2021", "Poor people"),
    quote("which word", "skinner-2016", "Which word"),
    # every kind at once
    Case("alain therrien", None, DocumentKind.PERSON, key="alain-therrien", topic="all kinds"),
    Case("fuddle duddle", None, DocumentKind.INCIDENT, key="trudeau-1971", topic="all kinds"),
)

# Queries that must not produce an outright answer: several incidents fit them equally.
AMBIGUOUS: tuple[tuple[str, tuple[DocumentKind, ...]], ...] = (
    ("trudeau", I),
    ("2016", I),
    ("bercow", I),
    ("mace", I),
    ("justin trudeau", I),
    ("dodgy dave", Q),
)

# Queries nothing in the dataset resembles.
NONSENSE: tuple[str, ...] = ("xyzzy plugh", "qwertyuiop", "zzzz")
