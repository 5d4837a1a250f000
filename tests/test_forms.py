"""The moderators' forms without Discord or a database: values in, a planned change and our words out
(asserted through the catalogue; ``tests/test_messages.py`` pins the English)."""

from __future__ import annotations

import dataclasses
from typing import Annotated

import pytest

from bot.curation import form_spec, forms, problems, references
from bot.curation.changes import kind_name
from bot.curation.form_spec import Values, Verb
from bot.curation.forms import Ref
from bot.curation.values import (
    FORMS,
    AliasValues,
    IncidentValues,
    ParticipantValues,
    PersonValues,
    PositionValues,
    QuoteValues,
    RulingValues,
)
from bot.errors import InvalidInput, NotFound
from bot.messages.catalogue import Msg, say
from db.dataset.files import read_dataset
from db.dataset.schema import (
    ABBREVIATION_MAX,
    SHIPPED_DATASET,
    Entry,
    IncidentEntry,
    PartyEntry,
    QuoteEntry,
    RulingEntry,
    SourceEntry,
)
from db.models import LABEL_MAX, Attribution, AuditAction, EntityKind, IncidentKind, RulingOutcome, Stance

DATASET = read_dataset(SHIPPED_DATASET)
ENTRIES: dict[tuple[EntityKind, str], Entry] = {
    **{(EntityKind.INCIDENT, e.slug): e for e in DATASET.incidents},
    **{(EntityKind.PERSON, e.slug): e for e in DATASET.people},
    **{(EntityKind.PARTY, e.slug): e for e in DATASET.parties},
}
SINGH = ENTRIES[EntityKind.INCIDENT, "singh-2020"]
assert isinstance(SINGH, IncidentEntry)


def lookup(kind: EntityKind, key: str) -> Entry | None:
    return ENTRIES.get((kind, key))


def planned(verb: Verb, values: Values) -> forms.Plan:
    return forms.plan(verb, values, lookup)


def changed(plan: forms.Plan) -> IncidentEntry:
    assert plan.change is not None
    entry = plan.change(SINGH)
    assert isinstance(entry, IncidentEntry)
    return entry


def added(added: str, owner: str = "singh-2020") -> str:
    """A part being added to ``owner``, in words ("a quote by Jagmeet Singh to singh-2020")."""
    return say(Msg.ADDED_TO, added=added, owner=owner)


def part_of(part: Msg, number: int, owner: str = "singh-2020") -> str:
    """A numbered part in words ("quote 4 of singh-2020")."""
    return say(Msg.PART_OF, part=say(part), number=number, owner=owner)


def person_words(slug: str) -> str:
    """A person in words ("person jagmeet-singh")."""
    return f"{kind_name(EntityKind.PERSON)} {slug}"


def test_a_new_quote_takes_its_speakers_name_and_verbatim_delivery() -> None:
    plan = planned(
        Verb.ADD,
        QuoteValues(incident="singh-2020", text="Words.", speaker="jagmeet-singh", source="singh-2020-cbc"),
    )
    quote = changed(plan).quotes[-1]
    assert (quote.speaker_label, quote.delivery) == ("Jagmeet Singh", "verbatim")
    by_singh = say(Msg.PART_BY, part=say(Msg.PART_QUOTE), who="Jagmeet Singh")
    assert plan.summary == say(Msg.ADDED_SUMMARY, what=added(by_singh))
    assert (plan.kind, plan.key, plan.action) == (EntityKind.INCIDENT, "singh-2020", AuditAction.EDIT)


def test_a_part_citing_a_new_source_adds_it_to_the_incidents_sources() -> None:
    plan = planned(
        Verb.ADD,
        RulingValues(
            incident="singh-2020",
            outcome=RulingOutcome.WARNED,
            summary="Warned.",
            ruled_by_label="The Speaker",
            source="skinner-2016-bbc",
        ),
    )
    assert changed(plan).sources[-1] == "skinner-2016-bbc"


