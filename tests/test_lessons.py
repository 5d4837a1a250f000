"""Lessons and the glossary: /explain, the terms an incident links, /lesson's Markdown attachment, its
discussion questions, /add term and ``parlbot lesson``, through the real CommandTree and loopback."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.answers.queries import IncidentDetail, incident_detail
from bot.cli import main
from bot.lessons.questions import discussion_questions
from bot.library import Library
from bot.loopback.rest import RecordedRequest
from bot.loopback.session import OfflineSession
from bot.messages.catalogue import Msg, say
from tests.discord_harness import all_text, before, buttons, choices, file_reply, first_message, is_ephemeral

SINGH_SHEET = "lesson-singh-2020.md"
SINGH_TITLE = (
    "NDP Leader Jagmeet Singh ordered out of the Commons for calling Bloc MP Alain Therrien a racist"
)
SKINNER_TITLE = 'Dennis Skinner ordered out for calling David Cameron "dodgy Dave" and refusing to withdraw'
MARKS = re.compile(r"(?:\[(\d+)\])+$")
NUMBER = re.compile(r"\[(\d+)\]")
SOURCE_LINE = re.compile(r"^- \[(\d+)\] \S")
NOT_FACTS = {say(Msg.LESSON_QUESTIONS), say(Msg.SOURCES)}


async def ask(session: OfflineSession, line: str) -> dict[str, Any]:
    return first_message(await session.invoke(line))


def field(body: dict[str, Any], name: Msg) -> str:
    return next(f["value"] for f in body["embeds"][0]["fields"] if f["name"] == say(name))


def sections(sheet: str) -> dict[str, list[str]]:
    """The sheet's lines under each ``## `` heading."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in sheet.splitlines():
        if line.startswith("## "):
            current = found.setdefault(line.removeprefix("## "), [])
        elif current is not None and line.strip():
            current.append(line)
    return found


async def lesson(session: OfflineSession, line: str) -> tuple[RecordedRequest, str]:
    """The request carrying the sheet a ``/lesson`` answers with (``file_reply``), and the sheet."""
    sent = file_reply(await session.invoke(line))
    return sent, sent.contents[0].decode("utf-8")


async def singh_sheet(session: OfflineSession) -> tuple[RecordedRequest, str]:
    return await lesson(session, "/lesson incident:singh-2020")


# -- /explain -----------------------------------------------------------------------------------------


async def test_explain_answers_with_the_definition_its_source_and_its_incidents(discord_session) -> None:
    body = await ask(discord_session, "/explain term:naming")
    embed = body["embeds"][0]
    assert embed["title"] == "Naming"
    assert "one of the most serious – and rare – punishments in Parliament" in embed["description"]
    assert "nzherald.co.nz" in field(body, Msg.SOURCE)
    assert "`maipi-clarke-2024`" in field(body, Msg.GLOSSARY_INCIDENTS)
    assert "`bishop-2014`" in field(body, Msg.GLOSSARY_INCIDENTS)
    assert {b["custom_id"] for b in buttons(body)} >= {"parlbot:n:incident:maipi-clarke-2024"}
    assert body["allowed_mentions"] == {"parse": []}


async def test_explain_finds_a_term_typed_with_a_typo(discord_session) -> None:
    body = await ask(discord_session, '/explain term:"unanimus consnt"')
    assert body["embeds"][0]["title"] == "Unanimous consent"


async def test_explain_shows_the_french_name_where_the_entry_has_one(discord_session) -> None:
    body = await ask(discord_session, "/explain term:unanimous-consent")
    assert "Consentement unanime" in field(body, Msg.GLOSSARY_IN_FRENCH)


async def test_explain_autocompletes_terms_from_a_few_letters(discord_session) -> None:
    listed = choices(await discord_session.complete("/explain term:susp"))
    assert listed[0] == {"name": "Suspension", "value": "suspension"}


async def test_explain_of_an_unknown_term_is_a_private_no_match(discord_session) -> None:
    body = await ask(discord_session, "/explain term:filibuster")
    assert is_ephemeral(body)
    assert body["content"].startswith(say(Msg.NO_MATCH, what=say(Msg.TOPIC_TERM), query="filibuster"))


