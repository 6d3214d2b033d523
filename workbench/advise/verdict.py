"""The answer a shop owner came for: is this file ready for a bot, with which setup, and how sure is that?

The status reads the grades already in each result (clean, false answer, refused),
so it holds whatever rule decided when the bot refuses. The thresholds are stated
in ``RULE`` and shown wherever the status is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from workbench.advise.readers import READERS
from workbench.core.results import MIN_UNANSWERABLE, Evaluation, QuestionResult, Run, cannot_estimate
from workbench.core.wording import lower_first
from workbench.cut.windows import WINDOW_SIZE, Fixed
from workbench.grade.refusal import answers_alone, counted_clean, refusal_holds, trade_off
from workbench.run.names import is_control, setup_name, strategy_name

# Said by every output when a control ties or beats a real strategy (findings.py uses the same words).
CHANCE = "your questions cannot tell these strategies from chance here"
WHAT_TO_ADD = (
    "Add questions whose answers differ between products with similar names (each one's price, size, colour, "
    "warranty), and more questions overall, until a real cut clearly beats the control."
)

READY, NEEDS_WORK, NOT_READY, NO_VERDICT = "Ready", "Needs work", "Not ready", "Cannot tell yet"
LOOKS_READY = "Looks ready"  # the answers would make it Ready, but the questions cannot show it yet (see RULE)
READY_CLEAN = 0.90  # share of answerable questions answered cleanly
NOT_READY_CLEAN = 0.60
READY_FALSE = 0.25  # share of unanswerable questions the bot answers anyway (a false answer)
NOT_READY_FALSE = 0.50
# How the status is set, one short step each: the app lists them, the command line and the report print them
# as sentences (RULE).
RULE_STEPS = (
    "Ready: at least 90 % of the questions your file answers get a clean answer.",
    "Ready also needs at least 3 questions your file cannot answer, and questions you wrote or checked. With "
    "fewer, or with only the app's own questions, the best it can be is Looks ready.",
    "Questions your file cannot answer should go to a person.",
    "A refusal threshold may hand at least half of them over while wrongly refusing at most 5 % of the real "
    "questions. Then Ready allows the bot to answer at most 1 in 4 of them, and more than half makes it Not ready.",
    "If no threshold can, the status rests on the answers alone, provided the bot's instructions tell it to hand "
    "over what its pieces do not answer. A threshold that works only fitted on all the questions at once counts as "
    "none.",
    "Not ready: under 60 % clean. Needs work: anything in between.",
)
RULE = "How the status is set. " + " ".join(RULE_STEPS)
TIE_RULE = (
    "Setups are ranked by clean answers; ties go to fewer false answers, then to finding the answer in the top "
    "pieces more often, then to a cut that follows your file's headings rather than a piece size (it keeps "
    "working when a product's text grows), then to the simplest (the plainer cut, word search, no re-check). "
    "Controls (cuts made at random or not at all, there only to compare against) are never recommended."
)
BASELINE = Fixed.id  # the usual default setup: fixed-size character windows (of WINDOW_SIZE)


@dataclass
class Verdict:
    status: str
    reason: str  # one sentence: the measured figures behind the status
    rule: str = RULE
    tie_rule: str = TIE_RULE
    recommended: Run | None = None
    recommendation: str = ""  # the setup in plain words
    setup_label: str = ""  # the recommended setup's display name
    also_good: list[Run] = field(default_factory=list)  # setups that tie with it on every ranking figure
    baseline: Run | None = None  # the 300-character windows under the same search
    versus_baseline: str = ""
    caveats: list[str] = field(default_factory=list)
    clean: int = 0
    answerable: int = 0
    false_answers: int = 0
    unanswerable: int = 0
    conditions: list[str] = field(default_factory=list)  # what the status rests on, said right beside it
    refusal: str = ""  # refusing, as its own measured line
    refused: int = 0  # unanswerable questions refused (leave-one-out under "auto", at the set threshold otherwise)
    wrongly_refused: int = 0  # answerable questions refused, judged the same way
    refusal_separable: bool = False  # some threshold refuses half of them at <= 5 % wrongly (False below 3)
    generated_questions: int = 0  # graded questions the app wrote and the owner has not edited or accepted
    refusal_test: list[QuestionResult] = field(default_factory=list)  # when the score cannot refuse: the test
    warned_of_chance: bool = False  # a caveat says a control did as well under the recommended search

    def lines(self) -> list[str]:
        """The verdict as plain sentences, for the command line and the report."""
        out = [f"{self.status}: {self.reason}", *self.conditions]
        if self.recommendation:
            out.append(self.recommendation)
        if self.versus_baseline:
            out.append(self.versus_baseline)
        out += self.caveats
        if self.refusal:
            out.append(self.refusal)
        out.append(self.rule)
        return out

    def as_dict(self) -> dict:
        """The verdict as the command line's JSON carries it."""
        best = self.recommended
        setup = None if best is None else {
            "strategy": best.strategy, "retriever": best.retriever, "reranker": best.reranker,
            "name": self.setup_label,
        }
        return {
            "status": self.status, "setup": setup, "clean": self.clean, "answerable": self.answerable,
            "unanswerable": self.unanswerable, "refused": self.refused, "wrongly_refused": self.wrongly_refused,
            "refusal_separable": self.refusal_separable, "generated_questions": self.generated_questions,
            "false_answers": self.false_answers, "reason": self.reason, "conditions": list(self.conditions),
            "refusal": self.refusal, "refusal_test": [
                {"question": r.question.question, "row": r.question.row} for r in self.refusal_test],
            "rule": self.rule,
        }


