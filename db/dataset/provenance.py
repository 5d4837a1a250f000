"""The provenance check: every quote and quoted fragment of a dataset, matched against its excerpts.

An excerpt file (``../shared/sources/*.txt``) holds ``SOURCE N`` sections, each with header lines
(``URL:``, ``Title:``, ``Publisher:``...) and the page's verbatim text between two ``---`` lines; a file
without sections is one page's text. A dataset source names its file (``excerpt``) and is mapped to
its section by URL, else by title or publisher. Only the verbatim text counts, never a header line.

A quote (``QuoteEntry.text``) must hold in its cited source's section:
- its pieces (split at the ``…``/``...`` the dataset writes where the source broke one remark with
  narration) appear in order, each inside words the source prints as someone's (between quotation
  marks, or a transcript turn), and between two pieces the source has only its own ``...`` or a short
  stretch of narration between quotation marks;
- each piece is at least ``PIECE_WORDS`` words or ``PIECE_CHARACTERS`` characters long, unless the
  quote is one short sentence (two words or more) that the source prints whole as a quote;
- the source names the speaker near the words (name, surname, alias, speaker label or the role the
  incident gives them), unless the quote marks its speaker as inferred (``speaker_inferred``, with a
  ``note`` saying how);
- ``translated`` only where the source says the words were said in another language, ``verbatim``
  never where it does.
A quoted fragment (between “…”, "..." or «…») in any other text field of an incident must appear, piece
by piece, in one of the incident's cited sources. A French text (``title_fr`` beside ``title``) says no
more than its English: no number the English lacks, and only words the English quotes, as printed. A
glossary term's definition quotes its source at least once, and each fragment it quotes is in that
source's section. Texts are compared with quotation marks, apostrophes, dashes and white space
normalised; nothing else is forgiven.

``check_file`` runs the structural part (``parse_dataset``, the same validation ``/import`` and
``parlbot db import`` run) and, given the excerpt folder, the provenance part.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from db.dataset.schema import (
    Dataset,
    DatasetError,
    IncidentEntry,
    PersonEntry,
    QuoteEntry,
    SourceEntry,
    TermEntry,
    parse_dataset,
)

SHARED_SOURCES = Path(__file__).resolve().parents[3] / "shared" / "sources"
"""Where the excerpt files live beside a checkout (``../shared/sources``)."""

PIECE_WORDS = 4
PIECE_CHARACTERS = 20
NARRATION_WORDS = 15  # the longest stretch of narration that may split one remark
LANGUAGES = (
    "French|English|Spanish|German|Italian|Portuguese|Dutch|Māori|Maori|te reo|Welsh|Gaelic|Irish"
    "|Cree|Inuktitut|Mohawk|Punjabi|Hindi|Mandarin|Cantonese|Arabic|Afrikaans|Zulu|Xhosa"
)
_LANGUAGE = re.compile(rf"\b(?:in|into|from) (?:{LANGUAGES})\b|\btranslat", re.IGNORECASE)
_HEADER = re.compile(r"^[A-Z][A-Za-z ]{1,30}:")
_FILE_HEADER = re.compile(r"^(?:SLUG|NOTE|URL|Title|Publisher|Licence|Date on page|Note|Verbatim text used):")
_TURN = re.compile(r"^([A-Z][A-Z .'-]{2,60}):\s")
_HANSARD_HEADING = re.compile(r"^(?:Mr|Mrs|Ms|Miss|Dr|Sir|Dame|Lord|Lady|The)\b\.?[^!?:\"]{0,100}$")
_SENTENCE_END = re.compile(r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)[.!?]\s")
_ELLIPSIS = re.compile(r"\s*\.\.\.\s*")
_FRAGMENT = re.compile(r"“([^“”]+)”|\"([^\"]+)\"|«\s*([^«»]+?)\s*»")
_NUMBER = re.compile(r"\d+")
FRENCH = "_fr"  # a field holding ``FIELD``'s text in French (``title_fr`` beside ``title``)
_WORD = re.compile(r"\w+(?:'\w+)*")
_TRIM = " \t\n,.;:!?-'\""
_OMITTED = "[...]"
_PRONOUN = re.compile(r"^(?:he|she|they|it|i|we)\b", re.IGNORECASE)
_SAID = re.compile(
    r"^(?:[@\w.'-]+ ){0,3}?(?:said|says|asked|shouted|yelled|replied|answered|added|told|responded"
    r"|retorted|hollered|declared|insisted|continued|explained|argued|stated)\b"
)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing the check found: the entry (``incident singh-2020``), the field, what is wrong."""

    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.entry} · {self.field}: {self.message}"


