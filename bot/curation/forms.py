"""The moderators' forms, without Discord: what each /add, /edit, /remove and /suggest command asks for,
and how its answers become one change to one dataset entry (``bot.curation``).

Each subject (incident, participant, quote, ruling, motion, position, person, party, source, alias)
has a *values model*: a frozen dataclass whose fields are its commands' options, each declared once
with its ``Option`` (a dataset field: description, how it is given, whether an add needs it, whether
the modal carries it) or its ``Address`` (which entry, or which part of one, the command is about).
The mixins hold the addresses every subject of a kind shares: ``OnIncident`` (``incident``),
``OnMotion`` (``motion``), ``Numbered`` (``number``), ``OnTarget`` (``target``), ``Slugged``
(``slug``). ``@subcommand`` derives the subject's ``Form`` from its model: the options of each verb's
command in Discord's order, with text limits read from the dataset's entry models and vocabularies
from the fields' enum types. So a new option is one line on one model.

``plan`` turns a values model (from the command's options, or with a submitted modal's texts) into a
``Plan``: the entry to change, the ``bot.curation.Change`` to make, and our words for it ("added a
quote by Jagmeet Singh to singh-2020"). Participants, quotes, rulings, motions and positions are
numbered from 1, as a moderator sees them; ``bot.entries`` numbers them from 0.

``prepare``, ``write``, ``submit`` and ``prefill`` are the use cases the cogs run in a thread.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from typing import Annotated, ClassVar, Protocol, TypeVar, get_args, get_origin, get_type_hints

from bot.curation import changes, entries
from bot.curation.changes import Actor, Change
from bot.errors import InvalidInput, NotFound, ParlbotError
from bot.search.text import fold
from db.dataset.schema import (
    Entry,
    IncidentEntry,
    MotionEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    PositionEntry,
    QuoteEntry,
    RulingEntry,
    SourceEntry,
)
from db.models import (
    SLUG_MAX,
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
    "Address",
    "AliasValues",
    "EntryValues",
    "Field",
    "Form",
    "IncidentValues",
    "Input",
    "ItemValues",
    "MotionValues",
    "Numbered",
    "OnIncident",
    "OnMotion",
    "OnTarget",
    "Option",
    "OptionValue",
    "ParticipantValues",
    "PartyValues",
    "PersonValues",
    "Plan",
    "PositionValues",
    "QuoteValues",
    "Ref",
    "RulingValues",
    "Slugged",
    "SourceValues",
    "Values",
    "Verb",
    "alias_choices",
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
    "subcommand",
    "submit",
    "write",
]

Item = ParticipantEntry | QuoteEntry | RulingEntry | MotionEntry | PositionEntry
"""A numbered part of an incident: a participant, quote, ruling or motion, or a position on a motion."""
_Numbered = TypeVar("_Numbered", MotionEntry, Item)
_Aliased = TypeVar("_Aliased", IncidentEntry, PersonEntry, PartyEntry)

DATE_LENGTH = len("YYYY-MM-DD")
REFERENCE_MAX = SLUG_MAX  # a slug or source key typed as an option
MODAL_FIELDS = 5  # Discord's limit on a modal's components


def _string_max(annotation: object, metadata: Sequence[object] = ()) -> int | None:
    """The ``max_length`` a pydantic string type carries (``StringConstraints``), inside Optional and
    list too; None for a type without one (a date, an enum)."""
    for item in metadata:
        length = getattr(item, "max_length", None)
        if isinstance(length, int):
            return length
    if get_origin(annotation) is Annotated:
        inner, *more = get_args(annotation)
        return _string_max(inner, more)
    return next((n for arg in get_args(annotation) if (n := _string_max(arg)) is not None), None)


def _entry_max(model: type[Entry | Item], name: str) -> int | None:
    """The dataset's limit on ``model``'s field ``name`` (None when it has no such text field)."""
    info = model.model_fields.get(name)
    return None if info is None else _string_max(info.annotation, info.metadata)


def _limit(model: type[Entry | Item], name: str) -> int:
    found = _entry_max(model, name)
    if found is None:
        raise TypeError(f"{model.__name__}.{name} has no max_length")
    return found


ALIAS_MAX = _limit(PersonEntry, "aliases")  # each alias of a person (a party's and an incident's alike)


class Verb(StrEnum):
    ADD = "add"
    EDIT = "edit"
    REMOVE = "remove"


EDITS = frozenset({Verb.EDIT, Verb.REMOVE})  # the verbs that address an entry (or part) that exists


class Input(StrEnum):
    """How an option is given: typed text, a long text (a modal's paragraph), a vocabulary, a reference
    to an entry, or (for addresses) a number, an incident, person or party, or one of its aliases."""

    TEXT = "text"
    LONG = "long"
    DATE = "date"
    VOCABULARY = "vocabulary"
    PERSON = "person"
    PARTY = "party"
    SOURCE = "source"
    CHAMBER = "chamber"
    INCIDENT = "incident"
    NUMBER = "number"  # of a participant, quote, ruling, motion or position
    MOTION = "motion"  # the number of a motion (what a position is on)
    TARGET = "target"  # an incident, person or party, as ``kind:key``
    ALIAS = "alias"  # one of the target's aliases


REFERENCE_KINDS = {
    Input.PERSON: EntityKind.PERSON,
    Input.PARTY: EntityKind.PARTY,
    Input.SOURCE: EntityKind.SOURCE,
    Input.CHAMBER: EntityKind.CHAMBER,
    Input.INCIDENT: EntityKind.INCIDENT,
}
TYPED_TEXTS = frozenset({Input.TEXT, Input.LONG, Input.DATE})  # given as text of a limited length


# -- declaring options: on the fields of a values model -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    """A values model's field that is a dataset field: ``Annotated[str | None, Option(...)]``.

    ``max_length`` is needed only where the dataset's entry model has no limit for the field; a field
    typed with a ``db.models`` enum is a vocabulary; a long text always goes in the modal.
    """

    description: str
    input: Input = Input.TEXT
    required: bool = False  # on add, Discord asks for it
    modal: bool = False  # the modal carries it (an add's long text, or an edit's current texts)
    opens_modal: bool = False  # on add, leaving this long text out opens the modal
    named_from: tuple[str, ...] = ()  # reference fields whose entry's name fills this field when left out
    default: str | None = None  # on add, when left out
    editable: bool = True  # an edit may change it
    key: bool = False  # it names the entry an add creates (its slug, or a source's key)
    max_length: int | None = None


@dataclass(frozen=True, slots=True)
class Address:
    """A values model's field that says which entry (or which part of one) ``verbs`` are about.

    Discord asks for it first, and always; ``plan`` reads it as a typed attribute.
    """

    description: str
    input: Input
    verbs: frozenset[Verb] = frozenset(Verb)
    max_length: int | None = None


# -- the forms, as derived from the values models ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Field:
    """One option of a form's commands: a dataset field, or an address (``Form.addresses``)."""

    name: str
    description: str
    input: Input = Input.TEXT
    max_length: int | None = None  # for typed texts: the dataset's limit
    required: bool = False  # a dataset field: on add; an address: on every verb that asks for it
    vocabulary: type[StrEnum] | None = None
    named_from: tuple[str, ...] = ()
    default: str | None = None
    verbs: frozenset[Verb] = frozenset({Verb.ADD})  # the verbs whose commands ask for it

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
    """One subject's commands, derived from its values model by ``@subcommand``."""

    subject: str  # the subcommand's name
    kind: EntityKind  # the top-level entry it writes
    part: Part
    values: type[Values]
    addresses: tuple[Field, ...]
    fields: tuple[Field, ...]
    modal: tuple[str, ...] = ()  # the fields a modal carries, at most five
    opens_modal: str | None = None  # on add, leaving this long text out opens the modal
    key_field: str | None = None  # on add of an entry: the field that names it
    who: str | None = None  # the field naming who said, ruled, moved or took it (for summaries)
    added: str = "a {subject} by {who}"  # how a summary names an added part and its ``who``

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def fields_for(self, verb: Verb) -> tuple[Field, ...]:
        """The dataset fields the ``verb``'s command asks for (a removal asks for none)."""
        return tuple(f for f in self.fields if verb in f.verbs)

    def describe(self, spec: Field, verb: Verb) -> str:
        """The field's description as an option of the ``verb``'s command."""
        opens = verb is Verb.ADD and spec.name == self.opens_modal
        return spec.description + (" (left out: a form opens)" if opens else "")

    def options(self, verb: Verb) -> tuple[Field, ...]:
        """The ``verb``'s command's options as Discord shows them: the addresses, then the fields, the
        required ones first (Discord wants them so), each with its description for that command."""
        addresses = tuple(spec for spec in self.addresses if verb in spec.verbs)
        asked = [
            replace(spec, required=spec.required and verb is Verb.ADD, description=self.describe(spec, verb))
            for spec in self.fields_for(verb)
        ]
        return (*addresses, *sorted(asked, key=lambda spec: not spec.required))

    @property
    def modal_fields(self) -> tuple[Field, ...]:
        return tuple(self.field(name) for name in self.modal)


OptionValue = str | int | None
"""What a command's option gives a values model: a text (a vocabulary's word as its enum), a number,
or nothing."""

FORMS: dict[str, Form] = {}
"""The forms by subject, in the order the commands list them."""


@dataclass(frozen=True, kw_only=True)
class Values:
    """The options of one subject's commands, by name: what a command gives, and ``plan`` reads.

    Each field is declared ``Annotated[type, Option(...)]`` (a dataset field) or ``Annotated[type,
    Address(...)]`` (which entry or part); ``form`` is the ``Form`` derived from them (``@subcommand``).
    A field none of the verb's options gives is None (or its default).
    """

    form: ClassVar[Form]


_V = TypeVar("_V", bound=Values)


def _vocabulary(annotation: object) -> type[StrEnum] | None:
    """The enum a field is typed with (``RulingOutcome | None``), if any."""
    for candidate in (annotation, *get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, StrEnum):
            return candidate
    return None


def _max_length(
    declared: int | None, given: Input, entry: type[Entry | Item] | None, name: str
) -> int | None:
    """A typed text's limit: as declared, else the dataset's for the field, else a date's length."""
    if declared is not None or given not in TYPED_TEXTS:
        return declared
    found = _entry_max(entry, name) if entry is not None else None
    if found is None and given is Input.DATE:
        found = DATE_LENGTH
    if found is None:
        raise TypeError(f"no limit for the text option {name!r}: declare max_length=")
    return found


def _field(
    name: str, option: Option, vocabulary: type[StrEnum] | None, entry: type[Entry | Item] | None
) -> Field:
    given = Input.VOCABULARY if vocabulary is not None else option.input
    verbs = {Verb.ADD} | ({Verb.EDIT} if option.editable and not option.key else set())
    return Field(
        name,
        option.description,
        given,
        max_length=_max_length(option.max_length, given, entry, name),
        required=option.required,
        vocabulary=vocabulary,
        named_from=option.named_from,
        default=option.default,
        verbs=frozenset(verbs),
    )


def _address(name: str, address: Address) -> Field:
    return Field(
        name,
        address.description,
        address.input,
        max_length=_max_length(address.max_length, address.input, None, name),
        required=True,
        verbs=address.verbs,
    )


def _part(values: type[Values]) -> Part:
    if issubclass(values, OnMotion):
        return Part.POSITION
    if issubclass(values, ItemValues):
        return Part.ITEM
    return Part.ALIAS if issubclass(values, OnTarget) else Part.ENTRY


def _declared(values: type[Values], name: str, hint: object) -> tuple[object, list[Option], list[Address]]:
    """A field's type, and the ``Option`` and ``Address`` it is declared with (one of them at least)."""
    typed, *metadata = get_args(hint) if get_origin(hint) is Annotated else (hint,)
    options = [item for item in metadata if isinstance(item, Option)]
    addresses = [item for item in metadata if isinstance(item, Address)]
    if not options and not addresses:
        raise TypeError(f"{values.__name__}.{name} needs an Option or an Address")
    return typed, options, addresses


def _derive(
    values: type[Values], subject: str, entry: type[Entry | Item] | None, *, who: str | None, added: str
) -> Form:
    """The form a values model declares: its fields' ``Option`` s and ``Address`` es, in field order."""
    hints = get_type_hints(values, include_extras=True)
    addresses: list[Field] = []
    fields: list[Field] = []
    modal: list[str] = []
    opens_modal = key_field = None
    for declared in dataclasses.fields(values):
        typed, options, addressed = _declared(values, declared.name, hints[declared.name])
        addresses += [_address(declared.name, address) for address in addressed]
        for option in options:
            spec = _field(declared.name, option, _vocabulary(typed), entry)
            fields.append(spec)
            modal += [spec.name] if option.modal or spec.input is Input.LONG else []
            opens_modal = spec.name if option.opens_modal else opens_modal
            key_field = spec.name if option.key else key_field
    if len(modal) > MODAL_FIELDS:
        raise TypeError(f"{values.__name__}: a modal holds at most {MODAL_FIELDS} fields")
    part = _part(values)
    kinds = {model: kind for kind, model in changes.MODELS.items()}
    return Form(
        subject,
        kind=kinds[entry] if part is Part.ENTRY and entry in kinds else EntityKind.INCIDENT,
        part=part,
        values=values,
        addresses=tuple(addresses),
        fields=tuple(fields),
        modal=tuple(modal),
        opens_modal=opens_modal,
        key_field=key_field,
        who=who,
        added=added,
    )


def subcommand(
    subject: str,
    entry: type[Entry | Item] | None = None,
    *,
    who: str | None = None,
    added: str = "a {subject} by {who}",
) -> Callable[[type[_V]], type[_V]]:
    """Make a values model the form of the ``subject`` commands (``/add subject``, ...).

    ``entry`` is the dataset model it writes (an entry's kind, and the limits of its texts come from
    it); ``who`` and ``added`` say how a summary names what was added.
    """

    def register(values: type[_V]) -> type[_V]:
        values.form = _derive(values, subject, entry, who=who, added=added)
        FORMS[subject] = values.form
        return values

    return register


# -- the values models: what each subject's commands ask for --------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EntryValues(Values):
    """A top-level entry (incident, person, party, source): added under its own slug (or key) and
    edited or removed through the option named after its subject (``person``)."""


@dataclass(frozen=True, kw_only=True)
class Slugged(EntryValues):
    """An entry named by a slug the moderator chooses."""

    slug: Annotated[str | None, Option("Short id: lower-case words and hyphens", required=True, key=True)] = (
        None
    )


@dataclass(frozen=True, kw_only=True)
class OnIncident(Values):
    """Something in an incident."""

    incident: Annotated[str, Address("The incident", Input.INCIDENT)]


@dataclass(frozen=True, kw_only=True)
class OnMotion(OnIncident):
    """Something on a motion of an incident, named by its number."""

    motion: Annotated[int, Address("The motion's number", Input.MOTION)]


@dataclass(frozen=True, kw_only=True)
class Numbered(Values):
    """A numbered part, which edits and removals name by its number (from 1)."""

    number: Annotated[int | None, Address("Its number (type to list them)", Input.NUMBER, EDITS)] = None


@dataclass(frozen=True, kw_only=True)
class ItemValues(Numbered, OnIncident):
    """A participant, quote, ruling or motion of an incident (and, as ``PositionValues``, a position)."""


@dataclass(frozen=True, kw_only=True)
class OnTarget(Values):
    """Something of an incident, a person or a party, which ``target`` names as ``kind:key``."""

    target: Annotated[str, Address("An incident, person or party", Input.TARGET)]


@subcommand("incident", IncidentEntry)
@dataclass(frozen=True, kw_only=True)
class IncidentValues(EntryValues):
    incident: Annotated[str | None, Address("The incident", Input.INCIDENT, EDITS)] = None
    slug: Annotated[str | None, Option("Short id, <surname>-<year>", required=True, key=True)] = None
    title: Annotated[str | None, Option("One descriptive line", required=True, modal=True)] = None
    date: Annotated[str | None, Option("Sitting day, YYYY-MM-DD", Input.DATE, required=True)] = None
    chamber: Annotated[str | None, Option("Chamber", Input.CHAMBER, required=True)] = None
    kind: Annotated[IncidentKind | None, Option("What it is chiefly about", required=True)] = None
    source: Annotated[str | None, Option("Main source", Input.SOURCE, required=True, editable=False)] = None
    summary: Annotated[str | None, Option("In your own words", Input.LONG, opens_modal=True)] = None
    notes: Annotated[str | None, Option("Where sources disagree", Input.LONG)] = None


@subcommand("participant", ParticipantEntry, who="person", added="{who} as a {subject}")
@dataclass(frozen=True, kw_only=True)
class ParticipantValues(ItemValues):
    person: Annotated[str | None, Option("Who", Input.PERSON, required=True)] = None
    role: Annotated[
        str | None, Option("Their role then, as the source words it", required=True, modal=True)
    ] = None
    party: Annotated[str | None, Option("Their party then", Input.PARTY)] = None
    party_label: Annotated[str | None, Option("Their party, as the source words it", modal=True)] = None


SOURCE_KEY = "Source key (autocompleted)"


@subcommand("quote", QuoteEntry, who="speaker_label")
@dataclass(frozen=True, kw_only=True)
class QuoteValues(ItemValues):
    text: Annotated[str | None, Option("Exactly as printed", Input.LONG, opens_modal=True)] = None
    speaker: Annotated[str | None, Option("Who said it", Input.PERSON)] = None
    speaker_label: Annotated[
        str | None, Option("Speaker as the source names them", named_from=("speaker",), modal=True)
    ] = None
    source: Annotated[str | None, Option(SOURCE_KEY, Input.SOURCE)] = None
    delivery: Annotated[
        Delivery | None,
        Option("How the wording reached us", default=Delivery.VERBATIM),
    ] = None
    said_to: Annotated[str | None, Option("Said to whom", modal=True)] = None
    context: Annotated[str | None, Option("When, and how the words reached us", Input.LONG)] = None


@subcommand("ruling", RulingEntry, who="ruled_by_label")
@dataclass(frozen=True, kw_only=True)
class RulingValues(ItemValues):
    outcome: Annotated[RulingOutcome | None, Option("The sanction", required=True)] = None
    summary: Annotated[str | None, Option("In your own words", Input.LONG, opens_modal=True)] = None
    ruled_by: Annotated[str | None, Option("Who ruled", Input.PERSON)] = None
    ruled_by_label: Annotated[
        str | None, Option("Who ruled, as the source words it", named_from=("ruled_by",), modal=True)
    ] = None
    role: Annotated[str | None, Option("The chair's office", modal=True)] = None
    source: Annotated[str | None, Option(SOURCE_KEY, Input.SOURCE)] = None


@subcommand("motion", MotionEntry, who="moved_by_label")
@dataclass(frozen=True, kw_only=True)
class MotionValues(ItemValues):
    procedure: Annotated[Procedure | None, Option("How it was brought", required=True)] = None
    result: Annotated[MotionResult | None, Option("What became of it", required=True)] = None
    text: Annotated[str | None, Option("Its words", Input.LONG, opens_modal=True)] = None
    moved_by: Annotated[str | None, Option("Who moved it", Input.PERSON)] = None
    moved_by_label: Annotated[str | None, Option("Mover, when not a person", modal=True)] = None
    result_detail: Annotated[str | None, Option("Counts, and who reports them", modal=True)] = None
    source: Annotated[str | None, Option(SOURCE_KEY, Input.SOURCE)] = None


@subcommand("position", PositionEntry, who="label")
@dataclass(frozen=True, kw_only=True)
class PositionValues(ItemValues, OnMotion):
    stance: Annotated[Stance | None, Option("Their position", required=True)] = None
    attribution: Annotated[Attribution | None, Option("How it is known", required=True)] = None
    person: Annotated[str | None, Option("Who", Input.PERSON)] = None
    party: Annotated[str | None, Option("Their party", Input.PARTY)] = None
    label: Annotated[
        str | None, Option("Who, as shown (default: the name)", named_from=("person", "party"), modal=True)
    ] = None
    source: Annotated[str | None, Option(SOURCE_KEY, Input.SOURCE)] = None
    detail: Annotated[str | None, Option("The source's words behind it", Input.LONG)] = None


@subcommand("person", PersonEntry)
@dataclass(frozen=True, kw_only=True)
class PersonValues(Slugged):
    person: Annotated[str | None, Address("The person", Input.PERSON, EDITS)] = None
    name: Annotated[str | None, Option("As the sources print it", required=True, modal=True)] = None
    party: Annotated[str | None, Option("Party, when a source states it", Input.PARTY)] = None


@subcommand("party", PartyEntry)
@dataclass(frozen=True, kw_only=True)
class PartyValues(Slugged):
    party: Annotated[str | None, Address("The party", Input.PARTY, EDITS)] = None
    name: Annotated[str | None, Option("Name", required=True, modal=True)] = None
    country: Annotated[str | None, Option("Country", required=True, modal=True)] = None
    abbreviation: Annotated[str | None, Option("e.g. NDP", modal=True)] = None
    name_fr: Annotated[str | None, Option("French name", modal=True)] = None
    abbreviation_fr: Annotated[str | None, Option("e.g. NPD", modal=True)] = None


@subcommand("source", SourceEntry)
@dataclass(frozen=True, kw_only=True)
class SourceValues(EntryValues):
    source: Annotated[str | None, Address("The source", Input.SOURCE, EDITS)] = None
    key: Annotated[str | None, Option("Short id, <incident>-<publisher>", required=True, key=True)] = None
    publisher: Annotated[str | None, Option("Publisher", required=True, modal=True)] = None
    url: Annotated[str | None, Option("Web address", modal=True)] = None
    title: Annotated[str | None, Option("Headline as printed", modal=True)] = None
    published: Annotated[str | None, Option("Date the page shows, YYYY-MM-DD", Input.DATE)] = None
    licence: Annotated[str | None, Option("As stated", modal=True)] = None


@subcommand("alias")
@dataclass(frozen=True, kw_only=True)
class AliasValues(OnTarget):
    """An alias of an incident, person or party: given on add, picked from the target's on edit and
    removal (the target's kind says which entry is written)."""

    alias: Annotated[
        str,
        Option("The other name", required=True, editable=False, max_length=ALIAS_MAX),
        Address("The alias", Input.ALIAS, EDITS),
    ]
    new: Annotated[str | None, Address("Its new wording", Input.TEXT, frozenset({Verb.EDIT}), ALIAS_MAX)] = (
        None
    )


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


Data = dict[str, str | None]
"""Dataset fields by name, as ``bot.entries`` takes them (None clears an optional field in an edit)."""

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


def _text(values: Values, name: str) -> str | None:
    """The text option ``name`` of ``values`` (a vocabulary's word too), or None when not given."""
    value = getattr(values, name)
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"{type(values).__name__}.{name} is not a text option")


