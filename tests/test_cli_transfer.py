"""``parlbot db import`` and ``db export``: the plan table, dry runs, exit codes, the progress bar."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import ProgressBar, main
from bot.curation import transfer
from bot.messages.catalogue import Msg, say
from db.dataset.schema import SHIPPED_DATASET
from tests.cli_harness import run_parlbot

GUILD = "3000000000000000001"


def write(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def with_new_person(**person: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SHIPPED_DATASET.read_text(encoding="utf-8"))
    document["people"].append({"slug": "jane-doe", "name": "Jane Doe", **person})
    return document


def rows(out: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines()]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_db_import_dry_run_prints_the_plan_and_writes_nothing(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(workdir / "in.json", with_new_person())

    code = main(["db", "import", str(path), "--guild", GUILD, "--dry-run"])
    main(["db", "export", "out.json", "--guild", GUILD])

    out = capsys.readouterr().out
    assert code == 0
    assert f"Importing {path} into guild {GUILD}:" in out
    assert ["person", "1", "0", "58", "0"] in rows(out)
    assert "Dry run: nothing was written (1 added, 0 changed, 136 unchanged, 0 rejected)." in out
    assert json.loads((workdir / "out.json").read_text(encoding="utf-8"))["people"] == []


def test_db_import_writes_all_and_ends_with_the_full_progress_line(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(workdir / "in.json", with_new_person())

    code = main(["db", "import", str(path), "--guild", GUILD])
    main(["db", "export", "out.json", "--guild", GUILD])

    captured = capsys.readouterr()
    assert code == 0
    assert (
        "Imported into guild 3000000000000000001: 1 added, 0 changed, 136 unchanged, 0 rejected."
        in captured.out
    )
    assert captured.err == f"[{'#' * ProgressBar.WIDTH}] 1/1\n"  # not a terminal: no redraws
    exported = json.loads((workdir / "out.json").read_text(encoding="utf-8"))
    assert exported["people"] == [{"slug": "jane-doe", "name": "Jane Doe", "aliases": []}]


def test_db_import_judges_the_file_once_and_prints_the_plan_it_then_writes(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(workdir / "in.json", with_new_person())
    plans: list[transfer.ImportPlan] = []
    plan = transfer._plan

    def counted(*args: Any, **options: Any) -> Any:
        made = plan(*args, **options)
        plans.append(made[0])
        return made

    monkeypatch.setattr(transfer, "_plan", counted)
    code = main(["db", "import", str(path), "--guild", GUILD])

    out = capsys.readouterr().out
    assert code == 0
    assert len(plans) == 1  # the table printed is the plan written, read inside the write's transaction
    assert out.index(transfer.plan_table(plans[0])) < out.index("Imported into guild")
    assert ["person", "1", "0", "58", "0"] in rows(out)


def test_db_import_with_a_rejected_row_exits_1_with_the_reasons_and_writes_nothing(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = with_new_person()
    document["people"].append({"slug": "john-roe", "name": "John Roe", "party": "whigs"})
    path = write(workdir / "in.json", document)

    code = main(["db", "import", str(path), "--guild", GUILD])
    main(["db", "export", "out.json", "--guild", GUILD])

    captured = capsys.readouterr()
    assert code == 1
    assert ["total", "1", "0", "136", "1"] in rows(captured.out)
    reasons = "• people[59] (person john-roe): people[59].party: unknown party 'whigs'"
    assert captured.err == f"parlbot: {say(Msg.REFUSED_ONE, count=1, reasons=reasons)}\n"
    assert json.loads((workdir / "out.json").read_text(encoding="utf-8"))["people"] == []


def test_db_import_dry_run_with_a_rejected_row_exits_1_with_the_reasons(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = with_new_person()
    document["people"].append({"slug": "john-roe", "name": "John Roe", "party": "whigs"})

    code = main(["db", "import", str(write(workdir / "in.json", document)), "--guild", GUILD, "--dry-run"])

    captured = capsys.readouterr()
    assert code == 1
    assert ["total", "1", "0", "136", "1"] in rows(captured.out)
    assert "Dry run" not in captured.out
    reasons = "• people[59] (person john-roe): people[59].party: unknown party 'whigs'"
    assert captured.err == f"parlbot: {say(Msg.REFUSED_ONE, count=1, reasons=reasons)}\n"


def test_db_import_without_guild_imports_into_the_shared_dataset(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(workdir / "in.json", with_new_person() | {"dataset_version": "2027.1.1"})

    code = main(["db", "import", str(path)])
    main(["db", "export", "out.json"])

    assert code == 0
    assert "Imported into the shared dataset: 1 added" in capsys.readouterr().out
    exported = json.loads((workdir / "out.json").read_text(encoding="utf-8"))
    assert exported["dataset_version"] == "2027.1.1"
    assert "jane-doe" in {person["slug"] for person in exported["people"]}


def test_db_export_then_import_into_another_guild_round_trips(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["db", "import", str(write(workdir / "in.json", with_new_person())), "--guild", GUILD])
    main(["db", "export", "first.json", "--guild", GUILD])

    code = main(["db", "import", "first.json", "--guild", "3000000000000000002"])
    main(["db", "export", "second.json", "--guild", "3000000000000000002"])

    assert code == 0
    assert (workdir / "second.json").read_text(encoding="utf-8") == (workdir / "first.json").read_text(
        encoding="utf-8"
    )
    assert "Exported guild 3000000000000000002 (0 incidents) to second.json." in capsys.readouterr().out


def test_db_export_of_a_guild_carries_its_quiz_questions(workdir: Path) -> None:
    question = {
        "slug": "question-1",
        "prompt": "Which office keeps order in the Commons?",
        "answer": "The Speaker",
        "wrong": ["The Clerk"],
        "source": "singh-2020-cbc",
    }
    document = with_new_person() | {"questions": [question]}
    main(["db", "import", str(write(workdir / "in.json", document)), "--guild", GUILD])

    main(["db", "export", "out.json", "--guild", GUILD])

    assert json.loads((workdir / "out.json").read_text(encoding="utf-8"))["questions"] == [question]


def test_db_import_of_a_file_that_is_not_json_exits_2_with_a_clear_message(workdir: Path) -> None:
    (workdir / "broken.json").write_text('{"format": ', encoding="utf-8")

    result = run_parlbot("db", "import", "broken.json", cwd=workdir)

    assert result.returncode == 2
    error = "Expecting value: line 1 column 12 (char 11)"
    assert result.stderr == f"parlbot: error: {say(Msg.NOT_JSON, name='broken.json', error=error)}\n"


def test_db_import_of_a_missing_file_exits_2(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["db", "import", "missing.json"])

    assert code == 2
    assert capsys.readouterr().err == "parlbot: error: cannot read missing.json: No such file or directory\n"


def test_the_progress_bar_redraws_in_place_on_a_terminal() -> None:
    terminal = Terminal()
    bar = ProgressBar(terminal)

    for done in range(1, 5):
        bar.update(done, 4)
    bar.finish()

    width = ProgressBar.WIDTH
    frames = terminal.getvalue().split("\r")[1:]
    assert frames[0] == f"[{'#' * (width // 4)}{' ' * (width - width // 4)}] 1/4"
    assert frames[-1] == f"[{'#' * width}] 4/4\n"
    assert len(frames) == 5
