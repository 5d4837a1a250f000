"""``bot.defuse``: mentions read literally, unseen characters go, the bot's own mentions stay."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import limits
from bot.defuse import channel_mention, defuse, message_text, one_line, role_mention, user_mention
from tests.discord_harness import RAW_MENTION, unseen
from tests.strategies import hostile_text


@pytest.mark.parametrize("mention", ["@everyone", "@here", "<@123>", "<@!123>", "<@&456>", "<#789>"])
def test_every_kind_of_mention_is_broken_and_reads_the_same(mention: str) -> None:
    shown = defuse(f"ping {mention} now")
    assert not RAW_MENTION.search(shown)
    assert shown.replace("\u200b", "") == f"ping {mention} now"


def test_controls_and_bidi_controls_go_and_words_stay_apart() -> None:
    assert defuse("a\u202eb\u2066c\u2069\u200fd\x07e\x00f\tg\x1bh") == "abcdef gh"


def test_content_keeps_its_lines_and_a_one_line_text_has_none() -> None:
    assert defuse("first\nsecond\r\nthird") == "first\nsecond \nthird"
    assert defuse("first\nsecond", lines=False) == "first second"


def test_a_character_removed_from_inside_a_mention_does_not_make_one() -> None:
    assert not RAW_MENTION.search(defuse("<\u202e@&456> @\x07everyone <\x00#1>"))


def test_the_bots_own_mentions_stay_mentions() -> None:
    written = f"by {user_mention(42)} for {role_mention(7)} in {channel_mention(9)}"
    assert defuse(written) == "by <@42> for <@&7> in <#9>"


def test_what_is_left_of_an_own_mention_cut_short_is_no_mention() -> None:
    cut = user_mention(42)[:2]
    assert defuse(f"{cut}<@42>") == "<\u200b@42>"


def test_a_label_with_nothing_to_show_is_an_ellipsis() -> None:
    assert one_line("\x07\u202e \t", limits.CHOICE_NAME) == limits.ELLIPSIS


@given(hostile_text())
def test_no_text_keeps_a_mention_or_an_unseen_character(text: str) -> None:
    for shown in (defuse(text), defuse(text, lines=False)):
        assert not RAW_MENTION.search(shown)
        assert not unseen(shown)
    assert "\n" not in defuse(text, lines=False)


@given(hostile_text())
def test_defusing_twice_changes_nothing_more(text: str) -> None:
    assert defuse(defuse(text)) == defuse(text)


def seen(char: str) -> str:
    """What a member should see of ``char``: itself, or a space for unseen whitespace, or nothing."""
    if not unseen(char):
        return char
    return " " if char.isspace() else ""


@given(hostile_text())
def test_only_mentions_and_unseen_characters_change(text: str) -> None:
    kept = "".join(seen(char) for char in text)
    assert defuse(text).replace("\u200b", "") == kept.replace("\u200b", "")


@given(hostile_text(), st.integers(1, limits.CONTENT))
def test_labels_and_contents_fit_their_limits(text: str, limit: int) -> None:
    assert 0 < len(one_line(text, limit)) <= limit
    assert len(message_text(text)) <= limits.CONTENT
