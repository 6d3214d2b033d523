"""The command line: ``python -m workbench evaluate DOCUMENT --questions QUESTIONS.csv``.

Bad input exits with status 2 and one line naming the file, row or value at fault.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from workbench.advise.audit import audit
from workbench.advise.todo import not_clean, todo_list, todo_records
from workbench.advise.verdict import assess, handed_pieces
from workbench.core import limits
from workbench.core.model import Settings, WorkbenchError
from workbench.core.results import Evaluation
from workbench.cut import STRATEGIES
from workbench.cut.windows import WINDOW_SIZE
from workbench.grade.stats import compare
from workbench.output.highlight import citation
from workbench.output.report import to_csv, to_json, to_table
from workbench.output.safe_write import check_target, write_file, write_stdout
from workbench.output.sweep import QUESTIONS_SUFFIX, Skipped, find_documents, summarise, summary_table
from workbench.read.base_of_files import load_base
from workbench.read.loaders import NoNameColumn
from workbench.read.questions import parse_questions
from workbench.read.resolve import resolve_all
from workbench.read.textio import display_name, read_file
from workbench.run.evaluate import evaluate
from workbench.search.rerankers import RERANKERS
from workbench.search.retrievers import RETRIEVERS
from workbench.store.history import NO_BASELINE, History, gate, parse_bars


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one plain line, not argparse's usage block
        head, _, rest = message.partition(": ")
        if head.startswith("argument ") and rest.startswith(head.removeprefix("argument ") + " "):
            message = rest  # "argument --top-k: --top-k must be …": the flag is named once
        raise UsageError(message)


def _number(kind: type, name: str, least: float | None = None, most: float | None = None):
    """A flag's number, refused with the flag's own name when it is not one or lies outside [least, most]."""

    def parse(value: str):
        try:
            number = kind(value)
        except ValueError:
            number = None
        if number is None or not math.isfinite(number):  # nan would silently switch a check off
            raise argparse.ArgumentTypeError(f"{name} must be a {'whole ' if kind is int else ''}number, not {value!r}")
        if (least is not None and number < least) or (most is not None and number > most):
            span = f"{least:,} or more" if most is None else f"from {least:,} to {most:,}"
            raise argparse.ArgumentTypeError(f"{name} must be {span} ({WHY[name]}), not {value}")
        return number

    return parse


WHY = {
    "--top-k": "the pieces a bot is handed",
    "--depth": "the candidates a reranker reads again",
    "--size": "characters per piece",
    "--overlap": "characters a piece repeats of the one before",
    "--threshold": "a confidence",
}
TOP_K = _number(int, "--top-k", 1, limits.MAX_RANKED)
DEPTH = _number(int, "--depth", 1, limits.MAX_RANKED)
SIZE = _number(int, "--size", 1, limits.MAX_SIZE)
OVERLAP = _number(int, "--overlap", 0, limits.MAX_SIZE)


def _threshold(value: str) -> float | str:
    if value.strip().lower() == "auto":
        return "auto"
    return _number(float, "--threshold", 0, 1)(value)


def _run_options(run: argparse.ArgumentParser) -> None:
    """The options evaluate and sweep share: what to run, how to grade, where results and history go."""
    run.add_argument("--strategies", default=",".join(STRATEGIES.ids()))
    run.add_argument("--retrievers", default="keyword")
    run.add_argument("--rerankers", default="none")
    run.add_argument("--reranker-model", help="folder of a cross-encoder model on disk")
    run.add_argument("--top-k", type=TOP_K, default=5)
    run.add_argument("--size", type=SIZE)
    run.add_argument("--overlap", type=OVERLAP)
    run.add_argument(
        "--threshold", type=_threshold, help="refuse below this confidence (0 to 1); 'auto' fits one on the questions and judges each "
        "question leave-one-out"
    )
    run.add_argument("--depth", type=DEPTH, default=50, help="how many candidates a reranker sees")
    run.add_argument("--sheet", help="the sheet of an Excel file (default: the first with a product-name column)")
    run.add_argument("--name-column", help="the column holding product names (default: found by its header)")
    run.add_argument("--out", help="write to this file instead of the screen")
    run.add_argument("--compare", help="two strategies, A,B: is B really better than A on these questions?")
    run.add_argument("--db", help="the run history file (default: your data folder, or $WORKBENCH_HISTORY_DB)")
    run.add_argument("--no-history", action="store_true", help="do not save this run to the history")
    run.add_argument("--baseline", choices=("last",), help="fail (exit 1) when a score fell since the last saved run")
    run.add_argument("--fail-below", help="fail (exit 1) below these bars, e.g. clean=18,hit_rate=0.9")
    run.add_argument(
        "--progress", action="store_true", help="show progress on stderr (the default when stderr is a terminal)"
    )


def build_parser() -> Parser:
    parser = Parser(prog="python -m workbench", description="Would a chat bot answer correctly from this document?")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    run = commands.add_parser("evaluate", help="grade golden questions under each chunking strategy")
    run.add_argument(
        "document", nargs="+", help="a CSV, XLSX, Markdown, Word, web page or PDF file; several files are one knowledge base"
    )
    run.add_argument("--questions", required=True, help="CSV: question,expected_source,expected_answer[,kind]")
    _run_options(run)
    run.add_argument("--format", choices=("table", "json", "csv", "xlsx"), default="table")
    run.add_argument("--report", help="also write a self-contained HTML report to this file")
    sweep = commands.add_parser(
        "sweep", help="evaluate every document in a folder that has STEM.questions.csv beside it, in one go"
    )
    sweep.add_argument(
        "folder", help="a folder of documents, each with STEM.questions.csv; each sub-folder with one *.questions.csv "
        "is one knowledge base"
    )
    _run_options(sweep)
    sweep.add_argument("--format", choices=("table", "json"), default="table")
    check = commands.add_parser("audit", help="is this list ready for a bot? shared lines, risky content, size")
    check.add_argument("document", nargs="+", help="a file; several files are also checked against each other")
    check.add_argument("--sheet")
    check.add_argument("--name-column")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--out")
    pieces = commands.add_parser("export", help="the pieces of one cut, as JSON lines or CSV for a bot's pipeline")
    pieces.add_argument("document", nargs="+", help="a file; several files are one knowledge base, each piece's source its file")
    pieces.add_argument("--strategy", required=True, help="the way of cutting, e.g. heading")
    pieces.add_argument("--size", type=SIZE)
    pieces.add_argument("--overlap", type=OVERLAP)
    pieces.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    pieces.add_argument("--sheet")
    pieces.add_argument("--name-column")
    pieces.add_argument("--out", help="write to this file instead of the screen")
    ready = commands.add_parser("rewrite", help="a bot-ready Markdown version of the file: same facts, named lines")
    ready.add_argument("document")
    ready.add_argument("--out", help="the Markdown file to write (default: the screen)")
    ready.add_argument("--questions", help="also grade these questions on both files with 300-character windows")

    ready.add_argument("--size", type=SIZE, default=WINDOW_SIZE, help="the windows' size for --questions")
    ready.add_argument("--sheet")
    ready.add_argument("--name-column")
    return parser


def stderr_progress(share: float, text: str) -> None:
    """One self-overwriting progress line on stderr."""
    sys.stderr.write(f"\r{share:4.0%}  {text[:80]:<80}")
    if share >= 1.0:
        sys.stderr.write("\n")
    sys.stderr.flush()


class GateFailed(Exception):
    """The new run fell below the bars or the baseline: exit 1, not 2 (the input was fine)."""


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(
        strategies=STRATEGIES.parse_list(args.strategies),
        retrievers=RETRIEVERS.parse_list(args.retrievers),
        rerankers=RERANKERS.parse_list(args.rerankers),
        top_k=args.top_k,
        size=args.size,
        overlap=args.overlap,
        threshold=args.threshold,
        depth=args.depth,
        reranker_model=args.reranker_model,
    )


def _check_options(args: argparse.Namespace, settings: Settings) -> tuple[str, str] | None:
    """Refuse options that cannot work together, before any work; the --compare pair if there is one."""
    if args.baseline and args.no_history:
        raise WorkbenchError("--baseline last compares with the saved history: drop --no-history")
    if args.format == "xlsx" and not args.out:
        raise WorkbenchError("--format xlsx writes a file: add --out results.xlsx")
    for id in settings.rerankers:  # the engine's words name no flag
        if RERANKERS.get(id).needs_model_path and not args.reranker_model:
            raise WorkbenchError(f"{id}: name the folder of a {id} model on your disk with --reranker-model PATH.")
    compare_pair = _pair(args.compare, settings.strategies) if args.compare else None
    _check_outputs(args)  # before any work: a bad path found after a 10-minute run wastes it
    return compare_pair


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
) -> Graded:
    document = _load(args, document_path)
    questions_bytes = read_file(questions_path)
    questions_name = display_name(Path(questions_path).name)
    questions = parse_questions(questions_bytes, questions_name)
    _some_gradable(document, questions, questions_name)
    baseline = None
    questions_hash = hashlib.sha256(questions_bytes).hexdigest()
    if history is not None and args.baseline == "last":
        # Needed: a history that cannot be read here is an error. Only a run with the same questions and
        # settings is a baseline; with none, say so and judge by the bars alone.
        baseline = history.baseline(document.name, settings, questions_hash)
        if baseline is None:
            print(f"note: {document.name}: {NO_BASELINE}", file=sys.stderr)
    evaluation = evaluate(document, questions, settings, progress=progress)
    comparisons = []
    if compare_pair:
        for run in evaluation.runs:
            if run.strategy == compare_pair[0]:
                other = evaluation.run(compare_pair[1], run.retriever, run.reranker)
                comparisons.append(compare(run, other))
    return Graded(evaluation, comparisons, questions_hash, baseline)


def _load(args: argparse.Namespace, path: str | Path | list):
    """Read the document (several files: one knowledge base) and say on stderr what reading it noticed (a stray
    quote, hidden sheets, formulas)."""
    paths = path if isinstance(path, list) else [path]
    document = load_base(paths, sheet=args.sheet, name_column=args.name_column)  # one file: read as it always was
    for warning in document.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return document


def json_text(data: dict) -> str:
    """JSON as ``json.dumps(data, indent=2, ensure_ascii=False)`` writes it, by orjson.

    The standard library falls back to its pure-Python encoder whenever it indents: a sweep's
    two megabytes took a tenth of the run. orjson writes the same text 40 times faster (a test
    compares them), keys that are not strings and numpy numbers included; only a number below
    0.0001 is spelled out (0.00001, where json.dumps writes 1e-05: the same value), and a NaN
    is written as null, which JSON readers accept where they refuse json.dumps's NaN.
    """
    import orjson  # here: only a JSON output pays for it

    options = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY
    return orjson.dumps(data, option=options).decode("utf-8") + "\n"


def evaluation_json(graded: Graded) -> dict:
    """Evaluate's JSON for one document; sweep lists one of these per document."""
    evaluation = graded.evaluation
    data = to_json(evaluation)
    data["comparisons"] = [asdict(c) | {"sentence": c.sentence()} for c in graded.comparisons]
    verdict = assess(evaluation)
    data["verdict"] = verdict.as_dict()
    data["todo"] = todo_records(evaluation.document, _todo(evaluation, verdict)) if verdict.recommended else []
    if evaluation.document.files:  # a knowledge base: the line per file, and the check-up across files
        from workbench.advise.crossfile import cross_todo, file_lines, other_file_answers

        best = verdict.recommended
        data["files"] = file_lines(evaluation, best) if best else []
        data["other_file_answers"] = other_file_answers(evaluation, best) if best else []
        data["todo_across_files"] = todo_records(evaluation.document, cross_todo(evaluation, best)) if best else []
    return data


