"""The labelled query set: noisy queries people type, and what each should find in the shipped dataset.

Used by tests/test_search.py (recall floors) and bench/search_bench.py (scorer comparison). Each case
names the kinds the command would search, so "therrien" means the incident for /incident and the
person for /person. Quotes, rulings and motions are identified by their incident and a fragment of
their label because their keys are row ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.search.filters import parse_query
from bot.search.index import Document, DocumentKind, Hit, Resolution, SearchIndex
from bot.search.text import fold
from tests.generated_dataset import GENERATED, Generated

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


def found(index: SearchIndex, case: Case, limit: int) -> list[Hit]:
    """What ``/search`` (or a command) lists for the case's query, its filters applied."""
    parsed = parse_query(case.query)
    return index.search(parsed.text, kinds=case.kinds, limit=limit, filters=parsed.filters)


def decided(index: SearchIndex, case: Case) -> Resolution:
    """How ``resolve`` answers the case's query, its filters applied."""
    parsed = parse_query(case.query)
    return index.resolve(parsed.text, kinds=case.kinds, filters=parsed.filters)


def inc(query: str, slug: str, topic: str) -> Case:
    return Case(query, I, DocumentKind.INCIDENT, key=slug, topic=topic)


def person(query: str, slug: str, topic: str) -> Case:
    return Case(query, P, DocumentKind.PERSON, key=slug, topic=topic)


def party(query: str, slug: str, topic: str) -> Case:
    return Case(query, PARTY, DocumentKind.PARTY, key=slug, topic=topic)


def quote(query: str, incident: str, contains: str, topic: str = "quote") -> Case:
    return Case(query, Q, DocumentKind.QUOTE, incident=incident, contains=contains, topic=topic)


def ruling(query: str, incident: str, contains: str | None = None, topic: str = "ruling") -> Case:
    return Case(query, R, DocumentKind.RULING, incident=incident, contains=contains, topic=topic)


