"""Start-up pays only for what runs: heavy modules load where they are used (DESIGN.md, Start-up).

Each check runs in a fresh interpreter, because this test process has long since imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT, SAMPLE_MD, SAMPLE_QUESTIONS
from workbench.grade.stats import mcnemar_exact, questions_needed

# Each of these costs from 0.1 s (narwhals) to several seconds (torch) at import.
HEAVY = ("scipy.stats", "plotly", "pandas", "torch", "sentence_transformers", "transformers", "sklearn",
         "narwhals", "streamlit", "openpyxl")


# What only a language model, the run history or another command uses: a word search with --no-history never
# runs them (BENCHMARKS.md, "Stop 46"); on main they cost the start-up 20-40 ms.
NOT_FOR_WORD_SEARCH = ("sqlite3", "workbench.store.history", "workbench.store.embedding_store", "workbench.store.storage",
                       "workbench.store.workspace", "workbench.encode.embedding", "workbench.encode.encoder",
                       "workbench.encode.minilm", "workbench.encode.multilingual", "workbench.run.estimate",
                       "workbench.output.cli_document", "workbench.output.cli_fix")


def loaded_after(code: str, modules: tuple[str, ...] = HEAVY) -> list[str]:
    """Which of ``modules`` (the heavy ones) are in sys.modules after running ``code`` in a new interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {modules!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_importing_the_command_line_loads_no_heavy_module():
    assert loaded_after("import workbench.output.cli") == []


def test_a_lexical_evaluation_loads_no_heavy_module(tmp_path):
    out = str(tmp_path / "results.json")
    run = (
        "from workbench.output.cli import main\n"
        f"assert main(['evaluate', {str(SAMPLE_MD)!r}, '--questions', {str(SAMPLE_QUESTIONS)!r},"
        " '--retrievers', 'keyword,bm25', '--rerankers', 'none', '--no-history', '--format', 'json', '--compare', 'fixed,heading',"
         f" '--out', {out!r}]) == 0"
    )
    assert loaded_after(run) == []


def test_a_word_search_imports_no_model_history_or_other_command(tmp_path):
    """A word-search evaluate (the table and JSON) and sweep without the history import none of the modules only a
    language model, the history or another command runs."""
    folder = tmp_path / "shop"
    folder.mkdir()
    (folder / "prices.md").write_bytes(SAMPLE_MD.read_bytes())
    (folder / "prices.questions.csv").write_bytes(SAMPLE_QUESTIONS.read_bytes())
    lexical = "'--retrievers', 'keyword,bm25', '--rerankers', 'none', '--no-history'"
    run = (
        "from workbench.output.cli import main\n"
        f"assert main(['evaluate', {str(SAMPLE_MD)!r}, '--questions', {str(SAMPLE_QUESTIONS)!r}, {lexical},"
        f" '--out', {str(tmp_path / 'results.txt')!r}]) == 0\n"
        f"assert main(['evaluate', {str(SAMPLE_MD)!r}, '--questions', {str(SAMPLE_QUESTIONS)!r}, {lexical},"
        f" '--format', 'json', '--out', {str(tmp_path / 'results.json')!r}]) == 0\n"
        f"assert main(['sweep', {str(folder)!r}, {lexical}, '--jobs', '1', '--format', 'json',"
        f" '--out', {str(tmp_path / 'sweep.json')!r}]) == 0"
    )
    assert loaded_after(run, NOT_FOR_WORD_SEARCH) == []


@pytest.mark.parametrize(
    ("only_a", "only_b", "p_value"),
    [
        (0, 15, 2 * 0.5**15),  # one tail is the single outcome "all 15 went B's way": 2 * (1/2)^15
        (1, 6, 0.125),  # n = 7: 2 * (C(7,0) + C(7,1)) / 2^7 = 2 * 8 / 128
        (6, 1, 0.125),  # symmetric
        (2, 8, 0.109375),  # n = 10: 2 * (1 + 10 + 45) / 1024 = 112 / 1024
        (3, 3, 1.0),  # 2 * (1 + 6 + 15 + 20) / 64 = 84 / 64, capped at 1
        (0, 0, 1.0),  # nothing to compare
    ],
)
def test_mcnemar_exact_by_hand(only_a, only_b, p_value):
    assert mcnemar_exact(only_a, only_b) == pytest.approx(p_value, rel=1e-12)


def test_normal_quantiles_from_the_standard_library():
    # Connor's n for discordant share 0.3, difference 0.1:
    # (1.959964 * sqrt(0.3) + 0.841621 * sqrt(0.29))^2 / 0.01 = (1.073516 + 0.453226)^2 / 0.01 = 233.1, so 234.
    assert questions_needed(0.3, 0.1) == 234


def test_what_grading_a_file_loads_first_is_loaded_before_a_sweep_forks(tmp_path):
    """``warm_up`` runs in a sweep's parent: a file then graded (as in a forked process) loads none of the modules
    every file's grading loads on first use, nor reads the look-alike table again."""
    out = str(tmp_path / "results.json")
    run = (
        "import sys\n"
        "from workbench.advise.advice import warm_up\n"
        "from workbench.advise.injection import confusables\n"
        "from workbench.output.cli import main\n"
        "warm_up()\n"
        "before = set(sys.modules)\n"
        "read = confusables.cache_info().misses\n"
        f"assert main(['evaluate', {str(SAMPLE_MD)!r}, '--questions', {str(SAMPLE_QUESTIONS)!r},"
        " '--retrievers', 'keyword,bm25', '--rerankers', 'none', '--no-history', '--format', 'json',"
        f" '--out', {out!r}]) == 0\n"
        "late = {'Stemmer', 'snowballstemmer', 'numpy.random', 'numpy.ma', 'confusable_homoglyphs',"
        " 'workbench.encode.multilingual', 'py3langid'} & (set(sys.modules) - before)\n"
        "assert not late, late\n"
        "assert confusables.cache_info().misses == read\n"
    )
    done = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
