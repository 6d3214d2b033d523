"""Word, web pages and PDF: converted to Markdown, read as Markdown, evaluated end to end."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from workbench.core.model import WorkbenchError
from workbench.cut import chunk_document
from workbench.output.cli import main
from workbench.read.converted import mark_headings
from workbench.read.loaders import CONVERSION_NOTES, SUPPORTED, load_bytes, load_path

from . import policy_files as policy

pytest.importorskip("markitdown")
pytest.importorskip("docx")
pytest.importorskip("fpdf")

HEADINGS = ["Breezy Home warranty and returns", "Aurora Ceiling Fan", "Nimbus Air Purifier", "Zephyr Table Fan"]
BUILDERS = {"policy.docx": policy.docx_bytes, "policy.html": policy.html_bytes, "policy.htm": policy.html_bytes,
            "policy.pdf": policy.pdf_bytes}


def test_the_new_formats_are_offered():
    assert {".docx", ".html", ".htm", ".pdf"} <= set(SUPPORTED)


@pytest.mark.parametrize("name", list(BUILDERS))
def test_headings_become_sections_and_every_fact_points_into_the_converted_text(name):
    document = load_bytes(BUILDERS[name](), name)
    assert document.converted_from == {"docx": "docx", "html": "html", "htm": "html", "pdf": "pdf"}[name.split(".")[1]]
    assert [s.heading for s in document.sections] == HEADINGS
    assert [s.level for s in document.sections] == [1, 2, 2, 2]
    assert [[document.slice(f.span) for f in s.facts] for s in document.sections[1:]] == [
        lines for _, lines in policy.PRODUCTS
    ]
    assert document.slice(document.sections[0].facts[0].span) == policy.INTRO
    assert "tracking" not in document.text and "color" not in document.text  # scripts and styles dropped
    for strategy in ("fixed", "heading", "langchain-recursive-1000"):
        chunk_document(document, strategy)  # every offset checked against the converted text


@pytest.mark.parametrize("name", ["policy.docx", "policy.html", "policy.pdf"])
def test_each_format_evaluates_end_to_end_on_the_command_line(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(BUILDERS[name]())
    questions = tmp_path / "questions.csv"
    questions.write_text(policy.QUESTIONS, encoding="utf-8")
    out = tmp_path / "result.json"
    code = main(["evaluate", str(path), "--questions", str(questions), "--strategies", "fixed,heading",
                 "--retrievers", "keyword", "--rerankers", "none",
                 "--no-history", "--format", "json", "--out", str(out)])
    assert code == 0
    runs = {run["strategy"]: run for run in json.loads(out.read_text(encoding="utf-8"))["runs"]}
    assert runs["heading"]["clean"] == 4  # all four answerable questions, cut at the headings


def test_every_format_says_what_may_have_been_lost():
    assert "guessed" in CONVERSION_NOTES["pdf"] and "tables may have flattened" in CONVERSION_NOTES["pdf"]
    assert "heading styles" in CONVERSION_NOTES["docx"]
    assert "<h1>" in CONVERSION_NOTES["html"]


def test_pdf_headings_are_marked_in_order_so_a_repeated_line_is_marked_where_it_was_a_heading():
    text = "Fans\nAurora\nprice list mentions Aurora\nAurora\nWarranty: 1 year."
    assert mark_headings(text, [("Fans", 1), ("Aurora", 2)]) == (
        "# Fans\n## Aurora\nprice list mentions Aurora\nAurora\nWarranty: 1 year."
    )


def refused(call, *fragments):
    with pytest.raises(WorkbenchError) as caught:
        call()
    for fragment in fragments:
        assert fragment in str(caught.value)
    return str(caught.value)


def test_an_encrypted_pdf_is_named_as_such():
    refused(lambda: load_bytes(policy.pdf_bytes(password="secret"), "locked.pdf"),
            "locked.pdf is protected with a password")


def test_an_image_only_pdf_says_it_has_no_text():
    refused(lambda: load_bytes(policy.image_only_pdf_bytes(), "scan.pdf"),
            "scan.pdf has no text to read", "text recognition (OCR)")


def test_a_damaged_pdf_is_named():
    cut = policy.pdf_bytes()[:200]
    refused(lambda: load_bytes(cut, "cut.pdf"), "cut.pdf")
    refused(lambda: load_bytes(b"just some words", "fake.pdf"), "fake.pdf is not a PDF")


def test_a_corrupt_docx_is_named():
    data = policy.docx_bytes()
    refused(lambda: load_bytes(data[: len(data) // 2], "cut.docx"), "cut.docx")
    refused(lambda: load_bytes(b"plain words, not a Word file", "fake.docx"), "fake.docx is not a Word file")
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as archive:  # a zip, but with no Word document inside
        archive.writestr("hello.txt", "hi")
    refused(lambda: load_bytes(broken.getvalue(), "empty.docx"), "empty.docx cannot be read")


def test_a_password_protected_docx_is_named():
    ole2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504  # Word saves a protected .docx in this container
    refused(lambda: load_bytes(ole2, "locked.docx"), "locked.docx is protected with a password")


def test_a_web_page_with_no_text_is_named():
    refused(lambda: load_bytes(b"<html><script>var a = 1;</script></html>", "empty.html"),
            "empty.html holds no text")


def test_files_on_disk_load_by_their_extension(tmp_path):
    path = tmp_path / "Policy.HTM"
    path.write_bytes(policy.html_bytes())
    assert load_path(path).converted_from == "html"
