"""``Settings.from_env``: the environment wins over ``.env``, and a value that is not allowed says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import COOLDOWNS, Settings, SettingsError


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("SYNC_COMMANDS=yes\nSYNC_GUILD_ID=7\nLOG_LEVEL=debug\n", encoding="utf-8")

    settings = Settings.from_env({"SYNC_GUILD_ID": "42"}, env_file)

    assert (settings.sync_commands, settings.sync_guild_id, settings.log_level) == (True, 42, "DEBUG")


def test_empty_values_take_the_defaults(tmp_path: Path) -> None:
    settings = Settings.from_env({"SYNC_COMMANDS": "", "SYNC_GUILD_ID": " ", "LOG_LEVEL": ""}, None)

    assert (settings.sync_commands, settings.sync_guild_id, settings.log_level) == (False, None, "INFO")


def test_the_cooldowns_are_the_tables_unless_turned_off() -> None:
    assert Settings.from_env({}, None).cooldowns == COOLDOWNS
    assert Settings.from_env({"COOLDOWNS": "on"}, None).cooldowns == COOLDOWNS
    assert Settings.from_env({"COOLDOWNS": "off"}, None).cooldowns == {}


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("SYNC_COMMANDS", "maybe", "1/true/yes/on/0/false/no/off"),
        ("SYNC_GUILD_ID", "my-server", "its digits"),
        ("LOG_LEVEL", "loud", "DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ("STOP_GRACE_SECONDS", "-1", "a number above 0"),
        ("COOLDOWNS", "sometimes", "1/true/yes/on/0/false/no/off"),
    ],
)
def test_a_value_that_is_not_allowed_names_the_variable_the_value_and_the_choices(
    name: str, value: str, allowed: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        Settings.from_env({name: value}, None)

    message = str(raised.value)
    assert message.startswith(f"{name}={value!r} ")
    assert allowed in message
    assert "\n" not in message


def test_the_index_snapshot_goes_in_the_user_cache_folder_one_file_per_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = Settings.from_env({"DATABASE_URL": "sqlite:////srv/first.sqlite3"}, None).index_snapshot
    second = Settings.from_env({"DATABASE_URL": "postgresql://bot@db/parlbot"}, None).index_snapshot

    assert first is not None
    assert second is not None
    assert first.parent == second.parent == tmp_path / "parlbot"
    assert first != second
    assert first.suffix == ".snapshot"


def test_an_in_memory_database_has_no_index_snapshot() -> None:
    assert Settings.from_env({"DATABASE_URL": "sqlite://"}, None).index_snapshot is None


def test_index_snapshot_names_its_file_or_turns_it_off(tmp_path: Path) -> None:
    named = Settings.from_env({"INDEX_SNAPSHOT": str(tmp_path / "index.snapshot")}, None)
    off = Settings.from_env({"INDEX_SNAPSHOT": "off"}, None)

    assert named.index_snapshot == tmp_path / "index.snapshot"
    assert off.index_snapshot is None
