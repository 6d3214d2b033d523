"""An evaluation as a table, JSON or CSV: the shapes the command line prints."""

from __future__ import annotations

from pathlib import PurePath

from workbench.core.exports import csv_text
from workbench.core.model import Chunk, Document, ResolvedQuestion, Settings
from workbench.core.results import Evaluation, QuestionResult, Run
from workbench.core.wording import part_word, plural
from workbench.grade.grading import GRADE_WORDS, REASON_WORDS, PieceSections
from workbench.output.explain import column_name
from workbench.read.headers import columns_read
from workbench.read.language import document_languages
from workbench.run.names import reading_words, reranker_name, retriever_name, strategy_name
from workbench.search.reads import needs_encoder

# The downloads' first columns are what a person reads; the ids scripts rely on follow in their own columns.
NAME_COLUMNS = ["way of cutting", "search", "re-check"]


def shown_names(run: Run, size: int | None) -> list[str]:
    """A run's cut, search and re-check by their display names, as every download shows them."""
    return [strategy_name(run.strategy, size), retriever_name(run.retriever), reranker_name(run.reranker)]


def download_stem(document: Document) -> str:
    """The start of a download's name: the file's stem ("spree_sample_products"), or a knowledge base's files'
    stems joined by "+" ("breezy_home_price_list+breezy_home_policies"); the caller adds what it holds
    ("-answers.csv"). No content hash: the name says whose and what, as a person saves and finds it."""
    names = [part.name for part in document.files] or [document.name]
    return "+".join(PurePath(name).stem or name for name in names)


def reason_words(reason: str) -> str:
    """A missed answer's reason in plain words ("a piece holds the answer, but lower down"); "" for none."""
    return REASON_WORDS.get(reason, reason) if reason else ""


def why_words(result: QuestionResult, sections: PieceSections, resolved: ResolvedQuestion | None) -> str:
    """Why a row got its grade, in plain words, for every graded row of a download: a missed answer's reason
    ("a piece holds the answer, but lower down"), a mixed one's other products by name when known ("… but also
    text of other products (Desk Fan, Tower Fan), so the bot may mix them up"), else what the grade means."""
    if result.grade == "missed" and result.reason:
        return reason_words(result.reason)
    if result.grade == "mixed" and result.ranking and resolved is not None:
        document = sections.document
        keep = {resolved.section_id, *resolved.also}
        others = sorted((document.section(s) for s in sections.map.unnamed[result.ranking[0][0]] if s not in keep),
                        key=lambda section: section.span)
        names = [section.title for section in others if section.title]
        if names:
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            return (f"the top piece holds the answer, but also text of other {part_word(document.kind, True)} "
                    f"({shown}), so the bot may mix them up")
    return GRADE_WORDS.get(result.grade, "")


def document_summary(evaluation: Evaluation) -> dict:
    document = evaluation.document
    return {
        "name": document.name,
        "kind": document.kind,
        "encoding": document.encoding,
        "converted_from": document.converted_from,  # "docx" | "html" | "pdf", or "" when read as it is
        "sections": sum(1 for section in document.sections if section.facts),
        "facts": len(document.facts),
        "characters": len(document.text),
        "warnings": list(document.warnings),
        "languages": list(document_languages(document)),  # ISO 639-1 codes, main first; [] when too short to tell
        "reading": reading_sentence(evaluation),
        "columns_read": columns_read(document),
    } | ({"files": [file_summary(part) for part in document.files]} if document.files else {})


def reading_sentence(evaluation: Evaluation) -> str:
    """The file's language as the run read it, in the words the app and the report use: "Written in Spanish; read
    with Spanish word rules and the meaning-based model multilingual-e5-small." (the model only when a setup that
    ran reads with it: a --quick run asked for it, but stopped before)."""
    ran = Settings(strategies=[], retrievers=sorted({run.retriever for run in evaluation.runs}),
                   rerankers=sorted({run.reranker for run in evaluation.runs}))
    return reading_words(evaluation.document, needs_encoder(ran), evaluation.analyzer)


def file_summary(part) -> dict:
    """One file of a knowledge base, as read on its own."""
    own = part.document
    return {"name": part.name, "kind": own.kind, "converted_from": own.converted_from,
            "sections": sum(1 for section in own.sections if section.facts), "facts": len(own.facts),
            "characters": len(own.text), "start": part.start}


def in_file(document: Document, chunk: Chunk) -> dict:
    """A knowledge base's piece: its file, and its spans in that file's own text (``spans`` stay the base's)."""
    part, own = document.file_at(chunk.start)
    at = chunk.start - own
    return {"file": part.name, "file_spans": [[a - at, b - at] for a, b in chunk.spans]}


def file_of(document: Document, chunk: Chunk) -> str:
    """The knowledge base's file a piece was cut from ("" for one file)."""
    found = document.file_at(chunk.start) if document.files else None
    return found[0].name if found else ""


