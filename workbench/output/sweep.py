"""A folder of documents evaluated in one process: which files have questions, and the totals across them.

The command line (``python -m workbench sweep FOLDER``) runs ``evaluate`` on each document in
turn; the model and the embedding cache are the process-wide ones, so they load once for
the whole folder. This module finds the pairs and adds the results up.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from workbench.advise.verdict import recommended
from workbench.core.model import WorkbenchError
from workbench.core.results import Evaluation
from workbench.core.wording import plural
from workbench.grade.metrics import hit_at
from workbench.read.loaders import SUPPORTED

QUESTIONS_SUFFIX = ".questions.csv"


@dataclass(frozen=True)
class Skipped:
    document: str
    reason: str


@dataclass(frozen=True)
class Pair:
    document: Path  # the file, or a knowledge base's sub-folder
    questions: Path
    files: tuple[Path, ...] = ()  # a knowledge base: the sub-folder's files, read as one base


def find_bases(folder: Path) -> tuple[list[Pair], list[Skipped]]:
    """Each sub-folder is one knowledge base: every file in it a loader reads, with its one ``*.questions.csv``."""
    pairs: list[Pair] = []
    skipped: list[Skipped] = []
    for sub in sorted((p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")), key=lambda p: p.name):
        files = sorted((p for p in sub.iterdir() if p.is_file() and not p.name.startswith(".")), key=lambda p: p.name)
        questions = [p for p in files if p.name.lower().endswith(QUESTIONS_SUFFIX)]
        documents = [p for p in files if p not in questions and p.suffix.lower() in SUPPORTED]
        name = f"{sub.name}/"
        if len(questions) != 1:
            found = "none" if not questions else ", ".join(q.name for q in questions)
            skipped.append(Skipped(name, f"a knowledge base's folder needs one file named *{QUESTIONS_SUFFIX} ({found})"))
        elif not documents:
            skipped.append(Skipped(name, "no file in it the workbench reads"))
        else:
            pairs.append(Pair(sub, questions[0], tuple(documents)))
    return pairs, skipped


def find_documents(folder: str | Path) -> tuple[list[Pair], list[Skipped]]:
    """Every file in the folder a loader reads, paired with ``STEM.questions.csv`` beside it; then each
    sub-folder as one knowledge base (``find_bases``).

    The extensions come from the loader registry, so a newly registered kind of file is swept too.
    Hidden files are ignored; every other file is either paired or skipped with the reason.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise WorkbenchError(f"{folder} is not a folder: sweep takes a folder of documents")
    pairs: list[Pair] = []
    skipped: list[Skipped] = []
    files = sorted((p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")), key=lambda p: p.name)
    stems = {p.stem for p in files if p.suffix.lower() in SUPPORTED}
    for path in files:
        if path.name.lower().endswith(QUESTIONS_SUFFIX):
            stem = path.name[: -len(QUESTIONS_SUFFIX)]
            if stem not in stems:  # most likely a misspelt document name: say so rather than ignore it
                skipped.append(Skipped(path.name, f"questions for no document: nothing named {stem}.* beside it"))
            continue
        if path.suffix.lower() not in SUPPORTED:
            skipped.append(Skipped(path.name, f"not a kind of file the workbench reads ({', '.join(SUPPORTED)})"))
            continue
        questions = path.with_name(path.stem + QUESTIONS_SUFFIX)
        if questions.is_file():
            pairs.append(Pair(path, questions))
        else:
            skipped.append(Skipped(path.name, f"no questions file beside it (expected {questions.name})"))
    bases, not_bases = find_bases(folder)
    return pairs + bases, skipped + not_bases


def totals(evaluation: Evaluation) -> dict:
    """One file's part of the summary: each setup's counts, and the file's best setup (None without one). A process
    grading a file of a sweep hands back this, not the whole evaluation (on the eleven real files, 5 MB of
    pickled pieces and results, pickled by the children and read again by the parent)."""
    runs = [{"strategy": run.strategy, "retriever": run.retriever, "reranker": run.reranker,
             "clean": run.counts["clean"], "questions": len(run.per_question), "answerable": run.answerable,
             "hits": int(sum(hit_at(r.relevant_ranks, run.top_k) for r in run.per_question if r.answerable)),
             "top_k": run.top_k} for run in evaluation.runs]
    top = recommended(evaluation.runs)
    best = None if top is None else {
        "document": evaluation.document.name, "strategy": top.strategy, "retriever": top.retriever,
        "reranker": top.reranker, "clean": top.counts["clean"], "questions": len(top.per_question),
        "hit_rate": round(top.hit_rate, 4),
    }
    return {"runs": runs, "best": best}


def summarise(parts: list[dict], skipped: list[Skipped]) -> dict:
    """Each setup's clean answers and hits summed over the files (their ``totals``), each file's best setup, and
    what was skipped."""
    setups: dict[tuple[str, str, str], dict] = {}
    best = []
    for part in parts:
        for run in part["runs"]:
            total = setups.setdefault(
                (run["strategy"], run["retriever"], run["reranker"]),
                {"strategy": run["strategy"], "retriever": run["retriever"], "reranker": run["reranker"],
                 "documents": 0, "clean": 0, "questions": 0, "hits": 0, "answerable": 0, "top_k": run["top_k"]},
            )
            total["documents"] += 1
            for count in ("clean", "questions", "answerable", "hits"):
                total[count] += run[count]
        if part["best"] is not None:
            best.append(part["best"])
    for total in setups.values():
        total["hit_rate"] = round(total["hits"] / total["answerable"], 4) if total["answerable"] else 0.0
    return {
        "documents": len(parts),
        "setups": list(setups.values()),
        "best": best,
        "skipped": [{"document": s.document, "reason": s.reason} for s in skipped],
    }


def summary_table(summary: dict) -> str:
    """The summary as plain lines: setups by clean answers over all files, then each file's best setup."""
    lines = [f"Across {plural(summary['documents'], 'document')}:"]
    setups = sorted(summary["setups"], key=lambda s: (-s["clean"], -s["hits"]))
    for s in setups:
        lines.append(
            f"{s['strategy']:<13} {s['retriever']:<8} {s['reranker']:<13} {s['clean']:>4} clean of {s['questions']:<4} "
            f"hit@{s['top_k']} {s['hits']:>4} of {s['answerable']:<4} ({s['hit_rate']:.2f})"
        )
    if summary["best"]:
        lines.append("Best setup per document:")
    for b in summary["best"]:
        lines.append(
            f"  {b['document']}: {b['strategy']} / {b['retriever']} / {b['reranker']} "
            f"({b['clean']} clean of {b['questions']}, hit rate {b['hit_rate']:.2f})"
        )
    for s in summary["skipped"]:
        lines.append(f"skipped {s['document']}: {s['reason']}")
    return "\n".join(lines) + "\n"
