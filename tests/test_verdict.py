"""The verdict, the to-do list, the check-up's harm ranking, display names and generated questions."""

from __future__ import annotations

import pytest

from workbench.advise.audit import audit
from workbench.advise.todo import todo_list
from workbench.advise.todo_words import missing_words
from workbench.advise.verdict import NEEDS_WORK, NO_VERDICT, NOT_READY, READY, assess, status_of
from workbench.core.model import Question, Settings
from workbench.output.charts import grade_grid, grades_bars, hit_curve
from workbench.read.loaders import load_bytes, load_path, parse_markdown
from workbench.read.questions import column_kind, generate_questions, humanize, parse_questions
from workbench.read.resolve import resolve
from workbench.run.evaluate import evaluate
from workbench.run.names import is_control, setup_name, strategy_name

from .conftest import SAMPLE_CSV, SAMPLE_MD, SAMPLE_QUESTIONS, needs_real_data

APP_STRATEGIES = ["fixed", "fixed-overlap", "sentence", "recursive", "heading", "breadcrumb", "placebo", "concern"]


def sample(threshold=None, strategies=APP_STRATEGIES, rerankers=("none", "heading")):
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    settings = Settings(list(strategies), ["keyword"], list(rerankers), size=300, overlap=45, threshold=threshold)
    return evaluate(document, questions, settings)


@pytest.fixture(scope="module")
def calibrated():
    """The app's default run on the sample: the bot refuses below a threshold the questions pick."""
    return sample("auto")


# --- Status -----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "clean, answerable, false, unanswerable, expected",
    [
        (18, 20, 1, 4, READY),  # 90 % clean, 1 in 4 answered anyway: both at the limit
        (17, 20, 0, 4, NEEDS_WORK),  # 85 % clean
        (18, 20, 2, 4, NEEDS_WORK),  # half answered anyway: not over half
        (12, 20, 0, 4, NEEDS_WORK),  # 60 % clean is the floor of "needs work"
        (11, 20, 0, 4, NOT_READY),  # 55 %
        (20, 20, 3, 4, NOT_READY),  # 3 of 4 answered anyway
        (20, 20, 0, 0, READY),  # no unanswerable questions: judged on clean answers (with a caveat)
        (0, 0, 0, 4, NO_VERDICT),
    ],
)
def test_status_thresholds(clean, answerable, false, unanswerable, expected):
    assert status_of(clean, answerable, false, unanswerable) == expected


def test_sample_is_ready_with_the_heading_cut_and_names_the_300_character_window(calibrated):
    verdict = assess(calibrated)
    assert verdict.status == READY
    best = verdict.recommended
    # heading, recursive, breadcrumb and concern all answer 20 of 20 cleanly and refuse 4 of 4 with hit rate 1.0;
    # the tie goes to a cut that needs no piece size (not recursive), then the plainest listed (heading),
    # then word search and no re-check.
    assert (best.strategy, best.retriever, best.reranker) == ("heading", "keyword", "none")
    assert {run.strategy for run in verdict.also_good} == {"heading", "recursive", "breadcrumb", "concern"}
    assert verdict.reason == (
        "with cut at headings, word-match search, 20 of 20 questions your file answers got a clean answer (100%), "
        "and of the 4 it cannot answer, the bot handed all to a person (measured on your 24 questions; each refusal "
        "judged by a threshold fitted on the other questions)."
    )
    assert verdict.baseline.strategy == "fixed" and verdict.baseline.reranker == "none"
    assert verdict.versus_baseline == (
        "The usual default, 300-character windows, answered 0 of 20 cleanly: the recommended setup gets 20 more."
    )
    # 20 discordant questions all one way: McNemar's exact p = 2 x 0.5^20, so no caveat.
    assert verdict.caveats == []
    assert "90 %" in verdict.rule and "1 in 4" in verdict.rule and "60 %" in verdict.rule


def test_windows_of_another_size_are_not_called_the_usual_default():
    """Second walk-through: with windows of 340 characters set, the verdict called "340-character windows" the
    usual default, beside a bot-ready panel grading "300-character windows, the usual size"."""
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    verdict = assess(evaluate(document, questions, Settings(["fixed", "heading"], ["keyword"], ["none"], size=340,
                                                            overlap=45, threshold="auto")))
    assert verdict.versus_baseline.startswith(
        "The usual default way of cutting, fixed windows (at the 340 characters you set), answered ")


def test_a_bot_that_never_refuses_is_not_ready_and_is_told_why():
    verdict = assess(sample(None, ["fixed", "heading"], ["none"]))
    assert verdict.status == NOT_READY  # 20 of 20 clean, but 4 of 4 unanswerable questions answered anyway
    assert verdict.false_answers == 4 and verdict.unanswerable == 4
    assert "of the 4 it cannot answer, the bot handed none to a person and answered 4 anyway" in verdict.reason
    assert any("never refused" in caveat for caveat in verdict.caveats)


