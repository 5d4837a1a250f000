"""The moderators' commands: /add, /edit and /remove (and /suggest, /suggest-edit for everyone else),
/history, /undo, /removed and /restore.

The subcommands are generated from ``bot.curation.values.FORMS``, each form derived from its subject's
values model (``QuoteValues``): one callback per form and verb, registered as a command in every group
that uses it (``/add quote`` and ``/suggest quote`` share theirs). Its options are the form's
``options(verb)``, each given the discord.py annotation for how it is typed (``_annotation``); the
callback turns the options it receives into the values model at once, and everything after works on
that model. The callback reads its group to know whether it writes (a moderator, checked on the
server) or queues a suggestion. Everything else (turning values into a change, checking it, our words
for it) lives in ``bot.curation.forms``, ``bot.curation.changes`` and ``bot.curation.replies``; what a
member reads here (buttons, modal titles, refusals) comes from the catalogue (``bot.messages``). The
groups' and commands' descriptions below are Discord's command metadata, left for a ``Translator``.
"""

from __future__ import annotations

import asyncio
import inspect
import io
from collections.abc import Callable, Coroutine, Mapping, Sequence
from enum import StrEnum
from functools import partial
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.answers import render
from bot.answers.render import Reply
from bot.client.bot import ParlBot
from bot.curation import form_spec, forms, replies
from bot.curation.change_log import LoggedChange
from bot.curation.changes import Actor, AuditEntry, EntityKind, Suggestion, kind_name
from bot.curation.form_spec import Field, Form, Input, OptionValue, Values, Verb
from bot.curation.forms import Ref
from bot.curation.values import FORMS
from bot.defuse import one_line
from bot.errors import NotFound, ParlbotError
from bot.inputs import ID_MAX, line
from bot.messages.catalogue import Msg, say
from cogs.checks import (
    Right,
    ensure_moderator,
    ensure_moderator_or_teacher,
    ensure_moderator_reading,
    guard,
    moderator_only,
    moderator_or_teacher_only,
    undoable_kinds,
    undoer_only,
)
from cogs.common import (
    Interaction,
    Modal,
    Pages,
    Query,
    actor_of,
    choices,
    deliver,
    in_time,
    message_kwargs,
    respond,
    send,
)
from cogs.confirm import Confirm, Confirmation

MODAL_TIMEOUT = 900.0
MANAGE_SERVER = discord.Permissions(manage_guild=True)

NOUNS = {
    "incident": "an incident",
    "participant": "a person involved in an incident",
    "quote": "a quote in an incident",
    "ruling": "a ruling in an incident",
    "motion": "a motion in an incident",
    "position": "a position on a motion (who objected)",
    "person": "a person",
    "party": "a party",
    "source": "a source",
    "term": "a term",
    "alias": "an alias of an incident, person, party or term",
}
# The groups of subcommands: their verb, description, and whether they queue suggestions.
GROUPS: dict[str, tuple[Verb, str, bool]] = {
    "add": (Verb.ADD, "Add an entry (moderators)", False),
    "edit": (Verb.EDIT, "Change an entry (moderators)", False),
    "remove": (Verb.REMOVE, "Remove an entry, reversibly (moderators)", False),
    "suggest": (Verb.ADD, "Suggest a new entry for a moderator to review", True),
    "suggest-edit": (Verb.EDIT, "Suggest a correction for a moderator to review", True),
}
COMMAND_WORDS = {
    ("add", False): "Add",
    ("edit", False): "Change",
    ("remove", False): "Remove",
    ("add", True): "Suggest",
    ("edit", True): "Suggest a correction to",
}
# A form's modal title, by verb and whether it suggests (a removal opens no modal).
MODAL_TITLES: dict[tuple[Verb, bool], Msg] = {
    (Verb.ADD, False): Msg.ADD_TITLE,
    (Verb.EDIT, False): Msg.EDIT_TITLE,
    (Verb.ADD, True): Msg.SUGGEST_TITLE,
    (Verb.EDIT, True): Msg.SUGGEST_EDIT_TITLE,
}


