"""Run golden questions through every strategy x retriever x reranker and grade them."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from workbench.core import limits
from workbench.core.model import (
    Chunk,
    Document,
    Question,
    ResolvedQuestion,
    Settings,
    WorkbenchError,
)
from workbench.core.results import Evaluation, QuestionResult, Run
from workbench.core.wording import plural, verb
from workbench.core.words import Analyzer
from workbench.cut import STRATEGIES, chunk_document, make_strategy
from workbench.grade.confidence import WordEvidence, confidence
from workbench.grade.grading import KEPT_PIECES, ChunkMap, Grade, grade, keep_maps
from workbench.read.language import analyzer_for
from workbench.read.resolve import resolve_all
from workbench.run.names import reranker_name, retriever_name, strategy_name
from workbench.run.summary import outcome, outcome_run, summarise
from workbench.run.timing import Clock, Timings
from workbench.search.reads import needs_encoder
from workbench.search.rerankers import RERANKERS, Reranker
from workbench.search.retrievers import RETRIEVERS, Retriever, ranks, starts_of

if TYPE_CHECKING:  # annotations only: the model's modules load where a model reads (DESIGN.md, Start-up)
    from workbench.encode.embedding import Encoder

Progress = Callable[[float, str], None]
ShouldStop = Callable[[], bool]
KEEP = 10  # ranked chunks kept per question for the drill-down
SLICE_SECONDS = 1.5  # model work between two looks at should_stop, so a Stop is heard within seconds


class RunStopped(WorkbenchError):
    """The caller asked the run to stop (a Stop button, a closed tab); nothing of it is returned."""

    def __init__(self) -> None:
        super().__init__("the run was stopped before it finished, so nothing was graded or saved.")


def check_settings(settings: Settings) -> None:
    """Refuse unknown ids and bad numbers before any work starts."""
    for id in settings.strategies:
        STRATEGIES.get(id)
    for id in settings.retrievers:
        RETRIEVERS.get(id)
    for id in settings.rerankers:
        RERANKERS.get(id)
    if not (settings.strategies and settings.retrievers and settings.rerankers):
        raise WorkbenchError("choose at least one strategy, one retriever and one reranker")
    if not 1 <= settings.top_k <= limits.MAX_RANKED:  # every run pads its size curve to top-k: 1e12 is memory
        raise WorkbenchError(f"top-k must be from 1 to {limits.MAX_RANKED:,}, not {settings.top_k}")
    if not (settings.threshold is None or settings.threshold == "auto" or isinstance(settings.threshold, (int, float))):
        raise WorkbenchError(f"the threshold must be a number or 'auto', not {settings.threshold!r}")
    if isinstance(settings.threshold, float) and not math.isfinite(settings.threshold):  # nan never refuses
        raise WorkbenchError(f"the threshold must be a number or 'auto', not {settings.threshold!r}")
    if not 1 <= settings.depth <= limits.MAX_RANKED:
        raise WorkbenchError(f"depth must be from 1 to {limits.MAX_RANKED:,}, not {settings.depth}")
    if isinstance(settings.threshold, (int, float)) and not 0 <= settings.threshold <= 1:
        raise WorkbenchError(f"the threshold is a confidence from 0 to 1, not {settings.threshold!r}")
    for id in settings.strategies:  # a bad size or overlap is named before any model loads
        make_strategy(id, size=settings.size, overlap=settings.overlap)


def check_memory(document: Document, settings: Settings) -> None:
    """Refuse a run that reads with the language model past its memory budget (``limits.check_model_run``), in the
    app's words; the command line checks first in its own (its flags)."""
    if needs_encoder(settings):
        limits.check_model_run(document.name, len(document.text), settings.strategies, choose=lambda fit, example: (
            f"Under Settings, keep at most {plural(fit, 'way')} of cutting the file (for example "
            f"{' and '.join(strategy_name(c, settings.size) for c in example)}), choose word search only, or split "
            "the file." if fit else "Choose word search only, or split the file."))