def test_a_control_is_never_recommended_and_its_tie_is_flagged():
    verdict = assess(sample("auto", ["fixed", "placebo"], ["none"]))
    # The shuffled-headings control answers 10 cleanly, the 300-character windows 0: the windows are still
    # the recommendation, as the only real cut, and the control beating them is called chance.
    assert verdict.recommended.strategy == "fixed"
    assert verdict.status == NOT_READY
    assert verdict.versus_baseline == "300-character windows are the best setup here."
    assert any("shuffled-headings control did as well (10 clean)" in caveat for caveat in verdict.caveats)


def test_too_few_questions_to_tell_two_setups_apart():
    document = load_bytes(SAREE, "shop.csv")
    questions = [Question("What colours does the Silk Saree come in?", "Silk Saree", "red, gold", row=1),
                 Question("How much is the Chiffon Saree?", "Chiffon Saree", "2500", row=2),
                 Question("Do you ship to Canada?", row=3)]
    verdict = assess(evaluate(document, questions, Settings(["fixed", "heading"], ["keyword"], ["none"], size=300)))
    assert verdict.recommended.strategy == "heading" and verdict.recommended.counts["clean"] == 2
    assert verdict.baseline.counts["clean"] == 0
    # 2 of 2 questions discordant, all one way: McNemar's exact needs 6 such questions for p < 0.05
    # (2 x 0.5^6 = 0.031), and with every question discordant that is 6 x 2 / 2 = 6 questions, 4 more than the 2.
    # One of the two going the other way makes it 1 to 1: equal. Said without statistics' words.
    assert ("Your 2 questions are too few to tell 300-character windows and the recommended setup apart: only 2 came "
            "out clean under one and not the other (2 under the recommended setup, none under 300-character "
            "windows), and 1 of those going the other way would make them equal. To be sure which is better, write "
            "about 4 more (about 6 in all), if new ones go as these did.") in verdict.caveats
    assert not any("95 %" in caveat or "chance" in caveat for caveat in verdict.caveats)


def test_the_few_questions_caveat_counts_what_would_turn_the_result_round():
    from workbench.advise.verdict import _cannot_tell
    from workbench.grade.stats import Comparison, questions_needed

    # 12 questions, 4 clean under B only and 1 under A only: B leads by 3. Two going the other way make it 2 to 3,
    # A ahead. Connor's formula with 5/12 discordant and a difference of 3/12: (1.96 x 0.6455 + 0.8416 x 0.5951)^2
    # / 0.0625 = 49.9, so 50 questions, 38 more than the 12.
    needed = questions_needed(5 / 12, 3 / 12)
    assert needed == 50
    comparison = Comparison("A", "B", "clean", 12, 7, 10, only_a=1, only_b=4, low=-1.0, high=6.0, p_value=0.375,
                            needed=needed)
    assert _cannot_tell(comparison, "windows", "headings") == (
        "Your 12 questions are too few to tell windows and headings apart: only 5 came out clean under one and not "
        "the other (4 under headings, 1 under windows), and 2 of those going the other way would put windows ahead. "
        "To be sure which is better, write about 38 more (about 50 in all), if new ones go as these did.")



def test_the_runner_up_and_the_best_cut_are_named_in_quotes():
    # A cut named with a comma ("One question, one piece", since renamed) ran into the sentence unquoted ("cannot tell one question,
    # one piece and cut at headings apart"). Sentences lose their product, so heading wins both questions.
    document = load_bytes(SAREE, "shop.csv")
    questions = [Question("What colours does the Silk Saree come in?", "Silk Saree", "red, gold", row=1),
                 Question("How much is the Chiffon Saree?", "Chiffon Saree", "2500", row=2)]
    verdict = assess(evaluate(document, questions, Settings(["sentence", "heading"], ["keyword"], ["none"])))
    assert ("Your 2 questions are too few to tell “one sentence each” and “cut at headings” apart: only 2 came out "
            "clean under one and not the other (2 under “cut at headings”, none under “one sentence each”), and 1 of "
            "those going the other way would make them equal. To be sure which is better, write about 4 more (about "
            "6 in all), if new ones go as these did.") in verdict.caveats


# --- To-do list -------------------------------------------------------------------------------

