"""A run in stages: word search first, then meaning-based search, then model re-checks; the same grades."""

from __future__ import annotations

import pytest

from workbench.core.model import Settings
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.evaluate import RunStopped, evaluate
from workbench.run.staged import evaluate_in_stages, stages, word_stage

from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS, FakeEncoder

QUESTIONS = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
GRID = Settings(["fixed", "heading"], ["keyword", "dense", "hybrid"], ["none", "maxsim"], threshold="auto")


def test_stages_put_word_search_first_and_leave_out_empty_ones():
    plan = stages(GRID)
    assert [(s.name, s.retrievers, s.rerankers) for s in plan] == [
        ("word search", ["keyword"], ["none"]),
        ("meaning-based search", ["dense", "hybrid"], ["none"]),
        ("re-checks by meaning", ["keyword", "dense", "hybrid"], ["maxsim"]),
    ]
    assert [s.uses_model for s in plan] == [False, True, True]
    word_only = Settings(["fixed"], ["keyword", "bm25"], ["none", "heading"])
    assert [s.name for s in stages(word_only)] == ["word search"]  # one stage: one evaluate, as before


def test_a_cross_encoder_reads_with_a_model_so_bm25_with_it_is_not_a_word_search():
    """A cross-encoder of the user's own never loads the shared model, yet reads with one: every place that asks
    "word search or model?" (the stages, the estimate's fast choice, the app's quick runs) says model."""
    from workbench.run.estimate import fast_settings
    from workbench.search.reads import needs_encoder, uses_model

    both = Settings(["heading"], ["bm25"], ["none", "cross-encoder"], reranker_model="/nowhere")
    assert [(s.name, s.retrievers, s.rerankers, s.uses_model) for s in stages(both)] == [
        ("word search", ["bm25"], ["none"], False),
        ("re-checks by meaning", ["bm25"], ["cross-encoder"], True),
    ]
    alone = Settings(["heading"], ["bm25"], ["cross-encoder"], reranker_model="/nowhere")
    assert [s.uses_model for s in stages(alone)] == [True]  # no word stage: word_stage gives None
    assert word_stage(load_path(SAMPLE_MD), QUESTIONS, alone) is None  # before the missing folder is ever read
    assert uses_model(alone) and not needs_encoder(alone)  # a model, but not the shared one: it never loads
    assert fast_settings(alone).rerankers == ["none"]  # the fast choice drops it
    assert not uses_model(Settings(["heading"], ["bm25", "tfidf", "keyword"], ["none", "heading"]))
    assert uses_model(Settings(["heading"], ["dense"], ["none"])) and needs_encoder(Settings(["heading"], ["bm25"], ["maxsim"]))


def test_each_stage_hands_over_its_runs_in_order_and_the_end_equals_one_evaluate():
    document = load_path(SAMPLE_MD)
    seen = []
    encoder = FakeEncoder()
    staged = evaluate_in_stages(document, QUESTIONS, GRID, encoder_factory=lambda: encoder,
                                on_stage=lambda partial: seen.append(partial))
    # 2 cuts x 1 setup, then 2 x 2 more, then 2 x 3 more: 2, 6 and 12 runs so far.
    assert [len(part.runs) for part in seen] == [2, 6, 12]
    assert [part.pending for part in seen] == [("meaning-based search", "re-checks by meaning"),
                                               ("re-checks by meaning",), ()]
    assert {run.retriever for run in seen[0].runs} == {"keyword"} and not seen[0].complete and staged.complete
    whole = evaluate(document, QUESTIONS, GRID, encoder_factory=lambda: FakeEncoder())
    assert [run.key for run in staged.runs] == [run.key for run in whole.runs]  # the single call's order
    for mine, theirs in zip(staged.runs, whole.runs):
        assert [r.grade for r in mine.per_question] == [r.grade for r in theirs.per_question], mine.key
        assert [r.ranking for r in mine.per_question] == [r.ranking for r in theirs.per_question], mine.key
        assert mine.threshold == theirs.threshold and mine.hit_rate == theirs.hit_rate


