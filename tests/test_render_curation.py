"""Replies for the moderators' commands stay within Discord's limits and say what happened."""

from __future__ import annotations

import datetime as dt

from bot import limits
from bot.answers.render import EmbedBuilder
from bot.curation import change_view, replies
from bot.curation.change_log import LoggedChange
from bot.defuse import defuse
from bot.messages.catalogue import Msg, say
from db.models import AuditAction, AuditEntry, EntityKind


def audit(number: int, summary: str = "added alias “Jag” to person jagmeet-singh") -> AuditEntry:
    return AuditEntry(
        id=number,
        guild_id=1,
        actor_id=42,
        created_at=dt.datetime(2024, 6, 1, tzinfo=dt.UTC),
        action=AuditAction.EDIT,
        kind=EntityKind.PERSON,
        key="jagmeet-singh",
        summary=summary,
    )


def test_a_done_reply_says_what_changed_and_how_to_undo_it() -> None:
    reply = replies.done_reply(audit(7))
    done = say(Msg.DONE, summary="Added alias “Jag” to person jagmeet-singh", change=7)
    assert reply.content == f"{done} {say(Msg.UNDO_HINT)}"
    assert reply.ephemeral


def test_a_refused_write_hands_back_every_long_text_within_the_message_limit() -> None:
    reply = replies.failed_reply("That change can't be saved.", {"Text": "x " * 3000, "Context": "Short."})
    assert reply.content is not None
    assert len(reply.content) <= limits.CONTENT
    assert reply.content.startswith(
        f"That change can't be saved.\n{say(Msg.NOTHING_SAVED)}\n{say(Msg.YOUR_TEXT)}"
    )
    assert "Context:\n```\nShort.\n```" in reply.content


def test_an_audit_line_mentions_the_moderator_and_the_undo() -> None:
    entry = audit(3)
    entry.undone_by_id = 4
    line = defuse(replies.audit_line(LoggedChange(entry)))
    assert line.startswith("**#3** added alias “Jag” to person jagmeet-singh — <@42>, <t:")
    assert line.endswith(f" · {say(Msg.UNDONE_BY, change=4)}")


def test_history_pages_are_clamped_and_counted() -> None:
    changes = [LoggedChange(audit(n)) for n in range(25, 0, -1)]
    reply = replies.history_page_reply("person jagmeet-singh", changes, page=9)
    embed = reply.embeds[0]
    assert embed["footer"]["text"].startswith(
        f"{say(Msg.CURATION_FOOTER)} · {say(Msg.PAGE, page=3, pages=3)}"
    )
    assert embed["description"].startswith("**#5**")


def test_the_config_reply_names_the_role_without_pinging() -> None:
    role = say(Msg.MODERATORS_ROLE, role="<@&99>")
    assert replies.config_reply(99).content == f"{role}\n{say(Msg.CONFIG_HINT)}"
    assert str(replies.config_reply(None).content).startswith(say(Msg.MODERATORS_MANAGE_SERVER))


# -- the change view (bot.curation.change_view) --------------------------------------------------------

NAMES = {
    (EntityKind.PERSON, "jagmeet-singh"): "Jagmeet Singh",
    (EntityKind.PARTY, "bloc-quebecois"): "Bloc Québécois",
}


def lines_of(before: dict[str, object] | None, after: dict[str, object] | None) -> dict[str, list[str]]:
    return {
        section.title: [change_view.markdown(line) for line in section.lines]
        for section in change_view.sections(before, after, NAMES)
    }


def test_a_short_value_reads_old_to_new_and_a_reference_by_its_name() -> None:
    shown = lines_of({"slug": "x", "party": "new-democratic-party"}, {"slug": "x", "party": "bloc-quebecois"})
    assert shown == {"Party": ["~~new-democratic-party~~ → __Bloc Québécois__"]}


def test_a_list_of_words_marks_the_ones_removed_and_added() -> None:
    shown = lines_of({"aliases": ["Jag", "Rota"]}, {"aliases": ["Jag", "Tony"]})
    assert shown == {"Aliases": ["Jag, ~~Rota~~, __Tony__"]}


def test_a_changed_part_shows_only_its_changed_fields_and_a_removed_one_all_of_them() -> None:
    quote = {"speaker": "jagmeet-singh", "text": "I will not.", "source": "s"}
    other = {"speaker_label": "Someone", "text": "Order.", "source": "s"}
    shown = lines_of({"quotes": [quote, other]}, {"quotes": [{**quote, "text": "I won't."}]})
    assert shown == {
        "Quote 1": ["**text**: ~~I will not.~~ → __I won't.__"],
        "Quote 2 (removed)": ["**speaker label**: Someone", "**text**: Order.", "**source**: s"],
    }


def test_a_nested_position_is_named_by_its_motion() -> None:
    position = {"label": "Bloc", "party": "bloc-quebecois", "stance": "object"}
    shown = lines_of(
        {"motions": [{"text": "m", "positions": []}]}, {"motions": [{"text": "m", "positions": [position]}]}
    )
    assert shown == {
        "Motion 1, position 1 (new)": ["**label**: Bloc", "**party**: Bloc Québécois", "**stance**: object"]
    }


def test_entry_text_is_escaped_so_that_it_cannot_pass_for_a_mark() -> None:
    shown = lines_of({"name": "a"}, {"name": "**bold** _it_"})
    assert shown == {"Name": ["~~a~~ → __\\*\\*bold\\*\\* \\_it\\___"]}


def test_chunks_cut_a_long_diff_between_words_and_reopen_its_marks() -> None:
    before = " ".join(f"old{n}" for n in range(400))
    after = " ".join(f"new{n}" for n in range(400))
    line = tuple(change_view.word_diff(before, after))

    pieces = change_view.chunks([line], limits.FIELD_VALUE)

    assert len(pieces) > 2
    assert all(len(piece) <= limits.FIELD_VALUE for piece in pieces)
    assert all(piece.count("~~") % 2 == 0 and piece.count("__") % 2 == 0 for piece in pieces)
    shown = " ".join(pieces).replace("~~", " ").replace("__", " ").split()
    assert shown == [*before.split(), *after.split()]


def test_a_change_that_does_not_fit_one_embed_says_how_much_is_left_out() -> None:
    embed = EmbedBuilder(title="Change")
    sections = [change_view.Section(f"Part {n}", (((change_view.Mark.SAME, "x" * 1000),),)) for n in range(8)]

    complete = replies.add_change(embed, sections, rest=Msg.CHANGE_IN_FILE)

    built = embed.build()
    assert not complete
    counted = [built["title"], built["footer"]["text"], *(f["name"] + f["value"] for f in built["fields"])]
    assert sum(map(len, counted)) <= limits.EMBED_TOTAL
    assert built["fields"][-1] == {
        "name": say(Msg.CHANGE_NOT_SHOWN),
        "value": say(Msg.CHANGE_IN_FILE, items=say(Msg.ITEMS, count=3)),
        "inline": False,
    }
    assert [field["name"] for field in built["fields"][:-1]] == [f"Part {n}" for n in range(5)]