def _trimmed(values: _V, *, keep_empty: bool) -> _V:
    """The values with their text trimmed. An empty text means "clear this field" in an edit
    (``keep_empty``), and "not given" otherwise."""
    trimmed: dict[str, str | None] = {}
    for declared in dataclasses.fields(values):
        value = getattr(values, declared.name)
        if isinstance(value, str) and not isinstance(value, StrEnum):
            text = value.strip()
            trimmed[declared.name] = None if not (text or keep_empty) and declared.default is None else text
    return replace(values, **trimmed)


def _motion_of(values: ItemValues) -> int | None:
    """The number of the motion a position is on (None for anything else)."""
    return values.motion if isinstance(values, OnMotion) else None


def _name(lookup: EntryLookup, form: Form, reference: str, data: Mapping[str, str | None]) -> str | None:
    """The name of the person or party the ``reference`` field names.

    An unknown slug stands in for its name, so that the write is refused for the unknown reference
    (with close slugs to choose from) rather than for a missing label.
    """
    slug = data.get(reference)
    if slug is None:
        return None
    entry = lookup(REFERENCE_KINDS[form.field(reference).input], slug)
    return entry.name if isinstance(entry, PersonEntry | PartyEntry) else slug


def _data(form: Form, verb: Verb, values: Values, lookup: EntryLookup) -> Data:
    """The dataset fields the values give; on add, with defaults and names of the people referred to."""
    if verb is not Verb.ADD:
        return {
            spec.name: text or None
            for spec in form.fields_for(verb)
            if (text := _text(values, spec.name)) is not None
        }
    data: Data = {spec.name: text for spec in form.fields if (text := _text(values, spec.name)) is not None}
    for spec in form.fields:
        names = (_name(lookup, form, reference, data) for reference in spec.named_from)
        filled = next((name for name in names if name), spec.default)
        if spec.name not in data and filled is not None:
            data[spec.name] = filled
    return data


