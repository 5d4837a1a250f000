"""bot.search at scale: the bigram filter loses no typo match, and writes keep the default order.

The index scores typos only on the vocabulary words the bigram filter (``bot.search.ngrams``) lets
through; these tests hold it to the whole-vocabulary scan it replaced, match for match and in the
same order, on a random vocabulary of several thousand words and through upserts and removals. The
empty autocomplete's order, kept per bucket as documents come and go, is held to a sort of every
visible document.
"""

from __future__ import annotations

import datetime as dt
import itertools
import pickle
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, cast

import numpy as np
import pytest
from rapidfuzz import fuzz, process

from bot.search import index as search_index
from bot.search.index import SHARED_GUILD, Document, DocumentKind, SearchIndex, TextField
from bot.search.ngrams import BigramFilter
from bot.search.text import fold, is_numeric

SYLLABLES = [a + b for a in ["", "b", "ch", "d", "k", "l", "m", "n", "r", "s", "t", "z"] for b in "aeiouyé"]
GUILD = 7


class ScanningIndex(SearchIndex):
    """The index as it was: every typo rule scans the whole vocabulary."""

    def _add_typo_matches(self, token: str, matches: dict[str, float]) -> None:
        for candidate, score, _ in process.extract(
            token, self._vocab, scorer=fuzz.ratio, score_cutoff=self.tuning.token_cutoff, limit=None
        ):
            if not is_numeric(candidate) and score / 100.0 > matches.get(candidate, 0.0):
                matches[candidate] = score / 100.0

    def _add_typo_prefix_matches(self, token: str, matches: dict[str, float]) -> None:
        cut = self._cut(len(token))
        for _, score, index in process.extract(
            token, cut, scorer=fuzz.ratio, score_cutoff=self.tuning.token_cutoff, limit=None
        ):
            candidate, sim = self._vocab[index], score / 100.0 * self.tuning.prefix_sim
            if len(candidate) > len(token) and sim > matches.get(candidate, 0.0):
                matches[candidate] = sim

    def _cut(self, length: int) -> list[str]:
        """The vocabulary cut to ``length`` characters (kept until the vocabulary changes)."""
        cuts: dict[int, list[str]] = vars(self).setdefault("cuts", {})
        if length not in cuts:
            cuts[length] = [candidate[:length] for candidate in self._vocab]
        return cuts[length]

    def _vocabulary_changed(self) -> None:
        super()._vocabulary_changed()
        vars(self).pop("cuts", None)


def words(rng: random.Random, count: int) -> list[str]:
    return ["".join(rng.choices(SYLLABLES, k=rng.randint(1, 4))) for _ in range(count)]


def documents(rng: random.Random, count: int, *, prefix: str = "doc") -> list[Document]:
    return [
        Document(
            kind=DocumentKind.INCIDENT,
            key=f"{prefix}-{n}",
            label=" ".join(words(rng, 2)).title(),
            fields=(TextField(" ".join(words(rng, 3))), TextField(" ".join(words(rng, 6)), 0.45)),
            date=dt.date(2000, 1, 1) + dt.timedelta(days=rng.randrange(40)),
        )
        for n in range(count)
    ]


def typed(rng: random.Random, vocabulary: Sequence[str], count: int) -> list[str]:
    """Query words as people type them: vocabulary words, their prefixes, typos, and strangers."""
    queries = []
    for word in rng.sample(vocabulary, count):
        at = rng.randrange(len(word))
        queries += [
            word,
            word[: rng.randint(1, len(word))],
            word[:at] + rng.choice("aeilnrsuyé") + word[at + 1 :],
            word[:at] + word[at + 1 :] or word,
            word + rng.choice("aeiz"),
        ]
    return [*queries, *words(rng, count)]


def assert_same_matches(index: SearchIndex, reference: SearchIndex, queries: Sequence[str]) -> None:
    for query, allow_prefix in itertools.product([fold(q) for q in queries], (False, True)):
        got = index._token_matches(query, allow_prefix=allow_prefix)
        expected = reference._token_matches(query, allow_prefix=allow_prefix)
        assert list(got.items()) == list(expected.items()), (query, allow_prefix)


@pytest.fixture(scope="module")
def corpus() -> list[Document]:
    return documents(random.Random(5), 1500)


def test_typo_matches_equal_a_scan_of_the_whole_vocabulary(corpus: list[Document]) -> None:
    index, reference = SearchIndex(corpus), ScanningIndex(corpus)
    assert len(index._vocab) > 5000
    assert_same_matches(index, reference, typed(random.Random(1), index._vocab, 300))