def simplicity(run: Run) -> tuple[int, int, int, int]:
    """Cuts that need no piece size first, then each class's ``order``: plainer cuts, word search, no re-check first."""
    from workbench.cut import STRATEGIES
    from workbench.search.rerankers import RERANKERS
    from workbench.search.retrievers import RETRIEVERS

    return (
        int("size" in STRATEGIES.get(run.strategy).params),
        STRATEGIES.get(run.strategy).order,
        RETRIEVERS.get(run.retriever).order,
        RERANKERS.get(run.reranker).order,
    )


def rank_key(run: Run) -> tuple:
    """Smaller is better: most clean answers, fewest false answers, best hit rate, simplest."""
    return (-run.counts["clean"], run.counts["false-answer"], -round(run.hit_rate, 9), simplicity(run))


def recommend(runs: Iterable[Run]) -> tuple[Run | None, list[Run]]:
    """The best setup that is not a control, and the other setups tying with it on clean, false answers, hit rate."""
    candidates = sorted((run for run in runs if not is_control(run.strategy)), key=rank_key)
    if not candidates:
        return None, []
    best = candidates[0]
    ties = [run for run in candidates[1:] if rank_key(run)[:3] == rank_key(best)[:3]]
    return best, ties


def recommended(runs: Iterable[Run]) -> Run | None:
    """The configuration to use (``recommend``'s best); every output and chart takes it from here."""
    return recommend(runs)[0]


def status_of(clean: int, answerable: int, false_answers: int, unanswerable: int, separable: bool = True) -> str:
    """The status the answers give (``assess`` then says Looks ready where the questions cannot show Ready).

    ``separable`` False: no threshold can refuse the unanswerable questions, so their false answers are a
    matter for the bot's instructions, named beside the status, not for the file's status."""
    if not answerable:
        return NO_VERDICT
    clean_share = clean / answerable
    false_share = false_answers / unanswerable if unanswerable and separable else 0.0
    if clean_share < NOT_READY_CLEAN or false_share > NOT_READY_FALSE:
        return NOT_READY
    if clean_share >= READY_CLEAN and false_share <= READY_FALSE:
        return READY
    return NEEDS_WORK