# -- options ------------------------------------------------------------------------------------------

_T = TypeVar("_T")


async def _in_thread(work: Callable[[], _T]) -> _T:
    return await asyncio.to_thread(work)


class _Text(app_commands.Transformer[ParlBot]):
    """A text option of at most ``length`` characters, trimmed (what the subclasses autocomplete)."""

    length = limits.CHOICE_VALUE

    @property
    def max_value(self) -> int:
        return self.length

    async def transform(self, interaction: Interaction, value: object) -> str:
        return line(str(value))


class Keys(_Text):
    """A source key or chamber slug, autocompleted from what the guild sees (an incident's sources first)."""

    length = form_spec.REFERENCE_MAX

    def __init__(self, kind: EntityKind) -> None:
        self.kind = kind

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        incident = getattr(interaction.namespace, "incident", None)

        labelled = await _in_thread(
            lambda: forms.labelled_key_choices(
                library, guild_id, self.kind, value, incident=incident and str(incident)
            )
        )
        return choices(labelled)


class _Counted(app_commands.Transformer[ParlBot]):
    """An integer option numbered from 1 (what the subclasses' autocomplete lists), at most what a table
    holds as an id."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return ID_MAX

    async def transform(self, interaction: Interaction, value: object) -> int:
        return value if isinstance(value, int) else int(str(value))


class Number(_Counted):
    """The number of a quote, ruling, motion or position, autocompleted from the incident named.

    ``motions`` numbers the motions of the incident (a position's ``motion`` option); otherwise the
    form's own parts (a position's ``number`` lists the positions on the motion named).
    """

    def __init__(self, form: Form, *, motions: bool = False) -> None:
        self.form = FORMS["motion"] if motions else form

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: int | str
    ) -> list[app_commands.Choice[int]]:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        slug, motion = (getattr(interaction.namespace, name, None) for name in ("incident", "motion"))

        numbered = await _in_thread(
            lambda: forms.number_choices(library, guild_id, self.form, slug and str(slug), motion)
        )
        typed = str(value)
        return choices([(label, n) for n, label in numbered if typed in str(n)])


class Target(_Text):
    """An incident, person or party (and, for histories, a source), as ``kind:key``."""

    def __init__(self, *, sources: bool = False) -> None:
        self.sources = sources

    async def transform(self, interaction: Interaction, value: object) -> str:
        """``kind:key`` as given (what autocomplete sends), or the entry a typed slug or name resolves to."""
        text = line(str(value))
        if Ref.names_kind(text):
            return str(Ref.parse(text))
        kind, key = interaction.client.library.resolve_entry(text, guild_id=interaction.guild_id)
        return str(Ref(kind, key))

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        library, guild_id = interaction.client.library, interaction.guild_id
        pairs = library.complete_entries(value, guild_id=guild_id)
        if self.sources:
            keys = await _in_thread(
                lambda: forms.key_choices(library, guild_id or 0, EntityKind.SOURCE, value)
            )
            source = kind_name(EntityKind.SOURCE)
            pairs += [(f"{source}: {key}", str(Ref(EntityKind.SOURCE, key))) for key in keys]
        return choices(pairs)


class RemovedTarget(_Text):
    """An entry removed in the guild, as ``kind:key``, autocompleted from what ``/removed`` lists."""

    async def transform(self, interaction: Interaction, value: object) -> str:
        return str(Ref.parse(str(value), default=EntityKind.INCIDENT))

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        entries = await _in_thread(lambda: library.removed(guild_id=guild_id))
        refs = [Ref(entry.kind, entry.key) for entry in entries]
        typed = value.strip().lower()
        return choices([(ref.words, str(ref)) for ref in refs if typed in str(ref)])


class Alias(_Text):
    """One of the aliases of the entry in the ``target`` option."""

    length = form_spec.ALIAS_MAX

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        target = Ref.parse(
            str(getattr(interaction.namespace, "target", "") or ""), default=EntityKind.INCIDENT
        )
        aliases = await _in_thread(lambda: forms.alias_choices(library, guild_id, target, value))
        return choices([(alias, alias) for alias in aliases])


class OwnChange(_Counted):
    """A change (audit entry) by number, autocompleted with the member's recent changes that they may undo
    (a teacher's, to quiz questions and glossary terms only)."""

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: int | str
    ) -> list[app_commands.Choice[int]]:
        library, guild_id, user_id = (
            interaction.client.library,
            interaction.guild_id or 0,
            interaction.user.id,
        )
        kinds = await undoable_kinds(interaction)
        changes = await _in_thread(lambda: library.undoable(actor=Actor(guild_id, user_id), kinds=kinds))
        return choices(
            [(replies.audit_choice(c), int(c.id or 0)) for c in changes if str(value) in str(c.id)]
        )


