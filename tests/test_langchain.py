"""The LangChain setups: the real splitter's pieces, placed at exact offsets."""

from __future__ import annotations

import pytest

from workbench.cut import STRATEGIES, chunk_document
from workbench.cut.langchain import LangChainRecursive, locate
from workbench.read.loaders import load_path, parse_markdown
from workbench.run.names import strategy_name

from .conftest import SAMPLE_MD

splitters = pytest.importorskip("langchain_text_splitters")

# Three products share the line "Warranty: 1 year." word for word.
REPEATED = "## Fan\nWarranty: 1 year.\n## Lamp\nWarranty: 1 year.\n## Heater\nWarranty: 1 year.\n"
#           0     6 7                24 25     32 33              50 51       60 61              78


def test_repeated_lines_are_placed_where_they_are_not_where_they_first_occur():
    splitter = splitters.RecursiveCharacterTextSplitter(chunk_size=20, chunk_overlap=10)
    pieces = splitter.split_text(REPEATED)
    assert pieces == ["## Fan", "Warranty: 1 year.", "## Lamp", "Warranty: 1 year.", "## Heater", "Warranty: 1 year."]
    # A plain search from the start would put all three warranty pieces at 7.
    assert [REPEATED.find(piece) for piece in pieces] == [0, 7, 25, 7, 51, 7]
    assert locate(REPEATED, pieces, 10) == [(0, 6), (7, 24), (25, 32), (33, 50), (51, 60), (61, 78)]


def test_overlapping_pieces_with_repeats_keep_their_own_places():
    splitter = splitters.RecursiveCharacterTextSplitter(chunk_size=26, chunk_overlap=10)
    pieces = splitter.split_text(REPEATED)
    assert pieces == ["## Fan\nWarranty: 1 year.", "## Lamp\nWarranty: 1 year.", "## Heater", "Warranty: 1 year."]
    assert locate(REPEATED, pieces, 10) == [(0, 24), (25, 50), (51, 60), (61, 78)]


def test_a_piece_that_is_not_where_it_should_be_stops_the_run():
    with pytest.raises(AssertionError, match="not in the text"):
        locate(REPEATED, ["## Lamp", "## Fan"], 10)  # "## Fan" only occurs before "## Lamp"


class Small(LangChainRecursive):
    id = "langchain-small"
    chunk_size, chunk_overlap = 20, 10


def test_the_strategy_cuts_the_document_like_the_library_does():
    document = parse_markdown(REPEATED, "repeated.md")
    chunks = Small().chunk(document)
    assert [chunk.spans for chunk in chunks] == [((0, 6),), ((7, 24),), ((25, 32),), ((33, 50),), ((51, 60),), ((61, 78),)]
    assert [chunk.text for chunk in chunks] == splitters.RecursiveCharacterTextSplitter(
        chunk_size=20, chunk_overlap=10
    ).split_text(REPEATED)


@pytest.mark.parametrize("id,size", [("langchain-recursive", 4000), ("langchain-recursive-1000", 1000)])
def test_the_registered_setups_use_the_documented_settings(id, size):
    cls = STRATEGIES.get(id)
    assert (cls.chunk_size, cls.chunk_overlap) == (size, 200)
    assert cls.params == ()  # a --size for the windows must not change what the client runs
    default = splitters.RecursiveCharacterTextSplitter()
    assert (default._chunk_size, default._chunk_overlap) == (4000, 200)  # the library's documented defaults


def test_display_names():
    assert strategy_name("langchain-recursive") == "LangChain default (4,000 / 200)"
    assert strategy_name("langchain-recursive-1000") == "LangChain common (1,000 / 200)"


def test_on_the_sample_the_setups_cut_as_the_library_and_pass_the_offset_check():
    document = load_path(SAMPLE_MD)  # 2,270 characters
    whole = chunk_document(document, "langchain-recursive")  # checks every offset
    assert len(whole) == 1 and whole[0].text == document.text.strip()
    thousand = chunk_document(document, "langchain-recursive-1000")
    expected = splitters.RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200).split_text(document.text)
    assert [chunk.text for chunk in thousand] == expected
    assert len(thousand) == 3
    assert all(thousand[i].spans[0][0] < thousand[i + 1].spans[0][0] for i in range(len(thousand) - 1))


def test_a_line_longer_than_the_piece_split_at_spaces_keeps_its_place():
    """The overlap can carry a whole piece: "- item" then "- item 12", both from the same start."""
    text = "- a\n" + " " * 30 + "- item 12\n"
    #       0   4                34    40 43
    pieces = ["- a", "- item", "- item 12"]
    assert locate(text, pieces, 10) == [(0, 3), (34, 40), (34, 43)]


def test_a_deeply_indented_list_is_cut_by_every_setup():
    text = "# T\n" + "".join("  " * i + f"- item {i}\n" for i in range(600))  # lines up to 1,200 characters
    document = parse_markdown(text, "nested.md")
    for strategy in ("langchain-recursive", "langchain-recursive-1000"):
        assert chunk_document(document, strategy, None)  # the offset check passes on every piece
