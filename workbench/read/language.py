"""Which languages a document (and a question set) is written in, and so how its words are read.

The detector is py3langid (langid.py's model, shipped inside the package: nothing is fetched), restricted to the
languages the workbench reads with their own rules (``core.words.LANGUAGES``) and a few other widespread ones, so a
short Italian heading is not taken for Occitan or Galician (bench/language_detection.py: 104 of 105 short shop
texts right in seven languages, 101 with every language it knows, and the same answers on every run).

A document is read in parts, each part's language weighed by its letters: a spreadsheet column by column (the
product names are one part), a Markdown file section by section. So a file with English and French columns side
by side, or English and French halves, is found to hold both: the main language is the one with most letters, a
second counts when it holds at least ``SECOND_SHARE`` of them (DESIGN.md, "Words").
"""

from __future__ import annotations

import contextlib
import functools
import zipfile
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable

import regex

from workbench.core.model import Document
from workbench.core.words import ENGLISH, LANGUAGES, PAIRED_OR_LATER, WORD, Analyzer, analyzer, listed_below_pairs

LATIN = regex.compile(r"\p{Latin}")
LETTER = regex.compile(r"\p{L}")
LETTERS = regex.compile(r"\p{L}+")
# Languages found and named, though read as English is (no stemmer or stop-word list of their own here).
OTHER_LANGUAGES: dict[str, str] = {}  # Latvian was, until blind45 read it with rules of its own
SECOND_SHARE = 0.25  # a language with a quarter of the letters is one the document is written in
MIN_LETTERS = 40  # fewer letters in all (a list of prices and codes) says nothing about a language
PARTS, VALUES, PART_CHARS = 200, 40, 3_000  # the sample read: parts spread over the file, values per part


def load_identifier() -> None:
    """Load the language identifier now: a sweep does before it forks its processes, so each starts with it
    rather than loading its own (a tenth to half a second each). The word and letter classes read by the standard
    library's engine too (``core.words.listed_below_pairs``: 4 ms, else made again in each process)."""
    _identifier()
    listed_below_pairs(LETTERS)
    listed_below_pairs(WORD)


@functools.cache
def _identifier():
    """langid's model restricted to the languages named here, loaded once per process."""
    from py3langid.langid import LanguageIdentifier
    from py3langid.modelio import _TYPECODE, _to_array

    ptc, pc, classes, nextmove, row, output = _restricted_model()
    # The walk's table as a view of its array, not langid's copy into an ``array``: indexing either gives the same
    # ints, and a kept table is mapped from the disk (only the pages the walk visits are read).
    table = memoryview(nextmove).cast("B").cast(_TYPECODE[nextmove.dtype.itemsize])
    return LanguageIdentifier(ptc, pc, classes, table, output, norm_probs=True, tk_row=_to_array(row))


def _restricted_model() -> tuple:
    """The model's arrays for the languages named here, as ``LanguageIdentifier.set_languages`` would cut them.

    The package's file is LZMA-compressed (68 MB inside): opening it took 4.6 s of a first verdict's 4.9 s on a
    busy machine (bench/language_detection.py --cost). So the cut model is kept uncompressed beside the embedding
    cache, named by the package file's size and time, and read from there the next time. As that cache, it only
    saves time: a missing, damaged or unwritable file means the package's file is read again. Its two large
    tables (``MAPPED``: 45 of its 46 MB) are kept beside it as plain arrays and mapped from the disk, not read:
    unzipping them was 0.12 s of a sweep's start, before it forks, which no other process could share.
    """
    import numpy as np
    from py3langid.langid import MODEL_DIR, MODEL_FILE

    source = MODEL_DIR / MODEL_FILE
    kept = _kept_model_path(source)
    if kept is not None and kept.is_file():
        try:
            with np.load(kept, allow_pickle=False) as data:
                mapped = {name: np.asarray(np.load(_mapped_path(kept, name), mmap_mode="r", allow_pickle=False))
                          for name in MAPPED}
                return (mapped["ptc"], data["pc"], data["classes"].tolist(), mapped["nextmove"], data["row"],
                        data["output"].tolist())
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):  # damaged: read the package's again
            pass
    from py3langid.modelio import load_model

    ptc, pc, classes, nextmove, row, output = load_model(source)
    wanted = LANGUAGES.keys() | OTHER_LANGUAGES.keys()
    indices = [index for index, code in enumerate(classes) if code in wanted]  # set_languages's cut, in its order
    model = (np.ascontiguousarray(ptc[:, indices]), pc[indices], [classes[i] for i in indices],
             np.frombuffer(nextmove, dtype=f"u{nextmove.itemsize}"), np.frombuffer(row, dtype=f"u{row.itemsize}"), output)
    if kept is not None:
        _keep(kept, model)
    return model