def anything(query: str, kind: DocumentKind, key: str, topic: str) -> Case:
    """What ``/search`` (every kind at once) should put first."""
    return Case(query, None, kind, key=key, topic=topic)


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
    inc("scheer trudeau kent", "trudeau-2011", "person for incident"),
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
    *(
        # half-typed, as autocomplete sees them mid-word
        inc("sihng", "singh-2020", "half-typed"),
        inc("jagm", "singh-2020", "half-typed"),
        inc("skinn", "skinner-2016", "half-typed"),
        inc("bisho", "bishop-2014", "half-typed"),
        inc("therr", "singh-2020", "half-typed"),
        inc("fergu", "poilievre-2024", "half-typed"),
        inc("wack", "poilievre-2024", "half-typed"),
        inc("fuddl", "trudeau-1971", "half-typed"),
        inc("elbowg", "trudeau-2016", "half-typed"),
        inc("brexi", "russell-moyle-2018", "half-typed"),
        inc("afgh", "milliken-2010", "half-typed"),
        inc("detain", "milliken-2010", "half-typed"),
        inc("rcm", "singh-2020", "half-typed"),
        inc("dodg", "skinner-2016", "half-typed"),
        inc("maipi", "maipi-clarke-2024", "half-typed"),
        inc("brownl", "maipi-clarke-2024", "half-typed"),
        inc("lundr", "trudeau-1971", "half-typed"),
        inc("isaa", "bishop-2014", "half-typed"),
        inc("heselt", "heseltine-1976", "half-typed"),
        inc("russell-mo", "russell-moyle-2018", "half-typed"),
        inc("dawn but", "butler-2021", "half-typed"),
        inc("peter ke", "trudeau-2011", "half-typed"),
        person("sihng", "jagmeet-singh", "half-typed"),
        person("poilie", "pierre-poilievre", "half-typed"),
        person("bronw", "bronwyn-bishop", "half-typed"),
        person("dreyfu", "mark-dreyfus", "half-typed"),
        person("mcgow", "cathy-mcgowan", "half-typed"),
        person("waiti", "rawiri-waititi", "half-typed"),
        person("ngarew", "debbie-ngarewa-packer", "half-typed"),
        person("seym", "david-seymour", "half-typed"),
        person("cummi", "judith-cummins", "half-typed"),
        person("galp", "myer-galpern", "half-typed"),
        person("lincoln al", "lincoln-alexander", "half-typed"),
        person("christoph", "david-christopherson", "half-typed"),
        person("scheer", "andrew-scheer", "half-typed"),
        person("rachael th", "rachael-thomas", "half-typed"),
        # misspelt
        inc("poillievre", "poilievre-2024", "misspelt"),
        inc("heseltyne", "heseltine-1976", "misspelt"),
        inc("maipi clark", "maipi-clarke-2024", "misspelt"),
        inc("jagmit singh", "singh-2020", "misspelt"),
        inc("skinnar dodgy", "skinner-2016", "misspelt"),
        inc("milliken privelege", "milliken-2010", "misspelt"),
        inc("bronwyn bishopp", "bishop-2014", "misspelt"),
        inc("brexit mase", "russell-moyle-2018", "misspelt"),
        inc("wackoo", "poilievre-2024", "misspelt"),
        inc("fudle duddle", "trudeau-1971", "misspelt"),
        inc("dawn buttler boris", "butler-2021", "misspelt"),
        inc("ellbowgate", "trudeau-2016", "misspelt"),
        inc("brosseu", "trudeau-2016", "misspelt"),
        inc("threrrien", "singh-2020", "misspelt"),
        inc("treaty principals", "maipi-clarke-2024", "misspelt"),
        inc("hakka", "maipi-clarke-2024", "misspelt"),
        inc("dryfus", "bishop-2014", "misspelt"),
        inc("peice of shit", "trudeau-2011", "misspelt"),
        inc("redd flag heseltine", "heseltine-1976", "misspelt"),
        inc("gerry brownly", "maipi-clarke-2024", "misspelt"),
        person("willie jakson", "willie-jackson", "misspelt"),
        person("micheal heseltine", "michael-heseltine", "misspelt"),
        person("justin trudo", "justin-trudeau", "misspelt"),
        person("bercov", "john-bercow", "misspelt"),
        person("anthoney rota", "anthony-rota", "misspelt"),
        person("gregg fergus", "greg-fergus", "misspelt"),
        person("tony abot", "tony-abbott", "misspelt"),
        person("stephen harpur", "stephen-harper", "misspelt"),
        person("denis canavan", "dennis-canavan", "misspelt"),
        person("lloyd russel moyle", "lloyd-russell-moyle", "misspelt"),
        # plain questions
        inc("who got kicked out for calling someone a liar", "maipi-clarke-2024", "question"),
        inc("who called cameron dodgy dave", "skinner-2016", "question"),
        inc("who grabbed the mace in 1976", "heseltine-1976", "question"),
        inc("who elbowed a woman in parliament", "trudeau-2016", "question"),
        inc("what did trudeau call peter kent", "trudeau-2011", "question"),
        inc("why was singh kicked out", "singh-2020", "question"),
        inc("who was named for saying madam speaker", "bishop-2014", "question"),
        inc("who said boris johnson lied", "butler-2021", "question"),
        inc("which mp picked up the mace after the brexit vote", "russell-moyle-2018", "question"),
        inc("who called trudeau a wacko", "poilievre-2024", "question"),
        inc("what was the afghan detainee ruling", "milliken-2010", "question"),
        inc("who mouthed fuddle duddle", "trudeau-1971", "question"),
        inc("when did the haka stop the vote", "maipi-clarke-2024", "question"),
        inc("who was thrown out for calling someone a racist", "singh-2020", "question"),
        inc("who got thrown out for saying the prime minister lied", "butler-2021", "question"),
        inc("did anyone get named in australia", "bishop-2014", "question"),
        inc("who refused to withdraw dodgy dave", "skinner-2016", "question"),
        inc("who apologised for swearing at peter kent", "trudeau-2011", "question"),
        inc("who was suspended after the haka", "maipi-clarke-2024", "question"),
        inc("what happened with the rcmp racism motion", "singh-2020", "question"),
        inc("who sang the red flag", "heseltine-1976", "question"),
        inc("who was ordered out for the wacko comment", "poilievre-2024", "question"),
        quote("what did singh say when asked to apologise", "singh-2020", "I will not", "question"),
        quote("what did skinner call cameron", "skinner-2016", "dodgy Dave", "question"),
        inc("who was speaker when poilievre was ejected", "poilievre-2024", "question"),
        person("who is the member for isaacs", "mark-dreyfus", "question"),
        # by country and chamber (plain words and filters)
        inc("new zealand", "maipi-clarke-2024", "country"),
        inc("australia", "bishop-2014", "country"),
        inc("australian speaker named", "bishop-2014", "country"),
        inc("aussie no confidence", "bishop-2014", "country"),
        inc("kiwi haka", "maipi-clarke-2024", "country"),
        inc("nz named", "maipi-clarke-2024", "country"),
        inc("uk lied", "butler-2021", "country"),
        inc("british brexit mace", "russell-moyle-2018", "country"),
        inc("canada wacko", "poilievre-2024", "country"),
        inc("canadian elbow", "trudeau-2016", "country"),
        inc("chamber:nz", "maipi-clarke-2024", "filter"),
        inc("chamber:au", "bishop-2014", "filter"),
        inc("chamber:australia", "bishop-2014", "filter"),
        inc("chamber:uk lied", "butler-2021", "filter"),
        inc("chamber:uk dennis", "skinner-2016", "filter"),
        inc('chamber:"house of commons" red flag', "heseltine-1976", "filter"),
        inc("chamber:canada year:2016", "trudeau-2016", "filter"),
        inc("country:canada racist", "singh-2020", "filter"),
        inc("chamber:uk year:2021", "butler-2021", "filter"),
        # by year (plain words and filters)
        inc("2024 wacko", "poilievre-2024", "year"),
        inc("2020 racist", "singh-2020", "year"),
        inc("2021 liar", "butler-2021", "year"),
        inc("2014 named", "bishop-2014", "year"),
        inc("2010 privilege", "milliken-2010", "year"),
        inc("2011 kent", "trudeau-2011", "year"),
        inc("2018 brexit", "russell-moyle-2018", "year"),
        inc("haka 2024", "maipi-clarke-2024", "year"),
        inc("year:1971", "trudeau-1971", "filter"),
        inc("year:1970-1975", "trudeau-1971", "filter"),
        inc("year:2010", "milliken-2010", "filter"),
        inc("year:2019..2020 racist", "singh-2020", "filter"),
        inc("year:2024 haka", "maipi-clarke-2024", "filter"),
        inc("year:2016 elbow", "trudeau-2016", "filter"),
        inc("year:2000-2015 privilege", "milliken-2010", "filter"),
        inc("kind:naming chamber:nz", "maipi-clarke-2024", "filter"),
        inc("kind:mace year:2018", "russell-moyle-2018", "filter"),
        inc("kind:privilege", "milliken-2010", "filter"),
        inc("kind:disorder", "trudeau-2016", "filter"),
        Case("kind:person bercow", None, DocumentKind.PERSON, key="john-bercow", topic="filter"),
        Case("kind:party labour chamber:nz", None, DocumentKind.PARTY, key="nz-labour-party", topic="filter"),
        # by what was said
        quote("it's true", "singh-2020", "true"),
        quote("called him a racist", "singh-2020", "called him a racist"),
        quote("got angry but im sad now", "singh-2020", "got angry"),
        quote("resume his seat", "bishop-2014", "resume his seat"),
        quote("madam speaker", "bishop-2014", "Madam Speaker."),
        quote("i seek leave to move", "bishop-2014", "seek leave"),
        quote("he didnt just get warned", "bishop-2014", "warned"),
        quote("paid with their lives", "butler-2021", "paid with their lives"),
        quote("calling out the lie", "butler-2021", "It’s funny"),
        quote("correct the record", "butler-2021", "correct the record"),
        quote("suspended for 20 minutes", "heseltine-1976", "suspended for 20"),
        quote("i deeply regret my action", "heseltine-1976", "Last night"),
        quote("dont do that", "maipi-clarke-2024", "do that"),
        quote("grossly disorderly", "maipi-clarke-2024", "Pre-meditated"),
        quote("the chair cannot but conclude", "milliken-2010", "Accordingly"),
        quote("he is an extremist", "poilievre-2024", "He is an extremist"),
        quote("the aforementioned adjective", "poilievre-2024", "aforementioned"),
        quote("acting in a disgraceful manner", "poilievre-2024", "disgraceful"),
        quote("standing order number 43", "russell-moyle-2018", "standing order"),
        quote("he must leave or be escorted", "russell-moyle-2018", "escorted"),
        quote("divide this nation", "skinner-2016", "divide this nation"),
        quote("the word beginning with d", "skinner-2016", "beginning with D"),
        quote("he mouthed two words", "trudeau-1971", "mouthed two words"),
        quote("started with f", "trudeau-1971", "started with F"),
        quote("oh you piece of shit", "trudeau-2011", "piece of shit"),
        quote("elbowed in the chest", "trudeau-2016", "elbowed in the chest"),
        quote("i missed the vote", "trudeau-2016", "missed the vote"),
        quote("talking to some colleagues", "trudeau-2016", "colleagues"),
        # rulings
        ruling("bercow brexit mace", "russell-moyle-2018"),
        ruling("brownlee named maipi clarke", "maipi-clarke-2024", "named"),
        ruling("cummins butler ordered out", "butler-2021", "leave"),
        ruling("rota singh", "singh-2020", "Anthony Rota"),
        ruling("carol hughes apologize", "singh-2020", "Carol Hughes"),
        ruling("bishop dreyfus named", "bishop-2014"),
        ruling("procedure and house affairs committee elbow", "trudeau-2016"),
        ruling("galpern suspended", "heseltine-1976", "Galpern"),
        # everything at once, as /search shows it
        anything("singh", DocumentKind.PERSON, "jagmeet-singh", "all kinds"),
        anything("sihng", DocumentKind.PERSON, "jagmeet-singh", "all kinds"),
        anything("poilievre wacko", DocumentKind.INCIDENT, "poilievre-2024", "all kinds"),
        anything("haka", DocumentKind.INCIDENT, "maipi-clarke-2024", "all kinds"),
        Case("isaacs", None, DocumentKind.QUOTE, incident="bishop-2014", contains="I name", topic="all"),
        anything("canavan", DocumentKind.PERSON, "dennis-canavan", "all kinds"),
        anything("sing red flag", DocumentKind.INCIDENT, "heseltine-1976", "all kinds"),
        anything("labour sing", DocumentKind.INCIDENT, "heseltine-1976", "all kinds"),
        anything("te pati maori", DocumentKind.PARTY, "te-pati-maori", "all kinds"),
        # in French: the French titles and summaries, French words for what happened, French questions
        inc("expulsion de singh", "singh-2020", "french"),
        inc("l'expulsion de Singh", "singh-2020", "french"),
        inc("qui a été expulsé pour avoir traité quelqu'un de raciste", "singh-2020", "french question"),
        inc("pourquoi singh a-t-il été expulsé", "singh-2020", "french question"),
        inc("rappel au règlement raciste", "singh-2020", "french"),
        inc("consentement unanime GRC", "singh-2020", "french"),
        inc("racisme systémique à la GRC", "singh-2020", "french"),
        inc("chef du NPD expulsé", "singh-2020", "french"),
        inc("député bloquiste traité de raciste", "singh-2020", "french"),
        inc("npd raciste", "singh-2020", "french"),
        inc("qui a saisi la masse en 1976", "heseltine-1976", "french question"),
        inc("la masse et le brexit", "russell-moyle-2018", "french"),
        inc("langage non parlementaire peter kent", "trudeau-2011", "french"),
        inc("excuses de trudeau à peter kent", "trudeau-2011", "french"),
        inc("retirer ses propos dodgy dave", "skinner-2016", "french"),
        inc("est-ce que poilievre a été expulsé", "poilievre-2024", "french question"),
        inc("qui a traité trudeau de wacko", "poilievre-2024", "french question"),
        inc("Président de la Chambre Fergus", "poilievre-2024", "french"),
        inc("Parti conservateur expulsé wacko", "poilievre-2024", "french"),
        inc('chamber:"chambre des communes" wacko', "poilievre-2024", "french"),
        inc("coup de coude à brosseau", "trudeau-2016", "french"),
        inc("détenus afghans", "milliken-2010", "french"),
        inc("question de privilège documents afghans", "milliken-2010", "french"),
        inc("motion de censure contre la présidente", "bishop-2014", "french"),
        inc("désignée par son nom après le haka", "maipi-clarke-2024", "french"),
        inc("séance suspendue haka", "maipi-clarke-2024", "french"),
        inc("qui a refusé de retirer ses propos sur boris johnson", "butler-2021", "french question"),
        inc("qui a menti à la chambre", "butler-2021", "french question"),
        inc("quand trudeau a-t-il dit fuddle duddle", "trudeau-1971", "french question"),
        party("Parti libéral", "liberal-party-of-canada", "french"),
        party("PLC", "liberal-party-of-canada", "french"),
        party("parti vert", "green-party-of-canada", "french"),
        ruling("rota a expulsé singh", "singh-2020", "Anthony Rota", "french"),
        ruling("la vice-présidente hughes demande des excuses", "singh-2020", "Carol Hughes", "french"),
    ),
)