def test_todo_names_the_shared_warranty_line_with_its_products_and_lines(calibrated):
    verdict = assess(calibrated)
    questions = [q.question for q in calibrated.questions]
    items = todo_list(calibrated, verdict.recommended, audit(calibrated.document, questions=questions),
                      verdict.baseline)
    first = items[0]
    # Every question is clean under the heading cut, so the order is by questions touched: the 1-year warranty
    # line answers questions on rows 2 and 4 of the questions file (Aurora, Zephyr).
    assert first.kind == "shared" and first.questions == [2, 4] and first.fixes == []
    assert first.edit == "Name the section on the line, e.g. “Warranty: 1 year. (Aurora Ceiling Fan)”."
    assert ("“Warranty: 1 year.” is word for word the same under 5 sections (Aurora Ceiling Fan, Zephyr Table Fan, "
            "Mistral Tower Fan, Solano Space Heater, Foehn Humidifier)") in first.why
    assert first.where == "lines 12, 39, 50, 99 and 121"
    text = SAMPLE_MD.read_text().split("\n")
    assert all(text[n - 1] == "Warranty: 1 year." for n in (12, 39, 50, 99, 121))
    # The 300-character windows get neither of its two questions clean.
    assert first.why.endswith("With 300-character windows, none of the 2 questions it answers come out clean.")
    assert first.affects == "affects questions 2, 4"
    # Check-up findings that touch no question still appear, saying so.
    care = next(i for i in items if "Care: Wipe with a dry cloth." in i.why)
    assert care.affects == "affects none of your questions yet"


SAREE = (
    b"name,price,colors,fabric,warranty,care,image\n"
    b"Silk Saree,4500,\"red, gold\",silk,No warranty,Dry clean only,https://cdn.saree.example/silk.jpg\n"
    b"Cotton Kurta,900,\"white, blue\",cotton,No warranty,Machine wash cold,https://cdn.saree.example/kurta.jpg\n"
    b"Linen Dupatta,600,beige,linen,No warranty,Hand wash,https://cdn.saree.example/dupatta.jpg\n"
    b"Chiffon Saree,2500,\"pink, green\",chiffon,No warranty,Dry clean only,https://cdn.saree.example/chiffon.jpg\n"
    b"Breathable Cotton Kurta,1100,\"white, grey\",cotton,No warranty,Machine wash cold,https://elsewhere.example/x\n"
)


def test_a_word_the_file_never_uses_becomes_an_edit_on_its_row_and_column():
    document = load_bytes(SAREE, "shop.csv")
    question = Question("What colours does the Silk Saree come in?", "Silk Saree", "red, gold", row=1)
    evaluation = evaluate(document, [question], Settings(["fixed"], ["keyword"], ["none"], size=300))
    run = evaluation.runs[0]
    assert run.per_question[0].grade == "mixed"  # one 300-character window holds two products
    items = todo_list(evaluation, run, audit(document, questions=[question]))
    words = items[0]
    assert words.kind == "words" and words.fixes == [1]
    # No description or tags column to take the word, and the colors column is an attribute's values: the item
    # names the column to add, and never asks for a word in the cell the shop's system reads.
    assert words.edit == ("Add a “description” column to your file and write “colours” in Silk Saree's cell (it has no "
                          "text column the words can go in), or tell the bot in its instructions what it means; leave "
                          "the “colors” cell as it is: the column holds set values your shop's system reads.")
    assert words.edits == []
    assert words.where == "row 2, column colors"  # the header is row 1
    assert "a search for the question's words misses the answer" in words.why  # word search: the plain reason


def test_the_missing_word_reason_fits_a_meaning_based_search(fake_encoder):
    document = load_bytes(SAREE, "shop.csv")
    question = Question("What colours does the Silk Saree come in?", "Silk Saree", "red, gold", row=1)
    evaluation = evaluate(document, [question], Settings(["fixed"], ["dense"], ["none"], size=300),
                          encoder_factory=lambda: fake_encoder)
    words = next(i for i in todo_list(evaluation, evaluation.runs[0], audit(document, questions=[question]))
                 if i.kind == "words")
    # Meaning-based search does not simply "miss" a word the text lacks: it has less to go on.
    assert "the meaning-based search has only the rest of the question to go on" in words.why


def test_missing_words_ignores_the_product_name_and_plain_plurals():
    assert missing_words("What colours does the Silk Saree come in?", "colors: red, gold", "Silk Saree") == ["colours"]
    assert missing_words("What colours does the Silk Saree come in?", "Colour: red", "Silk Saree") == []


# --- Check-up ---------------------------------------------------------------------------------

SHOP = (
    b"name,price,currency,warranty,image\n"
    + b"".join(
        f"Fan {n},0,USD,{'1 year' if n < 3 else '2 years'},https://shop.example.com/img/{n}.jpg\n".encode()
        for n in range(1, 6)
    )
    + b"Lamp,0,USD,2 years,https://tracker.example.net/pixel.gif\n"
)


