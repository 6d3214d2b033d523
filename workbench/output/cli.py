"""The command line: ``python -m workbench evaluate DOCUMENT --questions QUESTIONS.csv``.

Bad input exits with status 2 and one line naming the file, row or value at fault.

The parser and its checks are in ``cli_args``; ``evaluate`` and ``sweep`` in ``cli_evaluate``; ``audit``,
``export`` and ``rewrite`` in ``cli_document``; what they share in ``cli_io``.
"""

from __future__ import annotations

import gc
import sys

from workbench.core.model import WorkbenchError
from workbench.output.cli_args import UsageError, build_parser, check_outputs
from workbench.output.cli_evaluate import GateFailed, SweepErrors, run_evaluate, run_sweep
from workbench.output.cli_io import emit, say
from workbench.read.loaders import NoNameColumn


def main(argv: list[str] | None = None) -> int:
    # A large file is millions of small objects (cells, facts, spans) that live to the end of the run: at the
    # collector's default pace it scanned them over and over, 8 of the 29 s of CPU a 200,000-row check-up took.
    # Young collections every 100,000 objects, not 700, and the old generation a tenth as often.
    gc.set_threshold(100_000, 50, 100)
    for stream in (sys.stdout, sys.stderr):  # a path that is not valid UTF-8 is printed, not a UnicodeEncodeError
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        args = build_parser().parse_args(argv)
        check_outputs(args)  # every command, before any work: a bad path found after a 10-minute run wastes it
        if args.command in ("audit", "export", "rewrite"):
            from workbench.output.cli_document import run_audit, run_export, run_rewrite  # here: not evaluate's

            emit(args, {"audit": run_audit, "export": run_export, "rewrite": run_rewrite}[args.command](args))
            return 0
        if args.command == "fix":
            from workbench.output.cli_fix import run_fix  # here: not evaluate's

            run_fix(args)
            return 0
        try:
            (run_sweep if args.command == "sweep" else run_evaluate)(args)  # each writes its output, then the history
        except GateFailed as failed:
            (failures,) = failed.args
            say("failed", "; ".join(failures))
            return 1
        except SweepErrors as failed:  # the other documents' results are written; these could not be evaluated
            errors, failures = failed.args
            for error in errors:
                say("error", error)
            if failures:
                say("failed", "; ".join(failures))
            return 2
        return 0
    except NoNameColumn as error:  # the engine names no way to choose: on the command line it is a flag
        say("error", f"{error} Choose one with --name-column.")
        return 2
    except (WorkbenchError, UsageError) as error:
        say("error", error)
        return 2
    except KeyboardInterrupt:
        return 130
