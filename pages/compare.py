"""Compare & report page: is a difference real, when should the bot refuse, and what to hand over."""

import pandas as pd
import streamlit as st

from ui import layout
from ui.keys import THRESHOLD_AUTO
from ui.running import result_caption, result_key, result_or_notice
from ui.saved_work import bind, store
from ui.session import ensure_app
from workbench.advise.findings import chance_sentence, fold_identical, shown_setup
from workbench.advise.verdict import BASELINE, recommended
from workbench.core.exports import spreadsheet_bytes
from workbench.cut import STRATEGIES
from workbench.grade.refusal import calibrate
from workbench.grade.stats import compare
from workbench.output.charts import budget_curve
from workbench.output.explain import COLUMNS, column_name
from workbench.output.handover import report_html, results_xlsx
from workbench.output.highlight import escape_markdown
from workbench.output.report import download_stem, run_record, to_csv
from workbench.run.names import lower_first, reranker_name, retriever_name, setup_id, setup_name, strategy_name

KEY_FIGURES = ("clean", "mixed", "missed", "refused", "false_answers")  # every question in one of them: a row adds up
ALL_FIGURES = ("clean", "mixed", "missed", "refused", "false_answers", "refusal_accuracy", "hit_rate", "mrr", "ndcg",
               "context_chars", "threshold")
FORMATS = {"refusal_accuracy": "%.2f", "hit_rate": "%.2f", "mrr": "%.2f", "ndcg": "%.2f", "context_chars": "%.0f",
           "threshold": "%.3f"}

ensure_app("pages/compare.py")  # opened by its address before app.py ever ran: go through app.py
st.title("Compare, refuse, report")
result = result_or_notice("compare")
if result is None:
    st.info("Run the questions on the **Results** page first.")
    st.stop()
st.markdown(result_caption())

size = result.settings.size
with st.expander("What the controls show (cuts made at random or not at all, to compare against)"):
    for control in (id for id in STRATEGIES.ids() if STRATEGIES.get(id).control):
        st.write(f"**{strategy_name(control)}** — {STRATEGIES.get(control).explanation}")

st.subheader("Every configuration")
# A phone shows about 350 pixels: the key figures in a table whose text wraps (st.table), the setup in one column;
# every figure, under its plain name with a help text (explain.COLUMNS), in a scrollable table below.
key_rows, rows = [], []
for group in fold_identical(result.runs):  # identical rankings and grades: one finding, one row naming them
    run = group[0]
    record = run_record(run, result)
    search = " = ".join(retriever_name(r.retriever) for r in group)
    searches = " = ".join(lower_first(retriever_name(r.retriever)) for r in group)  # mid-sentence, each name
    key_rows.append({"setup": setup_name(run, size).replace(lower_first(retriever_name(run.retriever)), searches, 1),
                     **{column_name(k): record[k] for k in KEY_FIGURES}})
    rows.append({"way of cutting": strategy_name(run.strategy, size), "search": search,
                 "re-check": reranker_name(run.reranker)} | {k: record[k] for k in ALL_FIGURES}
                | {"ids": "; ".join(setup_id(r) for r in group)})
st.table(pd.DataFrame(key_rows), hide_index=True)
number = st.column_config.NumberColumn
with st.expander("Every figure of each configuration"):
    st.dataframe(pd.DataFrame(rows), hide_index=True, column_config={
        id: number(COLUMNS[id][0], help=COLUMNS[id][1], format=FORMATS.get(id)) for id in ALL_FIGURES
    } | {"ids": st.column_config.TextColumn(help="The names the command line and files use.")})
if any(" = " in row["search"] for row in rows):
    st.caption("A row naming several searches (A = B) stands for setups that ranked and graded every question "
               "identically, for example because the re-check re-scored every piece. Their confidence scores can "
               "still differ, and with them the refusal threshold fitted to each (under “When should the bot refuse?”).")
warning = chance_sentence(result.runs, result.settings.size)
if warning:
    st.warning(warning)

st.subheader("Is the difference real?")
st.write(
    "With a few dozen questions, a difference of two or three answers can be luck. This compares two "
    "configurations question by question: how often would a difference this big come from luck? (For a "
    "statistician: a paired bootstrap interval, which re-draws your questions thousands of times to see how much "
    "the difference moves, and McNemar's exact test, which looks only at the questions the two answer "
    "differently.)"
)
labels = {f"{run.strategy} / {run.retriever} / {run.reranker}": run for run in result.runs}
keys = list(labels)
# By default, the recommended setup against 300-character windows under its search and re-check: the pair
# the headline's "N more clean answers" is about (the weakest cut when no such windows ran).
retriever, reranker = shown_setup(result.runs)
same = result.runs_under(retriever, reranker)
best = recommended(result.runs) or max(same, key=lambda run: run.counts["clean"])
against = next((r for r in result.runs_under(best.retriever, best.reranker) if r.strategy == BASELINE and r is not best),
               None) or min(same, key=lambda run: run.counts["clean"])
