"""The work kept on this computer, the stamp that ties a result to its inputs, the answer check
and the questions import: plain Python, tested directly."""

from __future__ import annotations

import json
import sqlite3

import pytest

from workbench.core.model import Question, Settings, WorkbenchError
from workbench.output.charts import history_chart
from workbench.read.loaders import load_bytes
from workbench.read.locate import check_question, locate
from workbench.read.question_sets import import_questions
from workbench.store.stamp import Stamp, comparable_runs
from workbench.store.workspace import Workspace, base_key, default_path, file_key

from .conftest import SAMPLE_CSV, SAMPLE_MD


def test_documents_questions_and_settings_survive_reopening(tmp_path):
    path = tmp_path / "workspace.sqlite"
    workspace = Workspace(path)
    key = workspace.open_document("prices.csv", b"Name,Price\nFan,10\n")
    workspace.remember_reading(key, None, "Name")
    workspace.save_questions(key, "prices.csv", [Question("Price of the fan?", "Fan", "Price: 10", "exact")])
    workspace.set_preference("settings", {"top_k": 3})
    workspace.close()

    again = Workspace(path)  # a reload: a new connection to the same file
    current = again.current()
    assert (current.name, current.data, current.name_column) == ("prices.csv", b"Name,Price\nFan,10\n", "Name")
    assert current.key == file_key(b"Name,Price\nFan,10\n")
    saved = again.questions_for(key, "prices.csv")
    assert [(q.question, q.expected_source, q.expected_answer, q.kind) for q in saved.questions] == [
        ("Price of the fan?", "Fan", "Price: 10", "exact")]
    assert saved.same_version(key)
    assert again.preference("settings") == {"top_k": 3}


def test_next_weeks_version_of_a_file_finds_its_questions_by_name(tmp_path):
    workspace = Workspace(tmp_path / "w.sqlite")
    old = workspace.open_document("prices.csv", b"Name,Price\nFan,10\n")
    workspace.save_questions(old, "prices.csv", [Question("Price of the fan?", "Fan", "Price: 10")])
    new = workspace.open_document("prices.csv", b"Name,Price\nFan,12\n")
    found = workspace.questions_for(new, "prices.csv")
    assert [q.question for q in found.questions] == ["Price of the fan?"]
    assert found.document_key == old and not found.same_version(new)
    # Another file's questions are never handed out; an unknown file has none.
    assert workspace.questions_for(file_key(b"x"), "other.csv") is None
    # The recent list names the file once, by its version opened last (two "prices.csv" entries read as the same
    # file listed twice), and the current document is the new version. Both versions are kept.
    assert [d.key for d in workspace.recent()] == [new]
    assert workspace.current().key == new and workspace.document(old) is not None
    other = workspace.open_document("other.csv", b"Name,Price\nLamp,5\n")
    assert [d.key for d in workspace.recent()] == [other, new]
    workspace.open_document("prices.csv", b"Name,Price\nFan,10\n")  # the old version reopened: it is listed now
    assert [d.key for d in workspace.recent()] == [old, other]
    assert workspace.versions(old) == [old, new] and workspace.versions(other) == [other]


def test_forget_and_the_recent_list_is_bounded(tmp_path):
    workspace = Workspace(tmp_path / "w.sqlite")
    keys = [workspace.open_document(f"f{i}.md", f"# F{i}\n".encode()) for i in range(22)]
    recent = workspace.recent(limit=100)
    assert len(recent) == 20 and recent[0].key == keys[-1]  # KEEP_DOCUMENTS: the two oldest were dropped
    workspace.forget(keys[-1])
    assert workspace.document(keys[-1]) is None


def test_where_the_workspace_lives(tmp_path, monkeypatch):
    monkeypatch.delenv("WORKBENCH_WORKSPACE_DB", raising=False)
    monkeypatch.setenv("WORKBENCH_HISTORY_DB", str(tmp_path / "data" / "history.sqlite"))
    assert default_path() == tmp_path / "data" / "workspace.sqlite"  # beside the run history
    monkeypatch.setenv("WORKBENCH_WORKSPACE_DB", "off")
    assert default_path() is None
    workspace = Workspace()  # in memory: works for the session, writes no file
    workspace.open_document("a.md", b"# A\n")
    assert workspace.current().name == "a.md" and not (tmp_path / "data" / "workspace.sqlite").exists()


