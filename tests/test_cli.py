"""The ``parlbot`` command line, run in-process through ``bot.cli.main`` (and once as a real process)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.cli import main
from bot.loopback.payloads import MEMBER_PERMISSIONS
from bot.loopback.rest import FakeDiscord
from bot.messages.catalogue import Msg, say
from tests.cli_harness import Whoami, run_parlbot, with_test_cogs
from tests.excerpts import excerpt_folder, holding_document


def default_file(workdir: Path) -> Path:
    """The default database file of a ``workdir`` test (whose user data folder is ``data/``)."""
    return (workdir / "data" / "parlbot" / "parlbot.sqlite3").resolve()


def test_ask_prints_the_answer_readably(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ask", "/incident singh-2020"])

    out = capsys.readouterr().out
    assert code == 0
    assert "## NDP Leader Jagmeet Singh ordered out of the Commons" in out
    assert f"{say(Msg.PEOPLE_INVOLVED)}: **Jagmeet Singh**" in out
    assert f"[{say(Msg.WHO_OBJECTED)}]" in out
    assert f"-- {say(Msg.UNOFFICIAL)} · singh-2020" in out


def test_ask_saves_the_index_in_the_user_cache_folder_and_answers_from_it_next_time(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["ask", "/incident singh-2020"])
    first = capsys.readouterr().out
    [snapshot] = (workdir / "cache" / "parlbot").glob("index-*.snapshot")
    saved = snapshot.stat().st_mtime_ns

    code = main(["ask", "/incident singh-2020"])

    assert code == 0
    assert capsys.readouterr().out == first
    assert snapshot.stat().st_mtime_ns == saved  # loaded, not built and saved again


def test_ask_json_prints_each_request_with_its_exact_body(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["ask", "--json", "/who-objected singh 2020"])

    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert [line["route"] for line in lines] == ["callback"]
    body = lines[0]["body"]
    assert body["type"] == 4
    assert body["data"]["allowed_mentions"] == {"parse": []}
    assert "Bloc" in json.dumps(body["data"]["embeds"], ensure_ascii=False)


def test_ask_moderator_gives_the_member_manage_server_and_nothing_more(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with_test_cogs(monkeypatch, Whoami)

    code = main(["ask", "--moderator", "/whoami"])

    out = capsys.readouterr().out
    assert code == 0
    manage_server = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True)
    assert f"permissions={manage_server.value} " in out


def test_ask_without_moderator_asks_as_a_member_without_manage_server(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with_test_cogs(monkeypatch, Whoami)

    code = main(["ask", "/whoami"])

    out = capsys.readouterr().out
    assert code == 0
    assert f"permissions={MEMBER_PERMISSIONS.value} roles=\n" in out
    assert not MEMBER_PERMISSIONS.manage_guild


def test_ask_roles_gives_the_member_those_roles(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with_test_cogs(monkeypatch, Whoami)

    code = main(["ask", "--roles", "1,2", "--user", "42", "/whoami"])

    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("user=42 ")
    assert out.rstrip().endswith("roles=1,2")


def test_ask_rejects_a_role_that_is_not_an_id(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["ask", "--roles", "1,mods", "/help"])

    assert exit_info.value.code == 2
    assert "'mods' is not a Discord id" in capsys.readouterr().err


def test_ask_marks_a_private_no_match_answer_and_still_succeeds(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["ask", "/incident qqqqzzzz"])

    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("(only you can see this)")
    assert "qqqqzzzz" in out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/incidnt singh", "Unknown command /incidnt. Did you mean /incident?"),
        ("incident singh", "Commands start with '/'"),
        ("/incident", "Missing required option query for /incident. Usage: /incident query:<text>"),
        ("/incident singh colour:red", "/incident has no option 'colour'. Options: query."),
    ],
)
def test_ask_explains_a_malformed_command_and_exits_2(
    workdir: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    code = main(["ask", line])

    captured = capsys.readouterr()
    assert code == 2
    assert message in captured.err
    assert captured.out == ""


def test_complete_prints_one_suggestion_per_line(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["complete", "/incident query:singh"])

    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0].endswith(" -> singh-2020")
    assert lines[0].startswith("NDP Leader Jagmeet Singh")
    assert len(lines) <= 25


def test_complete_json_prints_the_autocomplete_callback_body(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["complete", "--json", "/person query:therr"])

    body = json.loads(capsys.readouterr().out)
    assert code == 0
    assert body["type"] == 8
    assert any("Therrien" in choice["name"] for choice in body["data"]["choices"])


def test_run_without_a_token_exits_2_and_says_what_to_set(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run"])

    err = capsys.readouterr().err
    assert code == 2
    assert "DISCORD_TOKEN is not set" in err


def test_the_default_database_is_created_migrated_and_seeded_on_first_use(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DATABASE_URL")

    code = main(["ask", "/incident singh-2020"])

    assert code == 0
    assert default_file(workdir).is_file()
    assert not (workdir / "parlbot.sqlite3").exists()  # not where the command happened to run
    assert "Jagmeet Singh" in capsys.readouterr().out


def test_db_where_names_the_default_file_and_a_configured_url_without_its_password(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DATABASE_URL")
    assert main(["db", "where"]) == 0
    assert capsys.readouterr().out.strip() == str(default_file(workdir))
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://bot:secret@127.0.0.1/parlbot")
    assert main(["db", "where"]) == 0
    shown = capsys.readouterr().out
    assert "127.0.0.1/parlbot" in shown
    assert "secret" not in shown


def test_db_upgrade_seed_and_export_round_trip(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{workdir / 'fresh.sqlite3'}")

    assert main(["db", "upgrade"]) == 0
    assert main(["db", "seed"]) == 0
    assert main(["db", "export", "out.json"]) == 0

    exported = json.loads((workdir / "out.json").read_text(encoding="utf-8"))
    assert exported["format"] == "parlbot-dataset"
    assert "singh-2020" in {incident["slug"] for incident in exported["incidents"]}
    assert "Exported" in capsys.readouterr().out


def test_sync_publishes_every_command_and_discord_accepts_them(
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fake_discord_in_a_thread: FakeDiscord,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("DISCORD_API_BASE", fake_discord_in_a_thread.api_base)

    code = main(["sync", "--guild", "4242"])

    assert code == 0
    sync = [r for r in fake_discord_in_a_thread.requests if r.route == "sync_commands"]
    assert [(r.path, r.status) for r in sync] == [
        (f"/applications/{fake_discord_in_a_thread.application_id}/guilds/4242/commands", 200)
    ]
    names = {command["name"] for command in fake_discord_in_a_thread.commands[4242]}
    assert {"incident", "who-objected", "quote", "ruling", "person", "search", "help"} <= names
    assert "Synced" in capsys.readouterr().out


def test_parlbot_ask_json_works_as_a_real_process(workdir: Path) -> None:
    result = run_parlbot("ask", "--json", "/incident singh-2020", cwd=workdir)

    assert result.returncode == 0, result.stderr
    first = json.loads(result.stdout.splitlines()[0])
    assert first["route"] == "callback"
    assert first["body"]["type"] == 4
    assert "Jagmeet Singh" in first["body"]["data"]["embeds"][0]["title"]


@pytest.mark.parametrize(
    ("name", "value"), [("SYNC_COMMANDS", "maybe"), ("SYNC_GUILD_ID", "abc"), ("LOG_LEVEL", "loud")]
)
def test_a_setting_that_is_not_allowed_is_one_line_and_exit_2(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)

    code = main(["ask", "/help"])

    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith(f"parlbot: error: {name}={value!r} ")
    assert captured.err.count("\n") == 1
    assert captured.out == ""


def test_a_setting_that_is_not_allowed_gives_no_traceback_as_a_real_process(workdir: Path) -> None:
    (workdir / ".env").write_text("SYNC_COMMANDS=maybe\n", encoding="utf-8")

    result = run_parlbot("ask", "/help", cwd=workdir)

    assert result.returncode == 2
    assert result.stderr.startswith("parlbot: error: SYNC_COMMANDS='maybe' ")
    assert "Traceback" not in result.stderr


def test_postgresql_without_its_driver_names_the_postgres_extra(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://parlbot@127.0.0.1:1/parlbot")
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now raises ModuleNotFoundError

    code = main(["ask", "/incident singh-2020"])

    err = capsys.readouterr().err
    assert code == 2
    assert 'pip install -e ".[postgres]"' in err
    assert err.count("\n") == 1


def test_db_export_on_a_fresh_machine_exports_the_shipped_incidents(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DATABASE_URL")

    code = main(["db", "export", "out.json"])

    exported = json.loads((workdir / "out.json").read_text(encoding="utf-8"))
    assert code == 0
    assert default_file(workdir).is_file()
    assert "singh-2020" in {incident["slug"] for incident in exported["incidents"]}
    assert "(0 incidents)" not in capsys.readouterr().out


def test_output_into_a_closed_pipe_ends_quietly(workdir: Path) -> None:
    script = Path(sys.executable).with_name("parlbot")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]
    with subprocess.Popen(
        [*command, "ask", "/incident singh-2020"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=workdir,
        env={**os.environ},
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.close()  # the reader goes away before the answer is written, as `| head` does
        err = process.stderr.read()
        code = process.wait(timeout=120)

    assert err == b""
    assert code in (0, 141, -signal.SIGPIPE)


def written(path: Path, document: object) -> str:
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_db_check_of_a_file_that_holds_says_so_and_exits_0(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = written(workdir / "small.json", holding_document())
    folder = excerpt_folder()
    assert main(["db", "check", file, "--sources", str(folder)]) == 0
    assert capsys.readouterr().out == f"{file} holds: checked structure and provenance ({folder}).\n"


def test_db_check_prints_each_problem_with_its_entry_and_field_and_exits_1(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = holding_document()
    document["incidents"][0]["quotes"][0]["text"] = "I will not apologize to anyone"
    document["incidents"][0]["summary"] = "Singh “wept openly in the chamber”."
    file = written(workdir / "fooled.json", document)
    assert main(["db", "check", file, "--sources", str(excerpt_folder())]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "incident singh-2020 · quotes[0].text: “I will not apologize to anyone” is not in the text of "
        "huffpost (singh-2020.txt SOURCE 1)",
        "incident singh-2020 · summary: “wept openly in the chamber” is not in any of the incident's "
        "cited sources",
    ]
    assert "2 problem(s)" in captured.err


def test_db_check_without_sources_runs_the_structural_part_only(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = holding_document()
    document["incidents"][0]["quotes"][0]["text"] = "words no source prints"
    document["incidents"][0]["participants"][0]["person"] = "jagmet-singh"
    file = written(workdir / "moderator.json", document)
    assert main(["db", "check", file]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("incident singh-2020 · participants[0].person: unknown person 'jagmet-singh'")


def test_db_check_of_a_folder_that_is_not_there_is_a_usage_error(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = written(workdir / "small.json", holding_document())
    assert main(["db", "check", file, "--sources", str(workdir / "nowhere")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_db_check_exits_1_as_a_real_process(workdir: Path) -> None:
    document = holding_document()
    document["incidents"][0]["quotes"][0]["speaker"] = "carol-hughes"
    file = written(workdir / "reattributed.json", document)
    result = run_parlbot("db", "check", file, "--sources", str(excerpt_folder()), cwd=workdir)
    assert result.returncode == 1
    assert "quotes[0].speaker: the source gives these words to Jagmeet Singh" in result.stdout