weakest = keys.index(next(k for k, r in labels.items() if r is against))
strongest = keys.index(next(k for k, r in labels.items() if r is best))
left, right = st.columns(2)
first = left.selectbox("Compare", keys, index=weakest, key=result_key("compare_a"),
                       format_func=lambda k: setup_name(labels[k], size))
second = right.selectbox("with", keys, index=strongest, key=result_key("compare_b"),
                         format_func=lambda k: setup_name(labels[k], size))
if first != second:
    names = (setup_name(labels[first], size), setup_name(labels[second], size))
    # Each line says what it counts first: a clean-answer win beside "not distinguishable" on finding the answer
    # read as a contradiction when the two lines named their measure only mid-sentence.
    for metric, measure in (("clean", "Clean answers"), ("hit", "The answer anywhere in the pieces handed over")):
        st.write(f"• **{measure}:** "
                 + escape_markdown(compare(labels[first], labels[second], metric, names=names).sentence()))
    st.caption("“95 % interval”: the range the real difference most likely lies in, judging from these questions. "
               "“p”: how often a difference at least this big would turn up by luck if both were equally good; "
               "below 0.05, luck is an unlikely explanation.")

st.subheader("When should the bot refuse?")
st.write(
    "A bot can hand a question to a person when it is not sure your file answers it: its confidence (0 to 1) "
    "weighs whether the question's rare words appear in your file and in the piece it found, and how well that "
    "piece matched. A threshold is fitted on your questions; to keep the figures honest, each question is judged "
    "by a threshold fitted on the *other* questions (statisticians call this leave-one-out), so nothing below was "
    "measured on a question the fit had already seen."
)
calibrations = [(run, run.calibration or calibrate(run.per_question)) for run in result.runs]
if calibrations and not calibrations[0][1].enough:
    st.info(calibrations[0][1].sentence)
else:
    st.table(pd.DataFrame([
        {"setup": setup_name(run, size),
         "refuse below": "never" if best.threshold is None else f"{best.threshold:.3f}",
         "cannot answer: refused": f"{best.refused} of {best.unanswerable}",
         "can answer: refused": f"{best.false_refusals} of {best.answerable}"}
        for run, best in calibrations
    ]), hide_index=True)
    st.caption("“Refuse below”: the threshold fitted on all your questions. “Cannot answer: refused”: of the "
               "questions your file cannot answer, how many the bot handed to a person; “can answer: refused”: of "
               "those it can answer, how many it wrongly handed over. Both count each question judged by a threshold "
               "fitted on the other questions.")
    example = labels[second]
    st.write(f"For example, **{escape_markdown(setup_name(example, size))}**: "
             f"{(example.calibration or calibrate(example.per_question)).sentence}")
st.checkbox(
    "Use these thresholds on the next run", key=bind(THRESHOLD_AUTO), on_change=store,
    args=(THRESHOLD_AUTO,),
)

st.subheader("For the same amount of text handed over")
st.write(
    "A way of cutting can find more answers merely by handing the bot more text (longer pieces, or more of "
    "them). So here each way is drawn against the characters it hands the bot per question: up, how often the "
    "answer is among the pieces handed over (1 = every question; the hit rate), for 1 to 10 pieces (k); a line "
    "higher at the same characters finds more for the same text. "
    f"({lower_first(retriever_name(retriever))}, {lower_first(reranker_name(reranker))}.)"
)
layout.chart(budget_curve(result, retriever, reranker), key="chart_budget")

st.subheader("Hand it over")
stem = download_stem(result.document)  # the file's name and what each holds: "spree_sample_products-answers.csv"
a, b, c = st.columns(3)
# Built when pressed, not on every open of the page: on a 200-row catalog the report took about 1 s and the
# workbook 1.1 s each time (bench/page_load.py). A download does not rerun the page (on_click="ignore"): the rerun
# redrew every button with a new file behind it, so a second download pressed while the page redrew got nothing.
a.download_button("Report (HTML)", lambda: report_html(result), file_name=f"{stem}-report.html", mime="text/html",
                  on_click="ignore")
b.download_button("Answers (CSV)", lambda: spreadsheet_bytes(to_csv(result)), file_name=f"{stem}-answers.csv", mime="text/csv",
                  on_click="ignore")
c.download_button(
    "Answers (Excel)", lambda: results_xlsx(result), file_name=f"{stem}-answers.xlsx",
    mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", on_click="ignore",
)
