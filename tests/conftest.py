"""Shared test helpers: sample paths, the real-data folder, a fast fake encoder."""

from __future__ import annotations

import os
import re
import zlib
from pathlib import Path

import numpy as np
import pytest

from workbench.encode.embedding import Embedding, Encoder

ROOT = Path(__file__).resolve().parent.parent

SAMPLES = ROOT / "sample_data"
SAMPLE_MD = SAMPLES / "breezy_home_price_list.md"
SAMPLE_CSV = SAMPLES / "breezy_home_price_list.csv"
SAMPLE_XLSX = SAMPLES / "breezy_home_price_list.xlsx"
SAMPLE_QUESTIONS = SAMPLES / "breezy_home_questions.csv"
REAL_DATA = Path(os.environ.get("WORKBENCH_REAL_DATA") or ROOT.parent / "shared" / "real-data")  # a worktree names it


def real_data_files() -> list[Path]:
    """The real shop files beside the project, or nothing when this is a lone clone."""
    if not REAL_DATA.is_dir():
        return []
    return sorted(
        p for p in REAL_DATA.iterdir() if p.suffix in (".md", ".csv", ".xlsx") and p.name != "SOURCES.md"
    )


needs_real_data = pytest.mark.skipif(
    not REAL_DATA.is_dir(), reason="../shared/real-data is not beside this clone"
)


class FakeEncoder(Encoder):
    """Bag of words hashed into 64 dimensions: fast, deterministic, and similar for shared words."""

    model_id = "fake-hash-64"

    def _encode(self, texts: list[str]) -> list[Embedding]:
        result = []
        for text in texts:
            words = re.findall(r"\w+", text.lower()) or ["<empty>"]
            tokens = np.zeros((len(words), 64), dtype=np.float32)
            for row, word in enumerate(words):
                tokens[row, zlib.crc32(word.encode()) % 64] = 1.0
            sentence = tokens.sum(axis=0)
            result.append(Embedding(sentence / np.linalg.norm(sentence), tokens))
        return result


@pytest.fixture(autouse=True)
def own_workspace(tmp_path, monkeypatch):
    """Each test keeps its documents, questions and run history in a folder of its own, so no test
    reopens another's file or finds another's runs on its history chart."""
    monkeypatch.setenv("WORKBENCH_WORKSPACE_DB", str(tmp_path / "workspace.sqlite"))
    monkeypatch.setenv("WORKBENCH_HISTORY_DB", str(tmp_path / "history.sqlite"))


# The app's grid before the model's setups became its default: word search only, so a page opened in a test
# grades at once without the language model. Tests of other things (history, stale results, drill-down) pin it.
WORD_ONLY_DEFAULTS = (
    ["fixed", "fixed-overlap", "sentence", "recursive", "heading", "breadcrumb", "placebo", "concern",
     "langchain-recursive-1000"],
    ["keyword"],
    ["none", "heading"],
)


@pytest.fixture
def word_only_defaults(monkeypatch):
    """The app opens on ``WORD_ONLY_DEFAULTS`` instead of ``workbench.run.defaults`` (which needs the model)."""
    from dataclasses import replace

    from workbench.run import defaults

    strategies, retrievers, rerankers = WORD_ONLY_DEFAULTS
    monkeypatch.setattr(defaults, "DEFAULTS", replace(defaults.DEFAULTS, strategies=tuple(strategies),
                                                      retrievers=tuple(retrievers), rerankers=tuple(rerankers)))


@pytest.fixture
def fake_encoder() -> FakeEncoder:
    return FakeEncoder()


@pytest.fixture(scope="session")
def real_encoder():
    """The packaged all-MiniLM-L6-v2, loaded once for the whole session."""
    from workbench.encode.embedding import get_encoder

    return get_encoder()


def pytest_configure(config):
    """Keep the tests' embedding cache and run history out of the user's folders."""
    import os
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="wb-test-"))
    os.environ.setdefault("WORKBENCH_EMBEDDING_CACHE", str(folder / "embeddings.sqlite"))
    os.environ.setdefault("WORKBENCH_HISTORY_DB", str(folder / "history.sqlite"))


@pytest.fixture(autouse=True)
def _the_real_model_loads_only_in_slow_tests(request, monkeypatch):
    """A test that loads the packaged model takes seconds: it must say so with ``@pytest.mark.slow``.

    Outside such tests, loading it fails the test at once, so a new unmarked one cannot slip in.
    """
    if request.node.get_closest_marker("slow") is not None:
        return
    from workbench.encode.embedding import MiniLMEncoder

    real = MiniLMEncoder.model

    def guarded(self):
        if self._model is None:
            pytest.fail("this test loads the packaged language model: mark it @pytest.mark.slow")
        return real.fget(self)

    monkeypatch.setattr(MiniLMEncoder, "model", property(guarded))
    try:  # the multilingual model's network likewise (its weights file alone, for word pieces, is quick)
        from workbench.encode.multilingual import E5Encoder
    except ImportError:
        return

    network = E5Encoder._network

    def guarded_network(self):
        if self._net is None:
            pytest.fail("this test loads the packaged multilingual model: mark it @pytest.mark.slow")
        return network(self)

    monkeypatch.setattr(E5Encoder, "_network", guarded_network)


def peak_script(script: str) -> str:
    """``script``, then a line printing the process's peak resident memory in MB, and an exit with ``code`` when
    the script sets it. The peak is VmHWM, the high-water mark of the process's own memory since it started
    this interpreter: ru_maxrss carries the parent's over the fork and exec, so a child of the whole test suite
    (a 2 GB pytest) reported the suite's peak, not its own."""
    return (script + "\nimport sys as _sys\n"
            "_peak = next(line for line in open('/proc/self/status') if line.startswith('VmHWM'))\n"
            "print(int(_peak.split()[1]) / 1024, flush=True)\n"
            "_sys.exit(globals().get('code', 0))\n")


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where a browser test keeps its screenshots: ``WORKBENCH_SHOTS`` to look at them afterwards, else the test's own."""
    folder = Path(os.environ.get("WORKBENCH_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def bench_module(stem: str):
    """A benchmark script (``bench/STEM.py``) loaded as a module, for tests of what it runs or prints."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(stem, ROOT / "bench" / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def xlsx_bytes(rows: list[list[object]]) -> bytes:
    """A real .xlsx workbook (openpyxl) whose one sheet holds ``rows``, as bytes to load."""
    import io

    import openpyxl

    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
