"""The words people use for what happened, and the words of a question that carry no meaning.

Search words, not facts (like ``places``): they only help a query find an incident, and nothing a
member reads is taken from here.

- ``STOP_WORDS``: question words and fillers ("who got kicked out for calling someone a liar" is
  about "kicked out", "calling" and "liar"). A query made of nothing else keeps them ("i will not").
- ``WORDS_FOR``: for an incident kind or a ruling outcome (their values in ``db.models``), the
  everyday words for it, so "ejected", "kicked out" or "apologised" find the incidents they describe.
  Each is a field of its own, so "kicked out" is a name whose "out" alone counts for little.
- French alike: ``STOP_WORDS`` holds French question words and fillers ("qui a été expulsé", "est-ce
  que"), ``FRENCH_WORDS_FOR`` the French words for each kind and outcome ("expulsé", "rappel au
  règlement", "retirer ses propos"), ``FRENCH_ROLES`` the French for the offices a role names ("Speaker"
  is "Président de la Chambre"). ``words_for`` gives a value's words in both languages.
"""

from __future__ import annotations

from typing import Final

# fmt: off
STOP_WORDS: Final[frozenset[str]] = frozenset((
    "who", "whom", "whose", "what", "when", "where", "which", "why", "how",
    "did", "does", "do", "done", "was", "were", "is", "are", "be", "been", "being", "has", "have", "had",
    "the", "a", "an", "of", "for", "to", "in", "on", "at", "by", "with", "from", "about", "into",
    "someone", "somebody", "anyone", "anybody", "something", "anything", "everyone",
    "got", "get", "gets", "getting", "happened", "happen", "happens", "ever", "any", "that", "this", "there",
    # French, folded: "qui a-t-il expulsé", "est-ce que", "qu'est-ce qui", "pourquoi l'a-t-on"
    "qui", "que", "qu", "quoi", "quand", "ou", "pourquoi", "comment", "quel", "quelle", "quels", "quelles",
    "lequel", "laquelle", "est", "ce", "c", "t", "il", "elle", "ils", "elles", "y", "a", "ai", "as", "ont",
    "avait", "etait", "ete", "sont", "etre", "fait", "faire", "avoir", "s", "se", "sa", "son", "ses", "leur",
    "le", "la", "les", "l", "un", "une", "des", "de", "du", "d", "au", "aux", "en", "et", "pour", "par",
    "avec", "sur", "dans", "quelqu", "quelquun", "quelque", "chose", "arrive", "passe", "jamais", "cette",
    "ces", "cet", "lui", "j", "je", "n", "ne", "pas", "m",
))
# fmt: on

_EJECTED = ("ejected", "kicked out", "thrown out", "expelled", "ordered out", "sent out", "removed")

WORDS_FOR: Final[dict[str, tuple[str, ...]]] = {
    # incident kinds
    "unanimous_consent": ("consent blocked", "objected"),
    "unparliamentary_language": ("insult", "insulted", "swore", "swearing", "unparliamentary"),
    "refusal_to_withdraw": ("refused to withdraw", "would not withdraw"),
    "naming": ("named",),
    "suspension": ("suspended",),
    "disorder": ("scuffle", "protest"),
    "privilege": ("contempt",),
    "sitting_suspended": ("adjourned",),
    # ruling outcomes
    "called_to_order": ("order",),
    "warned": ("warning",),
    "words_withdrawn": ("withdrew", "withdrawn", "retracted"),
    "apology_accepted": ("apologised", "apologized", "apology"),
    "ordered_to_leave_sitting": _EJECTED,
    "ordered_to_leave_period": _EJECTED,
    "named": ("named", "naming"),
    "suspended_by_house": ("suspended", "suspension"),
    "privilege_found": ("breach of privilege",),
}


_EXPELLED = (
    "expulsé", "expulsée", "expulsion", "exclu", "exclue", "chassé", "chassée", "mis à la porte",
    "sommé de quitter", "prié de quitter",
)  # fmt: skip

FRENCH_WORDS_FOR: Final[dict[str, tuple[str, ...]]] = {
    # incident kinds
    "unanimous_consent": ("consentement unanime", "consentement refusé"),
    "unparliamentary_language": (
        "langage non parlementaire",
        "propos non parlementaires",
        "insulte",
        "injure",
    ),
    "refusal_to_withdraw": ("refus de retirer", "refuse de retirer ses propos", "retirer ses propos"),
    "naming": ("désigné par son nom",),
    "suspension": ("suspendu", "suspendue", "suspension"),
    "disorder": ("désordre", "bousculade", "protestation"),
    "mace": ("masse", "masse d'armes"),
    "point_of_order": ("rappel au règlement",),
    "privilege": ("question de privilège", "outrage"),
    "speakers_ruling": ("décision de la présidence",),
    "sitting_suspended": ("séance suspendue",),
    # ruling outcomes
    "called_to_order": ("rappel à l'ordre",),
    "warned": ("avertissement", "averti", "avertie"),
    "asked_to_withdraw": ("retirer ses propos", "prié de retirer"),
    "words_withdrawn": ("a retiré ses propos", "retiré", "rétracté"),
    "apology_accepted": ("excuses", "s'est excusé", "s'est excusée"),
    "ordered_to_leave_sitting": _EXPELLED,
    "ordered_to_leave_period": _EXPELLED,
    "named": ("désigné", "désignée"),
    "suspended_by_house": ("suspendu", "suspendue", "suspension"),
    "privilege_found": ("atteinte au privilège", "outrage au Parlement"),
}

FRENCH_ROLES: Final[dict[str, tuple[str, ...]]] = {
    # an office a role names in English (folded words) -> its French names
    "speaker": ("Président de la Chambre", "Présidente", "présidence"),
    "deputy speaker": ("vice-président", "vice-présidente"),
    "prime minister": ("premier ministre", "première ministre"),
    "leader": ("chef",),
    "minister": ("ministre",),
    "member": ("député", "députée"),
    "mp": ("député", "députée"),
}


def words_for(value: str) -> tuple[str, ...]:
    """The everyday words for an incident kind or ruling outcome, English then French."""
    return (*WORDS_FOR.get(value, ()), *FRENCH_WORDS_FOR.get(value, ()))


def french_roles(folded_role: str) -> tuple[str, ...]:
    """The French names of the offices a folded role names as whole words ("assistant deputy speaker")."""
    padded = f" {folded_role} "
    return tuple(
        french for office, names in FRENCH_ROLES.items() if f" {office} " in padded for french in names
    )


def meaningful(words: list[str]) -> list[str]:
    """``words`` without stop words, unless that would leave nothing."""
    kept = [word for word in words if word not in STOP_WORDS]
    return kept or words