def test_a_stop_in_a_later_stage_keeps_what_the_earlier_stages_gave():
    document = load_path(SAMPLE_MD)
    encoder = FakeEncoder()
    seen = []
    with pytest.raises(RunStopped):
        evaluate_in_stages(document, QUESTIONS, GRID, encoder_factory=lambda: encoder,
                           on_stage=seen.append, should_stop=lambda: encoder.encoded > 0)
    # The word-search stage reads no text with the model, so it finished; the stop came with the first model slice.
    assert len(seen) == 1 and {run.retriever for run in seen[0].runs} == {"keyword"}
    assert seen[0].pending == ("meaning-based search", "re-checks by meaning")


class StopAtTheModel(FakeEncoder):
    """Presses Stop (as its click leaves the session) when the model is first asked to read."""

    def _encode(self, texts):
        import streamlit as st

        from ui import keys

        st.session_state[keys.RUN_STOPPED] = True
        return super()._encode(texts)


def results_page(tmp_path, monkeypatch, encoder, **settings):
    """The app's Results page on the sample with its own history, no embedding cache (every text reaches
    ``encoder``), cut at windows and headings, keyword and dense search, no re-check; ``settings``: other keys."""
    from streamlit.testing.v1 import AppTest

    from ui import keys, running

    from .conftest import ROOT

    monkeypatch.setenv("WORKBENCH_HISTORY_DB", str(tmp_path / "history.sqlite"))
    monkeypatch.setenv("WORKBENCH_EMBEDDING_CACHE", "off")
    monkeypatch.setattr(running, "shared_encoder", lambda: encoder)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.session_state[keys.RUN_STRATEGIES] = ["fixed", "heading"]
    at.session_state[keys.RUN_RETRIEVERS] = ["keyword", "dense"]
    at.session_state[keys.RUN_RERANKERS] = ["none"]
    for name, value in settings.items():
        at.session_state[getattr(keys, name.upper())] = value
    return at.switch_page("pages/results.py").run()


def test_results_page_keeps_the_word_search_verdict_of_a_stopped_run_labelled_partial(tmp_path, monkeypatch):
    from tests.test_long_work import runs_in
    from ui import keys, running

    db = tmp_path / "history.sqlite"
    encoder = StopAtTheModel()
    at = results_page(tmp_path, monkeypatch, encoder)
    shown = at.session_state[keys.RESULT]  # the model's setups wait for Run; word search's verdict is shown at once
    assert encoder.encoded == 0 and shown.pending == ("meaning-based search",)
    assert any("Provisional verdict, from word search alone" in w.value for w in at.warning)
    at.button(key="run").click().run()
    assert not at.exception
    result = at.session_state[keys.RESULT]
    assert result is not None and result.pending == ("meaning-based search",)
    assert [run.key for run in result.runs] == [("fixed", "keyword", "none"), ("heading", "keyword", "none")]
    warnings = [w.value for w in at.warning]
    assert any("What had finished is kept below, labelled partial" in w for w in warnings)
    assert any("Partial result, provisional verdict" in w and "meaning-based search" in w for w in warnings)
    assert any(m.value.startswith("Partial results for") and m.value.endswith(
        "**; meaning\\-based search is not computed yet.") for m in at.markdown)  # one sentence, no second colon
    # The sample is Ready under word search, but a partial result's verdict is provisional: no green box.
    assert not any(box.value.startswith("**") for box in at.success)
    assert any(box.value.startswith("**Ready** — ") for box in at.info)
    # Its time is the run's until Stop: never "This run took 0.2 s", nor the finished part's alone ("The finished
    # part took 0.7 s" of a run stopped after 13 s).
    import re

    said = [c.value for c in at.caption if c.value.startswith("The run was stopped after ")]
    assert len(said) == 1 and re.fullmatch(r"The run was stopped after \d+\.\d s\.", said[0]), said
    # The run went on from word search's verdict, computed as the page opened (its runs kept, not computed
    # again), so the time said is this Run's own until Stop, however short.
    assert all(mine is theirs for mine, theirs in zip(result.runs, shown.runs))
    assert float(said[0].split()[-2]) == round(at.session_state[keys.RUN_STOPPED_AFTER], 1)
    assert not any(c.value.startswith(("This run took ", "The finished part took ")) for c in at.caption)
    assert len(running.remembered_results()) == 0 and runs_in(db) == 0  # neither remembered nor saved as complete


