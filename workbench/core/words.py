"""Words: how the workbench reads a text as words, written once for every part that compares words.

Keyword search, BM25, TF-IDF, the confidence and the to-do's missing words all read a text the same way, with
the document's ``Analyzer`` (chosen once per document from its languages, ``read.language.analyzer_for``):

- ``tokenize``: lowercase words, whole in any script (letters with their combining marks, and digits);
  Chinese and Japanese, written without spaces, and Korean, which writes particles on its words, as overlapping
  character pairs. The same in every language.
- stop words: English's is one list of words that carry no subject ("what", "is", "the", "however", "please",
  "thanks"): function words (``FUNCTION_WORDS``) and the chat words a customer's question adds (``CHAT_WORDS``);
  another language's comes from the ``stop-words`` package (``stop_words_of``).
- ``stem``: the main language's Snowball stemmer (English: Porter2), so "returns" finds "return", "warranties"
  finds "warranty" and "Rücksendungen" finds "Rücksendung".

``terms`` is the three in a row: the words keyword search, BM25, TF-IDF and the heading re-check compare, and
the to-do compares to tell a missing word. The confidence compares ``subject_words``, the same words unstemmed:
whether the document names the very thing asked about ("assembly", not "assemble"; see
``grade.confidence``). The module-level ``stem``, ``terms``, ``subject_words`` and ``question_terms`` are
English's (``ENGLISH``), for a caller that reads no document.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from itertools import chain
from typing import NamedTuple

import regex

from workbench.core.named_forms import (
    MARKS,
    TYPED_TEH_MARBUTA,
    fold_accents,
    hebrew_word,
    named_form,
    typed_aa,
)
from workbench.core.stemmers import snowball
from workbench.core.word_lists import CHARACTER_STOPS, MODERN_GREEK, OWN_STOP_WORDS, QUESTION_WORDS, QUOTED

# Letters with their combining marks (Devanagari vowel signs and viramas stay inside the word), and digits.
WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+")
THAI = regex.compile(r"\p{Thai}")
# No character below Thai's block is in CJK's scripts (``tests/test_words.py`` checks each).
FIRST_PAIRED = "\u0e00"
PAIRED_OR_LATER = re.compile(f"[{FIRST_PAIRED}-\U0010ffff]")


@functools.cache
def listed_below_pairs(pattern: regex.Pattern) -> re.Pattern:
    """A ``regex`` character class (``pattern`` is one, with ``+``) for text without a character from
    ``FIRST_PAIRED`` on: its characters there listed one by one (as ``regex`` finds them, so the same runs) for the
    standard library's engine, which finds them in half the time ``regex`` takes with Unicode classes (a shop file
    in German or French)."""
    chars = [code for code in range(ord(FIRST_PAIRED)) if pattern.fullmatch(chr(code))]
    runs = [[chars[0], chars[0]]]
    for code in chars[1:]:
        if code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return re.compile("[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in runs) + "]+")


def _word_below_pairs() -> re.Pattern:
    """WORD for text without a character from ``FIRST_PAIRED`` on (``listed_below_pairs``)."""
    return listed_below_pairs(WORD)


# WORD restricted to ASCII (letters, digits; no ASCII character is a mark): the standard library's
# engine finds these runs 2.5 times faster than ``regex`` does with Unicode classes, and most shop text is ASCII.
ASCII_WORD = re.compile(r"[a-z0-9]+")
# The digits of the scripts from Arabic to Tibetan (Persian "۴۳۵", Arabic "٤٣٥", Hindi "४३५", Bengali "৪৩৫", Thai "๔๓๕")
# read as the ASCII digits customers also type: "۴ گرمی" is "4 گرمی". Full-width "１２０" is left to NFKC where it is read.
SCRIPT_DIGITS = {code: str(unicodedata.decimal(chr(code))) for code in range(0x0660, 0x1000)
                 if unicodedata.category(chr(code)) == "Nd"}


def tokenize(text: str) -> list[str]:
    """Lowercase words, whole in any script; Chinese, Japanese, Korean and Thai as character bigrams.

    Text that is not ASCII is read composed (NFC), its digits as ASCII ones (``SCRIPT_DIGITS``): a file saved decomposed, each accent a mark after its letter
    (some systems write Vietnamese so), has the words a customer types composed. Thai's vowel signs and tone
    marks are left out of its pairs: customers type "ไหม", "มั้ย" or "มั๊ย" for the same "?" and skip tone marks."""
    lowered = text.lower()
    if lowered.isascii():
        return ASCII_WORD.findall(lowered)
    lowered = unicodedata.normalize("NFC", lowered).translate(SCRIPT_DIGITS)
    if PAIRED_OR_LATER.search(lowered) is None:  # Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari: words whole
        return _word_below_pairs().findall(lowered)
    if CJK.search(lowered) is None:  # most text: every word is whole, so skip looking for runs word by word
        return WORD.findall(lowered)
    tokens: list[str] = []
    for word in WORD.findall(lowered):
        position = 0
        for run in CJK.finditer(word):
            if run.start() > position:
                tokens.append(word[position : run.start()])
            chars = run.group()
            if THAI.match(chars):
                chars = MARKS.sub("", chars)
            tokens.extend([chars] if len(chars) == 1 else [chars[i : i + 2] for i in range(len(chars) - 1)])
            position = run.end()
        if position < len(word):
            tokens.append(word[position:])
    return tokens


# Words that carry no subject: articles, pronouns, prepositions, conjunctions, auxiliaries and such adverbs
# ("however", "whereas"). scikit-learn's English list without the words it has that can name what a shop
# sells or a manual describes ("system", "fire", "front", "top", "back", "side", "first", "empty", "two",
# "find", "show"): with those as stop words, word search on the six real files found fewer answers in the
# top five (bench/quality.py; DESIGN.md, "Words").
FUNCTION_WORDS = frozenset(
    """a about above across after afterwards again against all almost alone along already also although always am
    among amongst amoungst an and another any anyhow anyone anything anyway anywhere are around as at be became
    because become becomes becoming been before beforehand being below beside besides between beyond both but by
    can cannot cant co could couldnt did do does doing done due during each eg either else elsewhere enough etc even
    ever every everyone everything everywhere except few for former formerly from further get gets got had has hasnt
    have having he hence her here hereafter hereby herein hereupon hers herself him himself his how however i ie if
    in inc indeed into is it its itself just latter latterly least less let ltd many may me meanwhile might mine more
    moreover most mostly much must my myself namely neither never nevertheless no nobody none noone nor not nothing
    now nowhere of off often on once one ones only onto or other others otherwise our ours ourselves out over own
    per perhaps please rather same seem seemed seeming seems several she should since so some somehow someone
    something sometime sometimes somewhere still such than that the their theirs them themselves then thence there
    thereafter thereby therefore therein thereupon these they this those though through throughout thru thus to
    together too toward towards under until up upon us very via was we were what whatever when whence whenever where
    whereafter whereas whereby wherein whereupon wherever whether which while whither who whoever whom whose why
    will with within without would yet you your yours yourself yourselves""".split()
)
# What a customer's question says around its subject that a list written for documents lacks: greetings,
# thanks, "tell me", "I need", "I want", and the pieces ``tokenize`` leaves of "don't", "it's" or "I'll".
CHAT_WORDS = frozenset(
    """aren d didn doesn don hello hi isn know like ll m need needs ok okay re s t tell thank thanks thing things ve
    want wanted wasn way won""".split()
)
# The one stop-word list: every search, the confidence and the to-do drop these words.
STOP_WORDS = FUNCTION_WORDS | CHAT_WORDS


class Language(NamedTuple):
    """One language read with its own rules (``LANGUAGES``)."""

    name: str  # on screen
    algorithm: str | None  # its Snowball stemmer (``core.stemmers``); None: its words whole, without accents
    stop_list: str | None  # its stop words' list in the ``stop-words`` package (``stop_words_of``)
    # The scripts it writes that are read as overlapping character pairs (``tokenize``), not as words: ``CJK``, and
    # the to-do's missing runs of characters (``advise.todo_words``) in the languages that have them (``PAIRED``).
    paired: tuple[str, ...] = ()
    # The word as a customer types it made into what its stemmer reads (Arabic's typed teh marbuta, Greek's accents,
    # Danish and Norwegian "aa"); with no stemmer, the whole form its searches compare (Hebrew's glued prefixes and
    # points off; Bulgarian's article, Latvian's, Georgian's and Bengali's endings by their light rule).
    typed: Callable[[str], str] | None = None
    restem: bool = False  # its stemmer strips again what it leaves (Dutch "fietsen" -> "fiets" -> "fiet")


# The languages read with their own rules, by ISO 639-1 code. Each has a stop-word list and a stemmer (but Ukrainian,
# which Snowball lacks, and the languages read as character pairs); a document in any other language is read as
# English is (its words whole, English stop words dropped).
LANGUAGES = {
    "en": Language("English", "english", "english"),
    "de": Language("German", "german", "german"),
    "fr": Language("French", "french", "french"),
    "es": Language("Spanish", "spanish", "spanish"),
    "it": Language("Italian", "italian", "italian"),
    "nl": Language("Dutch", "dutch", "dutch", restem=True),
    "pt": Language("Portuguese", "portuguese", "portuguese"),
    "da": Language("Danish", "danish", "danish", typed=functools.partial(typed_aa, "da")),  # "faar" is "får"
    "sv": Language("Swedish", "swedish", "swedish"),
    "no": Language("Norwegian", "norwegian", "norwegian", typed=functools.partial(typed_aa, "no")),
    "fi": Language("Finnish", "finnish", "finnish"),
    "ca": Language("Catalan", "catalan", "catalan"),
    "ro": Language("Romanian", "romanian", "romanian"),
    "hu": Language("Hungarian", "hungarian", "hungarian"),
    "pl": Language("Polish", "polish", "polish"),
    "tr": Language("Turkish", "turkish", "turkish"),
    "ru": Language("Russian", "russian", "russian"),
    "id": Language("Indonesian", "indonesian", "indonesian"),
    "cs": Language("Czech", "czech", "czech"),
    # Greek Snowball drops accents itself, but reads "ΐ" as "η": "καφεΐνη" was "καφεην", a customer's "καφεινη" "καφειν"
    "el": Language("Greek", "greek", "greek", typed=fold_accents),
    "uk": Language("Ukrainian", None, "ukrainian"),  # Snowball has no Ukrainian: words whole, stop words and folding
    # Issue 35's third probe. Hebrew and Vietnamese have no Snowball stemmer, Thai neither stemmer nor stop-word
    # list (its words are character pairs, ``tokenize``); Vietnamese's stop words are its own (``OWN_STOP_WORDS``).
    "ar": Language("Arabic", "arabic", "arabic", typed=functools.partial(TYPED_TEH_MARBUTA.sub, "ة")),  # "مبخره" is "مبخرة"
    "hi": Language("Hindi", "hindi", "hindi"),
    "he": Language("Hebrew", None, "hebrew", typed=hebrew_word),
    "th": Language("Thai", None, None, ("Thai",)),
    "vi": Language("Vietnamese", None, None),
    # Read as character pairs, no stemmer: a pair is a word's root or crosses a word's end. Chinese and Japanese
    # (and Thai) write no spaces between words; Korean writes a word's particles and endings on it ("배송은",
    # "배송비는"), so "배송" meets both: Korean whole words left 6 of the probe export's 11 answerable questions clean
    # and refused none of its 3 unanswerable ones; pairs, 11 and 3.
    "ja": Language("Japanese", None, None, ("Han", "Hiragana", "Katakana")),
    "zh": Language("Chinese", None, None, ("Han",)),
    "ko": Language("Korean", None, None, ("Hangul",)),
    # Issue 35's blind probe (blind44): Persian, Lithuanian, Bulgarian, Malay (Indonesian's Snowball rules fit its
    # affixes: "ber-", "-kan", "-nya"), Croatian and Serbian (Snowball's Serbian reads both scripts and Croatian).
    "fa": Language("Persian", "persian", "persian"),
    "lt": Language("Lithuanian", "lithuanian", None),
    "bg": Language("Bulgarian", None, "bulgarian", typed=functools.partial(named_form, "bg")),  # its article off
    "ms": Language("Malay", "indonesian", "malaysian"),
    "hr": Language("Croatian", "serbian", None),
    "sr": Language("Serbian", "serbian", None),
    # blind45: Estonian (Snowball's rules), Macedonian (Serbian's rules read its Cyrillic as Serbian's, the letters
    # it shares; read as Serbian and Bulgarian before, stemmed so too), and Latvian, Bengali and Georgian, whose words
    # are read whole and without accents, as Vietnamese's are: read as English, "zeķes" never met a typed "zekes".
    "et": Language("Estonian", "estonian", None),
    "mk": Language("Macedonian", "serbian", None),
    "lv": Language("Latvian", None, None, typed=functools.partial(named_form, "lv")),  # its light rule
    "bn": Language("Bengali", None, None, typed=functools.partial(named_form, "bn")),  # its light rule
    "ka": Language("Georgian", None, None, typed=functools.partial(named_form, "ka")),  # its light rule
}
# The languages read as character pairs, and the letters of their scripts: a run of them is cut into pairs.
PAIRED = frozenset(code for code, language in LANGUAGES.items() if language.paired)
PAIRED_LETTERS = "".join(dict.fromkeys(rf"\p{{{script}}}" for language in LANGUAGES.values() for script in language.paired))
CJK = regex.compile(f"[{PAIRED_LETTERS}]+")


# Endings a customer types without their accent, and the accent Snowball knows them by (``Analyzer._stem``: each
# that fits is tried, the shortest stem kept): Spain's "vosotros" verbs ("enviais", "teneis") and Portuguese "-ção"/"-ções" ("devolucao").
ACCENTED_ENDINGS = {
    "es": (("iais", "íais"), ("abais", "ábais"), ("asteis", "ásteis"), ("isteis", "ísteis"), ("areis", "aréis"),
           ("ereis", "eréis"), ("ireis", "iréis"), ("ais", "áis"), ("eis", "éis")),
    "pt": (("coes", "ções"), ("cao", "ção"), ("oes", "ões"), ("ao", "ão")),
}
# What the to-do writes in brackets inside the answer's sentence (or at the end of a product's text) to name the
# customers' words, in the file's language: it is the shop's own text, read by its customers. English for a
# language not named here.
SEARCH_WORDS_LABEL = {
    "en": "Search words:", "de": "Suchbegriffe:", "fr": "Mots-clés :", "es": "Palabras clave:",
    "it": "Parole chiave:", "nl": "Zoekwoorden:", "pt": "Palavras-chave:", "pl": "Słowa kluczowe:", "sv": "Sökord:",
    "da": "Søgeord:", "no": "Søkeord:", "fi": "Hakusanat:", "cs": "Klíčová slova:", "hu": "Kulcsszavak:",
    "tr": "Anahtar kelimeler:", "ru": "Ключевые слова:", "el": "Λέξεις-κλειδιά:",
    "uk": "Ключові слова:", "ar": "كلمات البحث:", "he": "מילות חיפוש:", "hi": "खोज शब्द:", "th": "คำค้นหา:",
    "vi": "Từ khóa:", "id": "Kata kunci:", "ms": "Kata kunci:", "fa": "کلمات جستجو:", "lt": "Paieškos žodžiai:",
    "bg": "Ключови думи:", "hr": "Ključne riječi:", "sr": "Ključne reči:", "ca": "Paraules clau:", "ro": "Cuvinte cheie:", "ja": "検索キーワード：", "zh": "搜索关键词：", "zh-Hant": "搜尋關鍵字：", "ko": "검색어:",
    "et": "Otsingusõnad:", "mk": "Клучни зборови:", "lv": "Meklēšanas vārdi:", "bn": "খোঁজার শব্দ:", "ka": "საძიებო სიტყვები:",
}
# Languages whose sentences end in "。" and whose brackets, commas and colons are full-width ("（検索キーワード：ラッピング）"),
# with no space after them.
FULL_WIDTH_PUNCTUATION = frozenset({"ja", "zh"})


# Ukrainian writes an apostrophe inside words ("м'ята", "трав'яний"), which customers leave out or type as ’ or ʼ:
# split there, "трав'яний" was "трав" and "янии" and never a typed "травяний". Its analyzer reads the word whole.
INNER_APOSTROPHE = regex.compile(r"(?<=\p{L})['’ʼ](?=\p{L})")
APOSTROPHE_IN_WORDS = frozenset({"uk"})


class Analyzer:
    """How one document is read as words: its languages' stop words and its main language's Snowball stems.

    ``languages`` are ISO 639-1 codes, the document's main language first (``read.language``). A second language
    (a file with English and French columns) adds its stop words; every word is stemmed by the main language's
    rules, the same for the document and the questions, so a word matches itself whatever its language
    (DESIGN.md, "Words"). Outside English a stem loses its accents ("échange" and "echange" meet): customers
    type without them. English is read exactly as before this class existed.
    """

    def __init__(self, languages: tuple[str, ...]) -> None:
        self.languages = languages
        self.name = LANGUAGES[languages[0]].name
        self.algorithm = LANGUAGES[languages[0]].algorithm
        stops = [stop_words_of(code) for code in languages]
        self.stop_words = stops[0] if len(stops) == 1 else frozenset().union(*stops)
        self.folds = languages[0] != "en"
        self.stem = functools.lru_cache(maxsize=1 << 18)(self._stem)  # a document repeats its words
        # The form the confidence compares, whether a text names a word at all (``core.named_forms``).
        self.named = functools.lru_cache(maxsize=1 << 16)(functools.partial(named_form, languages[0]))
        self._terms = functools.lru_cache(maxsize=1 << 16)(self._read_terms)
        self.question_terms = functools.lru_cache(maxsize=4096)(self._question_terms)
        self.term_set = functools.lru_cache(maxsize=1 << 16)(self._term_set)

    def __repr__(self) -> str:
        return f"Analyzer({self.languages!r})"

    @functools.cached_property
    def question_words(self) -> frozenset[str]:
        """How customers ask and chat in the document's languages (``QUESTION_WORDS``), with and without accents."""
        words = {word for code in self.languages for word in QUESTION_WORDS.get(code, "").split()}
        return frozenset(words | {fold_accents(word) for word in words})

    @property
    def search_words_label(self) -> str:
        """"Search words:" in the document's main language (``SEARCH_WORDS_LABEL``)."""
        return SEARCH_WORDS_LABEL.get(self.languages[0], SEARCH_WORDS_LABEL["en"])

    def __reduce__(self):  # a remembered result names its analyzer; the caches are built again
        return analyzer, (self.languages,)

    @property
    def names(self) -> list[str]:
        """The languages' names on screen, main first: ["German"], ["English", "French"]."""
        return [LANGUAGES[code].name for code in self.languages]

    def _stem(self, word: str) -> str:
        """A lowercase word's Snowball stem; a word of another script, or a number, comes back as it is. Outside
        English the stem then loses its accents ("échange" and "echange" meet). Not before stemming: French
        Snowball knows "cassée" by its "ée" and stems it as "cassé", but "cassee" only as "casse".

        Customers type without accents, and some stemmers know an ending only with its accent or only without
        it, so a word meets its other spelling by the shorter of the two stems: a word with accents is stemmed
        as written and without them (Portuguese "cafés" as "cafes", which "café" and a typed "cafes" stem to,
        "caf"); a word without, also with the accent its ending has in ``ACCENTED_ENDINGS`` (a Spaniard's
        "enviais" as "enviáis", "envi", as "enviamos" and "envíos"). Dutch Snowball strips a plural's "-en" to
        leave "fiets", which it strips again when given "fiets": its stem is stemmed until it stays."""
        language = LANGUAGES[self.languages[0]]
        if language.typed is not None:
            word = language.typed(word)
        if self.algorithm is None:  # no stemmer for the language: the word whole, without its accents
            return word if language.typed is not None else fold_accents(word)
        stemmer = snowball(self.algorithm)
        stemmed = stemmer.stemWord(word)
        if not self.folds:
            return stemmed
        if word.isascii():
            for ending, accented in ACCENTED_ENDINGS.get(self.languages[0], ()):
                if word.endswith(ending) and len(word) > len(ending) + 2:  # "enviais": "envíais" or "enviáis"
                    other = stemmer.stemWord(word[: -len(ending)] + accented)
                    stemmed = other if len(other) < len(stemmed) else stemmed
        else:
            other = stemmer.stemWord(fold_accents(word))
            stemmed = other if len(other) < len(stemmed) else stemmed
        if language.restem:
            for _ in range(3):  # "fietsen" -> "fiets" -> "fiet", as "fiets" -> "fiet"
                again = stemmer.stemWord(stemmed)
                if again == stemmed:
                    break
                stemmed = again
        return stemmed if stemmed.isascii() else fold_accents(stemmed)

    def subject_words(self, text: str) -> list[str]:
        """``tokenize``, less the stop words: the words that can name what a text is about, in order and repeated."""
        return [token for token in tokenize(self.joined(text)) if token not in self.stop_words]

    def joined(self, text: str) -> str:
        """The text with a Ukrainian word's inner apostrophe taken out (``INNER_APOSTROPHE``); as it is otherwise."""
        return INNER_APOSTROPHE.sub("", text) if self.languages[0] in APOSTROPHE_IN_WORDS else text

    def terms(self, text: str) -> list[str]:
        """The words a search compares: ``subject_words``, each ``stem``med, in order and repeated."""
        return list(self._terms(text))

    def _read_terms(self, text: str) -> tuple[str, ...]:
        """Read once per text: keyword, BM25 and the heading re-check read the same pieces of every cut. On a
        synthetic catalog of 20,000 products, with its words stemmed once, building keyword's index took about
        1.3 s and BM25's as long when each read the texts again, 0.4-0.5 s when the texts had been read.

        A text of several lines is read line by line, each line once: no word runs across a line break (nor does
        lower case, whose final sigma stops at one), so its terms are its lines' laid end to end, and the cuts of
        a file, which share its lines, and the to-do's graded copies read each line once."""
        if "\n" in text:
            return tuple(chain.from_iterable(map(self._terms, text.split("\n"))))
        stop, stem = self.stop_words, self.stem
        return tuple(stem(token) for token in tokenize(self.joined(text)) if token not in stop)

    def _term_set(self, text: str) -> frozenset[str]:
        """A text's distinct ``terms`` (keyword search's index), read once per text as ``terms`` are."""
        return frozenset(self._terms(text))

    def _question_terms(self, question: str) -> tuple[str, ...]:
        """A question's distinct ``terms``, in first-seen order (a run asks each under every setup)."""
        return tuple(dict.fromkeys(self._terms(question)))


