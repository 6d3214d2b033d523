"""Several sessions share one encoder and one cache file: concurrent use must neither crash nor mix up vectors."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from workbench.store.embedding_store import EmbeddingStore

from .conftest import FakeEncoder


def run_together(*jobs) -> list[BaseException]:
    """Start the jobs in threads at the same moment; the errors they raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(len(jobs))

    def wrap(job):
        try:
            start.wait()
            job()
        except BaseException as error:  # noqa: BLE001 - collected and asserted by the caller
            errors.append(error)

    threads = [threading.Thread(target=wrap, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


class SlowDisk(EmbeddingStore):
    """A store on a slow disk: each write announces itself, then takes 0.3 s before it lands."""

    def __init__(self, path) -> None:
        super().__init__(path)
        self.writing = threading.Event()

    def put(self, model, items) -> None:
        self.writing.set()
        time.sleep(0.3)
        super().put(model, items)


def test_a_session_asking_for_texts_another_is_still_storing(tmp_path):
    """The shared encoder's race: session A's texts have sentence vectors in memory, their token vectors were
    evicted (a window of 3 texts) and are not on disk yet, and session B asks for them."""
    store = SlowDisk(tmp_path / "e.sqlite")
    encoder = FakeEncoder(store)
    encoder.token_memory = 3
    texts = [f"piece {i} warranty {i % 4} year" for i in range(10)]
    expected = [e.tokens.astype(np.float16).astype(np.float32) for e in FakeEncoder().encode(texts)]
    results: dict[str, list[np.ndarray]] = {}

    def session_a():
        results["a"] = encoder.token_vectors(texts)

    def session_b():
        assert store.writing.wait(10), "session A never wrote"
        results["b"] = encoder.token_vectors(texts)  # while A's write is still on its way to the disk

    assert run_together(session_a, session_b) == []
    for name in ("a", "b"):
        assert all(np.array_equal(got, want) for got, want in zip(results[name], expected)), name
    assert encoder.encoded == 10  # each text through the model once: B waited for A instead of redoing it


def test_two_sessions_with_a_small_memory_window(tmp_path):
    """Two threads ask for 40 different texts each, over and over, through a window of 3: every answer exact."""
    encoder = FakeEncoder(EmbeddingStore(tmp_path / "e.sqlite"))
    encoder.token_memory = 3
    texts = {name: [f"{name} piece {i} warranty {i % 7}" for i in range(40)] for name in ("fan", "lamp")}
    expected = {name: [e.tokens for e in FakeEncoder().encode(batch)] for name, batch in texts.items()}
    seen: dict[str, list] = {"fan": [], "lamp": []}

    def session(name: str):
        def job():
            for round_ in range(200):
                batch = texts[name][round_ % 5 :: 3]
                seen[name].append((batch, encoder.token_vectors(batch)))
        return job

    assert run_together(session("fan"), session("lamp")) == []
    for name, rounds in seen.items():
        for batch, vectors in rounds:
            for text, tokens in zip(batch, vectors):
                want = expected[name][texts[name].index(text)].astype(np.float16).astype(np.float32)
                assert np.array_equal(tokens, want), f"{text!r} came back with another text's vectors"
    assert encoder.encoded == 80


def test_two_threads_writing_to_one_store_object(tmp_path):
    """One store shared by two threads (as the app's sessions share it). Without its lock, one connection used
    by both threads fails with "cannot start a transaction within a transaction" within a few rounds."""
    store = EmbeddingStore(tmp_path / "e.sqlite")
    sentence = np.full(384, 1 / np.sqrt(384), dtype=np.float32)
    tokens = np.ones((100, 384), dtype=np.float32)  # large rows keep each write busy long enough to overlap

    def embed(name: str):
        def job():
            for round_ in range(120):
                batch = [(f"{name} {round_} {i}", sentence, tokens) for i in range(20)]
                store.put("m", batch)
                assert len(store.sentences("m", [text for text, _, _ in batch])) == 20
        return job

    assert run_together(embed("fan"), embed("lamp")) == []
    assert store.count("m") == 2 * 120 * 20
    assert store.warnings == []


TWO_SESSIONS = r"""
import json, sys, threading
sys.path.insert(0, sys.argv[1])
from tests.test_app import go, open_app, upload
from tests.test_concurrency import run_together
from ui import keys
from ui.questions_table import questions_frame
from workbench.core.model import Question

shops = {
    "fans.md": b"# Fans\n\n## Aurora Fan\nPrice: 120\nWarranty: 2 years.\n\n## Breeze Fan\nPrice: 80\nWarranty: 1 year.\n",
    "lamps.md": b"# Lamps\n\n## Luna Lamp\nPrice: 45\nBulb: LED 9 W.\n\n## Sol Lamp\nPrice: 60\nBulb: LED 12 W.\n",
}
questions = {
    "fans.md": [("How long is the Aurora fan's warranty?", "Aurora Fan", "Warranty: 2 years."),
                ("What does the Breeze fan cost?", "Breeze Fan", "Price: 80")],
    "lamps.md": [("Which bulb does the Sol lamp take?", "Sol Lamp", "Bulb: LED 12 W."),
                 ("What does the Luna lamp cost?", "Luna Lamp", "Price: 45")],
}
sessions = {}
for name, data in shops.items():
    at = upload(open_app(), name, data)
    at.session_state[keys.QUESTIONS] = questions_frame([Question(*row) for row in questions[name]])
    at = go(at, "pages/results.py")
    at.multiselect(key="w_run_retrievers").set_value(["dense"]).run()
    at.multiselect(key="w_run_rerankers").set_value(["none", "maxsim"]).run()
    sessions[name] = at
errors = run_together(*(lambda name=name: sessions[name].button(key="run").click().run() for name in shops))
report = {"errors": [repr(e) for e in errors]}
for name, at in sessions.items():
    result = at.session_state[keys.RESULT]
    report[name] = {
        "exceptions": [e.value for e in at.exception],
        "traces": ["\n".join(e.stack_trace[-12:]) for e in at.exception],  # the screen's message is redacted
        "document": result and result.document.name,
        "retrievers": sorted({run.retriever for run in result.runs}) if result else [],
        "rerankers": sorted({run.reranker for run in result.runs}) if result else [],
        "questions": [q.question.question for q in result.questions] if result else [],
        "clean": {f"{run.strategy}/{run.reranker}": run.counts["clean"] for run in result.runs} if result else {},
    }
print(json.dumps(report))
"""


@pytest.mark.slow
def test_two_app_sessions_running_meaning_based_search_together(tmp_path):
    """Two browser sessions of one server (two AppTests in one process share the encoder, its cache and the
    history), each running the packaged model on its own file at the same moment. In a process of its own,
    so the model's measured speed does not leak into other tests' time estimates."""
    import json
    import os
    import subprocess
    import sys

    from .conftest import ROOT

    env = {**os.environ, "WORKBENCH_EMBEDDING_CACHE": str(tmp_path / "e.sqlite"),
           "WORKBENCH_HISTORY_DB": str(tmp_path / "h.sqlite")}
    done = subprocess.run([sys.executable, "-c", TWO_SESSIONS, str(ROOT)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["errors"] == []
    for name, asked in (("fans.md", "How long is the Aurora fan's warranty?"), ("lamps.md", "Which bulb does the Sol lamp take?")):
        session = report[name]
        assert session["exceptions"] == [] and session["document"] == name, session["traces"]
        assert session["retrievers"] == ["dense"] and session["rerankers"] == ["maxsim", "none"]
        assert session["questions"][0] == asked and len(session["questions"]) == 2
    # Both sessions' runs landed in the one history file.
    import sqlite3

    saved = sqlite3.connect(tmp_path / "h.sqlite").execute("SELECT document FROM runs ORDER BY document").fetchall()
    assert sorted({row[0] for row in saved}) == ["fans.md", "lamps.md"]
