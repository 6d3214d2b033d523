"""Running the questions: the settings and stamp of what is loaded, runs (quick ones on their own, long ones
with a Stop and an estimate first), and the result on screen.

Models are cached with ``st.cache_resource``, once per server process. Finished results are kept for every tab
under the stamp of what they were computed from (``remembered_results``): a reload shows them again, and only
for exactly those inputs.
"""

from __future__ import annotations

import time

import streamlit as st

from ui.document import Files, current_files, load_document, readings, require_document
from ui.keys import (
    DOC_NAME,
    ESTIMATE_MEMO,
    OVERLAP,
    QUESTIONS,
    RERANKER_MODEL,
    RESULT,
    RESULT_ERROR,
    RESULT_ERROR_STAMP,
    RESULT_STAMP,
    RUN_RERANKERS,
    RUN_RETRIEVERS,
    RUN_STARTED_AT,
    RUN_STOPPED,
    RUN_STOPPED_AFTER,
    RUN_STRATEGIES,
    RUN_WENT_ON,
    SIZE,
    THRESHOLD,
    THRESHOLD_AUTO,
    TOP_K,
)
from ui.questions_table import frame_questions
from workbench.core.model import Document, Question, Settings, WorkbenchError
from workbench.core.results import Evaluation
from workbench.core.wording import and_list, verb
from workbench.output.highlight import escape_markdown
from workbench.read.questions import parse_questions, questions_to_csv
from workbench.run import defaults
from workbench.run.estimate import Estimate, estimate
from workbench.run.evaluate import RunStopped
from workbench.run.staged import evaluate_in_stages, word_stage
from workbench.search.reads import uses_model
from workbench.store.history import History
from workbench.store.history import default_path as history_path
from workbench.store.remembered import Remembered
from workbench.store.stamp import Stamp, same_inputs


@st.cache_resource(show_spinner=False)
def shared_encoder():
    """The packaged model, loaded once per server process and shared by every session."""
    from workbench.encode.embedding import get_encoder

    return get_encoder()


def encoder_for_file(language: str | None):
    """The model that reads a file in ``language``: the shared MiniLM for English and for a language not known,
    else the process-wide multilingual one (``encode/multilingual.py``, loaded once per server process)."""
    from workbench.encode.multilingual import E5Encoder, encoder_class, encoder_for

    return encoder_for(language) if encoder_class(language) is E5Encoder else shared_encoder()


def model_reading(document=None):
    """(encoder, window) to count pieces in the word pieces of the model that reads ``document`` (its tokenizer
    only, the model is not loaded; MiniLM's without a document), or None when the model package is missing."""
    try:
        if document is None:
            encoder = shared_encoder()
        else:
            from workbench.encode.multilingual import file_language

            encoder = encoder_for_file(file_language(document))
        return encoder, encoder.window
    except WorkbenchError:
        return None


