"""The moderators' forms, without Discord: what each /add, /edit, /remove and /suggest command asks for,
and how its answers become one change to one dataset entry (``bot.curation``).

A ``Form`` describes one subject (incident, participant, quote, ruling, motion, position, person,
party, source, alias): its ``Field`` s, with their limits from ``db.models``, and which long texts a
modal carries.
``plan`` turns the values a moderator gave (option values, or a submitted modal) into a ``Plan``: the
entry to change, the ``bot.curation.Change`` to make, and our words for it ("added a quote by Jagmeet
Singh to singh-2020"). Participants, quotes, rulings, motions and positions are numbered from 1, as a
moderator sees them; ``bot.entries`` numbers them from 0.

``prepare``, ``write`` and ``prefill`` are the use cases the cogs run in a thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any, Protocol, TypeVar

from bot.curation import changes, entries
from bot.curation.changes import Actor, Change
from bot.errors import InvalidInput, NotFound, ParlbotError
from bot.search.text import fold
from db.dataset.schema import (
    ABBREVIATION_MAX,
    Entry,
    IncidentEntry,
    MotionEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    PositionEntry,
    QuoteEntry,
    RulingEntry,
)
from db.models import (
    LABEL_MAX,
    NAME_MAX,
    SLUG_MAX,
    TEXT_MAX,
    TITLE_MAX,
    URL_MAX,
    Attribution,
    AuditAction,
    AuditEntry,
    Delivery,
    EntityKind,
    IncidentKind,
    MotionResult,
    Procedure,
    RulingOutcome,
    Stance,
    Suggestion,
)

__all__ = [
    "ALIAS_MAX",
    "FORMS",
    "REFERENCE_MAX",
    "Field",
    "Form",
    "Input",
    "Plan",
    "Ref",
    "Verb",
    "alias_choices",
    "clean",
    "item_label",
    "items_of",
    "key_choices",
    "long_texts",
    "modal_changes",
    "needs_modal",
    "number_choices",
    "numbered_choices",
    "plan",
    "prefill",
    "prepare",
    "submit",
    "write",
]

DATE_LENGTH = 10  # YYYY-MM-DD
REFERENCE_MAX = SLUG_MAX  # a slug or source key typed as an option
ALIAS_MAX = NAME_MAX
MODAL_FIELDS = 5  # Discord's limit on a modal's components


class Verb(StrEnum):
    ADD = "add"
    EDIT = "edit"
    REMOVE = "remove"


class Input(StrEnum):
    """How a field is given: typed text, a long text (a modal's paragraph), or a reference."""

    TEXT = "text"
    LONG = "long"
    DATE = "date"
    VOCABULARY = "vocabulary"
    PERSON = "person"
    PARTY = "party"
    SOURCE = "source"
    CHAMBER = "chamber"


REFERENCE_KINDS = {
    Input.PERSON: EntityKind.PERSON,
    Input.PARTY: EntityKind.PARTY,
    Input.SOURCE: EntityKind.SOURCE,
    Input.CHAMBER: EntityKind.CHAMBER,
}


@dataclass(frozen=True, slots=True)
class Field:
    """One dataset field as a command option (and maybe a modal field)."""

    name: str
    description: str
    input: Input = Input.TEXT
    max_length: int = LABEL_MAX
    required: bool = False  # on add, Discord asks for it
    vocabulary: type[StrEnum] | None = None
    named_from: tuple[str, ...] = ()  # reference fields whose entry's name fills this field when left out
    default: str | None = None  # on add, when left out
    editable: bool = True

    @property
    def label(self) -> str:
        """The field's name as a modal shows it."""
        return self.name.replace("_", " ").capitalize()


class Part(StrEnum):
    """Where in the dataset a form writes."""

    ENTRY = "entry"  # a top-level entry (incident, person, party, source)
    ITEM = "item"  # a participant, quote, ruling or motion of an incident
    POSITION = "position"  # a position on a motion of an incident
    ALIAS = "alias"  # an alias of an incident, person or party


@dataclass(frozen=True, slots=True)
class Form:
    subject: str  # the subcommand's name
    kind: EntityKind  # the top-level entry it writes
    part: Part
    fields: tuple[Field, ...]
    modal: tuple[str, ...] = ()  # the fields a modal carries, at most five
    opens_modal: str | None = None  # on add, leaving this long text out opens the modal
    key_field: str = "slug"  # on add of an entry: the field that names it
    who: str | None = None  # the field naming who said, ruled, moved or took it (for summaries)
    added: str = "a {subject} by {who}"  # how a summary names an added part and its ``who``

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def fields_for(self, verb: Verb) -> tuple[Field, ...]:
        if verb is Verb.REMOVE:
            return ()
        return tuple(f for f in self.fields if verb is Verb.ADD or (f.editable and f.name != self.key_field))

    def describe(self, spec: Field, verb: Verb) -> str:
        """The field's description as an option of the ``verb``'s command."""
        opens = verb is Verb.ADD and spec.name == self.opens_modal
        return spec.description + (" (left out: a form opens)" if opens else "")

    @property
    def modal_fields(self) -> tuple[Field, ...]:
        return tuple(self.field(name) for name in self.modal)


def _vocabulary(name: str, description: str, enum: type[StrEnum], **more: Any) -> Field:
    return Field(name, description, Input.VOCABULARY, max_length=32, vocabulary=enum, **more)


def _source(description: str = "Source key (autocompleted)") -> Field:
    return Field("source", description, Input.SOURCE, max_length=SLUG_MAX)


SLUG = Field("slug", "Short id: lower-case words and hyphens", max_length=SLUG_MAX, required=True)

FORMS: dict[str, Form] = {
    form.subject: form
    for form in (
        Form(
            "incident",
            EntityKind.INCIDENT,
            Part.ENTRY,
            (
                Field("slug", "Short id, <surname>-<year>", max_length=SLUG_MAX, required=True),
                Field("title", "One descriptive line", max_length=TITLE_MAX, required=True),
                Field("date", "Sitting day, YYYY-MM-DD", Input.DATE, DATE_LENGTH, required=True),
                Field("chamber", "Chamber", Input.CHAMBER, SLUG_MAX, required=True),
                _vocabulary("kind", "What it is chiefly about", IncidentKind, required=True),
                Field("source", "Main source", Input.SOURCE, SLUG_MAX, required=True, editable=False),
                Field("summary", "In your own words", Input.LONG, TEXT_MAX),
                Field("notes", "Where sources disagree", Input.LONG, TEXT_MAX),
            ),
            modal=("title", "summary", "notes"),
            opens_modal="summary",
        ),
        Form(
            "participant",
            EntityKind.INCIDENT,
            Part.ITEM,
            (
                Field("person", "Who", Input.PERSON, SLUG_MAX, required=True),
                Field("role", "Their role then, as the source words it", required=True),
                Field("party", "Their party then", Input.PARTY, SLUG_MAX),
                Field("party_label", "Their party, as the source words it"),
            ),
            modal=("role", "party_label"),
            who="person",
            added="{who} as a {subject}",
        ),
        Form(
            "quote",
            EntityKind.INCIDENT,
            Part.ITEM,
            (
                Field("text", "Exactly as printed", Input.LONG, TEXT_MAX),
                Field("speaker", "Who said it", Input.PERSON, SLUG_MAX),
                Field("speaker_label", "Speaker as the source names them", named_from=("speaker",)),
                _source(),
                _vocabulary("delivery", "How the wording reached us", Delivery, default=Delivery.VERBATIM),
                Field("said_to", "Said to whom"),
                Field("context", "When, and how the words reached us", Input.LONG, TEXT_MAX),
            ),
            modal=("text", "speaker_label", "said_to", "context"),
            opens_modal="text",
            who="speaker_label",
        ),
        Form(
            "ruling",
            EntityKind.INCIDENT,
            Part.ITEM,
            (
                _vocabulary("outcome", "The sanction", RulingOutcome, required=True),
                Field("summary", "In your own words", Input.LONG, TEXT_MAX),
                Field("ruled_by", "Who ruled", Input.PERSON, SLUG_MAX),
                Field("ruled_by_label", "Who ruled, as the source words it", named_from=("ruled_by",)),
                Field("role", "The chair's office"),
                _source(),
            ),
            modal=("summary", "ruled_by_label", "role"),
            opens_modal="summary",
            who="ruled_by_label",
        ),
        Form(
            "motion",
            EntityKind.INCIDENT,
            Part.ITEM,
            (
                _vocabulary("procedure", "How it was brought", Procedure, required=True),
                _vocabulary("result", "What became of it", MotionResult, required=True),
                Field("text", "Its words", Input.LONG, TEXT_MAX),
                Field("moved_by", "Who moved it", Input.PERSON, SLUG_MAX),
                Field("moved_by_label", "Mover, when not a person"),
                Field("result_detail", "Counts, and who reports them", max_length=TEXT_MAX),
                _source(),
            ),
            modal=("text", "moved_by_label", "result_detail"),
            opens_modal="text",
            who="moved_by_label",
        ),
        Form(
            "position",
            EntityKind.INCIDENT,
            Part.POSITION,
            (
                _vocabulary("stance", "Their position", Stance, required=True),
                _vocabulary("attribution", "How it is known", Attribution, required=True),
                Field("person", "Who", Input.PERSON, SLUG_MAX),
                Field("party", "Their party", Input.PARTY, SLUG_MAX),
                Field("label", "Who, as shown (default: the name)", named_from=("person", "party")),
                _source(),
                Field("detail", "The source's words behind it", Input.LONG, TEXT_MAX),
            ),
            modal=("label", "detail"),
            who="label",
        ),
        Form(
            "person",
            EntityKind.PERSON,
            Part.ENTRY,
            (
                SLUG,
                Field("name", "As the sources print it", max_length=NAME_MAX, required=True),
                Field("party", "Party, when a source states it", Input.PARTY, SLUG_MAX),
            ),
            modal=("name",),
        ),
        Form(
            "party",
            EntityKind.PARTY,
            Part.ENTRY,
            (
                SLUG,
                Field("name", "Name", max_length=NAME_MAX, required=True),
                Field("country", "Country", max_length=NAME_MAX, required=True),
                Field("abbreviation", "e.g. NDP", max_length=ABBREVIATION_MAX),
                Field("name_fr", "French name", max_length=NAME_MAX),
                Field("abbreviation_fr", "e.g. NPD", max_length=ABBREVIATION_MAX),
            ),
            modal=("name", "country", "abbreviation", "name_fr", "abbreviation_fr"),
        ),
        Form(
            "source",
            EntityKind.SOURCE,
            Part.ENTRY,
            (
                Field("key", "Short id, <incident>-<publisher>", max_length=SLUG_MAX, required=True),
                Field("publisher", "Publisher", max_length=NAME_MAX, required=True),
                Field("url", "Web address", max_length=URL_MAX),
                Field("title", "Headline as printed"),
                Field("published", "Date the page shows, YYYY-MM-DD", Input.DATE, DATE_LENGTH),
                Field("licence", "As stated", max_length=NAME_MAX),
            ),
            modal=("publisher", "url", "title", "licence"),
            key_field="key",
        ),
        Form(
            "alias",
            EntityKind.INCIDENT,  # or a person or party: the ``target`` option says which
            Part.ALIAS,
            # Edits and removals name the alias in their own options (``alias``, ``new``).
            (Field("alias", "The other name", max_length=NAME_MAX, required=True, editable=False),),
        ),
    )
}
assert all(len(form.modal) <= MODAL_FIELDS for form in FORMS.values())


@dataclass(frozen=True, slots=True)
class Ref:
    """A top-level entry, written ``kind:key`` in option values (``person:jagmeet-singh``)."""

    kind: EntityKind
    key: str

    @classmethod
    def parse(cls, text: str, default: EntityKind | None = None) -> Ref:
        kind, sep, key = text.strip().partition(":")
        if sep and kind in set(EntityKind):
            return cls(EntityKind(kind), key.strip())
        if default is None:
            raise InvalidInput(f"“{text}” is not an entry; pick one of the suggestions.")
        return cls(default, text.strip())

    def __str__(self) -> str:
        return f"{self.kind}:{self.key}"


@dataclass(frozen=True, slots=True)
class Plan:
    """One change, ready for ``bot.curation``: ``change`` is None for removing a whole entry."""

    kind: EntityKind
    key: str
    action: AuditAction
    change: Change | None
    what: str  # what is changed, in words: "quote 2 of singh-2020 (“I will not.” — Jagmeet Singh)"
    summary: str  # the audit's words: "removed quote 2 of singh-2020 (…)"


Item = ParticipantEntry | QuoteEntry | RulingEntry | MotionEntry | PositionEntry
"""A numbered part of an incident: a participant, quote, ruling or motion, or a position on a motion."""
_Numbered = TypeVar("_Numbered", MotionEntry, Item)

EntryLookup = Callable[[EntityKind, str], Entry | None]
"""The entry a guild sees by kind and key (None when it sees none)."""


class Library(Protocol):
    """What the use cases below need of ``bot.library.Library`` (which imports this module)."""

    def visible_entry(self, *, guild_id: int, kind: EntityKind, key: str) -> Entry | None: ...

    def revision(self, *, guild_id: int, kind: EntityKind, key: str) -> int: ...

    def visible_keys(self, *, guild_id: int | None, kind: EntityKind) -> list[str]: ...

    def apply(
        self,
        *,
        actor: Actor,
        kind: EntityKind,
        key: str,
        change: Change,
        summary: str,
        action: AuditAction = ...,
        expected_revision: int | None = ...,
    ) -> AuditEntry: ...

    def remove(
        self, *, actor: Actor, kind: EntityKind, key: str, expected_revision: int | None = ...
    ) -> AuditEntry: ...

    def suggest(
        self,
        *,
        actor: Actor,
        kind: EntityKind,
        key: str,
        change: Change,
        summary: str,
        action: AuditAction = ...,
    ) -> Suggestion: ...


# -- values -------------------------------------------------------------------------------------------


def clean(values: Mapping[str, Any]) -> dict[str, Any]:
    """The values given, text trimmed. An empty text (from a modal) means "clear this field" in an edit."""
    return {
        name: value.strip() if isinstance(value, str) else value
        for name, value in values.items()
        if value is not None
    }


def _given(values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in clean(values).items() if value != ""}


def _name(lookup: EntryLookup, form: Form, reference: str, data: Mapping[str, Any]) -> str | None:
    """The name of the person or party the ``reference`` field names.

    An unknown slug stands in for its name, so that the write is refused for the unknown reference
    (with close slugs to choose from) rather than for a missing label.
    """
    slug = data.get(reference)
    if slug is None:
        return None
    entry = lookup(REFERENCE_KINDS[form.field(reference).input], str(slug))
    return entry.name if isinstance(entry, PersonEntry | PartyEntry) else str(slug)


def _data(form: Form, verb: Verb, values: Mapping[str, Any], lookup: EntryLookup) -> dict[str, Any]:
    """The dataset fields the values give; on add, with defaults and names of the people referred to."""
    if verb is not Verb.ADD:
        fields = form.fields_for(verb)
        return {spec.name: values[spec.name] or None for spec in fields if spec.name in values}
    data = {spec.name: values[spec.name] for spec in form.fields if spec.name in values}
    for spec in form.fields:
        names = (_name(lookup, form, reference, data) for reference in spec.named_from)
        filled = next((name for name in names if name), spec.default)
        if spec.name not in data and filled is not None:
            data[spec.name] = filled
    return data


def needs_modal(form: Form, verb: Verb, values: Mapping[str, Any]) -> bool:
    """Whether the command opens a modal: an add without its long text, an edit that names no change."""
    given = _given(values)
    if verb is Verb.ADD:
        return form.opens_modal is not None and form.opens_modal not in given
    fields = form.fields_for(verb)
    return verb is Verb.EDIT and bool(form.modal) and not any(spec.name in given for spec in fields)


def modal_changes(submitted: Mapping[str, str], shown: Mapping[str, str]) -> dict[str, Any]:
    """What an edit modal changes: the fields whose text differs from what it showed ("" clears one)."""
    return {
        name: text.strip() for name, text in submitted.items() if text.strip() != shown.get(name, "").strip()
    }


def long_texts(form: Form, values: Mapping[str, Any]) -> dict[str, str]:
    """The long texts among ``values`` by label, to hand back when a write fails so nothing is lost."""
    return {
        spec.label: str(values[spec.name])
        for spec in form.fields
        if spec.input is Input.LONG and values.get(spec.name)
    }


# -- numbered parts of an incident ----------------------------------------------------------------------


def _numbered(items: Sequence[_Numbered], number: int | None, what: str, owner: str) -> _Numbered:
    """The item numbered ``number`` (from 1), or a message saying which numbers there are."""
    if number is None:
        raise InvalidInput(f"Please give the number of the {what} (start typing to see them).")
    if not items:
        raise NotFound(f"{owner} has no {what} yet.")
    if not 1 <= number <= len(items):
        raise InvalidInput(f"{owner} has no {what} {number}: pick a number from 1 to {len(items)}.")
    return items[number - 1]


def items_of(form: Form, incident: IncidentEntry, motion: int | None) -> Sequence[Item]:
    """The participants, quotes, rulings or motions of the incident, or the positions on its ``motion``."""
    if form.part is Part.POSITION:
        return _numbered(incident.motions, motion, "motion", f"`{incident.slug}`").positions
    lists: dict[str, Sequence[Item]] = {
        "participant": incident.participants,
        "quote": incident.quotes,
        "ruling": incident.rulings,
        "motion": incident.motions,
    }
    return lists[form.subject]


def item_label(item: Item) -> str:
    """A participant, quote, ruling, motion or position in a few words."""
    if isinstance(item, ParticipantEntry):
        return f"{item.person}: {item.role}"
    if isinstance(item, QuoteEntry):
        return f"“{item.text}” — {item.speaker_label}"
    if isinstance(item, RulingEntry):
        return f"{item.ruled_by_label}: {_words(item.outcome)}"
    if isinstance(item, MotionEntry):
        return f"Motion: {item.text}"
    return f"{item.label}: {_words(item.stance)}"


def numbered_choices(items: Sequence[Item]) -> list[tuple[int, str]]:
    """(1, "1 — “I will not.” — Jagmeet Singh") for each item, as the number autocomplete lists them."""
    return [(number, f"{number} — {item_label(item)}") for number, item in enumerate(items, 1)]


def _matching(keys: Sequence[str], typed: str, first: Sequence[str] = ()) -> list[str]:
    """Keys that contain every word typed, those in ``first`` (an incident's own sources) first."""
    words = fold(typed).split()
    matching = [key for key in keys if all(word in fold(key) for word in words)]
    return sorted(matching, key=lambda key: (key not in first, key))


def _words(value: str) -> str:
    return value.replace("_", " ")


# -- plans ----------------------------------------------------------------------------------------------


def _existing(change: Callable[[Any], Entry]) -> Change:
    """A ``Change`` of an entry that exists (``bot.curation`` refuses an edit of one that does not)."""

    def run(entry: Entry | None) -> Entry:
        if entry is None:
            raise NotFound("That entry is no longer in the database here.")
        return change(entry)

    return run


def _cite(entry: IncidentEntry, source: str | None) -> IncidentEntry:
    """The incident citing ``source`` too, so a new quote may cite a page the incident did not list yet."""
    if source is None or source in entry.sources:
        return entry
    return entry.model_copy(update={"sources": [*entry.sources, source]})


def plan(form: Form, verb: Verb, values: Mapping[str, Any], lookup: EntryLookup) -> Plan:
    """The change the values ask for, checked as far as it can be before writing."""
    values = clean(values) if verb is Verb.EDIT else _given(values)
    data = _data(form, verb, values, lookup)
    if verb is Verb.EDIT and not data and form.part is not Part.ALIAS:
        raise InvalidInput("Nothing to change: give at least one option to change.")
    if form.part is Part.ENTRY:
        return _entry_plan(form, verb, values, data, lookup)
    if form.part is Part.ALIAS:
        return _alias_plan(verb, values, lookup)
    return _part_plan(form, verb, values, data, lookup)


def _entry_plan(
    form: Form, verb: Verb, values: Mapping[str, Any], data: dict[str, Any], lookup: EntryLookup
) -> Plan:
    model = changes.MODELS[form.kind]
    key = str(values[form.key_field] if verb is Verb.ADD else values[form.subject])
    what = f"{form.subject} {key}"
    if verb is not Verb.ADD and lookup(form.kind, key) is None:
        raise NotFound(f"There is no {what} here.")
    if verb is Verb.REMOVE:
        return Plan(form.kind, key, AuditAction.REMOVE, None, what, f"removed {what}")
    if verb is Verb.ADD:
        if "source" in data and form.kind is EntityKind.INCIDENT:
            data["sources"] = [data.pop("source")]
        return Plan(
            form.kind, key, AuditAction.ADD, lambda _: entries.validated(model, data), what, f"added {what}"
        )

    def edit(entry: Entry) -> Entry:
        return entries.validated(model, {**entry.model_dump(), **data})

    summary = f"edited {what}: {', '.join(data)}"
    return Plan(form.kind, key, AuditAction.EDIT, _existing(edit), what, summary)


def _alias_plan(verb: Verb, values: Mapping[str, Any], lookup: EntryLookup) -> Plan:
    target = Ref.parse(str(values["target"]))
    alias = str(values["alias"])
    of = f"{target.kind} {target.key}"
    if lookup(target.kind, target.key) is None:
        raise NotFound(f"There is no {of} here.")
    change: Callable[[Any], Entry]
    if verb is Verb.ADD:
        summary = f"added alias “{alias}” to {of}"
        change = partial(entries.add_alias, alias=alias)
    elif verb is Verb.EDIT:
        new = values.get("new")
        if new is None:
            raise InvalidInput("Please give the alias's new wording (the `new` option).")
        summary = f"renamed alias “{alias}” of {of} to “{new}”"
        change = partial(entries.edit_alias, old=alias, new=str(new))
    else:
        summary = f"removed alias “{alias}” from {of}"
        change = partial(entries.remove_alias, alias=alias)
    what = f"alias “{alias}” of {of}"
    return Plan(target.kind, target.key, AuditAction.EDIT, _existing(change), what, summary)


def _who(form: Form, data: Mapping[str, Any], lookup: EntryLookup) -> str | None:
    """Who said, ruled, moved, took or played the part being added, by name (for summaries)."""
    if form.who is None:
        return None
    if form.field(form.who).input in REFERENCE_KINDS:
        return _name(lookup, form, form.who, data)
    value = data.get(form.who)
    return None if value is None else str(value)


def _part_plan(
    form: Form, verb: Verb, values: Mapping[str, Any], data: dict[str, Any], lookup: EntryLookup
) -> Plan:
    slug = str(values["incident"])
    incident = lookup(EntityKind.INCIDENT, slug)
    if not isinstance(incident, IncidentEntry):
        raise NotFound(f"There is no incident `{slug}` here.")
    motion: int | None = values.get("motion")
    items = items_of(form, incident, motion)  # checks the motion's number first
    owner = slug if form.part is Part.ITEM else f"motion {motion} of {slug}"
    number: int = values.get("number", 0)
    if verb is Verb.ADD:
        who = _who(form, data, lookup)
        added = form.added.format(subject=form.subject, who=who) if who else f"a {form.subject}"
        what = f"{added} to {owner}"
        summary = f"added {what}"
    else:
        item = _numbered(items, number, form.subject, f"`{owner}`")
        what = f"{form.subject} {number} of {owner} ({item_label(item)})"
        summary = f"removed {what}"
        if verb is Verb.EDIT:
            if all(getattr(item, name) == value for name, value in data.items()):
                raise InvalidInput(
                    f"Nothing to change: {form.subject} {number} of {owner} already says that."
                )
            summary = f"edited {form.subject} {number} of {owner}: {', '.join(data)}"
    operations = _operations(form, motion)

    def change(entry: IncidentEntry) -> IncidentEntry:
        if verb is Verb.ADD:
            changed = operations.add(entry, {"speaker": None, **data} if form.subject == "quote" else data)
        elif verb is Verb.REMOVE:
            changed = operations.remove(entry, number - 1)
        else:
            changed = operations.edit(entry, number - 1, **data)
        return _cite(changed, data.get("source"))

    return Plan(EntityKind.INCIDENT, slug, AuditAction.EDIT, _existing(change), what, summary)


@dataclass(frozen=True, slots=True)
class _Operations:
    """``bot.entries``' add, edit and remove functions for one kind of part of an incident."""

    add: Callable[[IncidentEntry, Mapping[str, Any]], IncidentEntry]
    edit: Callable[..., IncidentEntry]
    remove: Callable[[IncidentEntry, int], IncidentEntry]


ITEM_OPERATIONS = {
    "participant": _Operations(entries.add_participant, entries.edit_participant, entries.remove_participant),
    "quote": _Operations(entries.add_quote, entries.edit_quote, entries.remove_quote),
    "ruling": _Operations(entries.add_ruling, entries.edit_ruling, entries.remove_ruling),
    "motion": _Operations(entries.add_motion, entries.edit_motion, entries.remove_motion),
}


def _operations(form: Form, motion: int | None) -> _Operations:
    if form.part is not Part.POSITION:
        return ITEM_OPERATIONS[form.subject]
    at = int(str(motion)) - 1
    return _Operations(
        lambda entry, position: entries.add_position(entry, at, position),
        lambda entry, index, **fields: entries.edit_position(entry, at, index, **fields),
        lambda entry, index: entries.remove_position(entry, at, index),
    )


# -- use cases (each touches the database: run them in a thread) ----------------------------------------


def _lookup(library: Library, guild_id: int) -> EntryLookup:
    def lookup(kind: EntityKind, key: str) -> Entry | None:
        return library.visible_entry(guild_id=guild_id, kind=kind, key=key)

    return lookup


def prepare(
    library: Library, guild_id: int, form: Form, verb: Verb, values: Mapping[str, Any]
) -> tuple[Plan, int]:
    """The plan, and the revision it is based on (pass it back as ``expected_revision``)."""
    planned = plan(form, verb, values, _lookup(library, guild_id))
    return planned, library.revision(guild_id=guild_id, kind=planned.kind, key=planned.key)


def write(
    library: Library,
    actor: Actor,
    planned: Plan,
    *,
    suggest: bool = False,
    expected_revision: int | None = None,
) -> AuditEntry | Suggestion:
    """Make the change (a moderator), or queue it for a moderator (``suggest``)."""
    if planned.change is None:
        if suggest:
            raise InvalidInput("Removals can't be suggested; please ask a moderator.")
        return library.remove(
            actor=actor, kind=planned.kind, key=planned.key, expected_revision=expected_revision
        )
    if suggest:
        return library.suggest(
            actor=actor,
            kind=planned.kind,
            key=planned.key,
            change=planned.change,
            summary=planned.summary,
            action=planned.action,
        )
    return library.apply(
        actor=actor,
        kind=planned.kind,
        key=planned.key,
        change=planned.change,
        summary=planned.summary,
        action=planned.action,
        expected_revision=expected_revision,
    )


def submit(
    library: Library,
    actor: Actor,
    form: Form,
    verb: Verb,
    values: Mapping[str, Any],
    *,
    suggest: bool = False,
    expected_revision: int | None = None,
) -> AuditEntry | Suggestion:
    """Plan the values' change in the actor's guild and write (or suggest) it."""
    planned = plan(form, verb, values, _lookup(library, actor.guild_id))
    return write(library, actor, planned, suggest=suggest, expected_revision=expected_revision)


def prefill(
    library: Library, guild_id: int, form: Form, verb: Verb, values: Mapping[str, Any]
) -> tuple[dict[str, str], int | None]:
    """What a modal shows, and for an edit the revision it shows.

    An add shows the values already given; an edit shows the entry's (or the part's) current texts.
    """
    given = _given(values)
    if verb is Verb.ADD:
        return {name: str(value) for name, value in given.items() if name in form.modal}, None
    lookup = _lookup(library, guild_id)
    current: Entry | Item | None
    if form.part is Part.ENTRY:
        kind, key = form.kind, str(given[form.subject])
        current = lookup(kind, key)
        if current is None:
            raise NotFound(f"There is no {form.subject} `{key}` here to edit.")
    else:
        kind, key = EntityKind.INCIDENT, str(given["incident"])
        incident = lookup(kind, key)
        if not isinstance(incident, IncidentEntry):
            raise NotFound(f"There is no incident `{key}` here.")
        current = _numbered(
            items_of(form, incident, given.get("motion")), given.get("number"), form.subject, f"`{key}`"
        )
    shown = {name: str(getattr(current, name) or "") for name in form.modal}
    return shown, library.revision(guild_id=guild_id, kind=kind, key=key)


# -- autocomplete (each touches the database: run them in a thread) ------------------------------------


def key_choices(
    library: Library, guild_id: int, kind: EntityKind, typed: str, *, incident: str | None = None
) -> list[str]:
    """The source keys (or chamber slugs) the guild sees that match ``typed``; ``incident``'s own first."""
    cited = (
        library.visible_entry(guild_id=guild_id, kind=EntityKind.INCIDENT, key=incident) if incident else None
    )
    first = cited.sources if isinstance(cited, IncidentEntry) else []
    return _matching(library.visible_keys(guild_id=guild_id, kind=kind), typed, first)


def number_choices(
    library: Library, guild_id: int, form: Form, incident: str | None, motion: int | None
) -> list[tuple[int, str]]:
    """The numbered parts the form addresses in ``incident`` (on its ``motion``), or none."""
    entry = (
        library.visible_entry(guild_id=guild_id, kind=EntityKind.INCIDENT, key=incident) if incident else None
    )
    if not isinstance(entry, IncidentEntry):
        return []
    try:
        return numbered_choices(items_of(form, entry, motion))
    except ParlbotError:
        return []


def alias_choices(library: Library, guild_id: int, target: Ref, typed: str) -> list[str]:
    """The aliases of the ``target`` entry that contain what was typed."""
    entry = library.visible_entry(guild_id=guild_id, kind=target.kind, key=target.key)
    aliases = entry.aliases if isinstance(entry, IncidentEntry | PersonEntry | PartyEntry) else []
    return [alias for alias in aliases if fold(typed) in fold(alias)]
