"""The ``fix`` command: the user's file with every advised edit of the to-do made, graded before and after.

``python -m workbench fix FILE --questions QUESTIONS --out FIXED`` grades the file as ``evaluate`` does, tries each
to-do item on a copy (``advise/proof.py``), and writes the file with the fixes in its own format
(``output/fixed_file.py``), never over an input or the run history (``cli_args.check_outputs``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.advise.advice import advise
from workbench.core.model import WorkbenchError
from workbench.core.wording import printable
from workbench.output.cli_args import check_options, run_settings
from workbench.output.cli_io import load_document, write_output
from workbench.output.fixed_file import fixed_bytes
from workbench.output.safe_write import write_stdout
from workbench.read.questions import parse_questions
from workbench.read.textio import display_name, read_file
from workbench.run.evaluate import evaluate


def run_fix(args: argparse.Namespace) -> str:
    """Write the fixed file to ``--out``; return what was measured, for the screen."""
    if not args.out:
        raise WorkbenchError("fix writes a copy of your file: name it with --out, e.g. --out shop.fixed.csv")
    settings = run_settings(args)
    check_options(args, settings)  # the fixed file itself was checked by cli.main with every output
    path = Path(args.document)
    document = load_document(args, path)
    questions = parse_questions(read_file(args.questions), display_name(Path(args.questions).name))
    evaluation = evaluate(document, questions, settings)
    advice = advise(evaluation, reader="cli")
    fix = advice.fix
    edits = fix.edits if fix is not None else []
    write_output(args.out, fixed_bytes(read_file(path), document.name, document, edits, sheet=args.sheet))
    lines = []
    if fix is None or not edits:
        clean = advice.verdict.clean
        lines.append(f"No change tried on a copy of {document.name} answered more of your questions cleanly: "
                     f"{args.out} is the file as it is ({clean} of {advice.verdict.answerable} clean).")
    else:
        m = fix.measured
        lines.append(f"{document.name} → {args.out}: {m.clean_before} → {m.clean_after} clean of "
                     f"{advice.verdict.answerable} with {m.setup}, {len(fix.items)} "
                     f"change{'s' if len(fix.items) > 1 else ''} made:")
        lines += [f"  - {item.edit}" + (f" [{item.where}]" if item.where else "") for item in fix.items]
        if m.fixed:
            lines.append(f"Questions now clean (or handed to a person): {', '.join(map(str, m.fixed))}.")
    if advice.not_advised:
        lines.append(f"Left out: {len(advice.not_advised)} change(s) that made a question worse when tried.")
    write_stdout(printable("\n".join(lines) + "\n", lines=True))  # the file's name may hold control characters
    return ""