def provisional_script():
    import streamlit as st

    from tests.conftest import SAMPLE_MD, SAMPLE_QUESTIONS
    from ui import staged_view
    from workbench.core.model import Settings
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run.staged import word_stage

    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    grid = Settings(["fixed", "heading"], ["keyword", "dense"], ["none", "maxsim"], threshold="auto")
    staged_view.provisional(st.empty(), word_stage(load_path(SAMPLE_MD), questions, grid))


def test_a_run_in_progress_shows_the_finished_stages_verdict_as_provisional():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(provisional_script, default_timeout=60).run()
    assert not at.exception
    assert at.info[0].value == ("**Provisional verdict**: still being computed: meaning-based search, re-checks by "
                                "meaning. It may change when they finish.")
    # The sample's word-search verdict (test_app.py: Ready under cut at headings, word-match search, 20 of 20).
    assert at.markdown[0].value.startswith("**Ready** — breezy\\_home\\_price\\_list\\.md: with cut at headings, "
                                           "word\\-match search, 20 of 20")
    assert at.caption[0].value == "Finished so far: word\\-match search, not re\\-checked."


def test_changing_a_setting_after_a_complete_run_says_the_complete_run_is_kept(tmp_path, monkeypatch):
    """k 5 -> 4 shows word search's verdict for k = 4, and says the complete k = 5 run is kept; k back to 5 shows it."""
    from ui import keys, running

    at = results_page(tmp_path, monkeypatch, FakeEncoder(), top_k=5)
    at.button(key="run").click().run()
    assert not at.exception
    complete = at.session_state[keys.RESULT]
    assert complete.pending == () and complete.settings.top_k == 5
    kept = "Your complete run of this file and these questions is kept"
    assert not any(kept in c.value for c in at.caption)

    at.session_state[keys.TOP_K] = 4
    at.run()
    shown = at.session_state[keys.RESULT]
    assert shown.pending == ("meaning-based search",) and shown.settings.top_k == 4
    assert [c.value for c in at.caption if kept in c.value] == [
        f"{kept}; it had a different setting for pieces handed to the bot (k). Set it back to see it again, or "
        "press **Run the questions** for these."
    ]

    # Run for k = 4 and stop it at the model: the partial result says the same.
    monkeypatch.setattr(running, "shared_encoder", lambda: StopAtTheModel())
    at.button(key="run").click().run()
    assert at.session_state[keys.RESULT].pending == ("meaning-based search",)
    assert any("What had finished is kept below, labelled partial" in w.value for w in at.warning)
    assert len([c for c in at.caption if kept in c.value]) == 1

    at.session_state[keys.TOP_K] = 5
    at.run()
    assert at.session_state[keys.RESULT] is complete  # the remembered complete run, not computed again
    assert not any(kept in c.value for c in at.caption)


def test_settings_changed_names_each_changed_setting_in_the_panels_words():
    from workbench.store.stamp import Stamp, same_inputs, settings_changed

    before = Stamp.of("a.csv", b"x", None, None, "q", 1, Settings(["fixed"], ["bm25"], ["none"], top_k=5))
    after = Stamp.of("a.csv", b"x", None, None, "q", 1, Settings(["fixed", "heading"], ["bm25"], ["none"], top_k=4))
    assert settings_changed(before, after) == ["ways of cutting", "pieces handed to the bot (k)"]
    assert settings_changed(before, before) == []
    assert same_inputs(before, after)
    assert not same_inputs(before, Stamp.of("a.csv", b"y", None, None, "q", 1, Settings(["fixed"], ["bm25"], ["none"])))


