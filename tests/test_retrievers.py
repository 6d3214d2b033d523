"""Retrievers and rerankers: exact scores where they are simple, the real model where it matters."""

from __future__ import annotations

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from workbench.core.model import Question, Settings, WorkbenchError
from workbench.core.words import question_terms, terms, tokenize
from workbench.cut import chunk_document
from workbench.read.loaders import load_path, parse_markdown
from workbench.read.questions import parse_questions
from workbench.read.resolve import resolve
from workbench.run.evaluate import _rerank, evaluate
from workbench.search.cross_encoder import load_cross_encoder
from workbench.search.rerankers import RERANKERS, HeadingRerank
from workbench.search.retrievers import (
    BM25,
    Dense,
    Hybrid,
    Keyword,
    ranks,
    starts_of,
)

from .conftest import SAMPLE_CSV, SAMPLE_MD, SAMPLE_QUESTIONS, real_data_files

DOC = parse_markdown(
    "# Shop\n\n## Ceiling Fan\nPrice: 120\nWarranty: 2 years.\n\n## Table Fan\nPrice: 30\nWarranty: 1 year.\n", "s.md"
)
CHUNKS = chunk_document(DOC, "heading")


def test_question_terms_drop_stop_words_and_repeats_and_are_stemmed():
    # Snowball: "warranty" -> "warranti", "ceiling" -> "ceil"; "fan" once though said twice.
    assert question_terms("What is the warranty on the Ceiling-Fan, the fan?") == ("warranti", "ceil", "fan")


def test_keyword_counts_distinct_terms():
    scores = Keyword(CHUNKS).scores("What is the warranty for the ceiling fans?")
    # warranti, ceil, fan ("fans" stems to "fan"): all three in the Ceiling Fan chunk; "warranti" and "fan" in
    # the Table Fan chunk.
    assert scores.tolist() == [3.0, 2.0]


def test_keyword_matches_whole_terms_not_substrings():
    doc = parse_markdown("# S\n\n## Protector\nA case.\n\n## Pro\nA pro model.\n", "s.md")
    # "pro" was found inside "Protector" when keyword matched substrings; as a term it is only in the Pro piece.
    assert Keyword(chunk_document(doc, "heading")).scores("pro").tolist() == [0.0, 1.0]


def test_ties_go_to_the_earlier_chunk():
    starts = starts_of(CHUNKS)
    assert ranks(np.array([1.0, 1.0]), starts).tolist() == [0, 1]
    assert ranks(np.array([1.0, 2.0]), starts).tolist() == [1, 0]
    # Equal scores: the chunk that starts earlier wins, whatever its index.
    assert ranks(np.array([1.0, 1.0, 2.0]), np.array([50, 10, 99])).tolist() == [2, 1, 0]


@pytest.mark.parametrize("path", [SAMPLE_CSV, SAMPLE_MD, *real_data_files()], ids=lambda p: p.name)
@pytest.mark.parametrize("strategy", ["fixed", "heading", "sentence"])
def test_bm25_scores_equal_rank_bm25(path, strategy):
    """The sparse fast path against the reference implementation, on whole files."""
    document = load_path(path)
    chunks = chunk_document(document, strategy)
    reference = BM25Okapi([terms(c.text) for c in chunks])
    fast = BM25(chunks)
    starts = starts_of(chunks)
    queries = [f"What is the {s.heading} price and warranty price?" for s in document.sections if s.heading][:25]
    for query in [*queries, "zzz unknown", "", "what is the"]:
        expected = reference.get_scores(terms(query))
        got = fast.scores(query)
        assert got == pytest.approx(expected, abs=1e-9), query
        assert ranks(got, starts)[:10].tolist() == ranks(expected, starts)[:10].tolist(), query