MAPPED = ("ptc", "nextmove")  # the kept model's tables mapped from files of their own


def _mapped_path(kept, name: str):
    return kept.with_name(f"{kept.stem}.{name}.npy")


def _kept_model_path(source):
    """Where the cut model is kept: beside the embedding cache, None when that cache is off."""
    from workbench.store.paths import embedding_cache_path

    cache = embedding_cache_path()
    if cache is None:
        return None
    stat = source.stat()
    # "-mapped": the layout with MAPPED beside it (an older copy holds every table, and older code reads it).
    # Named by the languages kept, not their number: two sets of as many languages are two different cuts.
    codes = zlib.crc32(" ".join(sorted(LANGUAGES.keys() | OTHER_LANGUAGES.keys())).encode())
    return cache.parent / f"py3langid-{stat.st_size}-{int(stat.st_mtime)}-{codes:08x}-mapped.npz"


def _keep(path, model) -> None:
    """Write the cut model whole or not at all (a temporary file renamed), saying nothing when it cannot."""
    import os
    import tempfile

    import numpy as np

    ptc, pc, classes, nextmove, row, output = model
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # The mapped tables first, the file that says the model is kept last: a reader finds both or neither.
        for name, array in (("ptc", ptc), ("nextmove", nextmove), ("", None)):
            handle, temporary = tempfile.mkstemp(prefix=".py3langid-", suffix=".npy" if name else ".npz",
                                                 dir=path.parent)
            with os.fdopen(handle, "wb") as out:
                if name:
                    np.save(out, np.ascontiguousarray(array), allow_pickle=False)
                else:
                    np.savez(out, pc=pc, classes=np.array(classes), row=row, output=np.asarray(output, dtype=np.int32))
            os.replace(temporary, _mapped_path(path, name) if name else path)
            temporary = None
    except OSError:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.remove(temporary)


def language_name(code: str) -> str:
    return LANGUAGES[code][0] if code in LANGUAGES else OTHER_LANGUAGES.get(code, code)


def shares(texts: Iterable[str]) -> dict[str, float]:
    """Each language's share of the letters of these texts, each text given the one language it reads as; largest
    first. Empty when they hold fewer than ``MIN_LETTERS`` letters."""
    weights: Counter[str] = Counter()
    for text in texts:
        letters = letter_count(text)
        if letters:
            weights[_identifier().classify(text)[0]] += letters
    total = sum(weights.values())
    if total < MIN_LETTERS:
        return {}
    return {code: weight / total for code, weight in weights.most_common()}


def letter_count(text: str) -> int:
    """How many letters the text holds: its runs of letters' lengths, found by the standard library's engine where
    no character lies past ``FIRST_PAIRED`` (``core.words.listed_below_pairs``: 14 -> 4 ms for the 11 real files'
    parts); the same count as ``LETTER``'s matches."""
    runs = LETTERS if PAIRED_OR_LATER.search(text) else listed_below_pairs(LETTERS)
    return sum(map(len, runs.findall(text)))


def languages_of(texts: Iterable[str]) -> tuple[str, ...]:
    """The languages these texts are written in, main first: those with at least ``SECOND_SHARE`` of the letters."""
    found = shares(texts)
    return tuple(code for code, share in found.items() if share >= SECOND_SHARE)


