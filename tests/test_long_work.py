"""Long work is visible, bounded and stoppable: estimates, Stop, and the pages' head of a long file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import workbench.cut
from tests.synthetic import catalog_csv
from ui import keys, running
from workbench.core.model import Settings
from workbench.cut import STRATEGIES, chunk_document
from workbench.read.loaders import load_bytes, load_path
from workbench.read.questions import parse_questions
from workbench.read.sample import head
from workbench.run.estimate import estimate, fast_settings
from workbench.run.evaluate import RunStopped, evaluate

from .conftest import ROOT, SAMPLE_MD, SAMPLE_QUESTIONS, FakeEncoder

QUESTIONS = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
ALL = ["fixed", "fixed-overlap", "sentence", "recursive", "heading", "breadcrumb", "placebo", "concern"]


class Countdown:
    """A should_stop that says yes on its ``n``-th call, and counts every call."""

    def __init__(self, n: int) -> None:
        self.n, self.calls = n, 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.calls >= self.n


def test_a_stopped_run_raises_at_once_and_returns_nothing():
    document = load_path(SAMPLE_MD)
    stop = Countdown(30)  # mid-way: 2 strategies x (a few checks + 24 questions) would be over 50
    with pytest.raises(RunStopped, match="stopped before it finished"):
        evaluate(document, QUESTIONS, Settings(["fixed", "heading"], ["keyword"], ["none"]), should_stop=stop)
    assert stop.calls == 30  # nothing asked after the yes: the run ended there


def test_a_stop_is_heard_between_slices_of_model_work():
    document = load_path(SAMPLE_MD)
    encoder = FakeEncoder()
    with pytest.raises(RunStopped):
        evaluate(document, QUESTIONS, Settings(["fixed"], ["dense"], ["none"]),
                 encoder_factory=lambda: encoder, should_stop=lambda: encoder.encoded > 0)
    # The first slice is 16 texts (the questions come first); the stop is heard before the next one.
    assert encoder.encoded == 16


def test_the_model_reads_only_new_texts_in_slices_that_grow_at_most_twofold():
    """A stopped run's first, longest texts are in the cache; the next run must not size its slices by how fast
    those came back (it read 1,024 texts in one slice, deaf to Stop for 40 s): they are not sent again, and each
    slice is at most twice the one before."""
    from tests.synthetic import catalog_questions
    from workbench.run.evaluate import model_texts

    document = load_bytes(catalog_csv(40, seed=3), "catalog.csv")  # a few hundred texts: several slices
    settings = Settings(["fixed", "heading"], ["dense"], ["none"])
    encoder = FakeEncoder()

    texts = sorted({t for s in settings.strategies for t in model_texts(encoder, chunk_document(document, s), settings)},
                   key=len, reverse=True)
    encoder.sentence_matrix(texts[:16])  # the stopped run's first slice
    sizes, sent = [], []
    reading = encoder._encode
    encoder._encode = lambda part: sizes.append(len(part)) or sent.extend(part) or reading(part)
    asked = catalog_questions(40, seed=3)[:5]
    evaluate(document, asked, settings, encoder_factory=lambda: encoder)
    assert not set(texts[:16]) & set(sent)  # nothing read twice
    assert set(texts[16:]) <= set(sent)
    pieces = sizes[1:]  # after the five questions' one slice: 16, then at most twice the slice before each time
    assert sizes[0] == len(asked) and pieces[0] == 16, sizes
    assert all(later <= 2 * earlier for earlier, later in zip(pieces, pieces[1:])), sizes


def test_the_fast_choice_is_word_search_only():
    settings = Settings(ALL, ["keyword", "dense", "hybrid"], ["none", "maxsim", "cross-encoder"], top_k=3)
    fast = fast_settings(settings)
    assert fast.retrievers == ["keyword", "bm25"] and fast.rerankers == ["none"]
    assert fast.strategies == ALL and fast.top_k == 3
    assert fast_settings(Settings(ALL, ["dense"], ["maxsim"])).rerankers == ["none"]


def test_estimate_counts_the_pieces_and_the_texts_the_model_must_read():
    document = load_path(SAMPLE_MD)
    chunks = {id: chunk_document(document, id) for id in ALL}
    pieces = sum(len(c) for c in chunks.values())
    words = estimate(document, QUESTIONS, Settings(ALL, ["keyword"], ["none", "heading"]))
    assert words.pieces == pieces and words.texts == 0 and not words.uses_model
    assert not words.slow and words.words().startswith("Estimated time: a few seconds")

    encoder = FakeEncoder()
    dense = estimate(document, QUESTIONS, Settings(ALL, ["keyword", "dense"], ["none"]), encoder)
    distinct = {chunk.text for c in chunks.values() for chunk in c} | {q.question for q in QUESTIONS}
    assert dense.texts == len(distinct) and dense.uses_model
    assert dense.speed == FakeEncoder.typical_speed == 24_000 and not dense.measured  # the class's own
    assert "a typical speed" in dense.words() and "Word search alone takes" in dense.words()
    assert dense.words().endswith("the to-do list's changes are tried on copies of your file with the language model, "
                                  "which adds to this time.")  # not counted in the figure: said
    # Once the model has read them, they are in its cache and its own speed is used.
    encoder.sentence_matrix(sorted(distinct))
    again = estimate(document, QUESTIONS, Settings(ALL, ["keyword", "dense"], ["none"]), encoder)
    assert again.texts == 0 and again.measured and again.speed == pytest.approx(encoder.work / encoder.seconds)
    assert again.seconds == pytest.approx(again.word_seconds)
    # Nothing left to read: no "typical speed" or "0 pieces to read" beside the time.
    assert "has read this file and these questions before" in again.words() and "typical" not in again.words()


def test_a_file_the_model_has_read_leaves_it_nothing_to_read_even_past_the_timed_head():
    # Longer than the timed head (40,000 characters), shorter than WHOLE_FILE_CHARACTERS: its cuts are counted
    # whole. Counted on the head, the shuffled control's pieces (its shuffle depends on the number of sections)
    # and the head's last window were texts no full run makes, and a warm run was said to have some to read.
    document = load_bytes(catalog_csv(400), "catalog.csv")
    assert 40_000 < len(document.text) < 400_000
    encoder = FakeEncoder()
    settings = Settings(["fixed", "heading", "placebo"], ["dense"], ["none"])
    evaluate(document, QUESTIONS[:4], settings, encoder_factory=lambda: encoder)
    encoder.sentence_matrix([q.question for q in QUESTIONS[:4]])  # the sample's questions: not this file's
    assert estimate(document, QUESTIONS[:4], settings, encoder).texts == 0


def test_a_warm_maxsim_run_is_estimated_by_the_characters_it_re_checks():
    from workbench.run.estimate import RECHECK_SPEED

    # Three pieces under the heading cut: "## A\nPrice: 1" and so on, 13, 14 and 15 characters.
    document = load_bytes(b"# S\n\n## A\nPrice: 1\n\n## B\nPrice: 22\n\n## C\nPrice: 333\n", "s.md")
    assert [len(c.text) for c in chunk_document(document, "heading")] == [13, 14, 15]
    encoder = FakeEncoder()
    asked = QUESTIONS[:2]
    settings = Settings(["heading"], ["keyword", "dense"], ["none", "maxsim"], depth=2)
    evaluate(document, asked, settings, encoder_factory=lambda: encoder)  # the model has read every piece
    encoder.sentence_matrix([q.question for q in asked])  # and the questions (the sample's: not graded here)
    guess = estimate(document, asked, settings, encoder)
    assert guess.texts == 0
    # A shortlist of 2 of the 3 pieces (mean 14 characters), one per search since 3 > depth: 2 x 14 x 2 = 56
    # characters a question, 112 for the 2 questions, at RECHECK_SPEED; and the search and grading of 2 x 2 setups,
    # twice word search's 2 x 1 (keyword, and bm25 in dense's place), timed.
    assert guess.seconds - 2 * guess.word_seconds == pytest.approx(112 / RECHECK_SPEED)
    # Without maxsim, a warm run costs its word search only.
    plain = estimate(document, asked, Settings(["heading"], ["keyword", "dense"], ["none"], depth=2), encoder)
    assert plain.seconds == pytest.approx(plain.word_seconds)


def test_a_maxsim_run_whose_columns_are_kept_is_estimated_by_the_questions_left(tmp_path):
    """maxsim's columns go to the embedding cache: a run of the same questions reads them back, so the estimate
    counts only the questions none were kept for (or the share of texts new to the model, if more)."""
    from workbench.core.model import Question
    from workbench.encode.embedding import work_of
    from workbench.run.estimate import RECHECK_SPEED
    from workbench.store.embedding_store import EmbeddingStore

    document = load_bytes(b"# S\n\n## A\nPrice: 1\n\n## B\nPrice: 22\n\n## C\nPrice: 333\n", "s.md")
    encoder = FakeEncoder(EmbeddingStore(tmp_path / "e.sqlite"))
    # Questions this file does not answer (the sample's would be left out as naming no product of it).
    questions = [Question(f"Is model {n} in stock?", "", "", "unanswerable") for n in range(4)]
    asked = questions[:2]
    settings = Settings(["heading"], ["keyword", "dense"], ["none", "maxsim"], depth=2)
    evaluate(document, asked, settings, encoder_factory=lambda: encoder)  # keeps both questions' columns
    assert encoder.matched([q.question for q in questions]) == {q.question for q in asked}
    guess = estimate(document, asked, settings, encoder)
    assert guess.texts == 0 and guess.seconds == pytest.approx(2 * guess.word_seconds)  # columns all read back
    # Four questions, two of them new: half of 4 x 56 characters (see the test above) re-checked, and the two
    # new questions read by the model at its typical speed.
    wider = estimate(document, questions, settings, encoder)
    new = [q.question for q in questions[2:]]
    assert wider.texts == 2
    assert wider.seconds - 2 * wider.word_seconds == pytest.approx(
        work_of(new) / encoder.typical_speed + 112 / RECHECK_SPEED)


def test_estimate_of_a_long_file_scales_its_head():
    document = load_bytes(catalog_csv(3000), "catalog.csv")
    guess = estimate(document, QUESTIONS[:4], Settings(["fixed", "heading", "sentence"], ["keyword"], ["none"]))
    true = sum(len(chunk_document(document, id)) for id in ["fixed", "heading", "sentence"])
    assert abs(guess.pieces - true) / true < 0.1, (guess.pieces, true)



def test_the_estimate_warms_up_on_a_tiny_head_before_it_times_the_real_one(monkeypatch):
    # A fresh server's first estimate timed one-off costs (imports, compiled patterns) and scaled them by the
    # file's length: 397 s for a 53 s run on 100,000 rows (bench/big_file.py). The timed trial must come second.
    import workbench.run.estimate as estimating

    sizes = []
    real = estimating.evaluate
    monkeypatch.setattr(estimating, "evaluate", lambda document, *a, **k: sizes.append(len(document.text)) or real(
        document, *a, **k))
    document = load_bytes(catalog_csv(3000), "catalog.csv")
    estimate(document, QUESTIONS[:4], Settings(["fixed", "heading"], ["keyword"], ["none"]))
    assert len(sizes) == 2
    assert sizes[0] <= estimating.WARM_UP_CHARACTERS < sizes[1] <= estimating.SAMPLE_CHARACTERS

def test_head_keeps_every_offset_of_the_sections_it_keeps():
    document = load_bytes(catalog_csv(1500), "catalog.csv")
    part = head(document, 100_000)
    short = part.document
    assert part.partial and part.total_sections == 1500 and 0 < part.sections < 1500
    assert len(short.text) <= 100_000 + 1 and short.text.endswith("\n")
    for section in short.sections:
        assert short.slice(section.span) == document.slice(section.span)
        for fact in section.facts:
            assert short.slice(fact.span) == document.slice(fact.span)
    for strategy in STRATEGIES.ids():  # every strategy cuts it, with every offset checked
        assert chunk_document(short, strategy)
    assert not head(load_path(SAMPLE_MD)).partial


def runs_in(path) -> int:
    if not path.exists():
        return 0
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0]


def stopped_script():
    import streamlit as st

    from ui import keys, running
    from ui.document import current_files
    from ui.questions_table import frame_questions
    from ui.session import init_session_state
    from workbench.core.model import Settings
    from workbench.read.questions import questions_to_csv
    from workbench.run.evaluate import RunStopped

    init_session_state()
    questions = questions_to_csv(frame_questions(st.session_state[keys.QUESTIONS]))
    calls = []
    try:
        running.run_evaluation(current_files(), questions, Settings(["fixed", "heading"], ["keyword"], ["none"]),
                             should_stop=lambda: calls.append(1) or len(calls) >= 20)
        st.write("finished")
    except RunStopped as stopped:
        st.write(f"stopped after {len(calls)} checks: {stopped}")
    if st.session_state.get("then_run"):
        running.run_evaluation(current_files(), questions, Settings(["fixed", "heading"], ["keyword"], ["none"]))
        st.write("then finished")


def test_a_stopped_run_saves_nothing_to_the_history(tmp_path, monkeypatch):
    db = tmp_path / "history.sqlite"
    monkeypatch.setenv("WORKBENCH_HISTORY_DB", str(db))
    at = AppTest.from_function(stopped_script, default_timeout=120).run()
    assert not at.exception
    assert at.markdown[0].value.startswith("stopped after 20 checks: the run was stopped")
    assert len(running.remembered_results()) == 0 and runs_in(db) == 0
    at.session_state["then_run"] = True  # the same run let through is remembered and saved: the test can fail
    at.run()
    assert at.markdown[-1].value == "then finished"
    assert len(running.remembered_results()) == 1 and runs_in(db) == 1


def test_after_stop_the_results_page_says_so_and_starts_nothing():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.session_state[keys.RUN_STOPPED] = True  # as the Stop button's click leaves it
    at = at.switch_page("pages/results.py").run()
    assert not at.exception
    assert any("You stopped the run. Nothing of it was kept" in w.value for w in at.warning)
    assert at.session_state[keys.RESULT] is None  # the cheap default did not start again by itself
    at.button(key="run").click().run()
    assert at.session_state[keys.RESULT] is not None and not at.session_state[keys.RUN_STOPPED]
    assert not any("You stopped the run" in w.value for w in at.warning)


def test_slow_settings_show_the_estimate_and_the_fast_choice():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300).run()
    # A catalog no other test embeds: thousands of pieces the model has not read, minutes at any speed
    # it shows here (on the sample, an earlier test may have cached every piece, making the run quick).
    at = at.switch_page("pages/document.py").run()
    at.file_uploader(key="uploader").set_value(("unseen.csv", catalog_csv(400, seed=8_002), "text/csv"))
    at = at.run()
    at.session_state[keys.RUN_RETRIEVERS] = ["keyword", "dense"]
    at = at.switch_page("pages/results.py").run()
    assert not at.exception
    info = [i.value for i in at.info if i.value.startswith("Estimated time")]
    assert info and "with meaning-based search" in info[0] and "Word search alone takes" in info[0]
    partial = at.session_state[keys.RESULT]  # the model's setups never start by themselves: word search's part does
    assert {run.retriever for run in partial.runs} == {"keyword"}
    assert partial.pending == ("meaning-based search", "re-checks by meaning")
    [fast] = [b for b in at.button if b.label.startswith("Run with word search only")]
    fast.click().run()
    assert at.session_state[keys.RUN_RETRIEVERS] == ["keyword", "bm25"]
    result = at.session_state[keys.RESULT]
    assert result is not None and {run.retriever for run in result.runs} == {"keyword", "bm25"}


def test_cuts_and_checkup_work_on_the_head_of_a_long_file_and_say_so():
    data = catalog_csv(1500)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at = at.switch_page("pages/document.py").run()
    at.file_uploader(key="uploader").set_value(("catalog.csv", data, "text/csv"))
    at = at.run()
    document = load_bytes(data, "catalog.csv")
    part = head(document)
    assert part.partial
    note = (f"Your file is long (1,500 products), so this page cuts the first {part.sections:,} of them, "
            "to answer in seconds. The **Results** page uses the whole file.")
    at = at.switch_page("pages/cuts.py").run()
    assert not at.exception and note in [i.value for i in at.info]
    pieces = [m.value for m in at.metric if m.label == "Pieces"]
    assert pieces == [str(len(chunk_document(part.document, "fixed"))), str(len(chunk_document(part.document, "heading")))]
    at = at.switch_page("pages/checkup.py").run()
    assert not at.exception
    assert note.replace("this page cuts", "the check-up looks at") in [i.value for i in at.info]
    words = f"{len(document.text.split()):,}"
    assert any(f"Your file is about {words} words" in i.value for i in at.info)  # the size is the whole file's


def test_the_long_steps_before_the_search_give_a_chance_to_stop():
    from collections import Counter

    from workbench.grade.confidence import WordEvidence, line_words
    from workbench.grade.grading import ChunkMap

    document = load_bytes(catalog_csv(2000), "catalog.csv")
    calls = []
    evidence = WordEvidence(document, between=lambda: calls.append(1))
    lines = [s.heading for s in document.sections if s.heading] + [document.slice(f.span) for f in document.facts]
    distinct = len(set(lines))
    assert len(calls) == -(-distinct // 2_000)  # once every 2,000 distinct lines
    # Reading each distinct line once counts the same as reading every line.
    assert evidence.frequency == Counter(w for line in lines for w in line_words(line))
    chunks = chunk_document(document, "sentence")
    calls.clear()
    ChunkMap(document, chunks, between=lambda: calls.append(1))
    assert len(chunks) > 2_000 and len(calls) == -(-len(chunks) // 2_000)


class Halt(Exception):
    """Raised by the test's stop callback, so the traceback shows where the stop was heard."""