class Vocabulary(app_commands.Transformer[ParlBot]):
    """A word of a vocabulary (``db.models``' enums), chosen from its words: "ordered to leave sitting"."""

    def __init__(self, enum: type[StrEnum]) -> None:
        self.enum = enum

    @property
    def choices(self) -> list[app_commands.Choice[str | int | float]]:
        return [
            app_commands.Choice(name=member.value.replace("_", " "), value=member.value)
            for member in self.enum
        ]

    async def transform(self, interaction: Interaction, value: object) -> StrEnum:
        return self.enum(str(value))


def _annotation(form: Form, spec: Field) -> object:
    """How discord.py asks for an option: its type, and its autocomplete, choices or length."""
    if spec.vocabulary is not None:
        return app_commands.Transform[StrEnum, Vocabulary(spec.vocabulary)]
    if spec.input in {Input.INCIDENT, Input.PERSON, Input.PARTY, Input.TERM}:
        return app_commands.Transform[str, Query(spec.input.value)]
    if spec.input in {Input.SOURCE, Input.CHAMBER}:
        return app_commands.Transform[str, Keys(form_spec.REFERENCE_KINDS[spec.input])]
    if spec.input in {Input.NUMBER, Input.MOTION}:
        return app_commands.Transform[int, Number(form, motions=spec.input is Input.MOTION)]
    if spec.input is Input.TARGET:
        return app_commands.Transform[str, Target()]
    if spec.input is Input.ALIAS:
        return app_commands.Transform[str, Alias()]
    if spec.max_length is None:
        raise TypeError(f"the text option {spec.name!r} of /{form.subject} has no limit")
    return app_commands.Range[str, 1, spec.max_length]


def _parameter(form: Form, spec: Field) -> inspect.Parameter:
    """The option as a parameter of the callback's signature; a default of None makes it optional."""
    default = inspect.Parameter.empty if spec.required else None
    return inspect.Parameter(
        spec.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(form, spec), default=default
    )


def form_callback(form: Form, verb: Verb) -> Callable[..., Coroutine[object, object, None]]:
    """One callback for a form and verb, whose signature (and so whose options) comes from the form.

    discord.py calls it with every option (None for those left out) by name: the fields of the form's
    values model, which it becomes at once.
    """

    async def callback(interaction: Interaction, **options: OptionValue) -> None:
        await run_form(interaction, verb, form.values(**options))

    options = form.options(verb)
    interaction = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Interaction
    )
    parameters = [_parameter(form, spec) for spec in options]
    callback.__signature__ = inspect.Signature([interaction, *parameters])  # type: ignore[attr-defined]
    return app_commands.describe(**{spec.name: spec.description for spec in options})(callback)


def writers_right(form: Form) -> Right:
    """Who writes a form's entries: the moderators, and for glossary terms the teachers too (the right the
    writing groups' checks ask, which their forms and confirmations ask again)."""
    return ensure_moderator_or_teacher if form.kind is EntityKind.TERM else ensure_moderator


