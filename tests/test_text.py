"""bot.text: folding makes the ways people type a name compare equal."""

from __future__ import annotations

from bot.search.text import fold, is_numeric, tokens


def test_fold_casefolds_and_strips_accents() -> None:
    assert fold("Bloc QUÉBÉCOIS") == "bloc quebecois"
    assert fold("Te Pāti Māori") == "te pati maori"
    assert fold("Straße") == "strasse"


def test_fold_turns_punctuation_dashes_and_curly_quotes_into_spaces() -> None:
    assert fold("Maipi-Clarke") == "maipi clarke"
    assert fold("“Fuddle duddle”—PM: sorry!") == "fuddle duddle pm sorry"
    assert fold("standing order number 43—and") == "standing order number 43 and"


def test_fold_parts_a_french_elided_word_from_the_next() -> None:
    assert fold("l’expulsion d'Alain") == "l expulsion d alain"
    assert fold("Qu'est-ce qui s'est passé ?") == "qu est ce qui s est passe"
    assert fold("quelqu'un") == "quelqu un"


def test_fold_joins_an_apostrophe_inside_a_word_so_typed_forms_agree() -> None:
    assert fold("why can’t we act") == fold("why can't we act") == fold("why cant we act")
    assert fold("'fuddle duddle'") == "fuddle duddle"


def test_fold_keeps_letters_and_digits_of_any_script() -> None:
    assert fold("Ελλάδα 2024") == "ελλαδα 2024"
    assert fold("Дума") == "дума"


def test_fold_normalises_compatibility_characters() -> None:
    assert fold("ﬁle ＮＤＰ") == "file ndp"


def test_fold_collapses_whitespace_and_trims() -> None:
    assert fold("  Jagmeet \t\n  Singh  ") == "jagmeet singh"
    assert fold(" … ") == ""


def test_tokens_are_the_folded_words_in_order() -> None:
    assert tokens("Hana-Rawhiti Maipi-Clarke") == ["hana", "rawhiti", "maipi", "clarke"]


def test_is_numeric_recognises_years_only() -> None:
    assert is_numeric("2016")
    assert not is_numeric("c14")