# --- texts -------------------------------------------------------------------------------------

_MARKS = str.maketrans(
    {
        **dict.fromkeys("“”„‟″«»", '"'),
        **dict.fromkeys("‘’‚‛′`", "'"),
        **dict.fromkeys("‐‑‒–—―−", "-"),
        "…": "...",
        "\u00a0": " ",
    }
)


def normalise(text: str) -> str:
    """Quotation marks, apostrophes, dashes and white space made uniform; every word kept as it is."""
    text = text.translate(_MARKS)
    text = re.sub(r"[ \t]*-[ \t]*(?=\S)", "-", re.sub(r"(?<=\S)[ \t]*-[ \t]*", "-", text))
    text = re.sub(r"[ \t]+", " ", text)
    return re.sub(r" ?\n ?", "\n", text)


def words(text: str) -> int:
    return len(_WORD.findall(text))


def pieces(text: str) -> list[str]:
    """A quoted text's pieces: split where the dataset writes an ellipsis."""
    return [piece for piece in _ELLIPSIS.split(normalise(text).strip()) if piece.strip()]


def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", normalise(text))
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def _names(text: str, terms: Sequence[str]) -> bool:
    """Whether ``text`` says one of ``terms`` as whole words (accents and case aside)."""
    folded = _folded(text)
    return any(
        re.search(rf"(?<!\w){re.escape(_folded(term))}(?!\w)", folded) for term in terms if term.strip()
    )


# --- excerpt files -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """Words the source prints as someone's: ``start``/``end`` in the section text, and for a
    transcript turn or a Hansard speech the speaker's heading (``label``)."""

    start: int
    end: int
    label: str | None = None


@dataclass(frozen=True)
class Section:
    """One source's part of an excerpt file: its header values and its verbatim text (normalised)."""

    name: str
    headers: dict[str, str]
    text: str
    paragraphs: tuple[tuple[int, int], ...] = ()
    spans: tuple[Span, ...] = ()

    @classmethod
    def of(cls, name: str, headers: dict[str, str], text: str) -> Section:
        text = normalise(text)
        paragraphs = tuple(
            (match.start(), match.end()) for match in re.finditer(r"[^\n]+(?:\n(?!\n)[^\n]+)*", text)
        )
        return cls(name, headers, text, paragraphs, tuple(_spans(text, paragraphs)))

    def paragraph_of(self, position: int) -> int:
        return next(n for n, (start, end) in enumerate(self.paragraphs) if start <= position <= end)


def _quote_spans(text: str, start: int, end: int) -> Iterator[Span]:
    """Spans between quotation marks in one paragraph; a quote left open runs to its end."""
    paragraph = text[start:end]
    doubles = [m.start() for m in re.finditer('"', paragraph)]
    for opening, closing in zip(doubles[::2], [*doubles[1::2], len(paragraph)], strict=False):
        yield Span(start + opening + 1, start + closing)
    openers = [m.start() for m in re.finditer(r"(?<![\w'])'(?=[\w\"])", paragraph)]
    closers = [m.start() for m in re.finditer(r"(?<=[\w.,!?\"])'(?![\w'])", paragraph)]
    for opening in openers:
        closing = next((c for c in closers if c > opening), len(paragraph))
        yield Span(start + opening + 1, start + closing)


def _spans(text: str, paragraphs: Sequence[tuple[int, int]]) -> Iterator[Span]:
    heading: str | None = None
    for start, end in paragraphs:
        paragraph = text[start:end]
        turn = _TURN.match(paragraph)
        if paragraph == _OMITTED:
            heading = None
        elif turn:
            yield Span(start + turn.end(), end, turn.group(1))
        elif _HANSARD_HEADING.match(paragraph) and words(paragraph) <= 12 and not paragraph.endswith("."):
            heading = paragraph
        elif heading is not None:
            yield Span(start, end, heading)
        yield from _quote_spans(text, start, end)