def needs_modal(verb: Verb, values: Values) -> bool:
    """Whether the command opens a modal: an add without its long text, an edit that names no change."""
    form, given = values.form, _trimmed(values, keep_empty=False)
    if verb is Verb.ADD:
        return form.opens_modal is not None and _text(given, form.opens_modal) is None
    fields = form.fields_for(verb)
    return verb is Verb.EDIT and bool(form.modal) and all(_text(given, spec.name) is None for spec in fields)


def modal_changes(verb: Verb, values: _V, submitted: Mapping[str, str], shown: Mapping[str, str]) -> _V:
    """The values with what a modal submitted: an add takes every text; an edit only those that differ
    from what the modal showed ("" clears one)."""
    if verb is Verb.ADD:
        return replace(values, **submitted)
    changed = {
        name: text.strip() for name, text in submitted.items() if text.strip() != shown.get(name, "").strip()
    }
    return replace(values, **changed)


def long_texts(values: Values) -> dict[str, str]:
    """The long texts among ``values`` by label, to hand back when a write fails so nothing is lost."""
    return {
        spec.label: text
        for spec in values.form.fields
        if spec.input is Input.LONG and (text := _text(values, spec.name))
    }


# -- numbered parts of an incident ----------------------------------------------------------------------


def _number(count: int, number: int | None, what: str, owner: str) -> int:
    """``number`` (from 1) if ``owner`` has that many ``what`` s, or a message saying which numbers it has."""
    if number is None:
        raise InvalidInput(f"Please give the number of the {what} (start typing to see them).")
    if not count:
        raise NotFound(f"{owner} has no {what} yet.")
    if not 1 <= number <= count:
        raise InvalidInput(f"{owner} has no {what} {number}: pick a number from 1 to {count}.")
    return number


