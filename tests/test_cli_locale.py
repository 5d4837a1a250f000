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


def test_complete_locale_fr_offers_the_same_entries(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["complete", "/incident query:singh"])
    english = capsys.readouterr().out
    code = main(["complete", "--locale", "fr", "/incident query:singh"])

    assert code == 0
    assert capsys.readouterr().out == english