def test_bm25_and_keyword_drop_the_same_stop_words():
    assert terms("What is the warranty on the Ceiling Fan?") == ["warranti", "ceil", "fan"]
    # Both chunks hold "the"; only the question's real words score, under either search.
    doc = parse_markdown("# S\n\n## A\nThe price of the fan.\n\n## B\nWarranty: 2 years.\n", "s.md")
    chunks = chunk_document(doc, "heading")
    assert BM25(chunks).scores("what is the the the")[0] == 0.0
    assert Keyword(chunks).scores("what is the the the").tolist() == [0.0, 0.0]
    assert question_terms("what about the warranty") == ("warranti",)


def test_tokenizer_is_unicode_aware():
    assert tokenize("Café crème, 2 ans") == ["café", "crème", "2", "ans"]


def test_the_ascii_shortcut_finds_the_words_the_unicode_pattern_finds():
    from workbench.core.words import WORD

    # Punctuation, underscores, digits inside words; the Kelvin sign lowercases to an ASCII "k".
    for text in ("SKU_12-b: 3.5 kg/m², IP67!", "\u212aelvin 20mm straps", "don't  ALL-CAPS\ttab", ""):
        assert tokenize(text) == WORD.findall(text.lower()), text
    assert tokenize("\u212aG") == ["kg"]


def test_heading_reranker_adds_three_for_a_word_in_the_first_line():
    scores = HeadingRerank().scores("ceiling fan price", CHUNKS)
    # Ceiling chunk: heading has "ceil" -> +3, keyword 3 (ceil, fan, price) = 6; Table: +3 ("fan") + 2 = 5.
    assert scores.tolist() == [6.0, 5.0]


def test_dense_and_hybrid_with_a_fake_encoder(fake_encoder):
    dense = Dense(CHUNKS, encoder_factory=lambda: fake_encoder)
    assert int(np.argmax(dense.scores("ceiling 120"))) == 0
    assert fake_encoder.encoded == 3  # two chunks and the question
    dense.scores("ceiling 120")
    assert fake_encoder.encoded == 3  # nothing encoded twice
    hybrid = Hybrid(CHUNKS, encoder_factory=lambda: fake_encoder)
    # Both parts rank the Ceiling chunk first: 1/61 + 1/61; the Table chunk: 1/62 + 1/62.
    assert hybrid.scores("ceiling 120").tolist() == pytest.approx([2 / 61, 2 / 62])


def test_maxsim_with_a_fake_encoder(fake_encoder):
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: fake_encoder)
    scores = maxsim.scores("table 30", CHUNKS)
    # One-hot tokens: "table" and "30" each find an exact match in the Table chunk (1.0 each, mean 1.0);
    # the Ceiling chunk has neither (0.0 unless a hash collides).
    assert scores[1] == pytest.approx(1.0)
    assert scores[0] < 1.0



def test_maxsim_weighs_each_question_word_piece_by_its_idf_over_the_shortlist():
    from workbench.encode.embedding import get_encoder

    encoder = get_encoder()  # its tokenizer only: the model itself is not loaded for this
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: encoder)
    units = [("the price is ten dollars",), ("the returns take thirty days",), ("the fan has three speeds",)]
    # N = 3 units. "the" is in all 3: ln((3 + 1) / (3 + 1)) = 0; "price" in 1: ln(4 / 2). Normalised: 0 and 1.
    assert maxsim._weights("the price", 2, units).tolist() == [0.0, 1.0]
    # "price" and "days" are each in one unit: equal weights.
    assert maxsim._weights("price days", 2, units).tolist() == [0.5, 0.5]
    # Only words found in every unit: nothing to tell them apart, so equal weights as before.
    assert maxsim._weights("the", 1, units).tolist() == [1.0]
    # Word pieces that do not line up with the token vectors (3 given, 2 pieces): equal weights.
    assert maxsim._weights("the price", 3, units).tolist() == pytest.approx([1 / 3] * 3)


