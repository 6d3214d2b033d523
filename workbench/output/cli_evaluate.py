"""The ``evaluate`` and ``sweep`` commands: grading a document's golden questions (or a folder's), writing the
results with the verdict and the to-do list, saving the run to the history and checking it against the bars.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.advise.advice import advise, fix_sentence, folded_heading, todo_heading, warm_up
from workbench.advise.todo import todo_records
from workbench.advise.verdict import assess, handed_pieces
from workbench.core import limits
from workbench.core.model import Settings, WorkbenchError
from workbench.core.results import Evaluation
from workbench.core.wording import plural, printable
from workbench.encode import cache_warnings
from workbench.grade.stats import compare
from workbench.output.cli_args import check_options, run_settings
from workbench.output.cli_history import bars_of, baseline_of, open_history, save_and_gate
from workbench.output.cli_io import emit, json_text, load_document, say, write_output
from workbench.output.highlight import citation
from workbench.output.report import to_csv, to_json, to_table
from workbench.output.sweep import QUESTIONS_SUFFIX, Skipped, find_documents, summarise, summary_table, totals
from workbench.read.base_of_files import label
from workbench.read.loaders import NoNameColumn
from workbench.read.questions import parse_questions
from workbench.read.resolve import resolve_all
from workbench.read.textio import display_name, read_file
from workbench.run.parallel import in_order, workers
from workbench.run.staged import evaluate_in_stages, stages
from workbench.search.reads import needs_encoder

if TYPE_CHECKING:
    from workbench.store.history import History


def stderr_progress(share: float, text: str) -> None:
    """One self-overwriting progress line on stderr."""
    sys.stderr.write(f"\r{share:4.0%}  {printable(text[:80]):<80}")
    if share >= 1.0:
        sys.stderr.write("\n")
    sys.stderr.flush()


class GateFailed(Exception):
    """The new run fell below the bars or the baseline: exit 1, not 2 (the input was fine)."""


@dataclass
class Graded:
    """One document's evaluation with what its output and history need."""

    evaluation: Evaluation
    comparisons: list
    questions_hash: str
    baseline: dict | None


def _grade_file(
    args: argparse.Namespace,
    settings: Settings,
    document_path: str | Path | list,
    questions_path: str | Path,
    compare_pair: tuple[str, str] | None,
    history: History | None,
    progress,
    on_stage=None,
) -> Graded:
    document = load_document(args, document_path)
    limits.check_run(label(document), len(document.text), settings.strategies)  # before the questions are read
    if needs_encoder(settings):
        limits.check_model_run(label(document), len(document.text), settings.strategies, choose=lambda fit, example: (
            f"Choose at most {fit:,} cut{'' if fit == 1 else 's'} with --strategies (e.g. --strategies {','.join(example)}), search by words "
            "only (--retrievers keyword,bm25 --rerankers none,heading), or split the file." if fit else
            "Search by words only (--retrievers keyword,bm25 --rerankers none,heading), or split the file."))
    questions_bytes = read_file(questions_path)
    questions_name = display_name(Path(questions_path).name)
    questions = parse_questions(questions_bytes, questions_name)
    _some_gradable(document, questions, questions_name)
    questions_hash = hashlib.sha256(questions_bytes).hexdigest()
    baseline = baseline_of(args, history, document, settings, questions_hash)
    # In stages, as the app runs them: word search's result first (``on_stage``), then the model's setups; each
    # grade is the one a single ``evaluate`` gives. --quick stops after the first stage.
    evaluation = evaluate_in_stages(document, questions, settings, progress=progress, on_stage=on_stage,
                                    first_only=args.quick)
    comparisons = []
    if compare_pair:
        for run in evaluation.runs:
            if run.strategy == compare_pair[0]:
                other = evaluation.run(compare_pair[1], run.retriever, run.reranker)
                comparisons.append(compare(run, other))
    return Graded(evaluation, comparisons, questions_hash, baseline)