def _numbered(items: Sequence[_Numbered], number: int | None, what: str, owner: str) -> _Numbered:
    """The item numbered ``number`` (from 1), or a message saying which numbers there are."""
    return items[_number(len(items), number, what, owner) - 1]


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


def _existing(change: Callable[[Entry], Entry]) -> Change:
    """A ``Change`` of an entry that exists (``bot.curation`` refuses an edit of one that does not)."""

    def run(entry: Entry | None) -> Entry:
        if entry is None:
            raise NotFound("That entry is no longer in the database here.")
        return change(entry)

    return run


def _in_incident(change: Callable[[IncidentEntry], IncidentEntry]) -> Change:
    """A ``Change`` of an incident that exists."""

    def run(entry: Entry) -> Entry:
        if not isinstance(entry, IncidentEntry):
            raise TypeError(f"a {type(entry).__name__} has no parts")
        return change(entry)

    return _existing(run)


def _cite(entry: IncidentEntry, source: str | None) -> IncidentEntry:
    """The incident citing ``source`` too, so a new quote may cite a page the incident did not list yet."""
    if source is None or source in entry.sources:
        return entry
    return entry.model_copy(update={"sources": [*entry.sources, source]})


def plan(verb: Verb, values: Values, lookup: EntryLookup) -> Plan:
    """The change the values ask for, checked as far as it can be before writing."""
    form, values = values.form, _trimmed(values, keep_empty=verb is Verb.EDIT)
    data = _data(form, verb, values, lookup)
    if isinstance(values, AliasValues):
        return _alias_plan(verb, values, lookup)
    if verb is Verb.EDIT and not data:
        raise InvalidInput("Nothing to change: give at least one option to change.")
    if isinstance(values, ItemValues):
        return _part_plan(form, verb, values, data, lookup)
    return _entry_plan(form, verb, values, data, lookup)


