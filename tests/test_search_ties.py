"""bot.search when thousands of documents tie near the best: what a query reads once, or not at all.

A half-typed common word ("mace", "de n") finds thousands of documents of one coverage, told apart only
by their phrase terms and then by kind, date and label. The index compares each distinct text once,
sorts the candidates a chunk at a time from one partition, orders by label only those that kind and
date leave tied, and walks the default order of the rarest initial of a two-word prefix. These tests
hold each of those to the plain reading it replaced, on corpora built to tie.
"""

from __future__ import annotations

import datetime as dt
import itertools
import pickle
import random
from typing import Any

import numpy as np
import pytest
from rapidfuzz import fuzz

from bot.search import index as search_index
from bot.search.index import Document, DocumentKind, SearchIndex, TextField
from tests.test_search_scale import phrase_terms_text_by_text

GIVEN = ["Aoife", "Dian", "Nia", "Noor", "Tomás", "Ewa", "Jan", "Ana"]
PARTICLES = ["de", "del", "van", "mac", "nic"]
SURNAMES = ["Nóra", "Naas", "Nuel", "Dara", "Fane", "Rua", "Bán", "Lee", "Mace", "Reid"]
DATES = [dt.date(2020, 1, 1) + dt.timedelta(days=n) for n in range(4)]  # few dates: many ties


def tied_corpus(seed: int, count: int) -> list[Document]:
    """People and incidents with names from a few words, a few dates and recurring texts: thousands of
    documents tie on a query's coverage, and many on kind and date too."""
    rng = random.Random(seed)
    docs = []
    for n in range(count):
        name = f"{rng.choice(GIVEN)} {rng.choice(PARTICLES)} {rng.choice(SURNAMES)}"
        if n % 2:
            docs.append(Document(DocumentKind.PERSON, f"p{n}", name, exact=(name,)))
        else:
            title = f"{name} seizes the mace"
            fields = (TextField(title), TextField("The member was named.", 0.45))
            date = rng.choice(DATES)
            docs.append(Document(DocumentKind.INCIDENT, f"i{n}", title, fields=fields, date=date))
    return docs


QUERIES = ["mace", "mac", "de n", "De Na", "del d", "van r", "nia de", "noor mac", "ana", "de", "nic b"]


def answers(index: SearchIndex) -> list[list[tuple[str, float]]]:
    return [
        [(hit.document.key, hit.score) for hit in hits]
        for query in QUERIES
        for hits in (
            index.complete(query),
            index.complete(query, kinds=[DocumentKind.PERSON]),
            index.search(query, limit=10),
        )
    ]


@pytest.fixture(scope="module")
def corpus() -> list[Document]:
    return tied_corpus(3, 3000)


