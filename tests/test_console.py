"""``parlbot console``: scripts fed through standard input to ``bot.cli.main`` (and once to a process)."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.cli import main
from bot.loopback.payloads import MEMBER_PERMISSIONS
from bot.messages.catalogue import Msg, say, speaking
from tests.cli_harness import Whoami, run_parlbot, with_test_cogs
from tests.discord_harness import before

# What /incident 2016 asks before listing its candidates.
DID_YOU_MEAN_2016 = say(Msg.DID_YOU_MEAN, query="2016", choices="\0").partition("\0")[0]


class Correction(discord.ui.Modal, title="Suggest a correction"):
    """A form with a text input in an action row and one inside a label component."""

    topic: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Topic", custom_id="topic", max_length=100)
    details: discord.ui.Label[Any] = discord.ui.Label(
        text="What is wrong?",
        component=discord.ui.TextInput(
            custom_id="details", style=discord.TextStyle.paragraph, required=False, max_length=1000
        ),
    )

    def __init__(self) -> None:
        super().__init__(custom_id="correction")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(self.details.component, discord.ui.TextInput)
        await interaction.response.send_message(
            f"topic={self.topic.value} details={self.details.component.value}"
        )


class Colours(discord.ui.View):
    """A select of two colours, then a button on the next row that opens ``Correction``."""

    @discord.ui.select(options=[discord.SelectOption(label="Red"), discord.SelectOption(label="Green")])
    async def colour(self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}")

    @discord.ui.button(label="Suggest a correction", row=1)
    async def correct(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(Correction())


class Feedback(commands.Cog):
    """A test-only cog: ``/feedback`` opens ``Correction``, which echoes what was submitted."""

    @app_commands.command(description="Suggest a correction")
    async def feedback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(Correction())

    @app_commands.command(description="Pick a colour, or suggest a correction")
    async def colours(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Which colour?", view=Colours())


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def console(workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    """``console(script, *options)`` runs ``parlbot console`` with ``script`` as its standard input."""
    with_test_cogs(monkeypatch, Feedback, Whoami)

    def run(script: str, *options: str) -> Run:
        monkeypatch.setattr(sys, "stdin", io.StringIO(script))
        code = main(["console", *options])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


def test_pressing_a_did_you_mean_button_by_number_shows_that_incident(console: Any) -> None:
    run = console("/incident 2016\npress 2\n")

    did_you_mean, incident = run.out.split("\n\n## ", 1)
    assert DID_YOU_MEAN_2016 in did_you_mean
    assert incident.startswith('Dennis Skinner ordered out for calling David Cameron "dodgy Dave"')
    assert f"{say(Msg.UNOFFICIAL)} · skinner-2016" in incident
    assert run.err == ""


def test_press_finds_a_button_by_a_word_of_its_label(console: Any) -> None:
    run = console("/incident 2016\npress dodgy\n")

    assert "## Dennis Skinner ordered out" in run.out
    assert "parlbot · skinner-2016" in run.out


def test_press_next_turns_the_search_page(console: Any) -> None:
    run = console("/search trudeau\npress next\n")

    assert "page 1/2" in run.out
    assert "page 2/2" in run.out
    assert run.out.index("page 1/2") < run.out.index("page 2/2")


def test_a_select_prints_its_options_as_buttons_of_their_own(console: Any) -> None:
    run = console("/colours\n")

    assert "Which colour?\n[Red] [Green]\n[Suggest a correction]\n" in run.out


def test_press_chooses_a_select_option_by_its_label(console: Any) -> None:
    run = console("/colours\npress green\n")

    assert "picked Green" in run.out


def test_press_numbers_count_select_options_before_later_buttons(console: Any) -> None:
    run = console("/colours\npress 3\n")

    assert "## Suggest a correction" in run.out
    assert "picked" not in run.out


def test_submit_sends_a_modal_that_a_button_opened(console: Any) -> None:
    run = console("/colours\npress suggest\nsubmit topic:Elbowgate\n")

    assert "topic=Elbowgate details=\n" in run.out
    assert run.err == ""


def test_an_ambiguous_label_lists_the_buttons_it_matches(console: Any) -> None:
    run = console("/incident 2016\npress c\n")  # "conservative" in one label, "calling" in the other

    assert "'c' matches 2 buttons: 1 [Elbowgate: PM Justin Trudeau" in run.err
    assert ", 2 [Dennis Skinner ordered out" in run.err
    assert "Type more of the label, or its number." in run.err


def test_a_label_that_matches_nothing_lists_what_there_is(console: Any) -> None:
    run = console("/incident 2016\npress zebra\n")

    assert "No button of the last reply matches 'zebra'. It has: 1 [Elbowgate" in run.err


def test_an_unknown_verb_is_explained_and_the_console_goes_on(console: Any) -> None:
    run = console("pres 1\n/incident singh-2020\n")

    assert "Unknown console command 'pres'. Did you mean press?" in run.err
    assert "## NDP Leader Jagmeet Singh ordered out of the Commons" in run.out
    assert run.code == 0


def test_a_malformed_slash_command_is_explained_and_the_console_goes_on(console: Any) -> None:
    run = console("/incidnt singh\n/incident singh-2020\n")

    assert "Unknown command /incidnt. Did you mean /incident?" in run.err
    assert "Jagmeet Singh" in run.out


def test_as_switches_the_member_so_the_pager_refuses_a_stranger(console: Any) -> None:
    run = console("/search trudeau\nas 42\npress next\n")

    assert "Now asking as user 42 (locale en-US)." in run.out
    assert say(Msg.SEARCH_NOT_YOURS) in run.out
    assert say(Msg.PAGE, page=2, pages=5) not in run.out


def test_as_gives_the_new_member_manage_server_and_roles(console: Any) -> None:
    run = console("as 42 --moderator --roles 7\n/whoami\n")

    manage_server = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True)
    assert f"user=42 permissions={manage_server.value} roles=7," in run.out


def test_as_with_a_locale_switches_the_language_of_the_answers(console: Any) -> None:
    run = console("/incident singh-2020\nas 42 --locale fr\n/incident singh-2020\n")

    with speaking("fr"):
        french = say(Msg.UNOFFICIAL)
    assert "Now asking as user 42 (locale fr)." in run.out
    assert run.out.index(say(Msg.UNOFFICIAL)) < run.out.index("Now asking") < run.out.index(french)


def test_the_console_locale_option_answers_every_line_in_french(console: Any) -> None:
    run = console("/incident singh-2020\n", "--locale", "fr")

    with speaking("fr"):
        assert say(Msg.UNOFFICIAL) in run.out
    assert say(Msg.UNOFFICIAL) not in run.out


def test_as_without_a_user_id_shows_its_usage(console: Any) -> None:
    run = console("as bob\n")

    assert (
        "'bob' is not a Discord id (a number). "
        "Usage: as [--moderator] [--roles ID,...] [--locale LOCALE] [--name NAME] USER" in run.err
    )


def test_help_lists_the_console_commands(console: Any) -> None:
    run = console("help\n")

    for verb in ("press LABEL | press N", "submit field:value", "as USER [--moderator]", "quit"):
        assert verb in run.out


def test_json_prints_one_request_per_line(console: Any) -> None:
    run = console("/incident 2016\npress 2\n", "--json")

    lines = [json.loads(line) for line in run.out.splitlines()]
    assert [(line["route"], line["body"]["type"]) for line in lines] == [("callback", 4), ("callback", 7)]
    assert "skinner-2016" in json.dumps(lines[1]["body"]["data"]["embeds"], ensure_ascii=False)


def test_end_of_input_ends_the_console_with_exit_code_0(console: Any) -> None:
    run = console("/incident singh-2020")  # no newline, no quit: the input simply ends

    assert run.code == 0
    assert "Jagmeet Singh" in run.out


def test_quit_ends_the_console_before_later_lines(console: Any) -> None:
    run = console("quit\n/incident singh-2020\n")

    assert run.code == 0
    assert run.out == ""


def test_no_prompt_is_printed_when_input_is_not_a_terminal(console: Any) -> None:
    run = console("help\n/incident singh-2020\n")

    assert "parlbot> " not in run.out + run.err


def test_a_modal_is_printed_with_its_title_and_fields(console: Any) -> None:
    run = console("/feedback\n")

    assert '(a form opens; in parlbot console: submit topic:"..." details:"...")' in run.out
    assert "## Suggest a correction" in run.out
    assert "- Topic: custom_id topic, short, required, max_length 100" in run.out
    assert "- What is wrong?: custom_id details, paragraph, optional, max_length 1000" in run.out


def test_submit_sends_the_open_modal_by_custom_id_and_folded_label(console: Any) -> None:
    run = console('/feedback\nsubmit topic:Elbowgate what-is-wrong:"the date is off"\n')

    assert "topic=Elbowgate details=the date is off" in run.out
    assert run.err == ""


def test_submit_takes_the_unquoted_words_after_a_value_as_more_of_it(console: Any) -> None:
    run = console("/feedback\nsubmit topic:Elbowgate details:the date is off by a day\n")

    assert "topic=Elbowgate details=the date is off by a day" in run.out
    assert run.err == ""


def test_submit_keeps_an_apostrophe_in_an_unquoted_value(console: Any) -> None:
    run = console("/feedback\nsubmit topic:Speaker's ruling details:it's wrong\n")

    assert "topic=Speaker's ruling details=it's wrong" in run.out


def test_submit_refuses_a_field_given_twice(console: Any) -> None:
    run = console("/feedback\nsubmit topic:a topic:b\n")

    assert "Field topic is given twice." in run.err


def test_submit_refuses_an_empty_required_field_and_keeps_the_form_open(console: Any) -> None:
    run = console("/feedback\nsubmit details:later\nsubmit topic:Elbowgate\n")

    assert "'Topic' (topic) is required." in run.err
    assert "topic=Elbowgate details=\n" in run.out


def test_submit_names_the_fields_when_one_is_unknown(console: Any) -> None:
    run = console("/feedback\nsubmit colour:red\n")

    assert "'colour' is not a field of this form. Fields: topic (Topic), details (What is wrong?)." in run.err


def test_submit_without_an_open_form_is_explained(console: Any) -> None:
    run = console("/incident singh-2020\nsubmit topic:x\n")

    assert "No form is open" in run.err


def test_a_piped_script_drives_parlbot_console_as_a_real_process(workdir: Path) -> None:
    script = "# try the did-you-mean flow\n/incident 2016\npress 2\nquit\n"

    result = run_parlbot("console", cwd=workdir, stdin=script)

    assert result.returncode == 0, result.stderr
    assert DID_YOU_MEAN_2016 in result.stdout
    assert f"{say(Msg.UNOFFICIAL)} · skinner-2016" in result.stdout
    assert "parlbot> " not in result.stdout
    assert result.stderr == ""


QUIZ_SESSION = """\
as 100 --moderator --name teacher
/quiz start questions:3 seconds:600 kind:year
as 501 --name alice
press 1
press 2
as 502 --name bob
press 3
as 100 --moderator --name teacher
/quiz next
as 501 --name alice
press 1
as 502 --name bob
press 1
as 503 --name carol
press 2
as 100 --moderator --name teacher
/quiz next
/quiz next
/quiz scores
"""


def test_a_class_quiz_runs_in_the_console_with_students_taking_turns(console: Any) -> None:
    run = console(QUIZ_SESSION)

    taken = before(Msg.QUIZ_ANSWER_TAKEN, "choice", number=1)
    assert run.out.count(taken) == 2  # Alice, then Bob
    assert before(Msg.QUIZ_ANSWER_CHANGED, "choice", number=1) in run.out  # Alice changed hers
    assert before(Msg.QUIZ_QUESTION_CLOSED, "choice", number=2) in run.out  # Carol, too late
    for number in (1, 2, 3):
        assert f"## {say(Msg.QUIZ_CLOSED_TITLE, number=number, total=3)}" in run.out
    assert run.out.count(f"{say(Msg.QUIZ_SOURCE)}: ") == 3
    scores = run.out.rpartition(f"## {say(Msg.QUIZ_SCORES_TITLE)}")[2]
    assert "Alice" in scores
    assert "Bob" in scores
    assert "Carol" not in scores
    assert run.err == ""