FRENCH_CASES: tuple[Case, ...] = tuple(case for case in CASES if case.topic.startswith("french"))
"""The cases asked in French (and the French names of parties): each must find its entry first."""


def _typo(word: str) -> str:
    """A slip of the keyboard: two letters in the middle of ``word`` swapped."""
    middle = len(word) // 2
    return word[: middle - 1] + word[middle] + word[middle - 1] + word[middle + 1 :]


def _dropped(word: str) -> str:
    """A letter left out of the middle of ``word``."""
    middle = len(word) // 2
    return word[:middle] + word[middle + 1 :]


_QUESTIONS = {
    "refusal_to_withdraw": "who was kicked out for calling {target} a {word}",
    "naming": "who was named over the {topic}",
    "mace": "who grabbed the mace in the {topic} vote",
    "disorder": "who threw a {word} in parliament",
    "privilege": "what was the privilege ruling on the {topic} report",
    "unparliamentary_language": "who apologised for calling {target} a {word}",
    "suspension": "who got suspended after the {topic} walkout",
    "unanimous_consent": "who blocked the {topic} motion",
    "sitting_suspended": "when was the sitting suspended for the {topic} sit-in",
}


def _generated_cases(story: Generated) -> tuple[Case, ...]:
    """Queries against one generated incident, as people would type them."""
    surname = fold(story.who).split()[-1]
    target = story.target.split()[-1]
    fields = {"target": target, "word": story.word, "topic": story.topic}
    cases = [
        inc(_dropped(surname), story.slug, "generated: misspelt"),
        inc(surname[:5], story.slug, "generated: half-typed"),
        inc(story.topic, story.slug, "generated: topic"),
        inc(f"{story.country.lower()} {story.topic.split()[0]}", story.slug, "generated: country"),
        inc(_QUESTIONS[story.kind].format(**fields), story.slug, "generated: question"),
        inc(f"chamber:{story.country.lower()} year:{story.year} {surname}", story.slug, "generated: filter"),
        person(f"{fold(story.who).split()[0]} {_typo(surname)}", story.person, "generated: misspelt"),
    ]
    said = fold(story.quote).split()
    for part in (story.word, story.topic):
        piece = fold(part).split()
        if " ".join(piece) in " ".join(said):  # what was said, from two words before the telling one
            start = next(n for n in range(len(said)) if said[n : n + len(piece)] == piece)
            query = " ".join(said[max(0, start - 2) : start + len(piece)])
            cases.append(quote(query, story.slug, story.quote[:20], "generated: said"))
            break
    return tuple(cases)


# Queries against the generated dataset (tests/generated_dataset.py): other names, other countries.
GENERATED_CASES: tuple[Case, ...] = tuple(case for story in GENERATED for case in _generated_cases(story))

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
