"""Every registered strategy, found from the registry, on generated Markdown and catalogs (hypothesis).

Whatever the document, a strategy's pieces read the document exactly at their spans, come in document order,
leave no fact out and are the same on a second cut.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.core.model import check_chunk, merge_spans
from workbench.cut import STRATEGIES, chunk_document
from workbench.read.loaders import load_bytes, parse_markdown

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzAÉü0123456789", min_size=1, max_size=9)
LINE = st.lists(WORD, min_size=1, max_size=8).map(" ".join)
LABELLED = st.tuples(WORD, LINE).map(lambda pair: f"{pair[0]}: {pair[1]}")
SECTION = st.tuples(
    st.integers(1, 3), LINE, st.lists(st.one_of(LINE, LABELLED, LINE.map(lambda line: f"- {line}")), max_size=6)
)


@st.composite
def markdown(draw) -> str:
    intro = draw(st.lists(LINE, max_size=2))
    parts = ["\n".join(intro)] if intro else []
    for level, heading, lines in draw(st.lists(SECTION, min_size=1, max_size=6)):
        blank = "\n\n" if draw(st.booleans()) else "\n"
        parts.append("#" * level + " " + heading + blank + "\n".join(lines))
    return "\n\n".join(parts) + "\n"


@st.composite
def catalog(draw) -> bytes:
    rows = draw(st.lists(st.tuples(WORD, LINE, st.integers(0, 999)), min_size=1, max_size=8, unique_by=lambda r: r[0]))
    lines = ["Name,Description,Price"] + [f"{name},{text},{price}" for name, text, price in rows]
    return ("\n".join(lines) + "\n").encode()


def check_pieces(document, strategy: str) -> None:
    chunks = chunk_document(document, strategy)  # itself checks every chunk against the text
    for chunk in chunks:
        check_chunk(document, chunk)
        assert chunk.text.startswith(chunk.prefix)
    starts = [chunk.start for chunk in chunks]
    assert starts == sorted(starts), f"{strategy}: pieces out of document order"
    covered = merge_spans([span for chunk in chunks for span in chunk.spans])
    for fact in document.facts:  # no fact is left out of every piece (each at least in part)
        assert any(a < fact.span[1] and fact.span[0] < b for a, b in covered), f"{strategy} leaves out {fact}"
    again = chunk_document(document, strategy)
    assert [(c.id, c.spans, c.text) for c in again] == [(c.id, c.spans, c.text) for c in chunks]


PROPERTY = settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("strategy", STRATEGIES.ids())
@PROPERTY
@given(text=markdown())
def test_every_strategy_on_generated_markdown(strategy, text):
    check_pieces(parse_markdown(text, "generated.md"), strategy)


@pytest.mark.parametrize("strategy", STRATEGIES.ids())
@PROPERTY
@given(data=catalog())
def test_every_strategy_on_generated_catalogs(strategy, data):
    check_pieces(load_bytes(data, "generated.csv"), strategy)