def _key(form: Form, verb: Verb, values: Values) -> str:
    """The slug (or key) of the entry: on add the one it is given, otherwise the one it is addressed by."""
    name = form.key_field if verb is Verb.ADD else form.subject
    key = None if name is None else _text(values, name)
    if key is None:
        raise ValueError(f"{type(values).__name__} names no {form.subject} to {verb}")
    return key


def _entry_plan(form: Form, verb: Verb, values: Values, data: Data, lookup: EntryLookup) -> Plan:
    model = changes.MODELS[form.kind]
    key = _key(form, verb, values)
    what = f"{form.subject} {key}"
    if verb is not Verb.ADD and lookup(form.kind, key) is None:
        raise NotFound(f"There is no {what} here.")
    if verb is Verb.REMOVE:
        return Plan(form.kind, key, AuditAction.REMOVE, None, what, f"removed {what}")
    if verb is Verb.ADD:
        fields: dict[str, object] = dict(data)
        if "source" in fields and form.kind is EntityKind.INCIDENT:
            fields["sources"] = [fields.pop("source")]
        return Plan(
            form.kind, key, AuditAction.ADD, lambda _: entries.validated(model, fields), what, f"added {what}"
        )

    def edit(entry: Entry) -> Entry:
        return entries.validated(model, {**entry.model_dump(), **data})

    summary = f"edited {what}: {', '.join(data)}"
    return Plan(form.kind, key, AuditAction.EDIT, _existing(edit), what, summary)


