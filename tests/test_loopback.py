"""The loopback Discord: FakeDiscord's REST behaviour and limits, the payload builders, OfflineSession.

The HTTP tests speak to FakeDiscord the way discord.py does (JSON over aiohttp); the session tests
run a small test bot whose commands exercise each kind of answer discord.py can give.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.loopback import payloads
from bot.loopback.commandline import CommandLineError
from bot.loopback.payloads import DEFAULT_CHANNEL_ID, DEFAULT_GUILD_ID, DEFAULT_USER_ID, Invoker
from bot.loopback.rest import LOADING, FakeDiscord
from bot.loopback.session import OfflineSession, choices, is_ephemeral, message_bodies

# --- speaking HTTP to the fake ---------------------------------------------------------------


async def call(fake: FakeDiscord, method: str, path: str, body: Any = None) -> tuple[int, Any, str]:
    """One request as discord.py sends it; returns (status, decoded JSON or None, content type)."""
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body) as response,
    ):
        text = await response.text()
        content_type = response.headers.get("Content-Type", "")
        return response.status, (await response.json() if text else None), content_type


def interaction(fake: FakeDiscord, *, type_: int = 2, message_id: int | None = None) -> tuple[int, str]:
    interaction_id, token = fake.snowflakes.next(), payloads.new_token()
    fake.register_interaction(interaction_id, token, type=type_, message_id=message_id)
    return interaction_id, token


async def callback(fake: FakeDiscord, body: dict[str, Any], *, type_: int = 2) -> tuple[int, Any, str]:
    interaction_id, token = interaction(fake, type_=type_)
    return await call(fake, "POST", f"/interactions/{interaction_id}/{token}/callback?with_response=1", body)


def field_errors(answer: dict[str, Any], *path: str) -> list[dict[str, str]]:
    node = answer["errors"]
    for part in path:
        node = node[part]
    errors: list[dict[str, str]] = node["_errors"]
    return errors


def embed(**overrides: Any) -> dict[str, Any]:
    return {"title": "Singh ejected", "description": "Named by the Speaker.", **overrides}


def button(label: str = "Sources", custom_id: str = "parlbot:n:sources:singh-2020") -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": label, "custom_id": custom_id}


# Each oversized message body, with the path Discord reports the error at (under "data").
OVERSIZED_MESSAGES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "content over 2000": ({"content": "x" * 2001}, ("content",)),
    "more than 10 embeds": ({"embeds": [embed()] * 11}, ("embeds",)),
    "embed title over 256": ({"embeds": [embed(title="t" * 257)]}, ("embeds", "0", "title")),
    "embed description over 4096": (
        {"embeds": [embed(description="d" * 4097)]},
        ("embeds", "0", "description"),
    ),
    "more than 25 fields": (
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]},
        ("embeds", "0", "fields"),
    ),
    "field name over 256": (
        {"embeds": [embed(fields=[{"name": "n" * 257, "value": "v"}])]},
        ("embeds", "0", "fields", "0", "name"),
    ),
    "field value over 1024": (
        {"embeds": [embed(fields=[{"name": "n", "value": "v" * 1025}])]},
        ("embeds", "0", "fields", "0", "value"),
    ),
    "footer over 2048": ({"embeds": [embed(footer={"text": "f" * 2049})]}, ("embeds", "0", "footer", "text")),
    "author name over 256": (
        {"embeds": [embed(author={"name": "a" * 257})]},
        ("embeds", "0", "author", "name"),
    ),
    "embeds over 6000 characters in total": (
        {"embeds": [embed(title="", description="d" * 3001), embed(title="", description="d" * 3000)]},
        ("embeds",),
    ),
    "more than 5 action rows": (
        {"content": "x", "components": [{"type": 1, "components": [button()]}] * 6},
        ("components",),
    ),
    "more than 5 buttons in a row": (
        {"content": "x", "components": [{"type": 1, "components": [button()] * 6}]},
        ("components", "0", "components"),
    ),
    "button label over 80": (
        {"content": "x", "components": [{"type": 1, "components": [button(label="b" * 81)]}]},
        ("components", "0", "components", "0", "label"),
    ),
    "custom_id over 100": (
        {"content": "x", "components": [{"type": 1, "components": [button(custom_id="c" * 101)]}]},
        ("components", "0", "components", "0", "custom_id"),
    ),
    "select with more than 25 options": (
        {
            "content": "x",
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "pick",
                            "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(26)],
                        }
                    ],
                }
            ],
        },
        ("components", "0", "components", "0", "options"),
    ),
}


@pytest.mark.parametrize("case", OVERSIZED_MESSAGES)
async def test_fake_discord_rejects_an_oversized_message_like_discord(
    fake_discord: FakeDiscord, case: str
) -> None:
    data, path = OVERSIZED_MESSAGES[case]

    status, answer, _ = await callback(fake_discord, {"type": 4, "data": data})

    assert status == 400
    assert answer["code"] == 50035
    assert answer["message"] == "Invalid Form Body"
    assert field_errors(answer, "data", *path), answer


@pytest.mark.parametrize("case", OVERSIZED_MESSAGES)
async def test_fake_discord_rejects_an_oversized_follow_up(fake_discord: FakeDiscord, case: str) -> None:
    data, path = OVERSIZED_MESSAGES[case]
    interaction_id, token = interaction(fake_discord)
    await call(fake_discord, "POST", f"/interactions/{interaction_id}/{token}/callback", {"type": 5})

    status, answer, _ = await call(
        fake_discord, "POST", f"/webhooks/{fake_discord.application_id}/{token}?wait=1", data
    )

    assert (status, answer["code"]) == (400, 50035)
    assert field_errors(answer, *path)


async def test_fake_discord_accepts_a_message_exactly_at_every_limit(fake_discord: FakeDiscord) -> None:
    at_limit = {
        "content": "c" * 2000,
        "embeds": [
            {
                "title": "t" * 256,
                "description": "d" * 1000,
                "fields": [{"name": "n" * 100, "value": "v" * 60}] * 25,
                "footer": {"text": "f" * 100},
                "author": {"name": "a" * 256},
            }
        ],
        "components": [{"type": 1, "components": [button(label="b" * 80, custom_id="c" * 100)] * 5}] * 5,
    }

    status, answer, content_type = await callback(fake_discord, {"type": 4, "data": at_limit})

    assert status == 200
    assert content_type == "application/json"
    message = answer["resource"]["message"]
    assert message["content"] == "c" * 2000
    assert answer["interaction"]["response_message_id"] == message["id"]


async def test_fake_discord_refuses_an_empty_message(fake_discord: FakeDiscord) -> None:
    status, answer, _ = await callback(fake_discord, {"type": 4, "data": {"content": ""}})

    assert (status, answer["code"]) == (400, 50006)


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"choices": [{"name": f"n{i}", "value": f"v{i}"} for i in range(26)]}, ("data", "choices")),
        ({"choices": [{"name": "n" * 101, "value": "v"}]}, ("data", "choices", "0", "name")),
        ({"choices": [{"name": "n", "value": "v" * 101}]}, ("data", "choices", "0", "value")),
    ],
    ids=["more than 25 choices", "choice name over 100", "choice value over 100"],
)
async def test_fake_discord_rejects_oversized_autocomplete_results(
    fake_discord: FakeDiscord, data: dict[str, Any], path: tuple[str, ...]
) -> None:
    status, answer, _ = await callback(fake_discord, {"type": 8, "data": data}, type_=4)

    assert (status, answer["code"]) == (400, 50035)
    assert field_errors(answer, *path)


async def test_fake_discord_refuses_a_second_acknowledgement(fake_discord: FakeDiscord) -> None:
    interaction_id, token = interaction(fake_discord)
    path = f"/interactions/{interaction_id}/{token}/callback?with_response=1"
    await call(fake_discord, "POST", path, {"type": 4, "data": {"content": "first"}})

    status, answer, _ = await call(fake_discord, "POST", path, {"type": 4, "data": {"content": "again"}})

    assert (status, answer["code"]) == (400, 40060)


async def test_fake_discord_refuses_a_message_update_for_a_slash_command(fake_discord: FakeDiscord) -> None:
    status, answer, _ = await callback(fake_discord, {"type": 7, "data": {"content": "x"}}, type_=2)

    assert (status, answer["code"]) == (400, 50035)
    assert field_errors(answer, "type")


async def test_fake_discord_serves_an_uploaded_attachment_at_its_url(fake_discord: FakeDiscord) -> None:
    attached = fake_discord.upload("in.json", b'{"a": 1}', "application/json")

    async with aiohttp.ClientSession() as client, client.get(attached["url"]) as response:
        served = (response.status, await response.read())
    unknown = attached["url"].replace(attached["id"], "1")
    async with aiohttp.ClientSession() as client, client.get(unknown) as response:
        missing = response.status

    assert served == (200, b'{"a": 1}')
    assert (attached["filename"], attached["size"]) == ("in.json", 8)
    assert missing == 404
    assert [(r.route, r.status) for r in fake_discord.requests] == [
        ("get_attachment", 200),
        ("get_attachment", 404),
    ]


async def test_an_edit_of_the_original_shows_up_in_a_later_get(fake_discord: FakeDiscord) -> None:
    interaction_id, token = interaction(fake_discord)
    app = fake_discord.application_id
    await call(
        fake_discord,
        "POST",
        f"/interactions/{interaction_id}/{token}/callback",
        {"type": 4, "data": {"content": "draft"}},
    )

    await call(fake_discord, "PATCH", f"/webhooks/{app}/{token}/messages/@original", {"content": "final"})
    status, message, _ = await call(fake_discord, "GET", f"/webhooks/{app}/{token}/messages/@original")

    assert status == 200
    assert message["content"] == "final"
    assert message["edited_timestamp"] is not None


async def test_the_first_follow_up_after_thinking_becomes_the_original(fake_discord: FakeDiscord) -> None:
    interaction_id, token = interaction(fake_discord)
    app = fake_discord.application_id
    path = f"/interactions/{interaction_id}/{token}/callback?with_response=1"
    _, deferred, _ = await call(fake_discord, "POST", path, {"type": 5, "data": {"flags": 64}})
    assert deferred["interaction"]["response_message_loading"] is True

    _, followup, _ = await call(fake_discord, "POST", f"/webhooks/{app}/{token}?wait=1", {"content": "done"})
    _, original, _ = await call(fake_discord, "GET", f"/webhooks/{app}/{token}/messages/@original")

    assert followup["id"] == original["id"] == deferred["interaction"]["response_message_id"]
    assert original["content"] == "done"
    assert original["flags"] & LOADING == 0
    assert original["flags"] & 64  # still ephemeral


async def test_a_follow_up_before_any_acknowledgement_is_an_unknown_webhook(
    fake_discord: FakeDiscord,
) -> None:
    _, token = interaction(fake_discord)

    status, answer, _ = await call(
        fake_discord, "POST", f"/webhooks/{fake_discord.application_id}/{token}", {"content": "hi"}
    )

    assert (status, answer["code"]) == (404, 10015)


def chat_command(name: str = "incident", **overrides: Any) -> dict[str, Any]:
    return {
        "name": name,
        "type": 1,
        "description": "Look up an incident",
        "options": [{"type": 3, "name": "query", "description": "What to look for", "required": True}],
        **overrides,
    }


BROKEN_SYNCS: dict[str, list[dict[str, Any]]] = {
    "uppercase name": [chat_command("Incident")],
    "name with a space": [chat_command("who objected")],
    "name over 32": [chat_command("x" * 33)],
    "empty description": [chat_command(description="")],
    "description over 100": [chat_command(description="d" * 101)],
    "more than 25 options": [
        chat_command(options=[{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)])
    ],
    "option name uppercase": [chat_command(options=[{"type": 3, "name": "Query", "description": "d"}])],
    "option description over 100": [
        chat_command(options=[{"type": 3, "name": "q", "description": "d" * 101}])
    ],
    "required option after an optional one": [
        chat_command(
            options=[
                {"type": 4, "name": "year", "description": "d"},
                {"type": 3, "name": "query", "description": "d", "required": True},
            ]
        )
    ],
    "more than 100 global commands": [chat_command(f"c{i}") for i in range(101)],
    "over 4000 characters in one command": [
        chat_command(
            options=[
                {
                    "type": 3,
                    "name": "q",
                    "description": "d" * 100,
                    "choices": [{"name": "n" * 100, "value": "v" * 100}] * 25,
                }
            ]
        )
    ],
    "duplicate names": [chat_command(), chat_command()],
}


@pytest.mark.parametrize("case", BROKEN_SYNCS)
async def test_fake_discord_rejects_a_command_sync_that_breaks_discords_rules(
    fake_discord: FakeDiscord, case: str
) -> None:
    status, answer, _ = await call(
        fake_discord, "PUT", f"/applications/{fake_discord.application_id}/commands", BROKEN_SYNCS[case]
    )

    assert (status, answer["code"]) == (400, 50035), answer
    assert answer["errors"]


async def test_fake_discord_stores_a_valid_sync_and_lists_it(fake_discord: FakeDiscord) -> None:
    app = fake_discord.application_id
    status, synced, _ = await call(
        fake_discord, "PUT", f"/applications/{app}/guilds/42/commands", [chat_command()]
    )
    _, listed, _ = await call(fake_discord, "GET", f"/applications/{app}/guilds/42/commands")

    assert status == 200
    assert [c["name"] for c in listed] == ["incident"]
    assert listed[0]["id"] == synced[0]["id"]
    assert listed[0]["guild_id"] == "42"


# --- a small test bot, driven through OfflineSession --------------------------------------------

seen: list[discord.Interaction[Any]] = []


class Counter(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.count = 0

    @discord.ui.button(label="Add one", custom_id="counter:add")
    async def add(self, interaction: discord.Interaction[Any], _button: discord.ui.Button[Counter]) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count {self.count}", view=self)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}", ephemeral=True)


class ToyCog(commands.Cog):
    @app_commands.command(description="Say something back")
    async def echo(self, interaction: discord.Interaction[Any], text: str, times: int = 1) -> None:
        seen.append(interaction)
        await interaction.response.send_message(text * times)

    @app_commands.command(description="Send content of a given length")
    async def say(self, interaction: discord.Interaction[Any], length: int) -> None:
        await interaction.response.send_message("x" * length)

    @app_commands.command(description="Think, then answer privately")
    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await interaction.followup.send("thought about it", ephemeral=True)

    @app_commands.command(description="A counter with a button")
    async def counter(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("count 0", view=Counter())

    @app_commands.command(description="Ask for a name")
    async def hello(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(description="Pick a colour")
    async def colour(self, interaction: discord.Interaction[Any], name: str) -> None:
        await interaction.response.send_message(name)

    @colour.autocomplete("name")
    async def colour_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        seen.append(interaction)
        names = ["red", "green", "blue", "grey"]
        return [app_commands.Choice(name=n.title(), value=n) for n in names if n.startswith(current)]

    admin = app_commands.Group(name="admin", description="Moderator tools")

    @admin.command(name="mark", description="Mark a member")
    async def admin_mark(
        self, interaction: discord.Interaction[Any], member: discord.Member, reason: str = "none"
    ) -> None:
        seen.append(interaction)
        await interaction.response.send_message(f"marked {member.id} for {reason}", ephemeral=True)


class ToyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents(guilds=True))

    async def setup_hook(self) -> None:
        await self.add_cog(ToyCog())


@pytest.fixture
async def session() -> AsyncIterator[OfflineSession]:
    seen.clear()
    async with OfflineSession(ToyBot(), locale="fr") as offline:
        yield offline


async def test_invoke_returns_the_callback_discord_py_sent(session: OfflineSession) -> None:
    requests = await session.invoke("/echo text:hi times:3")

    assert [(r.route, r.status) for r in requests] == [("callback", 200)]
    assert requests[0].body["type"] == 4  # type: ignore[index]
    assert message_bodies(requests)[0]["content"] == "hihihi"
    assert session.fake.original(requests[0].token or "")["content"] == "hihihi"  # type: ignore[index]


async def test_the_interaction_carries_the_invokers_user_guild_locale_and_options(
    session: OfflineSession,
) -> None:
    await session.invoke('/echo text:"two words" times:2')

    interaction = seen[-1]
    assert interaction.user.id == DEFAULT_USER_ID
    assert isinstance(interaction.user, discord.Member)
    assert interaction.guild_id == DEFAULT_GUILD_ID
    assert interaction.channel_id == DEFAULT_CHANNEL_ID
    assert interaction.locale is discord.Locale.french
    assert interaction.namespace.text == "two words"
    assert interaction.namespace.times == 2
    assert interaction.context.guild


async def test_a_subcommand_receives_a_resolved_member(session: OfflineSession) -> None:
    requests = await session.invoke("/admin mark member:<@1246000000000000999> reason:spam")

    assert message_bodies(requests)[0]["content"] == "marked 1246000000000000999 for spam"
    assert is_ephemeral(message_bodies(requests)[0])
    assert isinstance(seen[-1].namespace.member, discord.Member)


async def test_an_oversized_reply_is_recorded_as_rejected_with_50035(session: OfflineSession) -> None:
    requests = await session.invoke("/say length:2001")

    assert requests[0].route == "callback"
    assert requests[0].status == 400
    assert message_bodies(requests) == []


async def test_a_deferred_answer_arrives_as_a_follow_up(session: OfflineSession) -> None:
    requests = await session.invoke("/slow")

    assert [r.route for r in requests] == ["callback", "followup"]
    assert requests[0].body == {"type": 5, "data": {"flags": 64}}
    assert session.fake.original(requests[0].token or "")["content"] == "thought about it"  # type: ignore[index]


async def test_complete_marks_the_last_option_focused_and_returns_the_choices(
    session: OfflineSession,
) -> None:
    requests = await session.complete("/colour name:gr")

    assert choices(requests) == [{"name": "Green", "value": "green"}, {"name": "Grey", "value": "grey"}]
    assert seen[-1].type is discord.InteractionType.autocomplete


async def test_pressing_a_button_edits_the_message_it_was_on(session: OfflineSession) -> None:
    [sent] = await session.invoke("/counter")
    message_id = session.fake.original(sent.token or "")["id"]  # type: ignore[index]

    await session.press("counter:add")
    requests = await session.press("counter:add")

    assert requests[0].body["type"] == 7  # type: ignore[index]
    assert session.fake.messages[int(message_id)]["content"] == "count 2"


async def test_submitting_a_modal_runs_its_on_submit(session: OfflineSession) -> None:
    [shown] = await session.invoke("/hello")
    assert shown.body["type"] == 9  # type: ignore[index]

    modal_id = shown.body["data"]["custom_id"]  # type: ignore[index]

    requests = await session.submit(modal_id, {"name": "Jagmeet"})

    assert message_bodies(requests)[0]["content"] == "Hello Jagmeet"


async def test_a_modal_that_was_never_opened_cannot_be_submitted(session: OfflineSession) -> None:
    with pytest.raises(CommandLineError, match="has not opened a modal with custom_id 'nope'"):
        await session.submit("nope", {"name": "Jagmeet"})


async def test_a_modal_cannot_be_submitted_without_its_required_field(session: OfflineSession) -> None:
    [shown] = await session.invoke("/hello")

    with pytest.raises(CommandLineError, match=r"'Name' \(name\) is required"):
        await session.submit(shown.body["data"]["custom_id"], {})  # type: ignore[index]


def test_a_modal_submit_mirrors_the_modals_rows_and_labels() -> None:
    modal = {
        "custom_id": "m",
        "title": "Form",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "a", "label": "A", "style": 1}]},
            {"type": 18, "label": "B", "component": {"type": 4, "custom_id": "b", "style": 2, "id": 9}},
        ],
    }

    payload = payloads.modal_submit(modal, {"a": "typed"}, Invoker(), interaction_id=1, token="t")

    assert payload["type"] == 5
    assert payload["data"] == {
        "custom_id": "m",
        "components": [
            {"type": 1, "id": 1, "components": [{"type": 4, "id": 2, "custom_id": "a", "value": "typed"}]},
            {"type": 18, "id": 3, "component": {"type": 4, "id": 9, "custom_id": "b", "value": ""}},
        ],
    }


async def test_a_session_restores_the_api_base_on_exit() -> None:
    before = discord.http.Route.BASE
    async with OfflineSession(ToyBot()) as offline:
        during = discord.http.Route.BASE
    after = discord.http.Route.BASE

    assert during == offline.fake.api_base
    assert after == before


async def test_payload_builders_produce_what_discord_py_parses(session: OfflineSession) -> None:
    invoker = Invoker(user_id=77, username="ada", locale="de", moderator=True)
    payload = payloads.application_command(
        "echo",
        [{"name": "text", "type": 3, "value": "hallo"}],
        invoker,
        command_id=5,
        interaction_id=payloads.Snowflakes().next(),
        token="t",
    )
    parsed = discord.Interaction(data=payload, state=session.bot._connection)  # type: ignore[arg-type]

    assert parsed.user.id == 77
    assert parsed.user.name == "ada"
    assert parsed.guild_id == payloads.DEFAULT_GUILD_ID
    assert parsed.locale is discord.Locale.german
    assert parsed.permissions.manage_guild
    assert parsed.app_permissions.embed_links
    assert parsed.data is not None
    assert parsed.data.get("options") == [{"name": "text", "type": 3, "value": "hallo"}]


def test_snowflakes_increase_and_carry_a_plausible_timestamp() -> None:
    flakes = payloads.Snowflakes()
    first, second = flakes.next(), flakes.next()

    assert second > first
    assert discord.utils.snowflake_time(first).year >= 2024
