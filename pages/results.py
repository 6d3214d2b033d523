"""Results page: run the questions through every configuration, chart the grades, drill into any question."""

import time

import streamlit as st

from ui import state
from workbench.charts import GRADE_LABELS, grade_grid, grades_bars, history_chart, hit_curve
from workbench.evaluate import needs_model
from workbench.explain import GLOSSARY, strategy_label, verdict
from workbench.grading import GRADE_WORDS, REASON_WORDS
from workbench.highlight import STYLE, chunk_with_answer, citation, escape_markdown
from workbench.history import History
from workbench.model import Settings, WorkbenchError
from workbench.questions import questions_to_csv
from workbench.rerankers import RERANKERS
from workbench.retrievers import RETRIEVERS
from workbench.strategies import STRATEGIES

st.title("Would the bot answer correctly?")
st.write(GLOSSARY["retrieval"] + " " + GLOSSARY["rerank"])
st.write(GLOSSARY["grades"])
document = state.require_document()

with st.expander("Settings", expanded=st.session_state[state.RESULT] is None):
    st.multiselect("Strategies", STRATEGIES.ids(), key=state.bind(state.RUN_STRATEGIES), on_change=state.store,
                   args=(state.RUN_STRATEGIES,), format_func=lambda id: f"{id} — {strategy_label(id)}")
    left, right = st.columns(2)
    left.multiselect("Search (retrievers)", RETRIEVERS.ids(), key=state.bind(state.RUN_RETRIEVERS),
                     on_change=state.store, args=(state.RUN_RETRIEVERS,),
                     format_func=lambda id: f"{id} — {RETRIEVERS.get(id).label}",
                     help="dense and hybrid use a small language model that loads once (a few seconds).")
    right.multiselect("Second look (rerankers)", RERANKERS.ids(), key=state.bind(state.RUN_RERANKERS),
                      on_change=state.store, args=(state.RUN_RERANKERS,),
                      format_func=lambda id: f"{id} — {RERANKERS.get(id).label}",
                      help="'none' keeps the search's order, so you see results without and with reranking.")
    if "cross-encoder" in st.session_state[state.RUN_RERANKERS]:
        st.text_input("Folder of your cross-encoder model", key=state.bind(state.RERANKER_MODEL),
                      on_change=state.store, args=(state.RERANKER_MODEL,))
    left, right = st.columns(2)
    left.slider("k: pieces handed to the bot", 1, 10, key=state.bind(state.TOP_K), on_change=state.store,
                args=(state.TOP_K,))
    right.number_input("Refuse below this score (0: never refuse)", min_value=0.0, step=0.5,
                       key=state.bind(state.THRESHOLD), on_change=state.store, args=(state.THRESHOLD,),
                       help="When the best piece scores below this, the bot hands the question to a person.",
                       disabled=st.session_state[state.THRESHOLD_AUTO])
    st.checkbox("Let the questions pick the threshold (see Compare & report)", key=state.bind(state.THRESHOLD_AUTO),
                on_change=state.store, args=(state.THRESHOLD_AUTO,))