def build_groups() -> list[app_commands.Group]:
    """/add, /edit, /remove, /suggest and /suggest-edit, each with a subcommand per form."""
    callbacks = {(form.subject, verb): form_callback(form, verb) for form in FORMS.values() for verb in Verb}
    groups = []
    for name, (verb, description, suggesting) in GROUPS.items():
        group = app_commands.Group(
            name=name,
            description=description,
            guild_only=True,
            default_permissions=None if suggesting else MANAGE_SERVER,
        )
        for form in FORMS.values():
            if suggesting and form.kind is EntityKind.TERM:
                continue  # the suggestion groups are at Discord's size limit; staff write terms directly
            command: app_commands.Command[app_commands.Group, ..., None] = app_commands.Command(
                name=form.subject,
                description=f"{COMMAND_WORDS[verb.value, suggesting]} {NOUNS[form.subject]}",
                callback=callbacks[form.subject, verb],
                parent=group,
            )
            check = moderator_or_teacher_only() if form.kind is EntityKind.TERM else moderator_only()
            group.add_command(command if suggesting else check(command))
        groups.append(group)
    return groups


# -- running a form ------------------------------------------------------------------------------------


def _suggesting(interaction: Interaction) -> bool:
    command = interaction.command
    parent = command.parent if isinstance(command, app_commands.Command) else None
    return parent is not None and GROUPS[parent.name][2]


def outcome(write: Callable[[], AuditEntry | Suggestion], texts: Mapping[str, str]) -> Reply:
    """Run ``write`` (in a thread) and say what happened; a refused write hands back the long texts."""
    try:
        result = write()
    except ParlbotError as error:
        return replies.failed_reply(error.message, texts)
    if isinstance(result, Suggestion):
        return replies.suggested_reply(result)
    return replies.done_reply(result)


async def submit(
    interaction: Interaction,
    verb: Verb,
    values: Values,
    *,
    suggest: bool,
    expected_revision: int | None = None,
) -> None:
    """Plan and write (or suggest) the change the values ask for, and answer privately."""
    library, actor = interaction.client.library, actor_of(interaction)

    def write() -> AuditEntry | Suggestion:
        return forms.submit(
            library, actor, verb, values, suggest=suggest, expected_revision=expected_revision
        )

    texts = forms.long_texts(values)
    await respond(interaction, lambda: outcome(write, texts), ephemeral=True)


async def run_form(interaction: Interaction, verb: Verb, given: Values) -> None:
    """The body of every generated subcommand: resolve the references typed, then confirm a removal,
    open a modal, or write. A reference refused hands back the long texts, like a refused write."""
    library, actor, suggest = interaction.client.library, actor_of(interaction), _suggesting(interaction)
    try:
        values = await _in_thread(lambda: forms.resolved(library, actor.guild_id, given))
    except ParlbotError as error:
        await send(interaction, replies.failed_reply(error.message, forms.long_texts(given)))
        return
    if verb is Verb.REMOVE:
        planned, revision = await in_time(
            interaction, lambda: forms.prepare(library, actor.guild_id, verb, values), ephemeral=True
        )

        def remove() -> AuditEntry | Suggestion:
            return forms.write(library, actor, planned, expected_revision=revision)

        kwargs = message_kwargs(replies.confirm_reply(planned.what))
        kwargs["view"] = Confirm(
            interaction, lambda: outcome(remove, {}), REMOVAL, right=writers_right(values.form)
        )
        await deliver(interaction, kwargs, ephemeral=True)
    elif forms.needs_modal(verb, values):
        shown, shown_revision = await _in_thread(lambda: forms.prefill(library, actor.guild_id, verb, values))
        modal = FormModal(interaction, verb, values, shown, shown_revision, suggest=suggest)
        await interaction.response.send_modal(modal)
    else:
        await submit(interaction, verb, values, suggest=suggest)