def test_choosing_the_best_of_candidates_tied_by_score_kind_and_date_finds_what_sorting_them_all_finds(
    corpus: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    index = pickle.loads(pickle.dumps(SearchIndex(corpus)))  # rows in the columns
    for doc in corpus[::7]:  # and documents linked since: objects with no row
        index.upsert(doc)
    chosen = answers(index)

    def sorting_all(self: SearchIndex, scores: list[float], slots: list[int], count: int) -> Any:
        pairs = sorted(zip(scores, slots, strict=True), key=lambda p: (-p[0], *self._slots.tie_order(p[1])))
        return pairs[: max(count, 0)]

    monkeypatch.setattr(SearchIndex, "_best", sorting_all)
    assert answers(index) == chosen


def test_a_query_tying_thousands_orders_by_label_only_those_kind_and_date_leave_tied(
    corpus: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    index = pickle.loads(pickle.dumps(SearchIndex(corpus)))
    ordered: list[int] = []
    tie_order = search_index._Held.tie_order

    def counted(held: Any, slot: int) -> tuple[int, int, str]:
        ordered.append(slot)
        return tie_order(held, slot)

    monkeypatch.setattr(search_index._Held, "tie_order", counted)
    hits = index.complete("mace")
    assert len(hits) == search_index.COMPLETE_MAX
    assert all("mace" in hit.document.label.lower() for hit in hits)
    assert len(ordered) < 300  # of well over a thousand documents holding "mace", tied on coverage


def test_a_two_word_prefix_walks_its_rarest_initial_and_finds_what_walking_every_document_finds(
    corpus: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    index = SearchIndex(corpus)
    prefixes = ["de n", "del d", "van r", "mac m", "nic r", "de x", "noor de n"]
    walked = [[hit.document.key for hit in index.complete(prefix)] for prefix in prefixes]
    assert all(walked[:5])
    # Noor and Nóra are fewer than those with a "de" or "del", or a word beginning with "n"
    assert index._rarest_initial("noor de n", index._buckets(None, None)) == "no"

    monkeypatch.setattr(SearchIndex, "_rarest_initial", lambda self, prefix, buckets: "")  # every document
    assert [[hit.document.key for hit in index.complete(prefix)] for prefix in prefixes] == walked


def test_a_phrase_term_compares_each_distinct_text_once_and_credits_every_document_holding_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = search_index._Texts()
    rng = random.Random(8)
    shared = ["the member was named", "mace", "de nora", "de nuel fane", "order"]
    for slot in range(1, 301):
        held = [*rng.sample(shared, rng.randint(0, 3)), f"own text {slot}"]
        texts.add(slot, held, [rng.choice([1.0, 0.85, 0.45]) for _ in held])
    texts = pickle.loads(pickle.dumps(texts))  # each distinct text held once
    compared: list[int] = []
    cdist = search_index.process.cdist

    def counting(queries: Any, choices: list[str], **options: Any) -> Any:
        compared.append(len(choices))
        return cdist(queries, choices, **options)

    monkeypatch.setattr(search_index.process, "cdist", counting)
    slots = np.arange(1, 301)
    for query, at_least in itertools.product(["de n", "mace", "own text 1"], (0.0, 30.0, 60.0)):
        compared.clear()
        expected = phrase_terms_text_by_text(texts, query, slots, at_least)
        assert texts.phrase_terms(query, slots, at_least=at_least).tolist() == expected, (query, at_least)
        assert compared[0] <= len(shared) + len(slots)


@pytest.mark.parametrize("size", [1, 2, 4, 9, 30])
def test_the_lengths_left_uncompared_are_those_whose_ratio_cannot_reach_the_one_needed(size: int) -> None:
    lengths = np.arange(0, 400, dtype=np.uint16)
    # one letter repeated: the ratio of two such texts is as high as their lengths allow
    ratios = np.array([fuzz.ratio("a" * size, "a" * int(length)) for length in lengths])
    assert search_index._reachable(size, lengths, ratios).all()
    assert not search_index._reachable(size, lengths, ratios + 0.01).any()


def test_coverage_comes_out_in_batches_in_the_order_of_one_sort_of_every_candidate() -> None:
    rng = np.random.default_rng(4)
    count = 20_000
    slots = rng.permutation(count).astype(np.intp) + 1
    coverage = rng.choice(np.linspace(0.1, 1.0, 12), count)  # many ties, at every level
    found_at = rng.integers(0, 3, count).astype(np.int64)
    skip = set(slots[:50].tolist())
    batches = list(search_index._Coverage(slots, coverage, found_at).batches(skip=skip))
    read = np.concatenate([part for part, _ in batches])
    kept = np.flatnonzero(~np.isin(slots, list(skip)))
    expected = slots[kept[np.lexsort((slots[kept], found_at[kept], -coverage[kept]))]]
    assert read.tolist() == expected.tolist()
    by_slot = dict(zip(slots.tolist(), coverage.tolist(), strict=True))
    assert np.concatenate([covered for _, covered in batches]).tolist() == [by_slot[s] for s in read.tolist()]
    assert len(batches[0][0]) == search_index._Coverage._FIRST_BATCH


def test_scores_of_a_batch_are_those_python_s_round_gives_each_one_alone() -> None:
    rng = np.random.default_rng(6)
    # on grids, as sums of weights and ratios fall: a score such as 82.35 is 82.3 to Python, 82.4 to numpy
    coverage = np.concatenate([np.round(rng.random(50_000) * 1000) / 1000, np.repeat([0.82, 0.5], 500)])
    phrase = np.concatenate([np.round(rng.random(50_000) * 100) / 100, np.repeat([0.83, 0.37], 500)])
    share = 0.35
    expected = [
        round(min(100.0 * ((1.0 - share) * c + share * p), 99.9), 1)
        for c, p in zip(coverage.tolist(), phrase.tolist(), strict=True)
    ]
    assert search_index._scores(coverage, phrase, share).tolist() == expected
