"""Places name the user's own row, column or line, and always inside the piece or section they describe."""

from __future__ import annotations

from workbench.cut import chunk_document
from workbench.grade.places import Places
from workbench.read.loaders import load_bytes

FIVE = (
    "name,price,faq_1_question,faq_1_answer\n"
    "Alpha Kettle,10,Is it loud?,No it is quiet\n"
    "Beta Kettle,20,Is it heavy?,No it is light\n"
    "Gamma Kettle,30,Does it whistle?,Yes it whistles\n"
    "Delta Kettle,40,Is it red?,Yes it is red\n"
    "Omega Kettle,50,Is it steel?,Yes it is steel\n"
)


def test_a_heading_piece_is_placed_at_its_own_product_not_the_previous_products_last_cell():
    document = load_bytes(FIVE.encode(), "kettles.csv")
    places = Places(document)
    chunks = [c for c in chunk_document(document, "heading") if c.text.startswith("## ")]
    # Each heading piece starts at its "## Name" line; the product's first (only) row is its data row:
    # Alpha is row 2 (the header is row 1), Beta row 3, and so on.
    assert [(c.text.split("\n")[0], places.of(c.spans[0])) for c in chunks] == [
        ("## Alpha Kettle", "row 2"),
        ("## Beta Kettle", "row 3"),  # the old code said "row 2, column faq_1_answer": Alpha's last cell
        ("## Gamma Kettle", "row 4"),
        ("## Delta Kettle", "row 5"),
        ("## Omega Kettle", "row 6"),
    ]
    beta = next(s for s in document.sections if s.heading == "Beta Kettle")
    assert places.fact_at(beta.span[0]) is None  # a heading line holds no fact
    assert places.section_at(beta.span[0]) is beta


def test_the_drill_down_names_the_product_a_window_mostly_holds_not_the_one_it_starts_in():
    from workbench.core.model import Chunk
    from workbench.output.highlight import citation

    document = load_bytes(FIVE.encode(), "kettles.csv")
    text = document.text
    # A window from the line break that ends Alpha's last line to the end of Beta's last line: it starts inside
    # Alpha's section (its last line break is Alpha's) but holds only Beta's heading and facts.
    start = text.index("\n\n## Beta Kettle")
    end = text.index("\n", text.index("No it is light"))
    chunk = Chunk("fixed-2", "fixed", ((start, end),), text[start:end])
    # Beta's one data row is row 3 (header row 1, Alpha row 2); the walk-through saw the old rule's label,
    # "Alpha Kettle, ..." above a piece that begins with "## Beta Kettle".
    assert citation(document, chunk) == "kettles > Beta Kettle, row 3"
    # A window across two products names both: filed under the one whose facts it holds most of (Beta's three
    # lines, against the end of Alpha's last), the other after "with" (the walk-through saw only one named).
    start = text.index("No it is quiet")
    across = Chunk("fixed-3", "fixed", ((start, end),), text[start:end])
    assert citation(document, across) == "kettles > Beta Kettle, rows 2–3, with Alpha Kettle"


def test_a_blank_line_between_facts_belongs_to_the_section_it_lies_in():
    text = "# Shop\n\n## Lamp\nPrice: 5\n\nColour: red\n\n## Rug\nPrice: 9\n"
    from workbench.read.loaders import parse_markdown

    document = parse_markdown(text, "shop.md")
    places = Places(document)
    blank = text.index("\n\nColour") + 1  # the blank line inside the Lamp's section
    assert places.fact_at(blank) is None
    assert places.section_at(blank).heading == "Lamp"
    assert places.of((blank, blank + 1)) == "line 5"
    rug = text.index("## Rug")
    assert places.section_at(rug).heading == "Rug"
    assert places.section_at(rug - 1).heading == "Lamp"  # the blank line above the heading is still the Lamp's


# --- the property: every place named lies inside what it describes ------------------------------------------------

import re  # noqa: E402

import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.synthetic import catalog_csv, catalog_questions  # noqa: E402
from workbench.advise.audit import audit  # noqa: E402
from workbench.advise.todo import todo_list  # noqa: E402
from workbench.core.model import Document, Settings  # noqa: E402
from workbench.cut import STRATEGIES  # noqa: E402
from workbench.grade.grading import PieceSections  # noqa: E402
from workbench.output.highlight import citation  # noqa: E402
from workbench.read.loaders import load_path  # noqa: E402
from workbench.read.questions import generate_questions, parse_questions  # noqa: E402
from workbench.run.evaluate import evaluate  # noqa: E402

from .conftest import SAMPLE_CSV, SAMPLE_MD, SAMPLE_QUESTIONS  # noqa: E402

ROWS = re.compile(r"\brows? ((?:\d+(?:–\d+)?)(?:(?:, | and )\d+(?:–\d+)?)*)(?! more)")


def rows_named(text: str) -> set[int]:
    """Every row number a place names: "rows 38–40, 97 and 154" -> {38, 39, 40, 97, 154}."""
    found: set[int] = set()
    for match in ROWS.finditer(text):
        for part in re.split(r", | and ", match.group(1)):
            first, _, last = part.partition("–")
            found.update(range(int(first), int(last or first) + 1))
    return found


