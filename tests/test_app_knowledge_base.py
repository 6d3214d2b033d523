"""A knowledge base of several files in the app (Streamlit's AppTest): made by uploading several files, listed with
what was read from each, files added and removed, the result bound to every file, and the base kept for a reload."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui import keys

from .test_app import go, metric, open_app, plain, upload

pytestmark = pytest.mark.usefixtures("word_only_defaults")
KB = Path(__file__).parent / "kb"
FILES = [KB / "catalog.csv", KB / "policies.md", KB / "faq.md"]
QUESTIONS = (KB / "questions.csv").read_bytes()


def upload_files(at: AppTest, paths: list[Path]) -> AppTest:
    at = go(at, "pages/document.py")
    at.file_uploader[0].set_value([(p.name, p.read_bytes(), "text/plain") for p in paths])
    return at.run()


def base_with_questions() -> AppTest:
    at = go(upload_files(open_app(), FILES), "pages/questions.py")
    at.radio(key="import_mode").set_value("replace the table").run()
    at.file_uploader(key="questions_upload").set_value(("questions.csv", QUESTIONS, "text/csv")).run()
    return at


def listed(at: AppTest) -> list[str]:
    """The files the Document page lists, as the reader sees them."""
    return [plain(m.value).split("**")[1] for m in at.markdown if m.value.startswith("**") and ". " in m.value[:6]]


def test_uploading_several_files_makes_one_knowledge_base_listing_what_was_read_from_each():
    at = upload_files(open_app(), FILES)
    assert not at.exception and not at.error
    assert at.session_state[keys.DOC_NAME] == "catalog.csv + policies.md + faq.md"
    assert [f.name for f in at.session_state[keys.FILES]] == ["catalog.csv", "policies.md", "faq.md"]
    assert listed(at) == ["1. catalog.csv", "2. policies.md", "3. faq.md"]
    lines = [plain(m.value) for m in at.markdown if m.value.startswith("**1. ")]
    assert lines == ["**1. catalog.csv** — a spreadsheet (CSV): 3 products, 9 facts, 231 characters"]
    assert [b.key for b in at.button if b.key and b.key.startswith("remove_file_")] == [
        "remove_file_0", "remove_file_1", "remove_file_2"]
    assert at.selectbox(key="w_name_column_0").value == "Name"  # the spreadsheet's own column chooser
    assert metric(at, "Facts (lines)") == "14"  # 9 + 3 + 2, as the command line counts the base
    # A base of spreadsheets starts with the questions generated from them, each naming its file.
    sources = set(at.session_state[keys.QUESTIONS]["expected_source"])
    assert sources == {"catalog.csv › Kettle Pro", "catalog.csv › Toaster Duo", "catalog.csv › Blender Max"}
    # Every page opens on the base; Cuts shows one file at a time, cut in its own text.
    for page in ("pages/cuts.py", "pages/questions.py", "pages/results.py", "pages/compare.py", "pages/checkup.py"):
        at = go(at, page)
        assert not at.exception and not at.error, (page, [e.value for e in at.exception])
    at = go(at, "pages/cuts.py")
    chooser = next(box for box in at.selectbox if box.label == "File of the knowledge base to see cut")
    assert chooser.options == ["catalog.csv", "policies.md", "faq.md"]
    chooser.set_value(1).run()
    # policies.md: one 300-character window, and a piece per heading with facts (Returns, Delivery), drawn from
    # its own text with offsets into it, as a pipeline cutting that file would give them.
    assert [m.value for m in at.metric if m.label == "Pieces"] == ["1", "2"]
    from ui.document import cut

    own = FILES[1].read_text()
    (returns, delivery) = cut(at.session_state[keys.FILES], 1, "heading", 300, 45)
    assert returns.start == own.index("## Returns") and own[delivery.start:].startswith("## Delivery")
    assert "Refunds are paid within 5 working days." in "".join(b.proto.body for b in at.get("html"))


def test_adding_and_removing_files_keeps_the_questions_and_one_file_left_is_checked_on_its_own():
    at = base_with_questions()
    at = go(at, "pages/document.py")
    at.button(key="remove_file_2").click().run()  # faq.md out
    assert at.session_state[keys.DOC_NAME] == "catalog.csv + policies.md"
    assert len(at.session_state[keys.QUESTIONS]) == 3  # the questions stay; the FAQ's is left out until changed
    assert at.session_state[keys.NOTICE] == "Took faq.md out of the knowledge base. Your 3 questions stay with it."
    at = go(at, "pages/results.py")
    assert any("Row 4 left out" in w.value for w in at.warning)
    # Added again from the page's second box: the base grows back, in the new order.
    at = go(at, "pages/document.py")
    at.file_uploader[1].set_value(("faq.md", FILES[2].read_bytes(), "text/markdown")).run()
    assert at.session_state[keys.DOC_NAME] == "catalog.csv + policies.md + faq.md"
    at.button(key="remove_file_1").click().run()
    at.button(key="remove_file_1").click().run()
    # Down to one file: checked on its own, exactly as an upload of it alone; "catalog.csv › …" says "…" now.
    assert at.session_state[keys.DOC_NAME] == "catalog.csv" and len(at.session_state[keys.FILES]) == 1
    assert not [b for b in at.button if b.key and b.key.startswith("remove_file_")]
    assert "What was read from catalog\\.csv" in [s.value for s in at.subheader]
    assert metric(at, "Products") == "3"
    assert list(at.session_state[keys.QUESTIONS]["expected_source"])[0] == "Kettle Pro"


def test_the_result_is_bound_to_every_file_and_a_new_version_of_one_makes_it_out_of_date():
    at = go(base_with_questions(), "pages/results.py")
    stamp = at.session_state[keys.RESULT_STAMP]
    assert stamp.document == "catalog.csv + policies.md + faq.md" and len(stamp.files) == 3
    assert "Results for **catalog\\.csv \\+ policies\\.md \\+ faq\\.md with 3 questions**." in [
        m.value for m in at.markdown]
    at.multiselect(key="w_run_retrievers").set_value(["dense"]).run()  # needs the model: never run by itself
    # A new version of policies.md, added from the second box, takes the old one's place.
    at = go(at, "pages/document.py")
    edited = FILES[1].read_bytes().replace(b"30 days after delivery", b"14 days after delivery")
    at.file_uploader[1].set_value(("policies.md", edited, "text/markdown")).run()
    assert [f.name for f in at.session_state[keys.FILES]] == ["catalog.csv", "policies.md", "faq.md"]
    assert at.session_state[keys.FILES][1].data == edited
    at = go(at, "pages/results.py")
    [stale] = [plain(w.value) for w in at.warning if "Out of date" in w.value]
    assert "policies.md has been replaced by another version" in stale and "questions were edited" not in stale
    assert at.session_state[keys.RESULT_STAMP] == stamp  # the old result, shown as old


def test_a_reload_restores_the_base_its_questions_and_each_file_s_reading():
    at = base_with_questions()
    at = go(at, "pages/document.py")
    at.selectbox(key="w_name_column_0").set_value("Price").run()  # a file's own reading, kept for it
    again = go(open_app(), "pages/document.py")  # a reload is a new session on the same computer
    assert [f.name for f in again.session_state[keys.FILES]] == ["catalog.csv", "policies.md", "faq.md"]
    assert again.session_state[keys.FILES][0].name_column == "Price"
    assert list(again.session_state[keys.QUESTIONS]["question"]) == [
        "Can I return the kettle 30 days after delivery?", "How long do refunds take?", "Does the Blender Max crush ice?"]
    # Back to the sample, then the recent list reopens the base with its questions.
    again.button[0].click().run()  # Go back to the sample
    reopen = [b for b in again.button if b.key and b.key.startswith("reopen_")]
    labels = [plain(b.label) for b in reopen]
    assert labels and labels[0].startswith("catalog.csv + policies.md + faq.md (a knowledge base of 3 files) — ")
    reopen[0].click().run()
    assert again.session_state[keys.DOC_NAME] == "catalog.csv + policies.md + faq.md"
    assert len(again.session_state[keys.QUESTIONS]) == 3


def test_undo_in_a_knowledge_base_works_as_in_a_file_and_a_reload_keeps_the_table_but_offers_no_redo():
    at = base_with_questions()
    at.button(key="undo_button").click().run()  # the import undone: the generated questions are back
    assert len(at.session_state[keys.QUESTIONS]) == 9
    at.button(key="redo_button").click().run()
    assert len(at.session_state[keys.QUESTIONS]) == 3
    at.button(key="undo_button").click().run()
    # A reload is a new session: the table as it was left, and no Undo or Redo of the last session's changes.
    again = go(open_app(), "pages/questions.py")
    assert len(again.session_state[keys.QUESTIONS]) == 9
    assert not [b for b in again.button if b.key in ("undo_button", "redo_button")]


def test_names_in_a_base_are_shown_as_text():
    at = upload_files(open_app(), [FILES[1]])  # one file first, then a hostile name added beside it
    at.file_uploader[1].set_value(("[x](http://evil.example.com).md", b"# T\n\n## A\nPrice: 1\n", "text/markdown")).run()
    assert not at.exception
    shown = [m.value for m in at.markdown if m.value.startswith("**2. ")]
    assert shown and "\\[x\\]\\(http\\:\u2060//evil" in shown[0]
    assert "](http" not in "".join(m.value for m in at.markdown)


def test_the_questions_page_checks_answers_in_a_base_naming_the_file_and_its_own_line():
    from workbench.read.base_of_files import combine
    from workbench.read.loaders import load_path
    from workbench.read.locate import locate, source_names

    base = combine([load_path(path) for path in FILES])
    assert locate(base, "policies.md › Returns", "within 5 working days").detail == "Found in Returns, policies.md line 5."
    assert locate(base, "Kettle Pro", "30 days").detail == "Found in Kettle Pro, catalog.csv row 2, column Returns."
    assert locate(base, "Kettle Pro", "5 working days").detail == (
        "“5 working days” is not in Kettle Pro; it is in Returns, policies.md line 5.")
    assert "Returns" in source_names(base)  # a name found in one file only stays bare
    from dataclasses import replace

    twice = combine([load_path(FILES[1]), load_path(FILES[2]), replace(load_path(FILES[1]), name="more.md")])
    assert {"policies.md › Returns", "more.md › Returns"} <= set(source_names(twice))


def test_a_file_s_bot_ready_version_is_graded_in_its_base():
    from workbench.advise.rewrite import grade_rewrite
    from workbench.read.base_of_files import combine
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions

    base = combine([load_path(path) for path in FILES])
    asked = parse_questions(QUESTIONS, "questions.csv")
    before = grade_rewrite(base.files[1].document, asked, base=base)
    # All three questions resolve in both bases (the policies page's rewrite keeps its headings), and the catalog's
    # kettle question is still lost to the policies page's returns line: one decoy before and after.
    assert before.answerable == 3 and before.original["decoy"] == before.rewrite["decoy"] == 1


def test_the_head_of_a_long_knowledge_base_holds_whole_files_then_the_head_of_one():
    from workbench.cut import chunk_document
    from workbench.read.base_of_files import combine
    from workbench.read.loaders import load_path
    from workbench.read.sample import head

    base = combine([load_path(path) for path in FILES])
    short = head(base, base.files[1].end + 10).document  # the limit falls in faq.md, after its title
    assert [part.name for part in short.files] == ["catalog.csv", "policies.md", "faq.md"]
    assert short.files[2].document.text == load_path(FILES[2]).text[: len(short.files[2].document.text)]
    assert len(short.text) < len(base.text)
    for chunk in chunk_document(short, "fixed", size=120, overlap=20):  # every piece inside the head's own text
        assert chunk.spans[-1][1] <= len(short.text)
    assert head(base, 50).document.name == "catalog.csv"  # within the first file: that file's head alone


def test_the_app_opens_on_the_sample_knowledge_base_and_shows_what_only_its_files_together_show():
    at = open_app()
    assert at.session_state[keys.DOC_NAME] == "breezy_home_price_list.md + breezy_home_policies.md"
    assert listed(go(at, "pages/document.py")) == ["1. breezy_home_price_list.md", "2. breezy_home_policies.md"]
    assert len(at.session_state[keys.QUESTIONS]) == 26  # the price list's 24 and the policies page's 2
    at = go(at, "pages/results.py")
    shown = [plain(m.value) for m in at.markdown]
    assert "- breezy_home_policies.md: 1 of 1 question clean (100%)." in "\n".join(shown)
    assert "**What to change across the files**" in shown
    across = next(m for m in shown if "agree on Returns" in m)
    # Numbered after the file's own advised items, of which there are none (every question is clean: the seven
    # items tried on a copy are optional tidying, folded and not counted).
    assert across.startswith("**1. Make breezy_home_policies.md and breezy_home_price_list.md agree on Returns")
    assert "breezy_home_policies.md line 4" in across  # the policies page's own line, not the base's
    at = go(at, "pages/checkup.py")
    assert at.subheader[0].value == "Across the files"
    conflict = plain(at.warning[0].value)
    assert conflict.startswith("**Stated differently:** “Returns: 14 days from delivery, in the original box.” in "
                               "breezy_home_policies.md line 4 vs “Returns: 30 days, unused, in the original box.”")


def test_a_file_dropped_beside_one_the_box_shows_says_they_are_now_checked_together():
    """The walk-through dropped a second file into the box that still showed the first, to switch to it, and got
    both checked as one knowledge base with no word of how; several files chosen at once need no such word."""
    at = upload_files(open_app(), FILES[:1])
    assert not [s.value for s in at.success]
    at = upload_files(at, FILES[:2])
    assert listed(at) == ["1. catalog.csv", "2. policies.md"]
    assert [plain(s.value) for s in at.success] == [
        "policies.md joined the file already in the box above: they are checked together as one knowledge base. To "
        "check a file on its own, take the other out with “Remove” below."]
    at = upload_files(open_app(), FILES)
    assert not [s.value for s in at.success]


def test_a_file_dropped_beside_one_that_could_not_be_read_replaces_it():
    """The walk-through dropped an empty CSV, then the file it meant, into the box that still showed the empty one:
    the two became a knowledge base that nothing could be read from until the empty file was removed."""
    at = go(open_app(), "pages/document.py")
    at.file_uploader[0].set_value([("empty.csv", b"", "text/csv")]).run()
    assert any("empty.csv is empty" in plain(e.value) for e in at.error)
    at.file_uploader[0].set_value([("empty.csv", b"", "text/csv"), (FILES[0].name, FILES[0].read_bytes(), "text/csv")])
    at.run()
    assert not at.exception
    assert [plain(s.value) for s in at.subheader] == [f"What was read from {FILES[0].name}"]
    assert [plain(s.value) for s in at.success] == [f"empty.csv could not be read, so it is left out: {FILES[0].name} "
                                                    "is checked on its own."]
    assert not at.file_uploader[0].value  # the box no longer shows the unreadable file, to be joined again


def test_the_checkups_structure_says_when_it_found_nothing():
    """On the walk's three-product CSV the Structure heading stood over nothing, where the other checks say so."""
    data = b"Name,Price\nPlain Chair,30\nOak Table,90\nSmall Lamp,12\n"
    at = go(upload(open_app(), "tidy.csv", data), "pages/checkup.py")
    assert not at.exception
    assert "Nothing to report: no text under no heading, no product too long for the search model to read at once, " \
           "and no two products with the same name." in [s.value for s in at.success]