def evaluate(
    document: Document,
    questions: list[Question],
    settings: Settings,
    *,
    encoder_factory: Callable[[], Encoder] | None = None,
    progress: Progress | None = None,
    timings: Timings | None = None,
    should_stop: ShouldStop | None = None,
    analyzer: Analyzer | None = None,
    outcome_only: bool = False,
    words_like: WordEvidence | None = None,
) -> Evaluation:
    """Grade every question under every configuration of ``settings``.

    ``analyzer``: how the words are read, when the caller has chosen already (a copy of a graded file with a few
    words added is read as the file was); else chosen here from the document's and the questions' languages.

    ``words_like``: the word evidence of the file this document is a copy of (``WordEvidence``'s ``like``).

    ``outcome_only``: each question's grade and confidence and the runs' counts only (``run.summary.outcome``),
    what a graded copy's trial reads (``advise/proof.py``), not the rankings and figures a report reads.

    ``should_stop`` is asked between questions, strategies and slices of embedding; when it says yes,
    ``RunStopped`` is raised (a web app's callback may also raise its own exception to end the work).
    """

    def check() -> None:
        if should_stop is not None and should_stop():
            raise RunStopped()

    check_settings(settings)
    if not any(section.facts for section in document.sections):  # headings alone, or formulas saved without values
        raise WorkbenchError(
            f"{document.name} holds no text to answer from: {plural(len(document.sections), 'heading')} and nothing under "
            f"{verb(len(document.sections), 'it', 'them')}."
            + (" " + " ".join(document.warnings) if document.warnings else "")
        )
    # The same bound as the command line's (which names --strategies): an app's run of every cut of a 200,000-product
    # file held 2.8 GB.
    limits.check_run(document.name, len(document.text), settings.strategies, choose=lambda fit, example: (
        f"Under Settings, keep at most {plural(fit, 'way')} of cutting the file (for example "
        f"{' and '.join(strategy_name(c, settings.size) for c in example)}), or split the file."))
    check_memory(document, settings)
    started = time.perf_counter()
    timings = timings or Timings()
    resolved, bad = resolve_all(document, questions)
    # How every part reads the words, once for the run: the document's languages (and the questions').
    analyzer = analyzer or analyzer_for(document, [q.question.question for q in resolved])
    if needs_encoder(settings):
        if encoder_factory is None:  # the model that reads the file's language (encode/multilingual.py)
            from workbench.encode.multilingual import encoder_factory_for

            encoder_factory = encoder_factory_for(document)
        if progress:
            progress(0.0, "Loading the language model (once)")
        encoder = encoder_factory()
        encoder_factory = lambda: encoder  # noqa: E731  (one encoder for the whole run)
        clock = Clock(timings, lambda: encoder.seconds)
    else:
        encoder = None
        clock = Clock(timings, None)
    if encoder is not None:  # all questions in one batch: one model call per question costs more than the work
        clock.run("embed", lambda: _embed(encoder, [encoder.as_question(q.question.question) for q in resolved], check))
    rerankers: dict[str, Reranker] = {}
    for id in settings.rerankers:  # a missing cross-encoder folder is reported before the slow work
        rerankers[id] = RERANKERS.get(id)(encoder_factory=encoder_factory, model_path=settings.reranker_model,
                                          analyzer=analyzer)
    chunks_by_strategy: dict[str, list[Chunk]] = {}
    runs: list[Run] = []
    if progress:
        progress(0.0, "Reading which words your file uses")
    evidence = WordEvidence(document, between=check, analyzer=analyzer, like=words_like)
    steps = len(settings.strategies) * len(settings.retrievers)
    done = 0
    # The progress line names the re-checks (those that re-score): maxsim's is most of its stage's time.
    checks = [reranker_name(id).lower() for id, reranker in rerankers.items() if reranker.rescores]
    rechecking = f", {' and '.join(checks)}" if checks else ""
    reading = 0.0  # the share of the bar the model's reading takes (set below when it has new texts to read)
    for strategy in settings.strategies:
        check()
        if progress:
            progress(0.0, f"Cutting the document: {strategy_name(strategy, settings.size)}")
        chunks = clock.run("chunk", lambda: chunk_document(document, strategy, settings.size, settings.overlap, check))
        if not chunks:  # nothing to rank: say so rather than index an empty ranking
            raise WorkbenchError(f"{strategy_name(strategy, settings.size)} cut {document.name} into no pieces.")
        chunks_by_strategy[strategy] = chunks
    if encoder is not None:  # the run's plan: every text the model reads for every cut, up front, each once
        texts = plan_model_texts(encoder, chunks_by_strategy, settings, timings)
        fresh = clock.run("embed", lambda: encoder.recall(texts))  # the rest is read back from the disk, once
        if progress:
            shared = f" ({timings.shared_texts:,} of them in several cuts, read once)" if timings.shared_texts else ""
            progress(0.0, f"The language model reads {len(texts):,} texts{shared}; {len(fresh):,} of them are new to it")

        # The model's reading is most of a run that has new texts: the bar moves with it (it stood still at the
        # stage's start while the model read thousands of texts), and the searches and grading share the rest.
        reading = READING_SHARE if fresh else 0.0

        def report(begin: int) -> None:
            if progress and begin:
                progress(reading * begin / len(fresh), f"The language model has read {begin:,} of {len(fresh):,} new texts")

        # Longest first, as the model batches them itself: each slice holds texts of about one length, so little
        # of a batch is padding, and the first slices (the slowest texts) are small enough to hear a Stop soon.
        clock.run("embed", lambda: _embed(encoder, sorted(fresh, key=len, reverse=True), check, report))
    maps: list[ChunkMap] = []  # kept for the outputs (grading.keep_maps), a copy's trial has none
    for strategy, chunks in chunks_by_strategy.items():
        check()
        chunk_map = clock.run("grade", lambda: ChunkMap(document, chunks, between=check))
        if not outcome_only and sum(len(m._chunks) for m in maps) + len(chunks) <= KEPT_PIECES:
            maps.append(chunk_map)
        check()
        holders = clock.run("grade", lambda: [chunk_map.holders(q) for q in resolved])
        starts = starts_of(chunks)
        for retriever_id in settings.retrievers:
            check()
            if progress:
                progress(reading + (1 - reading) * done / steps,
                         f"{strategy_name(strategy, settings.size)} — {retriever_name(retriever_id)} "
                         f"in {len(chunks):,} pieces{rechecking}")
            retriever = None  # let the previous retriever's index go before building the next
            retriever = clock.run("index", lambda: RETRIEVERS.get(retriever_id)(
                chunks, encoder_factory=encoder_factory, analyzer=analyzer))
            results: dict[str, list[QuestionResult]] = {id: [] for id in rerankers}
            # A batch of questions at a time, so a re-check can work out their shortlists together
            # (``Reranker.prepare``) while only a few questions' full score arrays are held at once.
            batch = max(1, min(QUESTION_BATCH, SCORE_CELLS // max(len(chunks), 1)))
            for first in range(0, len(resolved), batch):
                check()
                asked = resolved[first : first + batch]
                searched = clock.run("search", lambda: _search_all(retriever, asked, starts))
                for reranker in rerankers.values():
                    if reranker.rescores:
                        clock.run("rerank", lambda: reranker.prepare(
                            [(question.question.question, [chunks[i] for i in _shortlist(order, settings.depth)])
                             for question, (_, order, _) in zip(asked, searched)]))
                for question, question_holders, (scores, order, sure) in zip(asked, holders[first : first + batch],
                                                                             searched):
                    check()
                    sureness = sure if sure is not None else clock.run(
                        "grade", lambda: retriever.sureness(question.question.question, scores))
                    for reranker_id, reranker in rerankers.items():
                        final, final_order = clock.run(
                            "rerank", lambda: _rerank(reranker, question, scores, order, chunks, starts, settings.depth)
                        )
                        results[reranker_id].append(clock.run("grade", lambda: outcome(
                            question, final, final_order, chunks, chunk_map, question_holders, evidence, sureness)
                            if outcome_only else _grade(question, final, final_order, chunks, chunk_map,
                                                        question_holders, settings, evidence, sureness)))
            for reranker_id, graded in results.items():
                runs.append((outcome_run if outcome_only else summarise)(
                    strategy, retriever_id, reranker_id, chunks, graded, settings.top_k, settings.threshold))
            done += 1
    for reranker in rerankers.values():
        clock.run("rerank", reranker.finish)
    if not outcome_only:
        keep_maps(maps)
    if progress:
        progress(1.0, "Done")
    return Evaluation(document, settings, resolved, bad, chunks_by_strategy, runs, time.perf_counter() - started,
                      analyzer=analyzer)


# Questions searched before their shortlists are re-checked (``Reranker.prepare`` works a batch out together),
# fewer when a cut has so many pieces that their score arrays (SCORE_CELLS values in all) would weigh more.
QUESTION_BATCH = 64
SCORE_CELLS = 2_000_000

# The share of a run's progress bar given to the model's reading when it has new texts: most of a cold run of the
# model's setups (bench/default_setup.py), the searches and grading after it the rest.
READING_SHARE = 0.8


def _embed(encoder: Encoder, texts: list[str], check: Callable[[], None], report=None) -> None:
    """Put the texts through the model in slices of about SLICE_SECONDS each, checking for a stop between.

    ``texts`` are the ones the model has not read (``Encoder.recall``): a slice of texts read before comes back at
    once and would set the next slice's size as if the model were that fast (a stopped run's first, longest texts
    made the next run read 1,024 texts in one 40 s slice, deaf to Stop and with its progress frozen). A slice is
    at most twice the one before for the same reason, and after the first a whole number of what the encoder
    reads at once (``Encoder.reads_at_once``: its batches side by side), or part of the machine would stand idle.
    """
    size, begin = 16, 0
    while begin < len(texts):
        check()
        if report:
            report(begin)
        part = texts[begin : begin + size]
        began = time.perf_counter()
        encoder.sentence_matrix(part)
        spent = time.perf_counter() - began
        begin += len(part)
        size = max(8, min(1024, 2 * len(part), int(len(part) * SLICE_SECONDS / max(spent, 1e-3))))
        size = -(-size // encoder.reads_at_once) * encoder.reads_at_once


def plan_model_texts(encoder: Encoder, cuts: dict[str, list[Chunk]], settings: Settings, timings: Timings) -> list[str]:
    """Every distinct text the model reads for these cuts, in the cuts' order; ``timings`` keeps their count
    and how many of them more than one cut holds (each read once: a vector depends on its text alone)."""
    per_cut = [model_texts(encoder, chunks, settings) for chunks in cuts.values()]
    held = Counter(text for texts in per_cut for text in texts)
    timings.model_texts = len(held)
    timings.shared_texts = sum(1 for count in held.values() if count > 1)
    return list(held)


def model_texts(encoder: Encoder, chunks: list[Chunk], settings: Settings) -> list[str]:
    """What the model will read of these chunks: their windows, or their small pieces' (small-to-big).

    ``maxsim`` reads the same units (``model_window.reading_units``), so nothing more is needed for it.
    """
    from workbench.encode.model_window import prime_windows, search_texts, views

    prime_windows(encoder, [pair for chunk in chunks for pair in search_texts(chunk)])
    return list(dict.fromkeys(text for chunk in chunks for text in views(encoder, chunk)))


def _search(retriever: Retriever, question: ResolvedQuestion, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scores = np.asarray(retriever.scores(question.question.question), dtype=float)
    return scores, ranks(scores, starts)


def _search_all(retriever: Retriever, questions: list[ResolvedQuestion], starts: np.ndarray) -> list[tuple]:
    """Each question's scores, ranking and sureness: all at once where the retriever has a way
    (``Retriever.scores_of``); else the first two question by question, and the sureness None (asked after: a
    hybrid search's sureness reads its last question's parts)."""
    asked = [question.question.question for question in questions]
    scores = retriever.scores_of(asked)
    if scores is None:
        return [(*_search(retriever, question, starts), None) for question in questions]
    return list(zip(scores, ranks(scores, starts), retriever.sureness_of(asked, scores)))


def _shortlist(order: np.ndarray, depth: int) -> np.ndarray:
    """What a re-check re-scores: the search's top ``depth`` pieces."""
    return order[:depth]


def _rerank(
    reranker: Reranker,
    question: ResolvedQuestion,
    scores: np.ndarray,
    order: np.ndarray,
    chunks: list[Chunk],
    starts: np.ndarray,
    depth: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Re-score the top ``depth`` candidates; the rest keep the retriever's order below them."""
    if not reranker.rescores:
        return scores, order
    shortlist = _shortlist(order, depth)
    new = reranker.scores(question.question.question, [chunks[i] for i in shortlist])
    if new is None:
        return scores, order
    new = np.asarray(new, dtype=float)
    reordered = shortlist[np.lexsort((shortlist, starts[shortlist], -new))]
    final = scores.copy()
    final[shortlist] = new
    return final, np.concatenate([reordered, order[depth:]])


def _grade(
    question: ResolvedQuestion,
    scores: np.ndarray,
    order: np.ndarray,
    chunks: list[Chunk],
    chunk_map: ChunkMap,
    holders: list[int],
    settings: Settings,
    evidence: WordEvidence,
    sureness: np.ndarray,
) -> QuestionResult:
    top_score = float(scores[order[0]])
    result: Grade = grade(question, order, chunks, chunk_map, holders)
    kept = order[: max(KEEP, settings.top_k)]
    sure, parts = confidence(evidence, question.question.question, chunks[int(order[0])], sureness, order)
    return QuestionResult(
        question=question.question,
        grade=result.grade,
        reason=result.reason,
        rank=result.rank,
        top_chunk=chunks[int(order[0])].id,
        top_score=top_score,
        ranking=list(zip(kept.tolist(), scores[kept].tolist())),
        relevant_ranks=result.relevant_ranks,
        answered_grade=result.grade,
        answered_reason=result.reason,
        confidence=sure,
        evidence=parts,
    )