def parts(document: Document) -> list[str]:
    """The document as the parts whose languages are weighed: each column of a spreadsheet (its product names one),
    each section of a text; at most ``PARTS``, spread over the file, each of ``VALUES`` values spread over it."""
    grouped: defaultdict[tuple[str, str], list[str]] = defaultdict(list)
    for section in document.sections:
        by_column = any(fact.column is not None for fact in section.facts)
        if section.heading:
            grouped[("names", "") if by_column else ("section", section.id)].append(section.heading)
        for fact in section.facts:
            key = ("column", fact.column) if fact.column is not None else ("section", section.id)
            grouped[key].append(document.slice(fact.span))
    return [_joined(_spread(values, VALUES))[:PART_CHARS] for values in _spread(list(grouped.values()), PARTS)]


def _spread(items: list, most: int) -> list:
    """At most ``most`` of the items, evenly spaced from the first (all of them when there are no more)."""
    if len(items) <= most:
        return items
    return [items[index * len(items) // most] for index in range(most)]


def _joined(values: list[str]) -> str:
    return "\n".join(values)


_FOUND: dict[tuple[str, int, int], tuple[str, ...]] = {}


def document_languages(document: Document) -> tuple[str, ...]:
    """The document's languages, main first (``languages_of`` over its ``parts``); empty when it has too few
    letters to tell. Worked out once per text (a page shows it on every visit)."""
    key = (document.name, len(document.text), hash(document.text))  # a str keeps its hash: looking up is free
    found = _FOUND.get(key)
    if found is None:  # the app's sessions share this: each works with its own answer, never the dict's
        found = languages_of(parts(document))
        if len(_FOUND) > 16:
            _FOUND.clear()
        _FOUND[key] = found
    return found


def question_language(questions: Iterable[str]) -> str | None:
    """The language most of the questions are written in, read together (one question is too short to tell)."""
    found = shares(["\n".join(questions)])
    return next(iter(found), None)


def analyzer_for(document: Document, questions: Iterable[str] = ()) -> Analyzer:
    """How this document's words are read, chosen once per document and question set: its main language's stems
    and the stop words of each of its languages, and of the questions' language when that is another one. A
    document whose main language has no rules here (Hindi, Arabic) is read as English, as before."""
    found = document_languages(document)
    if not found or found[0] not in LANGUAGES:
        return ENGLISH
    asked = question_language(questions) if questions else None
    extra = (asked,) if asked in LANGUAGES and asked not in found else ()
    return analyzer(tuple(code for code in found if code in LANGUAGES) + extra)


def reading_sentence(document: Document, model: str | None = None, read: Analyzer | None = None) -> str:
    """What the page and the report say of the document's language, in plain words: "Written in German; read with
    German word rules" (and the meaning-based model's name when given). ``read``: the analyzer a run
    chose (with its questions' language), else the document's own."""
    found = document_languages(document)
    read = read or analyzer_for(document)
    if not found:
        return "Too little text to tell its language: read with English word rules" + (
            f" and the meaning-based model {model}." if model else ".")
    written = " and ".join(language_name(code) for code in found)
    rules = " and ".join(language_name(code) for code in read.languages if code in found)
    sentence = f"Written in {written}; read with {rules} word rules"
    if read is ENGLISH and found[0] != "en":
        sentence = f"Written in {written}, which word search has no rules for; read with English word rules"
    sentence += f" and the meaning-based model {model}." if model else "."
    asked = [language_name(code) for code in read.languages[1:] if code not in found]
    if asked:  # the questions' language, added by the run: only the words the two share can match
        sentence += (f" Your questions are in {asked[0]}: word search finds only the words they share with the file, "
                     "so judge by the meaning-based search.")
    return sentence


def non_latin_share(text: str, sample: int = 50_000) -> float:
    """The share of letters (in the first ``sample`` characters) that are not Latin script."""
    head = text[:sample]
    letters = len(LETTER.findall(head))
    return 1 - len(LATIN.findall(head)) / letters if letters else 0.0