def test_a_position_is_added_to_the_motion_named_by_its_number() -> None:
    plan = planned(
        Verb.ADD,
        PositionValues(
            incident="singh-2020",
            motion=1,
            stance=Stance.OBJECT,
            attribution=Attribution.INFERRED,
            party="green-party-of-canada",
            source="singh-2020-cbc",
        ),
    )
    assert changed(plan).motions[0].positions[-1].label == "Green Party of Canada"
    by_greens = say(Msg.PART_BY, part=say(Msg.PART_POSITION), who="Green Party of Canada")
    assert plan.what == added(by_greens, owner=part_of(Msg.PART_MOTION, 1))


def test_a_participant_is_added_under_their_name_and_listed_by_slug_and_role() -> None:
    values = ParticipantValues(incident="singh-2020", person="jagmeet-singh", role="NDP Leader")
    plan = planned(Verb.ADD, values)
    participant = changed(plan).participants[-1]
    assert (participant.person, participant.role, participant.party) == ("jagmeet-singh", "NDP Leader", None)
    as_participant = say(Msg.PART_AS, part=say(Msg.PART_PARTICIPANT), who="Jagmeet Singh")
    assert plan.summary == say(Msg.ADDED_SUMMARY, what=added(as_participant))
    assert forms.item_label(participant) == "jagmeet-singh: NDP Leader"


def test_only_an_add_says_that_leaving_out_the_long_text_opens_a_form() -> None:
    form = FORMS["quote"]
    opens = say(Msg.OPENS_A_FORM, description="Exactly as printed")
    assert form.describe(form.field("text"), Verb.ADD) == opens
    assert form.describe(form.field("text"), Verb.EDIT) == "Exactly as printed"
    assert form.describe(form.field("said_to"), Verb.ADD) == "Said to whom"


def test_parts_are_numbered_from_one() -> None:
    plan = planned(Verb.REMOVE, QuoteValues(incident="singh-2020", number=4))
    assert plan.what == f"{part_of(Msg.PART_QUOTE, 4)} (“I will not.” — Jagmeet Singh)"
    assert plan.summary == say(Msg.REMOVED_PART_SUMMARY, what=plan.what)
    assert "I will not." not in [quote.text for quote in changed(plan).quotes]


def test_a_number_out_of_range_says_which_numbers_there_are() -> None:
    with pytest.raises(InvalidInput) as caught:
        planned(Verb.EDIT, QuoteValues(incident="singh-2020", number=12, text="Edited."))
    assert (caught.value.msg, caught.value.fields) == (
        Msg.NO_SUCH_NUMBER,
        {"owner": "singh-2020", "part": say(Msg.PART_QUOTE), "number": 12, "count": 8},
    )


def test_a_part_of_a_motion_that_is_not_there_says_which_motions_there_are() -> None:
    with pytest.raises(InvalidInput) as caught:
        planned(Verb.EDIT, PositionValues(incident="singh-2020", motion=2, number=1, label="Greens"))
    assert (caught.value.msg, caught.value.fields) == (
        Msg.NO_SUCH_NUMBER,
        {"owner": "singh-2020", "part": say(Msg.PART_MOTION), "number": 2, "count": 1},
    )


def test_an_edit_that_changes_nothing_says_so_with_the_number_shown() -> None:
    with pytest.raises(InvalidInput) as caught:
        planned(Verb.EDIT, QuoteValues(incident="singh-2020", number=4, text="I will not."))
    assert (caught.value.msg, caught.value.fields) == (
        Msg.PART_UNCHANGED,
        {"part": say(Msg.PART_QUOTE), "index": 4, "owner": "singh-2020"},
    )


def test_an_edit_naming_no_change_is_refused() -> None:
    with pytest.raises(InvalidInput) as caught:
        planned(Verb.EDIT, PersonValues(person="jagmeet-singh"))
    assert caught.value.msg is Msg.NO_CHANGE_GIVEN


def test_an_empty_text_from_a_form_clears_an_optional_field() -> None:
    plan = planned(Verb.EDIT, QuoteValues(incident="singh-2020", number=4, said_to=""))
    assert changed(plan).quotes[3].said_to is None