def evaluation_json(graded: Graded) -> dict:
    """Evaluate's JSON for one document; sweep lists one of these per document."""
    evaluation = graded.evaluation
    data = to_json(evaluation)
    data["comparisons"] = [asdict(c) | {"sentence": c.sentence()} for c in graded.comparisons]
    advice = advise(evaluation, reader="cli")
    verdict = advice.verdict
    data["verdict"] = verdict.as_dict()
    for entry, result in zip(data["verdict"]["refusal_test"], verdict.refusal_test):  # what to test the bot with
        entry["pieces"] = [{"id": chunk.id, "from": citation(evaluation.document, chunk)}
                           for chunk in handed_pieces(evaluation, result)]
    data["todo"] = todo_records(evaluation.document, advice.todo)
    if advice.fix is not None:
        data["fix"] = {**advice.fix.measured.as_dict(), "items": len(advice.fix.items), "edits": len(advice.fix.edits)}
    data["settings"] = asdict(evaluation.settings)  # what was graded: the defaults unless flags said otherwise
    data["pending"] = list(evaluation.pending)  # stages not graded (--quick): the verdict is word search's alone
    if evaluation.document.files:  # a knowledge base: the line per file, and the check-up across files
        from workbench.advise.crossfile import file_lines, other_file_answers

        best = verdict.recommended
        data["files"] = file_lines(evaluation, best) if best else []
        data["other_file_answers"] = other_file_answers(evaluation, best) if best else []
        data["todo_across_files"] = todo_records(evaluation.document, advice.across)
    return data


def evaluation_table(graded: Graded) -> str:
    """Evaluate's table for one document; sweep prints one of these per document."""
    comparisons = "".join(c.sentence() + "\n" for c in graded.comparisons)
    return to_table(graded.evaluation) + comparisons + verdict_text(graded.evaluation)


def _cache_warnings() -> None:
    for warning in cache_warnings():  # the embedding cache failed and was worked around: say so once
        say("warning", warning)


def run_evaluate(args: argparse.Namespace) -> None:
    settings = run_settings(args)
    bars = bars_of(args)
    compare_pair = check_options(args, settings)
    history = open_history(args)
    show = args.progress or sys.stderr.isatty()
    # Word search's verdict as soon as it is known, marked first, where it does not mix with the output proper.
    first = sys.stdout if args.format == "table" and not args.out else sys.stderr if show else None

    shown: list[Evaluation] = []

    def on_stage(partial: Evaluation) -> None:  # the first stage's alone: the settled verdict follows the output
        if partial.pending and not args.quick and first is not None and not shown:
            shown.append(partial)
            if show:
                sys.stderr.write("\r" + " " * 86 + "\r")  # the progress line, cleared for the verdict
            first.write(first_verdict_text(partial))
            first.flush()

    graded = _grade_file(args, settings, args.document, args.questions, compare_pair, history,
                         stderr_progress if show else None, on_stage)
    evaluation = graded.evaluation
    _cache_warnings()
    if args.report:
        from workbench.output.handover import (
            report_html,  # plotly loads only when a report is drawn (DESIGN.md, Start-up)
        )

        write_output(args.report, report_html(evaluation))
    if args.format == "json":
        output: str | bytes = json_text(evaluation_json(graded))
    elif args.format == "csv":
        output = to_csv(evaluation)
    elif args.format == "xlsx":
        from workbench.output.handover import results_xlsx  # openpyxl loads only for an Excel file

        output = results_xlsx(evaluation)
    else:
        output = evaluation_table(graded)
    emit(args, output)
    failures = save_and_gate(history, graded.evaluation, graded.questions_hash, graded.baseline, bars)
    if failures:
        raise GateFailed(failures)


class SweepErrors(Exception):
    """Some documents could not be evaluated: exit 2 once the others' results are written."""


@dataclass
class Swept:
    """One file of a sweep, as the process that graded it hands it back."""

    graded: Graded | None  # kept only where a history or bars read it (a process's is pickled back whole)
    output: str | dict  # its table or JSON record, made where it was graded (the to-do's trials are most of the work)
    totals: dict | None = None  # its part of the summary (``sweep.totals``); None when it could not be evaluated
    error: str = ""  # why it could not be evaluated


