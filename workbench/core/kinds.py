"""What a document's kind says: its parts' name, whether it is a table, how its places read.

A loader makes a ``Document`` of one kind (``Document.kind``, an id the JSON and the history keep); everything that
depends on the kind asks these facts through ``Document.form`` (or ``kind_named`` for a loader's or a record's
kind), never the id itself, so each rule is written here once and a new kind is one more entry.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DocumentKind:
    id: str
    part: str  # what one of its parts is called in a sentence: a spreadsheet's are products, any other's sections
    # Its facts are a table's cells, as the shop's system exported them: each carries its row and column, so its
    # places are rows (and columns), never the canonical text's lines; it has columns (typed values, questions
    # generated from them, the concern cut's groups, columns a product lacks); a product is one row or a few
    # variant rows and each fact stands alone (structure never joins two into a block); and an edit is asked of
    # the shop's system, not of the file's text (store-wide facts go to the bot's instructions, long products are
    # one item for the whole sheet).
    table: bool
    # The shallowest heading that names a part: a spreadsheet's products are ``##`` lines under its ``#`` title.
    part_level: int
    place_note: str  # the line above a to-do list: what its places mean in this kind of file
    facts_are: str  # what one fact is, for the Document page's count of them

    def parts(self) -> str:
        return self.part + "s"


MARKDOWN = DocumentKind(
    "markdown", "section", table=False, part_level=1, place_note="Lines are your file's.",
    facts_are=("every line of text that is not a heading, a rule, a table border or other decoration; in a "
               "spreadsheet, one per filled cell."))
SPREADSHEET = DocumentKind(
    "spreadsheet", "product", table=True, part_level=2, place_note="Rows and columns are your spreadsheet's.",
    facts_are="one per filled cell (“Colour: red”).")
# A knowledge base (``read/base_of_files``): its files keep their own kinds, which the rules above ask of each.
BASE = DocumentKind(
    "base", "section", table=False, part_level=1,
    place_note="Rows and columns are your spreadsheets'; lines are your other files'.", facts_are=MARKDOWN.facts_are)

KINDS = {kind.id: kind for kind in (MARKDOWN, SPREADSHEET, BASE)}


def kind_named(id: str) -> DocumentKind:
    """The kind with this id; an unknown one (a record from an older version) reads as Markdown, the plainest."""
    return KINDS.get(id, MARKDOWN)