def _todo(evaluation, verdict) -> list:
    """The to-do list under the recommended setup. strategies=(): it reads shared lines, long sections and
    unheaded text, never the check-up's unnamed-piece counts, so the three extra cuts are not made here."""
    checkup = audit(evaluation.document, strategies=(), questions=[q.question for q in evaluation.questions])
    return todo_list(evaluation, verdict.recommended, checkup, verdict.baseline)


def evaluation_table(graded: Graded) -> str:
    """Evaluate's table for one document; sweep prints one of these per document."""
    comparisons = "".join(c.sentence() + "\n" for c in graded.comparisons)
    return to_table(graded.evaluation) + comparisons + verdict_text(graded.evaluation)


def _cache_warnings() -> None:
    from workbench.encode.embedding import cache_warnings  # here: the command line starts without numpy's import time

    for warning in cache_warnings():  # the embedding cache failed and was worked around: say so once
        print(f"warning: {warning}", file=sys.stderr)


def _save_and_gate(history: History | None, graded: Graded, bars: dict) -> list[str]:
    """Save a run to the history (after its output is written), then check it against the bars and baseline."""
    # The history is written after the output is saved: a damaged history never costs the run's results.
    if history is not None:
        try:
            history.save(graded.evaluation, graded.questions_hash)
        except WorkbenchError as error:
            print(f"warning: this run was not saved to the history: {error}", file=sys.stderr)
    return gate(graded.evaluation, bars, graded.baseline) if (bars or graded.baseline) else []