def test_a_damaged_workspace_is_a_plain_error(tmp_path):
    path = tmp_path / "workspace.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(WorkbenchError, match="saved work .* is not a workbench database .* left as it is"):
        Workspace(path)
    assert path.read_bytes() == b"this is not a database" * 100  # refused, not replaced
    # A damaged question set is skipped, not a crash.
    good = Workspace(tmp_path / "w2.sqlite")
    good.save_questions("k", "a.md", [Question("Q?")])
    with sqlite3.connect(tmp_path / "w2.sqlite") as connection:
        connection.execute("UPDATE question_sets SET questions = 'not json'")
    assert Workspace(tmp_path / "w2.sqlite").questions_for("k", "a.md") is None


SETTINGS = Settings(strategies=["fixed", "heading"], retrievers=["keyword"], rerankers=["none"])


def test_a_stamp_says_what_changed():
    stamp = Stamp.of("a.md", b"# A\n", None, None, "question\nQ?\n", 1, SETTINGS)
    assert stamp.describe() == "a.md with 1 question"
    assert stamp.changes(stamp) == []
    other_file = Stamp.of("b.csv", b"x", None, None, "question\nQ?\n", 1, SETTINGS)
    assert stamp.changes(other_file) == ["the document is now b.csv"]
    new_version = Stamp.of("a.md", b"# A2\n", None, None, "question\nQ2?\n", 1,
                           Settings(["fixed"], ["keyword"], ["none"], top_k=3))
    assert stamp.changes(new_version) == [
        "a.md has been replaced by another version", "the questions were edited", "the settings were changed"]


def _row(run, questions="q1", threshold=None, content="v1", clean=5):
    settings = json.dumps({"top_k": 5, "size": 300, "overlap": 45, "threshold": threshold, "depth": 50,
                           "reranker_model": None, "strategies": ["heading"]})
    return {"run": run, "at": "2026-11-30", "content_hash": content, "questions_hash": questions,
            "settings": settings, "strategy": "heading", "retriever": "keyword", "reranker": "none", "clean": clean}


def test_history_keeps_to_runs_that_compare_and_never_draws_half_runs():
    series = [_row(1), _row(2, questions="q2"), _row(3, threshold=100.0, clean=0), _row(4, content="v2", clean=3),
              _row(5, content="v2", clean=4)]
    settings = {"top_k": 5, "size": 300, "overlap": 45, "threshold": None, "depth": 50, "reranker_model": None,
                "strategies": ["heading", "fixed"]}  # the list of strategies does not matter, the threshold does
    rows = comparable_runs(series, "q1", settings)
    assert [row["run"] for row in rows] == [1, 4, 5]
    figure = history_chart(rows, "keyword", "none")
    line = figure.data[0]
    assert list(line.x) == ["run 1", "run 2", "run 3"] and list(line.y) == [5, 3, 4]
    assert figure.layout.xaxis.type == "category"  # no tick between two runs ("run 5.5")
    drop = [trace for trace in figure.data if trace.name.endswith(": score dropped")][0]
    assert list(drop.x) == ["run 2"]
    # The file changed between run 1 and run 2: one dotted line between them, labelled.
    assert [shape.x0 for shape in figure.layout.shapes] == [0.5]
    assert figure.layout.annotations[0].text == "new version of the file"


def test_locate_names_the_line_or_suggests_one():
    document = load_bytes(SAMPLE_MD.read_bytes(), SAMPLE_MD.name)
    # "Warranty: 1 year." is line 12 of the sample (the Aurora section starts at line 6).
    assert locate(document, "Aurora Ceiling Fan", "Warranty: 1 year.").detail == "Found in Aurora Ceiling Fan, line 12."
    assert SAMPLE_MD.read_text().splitlines()[11] == "Warranty: 1 year."
    wrong = locate(document, "Aurora Ceiling Fan", "Warranty: 2 year.")
    assert not wrong.ok and wrong.detail.endswith("did you mean “Warranty: 1 year.”?")
    elsewhere = locate(document, "Aurora Ceiling Fan", "Warranty: 3 years.")
    assert elsewhere.detail == "“Warranty: 3 years.” is not in Aurora Ceiling Fan; it is in Nimbus Air Purifier, line 77."
    assert SAMPLE_MD.read_text().splitlines()[76] == "Warranty: 3 years."
    assert locate(document, "Nowhere Fan", "x").short == "⚠ no such product"
    spreadsheet = load_bytes(SAMPLE_CSV.read_bytes(), SAMPLE_CSV.name)
    found = locate(spreadsheet, "Zephyr Table Fan", "39.90")
    assert found.ok and found.detail.startswith("Found in Zephyr Table Fan, row ") and "column Price" in found.detail


