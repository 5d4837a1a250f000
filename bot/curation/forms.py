"""The moderators' forms at work, without Discord: how a command's values become one change to one
dataset entry (``bot.curation.changes``).

``plan`` turns a values model (``bot.curation.values``: from the command's options, or with a
submitted modal's texts) into a ``Plan``: the entry to change, the ``Change`` to make, and our words
for it ("added a quote by Jagmeet Singh to singh-2020", from the catalogue: ``Msg.ADDED_SUMMARY`` and
the words it is made of). Participants, quotes, rulings, motions and positions are numbered from 1,
as a moderator sees them; ``bot.curation.entries`` numbers them from 0.

``prepare``, ``write``, ``submit`` and ``prefill`` are the use cases the cogs run in a thread, and
``key_choices``, ``number_choices`` and ``alias_choices`` the autocomplete they serve.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from typing import Protocol, TypeVar

from bot import inputs
from bot.curation import changes, entries, references
from bot.curation.changes import Actor, Change, kind_name
from bot.curation.form_spec import (
    REFERENCE_KINDS,
    Form,
    Input,
    Item,
    ItemValues,
    OnMotion,
    Part,
    Values,
    Verb,
)
from bot.curation.references import Named
from bot.curation.values import AliasValues
from bot.errors import InvalidInput, NotFound, ParlbotError
from bot.messages.catalogue import Msg, say
from bot.search.text import fold
from db.dataset.schema import (
    Entry,
    IncidentEntry,
    MotionEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    QuoteEntry,
    RulingEntry,
    TermEntry,
)
from db.models import (
    AuditAction,
    AuditEntry,
    EntityKind,
    Suggestion,
)

_Numbered = TypeVar("_Numbered", MotionEntry, Item)
_Aliased = TypeVar("_Aliased", IncidentEntry, PersonEntry, PartyEntry, TermEntry)
_V = TypeVar("_V", bound=Values)


@dataclass(frozen=True, slots=True)
class Ref:
    """A top-level entry, written ``kind:key`` in option values (``person:jagmeet-singh``)."""

    kind: EntityKind
    key: str

    @classmethod
    def parse(cls, text: str, default: EntityKind | None = None) -> Ref:
        if cls.names_kind(text):
            kind, _, key = text.strip().partition(":")
            return cls(EntityKind(kind), key.strip())
        if default is None:
            raise InvalidInput(Msg.NOT_AN_ENTRY, text=text)
        return cls(default, text.strip())

    @staticmethod
    def names_kind(text: str) -> bool:
        """Whether ``text`` is written ``kind:key`` (as autocomplete gives it) rather than a bare name."""
        kind, sep, _ = text.strip().partition(":")
        return bool(sep) and kind in set(EntityKind)

    def __str__(self) -> str:
        return f"{self.kind}:{self.key}"

    @property
    def words(self) -> str:
        """The entry as our sentences name it: "person jagmeet-singh"."""
        return f"{kind_name(self.kind)} {self.key}"


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

    def resolve_reference(
        self, *, guild_id: int, kind: EntityKind, text: str, option: str, incident: str | None = None
    ) -> str: ...

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


def _cleaned(form: Form, name: str, text: str) -> str:
    """A text option as stored (``bot.inputs``): a long text keeps its lines, any other is one line."""
    spec = next((spec for spec in form.fields if spec.name == name), None)
    clean = inputs.text if spec is not None and spec.input is Input.LONG else inputs.line
    return clean(text, option=name)


def _trimmed(values: _V, *, keep_empty: bool) -> _V:
    """The values with their text cleaned (whitespace collapsed, ends trimmed). An empty text means
    "clear this field" in an edit (``keep_empty``), and "not given" otherwise."""
    trimmed: dict[str, str | None] = {}
    for declared in dataclasses.fields(values):
        value = getattr(values, declared.name)
        if isinstance(value, str) and not isinstance(value, StrEnum):
            text = _cleaned(values.form, declared.name, value)
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
    form = values.form
    cleaned = {name: _cleaned(form, name, text) for name, text in submitted.items()}
    changed = {
        name: text for name, text in cleaned.items() if text != _cleaned(form, name, shown.get(name, ""))
    }
    return replace(values, **changed)


def long_texts(values: Values) -> dict[str, str]:
    """The long texts among ``values`` by label, to hand back when a write fails so nothing is lost."""
    return {
        spec.label: text
        for spec in values.form.fields
        if spec.input is Input.LONG and (text := _text(values, spec.name))
    }


def resolved(library: Library, guild_id: int, values: _V) -> _V:
    """The values with each reference as typed (a slug, a name, an alias: ``speaker:"Jagmeet Singh"``)
    replaced by the slug or key it names in the guild; the incident first, so that a source is looked
    for among the incident's own. A close call or an unknown name is refused (``Library.resolve_reference``).
    """
    form = values.form
    specs = sorted(
        (spec for spec in (*form.addresses, *form.fields) if spec.input in REFERENCE_KINDS),
        key=lambda spec: spec.input is not Input.INCIDENT,
    )
    keys: dict[str, str] = {}
    for spec in specs:
        text = inputs.line(_text(values, spec.name) or "", option=spec.name)
        if text and spec.name not in keys:
            keys[spec.name] = library.resolve_reference(
                guild_id=guild_id,
                kind=REFERENCE_KINDS[spec.input],
                text=text,
                option=spec.name,
                incident=keys.get("incident"),
            )
    return replace(values, **keys)


# -- numbered parts of an incident ----------------------------------------------------------------------


def _number(count: int, number: int | None, part: str, owner: str) -> int:
    """``number`` (from 1) if ``owner`` has that many of its ``part`` s (a part's word, "quote"), or a
    message saying which numbers it has."""
    if number is None:
        raise InvalidInput(Msg.NUMBER_NEEDED, part=part)
    if not count:
        raise NotFound(Msg.NONE_YET, owner=owner, part=part)
    if not 1 <= number <= count:
        raise InvalidInput(Msg.NO_SUCH_NUMBER, owner=owner, part=part, number=number, count=count)
    return number


def _numbered(items: Sequence[_Numbered], number: int | None, part: str, owner: str) -> _Numbered:
    """The item numbered ``number`` (from 1), or a message saying which numbers there are."""
    return items[_number(len(items), number, part, owner) - 1]


def _motion_word() -> str:
    return say(entries.PARTS["motion"][0])


def items_of(form: Form, incident: IncidentEntry, motion: int | None) -> Sequence[Item]:
    """The participants, quotes, rulings or motions of the incident, or the positions on its ``motion``."""
    if form.part is Part.POSITION:
        return _numbered(incident.motions, motion, _motion_word(), incident.slug).positions
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
        return say(Msg.MOTION_LABEL, text=item.text)
    return f"{item.label}: {_words(item.stance)}"


def numbered_choices(items: Sequence[Item]) -> list[tuple[int, str]]:
    """(1, "1 — “I will not.” — Jagmeet Singh") for each item, as the number autocomplete lists them."""
    return [(number, f"{number} — {item_label(item)}") for number, item in enumerate(items, 1)]


def _matching(named: Sequence[Named], typed: str, first: Sequence[str] = ()) -> list[Named]:
    """The entries whose key or names contain every word typed, those in ``first`` (an incident's own
    sources) first."""
    words = fold(typed).split()
    matching = [n for n in named if all(word in fold(" ".join((n.key, *n.texts))) for word in words)]
    return sorted(matching, key=lambda n: (n.key not in first, n.key))


def _words(value: str) -> str:
    return value.replace("_", " ")


# -- plans ----------------------------------------------------------------------------------------------


def _existing(change: Callable[[Entry], Entry]) -> Change:
    """A ``Change`` of an entry that exists (``bot.curation`` refuses an edit of one that does not)."""

    def run(entry: Entry | None) -> Entry:
        if entry is None:
            raise NotFound(Msg.ENTRY_GONE)
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
        raise InvalidInput(Msg.NO_CHANGE_GIVEN)
    if isinstance(values, ItemValues):
        return _part_plan(form, verb, values, data, lookup)
    return _entry_plan(form, verb, values, data, lookup)


def _key(form: Form, verb: Verb, values: Values) -> str:
    """The slug (or key) of the entry: on add the one it is given, otherwise the one it is addressed by."""
    name = form.key_field if verb is Verb.ADD else form.subject
    if name is None:
        raise ValueError(f"{type(values).__name__} names no {form.subject} to {verb}")
    key = _text(values, name)
    if key is None:  # not given, or blank once cleaned
        raise InvalidInput(Msg.REQUIRED, path=f"`{name}`")
    return key


def _slugs(form: Form, data: Data) -> dict[str, object]:
    """The data with each list of incident slugs (``Input.INCIDENTS``, typed "a-2020, b-2021") as a list;
    an empty text is an empty list."""
    listed = {spec.name for spec in form.fields if spec.input is Input.INCIDENTS}
    return {
        name: re.findall(r"[^\s,;]+", text or "") if name in listed else text for name, text in data.items()
    }


def _entry_plan(form: Form, verb: Verb, values: Values, given: Data, lookup: EntryLookup) -> Plan:
    model = changes.MODELS[form.kind]
    data = _slugs(form, given)
    key = _key(form, verb, values)
    what = Ref(form.kind, key).words
    if verb is not Verb.ADD and lookup(form.kind, key) is None:
        raise NotFound(Msg.NOT_HERE, kind=kind_name(form.kind), key=key)
    if verb is Verb.REMOVE:
        summary = say(Msg.REMOVED_SUMMARY, kind=kind_name(form.kind), key=key)  # as changes.remove says it
        return Plan(form.kind, key, AuditAction.REMOVE, None, what, summary)
    if verb is Verb.ADD:
        fields: dict[str, object] = dict(data)
        if "source" in fields and form.kind is EntityKind.INCIDENT:
            fields["sources"] = [fields.pop("source")]

        def add(_: Entry | None) -> Entry:
            return entries.validated(model, fields)

        return Plan(form.kind, key, AuditAction.ADD, add, what, say(Msg.ADDED_SUMMARY, what=what))

    def edit(entry: Entry) -> Entry:
        return entries.validated(model, {**entry.model_dump(), **data})

    summary = say(Msg.EDITED_SUMMARY, what=what, fields=", ".join(data))
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
    """The incident, person, party or term with ``alias`` added, renamed to ``new`` or removed."""
    if isinstance(entry, IncidentEntry):
        return _alias_change(entry, verb, alias, new)
    if isinstance(entry, PersonEntry):
        return _alias_change(entry, verb, alias, new)
    if isinstance(entry, PartyEntry):
        return _alias_change(entry, verb, alias, new)
    if isinstance(entry, TermEntry):
        return _alias_change(entry, verb, alias, new)
    raise TypeError(f"a {type(entry).__name__} has no aliases")


def _alias_plan(verb: Verb, values: AliasValues, lookup: EntryLookup) -> Plan:
    target, alias, new = Ref.parse(values.target), values.alias, values.new
    of = target.words
    if lookup(target.kind, target.key) is None:
        raise NotFound(Msg.NOT_HERE, kind=kind_name(target.kind), key=target.key)
    if verb is Verb.ADD:
        summary = say(Msg.ALIAS_ADDED_SUMMARY, alias=alias, of=of)
    elif verb is Verb.EDIT:
        if new is None:
            raise InvalidInput(Msg.NEW_WORDING_NEEDED)
        summary = say(Msg.ALIAS_RENAMED_SUMMARY, alias=alias, of=of, new=new)
    else:
        summary = say(Msg.ALIAS_REMOVED_SUMMARY, alias=alias, of=of)
    what = say(Msg.ALIAS_OF, alias=alias, of=of)
    change = _existing(partial(_with_alias, verb=verb, alias=alias, new=new))
    return Plan(target.kind, target.key, AuditAction.EDIT, change, what, summary)


def _who(form: Form, data: Mapping[str, str | None], lookup: EntryLookup) -> str | None:
    """Who said, ruled, moved, took or played the part being added, by name (for summaries)."""
    if form.who is None:
        return None
    if form.field(form.who).input in REFERENCE_KINDS:
        return _name(lookup, form, form.who, data)
    return data.get(form.who)


def _added(form: Form, data: Mapping[str, str | None], lookup: EntryLookup) -> str:
    """A part being added, in words: "a quote by Jagmeet Singh", or "a quote" when no one is named."""
    who = _who(form, data, lookup)
    return say(form.added, part=form.noun, who=who) if who else say(Msg.A_PART, part=form.noun)


def _part_plan(form: Form, verb: Verb, values: ItemValues, data: Data, lookup: EntryLookup) -> Plan:
    slug = values.incident
    incident = lookup(EntityKind.INCIDENT, slug)
    if not isinstance(incident, IncidentEntry):
        raise NotFound(Msg.NO_INCIDENT, slug=slug)
    motion = _motion_of(values)
    items = items_of(form, incident, motion)  # checks the motion's number first
    owner = slug
    if form.part is Part.POSITION:
        owner = say(Msg.PART_OF, part=_motion_word(), number=motion, owner=slug)
    operations = _operations(values)
    if verb is Verb.ADD:
        what = say(Msg.ADDED_TO, added=_added(form, data, lookup), owner=owner)
        new_part = {"speaker": None, **data} if form.subject == "quote" else data

        def add(entry: IncidentEntry) -> IncidentEntry:
            return _cite(operations.add(entry, new_part), data.get("source"))

        summary = say(Msg.ADDED_SUMMARY, what=what)
        return Plan(EntityKind.INCIDENT, slug, AuditAction.EDIT, _in_incident(add), what, summary)
    number = _number(len(items), values.number, form.noun, owner)
    numbered = say(Msg.PART_OF, part=form.noun, number=number, owner=owner)
    what = f"{numbered} ({item_label(items[number - 1])})"
    if verb is Verb.REMOVE:
        change = _in_incident(partial(operations.remove, index=number - 1))
        summary = say(Msg.REMOVED_PART_SUMMARY, what=what)
        return Plan(EntityKind.INCIDENT, slug, AuditAction.EDIT, change, what, summary)
    if all(getattr(items[number - 1], name) == value for name, value in data.items()):
        raise InvalidInput(Msg.PART_UNCHANGED, part=form.noun, index=number, owner=owner)

    def edit(entry: IncidentEntry) -> IncidentEntry:
        return _cite(operations.edit(entry, number - 1, **data), data.get("source"))

    summary = say(Msg.EDITED_SUMMARY, what=numbered, fields=", ".join(data))
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
            raise InvalidInput(Msg.NO_SUGGESTED_REMOVALS)
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
            raise NotFound(Msg.NO_INCIDENT, slug=key)
        items = items_of(form, incident, _motion_of(values))
        return EntityKind.INCIDENT, key, _numbered(items, values.number, form.noun, key)
    key = _key(form, Verb.EDIT, values)
    current = lookup(form.kind, key)
    if current is None:
        raise NotFound(Msg.NOTHING_TO_EDIT, kind=form.noun, key=key)
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


def _typed_incident(library: Library, guild_id: int, typed: str | None) -> IncidentEntry | None:
    """The incident an ``incident`` option names so far (its slug, as autocomplete gives it, or a name
    that resolves), for another option's autocomplete; None while it names none."""
    if not typed:
        return None
    entry = library.visible_entry(guild_id=guild_id, kind=EntityKind.INCIDENT, key=typed)
    if entry is None:
        try:
            slug = library.resolve_reference(
                guild_id=guild_id, kind=EntityKind.INCIDENT, text=typed, option="incident"
            )
        except ParlbotError:
            return None
        entry = library.visible_entry(guild_id=guild_id, kind=EntityKind.INCIDENT, key=slug)
    return entry if isinstance(entry, IncidentEntry) else None


def labelled_key_choices(
    library: Library, guild_id: int, kind: EntityKind, typed: str, *, incident: str | None = None
) -> list[tuple[str, str]]:
    """("singh-2020-cbc — CBC News", "singh-2020-cbc") for each source (or chamber) the guild sees
    whose key, publisher or title holds the words typed; ``incident``'s own sources first."""
    cited = _typed_incident(library, guild_id, incident)
    first = cited.sources if cited is not None else []
    named = []
    for key in library.visible_keys(guild_id=guild_id, kind=kind):
        entry = library.visible_entry(guild_id=guild_id, kind=kind, key=key)
        named.append(references.named(entry) if entry is not None else Named(key, key))
    return [
        (f"{n.key} — {n.label}" if n.label != n.key else n.key, n.key) for n in _matching(named, typed, first)
    ]


def key_choices(
    library: Library, guild_id: int, kind: EntityKind, typed: str, *, incident: str | None = None
) -> list[str]:
    """The source keys (or chamber slugs) the guild sees that match ``typed``; ``incident``'s own first."""
    return [key for _, key in labelled_key_choices(library, guild_id, kind, typed, incident=incident)]


def number_choices(
    library: Library, guild_id: int, form: Form, incident: str | None, motion: int | None
) -> list[tuple[int, str]]:
    """The numbered parts the form addresses in ``incident`` (on its ``motion``), or none."""
    entry = _typed_incident(library, guild_id, incident)
    if entry is None:
        return []
    try:
        return numbered_choices(items_of(form, entry, motion))
    except ParlbotError:
        return []


def alias_choices(library: Library, guild_id: int, target: Ref, typed: str) -> list[str]:
    """The aliases of the ``target`` entry that contain what was typed."""
    entry = library.visible_entry(guild_id=guild_id, kind=target.kind, key=target.key)
    aliases = entry.aliases if isinstance(entry, IncidentEntry | PersonEntry | PartyEntry | TermEntry) else []
    return [alias for alias in aliases if fold(typed) in fold(alias)]
