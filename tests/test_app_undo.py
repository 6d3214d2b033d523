"""Undo undoes only the last change and says what it undoes; Redo makes it again; generated questions are marked
in the table until accepted or edited. Through Streamlit's AppTest, by widget key."""

from __future__ import annotations

from ui import keys

from .conftest import SAMPLE_CSV
from .test_app import editor_key, go, open_app, plain, upload

MORE = b"question,expected_source,expected_answer\nPrice of Zephyr?,Zephyr Table Fan,Price: 39.90\n"


def buttons(at) -> dict[str, str]:
    return {b.key: b.label for b in at.button if b.key in ("undo_button", "redo_button")}


def add_by_hand(at, question: str):
    at.text_input(key="add_question").set_value(question)
    at.selectbox(key="add_source").set_value("")
    return at.button(key="add_row").click().run()


def test_undo_after_an_import_and_a_hand_added_question_undoes_only_the_question_then_redo():
    at = go(open_app(), "pages/questions.py")  # the sample knowledge base: Undo works on a base as on a file
    at.file_uploader(key="questions_upload").set_value(("more.csv", MORE, "text/csv")).run()
    assert len(at.session_state[keys.QUESTIONS]) == 27  # the sample's 26 + 1
    # A label is Markdown, so the file name in it is escaped (pages/questions.py): the screen shows "more.csv".
    assert buttons(at) == {"undo_button": "Undo the import of more\\.csv"}
    at = add_by_hand(at, "Do you ship to Mars?")
    assert len(at.session_state[keys.QUESTIONS]) == 28
    assert buttons(at) == {"undo_button": "Undo adding row 29"}  # the last change only, in words
    at.button(key="undo_button").click().run()
    questions = at.session_state[keys.QUESTIONS]
    assert len(questions) == 27 and questions.iloc[-1]["question"] == "Price of Zephyr?"  # the import is kept
    assert any("Undone: adding row 29." in plain(s.value) for s in at.success)
    assert buttons(at) == {"redo_button": "Redo adding row 29"}  # the import's Undo is not offered again
    at.button(key="redo_button").click().run()
    assert list(at.session_state[keys.QUESTIONS]["question"])[-2:] == ["Price of Zephyr?", "Do you ship to Mars?"]
    assert buttons(at) == {"undo_button": "Undo adding row 29"}
    # A reload is a new session, in which nothing was changed: no Undo (it was offered from the last session).
    again = go(open_app(), "pages/questions.py")
    assert len(again.session_state[keys.QUESTIONS]) == 28 and buttons(again) == {}


def test_an_edit_in_the_table_is_the_last_change_and_an_undo_that_would_discard_more_says_so():
    at = go(open_app(), "pages/questions.py")
    at.file_uploader(key="questions_upload").set_value(("more.csv", MORE, "text/csv")).run()
    at.session_state[editor_key(at)] = {"edited_rows": {0: {"expected_answer": "Warranty: 9 years."}},
                                        "added_rows": [], "deleted_rows": []}
    at.run()
    assert buttons(at) == {"undo_button": "Undo your edit of row 2"}
    at.button(key="undo_button").click().run()
    questions = at.session_state[keys.QUESTIONS]
    assert questions.loc[0, "expected_answer"] == "Warranty: 1 year." and len(questions) == 27
    # The table changed in a way the Undo does not know (another version of the app, say): it says it discards it.
    at.button(key="redo_button").click().run()
    changed = at.session_state[keys.QUESTIONS].copy()
    changed.loc[1, "kind"] = "paraphrase"
    at.session_state[keys.QUESTIONS] = changed
    at.run()
    assert buttons(at) == {"undo_button": "Undo your edit of row 2, and discard the changes made to the table since"}


def test_generated_questions_are_marked_until_edited_or_accepted():
    at = go(upload(open_app(), SAMPLE_CSV.name, SAMPLE_CSV.read_bytes()), "pages/questions.py")
    table = at.dataframe[0].value
    assert list(table["generated"]) == [True] * 10  # the ten starters are the app's own
    assert any("10 of these 10 questions are the app's own" in plain(i.value) for i in at.info)
    # Editing a generated question makes it the owner's.
    at.session_state[editor_key(at)] = {"edited_rows": {0: {"question": "How much is the Aurora fan, please?"}},
                                        "added_rows": [], "deleted_rows": []}
    at.run()
    assert list(at.session_state[keys.QUESTIONS]["generated"]) == [""] + ["yes"] * 9
    at.button(key="accept_generated").click().run()
    assert list(at.session_state[keys.QUESTIONS]["generated"]) == [""] * 10
    assert buttons(at) == {"undo_button": "Undo accepting 9 generated questions"}  # escaped: a label is Markdown
    assert not [b for b in at.button if b.key == "accept_generated"]


def test_the_owners_questions_imported_onto_a_new_spreadsheet_take_the_starters_place_and_undo_brings_them_back():
    """Imported with the default "add", the owner's set kept the app's ten starters in rows 2-11: the owner's own
    row 2 was question 12 on every page, and the status at best "Looks ready" on questions the owner never wrote."""
    at = go(upload(open_app(), SAMPLE_CSV.name, SAMPLE_CSV.read_bytes()), "pages/questions.py")
    assert at.radio(key="import_mode").value == "add to the table"
    at.file_uploader(key="questions_upload").set_value(("more.csv", MORE, "text/csv")).run()
    assert list(at.session_state[keys.QUESTIONS]["question"]) == ["Price of Zephyr?"]  # row 2 is the file's row 2
    assert [plain(s.value) for s in at.success] == [
        "Added 1 question from more.csv, in place of the 10 the app had written to start with (undo the import to "
        "have those back)."]
    assert not any("the app's own" in plain(i.value) for i in at.info)
    at.button(key="undo_button").click().run()
    assert len(at.session_state[keys.QUESTIONS]) == 10