async def test_an_incidents_answer_links_its_terms(discord_session) -> None:
    body = await ask(discord_session, "/incident skinner-2016")
    assert "Withdrawing a remark (`withdrawing-a-remark`)" in field(body, Msg.INCIDENT_TERMS)


async def test_search_finds_a_term(discord_session) -> None:
    text = all_text(await ask(discord_session, '/search query:"the mace"'))
    assert "The mace" in text


# -- curation of terms ----------------------------------------------------------------------------------


async def test_a_moderator_adds_a_term_that_explain_then_finds(moderator_session) -> None:
    added = await ask(
        moderator_session,
        "/add term slug:closure name:Closure source:trudeau-2016-cbc incidents:trudeau-2016 "
        'definition:"A motion that ends a debate, “quoted” here."',
    )
    assert is_ephemeral(added)
    body = await ask(moderator_session, "/explain term:closure")
    assert body["embeds"][0]["title"] == "Closure"
    assert "`trudeau-2016`" in field(body, Msg.GLOSSARY_INCIDENTS)


async def test_a_term_linked_with_an_unknown_incident_is_refused_politely(moderator_session) -> None:
    body = await ask(
        moderator_session,
        "/add term slug:closure name:Closure source:trudeau-2016-cbc incidents:trudeau-2061 "
        'definition:"A motion that ends a debate."',
    )
    assert is_ephemeral(body)
    assert "trudeau-2061" in body["content"]
    assert "trudeau-2016" in body["content"]  # the close slug it may have meant


# -- /lesson --------------------------------------------------------------------------------------------


async def test_lesson_returns_a_markdown_attachment_named_for_the_incident(discord_session) -> None:
    sent, sheet = await singh_sheet(discord_session)
    assert sent.files == (SINGH_SHEET,)
    data = first_message([sent])
    assert data["attachments"] == [{"id": 0, "filename": SINGH_SHEET}]
    assert data["allowed_mentions"] == {"parse": []}
    assert data["content"] == say(Msg.LESSON_READY, title=SINGH_TITLE)
    assert sheet.startswith("# " + before(Msg.LESSON_TITLE, "title"))


async def test_every_fact_on_the_lesson_sheet_cites_a_listed_source(discord_session) -> None:
    _, sheet = await singh_sheet(discord_session)
    parts = sections(sheet)
    listed = {int(m[1]) for line in parts[say(Msg.SOURCES)] if (m := SOURCE_LINE.match(line))}
    assert listed == set(range(1, len(parts[say(Msg.SOURCES)]) + 1))
    facts = [line for heading, lines in parts.items() if heading not in NOT_FACTS for line in lines]
    assert len(facts) > 20
    cited: set[int] = set()
    for line in facts:
        assert line.startswith("- "), line
        marks = MARKS.search(line)
        assert marks is not None, f"no citation: {line}"
        numbers = {int(n) for n in NUMBER.findall(marks.group(0))}
        assert numbers <= listed, line
        cited |= numbers
    assert cited == listed  # and every listed source is cited by some fact


async def test_the_lesson_sheet_has_each_part_of_a_lesson(discord_session) -> None:
    _, sheet = await singh_sheet(discord_session)
    assert list(sections(sheet)) == [
        say(Msg.LESSON_WHAT_HAPPENED),
        say(Msg.LESSON_PEOPLE),
        say(Msg.LESSON_PROCEDURE),
        say(Msg.KEY_QUOTES),
        say(Msg.LESSON_RULING),
        say(Msg.LESSON_QUESTIONS),
        say(Msg.SOURCES),
    ]


async def test_the_lesson_sheet_quotes_verbatim_with_the_speaker_and_its_source(discord_session) -> None:
    _, sheet = await singh_sheet(discord_session)
    assert "- “I will not.” — Jagmeet Singh [5]" in sections(sheet)[say(Msg.KEY_QUOTES)]
    assert "- [5] " + say(Msg.NEWS_REPORT) + " — 17 June 2020." in sections(sheet)[say(Msg.SOURCES)]