def _alias_change(entry: _Aliased, verb: Verb, alias: str, new: str | None) -> _Aliased:
    if verb is Verb.ADD:
        return entries.add_alias(entry, alias=alias)
    if verb is Verb.REMOVE:
        return entries.remove_alias(entry, alias=alias)
    if new is None:
        raise ValueError("renaming an alias needs its new wording")
    return entries.edit_alias(entry, old=alias, new=new)


def _with_alias(entry: Entry, verb: Verb, alias: str, new: str | None) -> Entry:
    """The incident, person or party with ``alias`` added, renamed to ``new`` or removed."""
    if isinstance(entry, IncidentEntry):
        return _alias_change(entry, verb, alias, new)
    if isinstance(entry, PersonEntry):
        return _alias_change(entry, verb, alias, new)
    if isinstance(entry, PartyEntry):
        return _alias_change(entry, verb, alias, new)
    raise TypeError(f"a {type(entry).__name__} has no aliases")


def _alias_plan(verb: Verb, values: AliasValues, lookup: EntryLookup) -> Plan:
    target, alias, new = Ref.parse(values.target), values.alias, values.new
    of = f"{target.kind} {target.key}"
    if lookup(target.kind, target.key) is None:
        raise NotFound(f"There is no {of} here.")
    if verb is Verb.ADD:
        summary = f"added alias “{alias}” to {of}"
    elif verb is Verb.EDIT:
        if new is None:
            raise InvalidInput("Please give the alias's new wording (the `new` option).")
        summary = f"renamed alias “{alias}” of {of} to “{new}”"
    else:
        summary = f"removed alias “{alias}” from {of}"
    what = f"alias “{alias}” of {of}"
    change = _existing(partial(_with_alias, verb=verb, alias=alias, new=new))
    return Plan(target.kind, target.key, AuditAction.EDIT, change, what, summary)