def _sweep_file(task: tuple) -> Swept:
    """Grade one file of a sweep and write its part of the output; a file that cannot be evaluated is named."""
    args, settings, pair, compare_pair, keep = task
    try:
        files = list(pair.files) if pair.files else pair.document  # a sub-folder: its files are one base
        graded = _grade_file(args, settings, files, pair.questions, compare_pair, None, None)
        return Swept(graded if keep else None, evaluation_json(graded) if args.format == "json"
                     else evaluation_table(graded), totals(graded.evaluation))
    except NoNameColumn as error:
        message = f"{error} Choose one with --name-column."
    except WorkbenchError as error:
        message = str(error)
    if not message.startswith(pair.document.name):  # most errors name the file already
        message = f"{pair.document.name}: {message}"
    return Swept(None, "", None, message)


def run_sweep(args: argparse.Namespace) -> None:
    """Every document in the folder with questions beside it. Word search spreads the files over the cores, a
    process each (``run/parallel.py``), the output in the folder's order whatever order they finish in; with the
    language model they run here one after another, so the model and the embedding cache load once for the folder
    (and the model's own threads use every core)."""
    settings = run_settings(args)
    bars = bars_of(args)
    compare_pair = check_options(args, settings)
    pairs, skipped = find_documents(args.folder)
    if not pairs:
        reasons = "; ".join(f"{s.document}: {s.reason}" for s in skipped[:3]) or "it holds no documents"
        raise WorkbenchError(
            f"no document in {args.folder} has a questions file beside it named STEM{QUESTIONS_SUFFIX} ({reasons})"
        )
    history = open_history(args)
    show = args.progress or sys.stderr.isatty()
    keep = history is not None or bool(bars)  # else the parent needs each file's output and totals alone
    tasks = [(args, settings, pair, compare_pair, keep) for pair in pairs]
    sizes = [sum(_size(path) for path in (pair.files or (pair.document,))) for pair in pairs]
    jobs = 1 if needs_encoder(settings) else limits.processes_within(
        [size * len(settings.strategies) for size in sizes], workers(args.jobs, len(pairs)))
    swept: list[Swept | None] = [None] * len(pairs)
    warm_up()  # every file's languages are found, its words stemmed, its check-up made: set up once for the processes
    try:
        for finished, (index, result) in enumerate(in_order(_sweep_file, tasks, jobs, sizes), start=1):
            swept[index] = result
            if show:
                stderr_progress(finished / len(pairs), f"{pairs[index].document.name} ({index + 1}/{len(pairs)}): graded")
    except BrokenProcessPool as error:
        raise WorkbenchError(f"a process grading the files stopped before it finished ({error}); try --jobs 1") from None
    done: list[Graded] = []
    errors: list[str] = []
    for pair, result in zip(pairs, swept):
        if result.totals is None:
            errors.append(result.error)
            skipped.append(Skipped(pair.document.name, f"could not be evaluated: {result.error}"))
            continue
        if result.graded is not None:  # kept for the history and the bars
            graded = result.graded
            graded.baseline = baseline_of(args, history, graded.evaluation.document, settings, graded.questions_hash)
            done.append(graded)
    _cache_warnings()
    outputs = [result.output for result in swept if result.totals is not None]
    summary = summarise([result.totals for result in swept if result.totals is not None], skipped)
    if args.format == "json":
        output = json_text({"documents": outputs, "summary": summary})
    else:
        output = "\n".join(outputs) + "\n" + summary_table(summary)
    emit(args, output)
    failures = []
    for graded in done:
        failures += [f"{graded.evaluation.document.name}: {f}" for f in save_and_gate(history, graded.evaluation, graded.questions_hash, graded.baseline, bars)]
    if errors:
        raise SweepErrors(errors, failures)
    if failures:
        raise GateFailed(failures)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _some_gradable(document, questions, name: str) -> None:
    """Every row left out is not a run: exit 2 and save nothing, naming why the first rows were left out."""
    good, bad = resolve_all(document, questions)
    if good or not bad:
        return
    reasons = "; ".join(f"row {b.question.row}: {b.reason}" for b in bad[:3]) + ("; …" if len(bad) > 3 else "")
    raise WorkbenchError(f"none of the {len(bad)} questions in {name} can be graded against {label(document)} ({reasons})")


