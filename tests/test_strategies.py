"""Every strategy on every sample and real file: offsets exact, nothing lost, sizes kept."""

from __future__ import annotations

import pytest

from workbench.core.model import WorkbenchError, check_chunk, merge_spans
from workbench.cut import STRATEGIES, chunk_document, make_strategy
from workbench.read.loaders import load_path, parse_markdown

from .conftest import SAMPLE_CSV, SAMPLE_MD, SAMPLE_XLSX, real_data_files

FILES = [SAMPLE_MD, SAMPLE_CSV, SAMPLE_XLSX, *real_data_files()]
SIZE_LIMITS = {"fixed": 300, "fixed-overlap": 300, "recursive": 500, "langchain-recursive": 4000, "langchain-recursive-1000": 1000}


DESIGN_ORDER = [
    "fixed", "fixed-overlap", "sentence", "recursive", "heading", "breadcrumb", "placebo", "concern",
    "random", "whole",  # the controls
    "langchain-recursive", "langchain-recursive-1000",  # what bots run today
    "section-window", "small-to-big",  # sized by what the model reads
]


def test_the_strategies_are_listed_by_their_order_in_design_order():
    # Each class's ``order`` sets the listing, so a strategy added later takes its place among these, and these
    # keep theirs (the recommendation's last tie-break reads the same numbers).
    orders = [STRATEGIES.get(id).order for id in STRATEGIES.ids()]
    assert orders == sorted(orders)
    assert [id for id in STRATEGIES.ids() if id in DESIGN_ORDER] == DESIGN_ORDER


@pytest.fixture(scope="module", params=FILES, ids=lambda p: p.name)
def document(request):
    return load_path(request.param)


@pytest.mark.parametrize("strategy", STRATEGIES.ids())
def test_invariants(document, strategy):
    chunks = make_strategy(strategy).chunk(document)
    assert chunks, "no chunks at all"
    covered = merge_spans([span for chunk in chunks for span in chunk.spans])
    for chunk in chunks:
        check_chunk(document, chunk)  # the text at each span is the body it indexes
        assert chunk.body.strip(), f"{chunk.id} is empty"
        if strategy in SIZE_LIMITS:
            assert len(chunk.body) <= SIZE_LIMITS[strategy], f"{chunk.id} is {len(chunk.body)} characters"
    # Nothing lost: every visible character of every fact is in some chunk.
    for fact in document.facts:
        for position in range(*fact.span):
            if not document.text[position].isspace():
                assert any(start <= position < end for start, end in covered), (
                    f"{strategy} lost {document.text[fact.span[0]:fact.span[1]]!r}"
                )


def test_real_data_is_exercised_when_present():
    if not real_data_files():
        pytest.skip("../shared/real-data is not beside this clone")
    assert len(real_data_files()) == 6


TINY = "# Shop\n\n## Fan\nPrice: 10\nWarranty: 1 year.\n\n## Lamp\nPrice: 5\nWarranty: 1 year.\n"


def texts(chunks):
    return [chunk.text for chunk in chunks]


def test_fixed_windows_are_exact_offsets():
    document = parse_markdown(TINY, "tiny.md")
    chunks = make_strategy("fixed", size=20).chunk(document)
    assert [chunk.spans[0] for chunk in chunks] == [(i, min(i + 20, len(TINY))) for i in range(0, len(TINY), 20)]
    assert "".join(texts(chunks)) == TINY


def test_fixed_overlap_repeats_the_end_of_the_previous_window():
    document = parse_markdown(TINY, "tiny.md")
    chunks = make_strategy("fixed-overlap", size=20, overlap=5).chunk(document)
    starts = [chunk.spans[0][0] for chunk in chunks]
    assert starts == list(range(0, len(TINY) - 5, 15))
    for before, after in zip(chunks, chunks[1:]):
        assert before.text[-5:] == after.text[:5]
    assert chunks[-1].spans[0][1] == len(TINY)


def test_default_overlap_is_fifteen_percent():
    assert make_strategy("fixed-overlap").overlap == 45  # 15 % of 300


def test_heading_breadcrumb_and_placebo():
    document = parse_markdown(TINY, "tiny.md")
    heading = make_strategy("heading").chunk(document)
    # "# Shop" has no text of its own: no chunk, its title lives on in the path.
    assert texts(heading) == ["## Fan\nPrice: 10\nWarranty: 1 year.", "## Lamp\nPrice: 5\nWarranty: 1 year."]
    breadcrumb = make_strategy("breadcrumb").chunk(document)
    assert texts(breadcrumb)[0] == "Shop > Fan\n## Fan\nPrice: 10\nWarranty: 1 year."
    assert breadcrumb[0].spans == heading[0].spans
    placebo = make_strategy("placebo").chunk(document)
    assert sorted(chunk.prefix for chunk in placebo) == sorted(chunk.prefix for chunk in breadcrumb)
    assert [chunk.spans for chunk in placebo] == [chunk.spans for chunk in heading]


