"""What a consultant hands over: one self-contained HTML report, and the results as an Excel file."""

from __future__ import annotations

import datetime
import html
import io
from collections import Counter

from workbench.advise.advice import METHOD_NOTE, advise, fix_sentence, folded_heading, todo_heading
from workbench.advise.findings import shown_setup
from workbench.advise.verdict import LOOKS_READY, NEEDS_WORK, NOT_READY, READY, handed_pieces
from workbench.core.exports import xlsx_cell
from workbench.core.results import Evaluation
from workbench.core.wording import parts_named, todo_order_note
from workbench.grade.grading import why_missed
from workbench.output.explain import COLUMNS, PLAIN_COLUMNS, REPORT_HIT_RATE, column_name
from workbench.output.highlight import STYLE, citation, cut_view
from workbench.output.report import (
    NAME_COLUMNS,
    document_summary,
    piece_sections,
    run_record,
    shown_names,
    why_words,
)
from workbench.output.report_charts import CHART_STYLE, grade_bars, grade_grid, hit_curve
from workbench.read.textio import encoding_words
from workbench.run.names import lower_first, reading_words, reranker_name, retriever_name, strategy_name
from workbench.search.reads import needs_encoder

REPORT_STYLE = """
<style>
body { font-family: system-ui, -apple-system, Segoe UI, Roboto, sans-serif; margin: 2rem auto; max-width: 1200px;
       color: #1f2937; padding: 0 1rem; overflow-wrap: break-word; }
table { display: block; overflow-x: auto; max-width: 100%; }  /* a wide table scrolls in its own box on a phone */
h1 { font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #e5e7eb; }
.verdict { font-size: 1.2rem; padding: .8rem 1rem; border-radius: 8px; border: 2px solid; }
.status-ready { background: #f0fdf4; border-color: #16a34a; } .status-needs { background: #fffbeb; border-color: #f59e0b; }
.status-not { background: #fef2f2; border-color: #dc2626; } .status-none { background: #f3f4f6; border-color: #9ca3af; }
.status-looks { background: #eff6ff; border-color: #3b82f6; }
.meta { color: #4b5563; } .rule { color: #4b5563; font-size: .85rem; } ol.todo li { margin-bottom: .6rem; }
.affects { color: #4b5563; font-style: italic; }
@media print { h2 { break-after: avoid; } }
table { border-collapse: collapse; width: 100%; font-size: .85rem; }
th, td { border: 1px solid #e5e7eb; padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: #f9fafb; }
.row { display: flex; gap: 12px; } .row > div { flex: 1; min-width: 0; }
.clean { color: #15803d; } .mixed { color: #b45309; } .missed, .false-answer { color: #b91c1c; } .refused { color: #4b5563; }
/* On a phone the worst questions' cuts go one under another, each the page's width, and every answer becomes a
   block of its own, each value named, where a six-column table scrolled sideways. */
@media screen and (max-width: 640px) {
  .row { flex-direction: column; } .row > div { flex: none; }
  table.answers, table.answers tbody, table.answers tr, table.answers td { display: block; }
  table.answers { overflow: visible; }
  table.answers tr.head { display: none; }
  table.answers tr { border: 1px solid #e5e7eb; border-radius: 6px; margin: 0 0 .6rem; padding: 4px 8px; }
  table.answers td { border: none; padding: 1px 0; }
  table.answers td::before { content: attr(data-label) ": "; font-weight: 600; color: #374151; }
}
</style>
"""


def worst_questions(evaluation: Evaluation, retriever: str, reranker: str, count: int = 3) -> list[int]:
    """Indices of the questions that most strategies fail to answer cleanly."""
    runs = evaluation.runs_under(retriever, reranker)
    failures = Counter()
    for run in runs:
        for index, result in enumerate(run.per_question):
            if result.answerable and result.grade != "clean":
                failures[index] += 1
    return [index for index, _ in failures.most_common(count)]


