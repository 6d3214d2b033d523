"""Stems come from PyStemmer (Snowball compiled to C), which ``snowballstemmer`` uses when it imports: the same
stems as snowballstemmer's own pure-Python algorithms, word for word, in every language read with its own rules.
(Checked once more widely when PyStemmer came in: 22,389 words of the sample, tests/data, ../shared/real-data and
the stop-word lists, and 206,918 words of E5's multilingual vocabulary, in all 18 languages: no stem differed.)"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from workbench.core.stemmers import snowball
from workbench.core.words import LANGUAGES, analyzer, stop_words_of, tokenize

DATA = Path(__file__).parent / "data"
SAMPLE = Path(__file__).parent.parent / "sample_data"


def pure_python(algorithm: str):
    """snowballstemmer's own algorithm, in Python (what ``snowballstemmer.stemmer`` gives without PyStemmer)."""
    module = importlib.import_module(f"snowballstemmer.{algorithm}_stemmer")
    return getattr(module, f"{algorithm.title()}Stemmer")()


def words() -> list[str]:
    found = set()
    for path in [*DATA.rglob("*"), *SAMPLE.glob("*")]:
        if path.suffix in (".md", ".csv", ".txt"):
            found.update(tokenize(path.read_text(encoding="utf-8", errors="replace")))
    for code in LANGUAGES:
        found.update(stop_words_of(code))
    # Each algorithm's hard cases: suffixes it strips in steps, accents, ß, y between vowels, Russian and Turkish.
    found.update("""generously generalizations sky skies dying lying news howe proceeding exceed succeeding
        rücksendungen größe häuser aufeinanderfolgenden livrées échangeables cassée remboursement
        devoluciones garanzia terugbetaling reembolsos yhteystiedot köszönöm zwrotów возврата iadeler""".split())
    return sorted(found)


def test_the_stemmer_is_pystemmers():
    import Stemmer

    assert isinstance(snowball("german"), Stemmer.Stemmer)


@pytest.mark.parametrize("code", sorted(code for code in LANGUAGES if LANGUAGES[code][1]))  # Ukrainian: none
def test_c_stems_are_snowballs_python_stems(code):
    algorithm = LANGUAGES[code][1]
    compiled, python = snowball(algorithm), pure_python(algorithm)
    sample = words()
    assert len(sample) > 3000
    assert [compiled.stemWord(w) for w in sample] == [python.stemWord(w) for w in sample]


def test_a_few_stems_by_hand():
    """What the analyzers give, worked out from the algorithms: English Porter2 and German with its folding."""
    assert [analyzer(("en",)).stem(w) for w in ("returns", "returning", "batteries", "warranties")] == [
        "return", "return", "batteri", "warranti"]
    assert [analyzer(("de",)).stem(w) for w in ("rücksendungen", "größe")] == ["rucksend", "gross"]


def test_the_confidences_hungarian_forms_are_snowballs_python_stems():
    """``core.named_forms`` takes Hungarian's endings off with the searches' stemmer (``core.stemmers``): the same
    stems as Snowball's own Python, after the folding every named form has."""
    from workbench.core.named_forms import fold_accents, named_form

    python = pure_python("hungarian")
    sample = words()
    assert [named_form("hu", w) for w in sample] == [python.stemWord(fold_accents(w)) for w in sample]