def test_an_unknown_incident_is_not_found() -> None:
    with pytest.raises(NotFound) as caught:
        planned(Verb.ADD, QuoteValues(incident="nobody-2099", text="Words."))
    assert (caught.value.msg, caught.value.fields) == (Msg.NO_INCIDENT, {"slug": "nobody-2099"})


def test_an_unknown_entry_is_not_found_by_its_kind_and_key() -> None:
    with pytest.raises(NotFound) as caught:
        planned(Verb.REMOVE, PersonValues(person="nobody"))
    assert (caught.value.msg, caught.value.fields) == (
        Msg.NOT_HERE,
        {"kind": kind_name(EntityKind.PERSON), "key": "nobody"},
    )


def test_an_entry_edit_keeps_the_other_fields() -> None:
    plan = planned(Verb.EDIT, PersonValues(person="jagmeet-singh", name="Jagmeet S."))
    assert plan.change is not None
    person = plan.change(ENTRIES[EntityKind.PERSON, "jagmeet-singh"])
    assert person.model_dump()["party"] == "new-democratic-party"
    assert plan.summary == say(Msg.EDITED_SUMMARY, what=person_words("jagmeet-singh"), fields="name")


def test_a_new_incident_cites_its_main_source() -> None:
    plan = planned(
        Verb.ADD,
        IncidentValues(
            slug="doe-2021",
            title="T",
            date="2021-03-04",
            chamber="ca-house-of-commons",
            kind=IncidentKind.NAMING,
            source="singh-2020-cbc",
            summary="S.",
        ),
    )
    assert plan.change is not None
    entry = plan.change(None)
    assert isinstance(entry, IncidentEntry)
    assert entry.sources == ["singh-2020-cbc"]
    assert plan.action is AuditAction.ADD


def test_an_alias_names_its_target_by_kind_and_key() -> None:
    plan = planned(Verb.ADD, AliasValues(target="person:jagmeet-singh", alias="Jag2"))
    assert (plan.kind, plan.key, plan.summary) == (
        EntityKind.PERSON,
        "jagmeet-singh",
        say(Msg.ALIAS_ADDED_SUMMARY, alias="Jag2", of=person_words("jagmeet-singh")),
    )


def test_renaming_an_alias_needs_its_new_wording() -> None:
    with pytest.raises(InvalidInput) as caught:
        planned(Verb.EDIT, AliasValues(target="person:jagmeet-singh", alias="Jag"))
    assert caught.value.msg is Msg.NEW_WORDING_NEEDED


@pytest.mark.parametrize(
    ("verb", "values", "opens"),
    [
        (Verb.ADD, QuoteValues(incident="singh-2020"), True),
        (Verb.ADD, QuoteValues(incident="singh-2020", text="Words."), False),
        (Verb.ADD, QuoteValues(incident="singh-2020", text="  "), True),
        (Verb.EDIT, QuoteValues(incident="singh-2020", number=1), True),
        (Verb.EDIT, QuoteValues(incident="singh-2020", number=1, said_to="x"), False),
        (Verb.ADD, PersonValues(slug="x", name="X"), False),
        (Verb.EDIT, AliasValues(target="person:x", alias="a", new="b"), False),
        (Verb.REMOVE, QuoteValues(incident="singh-2020", number=1), False),
    ],
)
def test_a_form_opens_for_a_missing_long_text_or_an_edit_naming_nothing(
    verb: Verb, values: Values, opens: bool
) -> None:
    assert forms.needs_modal(verb, values) is opens


def test_a_form_submits_only_what_was_changed_and_empties_as_clears() -> None:
    shown = {"text": "I will not.", "said_to": "the Chair", "context": ""}
    submitted = {"text": "I will not. ", "said_to": "", "context": "Later."}
    values = QuoteValues(incident="singh-2020", number=4)
    assert forms.modal_changes(Verb.EDIT, values, submitted, shown) == QuoteValues(
        incident="singh-2020", number=4, said_to="", context="Later."
    )


