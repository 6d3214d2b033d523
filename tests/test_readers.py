"""Issue 34: every sentence of the advice is written for its reader: the command line's names flags and commands,
the app's its pages and settings, the report's neither (``advise/readers.py`` decides the words, once)."""

from __future__ import annotations

import pytest

from workbench.advise.advice import advise
from workbench.advise.readers import READERS
from workbench.core.model import Settings
from workbench.output.cli import main
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.evaluate import evaluate

from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS

APP_WORDS = ("Questions page", "Results ›", "Results settings", "on Results", "tick “", "Download the")
CLI_WORDS = ("--", "python -m workbench")


def advice_texts(reader: str, threshold) -> list[str]:
    """Every sentence of the verdict and the to-do, for ``reader``, on the sample with two questions the app
    wrote and a refusal set by ``threshold`` (None: never refuses, 0.01: refuses almost nothing)."""
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    for question in questions[:2]:
        question.generated = True
    evaluation = evaluate(load_path(SAMPLE_MD), questions,
                          Settings(["fixed", "heading"], ["keyword"], ["none"], threshold=threshold))
    advice = advise(evaluation, reader=reader)
    return [*advice.verdict.lines(), *advice.verdict.caveats, *(item.edit for item in advice.todo)]


@pytest.mark.parametrize("threshold", [None, 0.01], ids=["never refuses", "refuses little"])
def test_each_reader_is_told_what_to_do_in_the_words_of_what_it_has(threshold):
    app, cli, report = (" ".join(advice_texts(reader, threshold)) for reader in ("app", "cli", "report"))
    for words in APP_WORDS:
        assert words not in cli and words not in report, words
    for words in CLI_WORDS:
        assert words not in app and words not in report, words
    assert "edit or accept them on the Questions page" in app and "check them in the questions file" in cli
    if threshold is None:  # the to-do's refusal item and the verdict's caveat
        assert "Let the bot refuse: tick “Let the questions pick the threshold” in the Results settings." in app
        assert "Let the bot refuse: run again with --threshold auto (the default)" in cli
        assert "The bot never refused a question here: let the questions pick a refusal threshold (--threshold auto)" in cli
    else:
        assert "Raise “Refuse below this confidence” above 0.01" in app
        assert "Let the bot refuse more: run again with a --threshold above 0.01" in cli
        assert "raise its refusal threshold (the confidence below which it hands a question to a person) above 0.01" in report


def test_every_reader_has_every_phrase():
    fields = set(READERS["app"].__dataclass_fields__)
    assert set(READERS) == {"app", "cli", "report"}
    for reader in READERS.values():
        assert all(getattr(reader, field).strip() for field in fields)
    assert all("{threshold}" in reader.raise_threshold for reader in READERS.values())


def test_the_plain_command_on_the_sample_tells_a_terminal_user_no_app_control(tmp_path, capsys):
    """Before: "Not ready" with 20 of 20 clean, and "tick 'Let the questions pick the threshold' in the Results
    settings" as its first to-do item. Word search only here (``--quick``): the model's stages are not needed."""
    assert main(["evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS), "--quick", "--no-history"]) == 0
    out = capsys.readouterr().out
    assert "\nVerdict from word search alone (--quick): not run: meaning-based search, re-checks by meaning." in out
    assert "\nReady: with cut at headings, word search where rare words count more (BM25), 20 of 20" in out
    for words in APP_WORDS:
        assert words not in out, words