questions = state.frame_questions(st.session_state[state.QUESTIONS])
settings = Settings(
    strategies=list(st.session_state[state.RUN_STRATEGIES]),
    retrievers=list(st.session_state[state.RUN_RETRIEVERS]),
    rerankers=list(st.session_state[state.RUN_RERANKERS]),
    top_k=int(st.session_state[state.TOP_K]),
    size=int(st.session_state[state.SIZE]),
    overlap=min(int(st.session_state[state.OVERLAP]), int(st.session_state[state.SIZE]) // 2),
    threshold="auto" if st.session_state[state.THRESHOLD_AUTO] else (float(st.session_state[state.THRESHOLD]) or None),
    reranker_model=st.session_state[state.RERANKER_MODEL] or None,
)


def run() -> None:
    bar = st.progress(0.0, text="Starting…")
    started = time.perf_counter()
    try:
        result = state.run_evaluation(
            *state.document_args(), questions_to_csv(questions), settings,
            progress=lambda share, text: bar.progress(min(share, 1.0), text=text),
        )
    except WorkbenchError as error:
        st.session_state[state.RESULT_ERROR] = str(error)
        bar.empty()
        return
    bar.empty()
    st.session_state[state.RESULT] = result
    st.session_state[state.RESULT_ERROR] = None
    st.session_state["run_seconds"] = time.perf_counter() - started


if st.button("Run the questions", type="primary", key="run"):
    run()
elif st.session_state[state.RESULT] is None and not needs_model(settings) and st.session_state[state.RESULT_ERROR] is None:
    run()  # the cheap default settings run at once, so the verdict is on screen on the first visit

if st.session_state[state.RESULT_ERROR]:
    st.error(f"The run stopped: {escape_markdown(st.session_state[state.RESULT_ERROR])} Your questions and settings are kept.")
result = st.session_state[state.RESULT]
if result is None:
    st.info("Press **Run the questions** to grade them.")
    st.stop()

st.caption(f"Last run took {st.session_state.get('run_seconds', 0):.2f} s.")
for bad in result.bad_questions:
    st.warning(f"Row {bad.question.row} left out ({escape_markdown(bad.question.question)}): {escape_markdown(bad.reason)}.")
retrievers = list(dict.fromkeys(run.retriever for run in result.runs))
rerankers = list(dict.fromkeys(run.reranker for run in result.runs))
left, right = st.columns(2)
retriever = left.selectbox("Show the search", retrievers, key="show_retriever") if len(retrievers) > 1 else retrievers[0]
reranker = right.selectbox("Show the second look", rerankers, key="show_reranker") if len(rerankers) > 1 else rerankers[0]

st.subheader(verdict(result, retriever, reranker))
st.plotly_chart(grades_bars(result, retriever), key="chart_grades")
st.caption(GLOSSARY["hit rate"])
st.plotly_chart(hit_curve(result, retriever, reranker), key="chart_hits")
st.markdown("**Every question under every strategy** (hover for the reason)")
st.plotly_chart(grade_grid(result, retriever, reranker), key="chart_grid")

st.subheader("This document's history")
try:
    series = History().series(result.document.name)
except WorkbenchError as error:  # a history that cannot be read must not hide the results
    series = []
    st.warning(f"The run history cannot be read: {escape_markdown(error)}")
if len({row["run"] for row in series}) > 1:
    st.plotly_chart(history_chart(series, retriever, reranker), key="chart_history")
    st.caption("Each point is a saved run of this document; a red ring marks a run where the score dropped.")
else:
    st.caption("Run the questions again after editing your file to see the score move here.")

st.subheader("Drill into a question")
runs = [r for r in result.runs if r.retriever == retriever and r.reranker == reranker]
labels = [f"{q.question.row}. {q.question.question}" for q in runs[0].per_question]
if not labels:
    st.stop()
picked = st.selectbox("Question", range(len(labels)), format_func=lambda i: labels[i], key="drill_question")
question = runs[0].per_question[picked].question
st.write(f"Expected: **{escape_markdown(question.expected_source) or '(nothing: the bot should refuse)'}**"
         + (f" — “{escape_markdown(question.expected_answer)}”" if question.expected_answer else ""))
st.html(STYLE)
for run_ in runs:
    answer = run_.per_question[picked]
    chunks = result.chunks[run_.strategy]
    grade_text = GRADE_LABELS[answer.grade]
    why = REASON_WORDS.get(answer.reason, "")
    if answer.reason == "ranked":
        why = f"a piece holds the answer, but at rank {answer.rank}"
    with st.expander(f"{strategy_label(run_.strategy)}: {grade_text}" + (f" — {why}" if why else ""),
                     expanded=answer.grade != "clean"):
        st.caption(GRADE_WORDS[answer.grade])
        for rank, (index, score) in enumerate(answer.ranking[:3], start=1):
            chunk = chunks[index]
            st.markdown(f"**#{rank}** · score {score:.3f} · from *{escape_markdown(citation(result.document, chunk))}*")
            st.html(chunk_with_answer(chunk, question.expected_answer))