def test_checkup_ranks_placeholders_store_wide_lines_and_harmful_shared_lines():
    result = audit(load_bytes(SHOP, "shop.csv"))
    assert result.products == 6
    assert [(s.line, len(s.sections)) for s in result.placeholders] == [("price: 0", 6)]
    assert result.placeholder_sentence(result.placeholders[0]) == (
        "Every product has price 0 — is the price column empty or unfilled?")
    assert [s.line for s in result.store_wide] == ["currency: USD"]
    # "warranty: 2 years" (Fans 3-5 and the Lamp) before "warranty: 1 year" (Fans 1-2): more products share it,
    # and both lines say something else for other products.
    assert [(s.line, s.harm, len(s.sections)) for s in result.shared_lines] == [
        ("warranty: 2 years", "varies", 4), ("warranty: 1 year", "varies", 2)]
    assert result.shared_lines[0].places == ["row 4, column warranty", "row 5, column warranty",
                                             "row 6, column warranty", "row 7, column warranty"]
    # Five image links point at the shop's own host: not risky. The one to another host is.
    assert result.own_hosts == ["shop.example.com"]
    assert [(f.kind, f.where) for f in result.risky] == [("link", "row 7, column image")]
    assert "prompt caching" not in " ".join(result.lines())


def test_checkup_names_the_questions_a_shared_line_answers():
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    result = audit(load_path(SAMPLE_MD), questions=questions)
    # Lines answering a question rank first; the 1-year warranty answers rows 2 and 4.
    first = result.shared_lines[0]
    assert first.questions and first.line == "Warranty: 1 year." and first.questions == [2, 4]


# --- Display names ----------------------------------------------------------------------------

def test_display_names_and_controls():
    assert strategy_name("fixed", 300) == "300-character windows"
    assert strategy_name("fixed-overlap", 600) == "600-character windows with overlap"
    assert strategy_name("heading") == "Cut at headings"
    assert strategy_name("placebo") == "Shuffled-headings control"
    assert [s for s in ("fixed", "heading", "placebo", "random", "whole") if is_control(s)] == [
        "placebo", "random", "whole"]


def test_charts_show_display_names_never_ids_and_lines_have_distinct_colours(calibrated):
    ids = set(APP_STRATEGIES)
    bars = grades_bars(calibrated, "keyword")
    shown = {y.replace("<br>", " ") for trace in bars.data for y in trace.y}  # flat bars: names on the y axis
    assert "300-character windows" in shown and "Shuffled-headings control" in shown and not shown & ids
    assert [a.text for a in bars.layout.annotations] == ["Not re-checked", "Re-checked by headings"]
    lines = hit_curve(calibrated, "keyword", "none")
    names = [trace.name for trace in lines.data]
    assert names[0] == "300-character windows" and not set(names) & ids
    colours = [trace.line.color for trace in lines.data]
    assert len(set(colours)) == len(colours) == 8
    grid = grade_grid(calibrated, "keyword", "none")
    assert not {x.replace("<br>", " ") for x in grid.data[0].x} & ids
    # Question labels whole: every question's full text is in its (wrapped) label.
    labels = [label.replace("<br>", " ") for label in grid.data[0].y]
    assert labels[14] == "16. What is the returns policy for the Nimbus air purifier?"  # row 16 of the CSV


def test_setup_name_reads_as_words(calibrated):
    run = calibrated.run("heading", "keyword", "heading")
    assert setup_name(run) == "Cut at headings, word-match search, re-checked by headings"


# --- Generated questions ----------------------------------------------------------------------

def test_column_kinds_and_human_names():
    assert column_kind("colors") == "colour" and humanize("colors") == "colours"
    assert column_kind("Price") == "price" and column_kind("custom_field.custom.warranty") == "warranty"
    assert column_kind("faq_1_question") == "faq"
    for skipped in ("id", "image1_src", "slug", "SKU", "Handle", "product_url", "faq_1_answer"):
        assert column_kind(skipped) is None, skipped
    assert column_kind("noise_level") == "other" and humanize("custom_field.custom.noise_level") == "noise level"


def test_generated_questions_read_as_a_customer_asks():
    document = load_path(SAMPLE_CSV)
    questions = generate_questions(document)
    # 10 products; SKU skipped; kinds: price, colour, stock, warranty, returns, care, and power and noise
    # as plain "what is" questions: 8 per product, 80 in all, capped at the default 50.
    assert len(questions) == 50
    texts = [q.question for q in questions]
    assert texts[:3] == ["How much is the Aurora Ceiling Fan?", "What colours does the Boreal Ceiling Fan come in?",
                         "What is the power of the Zephyr Table Fan?"]
    assert not any("SKU" in text or "sku" in text for text in texts)
    assert "What warranty does the Sirocco Pedestal Fan have?" in texts
    # One question per product per kind: the Aurora's two price rows give one price question.
    assert sum(1 for q in questions if q.expected_source == "Aurora Ceiling Fan" and q.question.startswith("How much")) == 1
    assert all(not hasattr(resolve(document, q), "reason") for q in questions)  # every answer is in its product
    assert len(generate_questions(document, limit=7)) == 7