def verdict_text(evaluation, items: int = 5) -> str:
    """The status, the recommended setup and the first edits of the to-do list, after the table."""
    advice = advise(evaluation, reader="cli")
    verdict = advice.verdict
    lines = ["", *stage_heading(evaluation), *verdict.lines()]
    if evaluation.document.files and verdict.recommended is not None:  # a knowledge base: a line per file
        from workbench.advise.crossfile import file_lines, other_file_answers

        names = ", ".join(part.name for part in evaluation.document.files)
        lines.append(f"The knowledge base of {len(evaluation.document.files)} files ({names}), file by file:")
        lines += [f"  {line}" for line in file_lines(evaluation, verdict.recommended)]
        crossed = other_file_answers(evaluation, verdict.recommended)
        if crossed:
            lines.append("Answered from another file:")
            lines += [f"  {line}" for line in crossed[:items]]
            if len(crossed) > items:
                lines.append(f"    … and {len(crossed) - items} more in the JSON (--format json).")
    if verdict.refusal_test:
        lines.append("Test for the bot's instructions: it should hand each of these to a person, given these pieces:")
        for result in verdict.refusal_test[:items]:
            pieces = "; ".join(citation(evaluation.document, chunk) for chunk in handed_pieces(evaluation, result)[:3])
            lines.append(f"  row {result.question.row}: “{result.question.question}” — handed {pieces}")
        if len(verdict.refusal_test) > items:
            lines.append(f"    … and {len(verdict.refusal_test) - items} more in the report (--report report.html).")
    if verdict.recommended is not None:
        todo = advice.advised
        lines.append(todo_heading(advice))
        for number, item in enumerate(todo[:items], start=1):
            where = f" [{item.where}]" if item.where else ""
            lines.append(f"{number:>2}. {item.edit}{where} — {item.effect}")
        if len(todo) > items:
            lines.append(f"    … and {len(todo) - items} more in the report (--report report.html).")
        if fix_sentence(advice, "cli"):
            lines.append(fix_sentence(advice, "cli"))
        if advice.optional:
            lines.append(f"{folded_heading(advice)}; in the report.")
        if advice.not_advised:
            lines.append(f"Not advised: {plural(len(advice.not_advised), 'change')} that made a question worse when "
                         "tried, listed in the report.")
        if evaluation.document.files:
            across = advice.across
            if across:
                lines.append(f"To do across the files ({plural(len(across), 'item')}):")
            for number, item in enumerate(across[:items], start=1):
                lines.append(f"{number:>2}. {item.edit} {item.why} — {item.affects}")
            if len(across) > items:
                lines.append(f"    … and {len(across) - items} more in the JSON (--format json).")
    return "\n".join(lines) + "\n"


def stage_heading(evaluation: Evaluation) -> list[str]:
    """What a verdict rests on when the run has stages: the settled verdict, or word search's alone (--quick)."""
    if evaluation.pending:
        finished = [stage.name for stage in stages(evaluation.settings) if stage.name not in evaluation.pending]
        return [f"Verdict from {', '.join(finished)} alone (--quick): not run: {', '.join(evaluation.pending)}. "
                "Run without --quick for the settled verdict; it may differ."]
    plan = stages(evaluation.settings)
    if len(plan) > 1:
        return [f"Settled verdict, every stage graded ({', '.join(stage.name for stage in plan)}):"]
    return []


def first_verdict_text(partial: Evaluation) -> str:
    """Word search's verdict, shown while the model's stages run: marked first, with what is still running."""
    verdict = assess(partial, reader="cli")
    finished = [stage.name for stage in stages(partial.settings) if stage.name not in partial.pending]
    lines = [f"First verdict, from {', '.join(finished)} alone (still running: {', '.join(partial.pending)}; it may "
             "change when they finish):", f"{verdict.status}: {verdict.reason}"]
    lines += [line for line in (verdict.recommendation, verdict.versus_baseline) if line]
    return "\n".join(lines) + "\n\n"