class FormModal(Modal):
    """A form's long texts: given text (an add) or the current text (an edit) filled in. Only the member who
    ran the command (``prompt``) may send it, in the guild it ran in, holding the writers' right still
    (anyone may send a suggestion)."""

    def __init__(
        self,
        prompt: Interaction,
        verb: Verb,
        values: Values,
        shown: Mapping[str, str],
        revision: int | None,
        *,
        suggest: bool,
    ) -> None:
        form = values.form
        super().__init__(
            prompt.user.id,
            guard=guard(prompt.guild_id, None if suggest else writers_right(form)),
            title=limits.clip(say(MODAL_TITLES[verb, suggest], subject=form.noun), limits.MODAL_TITLE),
            timeout=MODAL_TIMEOUT,
        )
        self.verb, self.values, self.shown = verb, values, dict(shown)
        self.revision, self.suggest = revision, suggest
        self.inputs: dict[str, discord.ui.TextInput[FormModal]] = {}
        for spec in form.modal_fields:
            text_input: discord.ui.TextInput[FormModal] = discord.ui.TextInput(
                custom_id=spec.name,
                style=discord.TextStyle.paragraph if spec.input is Input.LONG else discord.TextStyle.short,
                default=shown.get(spec.name) or None,
                required=verb is Verb.ADD and spec.name == form.opens_modal,
                max_length=spec.max_length,
            )
            self.inputs[spec.name] = text_input
            self.add_item(
                discord.ui.Label(text=limits.clip(spec.label, limits.MODAL_LABEL), component=text_input)
            )

    async def on_submit(self, interaction: Interaction) -> None:  # type: ignore[override]
        submitted = {name: text_input.value for name, text_input in self.inputs.items()}
        values = forms.modal_changes(self.verb, self.values, submitted, self.shown)
        await submit(interaction, self.verb, values, suggest=self.suggest, expected_revision=self.revision)


REMOVAL = Confirmation(Msg.REMOVE, Msg.REMOVAL_NOT_YOURS, Msg.REMOVAL_CANCELLED, Msg.REMOVAL_EXPIRED)


# -- history, undo, settings ---------------------------------------------------------------------------