def test_an_faq_column_gives_its_own_question():
    data = (b"name,faq_1_question,faq_1_answer,product_id\n"
            b"Fan,Is it quiet at night?,Yes: 29 dB on the lowest setting.,991\n"
            b"Lamp,Can I dim it?,Yes with any dimmer switch.,992\n")
    questions = generate_questions(load_bytes(data, "faq.csv"))
    assert [(q.question, q.expected_source, q.expected_answer) for q in questions] == [
        # The FAQ's own question, with the product's name in front: "Is it quiet?" must say which product.
        ("Fan: Is it quiet at night?", "Fan", "Yes: 29 dB on the lowest setting."),
        ("Lamp: Can I dim it?", "Lamp", "Yes with any dimmer switch."),
    ]


# --- The report -------------------------------------------------------------------------------

def test_report_leads_with_the_status_and_todo_and_its_lines_have_distinct_colours(calibrated):
    import datetime
    import html.parser
    import re

    from workbench.output.handover import report_html

    page = report_html(calibrated, today=datetime.date(2026, 11, 30))
    # Opened on a phone, the report lays itself out at the phone's width (without this, at 980 px shrunk to fit).
    assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in page

    class Text(html.parser.HTMLParser):
        """The text a reader sees: not the title, styles or scripts."""

        chunks: list[str] = []
        hidden = 0

        def handle_starttag(self, tag, attrs):
            self.hidden += tag in ("title", "style", "script")

        def handle_endtag(self, tag):
            self.hidden -= tag in ("title", "style", "script")

        def handle_data(self, data):
            if not self.hidden:
                self.chunks.append(data)

    parser = Text()
    parser.feed(page)
    parser.close()
    text = "".join(parser.chunks).strip()
    assert text.startswith("breezy_home_price_list.md · report of 2026-11-30")  # file name and date on top
    assert text.index("Ready — with cut at headings") < text.index("What to change in your file") < text.index(
        "Clean, mixed and missed answers")
    assert "Nothing is required: your file is ready as it is." in text
    assert "Name the section on the line, e.g. “Warranty: 1 year. (Aurora Ceiling Fan)”." in text  # optional tidying
    # The charts are drawn in the page: every grade has its colour, every strategy's line its own.
    bars = re.findall(r"<span class='n\d+' style='width:[\d.]+%;background:(#[0-9a-f]{6})' title='([^']+)'", page)
    assert {colour for colour, _ in bars} == {"#16a34a", "#dc2626", "#f59e0b", "#6b7280", "#7c3aed"}  # one a grade
    assert not any(title.split(":")[0] in APP_STRATEGIES for _, title in bars)  # names, never ids
    colours = re.findall(r"<polyline class='line' fill='none' stroke='(#[0-9A-Fa-f]{6})'", page)
    assert len(colours) == 8 and len(set(colours)) == 8
    cells = re.findall(r"<td class='cell' data-strategy='[^']+' style='background:#[0-9a-f]{6}' title='[^']*'>([a-z ]+)</td>", page)
    assert len(cells) == 8 * 24 and cells.count("clean") >= 20  # 8 strategies x 24 questions