def test_an_add_form_takes_every_text_it_submits() -> None:
    values = QuoteValues(incident="singh-2020", speaker="jagmeet-singh")
    submitted = {"text": "Words.", "speaker_label": "", "said_to": "", "context": ""}
    added = forms.modal_changes(Verb.ADD, values, submitted, {})
    assert (added.text, added.speaker, added.said_to) == ("Words.", "jagmeet-singh", "")


def test_every_form_field_is_within_discords_modal_limits() -> None:
    for form in FORMS.values():
        assert len(form.modal_fields) <= 5
        assert all(spec.max_length <= 4000 and len(spec.label) <= 45 for spec in form.modal_fields)


def test_every_field_a_modal_carries_is_labelled_from_the_catalogue() -> None:
    for form in FORMS.values():
        for spec in form.modal_fields:
            assert spec.label == say(form_spec.LABELS[spec.name]), (form.subject, spec.name)
    assert FORMS["quote"].field("said_to").label == say(Msg.LABEL_SAID_TO)


def test_a_modal_field_without_a_label_is_refused() -> None:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Unlabelled(form_spec.Values):
        remark: Annotated[str | None, form_spec.Option("A remark", modal=True, max_length=10)] = None

    with pytest.raises(TypeError, match=r"Unlabelled: no label in LABELS for the modal's remark"):
        form_spec.subcommand("unlabelled")(Unlabelled)


def test_a_form_names_its_subject_as_a_kind_a_part_or_an_alias() -> None:
    assert FORMS["person"].noun == kind_name(EntityKind.PERSON)
    assert FORMS["quote"].noun == say(Msg.PART_QUOTE)
    assert FORMS["position"].noun == say(Msg.PART_POSITION)
    assert FORMS["alias"].noun == say(Msg.PART_ALIAS)


def test_numbered_choices_show_each_part_in_a_few_words() -> None:
    listed = forms.numbered_choices(forms.items_of(FORMS["quote"], SINGH, None))
    assert listed[3] == (4, "4 — “I will not.” — Jagmeet Singh")


class EntriesOnly:
    """The shipped entries as a guild sees them, and three source keys (``forms.Library``'s reads)."""

    def visible_entry(self, *, guild_id: int, kind: EntityKind, key: str) -> Entry | None:
        return lookup(kind, key)

    def visible_keys(self, *, guild_id: int | None, kind: EntityKind) -> list[str]:
        return sorted(["a-bbc", "skinner-2016-bbc", SINGH.sources[-1]])


def test_key_choices_match_every_word_and_put_the_incidents_own_first() -> None:
    store = EntriesOnly()
    assert forms.key_choices(store, 1, EntityKind.SOURCE, "bbc") == ["a-bbc", "skinner-2016-bbc"]  # type: ignore[arg-type]
    listed = forms.key_choices(store, 1, EntityKind.SOURCE, "", incident="singh-2020")  # type: ignore[arg-type]
    assert listed == [SINGH.sources[-1], "a-bbc", "skinner-2016-bbc"]


def test_alias_choices_are_the_targets_aliases_that_contain_the_words_typed() -> None:
    person = next(p for p in DATASET.people if p.aliases)
    typed = person.aliases[0][:3]
    choices = forms.alias_choices(EntriesOnly(), 1, Ref(EntityKind.PERSON, person.slug), typed)  # type: ignore[arg-type]
    assert person.aliases[0] in choices


def test_a_reference_reads_kind_and_key_or_a_bare_slug() -> None:
    assert Ref.parse("person:jagmeet-singh") == Ref(EntityKind.PERSON, "jagmeet-singh")
    assert Ref.parse("singh-2020", default=EntityKind.INCIDENT) == Ref(EntityKind.INCIDENT, "singh-2020")
    with pytest.raises(InvalidInput) as caught:
        Ref.parse("singh-2020")
    assert (caught.value.msg, caught.value.fields) == (Msg.NOT_AN_ENTRY, {"text": "singh-2020"})
    assert Ref(EntityKind.PERSON, "jagmeet-singh").words == person_words("jagmeet-singh")