def test_a_question_names_a_piece_when_it_holds_every_word_of_one_of_its_titles():
    from workbench.core.model import Chunk
    from workbench.search.rerankers import names, titles

    two = Chunk("heading-2", "heading", ((0, 30),), "## 2-Slice Toaster\nPrice: 29\n")
    four = Chunk("heading-1", "heading", ((30, 60),), "## 4-Slice Toaster\nPrice: 49\n")
    asked = "How many browning levels does the 2-Slice Toaster have?"
    assert titles(two) == ["2-Slice Toaster"]
    assert names(asked, two) and not names(asked, four)  # "4" is not asked
    # A breadcrumb's last step is a title; "600ml" is not asked, so the blender is not named.
    blender = Chunk("b-1", "breadcrumb", ((0, 9),), "Shop > Kitchen > Personal Blender 600ml\nCup: 1\n",
                    prefix="Shop > Kitchen > Personal Blender 600ml\n")
    assert titles(blender) == ["Personal Blender 600ml"]
    assert not names("Can I take my smoothie from the Personal Blender?", blender)
    assert names("Does the Personal Blender 600ml have a lid?", blender)
    # A title of stop words only ("About") is never named by every question.
    assert not names("What is it about?", Chunk("h-1", "heading", ((0, 8),), "## About\nHi\n"))


@pytest.mark.slow  # the real model: a near tie only a real encoder makes
def test_maxsim_lets_the_named_product_win_a_near_tie_against_its_look_alike(real_encoder):
    doc = parse_markdown(
        "# Toasters\n\n## 4-Slice Toaster\nPrice: 49\nBrowning levels: 6 browning levels, 2 defrost settings.\n\n"
        "## 2-Slice Toaster\nPrice: 29\nBrowning levels: 7.\n",
        "t.md",
    )
    chunks = chunk_document(doc, "heading")
    asked = "How many browning levels does the 2-Slice Toaster have?"
    plain = RERANKERS.get("maxsim")(encoder_factory=lambda: real_encoder)
    plain.named_bonus = 0.0
    unnamed = plain.scores(asked, chunks)
    assert unnamed[0] > unnamed[1]  # word by word, the 4-slice piece matches better ("browning levels" twice)
    scores = RERANKERS.get("maxsim")(encoder_factory=lambda: real_encoder).scores(asked, chunks)
    assert scores.tolist() == pytest.approx([unnamed[0], unnamed[1] + 0.05])  # only the named piece moves
    assert scores[1] > scores[0]


@pytest.mark.slow  # the real model: its token vectors are what the products are taken over
def test_maxsim_gives_a_shortlist_the_scores_it_gets_alone_after_other_shortlists_shared_its_units(real_encoder):
    """Units are matched once per question and read back for later shortlists (three searches' top pieces
    overlap); a shortlist's scores must still be those a fresh re-check gives it, weights included."""
    doc = parse_markdown(
        "# Fans\n\n## Table Fan\nPrice: 30\nWarranty: 1 year.\n\n## Ceiling Fan\nPrice: 120\nWarranty: 2 years.\n\n"
        "## Desk Lamp\nPrice: 15\nWarranty: 1 year.\n",
        "f.md",
    )
    chunks = chunk_document(doc, "heading")
    asked = "What is the warranty of the ceiling fan?"

    def fresh(shortlist):
        return RERANKERS.get("maxsim")(encoder_factory=lambda: real_encoder).scores(asked, shortlist).tolist()

    shared = RERANKERS.get("maxsim")(encoder_factory=lambda: real_encoder)
    first = shared.scores(asked, chunks[:3])
    second = shared.scores(asked, chunks[1:])  # two units already matched, one new; other IDF weights
    # The same scores to float32's precision, not bit for bit: BLAS's products of a unit's token vectors differ in
    # their last bits with the shape of the batch the unit was matched in (seen: 0.420382384 against 0.420382375 on
    # one machine's CPU, equal on another's). A weight read back wrongly moves a score by far more than 1e-6.
    assert first.tolist() == pytest.approx(fresh(chunks[:3]), rel=1e-6)
    assert second.tolist() == pytest.approx(fresh(chunks[1:]), rel=1e-6)
    assert len(shared._best[asked]) == len(chunks)  # each unit matched once for the question