def _who(form: Form, data: Mapping[str, str | None], lookup: EntryLookup) -> str | None:
    """Who said, ruled, moved, took or played the part being added, by name (for summaries)."""
    if form.who is None:
        return None
    if form.field(form.who).input in REFERENCE_KINDS:
        return _name(lookup, form, form.who, data)
    return data.get(form.who)


def _part_plan(form: Form, verb: Verb, values: ItemValues, data: Data, lookup: EntryLookup) -> Plan:
    slug = values.incident
    incident = lookup(EntityKind.INCIDENT, slug)
    if not isinstance(incident, IncidentEntry):
        raise NotFound(f"There is no incident `{slug}` here.")
    motion = _motion_of(values)
    items = items_of(form, incident, motion)  # checks the motion's number first
    owner = slug if form.part is Part.ITEM else f"motion {motion} of {slug}"
    operations = _operations(values)
    if verb is Verb.ADD:
        who = _who(form, data, lookup)
        added = form.added.format(subject=form.subject, who=who) if who else f"a {form.subject}"
        what = f"{added} to {owner}"
        part = {"speaker": None, **data} if form.subject == "quote" else data

        def add(entry: IncidentEntry) -> IncidentEntry:
            return _cite(operations.add(entry, part), data.get("source"))

        return Plan(EntityKind.INCIDENT, slug, AuditAction.EDIT, _in_incident(add), what, f"added {what}")
    number = _number(len(items), values.number, form.subject, f"`{owner}`")
    what = f"{form.subject} {number} of {owner} ({item_label(items[number - 1])})"
    if verb is Verb.REMOVE:
        change = _in_incident(partial(operations.remove, index=number - 1))
        return Plan(EntityKind.INCIDENT, slug, AuditAction.EDIT, change, what, f"removed {what}")
    if all(getattr(items[number - 1], name) == value for name, value in data.items()):
        raise InvalidInput(f"Nothing to change: {form.subject} {number} of {owner} already says that.")

    def edit(entry: IncidentEntry) -> IncidentEntry:
        return _cite(operations.edit(entry, number - 1, **data), data.get("source"))

    summary = f"edited {form.subject} {number} of {owner}: {', '.join(data)}"
    return Plan(EntityKind.INCIDENT, slug, AuditAction.EDIT, _in_incident(edit), what, summary)