# -- the forms, as the values models declare them -------------------------------------------------------


def test_every_field_of_a_values_model_is_an_option_of_some_command_or_in_its_modal() -> None:
    for form in FORMS.values():
        asked = {spec.name for verb in Verb for spec in form.options(verb)} | set(form.modal)
        assert asked == {declared.name for declared in dataclasses.fields(form.values)}, form.subject


def test_the_french_texts_are_given_in_the_modal_only() -> None:
    """Discord caps a command's size, and /suggest-edit has no room left for more options."""
    for subject, names in (("incident", {"title_fr", "summary_fr"}), ("ruling", {"summary_fr"})):
        form = FORMS[subject]
        assert names <= set(form.modal)
        assert names.isdisjoint(spec.name for verb in Verb for spec in form.options(verb))


def test_a_position_is_addressed_by_incident_then_motion_then_number() -> None:
    names = [spec.name for spec in FORMS["position"].options(Verb.EDIT)]
    assert names[:3] == ["incident", "motion", "number"]
    assert [spec.name for spec in FORMS["position"].options(Verb.ADD)][:2] == ["incident", "motion"]


def test_an_add_asks_for_its_required_fields_first_and_an_edit_for_none() -> None:
    add = FORMS["quote"].options(Verb.ADD)
    assert [spec.required for spec in add] == sorted((spec.required for spec in add), reverse=True)
    assert not any(spec.required for spec in FORMS["incident"].options(Verb.EDIT)[1:])
    assert FORMS["incident"].options(Verb.REMOVE) == FORMS["incident"].addresses


def test_text_limits_come_from_the_dataset_models() -> None:
    models = {"quote": QuoteEntry, "ruling": RulingEntry, "party": PartyEntry, "source": SourceEntry}
    for subject, model in models.items():
        for spec in FORMS[subject].fields:
            if spec.input not in form_spec.TYPED_TEXTS:
                continue  # a reference or vocabulary: its transformer or choices bound it
            info = model.model_fields.get(spec.name)
            constraints = [m for m in info.metadata if hasattr(m, "max_length")] if info else []
            if constraints:
                assert spec.max_length == constraints[0].max_length, (subject, spec.name)
    assert FORMS["quote"].field("said_to").max_length == LABEL_MAX
    assert FORMS["party"].field("abbreviation").max_length == ABBREVIATION_MAX
    assert FORMS["source"].field("published").max_length == len("2020-06-17")


def test_a_field_typed_with_an_enum_is_a_vocabulary() -> None:
    outcome = FORMS["ruling"].field("outcome")
    assert (outcome.input, outcome.vocabulary) == (form_spec.Input.VOCABULARY, RulingOutcome)


def test_a_values_model_takes_only_its_own_options() -> None:
    with pytest.raises(TypeError):
        QuoteValues(incident="singh-2020", txt="Words.")  # type: ignore[call-arg]


def test_a_field_without_an_option_or_address_is_refused() -> None:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Undeclared(form_spec.Values):
        note: str | None = None

    with pytest.raises(TypeError, match=r"Undeclared\.note needs an Option or an Address"):
        form_spec.subcommand("undeclared")(Undeclared)
    assert "undeclared" not in FORMS


def test_the_values_model_knows_its_form() -> None:
    assert QuoteValues.form is FORMS["quote"]
    assert FORMS["quote"].values is QuoteValues
    assert list(FORMS) == [
        "incident",
        "participant",
        "quote",
        "ruling",
        "motion",
        "position",
        "person",
        "party",
        "source",
        "term",
        "alias",
    ]


# -- references as typed, and problems in a moderator's words --------------------------------------------

