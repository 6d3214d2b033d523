"""Whom the advice is written for, decided here once: what each reader is told to do, in the words of what they have.

The verdict and the to-do name a control when they say how to change something: the app's reader has its pages and
settings (a shop owner in the app has no command line to type into), the command line's reader its flags and
commands, and the HTML report's reader neither (it is read by whoever is handed it), so it says what to have done.
``advise(…, reader=)`` takes the reader's name ("app", "cli" or "report") and every sentence that names a control
takes its words from ``READERS`` (``tests/test_readers.py`` holds each reader to its own).
"""

from __future__ import annotations

from dataclasses import dataclass

SECTION_WINDOW = "section-window"  # the cut that splits a long product at its rows


@dataclass(frozen=True)
class Reader:
    bot_ready_copy: str  # where the bot-ready copy of the file comes from
    add_section_window: str  # how to have the section-window cut measured, when it was not among the cuts run
    pick_threshold: str  # "Let the bot refuse: …": how to have the refusal level picked from the questions
    raise_threshold: str  # "{threshold}": how to refuse more than at the level set now
    threshold_from_questions: str  # the verdict's caveat: "The bot never refused a question here: …"
    check_questions: str  # what to do with questions the app wrote and the owner has not checked
    fixed_file: str  # where the file with the to-do's fixes comes from


READERS = {
    "app": Reader(
        # The section, not its download button: the copy is offered only when it answers more questions cleanly.
        bot_ready_copy="on Results, under “A bot-ready version of your file”",
        add_section_window=" (not among the cuts you ran: add it under Results › Settings › “Ways of cutting the file” "
                           "and run again to see how it does)",
        pick_threshold="tick “Let the questions pick the threshold” in the Results settings",
        raise_threshold="Raise “Refuse below this confidence” above {threshold}, or tick “Let the questions pick the "
                        "threshold” in the Results settings.",
        threshold_from_questions="let the questions pick a refusal threshold",
        check_questions="edit or accept them on the Questions page",
        fixed_file="“Download your file with the fixes”, below, under “A bot-ready version of your file”",
    ),
    "cli": Reader(
        bot_ready_copy="python -m workbench rewrite",
        add_section_window=f" (not among the cuts you ran: add {SECTION_WINDOW} to --strategies)",
        pick_threshold="run again with --threshold auto (the default), which picks the level from your questions",
        raise_threshold="Let the bot refuse more: run again with a --threshold above {threshold}, or with --threshold "
                        "auto to have the level picked from your questions.",
        threshold_from_questions="let the questions pick a refusal threshold (--threshold auto)",
        check_questions="check them in the questions file",
        fixed_file="python -m workbench fix FILE --questions QUESTIONS --out FIXED",
    ),
    "report": Reader(
        bot_ready_copy="the Chunking Workbench that wrote this report makes it from your file",
        add_section_window=" (not among the cuts this report measured: have it measured before you rely on it)",
        pick_threshold="have it hand a question to a person when it is not sure enough, at a level picked from your "
                       "questions",
        raise_threshold="Let the bot refuse more: raise its refusal threshold (the confidence below which it hands a "
                        "question to a person) above {threshold}, or have it picked from your questions.",
        threshold_from_questions="let the questions pick a refusal threshold",
        check_questions="check them",
        fixed_file="ask whoever made this report for it: the Chunking Workbench writes it from your file",
    ),
}
