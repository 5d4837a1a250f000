"""``SHARD_COUNT``, ``SHARD_IDS`` and ``OVERLAY_IDLE_SECONDS``: read, defaulted, and refused with a reason."""

from __future__ import annotations

import pytest

from bot.settings import OVERLAY_IDLE_SECONDS, Settings, SettingsError


def test_shard_ids_are_read_as_a_comma_list_within_the_shard_count() -> None:
    settings = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": " 0, 2 "}, None)

    assert (settings.shard_count, settings.shard_ids) == (4, (0, 2))


def test_a_shard_count_without_shard_ids_serves_every_shard() -> None:
    settings = Settings.from_env({"SHARD_COUNT": "3"}, None)

    assert (settings.shard_count, settings.shard_ids) == (3, None)


def test_without_shard_settings_the_bot_is_not_sharded_and_overlays_idle_an_hour() -> None:
    settings = Settings.from_env({"SHARD_COUNT": "", "SHARD_IDS": "", "OVERLAY_IDLE_SECONDS": ""}, None)

    assert (settings.shard_count, settings.shard_ids) == (None, None)
    assert settings.overlay_idle_seconds == OVERLAY_IDLE_SECONDS == 3600


def test_overlay_idle_seconds_takes_a_fraction() -> None:
    assert Settings.from_env({"OVERLAY_IDLE_SECONDS": "90.5"}, None).overlay_idle_seconds == 90.5


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT='0' is not a number of shards; use a whole number from 1 up."),
        (
            {"SHARD_COUNT": "two"},
            "SHARD_COUNT='two' is not a number of shards; use a whole number from 1 up.",
        ),
        ({"SHARD_IDS": "0"}, "SHARD_IDS='0' needs SHARD_COUNT, the number of shards in all."),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "0;2"},
            "SHARD_IDS='0;2' is not a comma list of shard numbers, such as 0,2.",
        ),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "1,4"},
            "SHARD_IDS='1,4' must name distinct shards from 0 to 3 (SHARD_COUNT=4).",
        ),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "2,2"},
            "SHARD_IDS='2,2' must name distinct shards from 0 to 3 (SHARD_COUNT=4).",
        ),
        (
            {"OVERLAY_IDLE_SECONDS": "-5"},
            "OVERLAY_IDLE_SECONDS='-5' is not a number of seconds; use a number above 0.",
        ),
        (
            {"OVERLAY_IDLE_SECONDS": "soon"},
            "OVERLAY_IDLE_SECONDS='soon' is not a number of seconds; use a number above 0.",
        ),
    ],
)
def test_a_shard_or_overlay_setting_that_is_not_allowed_says_what_is(
    environ: dict[str, str], message: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        Settings.from_env(environ, None)

    assert str(raised.value) == message