def stop_words_of(code: str) -> frozenset[str]:
    """A language's stop words: English's own list (``STOP_WORDS``), else the ``stop-words`` package's, which ships
    its lists as files (nothing is fetched), and Greek's and Vietnamese's own (``MODERN_GREEK``,
    ``OWN_STOP_WORDS``); Japanese's and Chinese's function characters and their pairs (``CHARACTER_STOPS``); none
    for Korean and Thai. Folded as the stems are: a customer's "a" is French "à"."""
    if code == "en":
        return STOP_WORDS
    if code in CHARACTER_STOPS:
        return CHARACTER_STOPS[code]
    from stop_words import get_stop_words

    listed = LANGUAGES[code].stop_list
    words = {word.lower().translate(QUOTED) for word in (get_stop_words(listed) if listed else ())}
    words |= set(MODERN_GREEK if code == "el" else ()) | set(OWN_STOP_WORDS.get(code, ()))
    return frozenset(words | {fold_accents(word) for word in words})


@functools.cache
def analyzer(languages: tuple[str, ...]) -> Analyzer:
    """The one analyzer of these languages (main first), made once per process."""
    return Analyzer(languages)


ENGLISH = analyzer(("en",))
# English, as every part read words before the document's language was found: what a caller gets that reads no
# document (a test, a check of one line).
stem = ENGLISH.stem
subject_words = ENGLISH.subject_words
terms = ENGLISH.terms
question_terms = ENGLISH.question_terms
