"""The paragraph cut: one piece per run of lines between blank lines, a lone heading kept with what follows."""

from workbench.cut import STRATEGIES, chunk_document
from workbench.read.markdown import parse_markdown

TEXT = (
    "# Fans\n"  # 0-6: a lone heading line, held for the paragraph under it
    "\n"
    "Prices include VAT.\n"  # 8-27
    "Delivery is free.\n"  # 28-45
    "\n\n"
    "## Aurora\n"  # 48-57
    "\n"
    "Price: 149\n"  # 59-69
    "Warranty: 1 year.\n"  # 70-87
    "\n"
    "## Zephyr\n"  # 89-98
    "Price: 39\n"  # a heading with its lines under it, no blank line: one paragraph
)


def test_one_piece_per_paragraph_with_each_lone_heading_kept_with_the_paragraph_under_it():
    document = parse_markdown(TEXT, "fans.md")
    chunks = chunk_document(document, "paragraph")  # every span checked against the text
    assert [chunk.spans for chunk in chunks] == [((0, 45),), ((48, 87),), ((89, 108),)]
    assert chunks[1].text == "## Aurora\n\nPrice: 149\nWarranty: 1 year."
    assert [chunk.id for chunk in chunks] == ["paragraph-1", "paragraph-2", "paragraph-3"]  # numbered from 1


def test_a_heading_at_the_end_with_nothing_under_it_is_its_own_piece():
    document = parse_markdown("Intro line.\n\n## Empty\n", "end.md")
    assert [chunk.text for chunk in chunk_document(document, "paragraph")] == ["Intro line.", "## Empty"]


def test_it_is_registered_between_sentences_and_the_recursive_cut():
    ids = STRATEGIES.ids()
    assert ids.index("sentence") < ids.index("paragraph") < ids.index("recursive")
    assert STRATEGIES.get("paragraph").params == ()  # no size: it follows the file's own blank lines