def _halt() -> None:
    raise Halt


@pytest.mark.parametrize("strategy", [id for id in STRATEGIES.ids() if id != "whole"])  # whole: one piece, no loop
def test_every_strategy_hears_a_stop_while_it_cuts(strategy):
    # A 100,000-row file took a strategy 10-25 s to cut with no chance to stop (Stop took 7.8 s, once 26 s).
    # The stop must be heard inside the strategy's own loop, not only once its whole cut is done.
    document = load_bytes(catalog_csv(3000), "catalog.csv")
    with pytest.raises(Halt) as stopped:
        chunk_document(document, strategy, between=_halt)
    cutters = Path(workbench.cut.__file__).parent
    heard_in = [Path(entry.path).name for entry in stopped.traceback if Path(entry.path).parent == cutters]
    assert heard_in, "the stop was heard only after the strategy had cut the whole file"



def test_the_estimate_says_a_model_run_past_its_memory_budget_would_stop_rather_than_timing_it(monkeypatch):
    """The walk's 5 MB CSV (6.3 million characters): "Estimated time: about 41 minutes with meaning-based search",
    and Run stopped at once, the file past the model's budget. The estimate says so before Run is pressed."""
    from workbench.core import limits

    document = load_path(SAMPLE_MD)
    monkeypatch.setattr(limits, "MAX_MODEL_CHARACTERS", len(document.text))  # one cut's worth: four are past it
    guess = estimate(document, QUESTIONS, Settings(ALL, ["bm25", "dense"], ["none"]), FakeEncoder())
    assert guess.slow and guess.uses_model  # shown, with the word-search-only button beside it
    assert guess.words().startswith(f"Run as set would stop at once: {document.name} makes ")
    assert "choose word search only" in guess.words() and guess.words().endswith(".")
    assert "Estimated time" not in guess.words()