def assess(evaluation: Evaluation, reader: str = "app") -> Verdict:
    """Status, recommended setup, how it compares with 300-character windows, and what the questions cannot tell.
    ``reader``: "app", "cli" or "report", who reads it (the report's reader has no app to go to)."""
    size = evaluation.settings.size
    best, ties = recommend(evaluation.runs)
    if best is None:
        return Verdict(NO_VERDICT, "Only controls were run; add a real way of cutting (for example cut at headings).")
    if not best.answerable:
        return Verdict(
            NO_VERDICT,
            "None of the questions can be graded: add questions naming a product and the answer your file gives.",
            recommended=best,
        )
    answerable, unanswerable = best.answerable, best.unanswerable
    graded = best.per_question
    refused = sum(1 for r in graded if not r.answerable and r.grade == "refused")
    tradeoff = trade_off(graded)
    separable = refusal_holds(tradeoff, evaluation.settings.threshold, refused)
    false_answers = best.counts["false-answer"]
    # No threshold can refuse: the bot is to hand over by its instructions, so its answers are what counts.
    alone = answers_alone(graded, evaluation.settings.threshold)
    clean = counted_clean(graded, alone)
    status = status_of(clean, answerable, false_answers, unanswerable, separable)
    name = setup_name(best, size)
    # The search in plain words: the sentence is read by a shop owner ("BM25" is explained in the settings only).
    reason = (
        f"with {lower_first(setup_name(best, size, plain=True))}, {clean} of {answerable} questions your file answers got a clean "
        f"answer ({clean / answerable:.0%})"
    )
    if unanswerable and separable:  # said the way round that reads right: refusing is the good outcome
        handed = unanswerable - false_answers
        reason += (
            f", and of the {unanswerable} it cannot answer, the bot handed "
            f"{'all' if handed == unanswerable else handed or 'none'} to a person"
            + (f" and answered {false_answers} anyway" if false_answers else "")
        )
    elif alone:
        reason += " when it answers"
    enough = best.calibration is not None and best.calibration.enough
    judged = "; each refusal judged by a threshold fitted on the other questions" if enough else ""
    reason += f" (measured on your {answerable + unanswerable} questions{judged})."
    generated = sum(1 for r in graded if r.question.generated)
    verdict = Verdict(
        status, reason, recommended=best, also_good=ties, clean=clean, answerable=answerable,
        false_answers=false_answers, unanswerable=unanswerable,
        refused=refused,
        wrongly_refused=sum(1 for r in graded if r.answerable and r.grade == "refused"),
        refusal_separable=separable, generated_questions=generated,
    )
    _conditions(evaluation, verdict, tradeoff, reader)
    verdict.recommendation = f"Recommended: {name}."
    verdict.setup_label = name
    others = list(dict.fromkeys(strategy_name(run.strategy, size) for run in ties if run.strategy != best.strategy))
    if others:
        verdict.recommendation += f" Cuts just as good on these questions: {'; '.join(lower_first(o) for o in others)}."
    _compare_with_baseline(evaluation, verdict, size)
    _caveats(evaluation, verdict, size, reader)
    return verdict


def _compare_with_baseline(evaluation: Evaluation, verdict: Verdict, size: int | None) -> None:
    from workbench.grade.stats import compare  # scipy loads only when a verdict is asked for

    best = verdict.recommended
    baseline = next(
        (run for run in evaluation.runs if run.strategy == BASELINE and (run.retriever, run.reranker) ==
         (best.retriever, best.reranker)),
        None,
    )
    window = strategy_name(BASELINE, size)
    if baseline is None:
        verdict.versus_baseline = f"Add {lower_first(window)} to the run to see how much better this is than the usual default."
        return
    verdict.baseline = baseline
    if baseline is best:
        verdict.versus_baseline = f"{window} are the best setup here."
        return
    gained = best.counts["clean"] - baseline.counts["clean"]
    # The usual default is windows of WINDOW_SIZE: windows of the size the owner set are its way of cutting, not it.
    usual = (f"The usual default, {lower_first(window)}," if size in (None, WINDOW_SIZE) else
             f"The usual default way of cutting, fixed windows (at the {size} characters you set),")
    verdict.versus_baseline = (
        f"{usual} answered {baseline.counts['clean']} of {baseline.answerable} cleanly: "
        + (f"the recommended setup gets {gained} more." if gained > 0 else "as many as the recommended setup.")
    )
    if baseline.counts["false-answer"] != best.counts["false-answer"] and best.unanswerable:
        # Named, not "It": right after "the recommended setup gets N more", "It" read as the recommended setup,
        # and its count beside the verdict's own (the recommended setup's) looked like a contradiction.
        verdict.versus_baseline += (
            f" Of the {best.unanswerable} questions your file cannot answer, {lower_first(window)} answered "
            f"{baseline.counts['false-answer']} anyway, the recommended setup {best.counts['false-answer']}."
        )
    comparison = compare(baseline, best, "clean")
    if gained and not comparison.significant:
        verdict.caveats.append(_cannot_tell(comparison, lower_first(window), "the recommended setup"))


