"""The index's documents held as columns (``bot.search.columns``, ``_Held``): each document read back as
it was written, none made an object before it is read, and every one held kept through writes and saves.
"""

from __future__ import annotations

import datetime as dt
import pickle
import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from bot.search import index as search_index
from bot.search.columns import Strings, joined, split
from bot.search.index import (
    Document,
    DocumentKind,
    Facets,
    Place,
    SearchIndex,
    TextField,
    without_texts,
)
from bot.search.text import fold
from tests.test_search_scale import GUILD, documents, rewritten, with_twins

VALUES = ["Singh", None, "", "Québécois — « expulsé »", "名前", "\ud800 lone surrogate", None, "x" * 300]


def test_a_column_gives_back_each_string_it_was_made_of_none_and_the_empty_string_too() -> None:
    column = Strings(VALUES)
    assert len(column) == len(VALUES)
    assert [column[n] for n in range(len(VALUES))] == VALUES


def test_columns_concatenated_hold_the_rows_of_each_in_turn_an_empty_one_and_some_rows_taken_too() -> None:
    rows = np.array([3, 0, 1, 3, 7], np.intp)
    parts = [Strings(VALUES).taken(rows), Strings([]), Strings(["après", None]), Strings(VALUES)]
    column = Strings.concatenated(parts)
    assert [column[n] for n in range(len(column))] == [*(VALUES[row] for row in rows), "après", None, *VALUES]


def test_a_column_with_no_none_left_among_its_rows_reads_each_as_a_string() -> None:
    column = Strings(VALUES).taken(np.array([2, 0], np.intp))
    assert [column[0], column[1]] == ["", "Singh"]


def test_a_column_unpickled_gives_back_the_same_strings() -> None:
    column = pickle.loads(pickle.dumps(Strings(VALUES)))
    assert [column[n] for n in range(len(VALUES))] == VALUES


def test_words_joined_in_one_string_split_back_into_the_same_words() -> None:
    for words in [(), ("singh",), ("new zealand", "zealand first"), ("maipiclarke", "te", "pati")]:
        assert split(joined(words)) == words


def test_a_column_tells_which_tuples_hold_a_word_whole_not_as_part_of_another_or_across_two() -> None:
    tuples = [
        ("new zealand", "zealand first"),
        ("new zealand first",),  # the word as part of another
        (),
        ("first new", "zealand x"),  # the word across two of a tuple's words
        ("x",),
        ("new zealand",),  # the word at the end of one tuple, then at the start of the next
        ("new zealand",),
        ("nouvelle-zélande", "new zealand"),
    ]
    column = Strings([joined(words) if words else None for words in tuples])
    rows = np.array([0, 1, 2, 3, 4, 5, 6, 7, 3, 0], np.intp)
    for word in ("new zealand", "zealand first", "x", "nouvelle-zélande", "zealand", "first new"):
        expected = [word in tuples[row] for row in rows.tolist()]
        assert column.holding(rows, word).tolist() == expected, word


def rich_documents() -> list[Document]:
    """Documents with every field a held document keeps: French labels, details, facets, incidents."""
    commons = Place("ca-commons", ("House of Commons", "Canada"), "Chambre des communes")
    return [
        Document(
            DocumentKind.INCIDENT,
            "singh-2020",
            "Singh ejected",
            exact=("Jagmeet Singh 2020",),
            fields=(TextField("called a member racist"), TextField("Maipi-Clarke haka", 0.45)),
            date=dt.date(2020, 6, 17),
            facets=Facets((commons,), (2020,), ("ejection",)),
            label_fr="Singh expulsé",
        ),
        Document(
            DocumentKind.RULING,
            "ruling:4",
            "Speaker's ruling",
            incident="singh-2020",
            guild_id=42,
            fields=(TextField("the word must be withdrawn"),),
            detail="withdraw",
            detail_fr="retirer",
        ),
        Document(DocumentKind.PERSON, "jagmeet-singh", "Jagmeet Singh", fields=(TextField("Jagmeet Singh"),)),
    ]


def test_a_built_index_reads_back_each_document_as_written_without_its_texts() -> None:
    docs = rich_documents()
    index = SearchIndex(docs)
    assert [index.get(doc.kind, doc.key, doc.guild_id) for doc in docs] == list(map(without_texts, docs))


def test_a_loaded_index_makes_no_document_an_object_until_a_query_reads_it() -> None:
    docs = documents(random.Random(3), 500)
    loaded = pickle.loads(pickle.dumps(SearchIndex(docs)))
    assert loaded._slots._objects == {}
    hits = loaded.search(docs[7].fields[0].text, limit=3)
    assert hits[0].document == without_texts(docs[7])
    assert 0 < len(loaded._slots._objects) < len(docs)


def test_a_document_read_from_the_columns_holds_the_names_pairs_and_heads_its_writing_gave_it() -> None:
    docs = rich_documents()
    loaded = pickle.loads(pickle.dumps(SearchIndex(docs)))
    assert all(map(loaded.holds, docs))  # each document's folded names, pairs and heads, compared
    assert not any(map(loaded.refresh, docs))
    assert not loaded.holds(replace(docs[0], fields=(TextField("called a member racist"),)))


def test_saving_after_writes_and_removals_keeps_every_document_held_and_none_removed() -> None:
    rng = random.Random(21)
    index, held = rewritten(rng, with_twins(rng, 200), 900)
    index.search("ka", limit=5)  # some read, so objects beside the columns
    loaded = pickle.loads(pickle.dumps(index))
    expected = sorted((without_texts(doc) for doc in held), key=lambda doc: doc.ident)
    assert sorted(loaded.documents(), key=lambda doc: doc.ident) == expected
    assert len(loaded) == len(held)


