"""The command line's arguments: the parser and its flags, the settings they make, and the checks of options
and output paths made before any work.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from workbench.core import limits
from workbench.core.model import Settings, WorkbenchError
from workbench.cut import STRATEGIES
from workbench.cut.windows import WINDOW_SIZE
from workbench.output.safe_write import check_targets
from workbench.output.sweep import find_documents
from workbench.run import defaults
from workbench.search.rerankers import RERANKERS
from workbench.search.retrievers import RETRIEVERS


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
    "--jobs": "files graded at once; 0 is one per core",
}
TOP_K = _number(int, "--top-k", 1, limits.MAX_RANKED)
DEPTH = _number(int, "--depth", 1, limits.MAX_RANKED)
SIZE = _number(int, "--size", 1, limits.MAX_SIZE)
OVERLAP = _number(int, "--overlap", 0, limits.MAX_SIZE)
JOBS = _number(int, "--jobs", 0, limits.MAX_JOBS)


def _threshold(value: str) -> float | str | None:
    word = value.strip().lower()
    if word == "auto":
        return "auto"
    if word == "none":
        return None
    return _number(float, "--threshold", 0, 1)(value)


def _listed(values: tuple[str, ...]) -> str:
    return ",".join(values)


def _run_options(run: argparse.ArgumentParser) -> None:
    """The options evaluate and sweep share: what to run, how to grade, where results and history go.

    The setups and grading start from ``run.defaults.DEFAULTS``, the object the app and the benchmarks read, read
    when the parser is built; each flag's help names its default."""
    start = defaults.DEFAULTS
    run.add_argument("--strategies", default=_listed(start.strategies),
                     help="the ways of cutting the file, comma-separated (default: %(default)s)")
    run.add_argument("--retrievers", default=_listed(start.retrievers),
                     help="the searches (default: %(default)s)")
    run.add_argument("--rerankers", default=_listed(start.rerankers),
                     help="the re-checks of the search's shortlist; none is no re-check (default: %(default)s)")
    run.add_argument("--reranker-model", help="folder of a cross-encoder model on disk")
    run.add_argument("--top-k", type=TOP_K, default=start.top_k,
                     help="pieces handed to the bot per question (default: %(default)s)")
    run.add_argument("--size", type=SIZE, default=start.size,
                     help="characters per piece, for the cuts that take a size (default: %(default)s)")
    run.add_argument("--overlap", type=OVERLAP, help="characters a window repeats of the one before "
                     f"(default: {start.overlap}, at most half of --size)")
    run.add_argument(
        "--threshold", type=_threshold, default=start.threshold,
        help="refuse below this confidence (0 to 1); 'auto' fits one on the questions and judges each question "
        "leave-one-out; 'none' never refuses (default: %(default)s)"
    )
    run.add_argument("--depth", type=DEPTH, default=start.depth,
                     help="how many candidates a reranker sees (default: %(default)s)")
    run.add_argument("--quick", action="store_true",
                     help="stop after the first stage, word search without the language model, and give its verdict "
                     "(default: every stage, word search's verdict shown first)")
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
    run.add_argument("--format", choices=("table", "json", "csv", "xlsx"), default="table",
                     help="(default: %(default)s)")
    run.add_argument("--report", help="also write a self-contained HTML report to this file")
    sweep = commands.add_parser(
        "sweep", help="evaluate every document in a folder that has STEM.questions.csv beside it, in one go"
    )
    sweep.add_argument(
        "folder", help="a folder of documents, each with STEM.questions.csv; each sub-folder with one *.questions.csv "
        "is one knowledge base"
    )
    _run_options(sweep)
    sweep.add_argument("--format", choices=("table", "json"), default="table", help="(default: %(default)s)")
    sweep.add_argument("--jobs", type=JOBS, default=0, metavar="N",
                       help="how many files are graded at once, a process each: 0 is one per core; word search only "
                       "(the language model uses every core by itself, so it grades one file at a time) (default: 0)")
    check = commands.add_parser("audit", help="is this list ready for a bot? shared lines, risky content, size")
    check.add_argument("document", nargs="+", help="a file; several files are also checked against each other")
    check.add_argument("--sheet")
    check.add_argument("--name-column")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--meaning", action=argparse.BooleanOptionalAction, default=True,
                       help="look for orders to a bot by their meaning too, finding paraphrases no list of phrases "
                       "holds: the language model is loaded (a few seconds) only when a line speaks of instructions "
                       "or of what the reader was told; --no-meaning skips it (default: on)")
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
    fixing = commands.add_parser("fix", help="a copy of your file with every change of the to-do list that was "
                                 "measured to help, graded before and after")
    fixing.add_argument("document", help="a CSV, XLSX or Markdown file")
    fixing.add_argument("--questions", required=True, help="CSV: question,expected_source,expected_answer[,kind]")
    _run_options(fixing)
    fixing.set_defaults(format="fixed", report=None, no_history=True)
    ready = commands.add_parser("rewrite", help="a bot-ready Markdown version of the file: same facts, named lines")
    ready.add_argument("document")
    ready.add_argument("--out", help="the Markdown file to write (default: the screen)")
    ready.add_argument("--questions", help="also grade these questions on both files with 300-character windows")

    ready.add_argument("--size", type=SIZE, default=WINDOW_SIZE, help="the windows' size for --questions")
    ready.add_argument("--sheet")
    ready.add_argument("--name-column")
    for command in (parser, run, sweep, check, pieces, ready):
        command.epilog = exit_status(command)
    return parser


