"""The Questions page's table as an owner reads it: an empty product or kind in words, not the grid's grey "None"."""

from __future__ import annotations

from ui import keys
from ui.questions_table import NO_KIND, UNANSWERABLE

from .test_app import editor_key, go, open_on_price_list


def test_an_empty_product_and_kind_show_in_words_and_are_saved_empty():
    at = go(open_on_price_list(), "pages/questions.py")
    saved = at.session_state[keys.QUESTIONS]
    empty = [i for i, source in enumerate(saved["expected_source"]) if source == ""]
    assert len(empty) == 4  # the sample's four questions the file cannot answer
    shown = at.dataframe[0].value
    assert [shown["expected_source"].iloc[i] for i in empty] == [UNANSWERABLE] * 4
    # An edit elsewhere in the row (and a kind cleared) saves the product and the kind empty, never as the words shown.
    at.session_state[editor_key(at)] = {"edited_rows": {empty[0]: {"question": "Do you sell chairs?", "kind": None}},
                                        "added_rows": [], "deleted_rows": []}
    at.run()
    saved = at.session_state[keys.QUESTIONS]
    assert saved.loc[empty[0], "question"] == "Do you sell chairs?"
    assert saved.loc[empty[0], "expected_source"] == "" and UNANSWERABLE not in set(saved["expected_source"])
    assert saved.loc[empty[0], "kind"] == "" and NO_KIND not in set(saved["kind"])
    shown = at.dataframe[0].value
    assert (shown["expected_source"].iloc[empty[0]], shown["kind"].iloc[empty[0]]) == (UNANSWERABLE, NO_KIND)