def parse_excerpt(name: str, content: str) -> list[Section]:
    """The sections of an excerpt file (one, the whole text, when it has no ``SOURCE`` sections)."""
    lines = content.splitlines()
    sections: list[Section] = []
    headers: dict[str, str] | None = None
    body: list[str] | None = None
    for line in lines:
        if line.startswith("SOURCE "):
            headers, body = {"SOURCE": line.removeprefix("SOURCE ").strip()}, None
        elif headers is not None and body is None and line.strip() == "---":
            body = []
        elif headers is not None and body is not None and line.strip() == "---":
            sections.append(Section.of(f"{name} SOURCE {headers['SOURCE']}", headers, "\n".join(body)))
            headers, body = None, None
        elif body is not None:
            body.append(line)
        elif headers is not None and (header := _HEADER.match(line)):
            headers[header.group(0)[:-1]] = line[header.end() :].strip()
    if not sections and not any(line.startswith("SOURCE ") for line in lines):
        text = "\n".join(line for line in lines if not _FILE_HEADER.match(line))
        sections.append(Section.of(name, {}, text))
    return sections


def _url_key(url: str, *, query: bool) -> str:
    url = re.sub(r"^https?://(www\.)?", "", url.strip()).rstrip("/")
    return url if query else url.split("?")[0].rstrip("/")


def _label_key(text: str) -> str:
    return _folded(text.split("(")[0]).strip(" /.")


class Excerpts:
    """The excerpt folder: each source's section, or why it has none."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[str, list[Section] | None] = {}

    def file(self, name: str) -> list[Section] | None:
        """The sections of the excerpt file ``name``, read once; None when there is no such file."""
        if name not in self._files:
            path = self.folder / name
            self._files[name] = (
                parse_excerpt(name, path.read_text(encoding="utf-8")) if path.is_file() else None
            )
        return self._files[name]

    def section(self, source: SourceEntry) -> Section | str:
        """``source``'s section, or a sentence saying why it cannot be found."""
        if source.excerpt is None:
            return "the source names no excerpt file, so nothing cited to it can be checked"
        sections = self.file(source.excerpt)
        if sections is None:
            return f"its excerpt file {source.excerpt!r} is not in {self.folder}"
        if len(sections) == 1 and "URL" not in sections[0].headers:
            return sections[0]
        for found in _mapped(source, sections):
            return found
        return (
            f"it cannot be mapped to a section of {source.excerpt} "
            "(no section has its URL, and none has its title or publisher alone)"
        )


def _mapped(source: SourceEntry, sections: Sequence[Section]) -> Iterator[Section]:
    """The section ``source`` is: same URL (with, then without, the query), else one same title or
    publisher."""
    for query in (True, False):
        if source.url is not None:
            key = _url_key(source.url, query=query)
            yield from (s for s in sections if _url_key(s.headers.get("URL", ""), query=query) == key)
    for header, value in (("Title", source.title), ("Publisher", source.publisher)):
        key = _label_key(value or "")
        if not key:  # "(headline not in stored excerpt)" names nothing
            continue
        alike = [s for s in sections if _label_key(s.headers.get(header, "")) == key]
        if len(alike) == 1:
            yield alike[0]