def piece_sections(evaluation: Evaluation, strategies=None) -> dict[str, PieceSections]:
    """The ``PieceSections`` of these cuts (default: every run's): the one rule every output files a piece under."""
    strategies = dict.fromkeys(strategies if strategies is not None else (run.strategy for run in evaluation.runs))
    return {strategy: PieceSections(evaluation.document, evaluation.chunks[strategy]) for strategy in strategies}


def refusal_record(run: Run) -> dict | None:
    """What refusing did, saying how it was judged: leave-one-out under "auto", a fixed threshold otherwise."""
    if run.calibration is not None:
        return {"judged": "leave-one-out"} | run.calibration.as_dict()
    if run.threshold is not None:
        return {"judged": "fixed threshold", "threshold": run.threshold}
    return None


def run_record(run: Run, evaluation: Evaluation, question_ids: dict[int, int] | None = None) -> dict:
    """One configuration; each question named by its number in the ``questions`` table and each
    piece by its id in the ``pieces`` table, so no text is repeated per question."""
    chunks = evaluation.chunks[run.strategy]
    question_ids = question_ids or {id(r.question): n for n, r in enumerate(run.per_question, start=1)}
    return {
        "strategy": run.strategy,
        "retriever": run.retriever,
        "reranker": run.reranker,
        "chunks": run.chunks,
        "clean": run.counts["clean"],
        "mixed": run.counts["mixed"],
        "missed": run.counts["missed"],
        "refused": run.counts["refused"],
        "false_answers": run.counts["false-answer"],
        "answerable": run.answerable,
        "unanswerable": run.unanswerable,
        "hit_rate": round(run.hit_rate, 4),
        "top_k": run.top_k,
        "mrr": round(run.mrr, 4),
        "ndcg": round(run.ndcg, 4),
        "context_chars": round(run.context_chars, 1),
        "refusal_accuracy": None if run.refusal_accuracy is None else round(run.refusal_accuracy, 4),
        "answerable_refused": run.false_refusals,
        "threshold": run.threshold,
        "refusal": refusal_record(run),
        "per_question": [
            {
                "question": question_ids[id(result.question)],
                "grade": result.grade,
                "reason": result.reason,
                "rank": result.rank,
                "top_piece": chunks[result.ranking[0][0]].id if result.ranking else None,
                "top_score": round(result.top_score, 4),
                "confidence": round(result.confidence, 4),
            }
            | ({"top_file": file_of(evaluation.document, chunks[result.ranking[0][0]]) if result.ranking else None}
               if evaluation.document.files else {})
            for result in run.per_question
        ],
    }


def to_json(evaluation: Evaluation) -> dict:
    """The evaluation as one object: questions and pieces once, runs referring to them by id.

    Configurations whose every ranking and grade agree are one record, naming the others in
    ``identical``.
    """
    from workbench.advise.findings import chance_sentence, fold_identical
    from workbench.advise.verdict import recommended

    graded = evaluation.runs[0].per_question if evaluation.runs else []
    question_ids = {id(result.question): n for n, result in enumerate(graded, start=1)}
    used: dict[str, set[str]] = {}
    for run in evaluation.runs:
        chunks = evaluation.chunks[run.strategy]
        used.setdefault(run.strategy, set()).update(chunks[r.ranking[0][0]].id for r in run.per_question if r.ranking)
    best = recommended(evaluation.runs)
    sections = piece_sections(evaluation, used)
    runs = []
    for group in fold_identical(evaluation.runs):
        record = run_record(group[0], evaluation, question_ids)
        record["identical"] = [
            {"strategy": run.strategy, "retriever": run.retriever, "reranker": run.reranker} for run in group[1:]
        ]
        runs.append(record)
    return {
        "document": document_summary(evaluation),
        "bad_questions": [
            {"row": bad.question.row, "question": bad.question.question, "reason": bad.reason}
            for bad in evaluation.bad_questions
        ],
        "questions": [
            {
                "id": question_ids[id(result.question)],
                "row": result.question.row,
                "question": result.question.question,
                "expected_source": result.question.expected_source,
                "expected_answer": result.question.expected_answer,
                "answerable": result.answerable,
            }
            for result in graded
        ],
        "pieces": {
            strategy: [
                {"id": chunk.id, "section": sections[strategy].title(chunk), "spans": [list(s) for s in chunk.spans],
                 "text": chunk.text} | (in_file(evaluation.document, chunk) if evaluation.document.files else {})
                for chunk in evaluation.chunks[strategy]
                if chunk.id in ids
            ]
            for strategy, ids in used.items()
        },
        "recommended": None if best is None else {"strategy": best.strategy, "retriever": best.retriever,
                                                  "reranker": best.reranker},
        "chance_warning": chance_sentence(evaluation.runs, evaluation.settings.size),
        "runs": runs,
    }