async def test_the_lesson_sheet_defines_the_incidents_terms_citing_their_source(discord_session) -> None:
    _, sheet = await singh_sheet(discord_session)
    procedure = sections(sheet)[say(Msg.LESSON_PROCEDURE)]
    [term] = [line for line in procedure if line.startswith("- **Unanimous consent**: ")]
    assert term.endswith("[2]")  # singh-2020-castanet, the incident's second source


async def test_the_lesson_sheet_has_three_numbered_discussion_questions(discord_session) -> None:
    _, sheet = await singh_sheet(discord_session)
    questions = sections(sheet)[say(Msg.LESSON_QUESTIONS)]
    assert [line[:3] for line in questions] == ["1. ", "2. ", "3. "]


async def test_a_lesson_for_an_unknown_incident_is_refused_politely(discord_session) -> None:
    [callback] = await discord_session.invoke("/lesson incident:zzzzqqq")
    body = first_message([callback])
    assert callback.files == ()
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.LESSON_NO_INCIDENT, query="zzzzqqq")


def detail(library: Library, slug: str) -> IncidentDetail:
    with library.database.session() as session:
        found = incident_detail(session, slug=slug, guild_id=None)
    assert found is not None
    return found


def test_discussion_questions_follow_what_the_incident_has(library: Library) -> None:
    singh, fuddle = detail(library, "singh-2020"), detail(library, "trudeau-1971")
    consent = discussion_questions(singh)[1]
    assert consent.startswith(before(Msg.LESSON_Q_CONSENT, "motion", objector=""))
    assert "Bloc Québécois" in consent
    assert discussion_questions(fuddle)[1:] == [
        say(Msg.LESSON_Q_CHAIR, chamber="House of Commons of Canada", date="16 February 1971"),
        say(Msg.LESSON_Q_RULES),
    ]


# -- parlbot lesson -----------------------------------------------------------------------------------------


def test_parlbot_lesson_prints_the_sheet(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["lesson", "singh-2020"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("# " + say(Msg.LESSON_TITLE, title="NDP Leader Jagmeet Singh ordered out"))


def test_parlbot_lesson_writes_the_sheet_to_a_file(workdir: Path) -> None:
    code = main(["lesson", "skinner-2016", "-o", "sheet.md"])
    assert code == 0
    assert "## " + say(Msg.LESSON_QUESTIONS) in (workdir / "sheet.md").read_text(encoding="utf-8")


def test_parlbot_lesson_of_an_unknown_incident_fails_with_the_reason(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["lesson", "zzzzqqq"])
    assert code == 1
    assert say(Msg.LESSON_NO_INCIDENT, query="zzzzqqq") in capsys.readouterr().err


# -- /lesson collection: (one sheet for a unit) -------------------------------------------------------------


async def test_a_units_lesson_sheet_holds_each_incident_with_its_own_cited_sources(moderator_session) -> None:
    for slug in ("singh-2020", "skinner-2016"):
        await ask(moderator_session, f'/collection add name:"Unit 1" incident:{slug}')

    sent, sheet = await lesson(moderator_session, '/lesson collection:"Unit 1"')

    assert sent.files == ("lesson-unit-1.md",)
    assert sheet.startswith("# " + say(Msg.LESSON_UNIT_TITLE, name="Unit 1"))
    incidents = sheet.split("\n---\n")[1:]
    assert [part.strip().splitlines()[0] for part in incidents] == [
        "## " + say(Msg.LESSON_TITLE, title=SINGH_TITLE),
        "## " + say(Msg.LESSON_TITLE, title=SKINNER_TITLE),
    ]
    for part in incidents:
        sources = [line for line in part.splitlines() if SOURCE_LINE.match(line)]
        listed = set(range(1, len(sources) + 1))
        marks = {int(n) for line in part.splitlines() if line.startswith("- ") for n in NUMBER.findall(line)}
        assert marks == listed


async def test_a_lesson_names_an_incident_or_a_collection_not_both(discord_session) -> None:
    body = await ask(discord_session, "/lesson incident:singh-2020 collection:Unit")
    assert is_ephemeral(body)
    assert body["content"] == say(Msg.LESSON_NEEDS_ONE)