def current_settings() -> Settings:
    """The run settings as the Results page shows them."""
    state = st.session_state
    return Settings(
        strategies=list(state[RUN_STRATEGIES]),
        retrievers=list(state[RUN_RETRIEVERS]),
        rerankers=list(state[RUN_RERANKERS]),
        top_k=int(state[TOP_K]),
        size=int(state[SIZE]),
        overlap=min(int(state[OVERLAP]), int(state[SIZE]) // 2),
        threshold="auto" if state[THRESHOLD_AUTO] else (float(state[THRESHOLD]) or None),
        depth=defaults.DEFAULTS.depth,  # no control on the page: the command line's --depth default
        reranker_model=state[RERANKER_MODEL] or None,
    )


def current_stamp(settings: Settings | None = None) -> Stamp:
    """What a result for the current document, questions and settings would be computed from."""
    questions = frame_questions(st.session_state[QUESTIONS])
    return _stamp(current_files(), questions_to_csv(questions), len(questions), settings or current_settings())


def quick(settings: Settings, document: Document) -> bool:
    """Whether a run is quick enough to do on its own when the inputs change (word search, a small file)."""
    return (not uses_model(settings) and len(document.text) <= 200_000 and len(st.session_state[QUESTIONS]) <= 500
            and not st.session_state.get(RUN_STOPPED))


def run_current(settings: Settings, progress=None, should_stop=None, on_stage=None) -> Evaluation | None:
    """Run the questions on the current inputs; the result is stored with the stamp it was computed from.

    Each finished stage (word search first) is stored at once as a partial result (``Evaluation.pending``),
    then handed to ``on_stage`` to be shown: a Stop keeps it, labelled partial; it is never remembered or
    saved to the history, which only the complete result is.
    """
    state = st.session_state
    stamp = current_stamp(settings)
    state["run_fresh"] = stamp not in remembered_results()  # False: the remembered result is shown
    # A partial result of these same inputs (a stopped run, or word search's verdict shown as the page opened):
    # the run goes on from it, not from the start.
    shown = state.get(RESULT)
    done = shown if shown is not None and shown.pending and state.get(RESULT_STAMP) == stamp else None
    # Going on from a stopped run: its kept part's time is in the result's, and the page says so.
    state[RUN_WENT_ON] = done.seconds if done is not None and state.get(RUN_STOPPED_AFTER) is not None else None
    state[RUN_STARTED_AT], state[RUN_STOPPED_AFTER] = time.monotonic(), None  # for "stopped after 13.0 s"

    def stage_done(partial: Evaluation) -> None:
        if partial.pending:
            state[RESULT], state[RESULT_STAMP] = partial, stamp
            if on_stage:
                on_stage(partial)

    try:
        result = run_evaluation(current_files(), questions_to_csv(frame_questions(state[QUESTIONS])), settings,
                                progress=progress, should_stop=should_stop, on_stage=stage_done, done=done)
    except RunStopped:  # asked for (should_stop): what finished stays in RESULT, labelled partial; no error
        state[RUN_STOPPED] = True
        if state.get(RUN_STOPPED_AFTER) is None:  # Stop's click, when it came through stop_run, timed it already
            state[RUN_STOPPED_AFTER] = time.monotonic() - state[RUN_STARTED_AT]
        return None
    except WorkbenchError as error:
        state[RESULT_ERROR], state[RESULT_ERROR_STAMP] = str(error), stamp
        return None
    state[RESULT], state[RESULT_STAMP] = result, stamp
    state[RESULT_ERROR], state[RESULT_ERROR_STAMP] = None, None
    return result


def refresh_result(settings: Settings, document: Document, auto: bool | None = None) -> bool:
    """Bring RESULT up to date when that costs little: a result already computed for these inputs, or a
    quick run (``auto``: the page's own judgement of quick). Returns whether RESULT is now current."""
    state = st.session_state
    stamp = current_stamp(settings)
    if state[RESULT_STAMP] == stamp:
        return True
    known = remembered_results().get(stamp)
    if known is not None:  # run earlier in this app, in this tab or another, or before a reload
        state[RESULT], state[RESULT_STAMP] = known, stamp
        return True
    if (quick(settings, document) if auto is None else auto) and state[RESULT_ERROR_STAMP] != stamp:
        bar = st.progress(0.0, text="Grading the questions on the current file…")
        run_current(settings, progress=lambda share, text: bar.progress(min(share, 1.0), text=text))
        bar.empty()
        return state[RESULT_STAMP] == stamp
    if state[RESULT_ERROR_STAMP] != stamp and quick(word_part(settings), document) and not state.get(RUN_STOPPED):
        # The model's setups wait for Run; word search's verdict is shown at once, labelled provisional.
        bar = st.progress(0.0, text="Word search on the current file…")
        try:
            partial = word_stage(document, table_questions(questions_to_csv(frame_questions(state[QUESTIONS]))),
                                 settings, progress=lambda share, text: bar.progress(min(share, 1.0), text=text))
        except WorkbenchError:
            partial = None
        bar.empty()
        if partial is not None:
            state[RESULT], state[RESULT_STAMP] = partial, stamp
            return True
    return False


def word_part(settings: Settings) -> Settings:
    """The word-search stage of ``settings`` (run by itself when the rest needs the model)."""
    from dataclasses import replace

    from workbench.run.staged import stages

    plan = stages(settings)
    first = plan[0] if plan else None
    if first is None or first.uses_model:
        return replace(settings, retrievers=["dense"])  # no word stage: never quick
    return replace(settings, retrievers=first.retrievers, rerankers=first.rerankers)


def result_caption() -> str:
    """Names the file (and questions) a result is about, for the top of every page that shows one."""
    stamp: Stamp = st.session_state[RESULT_STAMP]
    if stamp != current_stamp():
        return f"Below: the out-of-date results for **{escape_markdown(stamp.describe())}**."
    result: Evaluation | None = st.session_state[RESULT]
    # One sentence each, one colon at most: "…with 26 questions: waiting for Run: meaning-based search" read as two.
    if result is not None and result.pending:
        count, pending = len(result.pending), escape_markdown(and_list(result.pending))
        if not st.session_state.get(RUN_STOPPED):  # no run yet: not "partial"
            return (f"Word-search results for **{escape_markdown(stamp.describe())}**; {pending} "
                    f"{verb(count, 'waits', 'wait')} for Run.")
        return (f"Partial results for **{escape_markdown(stamp.describe())}**; {pending} "
                f"{verb(count, 'is', 'are')} not computed yet.")
    return f"Results for **{escape_markdown(stamp.describe())}**."


def result_key(name: str) -> str:
    """A widget key that belongs to the result on screen: a new result opens its choosers on their defaults
    (its recommended setup) instead of keeping what was picked for another file or run. A partial result and
    the complete one of the same inputs are two results: word search's pick must not stay once the model's
    setups have finished."""
    result: Evaluation | None = st.session_state[RESULT]
    pending = result.pending if result is not None else ()
    return f"{name}_{hash((st.session_state[RESULT_STAMP], pending)) & 0xFFFFFFFF:08x}"


def stale_notice(settings: Settings) -> None:
    """Say plainly that the result on screen is not for what is loaded now, and what changed."""
    old: Stamp = st.session_state[RESULT_STAMP]
    now = current_stamp(settings)
    changes = "; ".join(old.changes(now))
    st.warning(
        f"**Out of date — these results are for {escape_markdown(old.describe())}**, not for what is loaded now "
        f"({escape_markdown(changes)}). Press **Run the questions** to grade {escape_markdown(now.describe())}.",
        icon="⚠️",
    )


def result_or_notice(page: str, button: bool = True, auto: bool | None = None) -> Evaluation | None:
    """For a page that shows a result: the current one (computed now when quick or already known), or an
    out-of-date one under a warning with a Run button, or None (the page then says how to get one)."""
    state = st.session_state
    document = require_document()
    if not frame_questions(state[QUESTIONS]):
        st.info(f"{escape_markdown(state[DOC_NAME])} has no questions yet: add some on the **Questions** page.")
        st.stop()
    settings = current_settings()
    if refresh_result(settings, document, auto):
        return state[RESULT]
    if state[RESULT] is None:
        return None
    stale_notice(settings)
    if not button:  # the page has its own Run button
        return state[RESULT]
    if st.button("Run the questions", type="primary", key=f"run_{page}"):
        bar = st.progress(0.0, text="Starting…")
        run_current(settings, progress=lambda share, text: bar.progress(min(share, 1.0), text=text))
        bar.empty()
        st.rerun()
    if state[RESULT_ERROR] and state[RESULT_ERROR_STAMP] == current_stamp(settings):
        st.error(f"The run stopped: {escape_markdown(state[RESULT_ERROR])}")
    return state[RESULT]


def run_evaluation(
    files: Files,
    questions_csv: str,
    settings: Settings,
    progress=None,
    should_stop=None,
    on_stage=None,
    done: Evaluation | None = None,
) -> Evaluation:
    """Evaluate, remembering results by what they were computed from (a ``Stamp``) for every tab of the app.

    Not ``st.cache_data``: its replay refuses a progress bar created outside the
    function. The model and every embedding are shared process-wide too.
    A stopped run (``should_stop``, or Streamlit ending the script) raises before anything is remembered or saved.
    ``done``: a partial result of these inputs, whose finished stages are kept (``evaluate_in_stages``).
    """
    key = run_key(files, questions_csv, settings)
    memo = remembered_results()
    result = memo.get(key)
    if result is None:
        document = load_document(files)
        questions = table_questions(questions_csv)
        from workbench.encode.multilingual import file_language

        language = file_language(document)
        result = evaluate_in_stages(document, questions, settings, encoder_factory=lambda: encoder_for_file(language),
                                    progress=progress, should_stop=should_stop, on_stage=on_stage, done=done)
        memo.put(key, result)
        # Saved only here, where the result and what it was computed from are one: the history never
        # holds a run under another file's, questions' or settings' name.
        save_to_history(result, key.questions)
        from workbench.encode.embedding import cache_warnings

        for warning in cache_warnings():  # the disk cache failed and was worked around: said once per server
            st.warning(escape_markdown(warning))
    return result


def table_questions(questions_csv: str) -> list[Question]:
    """The questions table's CSV read back, each numbered by its row in a questions file, as the table shows it."""
    return parse_questions(questions_csv.encode("utf-8"), "the questions table")


def remembered_results() -> Remembered[Stamp, Evaluation]:
    """The finished results of this app, for every tab: one store per run history (each test has its own)."""
    return _remembered(str(history_path()))


@st.cache_resource(show_spinner=False)
def _remembered(history: str) -> Remembered[Stamp, Evaluation]:
    return Remembered(limit=16)


def complete_with_other_settings(stamp: Stamp) -> Stamp | None:
    """The newest complete result remembered for this file and these questions under other settings: changing a
    setting shows word search's verdict for the new ones, and the complete run is not lost, only not current."""
    for key, result in reversed(remembered_results().items()):
        if key != stamp and same_inputs(key, stamp) and not result.pending:
            return key
    return None


def run_key(files: Files, questions_csv: str, settings: Settings) -> Stamp:
    """What a run is computed from: its result is remembered, shown and saved under this stamp."""
    count = len(parse_questions(questions_csv.encode("utf-8"), "the questions table"))
    return _stamp(files, questions_csv, count, settings)


def _stamp(files: Files, questions_csv: str, count: int, settings: Settings) -> Stamp:
    """Both stamps (of what is loaded, of what a run reads) name each file's sheet and column as the reader found
    them; a knowledge base's stamp is bound to every file's bytes and their order."""
    return Stamp.of_files(readings(files), questions_csv, count, settings)


def should_stop() -> bool:
    """Whether a long run should stop: asked between its questions and slices of model work.

    Reading session state is also where Streamlit ends a running script: when Stop (or any other
    control) was pressed or the tab was closed, it raises its own exception here, inside the engine's
    loop, so the work ends within seconds and nothing of it is kept.
    """
    return bool(st.session_state.get(RUN_STOPPED))


def stop_run() -> None:
    """The Stop button: its click reruns the page, which ends the running script (see ``should_stop``).

    The run's time is taken here, at the click: the page then says how long the run went before it was stopped."""
    st.session_state[RUN_STOPPED] = True
    started = st.session_state.get(RUN_STARTED_AT)
    if started is not None:
        st.session_state[RUN_STOPPED_AFTER] = time.monotonic() - started


def run_estimate(files: Files, questions_csv: str, settings: Settings) -> Estimate | None:
    """How long Run will take; None when its result is remembered (it shows at once)."""
    key = run_key(files, questions_csv, settings)
    if key in remembered_results():
        return None
    document = load_document(files)
    if uses_model(settings):  # the model that will read this file: its cache, its speed (E5 reads slower)
        from workbench.encode.multilingual import file_language

        encoder = encoder_for_file(file_language(document))
    else:
        encoder = None
    # Re-estimated once the model has run (its speed is then measured) or has read more texts.
    key = (key, encoder.name, encoder.encoded, encoder.loaded) if encoder is not None else key
    memo = st.session_state.setdefault(ESTIMATE_MEMO, {})
    if key not in memo:
        questions = parse_questions(questions_csv.encode("utf-8"), "the questions table")
        if len(memo) >= 8:
            memo.pop(next(iter(memo)))
        memo[key] = estimate(document, questions, settings, encoder)
    return memo[key]


def save_to_history(evaluation: Evaluation, questions_hash: str) -> None:
    """Every new result goes to the run history; a history that cannot be written only warns."""
    try:
        History().save(evaluation, questions_hash, repeat=False)
    except WorkbenchError as error:
        st.warning(f"This run was not saved to the history: {escape_markdown(error)}")