def test_rerank_only_reorders_the_shortlist():
    question = resolve(DOC, Question("fan price", "Table Fan", "Price: 30"))
    # Keyword scores 2 and 2 (fan, price): a tie, so the Ceiling chunk (earlier) is first.
    scores = Keyword(CHUNKS).scores("fan price")
    order = ranks(scores, starts_of(CHUNKS))
    assert order.tolist() == [0, 1]
    # Depth 1: only the top candidate is rescored, and nothing can pass it; order and others' scores stay.
    final, final_order = _rerank(HeadingRerank(), question, scores, order, CHUNKS, starts_of(CHUNKS), depth=1)
    assert final_order.tolist() == [0, 1]
    assert final.tolist() == [5.0, 2.0]  # Ceiling: +3 for "fan" in its heading, plus 2 words
    # Depth 2: both are rescored (5 and 5), the tie again goes to the earlier chunk.
    final, final_order = _rerank(HeadingRerank(), question, scores, order, CHUNKS, starts_of(CHUNKS), depth=2)
    assert final.tolist() == [5.0, 5.0] and final_order.tolist() == [0, 1]
    unchanged = _rerank(RERANKERS.get("none")(), question, scores, order, CHUNKS, starts_of(CHUNKS), depth=2)
    assert unchanged[0] is scores and unchanged[1] is order


def test_cross_encoder_errors_are_plain(tmp_path):
    with pytest.raises(WorkbenchError, match="name the folder"):
        load_cross_encoder(None)
    with pytest.raises(WorkbenchError, match="does not exist"):
        load_cross_encoder(str(tmp_path / "missing"))
    with pytest.raises(WorkbenchError, match="holds no config.json"):
        load_cross_encoder(str(tmp_path))
    (tmp_path / "config.json").write_text('{"architectures": ["BertModel"]}')
    with pytest.raises(WorkbenchError, match="is not a cross-encoder"):
        load_cross_encoder(str(tmp_path))


# --- The real packaged model ---------------------------------------------------------------

@pytest.mark.slow
def test_real_model_loads_offline_and_gives_unit_vectors(real_encoder):
    import os

    assert os.environ["HF_HUB_OFFLINE"] == "1"
    before = real_encoder.encoded
    text = "Warranty: 1 year. (a text no other test encodes)"
    first, again = real_encoder.encode([text, text])
    assert real_encoder.encoded - before == 1  # an identical text goes through the model once
    assert first.sentence.shape == (384,)
    assert np.linalg.norm(first.sentence) == pytest.approx(1.0, abs=1e-5)
    assert first.tokens.shape[1] == 384 and first.tokens.shape[0] >= 4  # word pieces, special tokens removed
    norms = np.linalg.norm(first.tokens, axis=1)
    assert norms == pytest.approx(np.ones(first.tokens.shape[0]), abs=2e-3)  # float16 token vectors
    assert np.array_equal(again.tokens, first.tokens)


@pytest.mark.slow
def test_real_dense_search_finds_meaning_not_just_words(real_encoder):
    doc = parse_markdown(
        "# S\n\n## Heater\nKeeps a room warm in winter.\n\n## Fan\nCools you down on hot summer days.\n", "s.md"
    )
    chunks = chunk_document(doc, "heading")
    dense = Dense(chunks, encoder_factory=lambda: real_encoder)
    assert int(np.argmax(dense.scores("Which product helps when it is freezing cold?"))) == 0
    maxsim = RERANKERS.get("maxsim")(encoder_factory=lambda: real_encoder)
    # Token by token: "cooling" finds "Cools", "warms" finds "warm", though the words differ.
    assert np.argmax(maxsim.scores("what warms a cold room", chunks)) == 0
    assert np.argmax(maxsim.scores("cooling on hot days", chunks)) == 1