def test_the_time_said_is_the_whole_runs_or_until_stop():
    """Walk-through of issue 25: a run stopped after about 13 s said "The finished part took 0.7 s"."""
    from types import SimpleNamespace

    from ui.staged_view import time_caption

    partial = SimpleNamespace(pending=("meaning-based search",), seconds=0.7)
    whole = SimpleNamespace(pending=(), seconds=13.24)
    assert time_caption(partial, stopped=True, fresh=False, stopped_after=13.04) == "The run was stopped after 13.0 s."
    assert time_caption(partial, stopped=True, fresh=False) == "The run was stopped before it finished."
    assert time_caption(partial, stopped=False, fresh=False) == (
        "Worked out with word search as the page opened; the rest waits for Run.")
    assert time_caption(whole, stopped=False, fresh=True) == "This run took 13.2 s."
    assert time_caption(whole, stopped=False, fresh=False) == "These results are from the last run (took 13.2 s)."
    assert time_caption(whole, stopped=False, fresh=True, went_on=10.04) == (
        "This run took 13.2 s: the part finished before you stopped it (10.0 s) was kept, the rest took 3.2 s.")


def test_stop_times_the_run_at_its_click(monkeypatch):
    """Stop's click (it reruns the page, ending the script) records how long the run had gone."""
    import streamlit as st

    from ui import keys, running

    state: dict = {keys.RUN_STARTED_AT: 100.0}
    monkeypatch.setattr(st, "session_state", state)
    monkeypatch.setattr(running.st, "session_state", state)
    monkeypatch.setattr(running.time, "monotonic", lambda: 113.04)
    running.stop_run()
    assert state[keys.RUN_STOPPED] is True and state[keys.RUN_STOPPED_AFTER] == pytest.approx(13.04)


def test_the_progress_bar_moves_while_the_model_reads(monkeypatch):
    """The walk-through saw the bar stand at the stage's start (16 %) from "Loading the language model" to "read
    91 of 145": the reading, most of a cold run, now fills READING_SHARE of its stage, the searches the rest."""
    from workbench.run import evaluate as evaluate_module
    from workbench.run.evaluate import READING_SHARE

    monkeypatch.setenv("WORKBENCH_EMBEDDING_CACHE", "off")
    monkeypatch.setattr(evaluate_module, "SLICE_SECONDS", 0.0)  # the smallest slices: the bar moves at each
    encoder = FakeEncoder()
    said: list[tuple[float, str]] = []
    evaluate(load_path(SAMPLE_MD), QUESTIONS, Settings(["sentence", "heading"], ["dense"], ["none"]),
             encoder_factory=lambda: encoder, progress=lambda share, text: said.append((share, text)))
    reading = [share for share, text in said if text.startswith("The language model has read ")]
    searching = [share for share, text in said if " — " in text]
    assert len(reading) >= 2 and 0 < reading[0] < reading[-1] < READING_SHARE  # it moves, within its share
    # Two searches (two cuts x dense): the first starts where the reading ends, the second halfway through the rest.
    # (The sentences make enough texts for several slices of 8 after the first 16.)
    assert searching == [READING_SHARE, READING_SHARE + (1 - READING_SHARE) / 2]
    first = next(n for n, (_, text) in enumerate(said) if text.startswith("The language model has read "))
    after = [share for share, _ in said[first:]]
    assert after == sorted(after) and after[-1] == 1.0  # from the first text read on, it never goes back
    # No text is in both cuts here: the plan's line says nothing of shared texts ("(0 of them in several cuts …)").
    [plan] = [text for _, text in said if text.startswith("The language model reads ")]
    assert plan.endswith(" of them are new to it") and "(" not in plan