def table_line(run: Run, retrievers: str | None = None) -> str:
    counts = run.counts
    line = (
        f"{run.strategy:<13} {retrievers or run.retriever:<8} {run.reranker:<13} "
        f"{counts['clean']:>3} clean / {counts['mixed']:>3} mixed / {counts['missed']:>3} missed"
    )
    if counts["refused"]:
        line += f" / {counts['refused']:>3} refused"
    line += f" (of {run.answerable + run.unanswerable})  hit@{run.top_k} {run.hit_rate:.2f}  mrr {run.mrr:.2f}"
    calibration = run.calibration
    if calibration is not None and not calibration.enough:
        line += f"  {run.counts['false-answer']} false answers; refusal rate cannot be estimated"
    elif run.unanswerable:
        refused = round((run.refusal_accuracy or 0) * run.unanswerable)
        line += f"  refused {refused}/{run.unanswerable} unanswerable, {counts['false-answer']} false answers"
        if run.threshold is not None or calibration is not None:
            line += f", {run.false_refusals}/{run.answerable} answerable refused"
    if calibration is not None and calibration.enough:
        line += "  (leave-one-out; "
        line += "fitted: never refuse)" if run.threshold is None else f"fitted threshold {run.threshold:.3f})"
    elif run.threshold is not None and calibration is None:
        line += f"  (refuses below a confidence of {run.threshold:.3g})"
    return line


def to_table(evaluation: Evaluation) -> str:
    from workbench.advise.findings import chance_sentence, fold_identical
    from workbench.advise.verdict import recommended

    summary = document_summary(evaluation)
    lines = [
        f"{summary['name']}: {plural(summary['sections'], part_word(summary['kind']))}, {summary['facts']} facts, "
        f"{summary['characters']} characters ("
        + (f"{summary['converted_from']}, converted to Markdown" if summary["converted_from"] else summary["kind"])
        + ")"
    ]
    lines.append(summary["reading"])  # the language found, said where a shop owner reads first
    if summary["columns_read"]:
        lines.append(summary["columns_read"])
    lines += [f"warning: {warning}" for warning in summary["warnings"]]
    for bad in evaluation.bad_questions:
        lines.append(f"left out row {bad.question.row} ({bad.question.question!r}): {bad.reason}")
    groups = fold_identical(evaluation.runs)
    for group in groups:
        lines.append(table_line(group[0], "+".join(run.retriever for run in group) if len(group) > 1 else None))
    if any(len(group) > 1 for group in groups):
        lines.append(
            "a+b: one row for configurations with identical rankings and grades on every question "
            "(a reranker that re-scored every piece, or a single piece)"
        )
    calibrations = [run.calibration for run in evaluation.runs if run.calibration is not None]
    if calibrations and not calibrations[0].enough:
        lines.append(calibrations[0].sentence)
    elif calibrations:
        lines.append(
            "Refusal figures are leave-one-out: each question judged by a threshold fitted on the others; "
            "the fitted threshold is the one to use from now on."
        )
    best = recommended(evaluation.runs)
    if best is not None:
        lines.append(f"recommended: {best.strategy} / {best.retriever} / {best.reranker}")
    warning = chance_sentence(evaluation.runs, evaluation.settings.size)
    if warning:
        lines.append(warning)
    return "\n".join(lines) + "\n"


def to_csv(evaluation: Evaluation) -> str:
    """One row per question and configuration, every cell safe to open in a spreadsheet.

    Display names, the question's row in the questions file (header = row 1), the grade, why in words and the
    top piece's section come first; the ids (strategy, retriever, reranker, reason, top_chunk_id, top_score,
    refuse_below) follow for scripts, which read them by those names whatever a figure's display name is (the
    scores are repeated there, the cheap way to keep both a person's header and a script's). Pieces are named by id (their text is in the JSON's pieces table), so a long piece is never
    repeated on every row.
    """
    header = [*NAME_COLUMNS, "row", "question", "grade", "why", "rank", "top piece's section",
              column_name("top_score"), "confidence", column_name("refuse_below"), "strategy", "retriever", "reranker",
              "reason", "top_chunk_id", "top_score", "refuse_below"]
    rows = [header]
    sections = piece_sections(evaluation)
    resolved = {id(q.question): q for q in evaluation.questions}
    for run in evaluation.runs:
        chunks = evaluation.chunks[run.strategy]
        names = shown_names(run, evaluation.settings.size)
        for result in run.per_question:
            top = chunks[result.ranking[0][0]] if result.ranking else None
            rows.append([*names, result.question.row, result.question.question, result.grade,
                         why_words(result, sections[run.strategy], resolved.get(id(result.question))), result.rank,
                         sections[run.strategy].title(top),
                         round(result.top_score, 4), round(result.confidence, 4),
                         "" if result.refuse_below is None else round(result.refuse_below, 4),
                         run.strategy, run.retriever, run.reranker, result.reason, top.id if top else "",
                         round(result.top_score, 4),
                         "" if result.refuse_below is None else round(result.refuse_below, 4)])
    return csv_text(rows)