@pytest.mark.slow
def test_real_model_on_the_sample_heading_beats_fixed(real_encoder):
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    settings = Settings(["fixed", "heading"], ["dense", "hybrid"], ["none", "maxsim"])
    evaluation = evaluate(document, questions, settings, encoder_factory=lambda: real_encoder)
    for retriever in ("dense", "hybrid"):
        for reranker in ("none", "maxsim"):
            heading = evaluation.run("heading", retriever, reranker).counts["clean"]
            fixed = evaluation.run("fixed", retriever, reranker).counts["clean"]
            assert heading >= 18 and fixed <= 4, (retriever, reranker, heading, fixed)


# --- Each piece is read (tokenised, stemmed) once per strategy, not once per question --------------

def _plain_keyword(question: str, chunks) -> list[float]:
    """The keyword score as a plain loop: every piece read again for every question."""
    words = question_terms(question)
    return [float(sum(1 for w in words if w in set(terms(c.text)))) for c in chunks]


def _plain_heading(question: str, chunks) -> list[float]:
    words = question_terms(question)
    return [
        (3.0 if any(w in set(terms(c.text.split("\n", 1)[0])) for w in words) else 0.0)
        + _plain_keyword(question, [c])[0]
        for c in chunks
    ]


@pytest.mark.parametrize("path", [SAMPLE_CSV, SAMPLE_MD, *real_data_files()], ids=lambda p: p.name)
def test_reading_once_gives_the_same_scores_as_reading_per_question(path):
    document = load_path(path)
    queries = [f"{s.heading} price warranty" for s in document.sections if s.heading][:25] + ["ÉTÉ İstanbul", ""]
    if path == SAMPLE_MD:
        queries += [q.question for q in parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)]
    for strategy in ("fixed", "heading", "sentence", "recursive"):
        chunks = chunk_document(document, strategy)
        keyword, heading = Keyword(chunks), HeadingRerank()
        for query in queries:
            assert keyword.scores(query).tolist() == _plain_keyword(query, chunks), (strategy, query)
            shortlist = chunks[:50]
            assert heading.scores(query, shortlist).tolist() == _plain_heading(query, shortlist), (strategy, query)


def test_keyword_and_heading_read_each_piece_once_per_strategy(monkeypatch):
    from workbench.core.words import ENGLISH

    read: list[str] = []
    sets: list[str] = []
    original, original_set = ENGLISH.terms, ENGLISH.term_set

    def counting_terms(text: str) -> list[str]:
        read.append(text)
        return original(text)

    def counting_sets(text: str) -> frozenset[str]:
        sets.append(text)
        return original_set(text)

    # The sample is English: the run reads it with the one English analyzer, whose terms every search calls
    # (keyword search its distinct terms, ``term_set``).
    monkeypatch.setattr(ENGLISH, "terms", counting_terms)
    monkeypatch.setattr(ENGLISH, "term_set", counting_sets)
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    settings = Settings(strategies=["fixed", "heading"], retrievers=["keyword"], rerankers=["heading"])
    evaluation = evaluate(document, questions, settings)
    pieces = sum(len(chunks) for chunks in evaluation.chunks.values())
    texts = {c.text for chunks in evaluation.chunks.values() for c in chunks}
    assert max(len(chunks) for chunks in evaluation.chunks.values()) <= settings.depth  # every piece shortlisted
    # Keyword: each piece once per strategy. Heading reranker: each distinct text twice (its first line and
    # its whole text), whatever the number of questions (24 here).
    assert len(evaluation.questions) == 24
    assert len(sets) == pieces
    assert len(read) == 2 * len(texts)