def test_a_run_goes_on_from_a_partial_result_of_the_same_settings():
    """Continue after Stop (or Run after word search's verdict shown as the page opened): the finished stage is
    kept, its runs the very same objects, and the rest computed; the end equals one evaluate."""
    from workbench.run.staged import finished_stages, word_stage

    document = load_path(SAMPLE_MD)
    first = word_stage(document, QUESTIONS, GRID)
    assert first.pending == ("meaning-based search", "re-checks by meaning")
    assert [stage.name for stage in finished_stages(stages(GRID), GRID, first)] == ["word search"]
    # Another setting (k) is another result: nothing of it is kept.
    from dataclasses import replace

    assert finished_stages(stages(replace(GRID, top_k=4)), replace(GRID, top_k=4), first) == []
    seen = []
    encoder = FakeEncoder()
    # As the app goes on: the file and the questions table read again, equal objects but not the same ones.
    again = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    staged = evaluate_in_stages(load_path(SAMPLE_MD), again, GRID, encoder_factory=lambda: encoder,
                                on_stage=seen.append, done=first)
    # The kept part is shown first, then the two stages computed now: 2, 6 and 12 runs.
    assert [len(part.runs) for part in seen] == [2, 6, 12] and seen[0].pending == first.pending
    kept = {run.key: run for run in first.runs}
    assert all(run is kept[run.key] for run in staged.runs if run.key in kept)  # not computed again
    assert staged.seconds >= first.seconds and staged.complete
    # Every run's questions are the result's own objects (the report found them by identity: StopIteration).
    own = {id(q.question) for q in staged.questions}
    assert all(id(answer.question) in own for run in staged.runs for answer in run.per_question)
    assert staged.document is first.document
    from workbench.output.handover import report_html

    assert "<h2>Where it goes wrong" in report_html(staged)
    # Another questions table (a question's answer edited) keeps nothing: all three stages are computed.
    edited = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    edited[0] = replace(edited[0], expected_answer=edited[0].expected_answer + " (edited)")
    fresh_seen = []
    evaluate_in_stages(document, edited, GRID, encoder_factory=lambda: FakeEncoder(), on_stage=fresh_seen.append,
                       done=first)
    assert [len(part.runs) for part in fresh_seen] == [2, 6, 12] and fresh_seen[0].runs[0] is not first.runs[0]
    whole = evaluate(document, QUESTIONS, GRID, encoder_factory=lambda: FakeEncoder())
    assert [run.key for run in staged.runs] == [run.key for run in whole.runs]
    for mine, theirs in zip(staged.runs, whole.runs):
        assert [r.grade for r in mine.per_question] == [r.grade for r in theirs.per_question], mine.key
        assert [r.ranking for r in mine.per_question] == [r.ranking for r in theirs.per_question], mine.key


def test_results_page_continues_a_stopped_run_and_opens_the_complete_result_on_its_own_pick(tmp_path, monkeypatch):
    """Walk-through of issue 26: after Stop and Run again, "Show the search" kept word search's pick from the
    partial result, and the run started again from word search."""
    from ui import keys, running

    at = results_page(tmp_path, monkeypatch, StopAtTheModel())
    at.button(key="run").click().run()  # stopped at the model: word search's part is kept
    partial = at.session_state[keys.RESULT]
    assert partial.pending == ("meaning-based search",)
    partial_keys = {box.key for box in at.selectbox if box.key.startswith(("show_", "drill_"))}  # result_key's
    encoder = FakeEncoder()
    monkeypatch.setattr(running, "shared_encoder", lambda: encoder)
    at.button(key="run").click().run()
    assert not at.exception
    complete = at.session_state[keys.RESULT]
    assert complete.pending == ()
    kept = {run.key: run for run in partial.runs}
    assert [run for run in complete.runs if run.key in kept] == list(kept.values())
    assert all(run is kept[run.key] for run in complete.runs if run.key in kept)  # went on, not from the start
    # Its time is the whole result's, the kept part's said apart.
    said = [c.value for c in at.caption if c.value.startswith("This run took ")]
    assert len(said) == 1 and f"the part finished before you stopped it ({partial.seconds:.1f} s) was kept" in said[0]
    # The complete result's choosers are its own: none keeps the partial result's key (and its pick).
    assert partial_keys and not partial_keys & {box.key for box in at.selectbox}
    # Run is back under its one key, not greyed; pressing it on a current result says so.
    assert [(b.key, b.disabled) for b in at.button if b.key == "run"] == [("run", False)]
    at.button(key="run").click().run()
    assert any(s.value.startswith("Already up to date") for s in at.success)
    assert at.session_state[keys.RESULT] is complete