def test_sentence_splits_lines_and_sentences():
    document = parse_markdown("# A\nIt hums. It spins! Price: 5.\nDone\n", "s.md")
    assert texts(make_strategy("sentence").chunk(document)) == ["# A", "It hums.", "It spins!", "Price: 5.", "Done"]


def test_recursive_prefers_headings_then_blank_lines():
    document = parse_markdown(TINY, "tiny.md")
    # 40 characters: each product section (35 and 34 characters) fits whole; the cut is at the heading.
    chunks = make_strategy("recursive", size=40).chunk(document)
    assert texts(chunks) == ["# Shop", "## Fan\nPrice: 10\nWarranty: 1 year.", "## Lamp\nPrice: 5\nWarranty: 1 year."]
    # 20 characters: a section no longer fits, so it is cut at line ends.
    small = make_strategy("recursive", size=20).chunk(document)
    assert texts(small)[:3] == ["# Shop", "## Fan\nPrice: 10", "Warranty: 1 year."]


def test_random_control_draws_its_lengths_from_the_heading_cut():
    document = parse_markdown(TINY, "tiny.md")
    heading_lengths = {len(chunk.body) for chunk in make_strategy("heading").chunk(document)}
    chunks = make_strategy("random").chunk(document)
    spans = [chunk.spans[0] for chunk in chunks]
    assert spans[0][0] == 0 and spans[-1][1] <= len(TINY)
    assert make_strategy("random").chunk(document) == chunks  # seeded: the same every time
    # Windows are drawn from the heading cut's lengths (then trimmed of blank space), so none is longer.
    assert all(len(c.body) <= max(heading_lengths) for c in chunks)
    assert len(chunks) >= len(TINY) // max(heading_lengths)


def test_whole_control_is_one_chunk():
    document = parse_markdown(TINY, "tiny.md")
    assert [chunk.text for chunk in make_strategy("whole").chunk(document)] == [TINY.strip()]


def test_recursive_cuts_a_word_longer_than_the_size():
    document = parse_markdown("# A\n" + "x" * 25 + "\n", "w.md")
    assert texts(make_strategy("recursive", size=10).chunk(document)) == ["# A", "x" * 10, "x" * 10, "x" * 5]


def test_concern_groups_spreadsheet_columns_and_pairs_faqs():
    from workbench.read.loaders import load_bytes

    data = (
        b"Name,Price,Colour,Warranty,Care,Brand,FAQ 1 question,FAQ 1 answer\n"
        b"Fan,10,White,1 year,Dust it,Breezy,Is it quiet?,Yes very\n"
    )
    document = load_bytes(data, "c.csv")
    chunks = make_strategy("concern").chunk(document)
    assert texts(chunks) == [
        "Fan\nBrand: Breezy",
        "Fan\nPrice: 10\nColour: White",
        "Fan\nWarranty: 1 year",
        "Fan\nCare: Dust it",
        "Fan\nFAQ 1 question: Is it quiet?\nFAQ 1 answer: Yes very",
    ]
    assert all(chunk.prefix == "Fan\n" for chunk in chunks)


def test_concern_markdown_paragraphs_and_list_items():
    text = "# Care\nWipe it.\nGently.\n\n- Dust weekly\n- Oil yearly\n  with care\n\n```\ncode\n\nmore\n```\n"
    document = parse_markdown(text, "m.md")
    assert texts(make_strategy("concern").chunk(document)) == [
        "Care\nWipe it.\nGently.",
        "Care\n- Dust weekly",
        "Care\n- Oil yearly\n  with care",
        "Care\n```\ncode\n\nmore\n```",
    ]


@pytest.mark.parametrize(
    ("strategy", "options", "message"),
    [
        ("fixed", {"size": 0}, "size must be a whole number of characters of at least 1, not 0"),
        ("fixed-overlap", {"size": 100, "overlap": 150}, r"overlap \(150\) must be smaller than the size \(100\)"),
        ("fixed-overlap", {"size": 100, "overlap": -1}, "overlap must be a whole number"),
        ("recursive", {"size": -5}, "not -5"),
        ("nonsense", {}, "unknown strategy 'nonsense'; choose from fixed, fixed-overlap"),
    ],
)
def test_bad_parameters_name_the_value(strategy, options, message):
    with pytest.raises(WorkbenchError, match=message):
        make_strategy(strategy, **options)


def test_parameters_a_strategy_does_not_take_are_ignored():
    # --size applies to the windows; the heading cut has no size and must not fail on one.
    document = parse_markdown(TINY, "tiny.md")
    assert len(chunk_document(document, "heading", size=10, overlap=3)) == 2


def test_the_registry_refuses_a_class_without_an_order_or_with_another_ones():
    from workbench.core.registry import Registry

    things: Registry = Registry("thing")

    @things.register("b")
    class B:
        order = 20

    @things.register("a")
    class A:
        order = 10

    assert things.ids() == ["a", "b"]  # by order, not by when each was registered
    with pytest.raises(ValueError, match="order 10, already 'a'"):
        things.register("c")(type("C", (), {"order": 10}))
    with pytest.raises(ValueError, match="needs a whole-number order"):
        things.register("d")(type("D", (), {}))