def test_a_saved_index_holds_each_distinct_text_once_and_every_document_s_texts_as_they_were() -> None:
    shared = TextField("house of commons", 0.6)  # recurs from document to document
    docs = [replace(doc, fields=(*doc.fields, shared)) for doc in documents(random.Random(4), 100)]
    index = SearchIndex(docs)
    loaded = pickle.loads(pickle.dumps(index))
    texts = [index.texts(doc.kind, doc.key) for doc in docs]
    assert [loaded.texts(doc.kind, doc.key) for doc in docs] == texts
    assert sorted(loaded._texts.distinct) == sorted({text for held in texts for text in held})


def test_each_text_keeps_its_weight_through_a_build_a_save_and_writes_among_hundreds_of_weights() -> None:
    docs = [  # 400 distinct weights, one a text: more than a byte tells apart
        replace(
            doc,
            fields=tuple(TextField(field.text, (2 * n + j + 1) / 400) for j, field in enumerate(doc.fields)),
        )
        for n, doc in enumerate(documents(random.Random(8), 200))
    ]
    loaded = pickle.loads(pickle.dumps(SearchIndex(docs)))
    assert len(loaded._texts.weight_table) > 256
    assert all(map(loaded.holds, docs))  # each document's texts and their weights, compared
    rewritten = [replace(doc, fields=(*doc.fields, TextField("a new text", 0.123))) for doc in docs[::5]]
    for doc in rewritten:
        loaded.upsert(doc)
    assert all(map(loaded.holds, rewritten))


def test_saving_an_index_unwritten_since_its_build_copies_none_of_its_packed_arrays() -> None:
    docs = documents(random.Random(6), 300)
    index = SearchIndex(docs)
    state: dict[str, Any] = index.__getstate__()
    assert state["_postings"][1] is index._runs.rows
    assert state["_slots"]._whole is index._slots._whole
    assert index._texts.__getstate__()["which"] is index._texts.which
    written = replace(docs[0], fields=(*docs[0].fields, TextField("a text written since")))
    index.upsert(written)
    state = index.__getstate__()
    assert state["_postings"][1] is not index._runs.rows  # made afresh, with the write
    loaded = pickle.loads(pickle.dumps(index))
    assert all(map(loaded.holds, [written, *docs[1:]]))


def test_a_built_index_holds_each_distinct_text_once_as_a_loaded_one_does() -> None:
    shared = TextField("house of commons", 0.6)  # recurs from document to document
    docs = [replace(doc, fields=(*doc.fields, shared)) for doc in documents(random.Random(4), 100)]
    index = SearchIndex(docs)
    texts = [[fold(field.text) for field in doc.fields] for doc in docs]
    assert sorted(index._texts.distinct) == sorted({text for held in texts for text in held})
    assert [sorted(index.texts(doc.kind, doc.key)) for doc in docs] == [sorted(set(held)) for held in texts]


def test_ranking_makes_objects_of_the_hits_alone_where_no_filter_or_guild_entry_may_rule_one_out() -> None:
    common = TextField("the sitting of the house was suspended for an hour", 0.6)  # every document ties on it
    docs = [replace(doc, fields=(*doc.fields, common)) for doc in documents(random.Random(5), 300)]
    index = SearchIndex(docs)
    loaded = pickle.loads(pickle.dumps(index))
    hits = loaded.search("suspended sitting", limit=5)
    assert [hit.document.ident for hit in hits] == [
        hit.document.ident for hit in index.search("suspended sitting", limit=5)
    ]
    assert sorted(loaded._slots._objects) == sorted(loaded._entries[hit.document.ident] for hit in hits)
    loaded.search("suspended sitting", limit=5, guild_id=GUILD)  # a guild with no entries of its own
    assert len(loaded._slots._objects) == 5


def answers(index: SearchIndex, queries: list[str]) -> list[object]:
    return [
        [(hit.document, hit.score) for hit in found]
        for query in queries
        for found in (index.search(query, limit=20), index.complete(query), index.complete(query[:2]))
    ]


def test_a_build_that_packs_its_documents_as_it_goes_holds_and_finds_as_one_that_packs_them_at_its_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(8)
    docs = [*with_twins(rng, 120), *rich_documents()]
    queries = [doc.fields[0].text for doc in docs[::9]] + ["singh", "the word withdrawn"]
    at_end = SearchIndex(docs)
    monkeypatch.setattr(search_index, "_SET_ASIDE", 7)
    as_it_goes = SearchIndex(docs)
    assert as_it_goes._slots._objects == {}  # every document a row, none an object
    assert sorted(as_it_goes.documents(), key=str) == sorted(at_end.documents(), key=str)
    assert answers(as_it_goes, queries) == answers(at_end, queries)
    for index in (at_end, as_it_goes):  # and both change alike
        index.upsert(replace(docs[3], label="Renamed", fields=(TextField("quokka filibuster"),)))
        index.remove(docs[4].kind, docs[4].key)
    assert answers(as_it_goes, [*queries, "quokka"]) == answers(at_end, [*queries, "quokka"])


def test_a_document_given_again_after_a_build_packed_some_is_held_as_last_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    docs = documents(random.Random(5), 30)
    again = replace(docs[2], fields=(TextField("zanzibar quokka"),))
    monkeypatch.setattr(search_index, "_SET_ASIDE", 4)
    index = SearchIndex(iter([*docs, again, *documents(random.Random(6), 5, prefix="late")]))
    assert len(index) == 35
    assert index.get(again.kind, again.key) == without_texts(again)
    assert [hit.document.key for hit in index.search("zanzibar quokka")] == [again.key]