class HistoryTarget(Target):
    """What ``/history`` shows: an incident, person or party by slug or name, or a bare source key or
    chamber slug (exactly as the guild sees it), as ``kind:key``."""

    KEYED = (EntityKind.SOURCE, EntityKind.CHAMBER)

    def __init__(self) -> None:
        super().__init__(sources=True)

    async def transform(self, interaction: Interaction, value: object) -> str:
        text = line(str(value))
        if not Ref.names_kind(text):
            library, guild_id, key = interaction.client.library, interaction.guild_id or 0, text.lower()
            for kind in self.KEYED:
                if key in await _in_thread(partial(library.visible_keys, guild_id=guild_id, kind=kind)):
                    return str(Ref(kind, key))
        try:
            return await super().transform(interaction, text)
        except NotFound:
            raise NotFound(Msg.HISTORY_TARGET_UNKNOWN, text=text) from None

    async def autocomplete(  # type: ignore[override]
        self, interaction: Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        found = await super().autocomplete(interaction, value)
        slugs = await _in_thread(lambda: forms.key_choices(library, guild_id, EntityKind.CHAMBER, value))
        chamber = kind_name(EntityKind.CHAMBER)
        chambers = choices([(f"{chamber}: {slug}", str(Ref(EntityKind.CHAMBER, slug))) for slug in slugs])
        # The chambers whose slug holds what was typed are few: keep room for them after the best entries.
        return [*found[: limits.CHOICES - len(chambers)], *chambers][: limits.CHOICES]


class HistoryPages(Pages):
    """History pages with a menu of the page's changes: picking one shows it before and after. Only the
    moderator who asked (``prompt``) may turn or pick, in the guild whose history it is, while a moderator."""

    def __init__(self, prompt: Interaction, target: str, changes: Sequence[LoggedChange]) -> None:
        super().__init__(
            prompt.user.id,
            Msg.HISTORY_NOT_YOURS,
            render.pages_for(len(changes), replies.HISTORY_PAGE),
            lambda page: replies.history_page_reply(target, changes, page=page),
            guard=guard(prompt.guild_id, ensure_moderator_reading),
        )
        self.changes = changes

    def show(self, page: int) -> dict[str, Any]:
        kwargs = super().show(page)
        _page, shown = render.page_of(self.changes, self.page, replies.HISTORY_PAGE)
        if shown:
            menu: discord.ui.Select[HistoryPages] = discord.ui.Select(
                placeholder=say(Msg.HISTORY_OPEN),
                options=[
                    discord.SelectOption(
                        label=one_line(replies.audit_choice(c.audit), limits.SELECT_OPTION_LABEL),
                        value=str(c.audit.id),
                    )
                    for c in shown
                ],
                row=0,
            )

            async def pick(interaction: Interaction) -> None:
                await self.open(interaction, int(menu.values[0]))

            menu.callback = pick  # type: ignore[method-assign,assignment]
            self.add_item(menu)
        return kwargs

    async def open(self, interaction: Interaction, audit_id: int) -> None:
        """Send, privately, change ``audit_id`` before and after (with a file when it is too long)."""
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        shown = replies.change_reply(
            await in_time(
                interaction,
                lambda: library.shown_change(guild_id=guild_id, audit_id=audit_id),
                ephemeral=True,
            )
        )
        kwargs = message_kwargs(shown.reply)
        if shown.file_text is not None:
            kwargs["file"] = discord.File(
                io.BytesIO(shown.file_text.encode()), filename=f"change-{audit_id}.txt"
            )
        await deliver(interaction, kwargs, ephemeral=True)


class Curation(commands.Cog):
    def __init__(self, bot: ParlBot) -> None:
        self.bot = bot
        self.groups = build_groups()

    async def cog_load(self) -> None:
        for group in self.groups:
            self.bot.tree.add_command(group)

    async def cog_unload(self) -> None:
        for group in self.groups:
            self.bot.tree.remove_command(group.name)

    @app_commands.command(description="An entry's changes in this server, newest first (moderators)")
    @app_commands.describe(target="An incident, person, party or source")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @moderator_only(reading=True)
    async def history(
        self, interaction: Interaction, target: app_commands.Transform[str, HistoryTarget()]
    ) -> None:
        library, guild_id, ref = interaction.client.library, interaction.guild_id or 0, Ref.parse(target)
        changes = await in_time(
            interaction,
            lambda: library.change_log(guild_id=guild_id, kind=ref.kind, key=ref.key),
            ephemeral=True,
        )
        await HistoryPages(interaction, ref.words, changes).send(interaction, ephemeral=True)

    # Shown to every member (no default permissions), since teachers need not hold Manage Server.
    @app_commands.command(
        description="Undo your last change, or the one you name (moderators; teachers: quiz questions, terms)"
    )
    @app_commands.describe(entry="The change's number, from /history (default: your last change)")
    @app_commands.guild_only()
    @undoer_only()
    async def undo(
        self,
        interaction: Interaction,
        entry: app_commands.Transform[int, OwnChange()] | None = None,
    ) -> None:
        library, actor = interaction.client.library, actor_of(interaction)
        kinds = await undoable_kinds(interaction)
        await respond(
            interaction,
            lambda: replies.done_reply(library.undo(actor=actor, audit_id=entry, kinds=kinds)),
            ephemeral=True,
        )

    @app_commands.command(description="The entries removed in this server, newest first (moderators)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @moderator_only(reading=True)
    async def removed(self, interaction: Interaction) -> None:
        library, guild_id = interaction.client.library, interaction.guild_id or 0
        entries = await in_time(interaction, lambda: library.removed(guild_id=guild_id), ephemeral=True)
        pages = Pages(
            interaction.user.id,
            Msg.REMOVED_NOT_YOURS,
            render.pages_for(len(entries), replies.HISTORY_PAGE),
            lambda page: replies.removed_page_reply(entries, page=page),
        )
        await pages.send(interaction, ephemeral=True)

    @app_commands.command(description="Bring back an entry removed here (moderators)")
    @app_commands.describe(target="A removed entry (type to list them)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @moderator_only()
    async def restore(
        self, interaction: Interaction, target: app_commands.Transform[str, RemovedTarget()]
    ) -> None:
        library, actor, ref = interaction.client.library, actor_of(interaction), Ref.parse(target)
        await respond(
            interaction,
            lambda: replies.done_reply(library.restore(actor=actor, kind=ref.kind, key=ref.key)),
            ephemeral=True,
        )


async def setup(bot: ParlBot) -> None:
    await bot.add_cog(Curation(bot))