def _cannot_tell(comparison, a: str, b: str) -> str:
    """Why ``comparison``'s questions cannot tell ``a`` and ``b`` apart, in counts a shop owner can check: how many
    questions only one of them answered cleanly, how many of those going the other way would turn the result
    round, and about how many questions would settle it."""
    only_a, only_b = comparison.only_a, comparison.only_b
    behind = a if only_b >= only_a else b
    gap = abs(only_b - only_a)
    # Each question that goes the other way moves the gap by 2: half the gap (rounded up) makes it a tie, or
    # puts the other one ahead when the gap is odd.
    turned = (gap + 1) // 2
    turn = "make them equal" if gap % 2 == 0 else f"put {behind} ahead"
    text = (f"Your {comparison.questions} questions are too few to tell {a} and {b} apart: only {only_a + only_b} "
            f"came out clean under one and not the other ({only_b or 'none'} under {b}, {only_a or 'none'} under "
            f"{a}), and {turned} of those going the other way would {turn}")
    needed = comparison.needed
    discordant = only_a + only_b
    if needed is None and discordant and comparison.questions:
        # Every disagreement goes one way, where the sample-size formula divides by zero. McNemar's exact
        # test needs 6 one-sided disagreements for p < 0.05 (2 x 0.5^6 = 0.031), so scale that up.
        needed = math.ceil(6 * comparison.questions / discordant)
    if needed and needed > comparison.questions:
        # The count assumes new questions split the two as these do (the share answered cleanly by only one of
        # them), and is what a paired test at the 5 % level needs to call that difference real 4 times in 5.
        text += (f". To be sure which is better, write about {needed - comparison.questions:,} more (about {needed:,} "
                 "in all), if new ones go as these did")
    return text + "."


def _caveats(evaluation: Evaluation, verdict: Verdict, size: int | None, reader: str = "app") -> None:
    from workbench.grade.stats import compare

    best = verdict.recommended
    same_search = [r for r in evaluation.runs if (r.retriever, r.reranker) == (best.retriever, best.reranker)]
    tied = {run.strategy for run in verdict.also_good}
    runner_up = next(
        (r for r in sorted(same_search, key=rank_key) if r.strategy not in tied | {best.strategy, BASELINE}
         and not is_control(r.strategy)),
        None,
    )
    if runner_up is not None and runner_up.counts["clean"] < best.counts["clean"]:
        comparison = compare(runner_up, best, "clean")
        if not comparison.significant:
            verdict.caveats.append(
                # Quoted: a name with a comma would run into the sentence. Its own capitals kept ("LangChain").
                _cannot_tell(comparison, f"“{lower_first(strategy_name(runner_up.strategy, size))}”",
                             f"“{lower_first(strategy_name(best.strategy, size))}”")
            )
    controls = [r for r in same_search if is_control(r.strategy) and r.counts["clean"] >= best.counts["clean"]]
    verdict.warned_of_chance = bool(controls)
    for control in controls:
        verdict.caveats.append(
            f"The {lower_first(strategy_name(control.strategy))} did as well ({control.counts['clean']} clean): {CHANCE}. "
            f"{WHAT_TO_ADD}"
        )
    if verdict.unanswerable >= MIN_UNANSWERABLE and not verdict.refusal_separable:
        return  # the refusal line says what to do: a threshold would not help
    if best.unanswerable and best.threshold is None and best.counts["false-answer"] and evaluation.settings.threshold != "auto":
        # Under "auto" a None threshold means no level picked from the questions works: the to-do says what
        # to do then, and telling the owner to tick the box already ticked would contradict it.
        verdict.caveats.append(
            f"The bot never refused a question here: {READERS[reader].threshold_from_questions} so it hands the "
            "ones your file cannot answer to a person."
        )