# The "Every answer" table's columns, as its header names them.
ANSWER_COLUMNS = {"row": "#", "question": "Question", "cut": "Way of cutting", "grade": "Grade",
                  "rank": "Rank of the answer", "top": "Top piece from"}

STATUS_CLASS = {READY: "status-ready", NEEDS_WORK: "status-needs", NOT_READY: "status-not", LOOKS_READY: "status-looks"}


def _todo_items(items) -> str:
    return "".join(
        f"<li><b>{html.escape(item.edit)}</b> {html.escape(item.why)}{f' <i>Where:</i> {html.escape(item.where)}.' if item.where else ''} "
        f"<span class='affects'>— {html.escape(item.effect)}</span></li>" for item in items)


def _todo_parts(advice) -> list[str]:
    """The advised items, each with what trying it on a copy of the file measured; what measured no gain folded; the
    edits that made a question worse in an appendix, each with the question; how the items were measured."""
    parts = [f"<p>{html.escape(todo_heading(advice))}</p>"]
    if advice.advised:
        parts.append(f"<ol class='todo'>{_todo_items(advice.advised)}</ol>")
    if fix_sentence(advice, "report"):
        parts.append(f"<p>{html.escape(fix_sentence(advice, 'report'))}</p>")
    if advice.optional:
        parts.append(f"<details><summary>{html.escape(folded_heading(advice))}"
                     f"</summary><ol class='todo'>{_todo_items(advice.optional)}</ol></details>")
    if advice.not_advised:
        questions = {n: q.question for n, q in _numbered_questions(advice)}
        rows = "".join(
            f"<li><b>{html.escape(item.edit)}</b> — made worse: "
            + "; ".join(f"question {n} (“{html.escape(questions.get(n, ''))}”)" for n in item.measured.worse)
            + "</li>" for item in advice.not_advised)
        parts.append("<h3>Appendix: changes not advised</h3><p>Each was tried on a copy of your file and made a "
                     f"question worse, so it is left out of the list above.</p><ol>{rows}</ol>")
    parts.append(f"<p class='rule'>{html.escape(METHOD_NOTE)}</p>")
    return parts


def _numbered_questions(advice):
    run = advice.verdict.recommended
    return [((r.question.row or i + 1), r.question) for i, r in enumerate(run.per_question)] if run else []


def _base_parts(evaluation, best, across) -> list[str]:
    """A knowledge base's part of the report: a line per file, answers from another file, the check-up across files
    (``across``: the advice's to-do across them)."""
    from workbench.advise.crossfile import file_lines, other_file_answers

    esc = html.escape
    files = evaluation.document.files
    parts = [f"<h2>The knowledge base, file by file ({len(files)} files)</h2><ul>",
             *(f"<li>{esc(line)}</li>" for line in file_lines(evaluation, best)), "</ul>"]
    crossed = other_file_answers(evaluation, best)
    if crossed:
        parts += ["<h3>Answered from another file</h3><ul>", *(f"<li>{esc(line)}</li>" for line in crossed), "</ul>"]
    if across:
        parts.append("<h3>What to change across the files</h3><ol class='todo'>")
        for item in across:
            parts.append(f"<li><b>{esc(item.edit)}</b> {esc(item.why)} <span class='affects'>— {esc(item.affects)}"
                         "</span></li>")
        parts.append("</ol>")
    return parts