# --- matching pieces ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    """Where each piece of a quoted text was found in one section, and the innermost span holding
    each (None for a piece outside every span)."""

    places: tuple[tuple[int, int], ...]
    spans: tuple[Span | None, ...]


def _occurrences(text: str, piece: str) -> Iterator[tuple[int, int]]:
    before = r"(?<!\w)" if piece[:1].isalnum() else ""
    after = r"(?!\w)" if piece[-1:].isalnum() else ""
    for found in re.finditer(before + re.escape(piece) + after, text):
        yield found.start(), found.end()


def _bridged(gap: str) -> bool:
    """Whether the source's text between two pieces is its own ``...``, punctuation, or narration
    that breaks a remark (a closing quotation mark, a few words, an opening one)."""
    if "\n\n" in gap or _OMITTED in gap:
        return False
    if re.fullmatch(r"[\s,;:.!?-]*", gap) or re.fullmatch(r"[\s,;:.!?-]*\.\.\.[\s,;:.!?-]*", gap):
        return True
    narration = re.fullmatch(r"[\s,;:.!?-]*([\"'])([^\"]*)([\"'])\s*", gap)
    return narration is not None and 0 < words(narration.group(2)) <= NARRATION_WORDS


def _innermost(spans: Sequence[Span], start: int, end: int) -> Span | None:
    holding = [span for span in spans if span.start <= start and end <= span.end]
    return min(holding, key=lambda span: span.end - span.start, default=None)


def find(section: Section, parts: Sequence[str], *, spoken: bool) -> Match | None:
    """The first placing of ``parts`` in order with only bridges between them (each inside a span of
    someone's words when ``spoken``), or None."""

    def place(index: int, after: int) -> list[tuple[int, int]] | None:
        if index == len(parts):
            return []
        for start, end in _occurrences(section.text, parts[index]):
            if start < after or (index and not _bridged(section.text[after:start])):
                continue
            if spoken and _innermost(section.spans, start, end) is None:
                continue
            rest = place(index + 1, end)
            if rest is not None:
                return [(start, end), *rest]
        return None

    places = place(0, 0)
    if places is None:
        return None
    return Match(tuple(places), tuple(_innermost(section.spans, *place) for place in places))


def printed_whole(section: Section, piece: str) -> bool:
    """Whether the source prints ``piece`` as all the words of one quote (or transcript turn)."""
    wanted = piece.strip(_TRIM)
    return any(section.text[span.start : span.end].strip(_TRIM) == wanted for span in section.spans)


def _short(parts: Sequence[str]) -> list[str]:
    return [p for p in parts if words(p) < PIECE_WORDS and len(p.strip(_TRIM)) < PIECE_CHARACTERS]


# --- who said it ----------------------------------------------------------------------------------


def _pronoun_clause(narration: str, which: int) -> str:
    """``narration``, or only its clause next to the quote (``which``: 0 first, -1 last) when that
    clause's subject is a pronoun (``…, as Harper sat by, he said:``): whoever it stands for is named
    elsewhere, not by the other names in the sentence."""
    clause = re.split(r"[,;]\s", narration)[which]
    return clause if _PRONOUN.match(clause.strip()) else narration


def _narration(section: Section, span: Span) -> str:
    """The narration that says who spoke ``span``: the clause of its sentence just before it (``Singh
    said:``) and, when the quote does not end its sentence, the clause just after (``, Singh said``)."""
    if span.label is not None:
        return span.label
    first, last = section.paragraphs[section.paragraph_of(span.start)]
    text = section.text
    earlier = [s.end + 1 for s in section.spans if first <= s.end < span.start - 1]
    ends = [m.end() for m in _SENTENCE_END.finditer(text, first, max(first, span.start - 1))]
    begin = max([first, *earlier, *ends])
    before = _pronoun_clause(text[begin : max(begin, span.start - 1)].rstrip(_TRIM), -1)
    later = [s.start - 1 for s in section.spans if span.end + 1 < s.start <= last]
    stop = _SENTENCE_END.search(text, span.end + 1, last)
    finish = min([last, *later, *([stop.end()] if stop else [])])
    after = _pronoun_clause(text[span.end + 1 : finish].strip(_TRIM), 0)
    ended = text[span.start : span.end].rstrip("\"' ").endswith((".", "!", "?"))
    return before if ended and not _SAID.match(after) else f"{before} {after}"


def _attributions(section: Section, span: Span) -> Iterator[tuple[str, bool]]:
    """The narration that may say who spoke ``span``, nearest first, each marked whether it is an
    attribution (True) or only a paragraph that may mention the speaker: its own sentence's, that of
    the spans before it in its paragraph, then in the paragraph before (and further back while a
    quote runs on across paragraphs), then that paragraph's text."""
    yield _narration(section, span), True
    own = section.paragraph_of(span.start)
    for n in range(own, -1, -1):
        first, last = section.paragraphs[n]
        if section.text[first:last] == _OMITTED:
            return
        earlier = [s for s in section.spans if first <= s.start <= last and s.end < span.start]
        for other in sorted(earlier, key=lambda s: s.start, reverse=True):
            yield _narration(section, other), True
        if n != own:
            yield section.text[first:last], False
            if not section.text[first:last].startswith(('"', "'")):
                return


@dataclass(frozen=True)
class Cast:
    """The people of one incident: the words a source may name each by (name first, then aliases and
    surname), and the roles the incident gives them (the part before any ``;``, ``(`` or ``,``)."""

    terms: dict[str, list[str]]
    roles: dict[str, list[str]]

    @classmethod
    def of(cls, incident: IncidentEntry, people: dict[str, PersonEntry]) -> Cast:
        slugs = [p.person for p in incident.participants] + [q.speaker for q in incident.quotes if q.speaker]
        slugs += [r.ruled_by for r in incident.rulings if r.ruled_by]
        slugs += [m.moved_by for m in incident.motions if m.moved_by]
        terms: dict[str, list[str]] = {}
        roles: dict[str, list[str]] = {}
        for slug in dict.fromkeys(slugs):
            person = people.get(slug)
            if person is not None:
                surname = person.name.split()[-1]
                terms[slug] = [person.name, *person.aliases, *([surname] if len(surname) > 2 else [])]
                roles[slug] = [
                    re.split(r"[;(,]", p.role)[0].strip() for p in incident.participants if p.person == slug
                ]
        return cls(terms, roles)

    def speaker(self, quote: QuoteEntry) -> list[str]:
        """Everything that names ``quote``'s speaker: name, aliases, surname, role, speaker label."""
        slug = quote.speaker or ""
        return [*self.terms.get(slug, []), *self.roles.get(slug, []), quote.speaker_label]

    def named(self, text: str) -> list[str]:
        """The names of the people ``text`` names: by name, alias or surname, or by role with ``the``
        (``the Speaker replied``; ``a Bloc MP`` names no one)."""
        return [
            terms[0]
            for slug, terms in self.terms.items()
            if _names(text, terms) or _names(text, [f"the {role}" for role in self.roles[slug]])
        ]


def attribution(section: Section, span: Span, terms: Sequence[str], cast: Cast) -> tuple[str, list[str]]:
    """The narration that decides who spoke ``span``, and whom it names instead (empty when one of
    the speaker's ``terms`` is there); ``("", [])`` when nothing near the words names anyone. A
    transcript turn's or a Hansard speech's heading decides alone."""
    if span.label is not None:
        return span.label, [] if _names(span.label, terms) else [span.label]
    for narration, attributes in _attributions(section, span):
        if _names(narration, terms):
            return narration, []
        others = cast.named(narration) if attributes and not _PRONOUN.match(narration.strip()) else []
        if others:
            return narration, others
    return "", []


# --- the checks ---------------------------------------------------------------------------------


_NOT_NAMED = (
    "the source does not name {speaker} near these words "
    "(if the speaker is known otherwise: speaker_inferred, and a note saying how)"
)
_GIVEN_TO = "the source gives these words to {names}, not {speaker}"
_NOT_TRANSLATED = "translated, but the source does not say another language was spoken"
_NOT_VERBATIM = "verbatim, but the source says the words were said in another language"
_NOWHERE = "“{fragment}” is not in {where}"
_UNQUOTED = "quotes nothing from {key}: a definition shows the words of the source that states the meaning"


@dataclass
class _Checker:
    """One dataset checked against one excerpt folder; ``problems`` grows in dataset order."""

    dataset: Dataset
    excerpts: Excerpts
    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sources = {source.key: source for source in self.dataset.sources}
        self.people = {person.slug: person for person in self.dataset.people}

    def run(self) -> list[Problem]:
        cited = sorted(
            {key for incident in self.dataset.incidents for key in incident.sources}
            | {term.source for term in self.dataset.terms}
        )
        for key in cited:
            found = self.excerpts.section(self.sources[key])
            if isinstance(found, str):
                self.problems.append(Problem(f"source {key}", "excerpt", found))
            else:
                self.fragments(f"source {key}", self.sources[key], [found], "its own section")
        for incident in self.dataset.incidents:
            cast = Cast.of(incident, self.people)
            for n, quote in enumerate(incident.quotes):
                self.quote(incident, cast, f"quotes[{n}]", quote)
            sections = [self.excerpts.section(self.sources[key]) for key in incident.sources]
            readable = [section for section in sections if isinstance(section, Section)]
            if len(readable) == len(sections):  # else what the unreadable ones hold is unknown
                where = "any of the incident's cited sources"
                self.fragments(f"incident {incident.slug}", incident, readable, where)
            self.translations(incident)
        for term in self.dataset.terms:
            self.term(term)
        return self.problems

    def term(self, term: TermEntry) -> None:
        """A term's definition quotes the source that states its meaning, and every fragment it quotes
        is in that source's section."""
        found = self.excerpts.section(self.sources[term.source])
        if not isinstance(found, Section):
            return  # the source itself is reported unreadable
        if not any(_FRAGMENT.finditer(term.definition)):
            self.problems.append(
                Problem(f"term {term.slug}", "definition", _UNQUOTED.format(key=term.source))
            )
        self.fragments(f"term {term.slug}", term, [found], f"its source {term.source}")

    def problem(self, incident: IncidentEntry, where: str, message: str) -> None:
        self.problems.append(Problem(f"incident {incident.slug}", where, message))

    def fragments(self, entry: str, model: BaseModel, sections: list[Section], where: str) -> None:
        """Each quoted fragment in ``model``'s text fields, found in one of ``sections``."""
        for path, text in text_fields(model):
            for found in _FRAGMENT.finditer(text):
                problem = fragment_problem(_quoted(found), sections, where)
                if problem is not None:
                    self.problems.append(Problem(entry, path, problem))

    def translations(self, incident: IncidentEntry) -> None:
        """Each French text says no more than its English: no number and no quoted words it lacks."""
        for path, problem in translation_problems(incident):
            self.problem(incident, path, problem)

    def quote(self, incident: IncidentEntry, cast: Cast, at: str, quote: QuoteEntry) -> None:
        section = self.excerpts.section(self.sources[quote.source])
        if isinstance(section, str):
            return  # said once, for the source
        parts = pieces(quote.text)
        match = find(section, parts, spoken=True)
        spans = [span for span in match.spans if span is not None] if match else []
        if match is None or len(spans) < len(parts):
            self.problem(incident, f"{at}.text", _not_found(section, parts, quote.source))
            return
        short = [p for p in _short(parts) if words(p) < 2 or not printed_whole(section, p)]
        if short:
            self.problem(incident, f"{at}.text", _too_short(short))
        said = [attribution(section, span, cast.speaker(quote), cast) for span in spans]
        narration = " ".join(narration for narration, _ in said)
        if not (quote.speaker_inferred and quote.note):
            others = next((names for _, names in said if names), [])
            speaker = quote.speaker_label
            if others:
                names = " and ".join(others)
                self.problem(incident, f"{at}.speaker", _GIVEN_TO.format(names=names, speaker=speaker))
            elif not said[0][0]:
                self.problem(incident, f"{at}.speaker", _NOT_NAMED.format(speaker=speaker))
        other_language = bool(_LANGUAGE.search(narration))
        if quote.delivery == "translated" and not other_language:
            self.problem(incident, f"{at}.delivery", _NOT_TRANSLATED)
        elif quote.delivery == "verbatim" and other_language:
            self.problem(incident, f"{at}.delivery", _NOT_VERBATIM)


def fragment_problem(fragment: str, sections: Sequence[Section], where: str) -> str | None:
    """What is wrong with a quoted fragment (between quotation marks in a text field), or None when
    its pieces are in order in one of ``sections`` (named ``where``), each long enough or printed
    whole as a quote."""
    parts = pieces(fragment)
    if not parts:
        return None
    matches = [s for s in sections if find(s, parts, spoken=False) is not None]
    if not matches and parts[0][:1].isupper():  # a fragment may open with a capital
        parts[0] = parts[0][:1].lower() + parts[0][1:]
        matches = [s for s in sections if find(s, parts, spoken=False) is not None]
    if not matches:
        return _NOWHERE.format(fragment=_clip(fragment), where=where)
    short = [p for p in _short(parts) if not any(printed_whole(s, p) for s in matches)]
    return _too_short(short) if short else None


def _quoted(found: re.Match[str]) -> str:
    return next(group for group in found.groups() if group is not None)


def translation_problems(model: BaseModel) -> Iterator[tuple[str, str]]:
    """Where a French text under ``model`` (``summary_fr``) says what its English (``summary``) does
    not: a number, or words quoted from a source (which stay as printed, never translated)."""
    texts = dict(text_fields(model))
    for path, french in texts.items():
        english = texts.get(path.removesuffix(FRENCH)) if path.endswith(FRENCH) else None
        if english is None:
            continue
        numbers = sorted(set(_NUMBER.findall(french)) - set(_NUMBER.findall(english)), key=int)
        if numbers:
            yield path, f"says {', '.join(numbers)}, which its English does not"
        quoted = normalise(english)
        for found in _FRAGMENT.finditer(french):
            if normalise(_quoted(found)) not in quoted:
                yield path, f"quotes “{_clip(_quoted(found))}”, which its English does not quote"


def text_fields(model: BaseModel, at: str = "") -> Iterator[tuple[str, str]]:
    """Every text field under ``model`` with its path, whatever fields the models have; a quote's own
    ``text`` is left out (it is checked as a quote)."""
    for name in [*type(model).model_fields, *(model.model_extra or {})]:
        value = getattr(model, name, None)
        path = f"{at}.{name}" if at else name
        if isinstance(model, QuoteEntry) and name == "text":
            continue
        yield from _values(value, path)


def _values(value: object, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, BaseModel):
        yield from text_fields(value, path)
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _values(item, f"{path}[{n}]")


def _clip(text: str, length: int = 60) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


def _too_short(short: Sequence[str]) -> str:
    listed = ", ".join(f"“{piece}”" for piece in short)
    return (
        f"{listed}: too short to check (a piece needs {PIECE_WORDS} words or {PIECE_CHARACTERS} "
        "characters, unless the whole quote is a sentence the source prints as a quote)"
    )


def _not_found(section: Section, parts: Sequence[str], key: str) -> str:
    """Why a quote's pieces do not hold in its source's section, as precisely as can be said."""
    missing = [p for p in parts if next(_occurrences(section.text, p), None) is None]
    if missing:
        return f"“{_clip(missing[0])}” is not in the text of {key} ({section.name})"
    if find(section, parts[:1], spoken=True) is None and len(parts) == 1:
        return f"{key} prints these words as narration, not as anyone's words"
    if find(section, parts, spoken=False) is None:
        return (
            f"its pieces are not one remark in {key}: out of order, or joined across words the source "
            "does not mark as narration or its own '...'"
        )
    return f"{key} prints some of these words as narration, not as anyone's words"


# --- whole files ----------------------------------------------------------------------------------


def _entry_name(document: object, path: str) -> tuple[str, str]:
    """``("incident singh-2020", "quotes[0].speaker")`` for ``incidents[3].quotes[0].speaker``."""
    found = re.match(r"(chambers|parties|people|sources|incidents)\[(\d+)\]\.?", path)
    if found is None:
        return "file", path or "(whole file)"
    section, index = found.group(1), int(found.group(2))
    entries = document.get(section) if isinstance(document, dict) else None
    entry = entries[index] if isinstance(entries, list) and index < len(entries) else None
    key = entry.get("slug", entry.get("key")) if isinstance(entry, dict) else None
    kind = {"people": "person", "parties": "party", "incidents": "incident"}.get(section, section[:-1])
    return f"{kind} {key or f'#{index}'}", path[found.end() :] or "(entry)"


def structural_problems(document: object) -> tuple[Dataset | None, list[Problem]]:
    """The dataset ``parse_dataset`` makes of ``document``, or None with every problem it found."""
    try:
        return parse_dataset(document), []
    except DatasetError as error:
        return None, [Problem(*_entry_name(document, p.path), p.message) for p in error.problems]


def check_dataset(dataset: Dataset, sources: Path) -> list[Problem]:
    """Every provenance problem of a (structurally valid) dataset against the excerpts in ``sources``."""
    return _Checker(dataset, Excerpts(sources)).run()


def check_file(path: Path, sources: Path | None = None) -> list[Problem]:
    """Every problem of the dataset file at ``path``: structural, then (given ``sources``) provenance."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return [Problem("file", str(path), f"cannot be read as JSON: {error}")]
    dataset, problems = structural_problems(document)
    if dataset is None or sources is None:
        return problems
    return check_dataset(dataset, sources)


__all__ = [
    "SHARED_SOURCES",
    "Excerpts",
    "Problem",
    "Section",
    "check_dataset",
    "check_file",
    "normalise",
    "parse_excerpt",
    "pieces",
    "structural_problems",
    "text_fields",
    "translation_problems",
]
