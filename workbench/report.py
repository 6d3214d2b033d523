"""An evaluation as a table, JSON or CSV: the shapes the command line prints."""

from __future__ import annotations

from .evaluate import Evaluation, Run
from .exports import csv_text, safe_cell  # noqa: F401  (safe_cell: re-exported for older callers)


def document_summary(evaluation: Evaluation) -> dict:
    document = evaluation.document
    return {
        "name": document.name,
        "kind": document.kind,
        "encoding": document.encoding,
        "sections": sum(1 for section in document.sections if section.facts),
        "facts": len(document.facts),
        "characters": len(document.text),
        "warnings": list(document.warnings),
    }


def run_record(run: Run, evaluation: Evaluation) -> dict:
    chunks = evaluation.chunks[run.strategy]
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
        "threshold": run.threshold,
        "per_question": [
            {
                "question": result.question.question,
                "row": result.question.row,
                "grade": result.grade,
                "reason": result.reason,
                "rank": result.rank,
                "top_chunk": chunks[result.ranking[0][0]].text if result.ranking else None,
                "top_chunk_id": result.top_chunk,
                "top_score": round(result.top_score, 4),
            }
            for result in run.per_question
        ],
    }


def to_json(evaluation: Evaluation) -> dict:
    return {
        "document": document_summary(evaluation),
        "bad_questions": [
            {"row": bad.question.row, "question": bad.question.question, "reason": bad.reason}
            for bad in evaluation.bad_questions
        ],
        "runs": [run_record(run, evaluation) for run in evaluation.runs],
    }


def table_line(run: Run) -> str:
    counts = run.counts
    line = (
        f"{run.strategy:<13} {run.retriever:<8} {run.reranker:<13} "
        f"{counts['clean']:>3} clean / {counts['mixed']:>3} mixed / {counts['missed']:>3} missed"
    )
    if counts["refused"]:
        line += f" / {counts['refused']:>3} refused"
    line += f" (of {run.answerable + run.unanswerable})  hit@{run.top_k} {run.hit_rate:.2f}  mrr {run.mrr:.2f}"
    if run.unanswerable:
        refused = round((run.refusal_accuracy or 0) * run.unanswerable)
        line += f"  refused {refused}/{run.unanswerable} unanswerable, {counts['false-answer']} false answers"
    if run.threshold is not None:
        line += f"  (refuses below {run.threshold:.3g}{', calibrated' if run.calibration else ''})"
    return line


def to_table(evaluation: Evaluation) -> str:
    summary = document_summary(evaluation)
    lines = [
        f"{summary['name']}: {summary['sections']} sections, {summary['facts']} facts, "
        f"{summary['characters']} characters ({summary['kind']})"
    ]
    lines += [f"warning: {warning}" for warning in summary["warnings"]]
    for bad in evaluation.bad_questions:
        lines.append(f"left out row {bad.question.row} ({bad.question.question!r}): {bad.reason}")
    lines += [table_line(run) for run in evaluation.runs]
    return "\n".join(lines) + "\n"


def to_csv(evaluation: Evaluation) -> str:
    """One row per question and configuration, every cell safe to open in a spreadsheet."""
    header = ["strategy", "retriever", "reranker", "row", "question", "grade", "reason", "rank", "top_chunk_id", "top_score"]
    rows = [header]
    for run in to_json(evaluation)["runs"]:
        for result in run["per_question"]:
            rows.append([run["strategy"], run["retriever"], run["reranker"], result["row"], result["question"],
                         result["grade"], result["reason"], result["rank"], result["top_chunk_id"], result["top_score"]])
    return csv_text(rows)