# What each exit status means, as main() (workbench/output/cli.py) returns them; --help shows it.
EXIT_DONE = "0 when the command did its work"
EXIT_GATE = ("1 when the questions were graded but a score is below a --fail-below bar, or fell since the last saved "
             "run (--baseline last); the results are written first")
EXIT_BAD = ("2 when an input, an option or an output path is refused, or a file cannot be written (one 'error:' line "
            "on stderr says which)")
EXIT_SWEEP = ("sweep exits 2 when some documents could not be evaluated: the others' results are written, then "
              "one 'error:' line for each")
EXIT_STOPPED = "130 when stopped with Ctrl+C"


def exit_status(command: argparse.ArgumentParser) -> str:
    name = command.prog.rsplit(" ", 1)[-1]
    if name in ("evaluate", "sweep", "workbench"):
        done = EXIT_DONE + " and every bar it was given held"
        parts = [done, EXIT_GATE, EXIT_BAD + (f"; {EXIT_SWEEP}" if name != "evaluate" else ""), EXIT_STOPPED]
    else:
        parts = [EXIT_DONE, EXIT_BAD, EXIT_STOPPED]
    return "Exit status: " + "; ".join(parts) + "."


def run_settings(args: argparse.Namespace) -> Settings:
    return Settings(
        strategies=STRATEGIES.parse_list(args.strategies),
        retrievers=RETRIEVERS.parse_list(args.retrievers),
        rerankers=RERANKERS.parse_list(args.rerankers),
        top_k=args.top_k,
        size=args.size,
        overlap=defaults.overlap_for(args.size, args.overlap),
        threshold=args.threshold,
        depth=args.depth,
        reranker_model=args.reranker_model,
    )


def check_options(args: argparse.Namespace, settings: Settings) -> tuple[str, str] | None:
    """Refuse options that cannot work together, before any work; the --compare pair if there is one."""
    if args.baseline and args.no_history:
        raise WorkbenchError("--baseline last compares with the saved history: drop --no-history")
    if args.baseline and args.quick:  # a --quick result is partial, and only complete runs are saved
        raise WorkbenchError("--baseline last compares complete runs, and --quick stops after word search: drop one")
    if args.format == "xlsx" and not args.out:
        raise WorkbenchError("--format xlsx writes a file: add --out results.xlsx")
    for id in settings.rerankers:  # the engine's words name no flag
        if RERANKERS.get(id).needs_model_path and not args.reranker_model:
            raise WorkbenchError(f"{id}: name the folder of a {id} model on your disk with --reranker-model PATH.")
    return _pair(args.compare, settings.strategies) if args.compare else None


def _pair(text: str, strategies: list[str]) -> tuple[str, str]:
    pair = [part.strip() for part in text.split(",")]
    if len(pair) != 2 or any(p not in strategies for p in pair):
        raise WorkbenchError(f"--compare takes two of the strategies being run, as A,B; not {text!r}")
    return pair[0], pair[1]


# Every option that names a file the command writes. A new command's output option is added here, and
# check_outputs then holds it to the same rules as the others: never onto an input, the history or another output.
OUTPUTS = ("--out", "--report")


def _inputs(args: argparse.Namespace) -> list[str | Path]:
    """Every file the command reads: an output must never be one of them."""
    document = getattr(args, "document", None)
    inputs = [*(document if isinstance(document, list) else [document]), getattr(args, "questions", None)]
    if getattr(args, "folder", None):
        pairs, _ = find_documents(args.folder)
        inputs += [path for pair in pairs for path in (pair.files or (pair.document,)) + (pair.questions,)]
    return [path for path in inputs if path]


def _kept(args: argparse.Namespace) -> list[tuple[Path, str]]:
    """The files the workbench keeps, each named as a message says it: an output must never replace one. The
    history is the one --db names and the default one, since a command without --db (audit) may be given its path;
    the app's saved work sits beside it."""
    from workbench.store.paths import history_path, workspace_path

    kept = [(Path(args.db), "the run history (--db)")] if getattr(args, "db", None) else []
    kept.append((history_path(), "the run history"))
    workspace = workspace_path()
    if workspace is not None:
        kept.append((workspace, "the app's saved work"))
    return kept


def check_outputs(args: argparse.Namespace, more: dict[str, str | Path] | None = None) -> None:
    """The one check of every file a command writes (the options in ``OUTPUTS``), made before any work: a path
    that cannot be written, that is an input, the run history or the app's saved work, or that two outputs share
    is refused in plain words (exit 2) and nothing is written or opened. ``more``: a file the command writes that
    no option names (a path it makes itself), as the message should call it, e.g. ``{"the fixed file": path}``.
    See ``safe_write.check_targets``; write each with ``safe_write.write_file`` (whole or not at all)."""
    targets = {option: getattr(args, option[2:].replace("-", "_"), None) for option in OUTPUTS}
    targets.update({what: str(path) for what, path in (more or {}).items()})
    if not any(targets.values()):
        return
    check_targets(targets, _inputs(args), _kept(args))
