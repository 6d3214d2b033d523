"""The questions table: the questions as the table on the Questions page holds them (a DataFrame), and back.

The table is the questions file: its rows are numbered as the file's (header = row 1) wherever a question is named.
"""

from __future__ import annotations

import pandas as pd

from ui.keys import SAMPLE_BASE_QUESTIONS, SAMPLE_QUESTIONS
from workbench.core.model import Question
from workbench.read.questions import COLUMNS, FIRST_ROW, GENERATED, parse_questions

# The table's columns: the questions file's, and "generated" ("yes" on a question the app wrote and the owner
# has not yet edited or accepted; empty otherwise).
FRAME_COLUMNS = (*COLUMNS, GENERATED)
# What the table shows for an empty product and an empty kind: its grid draws an empty choice as a grey "None", which
# read as a product called None beside every question the file cannot answer. The form above it says the same words.
UNANSWERABLE = "None (unanswerable)"
NO_KIND = "—"
SHOWN_EMPTY = {"expected_source": UNANSWERABLE, "kind": NO_KIND}


def questions_frame(questions: list[Question]) -> pd.DataFrame:
    return pd.DataFrame(
        [[q.question, q.expected_source, q.expected_answer, q.kind, "yes" if q.generated else ""] for q in questions],
        columns=list(FRAME_COLUMNS),
    ).astype(str)


def frame_questions(frame: pd.DataFrame) -> list[Question]:
    """The table's rows as questions; blank rows are skipped, numbered as rows of the questions file (header = 1)."""
    questions = []
    for number, record in enumerate(frame.fillna("").astype(str).to_dict("records"), start=FIRST_ROW):
        values = {column: str(record.get(column, "") or "").strip() for column in COLUMNS}
        if values["question"]:
            generated = str(record.get(GENERATED, "") or "").strip() == "yes"
            questions.append(Question(**values, row=number, generated=generated))
    return questions


def not_in_table(frame: pd.DataFrame, questions: list[Question]) -> list[Question]:
    """``questions`` less those the table already asks (the same words, case and blank space aside): generating
    again must not add the questions generated before a second time."""
    asked = {" ".join(q.question.split()).casefold() for q in frame_questions(frame)}
    return [q for q in questions if " ".join(q.question.split()).casefold() not in asked]


def tidy_questions(frame: pd.DataFrame) -> pd.DataFrame:
    """The question columns only, as text, blanks for missing cells, numbered from 0."""
    frame = frame.reindex(columns=list(FRAME_COLUMNS))
    return frame.astype(object).where(frame.notna(), "").astype(str).reset_index(drop=True)


def shown_cells(frame: pd.DataFrame) -> pd.DataFrame:
    """The table as the grid shows it: an empty product or kind in words (``SHOWN_EMPTY``)."""
    shown = frame.copy()
    for column, words in SHOWN_EMPTY.items():
        shown[column] = shown[column].where(shown[column] != "", words)
    return shown


def typed_cells(frame: pd.DataFrame) -> pd.DataFrame:
    """The grid's table back as the questions file holds it: those words empty again (a cleared choice too)."""
    typed = frame.copy()
    for column, words in SHOWN_EMPTY.items():
        typed[column] = typed[column].where(typed[column] != words, "")
    return typed


def sample_questions(base: bool = True) -> pd.DataFrame:
    """The sample's questions: the price list's own, and for the sample knowledge base the policies page's too."""
    paths = (SAMPLE_QUESTIONS, SAMPLE_BASE_QUESTIONS) if base else (SAMPLE_QUESTIONS,)
    return tidy_questions(questions_frame([q for path in paths for q in parse_questions(path.read_bytes(), path.name)]))
