"""Fuzzing the command line with generated and mutated files (hypothesis).

Whatever the file, the command ends with status 0, or 2 and one ``error:`` line; never a traceback, and
the input files are byte for byte what they were. Examples are few and the deadline off, so this stays a
few seconds of the suite; a failure prints the smallest file that breaks it.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from workbench.output.cli import main  # noqa: E402

from .conftest import SAMPLE_XLSX  # noqa: E402

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)

# Text made of what breaks readers: quotes, delimiters, line breaks, brackets, Markdown marks, odd Unicode.
PIECES = st.sampled_from(
    [
        '"',
        "'",
        ",",
        ";",
        "\t",
        "|",
        "\n",
        "\r",
        "#",
        "##",
        "- ",
        "* ",
        "```",
        "~~~",
        "---",
        "<",
        ">",
        "<img ",
        "![",
        "](",
        "<script",
        "=",
        "+1",
        "Fan",
        "price",
        "name",
        "10",
        "\u00e9",
        "\u202e",
        "\u200b",
        "\ufeff",
        "\x00",
        " ",
        "    ",
        "Zephyr Table Fan",
        "Warranty: 2 years",
    ]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=40).map("".join)
CELL = st.one_of(TEXT, st.sampled_from(["", "Fan", "Lamp", "10", "=1+1", '"quoted, cell"']))
HEADER = st.lists(
    st.one_of(st.sampled_from(["name", "price", "description", "handle", "title"]), TEXT), min_size=1, max_size=5
)
CSV = st.tuples(HEADER, st.lists(st.lists(CELL, max_size=6), max_size=12), st.sampled_from([",", ";", "\t"])).map(
    lambda parts: "\n".join(parts[2].join(row) for row in [parts[0], *parts[1]])
)
MARKDOWN = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["#", "##", "###", "-", "*", "1.", ">", "```", "|", ""]), TEXT).map(" ".join), TEXT
    ),
    max_size=30,
).map("\n".join)
QUESTIONS = st.lists(st.tuples(TEXT, st.one_of(st.just("Zephyr Table Fan"), TEXT), TEXT), max_size=8).map(
    lambda rows: (
        "question,expected_source,expected_answer\n"
        + "\n".join(",".join('"' + cell.replace('"', '""') + '"' for cell in row) for row in rows)
    )
)


def mutations(data: bytes):
    """The file with a few bytes changed, cut short, or a run of bytes copied over another place."""
    size = len(data)
    flip = st.tuples(st.integers(0, size - 1), st.integers(0, 255))
    return st.one_of(
        st.lists(flip, min_size=1, max_size=8).map(lambda flips: _flipped(data, flips)),
        st.integers(0, size - 1).map(lambda cut: data[:cut]),
        st.tuples(st.integers(0, size - 1), st.integers(0, size - 1), st.integers(1, 512)).map(
            lambda t: data[: t[1]] + data[t[0] : t[0] + t[2]] + data[t[1] + t[2] :]
        ),
    )


def _flipped(data: bytes, flips: list[tuple[int, int]]) -> bytes:
    changed = bytearray(data)
    for at, value in flips:
        changed[at] = value
    return bytes(changed)


def _small_docx() -> bytes:
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_heading("Zephyr Table Fan", level=1)
    document.add_paragraph("Price: 39.90. Warranty: 2 years.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def check(command: str, name: str, data: bytes, questions: str | None = None) -> None:
    """Run one command on the file; assert the exit status, the one error line and the untouched inputs."""
    check_base(command, [(name, data)], questions)


def check_base(command: str, files: list[tuple[str, bytes]], questions: str | None = None, again: str = "") -> None:
    """Run one command on the files (several: one knowledge base); ``again``: "same" names the first file twice,
    "link" adds a link to it beside it (each read once, with a note). The same assertions as ``check``."""
    with tempfile.TemporaryDirectory() as folder:
        documents = []
        for name, data in files:
            documents.append(Path(folder) / name)
            documents[-1].write_bytes(data)
        inputs = list(documents)
        if again == "same":
            documents.append(documents[0])
        elif again == "link":
            documents.append(Path(folder) / f"link{documents[0].suffix}")
            documents[-1].symlink_to(documents[0])
        args = [command, *map(str, documents)]
        if command == "evaluate":
            qs = Path(folder) / "q.csv"
            qs.write_text(
                questions or "question,expected_source,expected_answer\nPrice?,Zephyr Table Fan,39.90\n",
                encoding="utf-8",
                errors="surrogatepass",
            )
            inputs.append(qs)
            args += ["--questions", str(qs), "--strategies", "heading,fixed", "--retrievers", "keyword", "--rerankers",
                     "none", "--no-history", "--format", "json"]
        before = [path.read_bytes() for path in inputs]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)  # any exception but the workbench's own escapes here and fails the test
        errors = [line for line in err.getvalue().splitlines() if line.startswith("error:")]
        assert code in (0, 2), (code, err.getvalue())
        assert "Traceback" not in err.getvalue()
        assert len(errors) == (1 if code == 2 else 0), err.getvalue()
        assert [path.read_bytes() for path in inputs] == before
        if again and code == 0:  # the file named again is read once, and the note says so
            assert "it is read once" in err.getvalue(), err.getvalue()


@FEW
@given(CSV)
def test_generated_csv_files(text):
    check("audit", "prices.csv", text.encode("utf-8", "surrogatepass"))


@FEW
@given(MARKDOWN)
def test_generated_markdown_files(text):
    check("audit", "prices.md", text.encode("utf-8", "surrogatepass"))


@FEW
@given(QUESTIONS)
def test_generated_questions_files(questions):
    check("evaluate", "prices.md", b"# Zephyr Table Fan\nPrice: 39.90\nWarranty: 2 years\n", questions)


@FEW
@given(mutations(SAMPLE_XLSX.read_bytes()))
def test_mutated_sample_workbooks(data):
    check("audit", "prices.xlsx", data)


DOCX = _small_docx()


@FEW
@given(mutations(DOCX))
def test_mutated_word_files(data):
    check("audit", "policy.docx", data)


# JSON as feeds hold it, and as anything else might: any nesting of lists, objects and plain values.
JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT, st.sampled_from(["Fan", "39.90", ""])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.sampled_from(["name", "title", "price", "sku", "tags", "variants"]), TEXT), inner,
                        max_size=5),
    ),
    max_leaves=30,
)
PRODUCT = st.dictionaries(
    st.sampled_from(["name", "title", "price", "description", "sku", "tags", "variants", "dimensions"]),
    JSON_VALUE,
    min_size=1,
    max_size=6,
)
FEED = st.one_of(
    JSON_VALUE,
    st.lists(PRODUCT, max_size=8),
    st.tuples(st.sampled_from(["products", "items", "categories", "data"]), st.lists(PRODUCT, max_size=8), JSON_VALUE)
    .map(lambda parts: {parts[0]: parts[1], "other": parts[2]}),
).map(lambda value: json.dumps(value, ensure_ascii=False))
# A key given twice in one product: JSON text allows it, json.dumps never writes it, so the objects are written here.
TWICE = st.lists(
    st.lists(st.tuples(st.sampled_from(["name", "price", "price", "tags"]), JSON_VALUE), min_size=1, max_size=5),
    min_size=1,
    max_size=5,
).map(lambda items: "[" + ",".join(
    "{" + ",".join(f"{json.dumps(key)}: {json.dumps(value)}" for key, value in item) + "}" for item in items) + "]")
FEED = st.one_of(FEED, TWICE)
SAMPLE_FEED = json.dumps({"products": [
    {"name": "Zephyr Table Fan", "price": 39.9, "tags": ["fan", "desk"], "variants": [{"sku": "Z1", "price": 39.9}]},
    {"name": "Aurora Lamp", "price": 24.5, "dimensions": {"width": 20, "height": 45}},
]}).encode()


@FEW
@given(FEED)
def test_generated_json_feeds(text):
    check("audit", "feed.json", text.encode("utf-8", "surrogatepass"))


@FEW
@given(mutations(SAMPLE_FEED))
def test_mutated_json_feeds(data):
    check("audit", "feed.json", data)


# Several files as one knowledge base: each a generated CSV, Markdown file or feed, the first perhaps named again
# or linked to, graded by one questions file or checked across files.
BASE_FILE = st.one_of(
    CSV.map(lambda text: (".csv", text)), MARKDOWN.map(lambda text: (".md", text)), FEED.map(lambda text: (".json", text))
)


@FEW
@given(
    st.lists(BASE_FILE, min_size=2, max_size=4),
    st.sampled_from(["audit", "evaluate"]),
    st.sampled_from(["", "same", "link"]),
    QUESTIONS,
)
def test_generated_knowledge_bases(files, command, again, questions):
    named = [(f"part{number}{suffix}", text.encode("utf-8", "surrogatepass")) for number, (suffix, text) in
             enumerate(files)]
    check_base(command, named, questions if command == "evaluate" else None, again)


@pytest.mark.slow
def test_the_fuzz_run_stays_under_the_memory_bound(tmp_path):
    """Every generated and mutated file above, run again in a child process whose peak resident memory must
    stay under 1.5 GB: a file that blew up memory and still ended cleanly would pass the tests above and fail
    here. The peak is the child's own VmHWM, read by it at its end: ru_maxrss (wait4's) carries the parent's
    high-water mark over the fork and exec, so under the whole suite (a 2 GB pytest) it measured the suite."""
    import subprocess
    import sys

    from .conftest import ROOT, peak_script

    log = tmp_path / "fuzz.log"
    script = peak_script(f"import pytest\ncode = pytest.main(['-q', '-p', 'no:cacheprovider', {__file__!r}, "
                         "'-m', 'not slow'])")
    with open(log, "w") as out:
        process = subprocess.run([sys.executable, "-c", script], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    text = log.read_text()
    assert process.returncode == 0, text[-3000:]
    assert "8 passed" in text
    peak = float(text.split()[-1])
    assert peak < 1536, peak
