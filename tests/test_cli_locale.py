"""``parlbot ask|complete --locale``: the command line asks as a member whose Discord locale it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.messages.catalogue import Msg, say, speaking


def test_ask_locale_fr_answers_in_french(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ask", "--locale", "fr", "/incident singh-2020"])

    out = capsys.readouterr().out
    with speaking("fr"):
        assert say(Msg.PEOPLE_INVOLVED) in out
        assert "17 juin 2020" in out
    assert code == 0
    assert say(Msg.PEOPLE_INVOLVED) not in out


def test_complete_locale_fr_offers_the_same_entries_named_in_french(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["complete", "/incident query:singh"])
    english = capsys.readouterr().out
    code = main(["complete", "--locale", "fr", "/incident query:singh"])
    french = capsys.readouterr().out

    assert code == 0
    assert [line.rsplit(" -> ", 1)[1] for line in french.splitlines()] == [
        line.rsplit(" -> ", 1)[1] for line in english.splitlines()
    ]
    assert french.startswith("Le chef du NPD Jagmeet Singh")
    assert english.startswith("NDP Leader Jagmeet Singh")
