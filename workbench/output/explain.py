"""Plain words for the screen: what each term means. (The verdict itself is in verdict.py.)"""

from __future__ import annotations

from workbench.core.model import Document
from workbench.core.text_size import length
from workbench.read.language import document_languages, language_name

GLOSSARY = {
    "chunk": "A chunk (piece) is a slice of your document. For each question, a chat bot does not read the whole file: it "
    "searches for the few pieces that look most relevant and answers from those alone.",
    "retrieval": "Retrieval is that search: given a customer's question, find the pieces most likely to hold "
    "the answer.",
    "rerank": "A re-check (reranking) takes the search's shortlist and compares each piece with the question more "
    "closely, to put the best piece first.",
    "grades": "Clean: the top piece holds the right fact and nothing about other products. Mixed: the right "
    "fact is there, buried among other products' facts, so the bot may mix them up. Missed: the right fact is "
    "not in the top piece at all.",
    "hit rate": "Found in the top k (the hit rate at k): how often the right fact is somewhere in the first k pieces "
    "handed to the bot, from 0 (never) to 1 (every question). k is how many pieces the bot is handed per question "
    "(Results › Settings).",
}
# The report's, read without the app: k is in its own "Settings used".
REPORT_HIT_RATE = GLOSSARY["hit rate"].replace("(Results › Settings)", "(“Pieces handed to the bot” under Settings "
                                                "used, at the end)")

# Every figure a table or download shows, by its id (the JSON's key, kept for scripts): the name a person reads
# and what it means. The Compare page's table, the Excel workbook's Summary and its "About the columns" sheet
# and the answers CSV take their headers from here, so a figure has one name everywhere.
COLUMNS = {
    "chunks": ("pieces", "How many pieces this way of cutting makes of your file."),
    "clean": ("clean", "Questions whose top piece holds the right fact and nothing about other products."),
    "mixed": ("mixed", "Questions whose top piece holds the right fact among other products' facts: the bot may mix "
              "them up."),
    "missed": ("missed", "Questions whose top piece does not hold the right fact."),
    "refused": ("refused", "Questions the bot handed to a person instead of answering."),
    "false_answers": ("answered anyway", "Questions your file cannot answer that the bot answered."),
    "hit_rate": ("found in the top k", GLOSSARY["hit rate"]),
    "mrr": ("first right piece's rank score", "1 when the right piece comes first, ½ when second, ⅓ when third …, "
            "averaged over the questions (mean reciprocal rank, MRR)."),
    "ndcg": ("every right piece's rank score", "Like the first right piece's rank score, but it counts every piece "
             "holding the answer in the top k, each less the lower it comes (nDCG)."),
    "context_chars": ("characters handed over", "Characters of the top k pieces the bot reads per question, on "
                      "average."),
    "refusal_accuracy": ("share of unanswerable refused", "Share of the questions your file cannot answer that the bot "
                         "refused."),
    "answerable_refused": ("answerable refused", "Questions your file answers that the bot wrongly handed to a "
                           "person."),
    "threshold": ("refuse below", "The confidence under which the bot hands the question to a person (empty: "
                  "never)."),
    "refusal_judged": ("refusals judged", "How the refusal figures were measured: leave-one-out judges each "
                       "question by a threshold fitted on the other questions."),
    "top_score": ("top piece's score", "The search's score of the piece it put first (its scale depends on the "
                  "search: see the drill-down on Results)."),
    "confidence": ("confidence", "How sure the bot is, from 0 to 1, that your file answers the question."),
    "refuse_below": ("refuse below", "The threshold this question was judged by (fitted on the other questions)."),
}

# The downloads' other columns, by their header: what a row says, who it is about, and the ids scripts read. The
# Excel workbook's "About the columns" sheet gives every column of every sheet a line, from here or COLUMNS.
PLAIN_COLUMNS = {
    "way of cutting": "How your file was cut into pieces.",
    "search": "How the bot's search finds the pieces for a question.",
    "re-check": "Whether the search's shortlist was compared with the question again, more closely, to put the "
                "best piece first, and how.",
    "row": "The question's row in your questions file, as a spreadsheet numbers it (the header is row 1).",
    "question": "The customer's question, as your questions file has it.",
    "expected_source": "The product or section whose text holds the answer, as your questions file names it "
                       "(empty: your file cannot answer the question).",
    "expected_answer": "The words of the answer in your file, as your questions file gives them.",
    "grade": "What the bot was handed: clean (the top piece holds the answer and nothing about other products), "
             "mixed (the answer among other products' facts), missed (the top piece does not hold it), refused "
             "(handed to a person) or false-answer (your file cannot answer it, yet the bot answered).",
    "why": "Why the question got its grade, in words.",
    "rank": "Where the first piece holding the answer came in the search's order of all the pieces (1 = first); "
            "empty when no piece holds the whole answer, or your file cannot answer the question.",
    "top piece's section": "The product or section whose text the top piece mostly holds.",
    "section": "The product or section whose text the piece mostly holds.",
    "text": "The piece's text, as the bot reads it.",
    "piece": "The piece's id, by which the Answers sheet's top_piece column names it.",
    "top_piece": "The top piece's id: its text is on the Pieces sheet.",
    "reason": "Why a missed answer was missed, as an id for scripts: decoy (the top piece holds the same words "
              "from another product), split (a cut runs through the answer), ranked (a piece holds the answer, "
              "lower down).",
    "strategy": "The way of cutting's id, as scripts and the command line (--strategies) name it.",
    "retriever": "The search's id, as scripts and the command line (--retrievers) name it.",
    "reranker": "The re-check's id, as scripts and the command line (--rerankers) name it.",
}


def column_name(id: str) -> str:
    """The name a person reads for a figure's id: "first right piece's rank score" for ``mrr``."""
    return COLUMNS[id][0] if id in COLUMNS else id


def word_pieces_note(document: Document, model: str, window: int, texts: list[str], counts: list[int]) -> str:
    """What "wp" on the Cuts page means, in the word pieces of the model that read the file and in its language.

    How many characters and words a word piece is, is measured on these pieces (``counts``: each text's word
    pieces): a model's word list holds more whole English words than French or German ones, so a piece of a
    French file read by multilingual-e5-small is shorter than "about 4 characters of English" said before."""
    total = max(sum(counts), 1)
    characters = sum(len(text) for text in texts) / total
    words = sum(len(text.split()) for text in texts) / total
    found = document_languages(document)
    written = f"of {language_name(found[0])}" if found else "of your file"
    past = sum(count > window for count in counts)
    # A file written without spaces between words has no words to count (``core.text_size.length``).
    spaced = length(" ".join(texts))[1] == "words"
    at_once = (f"about {round(window * words, -1):,.0f} words, or {round(window * characters, -1):,.0f} characters"
               if spaced else f"about {round(window * characters, -1):,.0f} characters")
    return (f"The meaning-based search reads text with {model}, in word pieces: a word or part of a word (a long or "
            f"rare word is split into several), about {_about(characters)} characters {written} each here. “wp” at "
            f"the start of each piece below is its length in word pieces. The model reads at most {window} word "
            f"pieces at a time ({at_once}, of this file); {past} of {len(counts)} pieces are longer (marked ⚠), and it reads those in "
            "overlapping parts.")


def _about(figure: float) -> str:
    """A small measured figure as a person reads it: "3.4", "12"."""
    return f"{figure:.1f}".removesuffix(".0") if figure < 10 else f"{figure:.0f}"
