"""The commands about the document itself: its check-up (``audit``), its pieces under one cut (``export``) and
its bot-ready copy (``rewrite``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.advise.audit import audit
from workbench.core.wording import plural, printable
from workbench.cut import STRATEGIES
from workbench.output.cli_io import json_text, load_document
from workbench.read.questions import parse_questions
from workbench.read.textio import display_name, read_file


def run_audit(args: argparse.Namespace) -> str:
    document = load_document(args, args.document)
    if document.files:  # a knowledge base: each file's own check-up, then what only the files together show
        from workbench.advise.crossfile import cross_findings
        from workbench.advise.todo_places import place_record

        own = [(part.name, audit(part.document, meaning=args.meaning)) for part in document.files]
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
        lines.append(f"== Across the files ({plural(len(across), 'finding')}) ==")
        lines += [f"- {f.text}. {f.edit}" for f in across]
        return "\n".join(lines) + "\n"
    result = audit(document, meaning=args.meaning)
    if args.format == "json":
        return json_text(result.as_dict())
    return "\n".join([*reading_lines(document), *result.lines()]) + "\n"


def reading_lines(document) -> list[str]:
    """How the file was read, first: its language and word rules, and a spreadsheet's name, price, description and
    category columns ("Written in Polish; read with Polish word rules.", "Product names from Nazwa, …")."""
    from workbench.read.headers import columns_read
    from workbench.read.language import reading_sentence

    roles = columns_read(document)
    return [reading_sentence(document), *([roles] if roles else [])]


def run_export(args: argparse.Namespace) -> str:
    from workbench.cut import chunk_document
    from workbench.output.pieces import export_pieces

    STRATEGIES.get(args.strategy)  # an unknown id is named before the file is read
    document = load_document(args, args.document)
    chunks = chunk_document(document, args.strategy, size=args.size, overlap=args.overlap)  # offsets checked
    return export_pieces(document, chunks, args.format)


def run_rewrite(args: argparse.Namespace) -> str:
    from workbench.advise.rewrite import grade_rewrite, rewrite

    document = load_document(args, args.document)
    result = rewrite(document)
    if args.questions:  # the side-by-side grade goes to stderr, so the Markdown on stdout stays clean
        questions = parse_questions(read_file(args.questions), display_name(Path(args.questions).name))
        before = grade_rewrite(document, questions, size=args.size)
        print(printable(before.sentence()), file=sys.stderr)
        print(f"  your file:      {printable(before.line('original'))}", file=sys.stderr)
        print(f"  bot-ready file: {printable(before.line('rewrite'))}", file=sys.stderr)
    for line in result.summary():
        print(printable(line), file=sys.stderr)
    return result.text