def run_evaluate(args: argparse.Namespace) -> None:
    settings = _settings(args)
    bars = parse_bars(args.fail_below) if args.fail_below else {}
    compare_pair = _check_options(args, settings)
    history = _open_history(args)
    show = args.progress or sys.stderr.isatty()
    graded = _grade_file(
        args, settings, args.document, args.questions, compare_pair, history, stderr_progress if show else None
    )
    evaluation = graded.evaluation
    _cache_warnings()
    if args.report:
        from workbench.output.handover import (
            report_html,  # plotly loads only when a report is drawn (DESIGN.md, Start-up)
        )

        _write(args.report, report_html(evaluation))
    if args.format == "json":
        output: str | bytes = json_text(evaluation_json(graded))
    elif args.format == "csv":
        output = to_csv(evaluation)
    elif args.format == "xlsx":
        from workbench.output.handover import results_xlsx  # openpyxl loads only for an Excel file

        output = results_xlsx(evaluation)
    else:
        output = evaluation_table(graded)
    _emit(args, output)
    failures = _save_and_gate(history, graded, bars)
    if failures:
        raise GateFailed(failures)


class SweepErrors(Exception):
    """Some documents could not be evaluated: exit 2 once the others' results are written."""


def run_sweep(args: argparse.Namespace) -> None:
    """Every document in the folder with questions beside it, in this one process: the model and the
    embedding cache are the process-wide ones, so they load once for the whole folder."""
    settings = _settings(args)
    bars = parse_bars(args.fail_below) if args.fail_below else {}
    compare_pair = _check_options(args, settings)
    pairs, skipped = find_documents(args.folder)
    if not pairs:
        reasons = "; ".join(f"{s.document}: {s.reason}" for s in skipped[:3]) or "it holds no documents"
        raise WorkbenchError(
            f"no document in {args.folder} has a questions file beside it named STEM{QUESTIONS_SUFFIX} ({reasons})"
        )
    history = _open_history(args)
    show = args.progress or sys.stderr.isatty()
    done: list[Graded] = []
    errors: list[str] = []
    for number, pair in enumerate(pairs, start=1):
        name = f"{pair.document.name} ({number}/{len(pairs)})"

        def progress(share: float, text: str, name=name, number=number) -> None:
            stderr_progress((number - 1 + share) / len(pairs), f"{name}: {text}")

        try:
            files = list(pair.files) if pair.files else pair.document  # a sub-folder: its files are one base
            done.append(_grade_file(
                args, settings, files, pair.questions, compare_pair, history, progress if show else None
            ))
            continue
        except NoNameColumn as error:
            message = f"{error} Choose one with --name-column."
        except WorkbenchError as error:
            message = str(error)
        if not message.startswith(pair.document.name):  # most errors name the file already
            message = f"{pair.document.name}: {message}"
        errors.append(message)
        skipped.append(Skipped(pair.document.name, f"could not be evaluated: {message}"))
    _cache_warnings()
    summary = summarise([graded.evaluation for graded in done], skipped)
    if args.format == "json":
        data = {"documents": [evaluation_json(graded) for graded in done], "summary": summary}
        output = json_text(data)
    else:
        output = "\n".join(evaluation_table(graded) for graded in done) + "\n" + summary_table(summary)
    _emit(args, output)
    failures = []
    for graded in done:
        failures += [f"{graded.evaluation.document.name}: {f}" for f in _save_and_gate(history, graded, bars)]
    if errors:
        raise SweepErrors(errors, failures)
    if failures:
        raise GateFailed(failures)


