"""Word search first, then the model's setups: a run in stages, each stage's runs handed over once graded.

A word-search verdict takes seconds; the language model's setups take minutes on a long file. So the grid
of ``settings`` is cut into stages by what they need (``stages``): word search without a model re-check,
then meaning-based search, then the re-checks that read with the model. Each stage is one ``evaluate`` call
on a part of the grid, and after each the runs so far are merged into one ``Evaluation`` (runs in the order
the whole grid's single ``evaluate`` would give) whose ``pending`` names the stages still to come. Every run
is graded exactly as in one call: a configuration's grades depend only on its strategy, retriever, reranker
and the shared settings, never on which others ran beside it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import astuple, dataclass, replace
from typing import TYPE_CHECKING

from workbench.core.model import Document, Question, Settings
from workbench.core.results import Evaluation
from workbench.run.evaluate import Progress, ShouldStop, check_memory, check_settings, evaluate
from workbench.search.reads import any_uses_model
from workbench.search.rerankers import RERANKERS
from workbench.search.retrievers import RETRIEVERS

if TYPE_CHECKING:  # annotations only: the model's modules load where a model reads (DESIGN.md, Start-up)
    from workbench.encode.embedding import Encoder


@dataclass(frozen=True)
class Stage:
    name: str  # in plain words, for "still being computed: ..."
    retrievers: list[str]
    rerankers: list[str]

    @property
    def uses_model(self) -> bool:
        return any_uses_model(self.retrievers, self.rerankers)


def stages(settings: Settings) -> list[Stage]:
    """The grid in the order it is computed: word search (no model), meaning-based search, model re-checks.

    Empty stages are left out, so a word-only grid is one stage and a run of it is one ``evaluate``.
    """
    words = [r for r in settings.retrievers if not RETRIEVERS.get(r).uses_model()]
    meaning = [r for r in settings.retrievers if RETRIEVERS.get(r).uses_model()]
    plain = [r for r in settings.rerankers if not RERANKERS.get(r).uses_model()]
    checks = [r for r in settings.rerankers if RERANKERS.get(r).uses_model()]  # the shared model's or their own
    found = [
        Stage("word search", words, plain),
        Stage("meaning-based search", meaning, plain),
        Stage("re-checks by meaning", settings.retrievers, checks),
    ]
    return [stage for stage in found if stage.retrievers and stage.rerankers]


def merge(settings: Settings, parts: list[Evaluation], pending: list[str]) -> Evaluation:
    """One ``Evaluation`` of the runs of ``parts``, in the order a single ``evaluate(settings)`` lists them."""
    first = parts[0]
    place = {(s, r, k): n for n, (s, r, k) in enumerate(
        (s, r, k) for s in settings.strategies for r in settings.retrievers for k in settings.rerankers)}
    runs = sorted((run for part in parts for run in part.runs), key=lambda run: place[run.key])
    return Evaluation(first.document, settings, first.questions, first.bad_questions, first.chunks, runs,
                      sum(part.seconds for part in parts), pending=tuple(pending), analyzer=first.analyzer)


def evaluate_in_stages(
    document: Document,
    questions: list[Question],
    settings: Settings,
    *,
    on_stage: Callable[[Evaluation], None] | None = None,
    encoder_factory: Callable[[], Encoder] | None = None,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    done: Evaluation | None = None,
    first_only: bool = False,
) -> Evaluation:
    """``evaluate`` stage by stage; ``on_stage`` gets the merged result after each (``pending`` empty at the end).

    A stop (``RunStopped``) raised in a later stage leaves what ``on_stage`` was given as the finished part.
    ``progress`` gets the share of the whole grid: each stage's share weighted by its configurations.
    ``done``: a partial result of these same inputs and settings (a stopped run, or word search's verdict shown
    as the page opened): its finished stages are kept, not computed again, and handed to ``on_stage`` first.
    The result's ``seconds`` counts their computing too. ``first_only``: stop after the first stage (the command
    line's ``--quick``): the result is partial, ``pending`` naming the stages not run.
    """
    check_settings(settings)
    check_memory(document, settings)  # before word search's stage: the model's stages would be refused after it
    started = time.perf_counter()
    plan = stages(settings)
    sizes = [len(stage.retrievers) * len(stage.rerankers) for stage in plan]
    total = sum(sizes)
    # The stages left are graded on ``done``'s own document and Question objects, not equal copies read again:
    # the report and the drill-down find a run's question among the result's by identity.
    originals = own_questions(done, document, questions) if done is not None else None
    kept = finished_stages(plan, settings, done) if originals is not None else []
    parts: list[Evaluation] = []
    if kept:
        document, questions, parts = done.document, originals, [done]
        merged = merge(settings, parts, [stage.name for stage in plan if stage not in kept])
        if on_stage:
            on_stage(merged)
    for number, stage in enumerate(plan):
        if stage in kept:
            continue
        before = sum(sizes[:number])

        def part_progress(share: float, text: str, before: int = before, size: int = sizes[number]) -> None:
            if progress:
                progress((before + share * size) / total, text)

        part = evaluate(document, questions, replace(settings, retrievers=stage.retrievers, rerankers=stage.rerankers),
                        encoder_factory=encoder_factory, progress=part_progress, should_stop=should_stop)
        parts.append(part)
        merged = merge(settings, parts, [later.name for later in plan[number + 1:]])
        if on_stage:
            on_stage(merged)
        if first_only:
            break
    merged.seconds = time.perf_counter() - started + (done.seconds if kept else 0.0)
    return merged


def own_questions(done: Evaluation, document: Document, questions: list[Question]) -> list[Question] | None:
    """``done``'s Question objects in the order of ``questions``; None unless ``done`` is of this same document
    and these same questions."""
    if done.document.name != document.name or done.document.text != document.text:
        return None
    theirs = {astuple(q): q for q in [r.question for r in done.questions] + [b.question for b in done.bad_questions]}
    mine = [theirs.get(astuple(question)) for question in questions]
    return mine if len(theirs) == len(questions) and None not in mine else None  # type: ignore[return-value]


def finished_stages(plan: list[Stage], settings: Settings, done: Evaluation | None) -> list[Stage]:
    """The stages of ``plan`` whose every configuration ``done`` has graded, under the same settings."""
    if done is None or done.settings != settings:
        return []
    graded = {run.key for run in done.runs}
    return [stage for stage in plan if all((strategy, retriever, reranker) in graded
                                           for strategy in settings.strategies for retriever in stage.retrievers
                                           for reranker in stage.rerankers)]


def word_stage(
    document: Document,
    questions: list[Question],
    settings: Settings,
    *,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
) -> Evaluation | None:
    """The first stage alone, when it needs no model: word search's result in seconds, ``pending`` the rest.

    None when the grid has no such stage (every search or re-check reads with the model).
    """
    check_settings(settings)
    plan = stages(settings)
    if not plan or plan[0].uses_model:
        return None
    first = plan[0]
    part = evaluate(document, questions, replace(settings, retrievers=first.retrievers, rerankers=first.rerankers),
                    progress=progress, should_stop=should_stop)
    return merge(settings, [part], [later.name for later in plan[1:]])

