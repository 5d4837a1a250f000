"""The classroom rules in the core: guild settings (cached in the Library), collections read in the
guild's view, the timeline's filters and the nearest anniversaries."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.classroom import collections
from bot.classroom.collections import name_key
from bot.classroom.incidents import IncidentLine, TimelineFilters, anniversaries
from bot.curation.changes import Actor, EntityKind
from bot.errors import InvalidInput, NotFound
from bot.library import Library
from bot.messages.catalogue import Msg
from db.models import COLLECTION_NAME_MAX
from tests.test_curation import renamed

GUILD = 1_000_000_000_000_001
OTHER = 1_000_000_000_000_002
TEACHER = Actor(GUILD, 501)
ELSEWHERE = Actor(OTHER, 601)
CHANNEL = 1_000_000_000_000_101


# -- settings ---------------------------------------------------------------------------------------


def test_a_guild_without_settings_answers_publicly_in_english_and_its_moderators_teach(
    library: Library,
) -> None:
    assert library.replies_private(GUILD, CHANNEL) is False
    assert library.guild_language(GUILD) is None
    assert library.teacher_role(GUILD) is None


def test_a_channel_setting_overrides_the_guilds(library: Library) -> None:
    library.set_ephemeral(actor=TEACHER, channel_id=None, private=True)
    library.set_ephemeral(actor=TEACHER, channel_id=CHANNEL, private=False)

    assert library.replies_private(GUILD, CHANNEL) is False
    assert library.replies_private(GUILD, CHANNEL + 1) is True
    assert library.replies_private(OTHER, CHANNEL + 1) is False


def test_a_channel_that_follows_the_guild_again_loses_its_own_setting(library: Library) -> None:
    library.set_ephemeral(actor=TEACHER, channel_id=CHANNEL, private=True)
    library.set_ephemeral(actor=TEACHER, channel_id=CHANNEL, private=None)

    assert library.replies_private(GUILD, CHANNEL) is False
    assert library.guild_settings(GUILD).channels == {}


def test_settings_are_read_once_and_kept_fresh_by_each_write(library: Library) -> None:
    assert library.guild_language(GUILD) is None  # the first read fills the memory
    library.set_language(actor=TEACHER, language="fr")
    library.set_teacher_role(actor=TEACHER, role_id=77)

    assert library.guild_language(GUILD) == "fr"
    assert library.teacher_role(GUILD) == 77
    reopened = Library(library.database, library.index)
    assert reopened.guild_language(GUILD) == "fr"
    assert reopened.teacher_role(GUILD) == 77


def test_the_moderator_role_and_the_teacher_role_are_kept_apart(library: Library) -> None:
    library.set_teacher_role(actor=TEACHER, role_id=77)
    library.set_moderator_role(actor=TEACHER, role_id=88)

    assert library.moderator_role(guild_id=GUILD) == 88
    assert library.teacher_role(GUILD) == 77
    library.set_teacher_role(actor=TEACHER, role_id=None)
    assert library.teacher_role(GUILD) is None
    assert library.moderator_role(guild_id=GUILD) == 88


# -- collections ------------------------------------------------------------------------------------


def test_adding_to_a_new_name_starts_the_collection(library: Library) -> None:
    change = library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")

    assert change.created
    assert change.count == 1
    assert library.collection_incidents(GUILD, "Unit 1") == ["singh-2020"]


def test_names_are_one_collection_whatever_their_case_and_spacing(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")
    change = library.add_to_collection(actor=TEACHER, name="  unit   1 ", slug="skinner-2016")

    assert not change.created
    assert change.name == "Unit 1"
    assert library.collection_incidents(GUILD, "UNIT 1") == ["singh-2020", "skinner-2016"]
    assert name_key("UNIT  1") == name_key("unit 1")


def test_collections_belong_to_their_guild(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")

    with pytest.raises(NotFound) as refused:
        library.collection_incidents(OTHER, "Unit 1")
    assert refused.value.msg is Msg.COLLECTION_UNKNOWN
    library.add_to_collection(actor=ELSEWHERE, name="Unit 1", slug="butler-2021")
    assert library.collection_incidents(GUILD, "unit 1") == ["singh-2020"]


def test_an_incident_is_in_a_collection_once(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")

    with pytest.raises(InvalidInput) as refused:
        library.add_to_collection(actor=TEACHER, name="unit 1", slug="singh-2020")
    assert refused.value.msg is Msg.COLLECTION_ALREADY_IN


def test_an_incident_the_guild_does_not_see_is_not_added(library: Library) -> None:
    with pytest.raises(NotFound) as refused:
        library.add_to_collection(actor=TEACHER, name="Unit 1", slug="no-such-incident")
    assert refused.value.msg is Msg.INCIDENT_GONE
    assert library.collections(GUILD) == []


@pytest.mark.parametrize(
    ("name", "msg"),
    [("   ", Msg.COLLECTION_NAME_EMPTY), ("x" * (COLLECTION_NAME_MAX + 1), Msg.COLLECTION_NAME_TOO_LONG)],
)
def test_a_name_must_be_given_and_short(library: Library, name: str, msg: Msg) -> None:
    with pytest.raises(InvalidInput) as refused:
        library.add_to_collection(actor=TEACHER, name=name, slug="singh-2020")
    assert refused.value.msg is msg


def test_a_full_collection_takes_no_more(library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collections, "ITEMS_MAX", 2)
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="skinner-2016")

    with pytest.raises(InvalidInput) as refused:
        library.add_to_collection(actor=TEACHER, name="Unit 1", slug="butler-2021")
    assert refused.value.msg is Msg.COLLECTION_FULL
    assert library.collection_incidents(GUILD, "Unit 1") == ["singh-2020", "skinner-2016"]


def test_removing_an_incident_keeps_the_rest_in_order(library: Library) -> None:
    for slug in ("singh-2020", "skinner-2016", "butler-2021"):
        library.add_to_collection(actor=TEACHER, name="Unit 1", slug=slug)

    change = library.remove_from_collection(actor=TEACHER, name="unit 1", slug="skinner-2016")

    assert change.count == 2
    assert library.collection_incidents(GUILD, "Unit 1") == ["singh-2020", "butler-2021"]


def test_removing_an_incident_not_in_the_collection_is_refused(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")

    with pytest.raises(InvalidInput) as refused:
        library.remove_from_collection(actor=TEACHER, name="Unit 1", slug="skinner-2016")
    assert refused.value.msg is Msg.COLLECTION_NOT_IN


def test_removing_a_collection_leaves_its_incidents_and_frees_its_name(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")

    change = library.remove_collection(actor=TEACHER, name="UNIT 1")

    assert change.count == 1
    assert library.collections(GUILD) == []
    assert library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020").created


def test_a_removed_incident_leaves_the_collection_until_it_is_restored(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")

    library.remove(actor=TEACHER, kind=EntityKind.INCIDENT, key="singh-2020")
    assert library.collection_incidents(GUILD, "Unit 1") == []
    library.restore(actor=TEACHER, kind=EntityKind.INCIDENT, key="singh-2020")
    assert library.collection_incidents(GUILD, "Unit 1") == ["singh-2020"]


def test_a_collection_shows_the_guilds_own_copy_of_an_edited_incident(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="singh-2020")

    library.apply(
        actor=TEACHER,
        kind=EntityKind.INCIDENT,
        key="singh-2020",
        change=renamed(EntityKind.INCIDENT),
        summary="corrected the title",
    )

    assert [line.title for line in library.collection(GUILD, "Unit 1").incidents] == ["Corrected name"]


def test_the_names_offered_contain_what_is_typed(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1: order", slug="singh-2020")
    library.add_to_collection(actor=TEACHER, name="Unit 2: privilege", slug="skinner-2016")

    assert library.collection_names(GUILD, "PRIV") == ["Unit 2: privilege"]
    assert library.collection_names(GUILD) == ["Unit 1: order", "Unit 2: privilege"]


# -- warm-ups ---------------------------------------------------------------------------------------


def test_the_timeline_is_in_date_order(library: Library) -> None:
    dates = [line.date for line in library.timeline(GUILD)]

    assert dates == sorted(dates)
    assert len(dates) == 12


def test_the_timeline_narrows_to_a_chamber_a_person_and_dates(library: Library) -> None:
    filters = TimelineFilters(
        chamber="ca-house-of-commons",
        person="justin-trudeau",
        start=dt.date(2012, 1, 1),
        end=dt.date(2024, 12, 31),
    )

    assert [line.slug for line in library.timeline(GUILD, filters)] == ["trudeau-2016", "poilievre-2024"]


def test_a_person_is_found_in_the_incidents_they_ruled_in(library: Library) -> None:
    slugs = [line.slug for line in library.timeline(GUILD, TimelineFilters(person="john-bercow"))]

    assert slugs == ["skinner-2016", "russell-moyle-2018"]


def test_random_draws_within_the_collection(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="butler-2021")

    drawn = {library.random_incident(GUILD, collection="unit 1").embeds[0]["title"] for _ in range(5)}

    assert len(drawn) == 1
    assert "Butler" in drawn.pop()


def test_random_with_nothing_to_draw_from_says_so(library: Library) -> None:
    library.add_to_collection(actor=TEACHER, name="Unit 1", slug="butler-2021")

    with pytest.raises(NotFound) as refused:
        library.random_incident(GUILD, collection="Unit 1", chamber="ca-house-of-commons")
    assert refused.value.msg is Msg.RANDOM_NOTHING


def line(slug: str, day: dt.date) -> IncidentLine:
    return IncidentLine(slug, slug, day, "House")


LINES = [line("a", dt.date(2020, 6, 17)), line("b", dt.date(2011, 6, 17)), line("c", dt.date(2016, 12, 10))]


def test_anniversaries_on_the_day_are_exact_and_oldest_first() -> None:
    found = anniversaries(LINES, dt.date(2026, 6, 17))

    assert found is not None
    assert found.exact
    assert [item.slug for item in found.lines] == ["b", "a"]


def test_without_an_anniversary_today_the_nearest_is_told() -> None:
    found = anniversaries(LINES, dt.date(2026, 12, 1))

    assert found is not None
    assert not found.exact
    assert [item.slug for item in found.lines] == ["c"]


def test_the_nearest_anniversary_may_be_across_new_year() -> None:
    found = anniversaries(
        [line("x", dt.date(2019, 1, 2)), line("y", dt.date(2019, 6, 1))], dt.date(2026, 12, 30)
    )

    assert found is not None
    assert [item.slug for item in found.lines] == ["x"]


def test_on_a_tie_the_next_anniversary_wins() -> None:
    found = anniversaries(
        [line("past", dt.date(2019, 3, 8)), line("next", dt.date(2019, 3, 12))], dt.date(2026, 3, 10)
    )

    assert found is not None
    assert [item.slug for item in found.lines] == ["next"]


def test_the_library_tells_the_anniversaries_of_its_clocks_today(library: Library) -> None:
    library.today = lambda: dt.date(2030, 6, 17)

    found = library.on_this_day(GUILD)

    assert found is not None
    assert found.exact
    assert [item.slug for item in found.lines] == ["singh-2020"]