def _inputs(args: argparse.Namespace) -> list[str | Path]:
    """Every file the command reads: an output must never be one of them."""
    document = getattr(args, "document", None)
    inputs = [*(document if isinstance(document, list) else [document]), getattr(args, "questions", None)]
    if getattr(args, "folder", None):
        pairs, _ = find_documents(args.folder)
        inputs += [path for pair in pairs for path in (pair.document, pair.questions)]
    return [path for path in inputs if path]


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse --out/--report paths that cannot be written or are an input, before the run rather than after it."""
    if not (getattr(args, "out", None) or getattr(args, "report", None)):
        return
    inputs = _inputs(args)
    for option in ("--out", "--report"):
        check_target(option, getattr(args, option[2:], None), inputs)


def _some_gradable(document, questions, name: str) -> None:
    """Every row left out is not a run: exit 2 and save nothing, naming why the first rows were left out."""
    good, bad = resolve_all(document, questions)
    if good or not bad:
        return
    reasons = "; ".join(f"row {b.question.row}: {b.reason}" for b in bad[:3]) + ("; …" if len(bad) > 3 else "")
    raise WorkbenchError(f"none of the {len(bad)} questions in {name} can be graded against {document.name} ({reasons})")


def _open_history(args: argparse.Namespace) -> History | None:
    """The run history, or None: without --baseline a history that cannot be opened only warns."""
    if args.no_history:
        return None
    try:
        return History(args.db)
    except WorkbenchError as error:
        if args.baseline:
            raise
        print(f"warning: this run will not be saved to the history: {error}", file=sys.stderr)
        return None


def verdict_text(evaluation, items: int = 5) -> str:
    """The status, the recommended setup and the first edits of the to-do list, after the table."""
    verdict = assess(evaluation)
    lines = ["", *verdict.lines()]
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
        todo = _todo(evaluation, verdict)

        # strategies=(): the to-do list reads shared lines, long sections and unheaded text, never the
        # check-up's unnamed-piece counts, so the three extra cuts are not made here.
        checkup = audit(evaluation.document, strategies=(), questions=[q.question for q in evaluation.questions],
                        not_clean=not_clean(verdict.recommended))
        todo = todo_list(evaluation, verdict.recommended, checkup, verdict.baseline)
        if todo:
            lines.append(f"To do ({len(todo)} item(s), most questions fixed first):")
        for number, item in enumerate(todo[:items], start=1):
            where = f" [{item.where}]" if item.where else ""
            lines.append(f"{number:>2}. {item.edit}{where} — {item.affects}")
        if len(todo) > items:
            lines.append(f"    … and {len(todo) - items} more in the report (--report report.html).")
        if evaluation.document.files:
            from workbench.advise.crossfile import cross_todo

            across = cross_todo(evaluation, verdict.recommended)
            if across:
                lines.append(f"To do across the files ({len(across)} item(s)):")
            for number, item in enumerate(across[:items], start=1):
                lines.append(f"{number:>2}. {item.edit} {item.why} — {item.affects}")
            if len(across) > items:
                lines.append(f"    … and {len(across) - items} more in the JSON (--format json).")
    return "\n".join(lines) + "\n"


def _pair(text: str, strategies: list[str]) -> tuple[str, str]:
    pair = [part.strip() for part in text.split(",")]
    if len(pair) != 2 or any(p not in strategies for p in pair):
        raise WorkbenchError(f"--compare takes two of the strategies being run, as A,B; not {text!r}")
    return pair[0], pair[1]


def _write(path: str, content: str | bytes) -> None:
    write_file(path, content)  # a temporary file renamed into place: see workbench/output/safe_write.py


def run_audit(args: argparse.Namespace) -> str:
    document = _load(args, args.document)
    if document.files:  # a knowledge base: each file's own check-up, then what only the files together show
        from workbench.advise.crossfile import cross_findings
        from workbench.advise.todo_places import place_record

        own = [(part.name, audit(part.document)) for part in document.files]
        across = cross_findings(document)
        if args.format == "json":
            return json_text({
                "files": [{"file": name, **result.as_dict()} for name, result in own],
                "across_files": [{"kind": f.kind, "text": f.text, "edit": f.edit,
                                  "places": [place_record(document, span) for span in f.spans[:50]]} for f in across],
            })
        lines = []
        for name, result in own:
            lines += [f"== {name} ==", *result.lines(), ""]
        lines.append(f"== Across the files ({len(across)} finding(s)) ==")
        lines += [f"- {f.text}. {f.edit}" for f in across]
        return "\n".join(lines) + "\n"
    result = audit(document)
    if args.format == "json":
        return json_text(result.as_dict())
    return "\n".join(result.lines()) + "\n"


def run_export(args: argparse.Namespace) -> str:
    from workbench.cut import chunk_document
    from workbench.output.pieces import export_pieces

    STRATEGIES.get(args.strategy)  # an unknown id is named before the file is read
    document = _load(args, args.document)
    chunks = chunk_document(document, args.strategy, size=args.size, overlap=args.overlap)  # offsets checked
    return export_pieces(document, chunks, args.format)


def run_rewrite(args: argparse.Namespace) -> str:
    from workbench.advise.rewrite import grade_rewrite, rewrite

    document = _load(args, args.document)
    result = rewrite(document)
    if args.questions:  # the side-by-side grade goes to stderr, so the Markdown on stdout stays clean
        questions = parse_questions(read_file(args.questions), display_name(Path(args.questions).name))
        before = grade_rewrite(document, questions, size=args.size)
        print(before.sentence(), file=sys.stderr)
        print(f"  your file:      {before.line('original')}", file=sys.stderr)
        print(f"  bot-ready file: {before.line('rewrite')}", file=sys.stderr)
    for line in result.summary():
        print(line, file=sys.stderr)
    return result.text


def _emit(args: argparse.Namespace, output: str | bytes) -> None:
    if args.out:
        _write(args.out, output)
    else:  # bytes (an Excel file) always go to --out: run_evaluate refuses xlsx without it
        write_stdout(output)


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a path that is not valid UTF-8 is printed, not a UnicodeEncodeError
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        args = build_parser().parse_args(argv)
        if args.command in ("audit", "export", "rewrite"):
            _check_outputs(args)
            _emit(args, {"audit": run_audit, "export": run_export, "rewrite": run_rewrite}[args.command](args))
            return 0
        try:
            (run_sweep if args.command == "sweep" else run_evaluate)(args)  # each writes its output, then the history
        except GateFailed as failed:
            (failures,) = failed.args
            print("failed: " + "; ".join(failures), file=sys.stderr)
            return 1
        except SweepErrors as failed:  # the other documents' results are written; these could not be evaluated
            errors, failures = failed.args
            for error in errors:
                print(f"error: {error}", file=sys.stderr)
            if failures:
                print("failed: " + "; ".join(failures), file=sys.stderr)
            return 2
        return 0
    except NoNameColumn as error:  # the engine names no way to choose: on the command line it is a flag
        print(f"error: {error} Choose one with --name-column.", file=sys.stderr)
        return 2
    except (WorkbenchError, UsageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
