"""Results page: is the file ready for a bot, what to change in it, and the charts and drill-down behind that."""

from dataclasses import asdict

import streamlit as st

from ui import base_panels, handover_panels, layout, staged_view
from ui.document import current_files, require_document
from ui.keys import (
    QUESTIONS,
    RERANKER_MODEL,
    RESULT,
    RESULT_ERROR,
    RESULT_ERROR_STAMP,
    RESULT_STAMP,
    RUN_RERANKERS,
    RUN_RETRIEVERS,
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
from ui.running import (
    complete_with_other_settings,
    current_settings,
    current_stamp,
    remembered_results,
    result_caption,
    result_key,
    result_or_notice,
    run_current,
    run_estimate,
    should_stop,
    stop_run,
)
from ui.saved_work import bind, save_settings, store
from ui.session import ensure_app
from workbench.advise.advice import advise, caveats, fix_sentence, folded_heading, todo_checkup, todo_heading
from workbench.advise.findings import shown_setup
from workbench.advise.todo import not_clean
from workbench.advise.verdict import LOOKS_READY, NEEDS_WORK, NOT_READY, READY, RULE_STEPS, assess, handed_pieces
from workbench.core.model import Question, Settings, WorkbenchError
from workbench.core.wording import plural, todo_order_note, verb
from workbench.cut import STRATEGIES
from workbench.grade.grading import GRADE_WORDS, REASON_WORDS, labelled_lines
from workbench.grade.places import join_names
from workbench.output.charts import GRADE_LABELS, grade_grid, grades_bars, history_chart, hit_curve
from workbench.output.explain import GLOSSARY
from workbench.output.highlight import STYLE, chunk_with_answer, citation, escape_markdown, expected_line, isolated
from workbench.read.questions import questions_to_csv
from workbench.run.estimate import duration, fast_settings
from workbench.run.names import reranker_name, retriever_name, score_words, setup_id, strategy_name
from workbench.search.reads import uses_model
from workbench.search.rerankers import RERANKERS
from workbench.search.retrievers import RETRIEVERS
from workbench.store.history import History
from workbench.store.stamp import comparable_runs, settings_changed

ensure_app("pages/results.py")  # opened by its address before app.py ever ran: go through app.py
st.title("Is your file ready for a bot?")
document = require_document()
size = int(st.session_state[SIZE])


def options_help(registry) -> str:
    """Each choice in words, for a tooltip: "**Word-match search**: counts how many …"."""
    return "  \n".join(f"**{item.label}**: {item.explanation}" for item in (registry.get(id) for id in registry.ids()))


with st.expander("Settings", expanded=bool(st.session_state[RESULT_ERROR])):
    st.multiselect("Ways of cutting the file", STRATEGIES.ids(), key=bind(RUN_STRATEGIES),
                   on_change=store, args=(RUN_STRATEGIES,), format_func=lambda id: strategy_name(id, size),
                   help="The **Cuts** page shows each way with its pieces and says what it does. A control cuts "
                   "at random or not at all: a real way of cutting should beat it.")
    # Full width, one under the other: in half a page the chips of long names are cut off.
    st.multiselect("Search", RETRIEVERS.ids(), key=bind(RUN_RETRIEVERS),
                   on_change=store, args=(RUN_RETRIEVERS,), format_func=retriever_name,
                   help=options_help(RETRIEVERS) + " The language model loads once (a few seconds) and runs "
                   "on this computer.")
    st.multiselect("Re-check the top pieces", RERANKERS.ids(), key=bind(RUN_RERANKERS),
                   on_change=store, args=(RUN_RERANKERS,), format_func=reranker_name,
                   help=options_help(RERANKERS) + " Keep “Not re-checked” to see results without and with a "
                   "re-check.")
    if any(RERANKERS.get(id).needs_model_path for id in st.session_state[RUN_RERANKERS]):
        st.text_input("Folder of your cross-encoder model", key=bind(RERANKER_MODEL),
                      on_change=store, args=(RERANKER_MODEL,))
    left, right = st.columns(2)
    left.slider("k: pieces handed to the bot", 1, 10, key=bind(TOP_K), on_change=store,
                args=(TOP_K,))
    right.number_input("Refuse below this confidence (0 to 1; 0: never refuse)", min_value=0.0, step=0.05,
                       key=bind(THRESHOLD), on_change=store, args=(THRESHOLD,),
                       help="When the bot is less sure than this that your file answers a question, it hands the question to a person.",
                       disabled=st.session_state[THRESHOLD_AUTO])
    st.checkbox("Let the questions pick the threshold (see Compare & report)", key=bind(THRESHOLD_AUTO),
                on_change=store, args=(THRESHOLD_AUTO,))

settings = current_settings()


def ask_run() -> None:
    """Run's click, kept in the session: the button is swapped for a greyed one while the run goes on, and back
    after it, so the click must not depend on the button being drawn again."""
    st.session_state["run_now"] = True


def run(settings: Settings) -> None:
    bar = running.progress(0.0, text="Starting…")
    stop = running.empty()
    # Pressing Stop reruns the page, which ends this script inside the engine's loop (ui.running.should_stop).
    stop.button("Stop", key="stop_run", on_click=stop_run,
                help="Ends the run now; what has finished is kept, labelled partial, and not saved to the history.")
    st.session_state[RUN_STOPPED] = False
    # Word search's verdict first, replaced as each stage of the model's setups finishes. It takes the place of the
    # last screen's verdict, one block (``body`` below): Streamlit keeps the last screen's elements, greyed, until
    # the script writes over them, and the page's "press Run" verdict, written as loose elements, stayed under
    # the live one for the whole run.
    live = top.empty()
    # To the top: the progress bar and Stop are there, under Run, with the live verdict below them; not the last
    # run's greyed charts.
    layout.scroll_to_top()
    run_current(settings, progress=lambda share, text: bar.progress(min(share, 1.0), text=text),
                      should_stop=should_stop, on_stage=lambda partial: staged_view.provisional(live, partial))
    # The page drawn again for the result (or the Stop, or the error): Run back as it was, under its one key.
    st.rerun()


def use_fast_settings() -> None:
    """The fast choice: word search only, kept as the settings so the result shown matches them."""
    fast = fast_settings(settings)
    st.session_state[RUN_RETRIEVERS] = fast.retrievers
    st.session_state[RUN_RERANKERS] = fast.rerankers
    save_settings()
    st.session_state["run_fast_now"] = True  # the settings change hides this button, so its click is kept here


questions_csv = questions_to_csv(frame_questions(st.session_state[QUESTIONS]))
try:
    # Timing the file's head takes seconds on a long file or a busy machine: the page says what it is doing.
    with st.spinner("Working out how long a run would take…"):
        guess = run_estimate(current_files(), questions_csv, settings)
except WorkbenchError:  # bad settings or no questions: Run (or the note below) says why in plain words
    guess = None
# Only the clicks' callbacks count, never a button's value: a run that Stop cut short never resets the value, so
# the page, opened again by Stop, ran again instead of stopping.
pressed = st.session_state.pop("run_now", False)
fast_now = st.session_state.pop("run_fast_now", False)
# Run pressed on a result that is already current changes nothing on screen: said below, not run again.
up_to_date = pressed and guess is None and current_stamp(settings) in remembered_results()
running_now = (pressed or fast_now) and not up_to_date
# While a run goes on: Run greyed under its one key (a button of another key in its place left the old one on
# screen, faded but clickable, until the run ended: Streamlit matches keyed elements by key), no estimate over
# the run's own progress, no "Run with word search only" for a run already going.
estimate = st.empty()
if guess is not None and guess.slow and not running_now:
    estimate.info(guess.words())
left, right = st.columns([1, 3])
if running_now:
    left.button("Running…", type="primary", key="run", disabled=True)
else:
    left.button("Run the questions", type="primary", key="run", on_click=ask_run)
fast = right.empty()  # no key: the empty drawn in its place during a run replaces it (a keyed one would stay)
if guess is not None and guess.uses_model and guess.slow and not running_now:
    fast.button(f"Run with word search only ({duration(guess.word_seconds)})", on_click=use_fast_settings,
                help="Keeps your ways of cutting; searches by words, without the language model.")
# Run, its progress and Stop, then the verdict and the to-do list, all near the page's top: on a phone, Run was
# about 4,300 pixels down, under the to-do list, and a run's progress a screen below where the page went.
running = st.container()  # a run's progress bar and Stop, and the note once it is stopped
top = st.container()  # the verdict and the to-do list
# Everything below them, one placeholder: its "st.empty()" clears the last screen's charts and panels as the page
# starts again, so a run's minutes never show them, greyed, under the live verdict (the walk-through saw the old
# "already answers 28 of 33 with BM25" under a live "30 of 33 with meaning-based search").
rest = st.empty()  # not ".container()" yet: a new container in its place would keep the old one's elements
if up_to_date:  # say so, not seem to ignore the click
    right.success(f"Already up to date: these results are for {'these files' if document.files else 'this file'}, "
                  "these questions and these settings. Change one of them to run again.")
if running_now:
    run(settings)
if st.session_state.get(RUN_STOPPED):
    shown = st.session_state[RESULT]
    if shown is not None and shown.pending and st.session_state[RESULT_STAMP] == current_stamp(settings):
        running.warning("You stopped the run. What had finished is kept below, labelled partial; it is not saved to "
                   "the history. Press **Run the questions** to compute the rest.")
    else:
        running.warning("You stopped the run. Nothing of it was kept or saved to the history; your questions and "
                   "settings are as they were.")

body = top.container()  # the verdict and the to-do list, one block: a run's live verdict replaces it whole
with body:
    # Never an old result as the current one: recomputed when quick (or already known), else marked out of date.
    quick = (not uses_model(settings) and not st.session_state.get(RUN_STOPPED)
             and (guess is None or not guess.slow))
    result = result_or_notice("results", button=False, auto=quick)
    if st.session_state[RESULT_ERROR] and st.session_state[RESULT_ERROR_STAMP] == current_stamp(settings):
        st.error(f"The run stopped: {escape_markdown(st.session_state[RESULT_ERROR])} "
                 "Your questions and settings are kept.")
    if result is None:
        st.info("Press **Run the questions** to grade them.")
        st.stop()
    st.markdown(result_caption())


@st.cache_data(show_spinner="Checking the file…", max_entries=8)
def checkup(content: str, sheet: str | None, name_column: str | None, files: tuple, questions: tuple[tuple, ...],
            _document, failed: tuple[int, ...] = ()):
    """The check-up of the file the result was computed from (``_document``, keyed by its content hash,
    sheet and name column, and a knowledge base's files' own: ``Stamp.files``), with the run's questions, so
    each shared line names the questions it answers (those not clean under the recommended setup, ``failed``,
    first).
    Never the file loaded now: an out-of-date result's to-do list must be about its own file."""
    return todo_checkup(_document, [Question(q, s, a, k, row) for q, s, a, k, row in questions], failed)


with body:
    fresh = st.session_state.pop("run_fresh", False)
    # The whole run's time; a stopped run's until Stop (never the finished part's alone: "0.7 s" of a 13 s run).
    st.caption(staged_view.time_caption(result, stopped=bool(st.session_state.get(RUN_STOPPED)), fresh=fresh,
                                        stopped_after=st.session_state.get(RUN_STOPPED_AFTER),
                                        went_on=st.session_state.get(RUN_WENT_ON)))
    # The stamp hashes the file's bytes: made once here, for both uses.
    now = current_stamp(settings) if result.pending else None
    earlier = complete_with_other_settings(now) if now is not None else None
    if earlier is not None:  # a changed setting (or a stopped run of it) hid the complete result: it is kept
        changed = settings_changed(now, earlier)  # the settings panel's own words
        one = len(changed) == 1
        st.caption(f"Your complete run of this file and these questions is kept; it had "
                   f"{'a different setting' if one else 'different settings'} for {join_names(changed)}. Set "
                   f"{'it' if one else 'them'} back to see it again, or press **Run the questions** for these.")
    for bad in result.bad_questions:
        st.warning(f"Row {bad.question.row} left out ({escape_markdown(bad.question.question)}): {escape_markdown(bad.reason)}.")

    asked = tuple((q.question.question, q.question.expected_source, q.question.expected_answer, q.question.kind,
                   q.question.row) for q in result.questions)
    made_from = st.session_state[RESULT_STAMP]
    # The verdict first: the to-do's trials on copies take seconds, a minute with the model (a walk saw it gone 25 s).
    verdict = assess(result, "app")
    if result.pending:
        st.warning(staged_view.pending_sentence(result, running=False,
                                                stopped=bool(st.session_state.get(RUN_STOPPED))))
    BOXES = {READY: st.success, NEEDS_WORK: st.warning, NOT_READY: st.error, LOOKS_READY: st.info}
    # A provisional verdict (word search's alone, or a stopped run's) is never a green "Ready": its box is neutral.
    (st.info if result.pending else BOXES.get(verdict.status, st.info))(
        f"**{verdict.status}** — {escape_markdown(result.document.name)}: {escape_markdown(verdict.reason)}"
        + "".join(f"  \n**{escape_markdown(condition)}**" for condition in verdict.conditions)
    )
    with st.expander("How the status is set"):  # folded: on a phone the rule filled a screen
        st.caption("\n".join(f"- {step}" for step in RULE_STEPS))  # short steps, not one long sentence
    if verdict.refusal:  # its own measured line, never folded into the status
        st.markdown(escape_markdown(verdict.refusal))  # it starts "Refusing, judged …": no heading word before it
    if verdict.refusal_test:
        with st.expander(f"The test for the bot's instructions: {len(verdict.refusal_test)} questions it should hand "
                         "to a person, with the pieces it would be handed"):
            for result_ in verdict.refusal_test:
                st.markdown(f"**Row {result_.question.row}: {escape_markdown(result_.question.question)}**")
                for chunk in handed_pieces(result, result_):
                    st.markdown(f"- *{escape_markdown(citation(result.document, chunk))}*: "
                                f"{escape_markdown(chunk.text[:300])}{'…' if len(chunk.text) > 300 else ''}")
    if verdict.recommendation:
        st.markdown(f"**{escape_markdown(verdict.recommendation)}** {escape_markdown(verdict.versus_baseline)}",
                    help=f"{verdict.tie_rule} Ids: {setup_id(verdict.recommended)}.")
    for caveat in caveats(verdict, result):
        st.markdown(f"⚠ {escape_markdown(caveat)}")
    if result.document.files and verdict.recommended is not None:  # a knowledge base: a line per file
        base_panels.file_lines_panel(result, verdict.recommended)

    with st.spinner("Trying each change of the to-do list on a copy of your file…"):
        advice = advise(result, lambda verdict: checkup(made_from.content, made_from.sheet, made_from.name_column,
                                                        made_from.files, asked, result.document,
                                                        tuple(not_clean(verdict.recommended))))
    if verdict.recommended is not None:
        todo = advice.advised
        st.subheader("What to change in your files" if result.document.files else "What to change in your file")
        across = advice.across  # a knowledge base's, naming both files
        st.write(escape_markdown(todo_heading(advice)))
        if todo:
            st.caption(todo_order_note(result.document.kind, result.document.files))
        if fix_sentence(advice, "app"):
            st.markdown(f"**{escape_markdown(fix_sentence(advice, 'app'))}**")

        def show(number: int | None, item) -> None:
            where = f" *Where:* {escape_markdown(item.where)}." if item.where else ""
            head = f"{number}. " if number is not None else ""
            st.markdown(f"**{head}{escape_markdown(item.edit)}** {escape_markdown(item.why)}{where} "
                        f"— *{escape_markdown(item.effect)}*")

        # The first three, the most questions fixed; the rest folded: on a phone eight filled three screens.
        for number, item in enumerate(todo[:3], start=1):
            show(number, item)
        if len(todo) > 3:
            with st.expander(f"{len(todo) - 3} more change{'s' if len(todo) > 4 else ''}"):
                for number, item in enumerate(todo[3:], start=4):
                    show(number, item)
        if advice.optional:  # collapsed and not counted: no measured gain
            with st.expander(folded_heading(advice)):  # no user text in it
                for item in advice.optional:
                    show(None, item)
        if advice.not_advised:
            with st.expander(f"Not advised: {len(advice.not_advised)} change"
                             f"{'s' if len(advice.not_advised) > 1 else ''} that made a question worse when tried"):
                for item in advice.not_advised:
                    show(None, item)
        base_panels.across_todo(across, len(todo) + 1)

def details() -> None:
    """The bot-ready file, the charts, the history and the drill-down, below the verdict and the to-do list."""
    handover_panels.rewrite_panel(result, verdict, advice.fix)
    if verdict.recommended is not None:  # the winning pieces, for whoever loads them into the bot
        st.markdown("**The pieces of the recommended cut**, for the bot's pipeline")
        strategy = verdict.recommended.strategy
        handover_panels.pieces_download(result.document, result.chunks[strategy], strategy, result.settings.size,
                                        key="results_pieces")

    retrievers = list(dict.fromkeys(run.retriever for run in result.runs))
    rerankers = list(dict.fromkeys(run.reranker for run in result.runs))
    shown_retriever, shown_reranker = shown_setup(result.runs)  # the recommended setup's, as the headline's
    st.subheader("How each way of cutting did")
    with st.expander("What the charts show"):  # folded: on a phone these paragraphs filled a screen
        st.write(GLOSSARY["retrieval"] + " " + GLOSSARY["rerank"])
        st.write(GLOSSARY["grades"])
    retriever = (st.selectbox("Show the search", retrievers, index=retrievers.index(shown_retriever),
                              key=result_key("show_retriever"), format_func=retriever_name)
                 if len(retrievers) > 1 else retrievers[0])
    layout.chart(grades_bars(result, retriever), key="chart_grades")
    if len(rerankers) > 1:  # the bars show every re-check side by side; the charts below show one
        reranker = st.selectbox("Show the re-check (for the charts and questions below)", rerankers,
                                index=rerankers.index(shown_reranker), key=result_key("show_reranker"),
                                format_func=reranker_name)
    else:
        reranker = rerankers[0]
    st.caption(GLOSSARY["hit rate"])
    layout.chart(hit_curve(result, retriever, reranker), key="chart_hits")
    st.markdown("**Every question under every strategy** (hover for the reason)")
    layout.chart(grade_grid(result, retriever, reranker), key="chart_grid")

    st.subheader("This document's history")
    try:
        series = comparable_runs(History().series(result.document.name), st.session_state[RESULT_STAMP].questions,
                                 asdict(result.settings))
    except WorkbenchError as error:  # a history that cannot be read must not hide the results
        series = []
        st.warning(f"The run history cannot be read: {escape_markdown(error)}")
    if len({row["run"] for row in series}) > 1:
        layout.chart(history_chart(series, retriever, reranker), key="chart_history")
        st.caption("Each point is a saved run of this file with these questions and settings; a red ring marks a run "
                   "where the score dropped, a dotted line a new version of the file.")
    else:
        st.caption("Run the questions again after editing your file to see the score move here.")

    st.subheader("Drill into a question")
    runs = result.runs_under(retriever, reranker)
    labels = [f"{q.question.row}. {isolated(q.question.question)[0]}" for q in runs[0].per_question]  # "?" at its end
    if not labels:
        st.stop()
    picked = st.selectbox("Question", range(len(labels)), format_func=lambda i: labels[i],
                          key=result_key("drill_question"))  # another file's question must not stay picked
    SHOWN_PIECES = 3  # of a question's ranking in the drill-down: the grade is about the first, the rest for context
    question = runs[0].per_question[picked].question
    resolved = next((q for q in result.questions if q.question is question), None)
    answer_spans = resolved.answer_spans if resolved is not None else None  # the expected product's line only
    st.write(expected_line(question.expected_source, question.expected_answer))
    st.html(STYLE)
    if result.settings.top_k > SHOWN_PIECES:  # once, not in each cut's box: 3 under "k = 5" read as what the bot got
        st.caption(f"Each way of cutting shows the first {SHOWN_PIECES} of the {result.settings.top_k} pieces handed to the "
                   "bot; the grade is about the first.")
    for run_ in runs:
        answer = run_.per_question[picked]
        chunks = result.chunks[run_.strategy]
        grade_text = GRADE_LABELS[answer.grade]
        why = REASON_WORDS.get(answer.reason, "")
        if answer.reason == "ranked":
            why = f"a piece holds the answer, but at rank {answer.rank}"
        why = base_panels.decoy_from(result, run_, answer) or why  # in a knowledge base: which file the decoy is from
        with st.expander(f"{strategy_name(run_.strategy, result.settings.size)}: {grade_text}" + (f" — {why}" if why else ""),
                         expanded=answer.grade != "clean"):
            scale = score_words(run_.retriever, run_.reranker)
            st.caption(f"{GRADE_WORDS[answer.grade][:1].upper()}{GRADE_WORDS[answer.grade][1:]}. "
                       f"The score below is {scale}.")
            for rank, (index, score) in enumerate(answer.ranking[:SHOWN_PIECES], start=1):
                chunk = chunks[index]
                # Equal scores look like a choice the search made; say how the tie was broken.
                tie = f" · the same score as #{rank - 1}: the piece earlier in your file goes first" if (
                    rank > 1 and score == answer.ranking[rank - 2][1]) else ""
                st.markdown(f"**#{rank}** · score {score:.3f} · from *{escape_markdown(citation(result.document, chunk, isolate=True))}*"
                            + tie)
                st.html(chunk_with_answer(chunk, question.expected_answer, answer_spans))
                named = labelled_lines(result.document, chunk, resolved.section_id if resolved is not None else None)
                if named:  # why a piece holding other products' lines is not "mixed", nor their words a decoy
                    st.caption(f"{plural(len(named), 'line')} here {verb(len(named), 'names its', 'name their')} own product or "
                               f"section, so a bot knows whose {verb(len(named), 'it is: it does', 'they are: they do')} not "
                               "count towards “mixed”, e.g. “" + escape_markdown(named[0][:80]) + "”.")


with rest.container():  # drawn into the placeholder made before any run: see ``rest`` above
    details()