CBC = references.Named("singh-2020-cbc", "CBC News", ("CBC News",))
CASTANET = references.Named(
    "singh-2020-castanet", "Castanet: Singh removed", ("Castanet / The Canadian Press", "Singh removed")
)
COMMONS = (
    references.Named(
        "ca-house-of-commons", "House of Commons of Canada", ("House of Commons of Canada", "Canada")
    ),
    references.Named("uk-house-of-commons", "House of Commons", ("House of Commons", "United Kingdom")),
)


def test_a_source_is_matched_by_its_key_its_publisher_or_a_word_of_its_title() -> None:
    assert references.matched("singh-2020-cbc", [CBC, CASTANET]) == "singh-2020-cbc"
    assert references.matched("cbc", [CBC, CASTANET]) == "singh-2020-cbc"
    assert references.matched("canadian press", [CBC, CASTANET]) == "singh-2020-castanet"


def test_a_word_both_chambers_share_is_a_close_call_and_an_unrelated_word_matches_nothing() -> None:
    assert references.matched("uk commons", COMMONS) == "uk-house-of-commons"
    assert references.matched("commons", COMMONS) == references.Close(COMMONS)
    assert references.matched("globe", [CBC, CASTANET]) == references.Unknown((CBC, CASTANET))


def test_a_close_call_is_refused_naming_the_option_and_each_candidates_slug() -> None:
    with pytest.raises(InvalidInput) as caught:
        references.settled(
            references.Close(COMMONS), option="chamber", kind=EntityKind.CHAMBER, text="commons"
        )
    assert caught.value.msg is Msg.REFERENCE_AMBIGUOUS
    assert caught.value.fields["option"] == "chamber"
    assert caught.value.fields["choices"] == (
        "• House of Commons of Canada — `ca-house-of-commons`\n• House of Commons — `uk-house-of-commons`"
    )


def place(part: Msg, number: int, label: str | None = None) -> str:
    if label is None:
        return say(Msg.PLACE, part=say(part), number=number)
    return say(Msg.PLACE_NAMED, part=say(part), number=number, label=label)


def test_a_path_is_said_as_the_part_numbered_from_one_with_who_it_is_of() -> None:
    where = problems.where
    assert where(problems.location("quotes[6].source")) == say(
        Msg.FIELD_OF, field="source", place=place(Msg.PART_QUOTE, 7)
    )
    names = {"jagmeet-singh": "Jagmeet Singh"}
    participant = SINGH.participants[0]
    assert participant.person == "jagmeet-singh"
    assert where(problems.location("participants[0].party"), SINGH, names) == say(
        Msg.FIELD_OF, field="party", place=place(Msg.PART_PARTICIPANT, 1, "Jagmeet Singh")
    )
    position = SINGH.motions[0].positions[1]
    of_motion_1 = say(
        Msg.PLACE_IN, place=place(Msg.PART_POSITION, 2, position.label), owner=place(Msg.PART_MOTION, 1)
    )
    assert where(problems.location("motions[0].positions[1].stance"), SINGH) == say(
        Msg.FIELD_OF, field="stance", place=of_motion_1
    )
    assert where(problems.location("title")) == "`title`"


def test_a_slug_of_the_wrong_shape_is_shown_as_it_would_be_written() -> None:
    plan = planned(Verb.ADD, PersonValues(slug="Jane Doe", name="Jane Doe"))
    assert plan.change is not None
    with pytest.raises(InvalidInput) as caught:
        plan.change(None)
    slug = say(Msg.NOT_A_SLUG, path="`slug`", value="Jane Doe", example="jane-doe")
    assert caught.value.fields == {"problem": slug}


def test_a_reference_of_the_wrong_shape_gets_an_example_of_its_own_kind() -> None:
    plan = planned(Verb.ADD, PersonValues(slug="jane-doe", name="Jane Doe", party="N.D.P."))
    assert plan.change is not None
    with pytest.raises(InvalidInput) as caught:
        plan.change(None)
    party = say(Msg.NOT_A_SLUG, path="`party`", value="N.D.P.", example="new-democratic-party")
    assert caught.value.fields == {"problem": party}