def report_html(evaluation: Evaluation, today: datetime.date | None = None) -> str:
    """One HTML file that opens anywhere with no network: verdict and to-do list first, then charts and answers."""
    document = evaluation.document
    summary = document_summary(evaluation)
    esc = html.escape
    advice = advise(evaluation, reader="report")  # read by someone without the app
    verdict = advice.verdict
    best = verdict.recommended
    retriever, reranker = shown_setup(evaluation.runs)
    size = evaluation.settings.size
    today = today or datetime.date.today()
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>Chunking Workbench report: {esc(document.name)}</title>",
        REPORT_STYLE,
        CHART_STYLE,
        STYLE,
        "</head><body>",
        f"<p class='meta'><b>{esc(document.name)}</b> · report of {today.isoformat()} · Chunking Workbench</p>",
        f"<h1>Is {esc(document.name)} ready for a chat bot?</h1>",
        f"<p class='verdict {STATUS_CLASS.get(verdict.status, 'status-none')}'><b>{esc(verdict.status)}</b> — "
        f"{esc(verdict.reason)}</p>",
        *(f"<p><b>{esc(condition)}</b></p>" for condition in verdict.conditions),
        f"<p class='rule'>{esc(verdict.rule)}</p>",
    ]
    if verdict.recommendation:
        parts.append(f"<p><b>{esc(verdict.recommendation)}</b> "
                     f"{esc(verdict.versus_baseline)}</p>")
        parts.append(f"<p class='rule'>{esc(verdict.tie_rule)}</p>")
    parts += [f"<p>⚠ {esc(caveat)}</p>" for caveat in advice.caveats]
    if verdict.refusal:
        parts.append(f"<h2>When the bot should refuse</h2><p>{esc(verdict.refusal)}</p>")
        if best.calibration is not None and best.calibration.enough:
            parts.append(f"<p class='rule'>{esc(best.calibration.sentence)}</p>")
    if verdict.refusal_test:
        parts.append("<h3>The test for the bot's instructions: it should hand each of these to a person</h3><ol>")
        for result in verdict.refusal_test:
            pieces = "".join(
                f"<li><i>{esc(citation(document, chunk, isolate=True))}</i>: {esc(chunk.text[:300])}{'…' if len(chunk.text) > 300 else ''}</li>"
                for chunk in handed_pieces(evaluation, result))
            parts.append(f"<li>Row {result.question.row}: <b>{esc(result.question.question)}</b> — the pieces the bot "
                         f"is handed:<ol>{pieces}</ol></li>")
        parts.append("</ol>")
    if best is not None:
        parts.append(f"<h2>What to change in your file{'s' if document.files else ''}</h2>")  # as Results says it
        parts.append(f"<p class='rule'>{esc(todo_order_note(document.kind, document.files))}</p>")
        parts += _todo_parts(advice)
        if document.files:
            parts += _base_parts(evaluation, best, advice.across)
    parts.append(
        f"<p>{summary['sections']:,} {parts_named(document, summary['sections'])}, {summary['facts']:,} facts, "
        f"{summary['characters']:,} "
        f"characters. Charts below: {esc(lower_first(retriever_name(retriever)))}, {esc(lower_first(reranker_name(reranker)))}.</p>"
    )
    parts.append(f"<p>{esc(reading_words(document, needs_encoder(evaluation.settings), evaluation.analyzer))}</p>")
    # Plain HTML and inline SVG, not plotly: its script, written inline to open offline, was 4.8 MB of a 5 MB file.
    parts += [
        "<h2>Clean, mixed and missed answers</h2>", grade_bars(evaluation, retriever),
        "<h2>How often the answer is among the pieces handed over</h2>", f"<p>{esc(REPORT_HIT_RATE)}</p>",
        hit_curve(evaluation, retriever, reranker),
        "<h2>Every question under every strategy</h2>", grade_grid(evaluation, retriever, reranker),
    ]

    runs = evaluation.runs_under(retriever, reranker)
    parts.append("<h2>Where it goes wrong: the worst questions, cut side by side</h2>")
    for index in worst_questions(evaluation, retriever, reranker):
        question = runs[0].per_question[index].question
        parts.append(
            f"<h3>{esc(question.question)}</h3><p>Expected in <b>{esc(question.expected_source)}</b>: "
            f"“{esc(question.expected_answer)}”</p><div class='row'>"
        )
        resolved = next(q for q in evaluation.questions if q.question is question)
        centre = resolved.answer_span or document.section(resolved.section_id).span
        window = (max(0, centre[0] - 350), min(len(document.text), centre[1] + 350))
        for run in runs[:4]:
            result = run.per_question[index]
            why = why_missed(result.reason)
            parts.append(
                f"<div><b>{esc(strategy_name(run.strategy, size))}</b>: "
                f"<span class='{result.grade}'>{esc(result.grade.replace('-', ' '))}"
                f"{esc(why)}</span>{cut_view(document, evaluation.chunks[run.strategy], window)}</div>"
            )
        parts.append("</div>")

    # Each cell names its column (data-label), which a phone shows before it, the header row hidden there.
    parts.append("<h2>Every answer, with where the top piece came from</h2><table class='answers'><tr class='head'>"
                 + "".join(f"<th>{label}</th>" for label in ANSWER_COLUMNS.values()) + "</tr>")
    label = {key: f" data-label='{esc(name if name != '#' else 'Row')}'" for key, name in ANSWER_COLUMNS.items()}
    for run in runs:
        chunks = evaluation.chunks[run.strategy]
        for result in run.per_question:
            top = chunks[result.ranking[0][0]] if result.ranking else None
            parts.append(
                f"<tr><td{label['row']}>{result.question.row or ''}</td>"
                f"<td{label['question']}>{esc(result.question.question)}</td>"
                f"<td{label['cut']}>{esc(strategy_name(run.strategy, size))}</td>"
                f"<td{label['grade']} class='{result.grade}'>{esc(result.grade.replace('-', ' '))}"
                f"{esc(why_missed(result.reason))}</td><td{label['rank']}>{result.rank or '—'}</td>"
                f"<td{label['top']}>{esc(citation(document, top, isolate=True)) if top else ''}</td></tr>"
            )
    parts.append("</table>")
    settings = evaluation.settings
    rows = [
        ("Document", f"{document.name} ({document.kind}), read as {encoding_words(document.encoding)}"),
        # Display names only: the reader has no app or command line the ids would mean something to.
        ("Ways of cutting", "; ".join(strategy_name(s, size) for s in settings.strategies)),
        ("Search", "; ".join(retriever_name(r) for r in settings.retrievers)),
        ("Re-check", "; ".join(reranker_name(r) for r in settings.rerankers)),
        ("Pieces handed to the bot (k)", str(settings.top_k)),
        ("Window size / overlap", f"{_characters(settings.size)} / {_characters(settings.overlap)}"),
        ("Refusal threshold", _threshold_words(settings.threshold)),
        ("Questions graded", str(len(evaluation.questions))),
        ("Questions left out", "; ".join(f"row {b.question.row}: {b.reason}" for b in evaluation.bad_questions) or "none"),
    ]
    parts.append("<h2>Settings used</h2><table>")
    parts += [f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows]
    parts.append("</table></body></html>")
    return "".join(parts)


