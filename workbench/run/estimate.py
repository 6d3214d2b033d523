"""How long a run will take, said before it starts, and the fast choice beside it.

The word-search part is timed for real on the head of the document and scaled by its length; the
language model's part is the model work still to do (pieces and questions not in its cache) at the
speed the model has shown in this process, or before it has run at the typical speed its class says
(``Encoder.typical_speed``: multilingual-e5 reads slower than MiniLM).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from workbench.core.model import Question, Settings, WorkbenchError
from workbench.cut import chunk_document
from workbench.encode.embedding import Encoder, work_of
from workbench.read.sample import head
from workbench.run.evaluate import check_memory, evaluate, model_texts
from workbench.search.reads import needs_encoder, uses_model
from workbench.search.rerankers import RERANKERS
from workbench.search.retrievers import RETRIEVERS

SAMPLE_CHARACTERS = 40_000  # timed for real: a fraction of a second, long enough that fixed costs do not dominate
WARM_UP_CHARACTERS = 2_000  # run first, untimed: see estimate()
# maxsim's re-check: characters of shortlisted pieces compared a second (reading their word vectors back
# from the disk cache and multiplying each question by blocks of them): 3.2-5.3 million on four of the six
# files warm, 0.4-1.6 million on two measured under a load of 5 (bench/estimate_accuracy.py). 1.0 million
# before the products ran over blocks copied once per run; 9.2-17.5 million on all six since a batch of
# questions is multiplied with a block at once (MaxSim.prepare).
RECHECK_SPEED = 9_000_000.0
# Up to this length the estimate cuts the whole file to count the texts the model has not read yet; a head
# scaled up counts texts no full run makes (its last window, and a control whose shuffle depends on the
# number of sections), which made a warm run's estimate name "34 pieces to read" when there were none.
WHOLE_FILE_CHARACTERS = 400_000
# Importing torch and reading the weights (encode/bert.py): 1.3-1.9 s measured on the same machine (5.3 s when
# the model came through sentence-transformers, whose import brought transformers, scikit-learn and SciPy).
MODEL_LOAD_SECONDS = 2.0
QUICK_SECONDS = 10.0  # runs shorter than this need no warning


@dataclass(frozen=True)
class Estimate:
    seconds: float  # the whole run as set up
    word_seconds: float  # the fast choice: the same run with word search only
    pieces: int  # pieces searched, over all strategies
    texts: int  # texts the language model still has to read (0 without it)
    speed: float  # model work units a second the estimate assumed
    measured: bool  # that speed was measured in this process (else the typical one)
    uses_model: bool
    refused: str = ""  # why a run as set would stop at once (past the language model's memory budget)

    @property
    def slow(self) -> bool:
        return self.seconds > QUICK_SECONDS or bool(self.refused)

    def words(self) -> str:
        """The estimate in plain words, labelled as one."""
        if self.refused:  # "about 41 minutes" was offered for a run that stopped at once when pressed
            return (f"Run as set would stop at once: {self.refused} Word search alone takes "
                    f"{duration(self.word_seconds)}.")
        if not self.uses_model:
            return (f"Estimated time: {duration(self.seconds)} ({self.pieces:,} pieces to search for every "
                    "question, timed on the start of your file).")
        if not self.texts:  # nothing for the model to read: the time is the re-check's and the search's
            return (
                f"Estimated time: {duration(self.seconds)} with meaning-based search: the language model has read "
                f"this file and these questions before. Word search alone takes {duration(self.word_seconds)}."
            )
        speed = "measured on this computer" if self.measured else "a typical speed; it is measured after the first run"
        return (
            f"Estimated time: {duration(self.seconds)} with meaning-based search: the language model has "
            f"{self.texts:,} pieces and questions to read ({speed}). Word search alone takes {duration(self.word_seconds)}. "
            + TRIALS
        )


# Not in the estimate: how many changes the to-do list tries is known only once the run has graded the file (the
# walk-through counted 25-30 s of them after an E5 run of the French export, on a busy machine).
TRIALS = ("After the run, the to-do list's changes are tried on copies of your file with the language model, "
          "which adds to this time.")


def duration(seconds: float) -> str:
    if seconds < 5:
        return "a few seconds"
    if seconds < 90:
        return f"about {round(seconds / 5) * 5:.0f} seconds"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60):.0f} minutes"
    return f"about {seconds / 3600:.1f} hours"


def fast_settings(settings: Settings) -> Settings:
    """The same run with word search only: meaning-based searches become BM25, model rerankers are dropped."""
    retrievers = list(dict.fromkeys("bm25" if RETRIEVERS.get(r).uses_model() else r for r in settings.retrievers))
    rerankers = [r for r in settings.rerankers if not RERANKERS.get(r).uses_model()]
    return replace(settings, retrievers=retrievers, rerankers=rerankers or ["none"])


def estimate(document, questions: list[Question], settings: Settings, encoder: Encoder | None = None) -> Estimate:
    """Time the word-search part on the head of the document and add the model's part at its speed."""
    part = head(document, SAMPLE_CHARACTERS).document
    scale = len(document.text) / max(len(part.text), 1)
    # Every question searched and graded, whether or not its product is in the head.
    asked = [Question(question=q.question, expected_source="", expected_answer="", kind="unanswerable")
             for q in questions if q.question.strip()]
    # The first search in a process pays one-off costs (imports, compiled patterns, the stop-word list, the
    # tokenizer). Timed on the head and scaled by a long file's length, they made a fresh server's first
    # estimate 7 times too long (397 s for a 53 s run on 100,000 rows), so a tiny head runs first, untimed.
    fast = fast_settings(settings)
    evaluate(head(document, WARM_UP_CHARACTERS).document, asked, fast)
    began = time.perf_counter()
    trial = evaluate(part, asked, fast)
    word_seconds = (time.perf_counter() - began) * scale
    pieces = round(sum(len(chunks) for chunks in trial.chunks.values()) * scale)
    if not uses_model(settings):
        return Estimate(word_seconds, word_seconds, pieces, 0, 0.0, False, False)
    try:
        check_memory(document, settings)
    except WorkbenchError as error:
        return Estimate(word_seconds, word_seconds, pieces, 0, 0.0, False, True, refused=str(error))
    # Each search and re-check searches and grades every question again, as word search's do: its time for each
    # of the grid's setups (most of a warm run, whose model reads nothing and whose maxsim reads its columns back).
    seconds = word_seconds * len(settings.retrievers) * len(settings.rerankers) / (len(fast.retrievers) * len(fast.rerankers))
    speed = encoder.speed() if encoder is not None else None
    measured = speed is not None
    speed = speed or (encoder.typical_speed if encoder is not None else Encoder.typical_speed)
    texts, work = 0, 0.0
    distinct: list[str] = []
    missing: list[str] = []
    whole = len(document.text) <= WHOLE_FILE_CHARACTERS
    cuts = ({strategy: chunk_document(document, strategy, settings.size, settings.overlap)
             for strategy in settings.strategies} if whole else trial.chunks)
    share = 1.0 if whole else scale
    if needs_encoder(settings):
        distinct = list(dict.fromkeys(
            text for chunks in cuts.values()
            for text in (model_texts(encoder, chunks, settings) if encoder is not None else [c.text for c in chunks])
        ))
        missing = encoder.unknown(distinct) if encoder is not None else distinct
        # Each question as the model reads and keeps it (E5's marked "query: "): unmarked, a German file's questions
        # were never found in E5's cache, and a warm estimate counted them as still to read.
        asked_texts = [encoder.as_question(q.question) if encoder is not None else q.question for q in asked]
        new_questions = encoder.unknown(asked_texts) if encoder is not None else asked_texts
        texts = round(len(missing) * share) + len(new_questions)
        work = work_of(missing) * share + work_of(new_questions)
    rerankers = [RERANKERS.get(id) for id in settings.rerankers]
    average = sum(len(c.text) for chunks in trial.chunks.values() for c in chunks) / max(sum(map(len, trial.chunks.values())), 1)
    for reranker in rerankers:  # a reranker with a model of its own (a cross-encoder) reads pairs with it
        own_texts, own_work = reranker.own_model_work(len(asked), settings, average)
        work += own_work
        texts += own_texts
    seconds += work / speed
    # maxsim reads no new text, but works out each question's columns, unless an earlier run kept them: then
    # only those of the texts new to the model (an edited file) are left.
    fresh = 1.0
    if encoder is not None and distinct:
        kept = len(encoder.matched([q.question for q in asked])) / max(len(asked), 1)
        fresh = max(1.0 - kept, len(missing) / len(distinct))
    for reranker in rerankers:
        seconds += reranker.recheck_characters(cuts, len(asked), settings) * share * fresh / RECHECK_SPEED
    if texts and not (encoder is not None and encoder.loaded):
        seconds += MODEL_LOAD_SECONDS
    return Estimate(seconds, word_seconds, pieces, texts, speed, measured, True)