def section_rows(document: Document, title: str) -> set[int]:
    return {f.row for s in document.sections if s.title == title for f in s.facts if f.row}


def check_piece_places(document: Document, strategy: str) -> None:
    """The place of a piece's first offset, and the drill-down's citation, lie in the piece and its section."""
    from workbench.grade.places import Places

    places = Places(document)
    chunks = STRATEGIES.get(strategy)().chunk(document)
    for chunk in chunks:
        start, end = chunk.spans[0]
        section = places.section_at(start)
        assert section is not None and section.span[0] <= start
        place = places.of(chunk.spans[0])
        if document.kind == "spreadsheet":
            if ", column " in place:  # a cell: its fact holds the piece's first character
                fact = places.fact_at(start)
                assert place == f"row {fact.row}, column {fact.column}" and fact.span[0] <= start < fact.span[1]
                assert fact.section_id == section.id, (strategy, chunk.id, place)
            elif place.startswith("row "):
                assert rows_named(place) <= section_rows(document, section.title), (strategy, chunk.id, place)
        else:
            line = int(place.removeprefix("line "))
            assert document.text.count("\n", 0, start) + 1 == line
        said = citation(document, chunk)
        # The drill-down files a piece as every output does: under the section whose facts it holds most of.
        filed = PieceSections(document, chunks).of(chunk) or document.sections[0]
        assert said.startswith(filed.breadcrumb + ", "), (said, filed.breadcrumb)
        if document.kind == "spreadsheet":
            inside = {
                f.row for f in document.facts if f.row and any(a < f.span[1] and f.span[0] < b for a, b in chunk.spans)
            }
            assert rows_named(said.removeprefix(filed.breadcrumb)) <= inside, (strategy, chunk.id, said)


def check_todo_places(document: Document, questions) -> None:
    """Every to-do item that names a product or section names only rows of that product or section."""
    titles = sorted({s.title for s in document.sections if s.heading}, key=len, reverse=True)
    strategies = [s for s in STRATEGIES.ids() if not STRATEGIES.get(s).control]
    evaluation = evaluate(
        document, questions, Settings(strategies=strategies, retrievers=["keyword"], rerankers=["none"])
    )
    checkup = audit(document, strategies=(), questions=questions)
    for run in evaluation.runs:
        for item in todo_list(evaluation, run, checkup):
            if item.kind == "words":  # "Add the word “x” to {title}'s … line": the place is that product's
                title = next(t for t in titles if f" to {t}" in item.edit or f" {t}'s " in item.edit)
                assert rows_named(item.where) <= section_rows(document, title), (run.strategy, item.edit, item.where)
            if item.kind == "other":  # "… came from {piece's section} ({place}), not from {title}."
                source = next(t for t in titles if item.why.endswith(f"not from {t}."))
                assert rows_named(item.where) <= section_rows(document, source), (run.strategy, item.where)
                came = re.search(r"came from (.+) \(([^()]*)\), not from", item.why)
                if came and came.group(1) in titles:
                    assert rows_named(came.group(2)) <= section_rows(document, came.group(1)), (run.strategy, item.why)
            if item.kind == "shared":  # one place per product holding the line, each a cell of that line
                for row in rows_named(item.where):
                    cells = [f for f in document.facts if f.row == row]
                    assert cells, (item.where, row)


@pytest.mark.parametrize("path", [SAMPLE_MD, SAMPLE_CSV], ids=lambda p: p.suffix)
@pytest.mark.parametrize("strategy", STRATEGIES.ids())
def test_every_piece_is_placed_inside_itself_on_the_sample(path, strategy):
    check_piece_places(load_path(path), strategy)


@pytest.mark.parametrize("path", [SAMPLE_MD, SAMPLE_CSV], ids=lambda p: p.suffix)
def test_every_todo_place_lies_in_the_product_it_names_on_the_sample(path):
    check_todo_places(load_path(path), parse_questions(SAMPLE_QUESTIONS.read_bytes(), SAMPLE_QUESTIONS.name))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    products=st.integers(min_value=2, max_value=9),
    seed=st.integers(min_value=0, max_value=10_000),
    strategy=st.sampled_from(STRATEGIES.ids()),
)
def test_every_piece_is_placed_inside_itself_on_generated_catalogs(products, seed, strategy):
    from workbench.read.loaders import load_bytes

    check_piece_places(load_bytes(catalog_csv(products, seed), "catalog.csv"), strategy)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(products=st.integers(min_value=3, max_value=8), seed=st.integers(min_value=0, max_value=10_000))
def test_every_todo_place_lies_in_the_product_it_names_on_generated_catalogs(products, seed):
    from workbench.read.loaders import load_bytes

    document = load_bytes(catalog_csv(products, seed), "catalog.csv")
    questions = catalog_questions(products, count=products + 5, seed=seed) + generate_questions(document, limit=12)
    check_todo_places(document, questions)