def test_an_answer_without_a_source_is_a_warning_not_a_tick():
    document = load_bytes(SAMPLE_MD.read_bytes(), SAMPLE_MD.name)
    check = check_question(document, Question("Warranty of the Aurora?", "", "Warranty: 1 year."))
    assert not check.ok and check.short == "⚠ answer but no product"
    assert "It is in Aurora Ceiling Fan, line 12." in check.detail
    assert check_question(document, Question("Do you sell lamps?", "", "")).short == "✓ should refuse"


def test_import_adds_or_replaces_and_accounts_for_every_row():
    table = [Question("Price of Zephyr?", "Zephyr Table Fan", "Price: 39.90"), Question("Do you ship?", "", "")]
    data = (b"question,expected_source,expected_answer\n"
            b"price of zephyr?,Zephyr Table Fan,Price: 39.90\n"  # row 2: already in the table
            b",Zephyr Table Fan,Price: 39.90\n"  # row 3: no question
            b"Warranty of Aurora?,Aurora Ceiling Fan,Warranty: 1 year.\n"  # row 4: taken
            b"Warranty of Aurora?,Aurora Ceiling Fan,Warranty: 1 year.\n")  # row 5: twice in the file
    added = import_questions(table, data, "new.csv", "add")
    assert [q.question for q in added.questions] == ["Price of Zephyr?", "Do you ship?", "Warranty of Aurora?"]
    assert (added.added, added.replaced) == (1, 0)
    assert added.rejected == [(2, "the same question is already in the table (row 2)"),
                              (3, "the question is empty"), (5, "the same question as row 4 of new.csv")]
    assert added.sentence("new.csv") == "Added 1 question from new.csv; 3 rows rejected (listed below)."
    replaced = import_questions(table, data, "new.csv", "replace")
    assert [q.question for q in replaced.questions] == ["price of zephyr?", "Warranty of Aurora?"]
    assert (replaced.added, replaced.replaced, len(replaced.rejected)) == (2, 2, 2)
    assert replaced.sentence("new.csv").startswith("Replaced the table's 2 questions with 2 from new.csv")
    with pytest.raises(WorkbenchError, match="lacks the column"):
        import_questions(table, b"foo,bar\n1,2\n", "bad.csv", "add")


def test_a_knowledge_base_is_kept_with_its_files_and_reopens_in_order(tmp_path):
    path = tmp_path / "w.sqlite"
    workspace = Workspace(path)
    prices, policies = ("prices.csv", b"Name,Price\nFan,10\n"), ("policies.md", b"# Policies\n\n## Returns\n30 days\n")
    key = workspace.open_base([prices, policies])
    workspace.remember_reading(file_key(prices[1]), None, "Name")  # each file keeps its own reading
    workspace.save_questions(key, "prices.csv + policies.md", [Question("Returns?", "Returns", "30 days")])
    workspace.close()
    again = Workspace(path)  # a reload
    current = again.current()
    assert current.key == key == base_key([prices, policies]) != base_key([policies, prices])  # the order counts
    assert [(f.name, f.data, f.name_column) for f in current.files] == [
        ("prices.csv", prices[1], "Name"), ("policies.md", policies[1], None)]
    assert [q.question for q in again.questions_for(key, current.name).questions] == ["Returns?"]
    # The recent list shows the base, not each of its files; a file opened on its own is listed too.
    assert [item.key for item in again.recent()] == [key]
    alone = again.open_document(*policies)
    assert [item.key for item in again.recent()] == [alone, key]
    assert again.recent()[1].size == len(prices[1]) + len(policies[1])
    # Forgetting the base keeps the file opened on its own, and drops the one only the base held.
    again.forget(key)
    assert again.base(key) is None and again.questions_for(key, "x") is None
    assert again.document(alone) is not None and again.document(file_key(prices[1])) is None
    # Forgetting a file takes the bases that hold it.
    other = again.open_base([prices, policies])
    again.forget(alone)
    assert again.base(other) is None and again.recent() == []