@pytest.mark.parametrize("path", [SAMPLE_CSV, SAMPLE_MD, *real_data_files()], ids=lambda p: p.name)
def test_bm25_column_sums_equal_the_sparse_product_to_the_last_bit(path):
    """scores() adds the question's columns itself; the sub-matrix product it replaced gives the same floats."""
    from collections import Counter

    from scipy.sparse import csc_matrix

    from workbench.search.retrievers import best_of

    document = load_path(path)
    queries = [f"{s.heading} price warranty price" for s in document.sections if s.heading][:25]
    for strategy in ("fixed", "heading", "sentence"):
        bm25 = BM25(chunk_document(document, strategy))
        for query in queries:
            counts = Counter(bm25.vocabulary[t] for t in terms(query) if t in bm25.vocabulary)
            if not counts:
                continue
            ids = list(counts)
            weights = csc_matrix((bm25.values, bm25.indices, bm25.indptr), shape=(bm25.rows, len(bm25.vocabulary)))
            product = np.asarray(weights[:, ids] @ np.array([counts[i] for i in ids], dtype=float)).ravel()
            assert bm25.scores(query).tolist() == best_of(product, bm25.bounds).tolist(), (strategy, query)


@pytest.mark.parametrize("path", [SAMPLE_CSV, SAMPLE_MD, *real_data_files()], ids=lambda p: p.name)
def test_keyword_scores_count_the_question_terms_each_piece_holds(path):
    """Keyword's compressed columns give what counting by hand gives: the question's distinct terms in each piece."""
    document = load_path(path)
    queries = [f"{s.heading} price warranty price" for s in document.sections if s.heading][:25] + ["zzz nothing"]
    for strategy in ("fixed", "heading", "sentence"):
        chunks = chunk_document(document, strategy)
        keyword = Keyword(chunks)
        for query in queries:
            wanted = [sum(term in set(terms(chunk.text)) for term in question_terms(query)) for chunk in chunks]
            assert keyword.scores(query).tolist() == wanted, (strategy, query)


@pytest.mark.parametrize("path", [SAMPLE_CSV, SAMPLE_MD, *real_data_files()], ids=lambda p: p.name)
def test_all_questions_scored_at_once_get_each_questions_own_scores_and_ranks_to_the_last_bit(path):
    """``scores_of`` (a run's batch) gives each question's ``scores`` bit for bit, ``ranks`` of the rows each
    row's ranking and ``sureness_of`` each row's sureness, on every word search, with small pieces searched for their chunk (small-to-big)."""
    document = load_path(path)
    questions = [f"{s.heading} price warranty price" for s in document.sections if s.heading][:30]
    questions += ["zzz nothing", "the the", "price " * 12 + "warranty colour size return delivery"]
    for strategy in ("fixed", "heading", "sentence", "small-to-big"):
        chunks = chunk_document(document, strategy)
        starts = starts_of(chunks)
        for retriever in (Keyword(chunks), BM25(chunks)):
            together = retriever.scores_of(questions)
            assert together.shape == (len(questions), len(chunks))
            orders, sure = ranks(together, starts), retriever.sureness_of(questions, together)
            for question, row, order, sureness in zip(questions, together, orders, sure):
                alone = retriever.scores(question)
                assert row.tolist() == alone.tolist(), (strategy, retriever.id, question)
                assert order.tolist() == ranks(alone, starts).tolist()
                assert sureness.tolist() == retriever.sureness(question, alone).tolist()


def test_csc_arrays_are_scipys_layout_of_the_same_entries():
    """The compressed-column arrays built without scipy equal scipy's own from the same (row, column) entries."""
    from scipy.sparse import csc_matrix

    from workbench.search.retrievers import csc_arrays

    generator = np.random.default_rng(5)
    cells = generator.choice(40 * 30, size=300, replace=False)  # distinct cells, in no order
    rows, columns = cells // 30, cells % 30
    values = generator.random(300)
    indptr, indices, data = csc_arrays(values, rows, columns, 31)  # a last column with no entry
    reference = csc_matrix((values, (rows, columns)), shape=(40, 31))
    assert indptr.tolist() == reference.indptr.tolist()
    assert indices.tolist() == reference.indices.tolist()
    assert data.tolist() == reference.data.tolist()