def _characters(count: int | None) -> str:
    """A window's size or overlap: "120 characters", "none" for 0 (once shown as "default"), "default" unset."""
    return "default" if count is None else "none" if count == 0 else f"{count:,} characters"


def _threshold_words(threshold: float | str | None) -> str:
    if threshold == "auto":
        return ("fitted on your questions for each setup; each question's refusal judged by a line fitted on the "
                "other questions, so the figures are not flattered")
    return "none" if threshold is None else f"refuse below a confidence of {threshold:g}"


WIDEST = 60  # characters: a longer cell wraps in a column this wide
HEADER = 12  # characters: a longer header over shorter figures wraps
THRESHOLD_FORMAT = "0.000"  # "refuse below" as the Compare page shows it


def _longest(value: object, words: bool = False) -> int:
    """The longest line of a cell's text, in characters (or its longest word)."""
    text = "" if value is None else str(value)
    return max((len(part) for part in (text.split() if words else text.splitlines())), default=0)


def fit_columns(sheet) -> None:
    """Each column as wide as its longest line, at most ``WIDEST`` characters, a cell longer than that wrapping, so
    a question or a piece's text reads in its column; a long header over short figures wraps at its spaces (in
    ``HEADER`` characters, or its longest word). A cell of several lines wraps, to show them."""
    from openpyxl.styles import Alignment
    from openpyxl.utils import get_column_letter

    wrap = Alignment(wrap_text=True, vertical="top")
    for index, column in enumerate(sheet.iter_cols(), start=1):
        header, *cells = column
        named = min(_longest(header.value), max(_longest(header.value, words=True), HEADER))
        width = min(max([named, *(_longest(cell.value) for cell in cells), 4]) + 2, WIDEST)
        sheet.column_dimensions[get_column_letter(index)].width = width
        for cell in column:
            if isinstance(cell.value, str) and ("\n" in cell.value or len(cell.value) > width - 2):
                cell.alignment = wrap