class _Add(Protocol):
    def __call__(self, entry: IncidentEntry, part: Mapping[str, str | None], /) -> IncidentEntry: ...


class _Edit(Protocol):
    def __call__(self, entry: IncidentEntry, index: int, **fields: str | None) -> IncidentEntry: ...


class _Remove(Protocol):
    def __call__(self, entry: IncidentEntry, index: int) -> IncidentEntry: ...


@dataclass(frozen=True, slots=True)
class _Operations:
    """``bot.entries``' add, edit and remove functions for one kind of part of an incident."""

    add: _Add
    edit: _Edit
    remove: _Remove


ITEM_OPERATIONS = {
    "participant": _Operations(entries.add_participant, entries.edit_participant, entries.remove_participant),
    "quote": _Operations(entries.add_quote, entries.edit_quote, entries.remove_quote),
    "ruling": _Operations(entries.add_ruling, entries.edit_ruling, entries.remove_ruling),
    "motion": _Operations(entries.add_motion, entries.edit_motion, entries.remove_motion),
}


def _operations(values: ItemValues) -> _Operations:
    if not isinstance(values, OnMotion):
        return ITEM_OPERATIONS[values.form.subject]
    at = values.motion - 1

    def add(entry: IncidentEntry, position: Mapping[str, str | None], /) -> IncidentEntry:
        return entries.add_position(entry, at, position)

    def edit(entry: IncidentEntry, index: int, **fields: str | None) -> IncidentEntry:
        return entries.edit_position(entry, at, index, **fields)

    def remove(entry: IncidentEntry, index: int) -> IncidentEntry:
        return entries.remove_position(entry, at, index)

    return _Operations(add, edit, remove)


# -- use cases (each touches the database: run them in a thread) ----------------------------------------


def _lookup(library: Library, guild_id: int) -> EntryLookup:
    def lookup(kind: EntityKind, key: str) -> Entry | None:
        return library.visible_entry(guild_id=guild_id, kind=kind, key=key)

    return lookup


def prepare(library: Library, guild_id: int, verb: Verb, values: Values) -> tuple[Plan, int]:
    """The plan, and the revision it is based on (pass it back as ``expected_revision``)."""
    planned = plan(verb, values, _lookup(library, guild_id))
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
    verb: Verb,
    values: Values,
    *,
    suggest: bool = False,
    expected_revision: int | None = None,
) -> AuditEntry | Suggestion:
    """Plan the values' change in the actor's guild and write (or suggest) it."""
    planned = plan(verb, values, _lookup(library, actor.guild_id))
    return write(library, actor, planned, suggest=suggest, expected_revision=expected_revision)


def _current(form: Form, values: Values, lookup: EntryLookup) -> tuple[EntityKind, str, Entry | Item]:
    """The entry (or part of an incident) an edit is about, with the kind and key of its entry."""
    if isinstance(values, ItemValues):
        key = values.incident
        incident = lookup(EntityKind.INCIDENT, key)
        if not isinstance(incident, IncidentEntry):
            raise NotFound(f"There is no incident `{key}` here.")
        items = items_of(form, incident, _motion_of(values))
        return EntityKind.INCIDENT, key, _numbered(items, values.number, form.subject, f"`{key}`")
    key = _key(form, Verb.EDIT, values)
    current = lookup(form.kind, key)
    if current is None:
        raise NotFound(f"There is no {form.subject} `{key}` here to edit.")
    return form.kind, key, current


def prefill(library: Library, guild_id: int, verb: Verb, values: Values) -> tuple[dict[str, str], int | None]:
    """What a modal shows, and for an edit the revision it shows.

    An add shows the values already given; an edit shows the entry's (or the part's) current texts.
    """
    form, given = values.form, _trimmed(values, keep_empty=False)
    if verb is Verb.ADD:
        return {name: text for name in form.modal if (text := _text(given, name)) is not None}, None
    kind, key, current = _current(form, given, _lookup(library, guild_id))
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