def test_command_line_table_ends_with_the_verdict_and_todo():
    import subprocess
    import sys

    from .conftest import ROOT

    result = subprocess.run(
        [sys.executable, "-m", "workbench", "evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_QUESTIONS),
         "--strategies", "fixed,heading", "--retrievers", "keyword", "--rerankers", "none", "--threshold", "auto",
         "--no-history"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[lines.index("") + 1].startswith("Ready: with cut at headings, word-match search, 20 of 20")
    assert "The usual default, 300-character windows, answered 0 of 20 cleanly: the recommended setup gets 20 more." in lines
    # Question numbers are the questions file's rows (the header is row 1).
    # Every question is clean under the recommended setup, so no change is required; the changes tried on a copy
    # of the file that measured no gain are folded under a label that says so, never counted, listed in the report.
    assert "Nothing is required: your file is ready as it is." in lines
    assert ("Not measured to help: 7 items, not counted (no gain on a copy of your file, or nothing to try there); in "
            "the report.") in lines


def test_placeholder_items_cite_their_columns_and_a_system_columns_store_wide_value_gets_no_item():
    document = load_bytes(SHOP, "shop.csv")
    question = Question("What warranty does Fan 1 have?", "Fan 1", "1 year", row=1)
    evaluation = evaluate(document, [question], Settings(["heading"], ["keyword"], ["none"]))
    items = {item.kind: item for item in todo_list(evaluation, evaluation.runs[0], audit(document, questions=[question]))}
    # "currency: EUR" on every product is a set value the shop's system reads: no edit of the export is asked
    # for it (it was "Say store-wide facts once, at the top", column currency; test_todo has the free-text case).
    assert "store-wide" not in items
    assert items["placeholder"].where == "rows 2, 3, 4, 5, 6 and 7 (column price)"  # all six products
    assert items["placeholder"].edit == "Fill in the price column, or leave the value out where it is unknown."


def _refusal_item(threshold, unanswerable=4):
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    kept = [q for q in questions if q.answerable] + [q for q in questions if not q.answerable][:unanswerable]
    evaluation = evaluate(document, kept, Settings(["heading"], ["keyword"], ["none"], threshold=threshold))
    run = evaluation.runs[0]
    items = [item for item in todo_list(evaluation, run, audit(document, questions=kept)) if item.kind == "refusal"]
    return run, items


def test_the_refusal_todo_follows_how_refusing_is_set_now():
    run, [item] = _refusal_item(None)  # never refuses: all 4 unanswerable questions answered
    assert run.counts["false-answer"] == 4
    assert item.edit.startswith("Let the bot refuse: tick") and len(item.fixes) == 4
    run, [item] = _refusal_item(0.01)  # a level so low only "Canada" (confidence 0: no word in the file) is refused
    assert run.counts["false-answer"] == 3
    assert item.edit.startswith("Raise “Refuse below this confidence” above 0.01,")
    run, [item] = _refusal_item("auto", unanswerable=2)  # too few to fit a level: never told to tick the ticked box
    assert run.calibration is not None and not run.calibration.enough
    assert item.edit.startswith("Write 1 more question your file cannot answer")
    assert "tick" not in item.edit


def test_when_the_fitted_level_still_answers_them_the_todo_asks_for_facts_not_the_ticked_box():
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    # Marked "the file cannot answer" although its words match a product exactly: no level picked from
    # the questions refuses it without refusing the real Aurora question beside it.
    questions.append(Question("What is the warranty on the Aurora ceiling fan?", "", "", row=len(questions) + 1))
    evaluation = evaluate(document, questions, Settings(["heading"], ["keyword"], ["none"], threshold="auto"))
    run = evaluation.runs[0]
    assert run.calibration.enough and run.counts["false-answer"] >= 1
    [item] = [item for item in todo_list(evaluation, run, audit(document, questions=questions)) if item.kind == "refusal"]
    assert item.edit.startswith("Add the facts") and "tick" not in item.edit
    assert "The bot was as sure of them as of " in item.why and "would turn those customers away too" in item.why


def test_the_todo_quotes_lines_as_a_reader_sees_them():
    from workbench.advise.todo_words import content_words
    from workbench.core.quoting import line_label, shown

    # Function words are never "words to add" (scikit-learn's English list and the question-framing words;
    # "work" frames the question, as in "does it just work", like "try" and "likely").
    assert content_words("Does it just work because I don't want to charge the Bangle every day?") == [
        "charge", "bangle", "day"]
    assert line_label("**Warranty:** 1 year") == "Warranty"  # Markdown's marks are not the line's name
    assert line_label("- Colours: red, gold") == "Colours"
    # A sentence is not a label: it is never quoted whole as the line's name.
    assert line_label("Email us at support@micro-nova.com: we reply within a day to every customer") == ""
    assert line_label("See https://example.com for more") == ""
    assert shown("Email us at **support@micro-nova.com**") == "Email us at support@micro-nova.com"
    long = "word " * 40
    # The last space before character 90 is at 89 (5 × 17 + 4): 18 words, 89 characters, then " …".
    assert shown(long) == ("word " * 18).strip() + " …"


def test_a_missing_word_on_a_paragraph_names_no_paragraph_as_the_line():
    document = parse_markdown("# Shop\n\n## Support\nEmail us at **help@shop.example** and we answer within a day.\n\n"
                              "## Shipping\nWe have no phone line for support of shipping; write to us.\n", "shop.md")
    question = Question("What is the phone number for support?", "Support", "help@shop.example", row=1)
    evaluation = evaluate(document, [question], Settings(["heading"], ["keyword"], ["none"]))
    assert evaluation.runs[0].per_question[0].grade == "missed"  # Shipping shares "phone support"
    items = [i for i in todo_list(evaluation, evaluation.runs[0], audit(document, questions=[question])) if i.kind == "words"]
    # "phone" is Shipping's word too: written under Support it would draw Shipping's questions, so only "number".
    # Inside the answer's sentence, before its stop: "… within a day (Search words: number)."
    assert [i.edit for i in items] == ["Add the word “number” to Support, in the sentence that holds the answer: "
                                       "“Email us at help@shop.example and we answer within a day (Search words: "
                                       "number).”"]


def test_a_products_rows_are_named_as_runs_never_a_range_over_other_products():
    from workbench.grade.places import row_runs

    # Variants of one product at rows 38-40, 97 and 154: "rows 38–154" would take in 114 rows of others.
    assert row_runs([154, 38, 39, 40, 97, 97]) == "rows 38–40, 97 and 154"
    assert row_runs([7]) == "row 7"
    assert row_runs([1, 3, 5, 7, 9, 11]) == "rows 1, 3, 5, 7 and 2 more"


def test_a_stock_count_is_asked_as_how_many_and_a_stock_word_as_is_it_in_stock():
    data = b"Name,Stock,Price\nAlpha Lamp,5000,10\nBeta Chair,Out of stock,25\n"
    questions = {q.expected_source: q for q in generate_questions(load_bytes(data, "shop.csv"))
                 if q.expected_answer in ("5000", "Out of stock")}
    assert questions["Alpha Lamp"].question == "How many of the Alpha Lamp are in stock?"
    assert questions["Beta Chair"].question == "Is the Beta Chair in stock?"


def test_a_zero_on_parent_rows_beside_real_variant_prices_is_not_called_an_empty_column():
    rows = "".join(f"{name},{name.lower()},0,0\n,{name.lower()},{price},0\n"
                   for name, price in (("Alpha", 10), ("Beta", 20), ("Gamma", 30), ("Delta", 40)))
    document = load_bytes(f"Name,Handle,Price,Discount\n{rows}".encode(), "shop.csv")
    report = audit(document)
    sentences = sorted(report.placeholder_sentence(p) for p in report.placeholders)
    # The parents' Price 0 beside their variants' prices is no line of the text (``read.unfilled``), so nothing
    # is left for the check-up to flag there; the Discount 0, on every row, may be an empty column: it asks.
    assert sentences == ["Every product has Discount 0 — is the Discount column empty or unfilled?"]
    assert "Price: 0" not in document.text and document.text.count("Discount: 0") == 4


def test_long_sections_are_advice_only_when_the_model_reads_and_unasked_ones_are_one_item(fake_encoder):
    long = "".join(f"- Detail {n}: the part number {n} fits every model of this range.\n" for n in range(40))
    text = "# Shop\n\n" + "".join(f"## {name}\nPrice: {n}\n{long}\n" for n, name in enumerate(
        ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta"]))
    document = parse_markdown(text, "parts.md")
    questions = [Question("How much is the Alpha?", "Alpha", "Price: 0", row=1)]
    report = audit(document, questions=questions)
    assert len(report.long_sections) == 7  # each section is far past the model's window

    def items(retriever):
        evaluation = evaluate(document, questions, Settings(["heading"], [retriever], ["none"]),
                              encoder_factory=lambda: fake_encoder)
        return [i for i in todo_list(evaluation, evaluation.runs[0], report) if i.kind == "long"]

    assert items("keyword") == []  # word search reads every word: the model's window is no cause
    by_edit = {i.edit: i for i in items("dense")}
    assert by_edit["Split Alpha under subheadings."].questions == [1]  # asked about: an item of its own
    assert "Later: 6 other long sections, Beta, Gamma, Delta, Epsilon, Zeta and 1 more." in by_edit
    assert len(by_edit) == 2


def test_long_spreadsheet_products_are_one_item_naming_the_columns_that_make_them_long(fake_encoder):
    story = " ".join(f"word{n}" for n in range(400))
    rows = "".join(f"{name},10,{story}\n" for name in ("Alpha Lamp", "Gamma Desk", "Delta Sofa"))
    data = f"Name,Price,Description\n{rows}Beta Chair,25,Short.\n".encode()
    document = load_bytes(data, "shop.csv")
    question = Question("How much is the Alpha Lamp?", "Alpha Lamp", "10", row=1)
    report = audit(document, questions=[question])
    assert [title for title, _ in report.long_sections] == ["Alpha Lamp", "Gamma Desk", "Delta Sofa"]
    evaluation = evaluate(document, [question], Settings(["heading"], ["dense"], ["none"]),
                          encoder_factory=lambda: fake_encoder)
    [item] = [i for i in todo_list(evaluation, evaluation.runs[0], report) if i.kind == "long"]
    # No "split under subheadings" for a sheet, and one item, not one per product.
    assert item.edit.startswith("Give the bot a copy without the columns that hold none of your questions' "
                                "answers, if no customer asks about them: Description (")
    assert item.edit.endswith("Keep Price: it holds the answers to your questions.")
    assert "3 products (Alpha Lamp, Gamma Desk, Delta Sofa) are longer than" in item.why
    assert item.questions == [1]


def test_a_quote_never_ends_in_half_a_web_address():
    from workbench.core.quoting import shown

    line = "image1_src: https://raw.githubusercontent.com/spree/spree/main/docs/images/demo-images/demo-1.png"
    assert shown(line, 80) == "image1_src …"  # half an address would be a link to a page that does not exist
    assert shown(line[len("image1_src: "):] + " and more", 80) == "https://raw.githubusercontent.com …"


def test_the_checkup_counts_pieces_at_the_size_the_runs_cut_with():
    from workbench.cut import chunk_document
    from workbench.grade.grading import ChunkMap

    document = load_path(SAMPLE_MD)
    for size in (300, 800):
        pieces = chunk_document(document, "recursive", size)
        holding = sum(1 for touched in ChunkMap(document, pieces).touched if touched)
        assert audit(document, size=size).unnamed_chunks["recursive"]["chunks"] == holding
    assert audit(document, size=300).unnamed_chunks["recursive"]["chunks"] > audit(
        document, size=800).unnamed_chunks["recursive"]["chunks"]


def test_the_never_refused_caveat_is_not_said_when_the_questions_already_pick_the_threshold():
    from dataclasses import replace

    from workbench.advise.verdict import assess

    document = load_path(SAMPLE_MD)
    asked = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    never = evaluate(document, asked, Settings(["fixed", "heading"], ["keyword"], ["none"]))
    said = "The bot never refused a question here: let the questions pick a refusal threshold"
    assert any(said in caveat for caveat in assess(never).caveats)  # 4 unanswerable questions answered
    # The same runs under "auto" with no level that works (threshold None): the box is ticked already, and
    # the to-do says what to do instead; the caveat told the owner to tick it.
    fitted_none = replace(never, settings=replace(never.settings, threshold="auto"))
    assert not any(said in caveat for caveat in assess(fitted_none).caveats)


def test_a_panels_title_is_wrapped_to_fit_a_phone(fake_encoder):
    """"Re-checked word by word for meaning" was one line centred over bars about 220 pixels wide on a phone, and
    ran off both sides ("Re-checked word by word for meanin"): each title line now holds at most 22 characters."""
    from workbench.core.model import Settings
    from workbench.output.charts import TITLE_WIDTH
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run.evaluate import evaluate

    from .conftest import SAMPLE_MD, SAMPLE_QUESTIONS

    result = evaluate(load_path(SAMPLE_MD), parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name),
                      Settings(strategies=["fixed", "heading"], retrievers=["bm25"], rerankers=["none", "maxsim"]),
                      encoder_factory=lambda: fake_encoder)
    titles = [a.text for a in grades_bars(result, "bm25").layout.annotations]
    assert titles == ["Not re-checked", "Re-checked word by<br>word for meaning"]
    assert all(len(line) <= TITLE_WIDTH for title in titles for line in title.split("<br>"))


def test_the_verdict_names_bm25_in_plain_words_and_the_recommendation_keeps_its_name():
    """The verdict's sentence is read by a shop owner: "BM25" said nothing there (walk-through of issue 25). The
    setup's display name, explained by the settings' help, stays in the recommendation; ids are unchanged."""
    document = load_path(SAMPLE_MD)
    questions = parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name)
    settings = Settings(strategies=["fixed", "heading"], retrievers=["bm25"], rerankers=["none"])
    verdict = assess(evaluate(document, questions, settings))
    assert verdict.reason == (
        "with cut at headings, word search where rare words count more (BM25), 20 of 20 questions your file answers got a "
        "clean answer (100%), and of the 4 it cannot answer, the bot handed none to a person and answered 4 anyway "
        "(measured on your 24 questions)."
    )
    assert verdict.recommendation == "Recommended: Cut at headings, BM25 word search."
    assert (verdict.recommended.retriever, setup_name(verdict.recommended)) == ("bm25", "Cut at headings, BM25 word search")


@needs_real_data
def test_the_usual_defaults_answered_anyway_count_names_its_setup_beside_the_recommended_ones():
    """The walk-through read "It answered 1 of the 6 …" right after "the recommended setup gets 19 more" as the
    recommended setup's count, beside a verdict saying that setup answered 2: the sentence names both now."""
    from .conftest import REAL_DATA, ROOT

    questions = ROOT / "bench" / "questions" / "spree_sample_products.questions.csv"
    evaluation = evaluate(load_path(REAL_DATA / "spree_sample_products.csv"),
                          parse_questions(questions.read_bytes(), questions.name),
                          Settings(["fixed", "heading", "small-to-big"], ["bm25"], ["none"], threshold="auto"))
    verdict = assess(evaluation)
    # 33 answerable and 6 unanswerable questions; under BM25 with a leave-one-out threshold the windows answered
    # none of the 6 anyway and the recommended cut 2 (the verdict's own "answered 2 anyway"). (The windows
    # answered 9 cleanly and 1 anyway while the parents' "price: 0" lines were in the text: ``read.unfilled``.)
    assert verdict.versus_baseline == (
        "The usual default, 300-character windows, answered 8 of 33 cleanly: the recommended setup gets 20 more. "
        "Of the 6 questions your file cannot answer, 300-character windows answered 0 anyway, the recommended "
        "setup 2.")
    assert "answered 2 anyway" in verdict.reason