def test_a_knowledge_base_stamp_is_bound_to_every_file_and_its_place():
    files = [("prices.csv", b"Name,Price\nFan,10\n", None, None), ("policies.md", b"# P\n\n## Returns\n30 days\n", None, None)]
    stamp = Stamp.of_files(files, "question\nQ?\n", 1, SETTINGS)
    assert stamp.document == "prices.csv + policies.md" and len(stamp.files) == 2
    assert Stamp.of_files(files[:1], "question\nQ?\n", 1, SETTINGS) == Stamp.of(*files[0], "question\nQ?\n", 1, SETTINGS)
    edited = [files[0], ("policies.md", b"# P\n\n## Returns\n14 days\n", None, None)]
    changed = Stamp.of_files(edited, "question\nQ?\n", 1, SETTINGS)
    assert changed != stamp and stamp.changes(changed) == ["policies.md has been replaced by another version"]
    swapped = Stamp.of_files(files[::-1], "question\nQ?\n", 1, SETTINGS)
    assert swapped != stamp and stamp.changes(swapped) == ["the files are in another order"]
    third = Stamp.of_files([*files, ("faq.md", b"# FAQ\n", None, None)], "question\nQ?\n", 1, SETTINGS)
    assert stamp.changes(third) == ["faq.md was added"] and third.changes(stamp) == ["faq.md was removed"]
    column = Stamp.of_files([("prices.csv", files[0][1], None, "Price"), files[1]], "question\nQ?\n", 1, SETTINGS)
    assert stamp.changes(column) == ["the sheet or the product-name column of prices.csv was changed"]


def test_a_source_naming_two_sections_is_checked_as_the_grader_grades_it():
    """ "A | B" (two sections that each answer it) is graded; the questions table called it a section no one has
    ("No product or section is called “A | B”") and said it was left out of the results."""
    document = load_bytes(SAMPLE_MD.read_bytes(), SAMPLE_MD.name)
    check = check_question(document, Question("Warranty of the Boreal?", "Aurora Ceiling Fan | Boreal Ceiling Fan",
                                              "Warranty: 2 years."))
    assert check.ok and check.short == "✓ ready", check.detail
    assert check.detail.startswith("Found in Boreal Ceiling Fan, line ")
    either = check_question(document, Question("Which ceiling fans?", "Aurora Ceiling Fan | Boreal Ceiling Fan", ""))
    assert either.ok, either.detail
    assert not check_question(document, Question("q", "Aurora Ceiling Fan | Nowhere Fan", "Warranty: 1 year.")).ok


def test_an_import_takes_the_place_of_the_apps_starter_questions():
    """A new spreadsheet starts with the app's own questions; importing the owner's set kept them in rows 2-11, so the
    owner's row 2 was question 12 everywhere, and the status could be no better than "Looks ready"."""
    starters = [Question("How much is the Fan?", "Fan", "10", generated=True),
                Question("What colour is the Fan?", "Fan", "red", generated=True)]
    data = b"question,expected_source,expected_answer\nIs the fan quiet?,Fan,quiet\nDo you ship?,,\n"
    outcome = import_questions(starters, data, "mine.csv", "add")
    assert [q.question for q in outcome.questions] == ["Is the fan quiet?", "Do you ship?"]
    assert outcome.sentence("mine.csv") == ("Added 2 questions from mine.csv, in place of the 2 the app had written "
                                            "to start with (undo the import to have those back).")
    # One the owner accepted or edited is theirs: added to, as before; and generated ones are added to generated ones.
    kept = import_questions([starters[0], Question("Mine?", "Fan", "10")], data, "mine.csv", "add").questions
    assert [q.question for q in kept][:2] == ["How much is the Fan?", "Mine?"] and len(kept) == 4
    generated = b"question,expected_source,expected_answer,generated\nHow tall is the Fan?,Fan,1 m,true\n"
    assert len(import_questions(starters, generated, "more.csv", "add").questions) == 3