def test_typo_matches_stay_equal_as_words_come_and_go(corpus: list[Document]) -> None:
    index, reference = SearchIndex(corpus), ScanningIndex(corpus)
    rng = random.Random(2)
    for doc in documents(rng, 200, prefix="new"):
        index.upsert(doc)
        reference.upsert(doc)
    for doc in rng.sample(corpus, 600):
        index.remove(doc.kind, doc.key)
        reference.remove(doc.kind, doc.key)
    assert index._vocab == reference._vocab
    assert_same_matches(index, reference, typed(rng, index._vocab, 200))


@pytest.mark.parametrize("cutoff", [60.0, 75.0, 85.0])
def test_bigram_filter_keeps_every_word_ratio_accepts_and_scores_beginnings_as_a_scan(cutoff: float) -> None:
    rng = random.Random(int(cutoff))
    vocabulary = sorted(set(words(rng, 4000)))
    gone = set(rng.sample(vocabulary, 2500))  # enough removals to rebuild the postings
    grams = BigramFilter(vocabulary)
    for word in gone:
        grams.remove(word)
    live = [word for word in vocabulary if word not in gone]
    for query in typed(rng, live, 60):
        scanned = process.extract(query, live, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
        assert {word for word, _, _ in scanned} <= set(grams.candidates(query, cutoff))
        cut = [word[: len(query)] for word in live]
        prefixed = process.extract(query, cut, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
        longer = [(live[n], score) for _, score, n in prefixed if len(live[n]) > len(query)]
        assert grams.prefix_matches(query, cutoff) == longer  # best first, ties in word order


def test_bigram_filter_leaves_out_words_sharing_too_few_bigrams() -> None:
    grams = BigramFilter(["poilievre", "trudeau", "singh", "sing", "mulcair"])
    assert grams.candidates("sihng", 75.0) == ["sing", "singh"]
    assert grams.prefix_matches("poilev", 75.0) == [("poilievre", fuzz.ratio("poilev", "poilie"))]


def test_bigram_filter_scores_beginnings_longer_than_those_it_keeps_as_arrays() -> None:
    word = "parliamentaryprivilegebreachinquiry"  # its first 24 characters are kept as an array
    grams = BigramFilter([word, "parliamentaryprocedure"])
    typed = "parliamentaryprivilegebreahc"  # 28 characters, two swapped
    assert grams.prefix_matches(typed, 75.0) == [(word, fuzz.ratio(typed, word[: len(typed)]))]


def default_order(index: SearchIndex, guild_id: int | None) -> list[str]:
    return [hit.document.key for hit in index.complete("", guild_id=guild_id)]


def sorted_by_hand(docs: Sequence[Document], guild_id: int | None) -> list[str]:
    """Every visible document sorted as the default order says, latest write last among equals."""
    own = {doc.key for doc in docs if doc.guild_id == guild_id and guild_id}
    visible = [doc for doc in docs if doc.guild_id == guild_id or (doc.guild_id == 0 and doc.key not in own)]
    ranked = sorted(visible, key=lambda doc: (-(doc.date.toordinal() if doc.date else 0), doc.label))
    return [doc.key for doc in ranked if not doc.removed][:25]


def test_writes_keep_the_default_order_of_a_sort_of_every_visible_document() -> None:
    rng = random.Random(9)
    docs = {doc.key: doc for doc in documents(rng, 300)}  # 40 dates: many ties, broken by label
    index = SearchIndex(docs.values())
    written = list(docs.values())
    for step in range(300):
        key = f"doc-{rng.randrange(320)}"
        if step % 3 == 0 and key in docs:
            index.remove(DocumentKind.INCIDENT, key)
            written = [doc for doc in written if doc.key != key]
            del docs[key]
        else:
            (doc,) = documents(rng, 1, prefix="doc")
            doc = Document(DocumentKind.INCIDENT, key, doc.label, fields=doc.fields, date=doc.date)
            index.upsert(doc)
            written = [*(old for old in written if old.key != key), doc]
            docs[key] = doc
        assert default_order(index, None) == sorted_by_hand(written, None)


def test_a_build_puts_every_document_in_the_default_order_of_a_sort_of_them_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(search_index, "_SET_ASIDE", 64)  # most documents packed as the build goes
    rng = random.Random(12)
    docs = with_twins(rng, 300)  # 40 dates, and twins: ties on date and label, the first given first
    docs += [replace(doc, key=f"undated-{doc.key}", date=None) for doc in docs[::10]]
    index = SearchIndex(docs)
    ranked = sorted(docs, key=lambda doc: (-(doc.date.toordinal() if doc.date else 0), doc.label))
    ordered = index._ordered[""][DocumentKind.INCIDENT, SHARED_GUILD]
    assert [index._slots[slot].doc.key for slot in ordered] == [doc.key for doc in ranked]


def test_a_guild_document_and_a_tombstone_shadow_the_shared_one_in_the_default_order() -> None:
    day = dt.date(2020, 1, 1)
    shared = [
        Document(DocumentKind.INCIDENT, f"shared-{n}", f"Shared {n}", date=day - dt.timedelta(days=n))
        for n in range(5)
    ]
    index = SearchIndex(shared)
    index.upsert(Document(DocumentKind.INCIDENT, "shared-3", "Own three", guild_id=GUILD, date=day))
    index.upsert(Document(DocumentKind.INCIDENT, "shared-0", "Gone", guild_id=GUILD, removed=True))
    assert default_order(index, GUILD) == ["shared-3", "shared-1", "shared-2", "shared-4"]
    assert index.complete("", guild_id=GUILD)[0].document.label == "Own three"
    assert default_order(index, None) == [f"shared-{n}" for n in range(5)]
    index.remove(DocumentKind.INCIDENT, "shared-0", GUILD)
    assert default_order(index, GUILD) == ["shared-3", "shared-0", "shared-1", "shared-2", "shared-4"]


def test_a_one_letter_autocomplete_finds_a_name_written_a_moment_ago_and_not_once_removed() -> None:
    rng = random.Random(4)
    index = SearchIndex(documents(rng, 200))
    name = "Xavier Quist"
    newest = Document(
        DocumentKind.INCIDENT, "quist", name, fields=(TextField(name),), date=dt.date(2030, 1, 1)
    )
    index.upsert(newest)
    assert index.complete("x")[0].document.key == "quist"
    assert index.complete("qu")[0].document.key == "quist"
    index.remove(DocumentKind.INCIDENT, "quist")
    assert "quist" not in {hit.document.key for hit in index.complete("x") + index.complete("qu")}


def results_of(index: SearchIndex, seed: int, count: int, *, search_limit: int = 10) -> Callable[[], object]:
    """What ``count`` typed queries (and pairs of them) complete and find, computed anew at each call."""
    queries = typed(random.Random(seed), index._vocab, count)
    queries += [" ".join(pair) for pair in itertools.pairwise(queries[::3])]

    def results() -> list[list[tuple[str, float]]]:
        return [
            [(hit.document.key, hit.score) for hit in hits]
            for query in queries
            for hits in (index.complete(query), index.search(query, limit=search_limit))
        ]

    return results


def test_leaving_uncompared_the_fields_too_far_from_the_query_to_lift_a_document_changes_no_result(
    corpus: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    results = results_of(SearchIndex(corpus), 6, 40)
    cut_off = results()
    terms = search_index._Texts.phrase_terms

    def every_field(texts: Any, query: str, slots: Any, *, at_least: Any = 0.0) -> Any:
        return terms(texts, query, slots)  # every field compared, whatever ratio it needs

    monkeypatch.setattr(search_index._Texts, "phrase_terms", every_field)
    assert results() == cut_off


def phrase_terms_text_by_text(
    texts: Any, query: str, slots: Any, at_least: float | Sequence[float]
) -> list[float]:
    """``_Texts.phrase_terms`` as a reading of each document's texts one by one gives them: the best
    ``weight x ratio`` among the texts reaching their slot's ``at_least``."""
    needed = at_least if isinstance(at_least, Sequence) else [at_least] * len(slots)
    return [
        max(
            (
                w * r / 100.0
                for t, w in zip(texts.of(s), texts.weights_of(s), strict=True)
                if (r := fuzz.ratio(query, t)) > 0.0 and w * r >= least
            ),
            default=0.0,
        )
        for s, least in zip(slots.tolist(), needed, strict=True)
    ]


def test_a_phrase_term_counts_as_none_every_text_whose_weighted_ratio_falls_short_of_its_documents_need() -> (
    None
):
    rng = random.Random(32)
    texts = search_index._Texts()
    for slot in range(1, 201):  # names, titles and quotes, with as many lengths near each other's
        held = [" ".join(words(rng, rng.choice([1, 2, 4, 12]))) for _ in range(rng.randint(1, 4))]
        texts.add(slot, held, [rng.choice([1.0, 0.85, 0.45]) for _ in held])
    texts.add(201, ["zéda", "bazéde"], [1.0, 1.0])  # "zé" reaches 2/3 and 1/2, as far as its length allows
    slots = np.arange(1, 202)
    queries = [" ".join(words(rng, n)) for n in (1, 1, 2, 3)] + ["a", "zé", "de la"]
    for query, at_least in itertools.product(queries, (10.0, 30.0, 50.0, 200.0 * 2 / 6, 80.0)):
        expected = phrase_terms_text_by_text(texts, query, slots, at_least)
        assert texts.phrase_terms(query, slots, at_least=at_least).tolist() == expected, (query, at_least)
        each = [rng.choice([0.0, at_least / 2, at_least, 200.0 * 2 / 6 * 0.85, 90.0]) for _ in slots]
        expected = phrase_terms_text_by_text(texts, query, slots, each)
        assert texts.phrase_terms(query, slots, at_least=np.array(each)).tolist() == expected, query


def test_judging_candidates_in_growing_batches_finds_what_judging_them_one_at_a_time_finds(
    corpus: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    results = results_of(SearchIndex(corpus), 8, 40)
    batched = results()

    monkeypatch.setattr(search_index._Coverage, "_FIRST_BATCH", 1)
    monkeypatch.setattr(search_index._Coverage, "_BATCH_MAX", 1)  # each bound checked after every hit
    assert results() == batched


def test_leaving_unscored_the_candidates_the_cut_would_drop_changes_no_result(
    corpus: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    results = results_of(SearchIndex(corpus), 7, 80, search_limit=40)
    pruned = results()
    rank = SearchIndex._rank

    def unpruned(self: SearchIndex, *args: Any, cut: bool = False, **options: Any) -> list[Any]:
        return rank(self, *args, **options)  # every candidate scored, as before the cut was known

    monkeypatch.setattr(SearchIndex, "_rank", unpruned)
    assert results() == pruned


def test_a_one_letter_word_beginning_hundreds_of_others_completes_from_initials_newest_first() -> None:
    names = [f"D'Arcy D{a}{b}" for a in SYLLABLES[:30] for b in SYLLABLES[:30]]
    index = SearchIndex(
        Document(DocumentKind.PERSON, f"p{n}", name, exact=(name,)) for n, name in enumerate(names)
    )
    assert index._begins_many("d")  # "d" is a word of its own (d'Arcy), and begins hundreds of others
    newest = Document(
        DocumentKind.INCIDENT, "dunne-2031", "Dunne ejected", fields=(TextField("Dunne ejected"),),
        date=dt.date(2031, 1, 1),
    )  # fmt: skip
    index.upsert(newest)
    hits = index.complete("d")
    assert hits[0].document.key == "dunne-2031"
    assert len(hits) == search_index.COMPLETE_MAX
    assert all(hit.document.shown.lower().startswith("d") for hit in hits)


def with_twins(rng: random.Random, count: int) -> list[Document]:
    """``count`` documents and, for a third of them, a twin under another key: the same label, texts
    and date, so the two tie on everything but which was written last (their slots)."""
    docs = documents(rng, count)
    twins = [replace(doc, key=f"twin-{doc.key}") for doc in docs[::3]]
    return [*docs, *twins]


Held = dict[tuple[DocumentKind, str, int], Document]  # the documents an index holds, as last written


def rewritten(
    rng: random.Random, docs: Sequence[Document], writes: int
) -> tuple[SearchIndex, list[Document]]:
    """An index of ``docs`` after ``writes`` upserts (new texts, the same keys, some in a guild) and
    removals, ending with every document of ``docs`` written once more, in a random order; and the
    documents it holds, in the order they were last written (what a fresh index of them holds)."""
    index = SearchIndex(docs)
    held: Held = {}
    for doc in docs:
        wrote(held, doc)
    rewrite(index, rng, docs, writes, held)
    return index, [doc for doc in held.values() if not doc.removed]


def wrote(held: Held, doc: Document) -> None:
    held.pop(doc.ident, None)  # last written: last in order
    held[doc.ident] = doc


def rewrite(
    index: SearchIndex, rng: random.Random, docs: Sequence[Document], writes: int, held: Held | None = None
) -> None:
    """``rewritten``'s writes, to ``index`` (and to ``held``, where given)."""
    held = {} if held is None else held
    for step in range(writes):
        doc = rng.choice(docs)
        if step % 5 == 0:
            index.remove(doc.kind, doc.key)
            held.pop((doc.kind, doc.key, SHARED_GUILD), None)
        else:
            (other,) = documents(rng, 1)
            guild = GUILD if step % 7 == 0 else doc.guild_id
            index.upsert(written := replace(other, key=doc.key, guild_id=guild))
            wrote(held, written)
    for doc in rng.sample(list(docs), len(docs)):
        index.upsert(doc)
        wrote(held, doc)


def test_rewriting_the_same_documents_keeps_the_slot_range_within_twice_the_live_ones() -> None:
    rng = random.Random(12)
    docs = documents(rng, 200)
    index = SearchIndex(docs)
    for step in range(5000):  # far more slots given than the bound allows
        doc = docs[rng.randrange(len(docs))]
        if step % 4 == 0:
            index.remove(doc.kind, doc.key)
        else:
            index.upsert(doc)
        assert index.slot_range <= 2 * len(index) + search_index._SLOT_FLOOR
    assert index.slot_range <= len(docs) + 1 + search_index._SLOT_FLOOR


def test_a_word_s_postings_keep_fewer_rows_of_rewritten_documents_than_of_live_ones() -> None:
    rng = random.Random(15)
    docs = documents(rng, 50)
    common = [replace(doc, fields=(*doc.fields, TextField("quokka"))) for doc in docs]
    index = SearchIndex(common)
    for step in range(300):  # too few writes to renumber the slots
        index.upsert(common[step % 10])
        live = index._df["quokka"]
        assert live == len(docs)
        assert index._dead.get("quokka", 0) <= live
    assert index.slot_range > 300
    fresh = SearchIndex([*common[10:], *common[:10]])  # in the order they were last written
    assert answers(index, ["quokka", "quok"]) == answers(fresh, ["quokka", "quok"])


def test_results_after_slots_are_renumbered_equal_those_of_a_fresh_index_of_the_same_documents() -> None:
    rng = random.Random(13)
    docs = with_twins(rng, 300)  # and few syllables, 40 dates: ties in coverage and in the default order
    index, held = rewritten(rng, docs, 4000)
    assert index.slot_range < 4000  # renumbered along the way
    fresh = SearchIndex(held)  # in the order they were last written
    queries = ["", *typed(rng, fresh._vocab, 40)]
    queries += [" ".join(pair) for pair in itertools.pairwise(queries[1::3])]
    assert answers(index, queries) == answers(fresh, queries)


def test_an_index_loaded_from_its_pickle_and_written_to_answers_as_the_index_it_was_a_copy_of() -> None:
    rng = random.Random(16)
    docs = with_twins(rng, 300)
    original, _ = rewritten(rng, docs, 600)  # dead rows, rows of room and freed slots in its postings
    loaded = pickle.loads(pickle.dumps(original))
    for index in (original, loaded):
        rewrite(index, random.Random(17), docs, 3000)  # the same writes: slots renumbered along the way
    assert original.slot_range < 3000
    queries = ["", *typed(rng, original._vocab, 40)]
    queries += [" ".join(pair) for pair in itertools.pairwise(queries[1::3])]
    assert answers(loaded, queries) == answers(original, queries)


def test_an_index_built_from_one_document_given_twice_holds_its_last_version_where_that_comes() -> None:
    rng = random.Random(14)
    docs = with_twins(rng, 60)
    first = replace(docs[0], fields=(TextField("zanzibar quokka"),))  # words only this version has
    index = SearchIndex([first, *docs[1:], docs[0]])  # docs[0] again, last: after its twin
    once = SearchIndex([*docs[1:], docs[0]])
    assert len(index) == len(docs)
    assert "zanzibar" not in index._vocab
    queries = ["", "zanzibar", *typed(rng, once._vocab, 20)]
    assert answers(index, queries) == answers(once, queries)


def answers(index: SearchIndex, queries: Sequence[str]) -> list[object]:
    """What every query completes, finds and resolves to, without a guild and in GUILD."""
    found: list[object] = []
    for query, guild in itertools.product(queries, (None, GUILD)):
        for call in (index.complete, index.search):
            found.append([(hit.document.ident, hit.score) for hit in call(query, guild_id=guild)])
        found.append(index.resolve(query, guild_id=guild))
    return found


def test_what_a_query_weighed_before_a_write_is_weighed_again_by_the_documents_held_after_it() -> None:
    rng = random.Random(21)
    docs = documents(rng, 400)
    index = SearchIndex(docs[:200])
    queries = typed(rng, index._vocab, 30)
    queries += [" ".join(pair) for pair in itertools.pairwise(queries[::3])]
    queries += [f"{word} {word[0]}" for word in queries[:10]]  # a letter typed after a word: names' initials
    answers(index, queries)  # each word's matches weighed by the first 200 documents, initials listed
    for doc in docs[200:]:
        index.upsert(doc)
    assert answers(index, queries) == answers(SearchIndex(docs), queries)
    for doc in docs[:300]:
        index.remove(doc.kind, doc.key)
    assert answers(index, queries) == answers(SearchIndex(docs[300:]), queries)


def test_removing_every_document_leaves_no_word_behind_not_even_a_hyphenated_name_s_joined_form() -> None:
    rng = random.Random(22)
    docs = [
        replace(doc, fields=(*doc.fields, TextField(f"Maipi-Clarke {n}"), TextField("Vaile-Tēra-Ōtu", 0.45)))
        for n, doc in enumerate(documents(rng, 30))
    ]
    index = SearchIndex(docs)
    assert {"maipiclarke", "vaileteraotu"} <= set(index._vocab)
    for doc in docs:
        index.upsert(doc)  # unlinked, then linked again
    for doc in docs:
        index.remove(doc.kind, doc.key)
    assert (index._vocab, index._df, index._postings, index._anagrams) == ([], {}, {}, {})
    assert len(index._grams) == 0


def test_a_word_is_credited_with_its_field_s_weight_unrounded_however_many_weights_the_fields_have() -> None:
    weights = [round(0.05 + n * 0.0031, 4) for n in range(300)]  # more weights than a byte could number
    docs = [
        Document(kind=DocumentKind.QUOTE, key=f"q-{n}", label=f"Quote {n}", fields=(TextField("quokka", w),))
        for n, w in enumerate(weights)
    ]
    index = SearchIndex(docs[:150])
    for doc in docs[150:]:
        index.upsert(doc)  # weights new to the index, posted one write at a time
    coverage = index._coverage(["quokka"], index._buckets(None, None), typing=False)
    credited = dict(zip(coverage.slots.tolist(), coverage.coverage.tolist(), strict=True))
    held = {index._entries[doc.ident]: weight for doc, weight in zip(docs, weights, strict=True)}
    assert credited == pytest.approx(held, rel=1e-12)  # the weight itself, not a float32 or a byte's rounding


def assert_tally_clear(index: SearchIndex) -> None:
    tally = index._tally
    assert not tally.totals.any()
    assert not tally.best.any()
    assert (tally.found_at == search_index._NOT_FOUND).all()
    assert not tally.in_among.any()


@pytest.mark.parametrize("open_cost", [search_index._OPEN_COST, 0])  # 0: every later word only re-scores
def test_queries_leave_the_arrays_they_tally_in_as_they_found_them(
    open_cost: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_index, "_OPEN_COST", open_cost)
    rng = random.Random(23)
    index = SearchIndex(with_twins(rng, 300))
    queries = typed(rng, index._vocab, 40)
    queries += [" ".join(pair) for pair in itertools.pairwise(queries[::3])]
    queries += [f"{word} {word[0]}" for word in queries[:10]]  # a letter after a word: the head bonus
    tallied = answers(index, queries)
    assert len(index._tally.totals) >= index.slot_range
    assert_tally_clear(index)
    assert answers(index, queries) == tallied


def test_a_query_that_fails_midway_leaves_the_next_one_a_clear_tally(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(24)
    docs = with_twins(rng, 200)
    index = SearchIndex(docs)
    query = " ".join(docs[0].label.lower().split()[:2])
    expected = answers(index, [query])
    best_matches = SearchIndex._best_matches

    def failing_on_the_second_word(self: SearchIndex, *args: Any, **kwargs: Any) -> Any:
        found = best_matches(self, *args, **kwargs)
        if args[3] == 1:  # the step: after the first word has tallied its credit
            raise MemoryError
        return found

    monkeypatch.setattr(SearchIndex, "_best_matches", failing_on_the_second_word)
    with pytest.raises(MemoryError):
        index.search(query)
    monkeypatch.undo()
    assert_tally_clear(index)
    assert answers(index, [query]) == expected


def test_an_index_loaded_from_its_pickle_holds_its_arrays_in_numpy_s_own_dtypes() -> None:
    loaded = pickle.loads(pickle.dumps(SearchIndex(documents(random.Random(25), 50))))
    held = [*vars(loaded).values(), *vars(loaded._texts).values(), *loaded._postings.values()]
    arrays = [value for value in held if isinstance(value, np.ndarray)]
    assert len(arrays) > 6
    # an unpickled array's dtype is an equal copy of numpy's, and ufunc.at took a path ten times slower
    assert all(array.dtype is np.dtype(array.dtype.type) for array in arrays)


class HeadReadingIndex(SearchIndex):
    """The index as it was: a letter typed after a word credits the documents found whose name or title
    words begin with it, read from each document found."""

    def _add_head_bonus(self, tally: Any, found: Any, buckets: Any, word: str, weight: float) -> None:
        heads = [slot for slot in tally.distinct(found).tolist() if f" {word}" in self._slots[slot].heads]
        tally.totals[heads] += weight * self.tuning.prefix_sim * search_index._W_HEAD


def test_letters_typed_after_a_word_credit_the_documents_a_reading_of_each_found_one_credits() -> None:
    rng = random.Random(26)
    docs = with_twins(rng, 400)
    index, reference = (cls(docs) for cls in (SearchIndex, HeadReadingIndex))
    for each in (index, reference):
        rewrite(each, random.Random(27), docs, 600)  # guild copies, tombstones, renumbered slots
    words = [word for word in typed(rng, index._vocab, 30) if len(word) > 2]
    # after a rare word few documents are found, after a common one ("a") many: either list is the shorter
    queries = [f"{word} {letters}" for word in [*words, "a", "ba"] for letters in ("a", "t", "ch", "zé")]
    assert answers(index, queries) == answers(reference, queries)


def test_a_word_s_rows_in_use_stay_in_slot_order_through_writes_removals_and_renumbering() -> None:
    index, _ = rewritten(random.Random(29), with_twins(random.Random(29), 300), 4000)
    assert index.slot_range < 4000  # renumbered along the way
    for word, rows in index._postings.items():
        assert (np.diff(rows[: index._used(word), search_index._SLOT]) > 0).all(), word


def twins_written_over(seed: int, writes: int) -> tuple[random.Random, SearchIndex]:
    """An index of ``with_twins`` documents after ``writes`` writes (guild copies, tombstones), and the random
    source that drew the documents, to draw queries with."""
    rng = random.Random(seed)
    docs = with_twins(rng, 400)
    index = SearchIndex(docs)
    rewrite(index, random.Random(seed + 1), docs, writes)
    return rng, index


def seeks_recorded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the rows in use of each word sought (``_keyed``), one entry a seek."""
    keyed = search_index._keyed
    sought: list[int] = []

    def seeking(rows: Any, used: int) -> Any:
        sought.append(used)
        return keyed(rows, used)

    monkeypatch.setattr(search_index, "_keyed", seeking)
    return sought


def test_seeking_the_documents_found_in_a_common_word_s_rows_credits_what_reading_the_rows_credits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng, index = twins_written_over(30, 2500)
    assert index.slot_range < 2500  # renumbered along the way
    queries = [" ".join(pair) for pair in itertools.pairwise(typed(rng, index._vocab, 40))]
    monkeypatch.setattr(search_index, "_OPEN_COST", 0)  # every word after the first only re-scores
    monkeypatch.setattr(search_index, "_SEEK_SHARE", len(index))  # a word's rows read through
    read = answers(index, queries)
    sought = seeks_recorded(monkeypatch)
    monkeypatch.setattr(search_index, "_SEEK_SHARE", 0)  # each document found sought in every word's rows
    monkeypatch.setattr(search_index, "_SEEK_ROWS_MIN", 0)
    assert answers(index, queries) == read
    assert len(sought) > len(queries)


def test_a_word_with_few_rows_is_read_with_the_others_not_sought_however_few_documents_were_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng, index = twins_written_over(31, 2500)
    queries = [" ".join(pair) for pair in itertools.pairwise(typed(rng, index._vocab, 40))]
    monkeypatch.setattr(search_index, "_OPEN_COST", 0)  # every word after the first only re-scores
    sought = seeks_recorded(monkeypatch)
    answers(index, queries)
    assert sought == []  # no word of 2,500 documents has more than _SEEK_ROWS_MIN rows

    monkeypatch.setattr(search_index, "_SEEK_ROWS_MIN", 0)
    answers(index, queries)
    assert sought  # the same queries seek the words many times commoner than the documents found


def test_a_prefix_s_words_are_read_as_one_run_until_one_is_written_and_again_once_renumbered() -> None:
    docs = documents(random.Random(33), 300)
    index = SearchIndex(docs)
    prefix = index._vocab[len(index._vocab) // 2][:2]
    first, end = index._runs.span(prefix) or (0, 0)
    assert index._runs.words[first:end] == [word for word in index._vocab if word.startswith(prefix)]
    assert len(range(first, end)) > 1

    index.upsert(replace(docs[0], fields=(TextField(f"{prefix}zzq"),)))  # a new word it begins
    assert index._runs.span(prefix) is None
    assert index._runs.span("") is None
    index._renumber_slots()
    assert index._runs.span(prefix) is not None


def test_reading_the_words_a_prefix_begins_as_one_run_finds_what_reading_them_one_by_one_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng, index = twins_written_over(34, 300)  # too few writes to renumber: many words unpacked
    loaded = pickle.loads(pickle.dumps(index))  # packed again, as saved
    queries = typed(rng, index._vocab, 30)
    queries += [" ".join(pair) for pair in itertools.pairwise(queries[::2])]
    found = [answers(index, queries), answers(loaded, queries)]
    assert found[0] == found[1]
    runs = 0

    def word_by_word(self: Any, prefix: str) -> None:
        nonlocal runs
        runs += 1
        return None

    monkeypatch.setattr(search_index._Runs, "span", word_by_word)
    index._match_cache.clear()
    loaded._match_cache.clear()
    assert [answers(index, queries), answers(loaded, queries)] == found
    assert runs > len(queries)


def test_an_index_saved_holds_a_word_s_rows_in_use_not_its_room_for_more() -> None:
    rng = random.Random(36)
    docs = documents(rng, 200)
    index = SearchIndex(docs)
    rewrite(index, rng, docs, 100)  # rows given room, rows of documents unlinked
    words, rows, lengths = cast(search_index._PackedPostings, index.__getstate__()["_postings"])
    assert words == index._vocab
    assert lengths.tolist() == [index._used(word) for word in words]
    assert len(rows) == sum(lengths) < sum(len(index._postings[word]) for word in words)
    loaded = pickle.loads(pickle.dumps(index))
    assert loaded._runs.span("") == (0, len(loaded._vocab))


def test_a_loaded_index_makes_a_word_s_view_of_the_packed_rows_only_once_the_word_is_read() -> None:
    rng = random.Random(37)
    docs = documents(rng, 200)
    index = SearchIndex(docs)
    rewrite(index, rng, docs, 100)
    loaded = pickle.loads(pickle.dumps(index))
    assert dict(loaded._postings) == {}
    word = loaded._vocab[7]
    assert np.array_equal(loaded._postings[word], index._postings[word][: index._used(word)])
    assert list(loaded._postings) == [word]
    assert np.shares_memory(loaded._postings[word], loaded._runs.rows)


class PieceReadingIndex(SearchIndex):
    """The index as it was: each document credited for a word of a name pair, read one by one for whether
    it has the word only as a piece of another name; counting the pieces it finds."""

    pieces = 0

    def _share_pieces(self, best: Any, word: str, pairs: Sequence[str], ranks: Any, holders: Any) -> None:
        slots = self._postings[word][:, search_index._SLOT].astype(np.intp)
        slots = slots[ranks[self._slot_buckets[slots]] >= 0]
        held = self._slots
        pieces = [
            slot
            for slot in slots[best[slots] > 0.0].tolist()
            if word in held[slot].names and not all(pair in held[slot].pairs for pair in pairs)
        ]
        best[pieces] *= self.tuning.piece_share
        self.pieces += len(pieces)


def test_a_name_pair_s_pieces_found_from_the_rows_are_those_a_reading_of_each_document_finds() -> None:
    docs = with_twins(random.Random(37), 400)
    index, reference = SearchIndex(docs), PieceReadingIndex(docs)
    for each in (index, reference):
        rewrite(each, random.Random(38), docs, 600)  # guild copies, tombstones
    names = [fold(doc.fields[0].text).split() for doc in docs[:80]]  # three words: a name, its pairs
    queries = [" ".join(pair) for words in names for pair in itertools.pairwise(words)]
    queries += [" ".join(reversed(pair)) for words in names[:20] for pair in itertools.pairwise(words)]
    assert answers(index, queries) == answers(reference, queries)
    assert reference.pieces > len(queries)


def test_a_name_pair_s_holders_are_read_once_a_query_for_both_its_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    docs = with_twins(random.Random(37), 400)
    index = SearchIndex(docs)
    names = [fold(doc.fields[0].text).split() for doc in docs[:80]]
    queries = [" ".join(pair) for words in names for pair in itertools.pairwise(words)]
    read: list[int] = []
    holding_pair = search_index._Held.holding_pair

    def recorded(held: Any, slots: Any, pair: str) -> Any:
        read.extend(slots.tolist())
        return holding_pair(held, slots, pair)

    monkeypatch.setattr(search_index._Held, "holding_pair", recorded)
    every = 0
    for query in queries:  # two words, one pair
        read.clear()
        index.search(query)
        assert len(read) == len(set(read)), query
        every += len(read)
    assert every > len(queries)


def test_one_document_alone_holds_a_word_when_every_other_holding_it_is_out_of_sight_however_many() -> None:
    docs = [
        replace(doc, fields=(*doc.fields, TextField("zanzibar"))) for doc in documents(random.Random(39), 302)
    ]
    shared, elsewhere, last = docs[0], docs[1:301], docs[301]  # 300 rows of another guild's between them
    index = SearchIndex([shared, *(replace(doc, guild_id=GUILD) for doc in elsewhere)])
    ranks = index._bucket_ranks(index._buckets(None, None))  # what a query outside any guild sees
    assert index._sole_holder("zanzibar", ranks) == index._entries[shared.ident]

    index.upsert(last)
    assert index._sole_holder("zanzibar", ranks) is None
    guild_ranks = index._bucket_ranks(index._buckets(None, GUILD))
    assert index._sole_holder("zanzibar", guild_ranks) is None
    assert index._sole_holder("nowhere", ranks) is None


def test_rewriting_the_same_documents_keeps_the_texts_held_within_twice_the_live_ones() -> None:
    rng = random.Random(28)
    docs = documents(rng, 200)
    index = SearchIndex(docs)
    live = index._texts.size
    for step in range(3000):  # renumbered along the way: the texts of documents since rewritten let go
        index.upsert(docs[step % len(docs)])
        assert index._texts.size <= 2 * live + 2 * search_index._SLOT_FLOOR
        assert len(index._texts.distinct) <= 2 * live + 2 * search_index._SLOT_FLOOR
    assert [index._texts.of(index._entries[doc.ident]) for doc in docs] == [
        [fold(field.text) for field in doc.fields] for doc in docs
    ]
