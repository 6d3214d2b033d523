"""Display names: what a person reads wherever a strategy, search or re-check is shown.

Ids stay stable for files, the command line and the history; every chart, table,
report and download shows these names instead, with the id kept for a tooltip.
"""

from __future__ import annotations

from workbench.core import wording
from workbench.core.model import Document
from workbench.core.results import Run
from workbench.core.words import Analyzer
from workbench.cut import STRATEGIES
from workbench.read.language import reading_sentence
from workbench.search.rerankers import RERANKERS
from workbench.search.retrievers import RETRIEVERS


def strategy_name(id: str, size: int | None = None) -> str:
    """ "300-character windows", "Cut at headings", "Shuffled-headings control" (``Strategy.name``)."""
    return STRATEGIES.get(id).name(size)


def retriever_name(id: str) -> str:
    return RETRIEVERS.get(id).label or id


def plain_retriever_name(id: str) -> str:
    """The search in plain words, for a sentence a shop owner reads: "word search where rare words count more" for
    BM25, whose display name ("BM25 word search") stays in the settings and charts, explained by their help."""
    kind = RETRIEVERS.get(id)
    return kind.plain or kind.label or id


def reranker_name(id: str) -> str:
    return RERANKERS.get(id).label or id


def score_words(retriever: str, reranker: str) -> str:
    """What the scores of a ranking under this search and re-check mean, in words.

    A re-check that re-scores gives the shortlist its own scale; otherwise the scores are the search's.
    """
    kind = RERANKERS.get(reranker)
    return (kind.rescores and kind.score_words) or RETRIEVERS.get(retriever).score_words


def is_control(strategy: str) -> bool:
    """Controls tell whether a gain is real; they are never a setup to recommend."""
    return STRATEGIES.get(strategy).control


def setup_name(run: Run, size: int | None = None, plain: bool = False) -> str:
    """A configuration in words: "Cut at headings, word-match search, re-checked by headings". ``plain``: the search
    in plain words (``plain_retriever_name``), for the verdict's sentence a shop owner reads."""
    search = plain_retriever_name(run.retriever) if plain else retriever_name(run.retriever)
    parts = [strategy_name(run.strategy, size), lower_first(search)]
    if run.reranker != "none":
        parts.append(lower_first(reranker_name(run.reranker)))
    return ", ".join(parts)


def lower_first(name: str) -> str:
    """Mid-sentence case that keeps a name's capitals: "BM25 word search" and "LangChain common" stay,
    "Word-match search" becomes lower (``wording.lower_first``)."""
    return wording.lower_first(name)


def setup_id(run: Run) -> str:
    """The ids behind a setup, for a tooltip: "heading / keyword / none"."""
    return f"{run.strategy} / {run.retriever} / {run.reranker}"


def reading_words(document: Document, uses_model: bool = True, read: Analyzer | None = None) -> str:
    """What the page and the report say of how the document is read: its language, its word rules and, when the
    meaning-based search reads it, the model's name as its encoder class gives it ("German, read with German word
    rules and the meaning-based model all-MiniLM-L6-v2")."""
    if not uses_model:  # a word search: the model's modules are not imported for its name
        return reading_sentence(document, None, read)
    from workbench.encode.multilingual import encoder_class, file_language  # the class that reads it: no model loaded

    return reading_sentence(document, encoder_class(file_language(document)).name, read)


def reading_help(document: Document) -> str:
    """The Document page's help on its reading sentence: what the word rules and the model are, in plain words.
    "the meaning-based model multilingual-e5-small" told a German shop owner a name, not whether it reads German."""
    from workbench.encode.multilingual import encoder_class, file_language
    from workbench.read.language import language_name

    code = file_language(document)
    model = encoder_class(code)
    if len(model.languages) > 1:
        reads = f"it reads {len(model.languages)} languages" + (f", {language_name(code)} among them" if code else "")
    else:
        reads = "it was trained on English text" + (
            f", not on {language_name(code)}: judge this file by word search" if code and code != "en" else "")
    return ("Word search finds the question's own words in your file, after cutting off endings and dropping small "
            "words such as “the” or “der”, by the rules of the file's language. The meaning-based search finds a "
            "piece that says the same in other words, with a language model that runs on this computer: "
            f"{model.name}; {reads}.")
