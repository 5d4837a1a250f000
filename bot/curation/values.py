"""The values models: what each subject's /add, /edit, /remove and /suggest commands ask for.

The mixins hold the addresses every subject of a kind shares: ``OnIncident`` (``incident``),
``OnMotion`` (``motion``), ``Numbered`` (``number``), ``OnTarget`` (``target``), ``Slugged``
(``slug``). ``FORMS`` is every subject's form, in the order the commands list them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from bot.curation.form_spec import (
    ALIAS_MAX,
    EDITS,
    Address,
    EntryValues,
    Form,
    Input,
    ItemValues,
    OnMotion,
    OnTarget,
    Option,
    Slugged,
    Verb,
    subcommand,
)
from bot.messages.catalogue import Msg
from db.dataset.schema import (
    IncidentEntry,
    MotionEntry,
    ParticipantEntry,
    PartyEntry,
    PersonEntry,
    PositionEntry,
    QuoteEntry,
    RulingEntry,
    SourceEntry,
    TermEntry,
)
from db.models import (
    TEXT_MAX,
    Attribution,
    Delivery,
    IncidentKind,
    MotionResult,
    Procedure,
    RulingOutcome,
    Stance,
)

# -- the values models: what each subject's commands ask for --------------------------------------------


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
    title_fr: Annotated[
        str | None, Option("The title in French, in our own words", modal=True, command=False)
    ] = None
    summary_fr: Annotated[
        str | None, Option("The summary in French, in our own words", Input.LONG, command=False)
    ] = None


@subcommand("participant", ParticipantEntry, who="person", added=Msg.PART_AS)
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
    original_text: Annotated[str | None, Option("Words as said, if printed")] = None
    original_language: Annotated[str | None, Option("Language said in")] = None


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
    subject: Annotated[str | None, Option("On whom it was ruled", Input.PERSON)] = None
    subject_label: Annotated[str | None, Option("On whom, if not one person")] = None
    summary_fr: Annotated[
        str | None, Option("The summary in French, in our own words", Input.LONG, command=False)
    ] = None


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


@subcommand("term", TermEntry)
@dataclass(frozen=True, kw_only=True)
class TermValues(Slugged):
    """A glossary term: defined in the moderator's (or teacher's) own words from a source that states
    its meaning, and linked with the incidents that involve it."""

    term: Annotated[str | None, Address("The term", Input.TERM, EDITS)] = None
    name: Annotated[str | None, Option("Name", required=True, modal=True)] = None
    source: Annotated[str | None, Option("Its source", Input.SOURCE, required=True)] = None
    definition: Annotated[str | None, Option("Meaning, in your words", Input.LONG, opens_modal=True)] = None
    incidents: Annotated[
        str | None, Option("Incident slugs, comma-separated", Input.INCIDENTS, max_length=TEXT_MAX)
    ] = None
    name_fr: Annotated[str | None, Option("French name", modal=True)] = None
    definition_fr: Annotated[str | None, Option("French meaning", Input.LONG)] = None


@subcommand("alias")
@dataclass(frozen=True, kw_only=True)
class AliasValues(OnTarget):
    """An alias of an incident, person, party or term: given on add, picked from the target's on edit and
    removal (the target's kind says which entry is written)."""

    alias: Annotated[
        str,
        Option("The other name", required=True, editable=False, max_length=ALIAS_MAX),
        Address("The alias", Input.ALIAS, EDITS),
    ]
    new: Annotated[str | None, Address("Its new wording", Input.TEXT, frozenset({Verb.EDIT}), ALIAS_MAX)] = (
        None
    )


FORMS: dict[str, Form] = {
    values.form.subject: values.form
    for values in (
        IncidentValues,
        ParticipantValues,
        QuoteValues,
        RulingValues,
        MotionValues,
        PositionValues,
        PersonValues,
        PartyValues,
        SourceValues,
        TermValues,
        AliasValues,
    )
}
"""The forms by subject, in the order the commands list them."""