def results_xlsx(evaluation: Evaluation) -> bytes:
    """The summary per configuration and every answer, as an Excel workbook; no cell can run as a formula. Every
    column is as wide as its content (``fit_columns``), and the "About the columns" sheet explains each column of
    every sheet."""
    import openpyxl

    workbook = openpyxl.Workbook()
    summary = workbook.active
    summary.title = "Summary"
    metrics = ["chunks", "clean", "mixed", "missed", "refused", "false_answers", "hit_rate", "mrr", "ndcg",
               "context_chars", "refusal_accuracy", "answerable_refused", "threshold", "refusal_judged"]
    ids = ["strategy", "retriever", "reranker"]
    # Each sheet's columns by id (a figure's, in COLUMNS) or header (PLAIN_COLUMNS): display names first, as a
    # person reads the sheet, each figure under its plain name; the ids scripts rely on keep their own columns.
    columns = {
        "Summary": [*NAME_COLUMNS, *metrics, *ids],
        "Answers": [*NAME_COLUMNS, "row", "question", "expected_source", "expected_answer", "grade", "why", "rank",
                    "top_score", "confidence", "top piece's section", *ids, "reason", "top_piece"],
        "Pieces": ["way of cutting", "section", "text", "strategy", "piece"],  # each top piece's text once
    }
    answers = workbook.create_sheet("Answers")
    pieces = workbook.create_sheet("Pieces")
    for sheet in (summary, answers, pieces):
        sheet.append([column_name(key) for key in columns[sheet.title]])
    listed: set[tuple[str, str]] = set()
    sections = piece_sections(evaluation)
    resolved = {id(q.question): q for q in evaluation.questions}
    threshold_column = columns["Summary"].index("threshold") + 1
    for run in evaluation.runs:
        record = run_record(run, evaluation)
        record["refusal_judged"] = (record["refusal"] or {}).get("judged", "")
        if record["threshold"] is not None:
            record["threshold"] = round(record["threshold"], 3)  # as the app shows it: 0.241, not 0.24081627524845511
        shown = shown_names(run, evaluation.settings.size)
        summary.append([xlsx_cell(v) for v in shown + [record[c] for c in metrics + ids]])
        summary.cell(summary.max_row, threshold_column).number_format = THRESHOLD_FORMAT
        chunks = evaluation.chunks[run.strategy]
        for result, item in zip(run.per_question, record["per_question"]):
            q = result.question
            top = chunks[result.ranking[0][0]] if result.ranking else None
            section = sections[run.strategy].title(top)
            answers.append([xlsx_cell(v) for v in [
                *shown, q.row, q.question, q.expected_source, q.expected_answer, result.grade,
                why_words(result, sections[run.strategy], resolved.get(id(q))), result.rank, item["top_score"],
                item["confidence"], section,
                run.strategy, run.retriever, run.reranker, result.reason, item["top_piece"],
            ]])
            if top is not None and (run.strategy, item["top_piece"]) not in listed:
                listed.add((run.strategy, item["top_piece"]))
                pieces.append([xlsx_cell(v) for v in [shown[0], section, top.text, run.strategy, top.id]])
    about = workbook.create_sheet("About the columns")
    about.append(["sheet", "column", "what it means", "id"])
    for title, keys in columns.items():
        for key in keys:
            name, meaning = COLUMNS[key] if key in COLUMNS else (key, PLAIN_COLUMNS[key])
            about.append([xlsx_cell(v) for v in (title, name, meaning, key if key in COLUMNS else "")])
    for sheet in workbook.worksheets:
        fit_columns(sheet)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
