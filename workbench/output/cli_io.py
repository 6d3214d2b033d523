"""What the commands share: reading the document the arguments name (saying on stderr what reading it noticed),
JSON as the command line writes it, and writing an output to ``--out`` or the screen.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.core.wording import printable
from workbench.output.safe_write import write_file, write_stdout
from workbench.read.base_of_files import load_base


def load_document(args: argparse.Namespace, path: str | Path | list):
    """Read the document (several files: one knowledge base) and say on stderr what reading it noticed (a stray
    quote, hidden sheets, formulas)."""
    paths = path if isinstance(path, list) else [path]
    document = load_base(paths, sheet=args.sheet, name_column=args.name_column)  # one file: read as it always was
    for warning in document.warnings:
        say("warning", warning)
    return document


def say(kind: str, message: object) -> None:
    """One line on stderr ("error: …", "warning: …", "note: …"), every control character in it escaped: messages
    name the user's files and values, and a name holding an escape sequence must not act on the terminal."""
    print(f"{kind}: {printable(message)}", file=sys.stderr)


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


def write_output(path: str, content: str | bytes) -> None:
    write_file(path, content)  # a temporary file renamed into place: see workbench/output/safe_write.py


HUMAN_FORMATS = ("table", "text")  # outputs read by a person: their control characters escaped, as messages' are


def emit(args: argparse.Namespace, output: str | bytes) -> None:
    if isinstance(output, str) and getattr(args, "format", None) in HUMAN_FORMATS:
        output = printable(output, lines=True)  # the data formats (JSON, CSV, Markdown) keep the file's text as it is
    if args.out:
        write_output(args.out, output)
    else:  # bytes (an Excel file) always go to --out: run_evaluate refuses xlsx without it
        write_stdout(output)
