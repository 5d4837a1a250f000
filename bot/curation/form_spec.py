"""Declaring the moderators' forms, without Discord: a subject's *values model* is a frozen dataclass
whose fields are its commands' options, each declared once with its ``Option`` (a dataset field:
description, how it is given, whether an add needs it, whether the modal carries it) or its
``Address`` (which entry, or which part of one, the command is about). ``@subcommand`` derives the
subject's ``Form`` from its model: the options of each verb's command in Discord's order, with text
limits read from the dataset's entry models and vocabularies from the fields' enum types. So a new
option is one line on one model (``bot.curation.values``), and a new field a modal carries one label
more in ``LABELS``.

Descriptions stay as written here: they are Discord's command metadata, for a ``Translator``; the
words a member reads in a modal (its labels) come from the catalogue.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Annotated, ClassVar, TypeVar, get_args, get_origin, get_type_hints

from bot import limits
from bot.curation import changes, entries
from bot.messages.catalogue import Msg, say
from db.dataset.schema import (
    Entry,
    MotionEntry,
    ParticipantEntry,
    PersonEntry,
    PositionEntry,
    QuoteEntry,
    RulingEntry,
)
from db.models import (
    SLUG_MAX,
    EntityKind,
)

Item = ParticipantEntry | QuoteEntry | RulingEntry | MotionEntry | PositionEntry
"""A numbered part of an incident: a participant, quote, ruling or motion, or a position on a motion."""

DATE_LENGTH = len("YYYY-MM-DD")
REFERENCE_MAX = SLUG_MAX  # a slug or source key typed as an option


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
    TERM = "term"  # a glossary term
    INCIDENTS = "incidents"  # incident slugs, separated by commas or spaces (the incidents a term is in)


REFERENCE_KINDS = {
    Input.PERSON: EntityKind.PERSON,
    Input.PARTY: EntityKind.PARTY,
    Input.SOURCE: EntityKind.SOURCE,
    Input.CHAMBER: EntityKind.CHAMBER,
    Input.INCIDENT: EntityKind.INCIDENT,
    Input.TERM: EntityKind.TERM,
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
    command: bool = True  # a command option; False: only the modal carries it (a command's size is capped)


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
    command: bool = True  # offered as a command option (else given in the modal only)

    @property
    def label(self) -> str:
        """The field's name as a modal shows it (a field a modal carries has one in ``LABELS``)."""
        return say(LABELS[self.name])


# What a modal calls each field it carries, by the field's name (the same name reads the same in every
# form); ``@subcommand`` refuses a modal field without one.
LABELS: dict[str, Msg] = {
    "abbreviation": Msg.LABEL_ABBREVIATION,
    "abbreviation_fr": Msg.LABEL_ABBREVIATION_FR,
    "context": Msg.LABEL_CONTEXT,
    "country": Msg.LABEL_COUNTRY,
    "definition": Msg.LABEL_DEFINITION,
    "definition_fr": Msg.LABEL_DEFINITION_FR,
    "detail": Msg.LABEL_DETAIL,
    "label": Msg.LABEL_LABEL,
    "licence": Msg.LABEL_LICENCE,
    "moved_by_label": Msg.LABEL_MOVED_BY_LABEL,
    "name": Msg.LABEL_NAME,
    "name_fr": Msg.LABEL_NAME_FR,
    "notes": Msg.LABEL_NOTES,
    "party_label": Msg.LABEL_PARTY_LABEL,
    "publisher": Msg.LABEL_PUBLISHER,
    "result_detail": Msg.LABEL_RESULT_DETAIL,
    "role": Msg.LABEL_ROLE,
    "ruled_by_label": Msg.LABEL_RULED_BY_LABEL,
    "said_to": Msg.LABEL_SAID_TO,
    "speaker_label": Msg.LABEL_SPEAKER_LABEL,
    "summary": Msg.LABEL_SUMMARY,
    "summary_fr": Msg.LABEL_SUMMARY_FR,
    "text": Msg.LABEL_TEXT,
    "title": Msg.LABEL_TITLE,
    "title_fr": Msg.LABEL_TITLE_FR,
    "url": Msg.LABEL_URL,
}


class Part(StrEnum):
    """Where in the dataset a form writes."""

    ENTRY = "entry"  # a top-level entry (incident, person, party, source, term)
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
    added: Msg = Msg.PART_BY  # how a summary names an added part (``{part}``) and its ``{who}``

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    @property
    def noun(self) -> str:
        """What the subject is called in our sentences ("quote", "person"): a kind, a part or an alias."""
        if self.part is Part.ENTRY:
            return changes.kind_name(self.kind)
        if self.part is Part.ALIAS:
            return say(Msg.PART_ALIAS)
        return say(entries.PARTS[self.subject][0])

    def fields_for(self, verb: Verb) -> tuple[Field, ...]:
        """The dataset fields the ``verb``'s command asks for (a removal asks for none)."""
        return tuple(f for f in self.fields if verb in f.verbs)

    def describe(self, spec: Field, verb: Verb) -> str:
        """The field's description as an option of the ``verb``'s command."""
        opens = verb is Verb.ADD and spec.name == self.opens_modal
        return say(Msg.OPENS_A_FORM, description=spec.description) if opens else spec.description

    def options(self, verb: Verb) -> tuple[Field, ...]:
        """The ``verb``'s command's options as Discord shows them: the addresses, then the fields, the
        required ones first (Discord wants them so), each with its description for that command; a field
        only the modal carries is not one."""
        addresses = tuple(spec for spec in self.addresses if verb in spec.verbs)
        asked = [
            replace(spec, required=spec.required and verb is Verb.ADD, description=self.describe(spec, verb))
            for spec in self.fields_for(verb)
            if spec.command
        ]
        return (*addresses, *sorted(asked, key=lambda spec: not spec.required))

    @property
    def modal_fields(self) -> tuple[Field, ...]:
        return tuple(self.field(name) for name in self.modal)


OptionValue = str | int | None
"""What a command's option gives a values model: a text (a vocabulary's word as its enum), a number,
or nothing."""


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
        command=option.command,
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
    values: type[Values], subject: str, entry: type[Entry | Item] | None, *, who: str | None, added: Msg
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
    if unreachable := [spec.name for spec in fields if not spec.command and spec.name not in modal]:
        raise TypeError(f"{values.__name__}: {', '.join(unreachable)} is neither an option nor in the modal")
    if len(modal) > limits.MODAL_FIELDS:
        raise TypeError(f"{values.__name__}: a modal holds at most {limits.MODAL_FIELDS} fields")
    if unlabelled := [name for name in modal if name not in LABELS]:
        raise TypeError(f"{values.__name__}: no label in LABELS for the modal's {', '.join(unlabelled)}")
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
    added: Msg = Msg.PART_BY,
) -> Callable[[type[_V]], type[_V]]:
    """Make a values model the form of the ``subject`` commands (``/add subject``, ...).

    ``entry`` is the dataset model it writes (an entry's kind, and the limits of its texts come from
    it); ``who`` and ``added`` say how a summary names what was added.
    """

    def register(values: type[_V]) -> type[_V]:
        values.form = _derive(values, subject, entry, who=who, added=added)
        return values

    return register


# -- the mixins: the addresses every subject of a kind shares --------------------------------------------


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