def _conditions(evaluation: Evaluation, verdict: Verdict, tradeoff, reader: str = "app") -> None:
    """What the status rests on, said beside it, Looks ready where the questions cannot show Ready, and
    the refusal line (its own measured line, never folded into the status)."""
    best = verdict.recommended
    graded = len(best.per_question)
    generated, unanswerable = verdict.generated_questions, verdict.unanswerable
    if generated and generated == graded:
        verdict.conditions.append(
            "Looks ready on the app's own questions: write or check your customers' questions to be sure."
            if verdict.status == READY else
            "Measured on the app's own questions only: write or check your customers' questions to be sure."
        )
    elif generated:
        check = READERS[reader].check_questions
        verdict.conditions.append(
            f"{generated} of your {graded} questions are the app's own and not yet checked: {check}, or write your "
            "customers' own, to be sure."
        )
    if unanswerable < MIN_UNANSWERABLE:
        more = MIN_UNANSWERABLE - unanswerable
        verdict.conditions.append(
            ("None of your questions is one your file cannot answer" if not unanswerable else
             f"Only {unanswerable} of your questions {'is one' if unanswerable == 1 else 'are ones'} your file "
             "cannot answer")
            + f", so refusing was not tested: add at least {more} (a product you do not sell, a country you do "
            "not ship to), with the product left empty."
        )
    if verdict.status == READY and (generated or unanswerable < MIN_UNANSWERABLE):
        verdict.status = LOOKS_READY
    if tradeoff is None:
        verdict.refusal = cannot_estimate(unanswerable) if unanswerable else ""
        return
    threshold = evaluation.settings.threshold
    answerable = verdict.answerable
    if threshold == "auto":
        measured = (f"Refusing, with each question judged by a threshold fitted on the other questions: it refused "
                    f"{verdict.refused} of the {unanswerable} questions your file cannot answer and wrongly refused "
                    f"{verdict.wrongly_refused} of the {answerable} it can.")
    elif threshold:
        measured = (f"Refusing below a confidence of {float(threshold):g}: the bot refused {verdict.refused} of the "
                    f"{unanswerable} questions your file cannot answer and wrongly refused {verdict.wrongly_refused} "
                    f"of the {answerable} it can.")
    else:
        measured = (f"The bot never refuses (no threshold is set): it answered all {unanswerable} questions your "
                    "file cannot answer.")
    verdict.refusal = f"{measured} {tradeoff.sentence}"
    if not verdict.refusal_separable:
        verdict.refusal += (
            (" But judged each by a threshold fitted on the other questions, refusing did not hold up: with these "
             "questions no threshold can be relied on." if tradeoff.separable else
             " No threshold refuses at least half of them while wrongly refusing at most 5 % of real ones: the "
             "search score cannot tell these questions apart from real ones on this file.")
            + " Tell the bot in its "
            "instructions to answer only from the pieces it is handed and to hand the question to a person "
            f"otherwise, and test those instructions with the {unanswerable} questions below and the pieces the "
            "bot would be handed."
        )
        verdict.refusal_test = [r for r in best.per_question if not r.answerable]
        verdict.conditions.append(
            "This holds only if the bot is told in its instructions to answer only from the pieces it is handed "
            "and to hand the question to a person otherwise: the search score cannot tell the questions your "
            "file cannot answer from real ones here (see the refusal line)."
        )


def handed_pieces(evaluation: Evaluation, result: QuestionResult) -> list:
    """The pieces the bot would be handed for a question under its run's setup: the top k of its ranking."""
    run = next(run for run in evaluation.runs if any(r is result for r in run.per_question))
    chunks = evaluation.chunks[run.strategy]
    return [chunks[index] for index, _ in result.ranking[: run.top_k]]
