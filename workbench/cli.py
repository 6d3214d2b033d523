"""The command line: ``python -m workbench evaluate DOCUMENT --questions QUESTIONS.csv``.

Bad input exits with status 2 and one line naming the file, row or value at fault.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .evaluate import evaluate
from .loaders import load_path
from .model import Settings, WorkbenchError
from .questions import parse_questions
from .report import to_csv, to_json, to_table
from .rerankers import RERANKERS
from .retrievers import RETRIEVERS
from .strategies import STRATEGIES


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one plain line, not argparse's usage block
        raise UsageError(message)


def _number(kind: type, name: str):
    def parse(value: str):
        try:
            return kind(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a {'whole ' if kind is int else ''}number, not {value!r}")

    return parse


def _threshold(value: str) -> float | str:
    if value.strip().lower() == "auto":
        return "auto"
    return _number(float, "--threshold")(value)


def build_parser() -> Parser:
    parser = Parser(prog="python -m workbench", description="Would a chat bot answer correctly from this document?")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    run = commands.add_parser("evaluate", help="grade golden questions under each chunking strategy")
    run.add_argument("document", help="a CSV, XLSX or Markdown file")
    run.add_argument("--questions", required=True, help="CSV: question,expected_source,expected_answer[,kind]")
    run.add_argument("--strategies", default=",".join(STRATEGIES.ids()))
    run.add_argument("--retrievers", default="keyword")
    run.add_argument("--rerankers", default="none")
    run.add_argument("--reranker-model", help="folder of a cross-encoder model on disk")
    run.add_argument("--top-k", type=_number(int, "--top-k"), default=5)
    run.add_argument("--size", type=_number(int, "--size"))
    run.add_argument("--overlap", type=_number(int, "--overlap"))
    run.add_argument(
        "--threshold", type=_threshold, help="refuse below this score; 'auto' finds the best one on the questions"
    )
    run.add_argument("--depth", type=_number(int, "--depth"), default=50, help="how many candidates a reranker sees")
    run.add_argument("--sheet", help="the sheet of an Excel file (default: the first)")
    run.add_argument("--name-column", help="the column holding product names (default: found by its header)")
    run.add_argument("--format", choices=("table", "json", "csv"), default="table")
    run.add_argument("--out", help="write to this file instead of the screen")
    run.add_argument(
        "--progress", action="store_true", help="show progress on stderr (the default when stderr is a terminal)"
    )
    return parser


def stderr_progress(share: float, text: str) -> None:
    """One self-overwriting progress line on stderr."""
    sys.stderr.write(f"\r{share:4.0%}  {text[:80]:<80}")
    if share >= 1.0:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run_evaluate(args: argparse.Namespace) -> str:
    settings = Settings(
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
    document = load_path(args.document, sheet=args.sheet, name_column=args.name_column)
    questions_path = Path(args.questions)
    if not questions_path.is_file():
        raise WorkbenchError(f"{questions_path} does not exist.")
    questions = parse_questions(questions_path.read_bytes(), questions_path.name)
    show = args.progress or sys.stderr.isatty()
    evaluation = evaluate(document, questions, settings, progress=stderr_progress if show else None)
    if args.format == "json":
        return json.dumps(to_json(evaluation), indent=2, ensure_ascii=False) + "\n"
    if args.format == "csv":
        return to_csv(evaluation)
    return to_table(evaluation)


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        output = run_evaluate(args)
        if args.out:
            try:
                Path(args.out).write_text(output, encoding="utf-8")
            except OSError as error:
                raise WorkbenchError(f"cannot write {args.out}: {error.strerror or error}") from None
        else:
            sys.stdout.write(output)
        return 0
    except (WorkbenchError, UsageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
