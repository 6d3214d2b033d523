"""A word's inflection taken off, its derivation kept: the form in which the confidence asks whether a file names
the thing a question names (``grade/confidence.py``).

German and French customers inflect what a file states in another case or number: "Handschuhen" is the file's
"Handschuhe", "Beanies" its "Beanie", "applis" its "appli". Compared whole, as English words are, such a question
looks as if it named something the file never does, so answerable questions scored as low as unanswerable ones and
no refusal threshold could part them (the real German export: 0 of 6 unanswerable refused under every word-search
setup). Snowball's stems go further than inflection and join words that name different things ("remboursé",
"remboursement"): on the real French terms and export they wrongly refused 20 of 768 answerable questions where
whole words refused 3 (bench/refusal.py, ``--languages``). These light rules only take what a plural or a case adds,
after Savoy's light stemmers for German and French (as in Lucene's ``GermanLightStemmer`` and
``FrenchMinimalStemmer``) and the minimal plural rules for Portuguese and Dutch. Spanish and Italian plural rules
were written and measured too, and lost: on the project's Spanish FAQ they let "sábados" meet "sabados" and the
fitted thresholds rose, so 74 answerable questions were wrongly refused over every word-search setup against 2 (clean
404 against 411); Italian 5 against 4 (189 against 190). Those languages' words only lose their accents. Accents go
(customers type without them). Swedish, Danish and Norwegian lose the article and plural glued to a noun's end
(``_nordic``); Hungarian words lose their stacked endings by Snowball's stemmer, measured as better than one case
ending off (``_hungarian``), and Turkish and Lithuanian words by theirs (``_snowball_named``); Finnish words lose one particle, possessive and case ending (``_finnish``). English keeps its words whole: there whole words refused more unanswerable
questions and fewer answerable ones than any stemming (the figures in ``grade/confidence.line_words``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import regex

from workbench.core.stemmers import snowball

MARKS = regex.compile(r"\p{M}+")


# Letters Unicode does not write as a letter and a mark, typed as the plain letter by customers without the key:
# Polish "kołdra" as "koldra", Croatian "đ" as "d", Danish and Norwegian "størrelse" as "storrelse" and "kræver"
# as "kraever", Turkish "kılıf" as "kilif". Turkish's dotless ı is an i: its capital I lowercases to "i" outside
# Turkish, and its dotted İ to "i" and a dot above (a mark, which goes), so "IŞIL", "Işıl" and "isil" all meet.
UNMARKED = str.maketrans({"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE",
                          "ı": "i"})


# Danes and Norwegians without the key type "å" as "aa" (the letter's spelling before 1948, still in "Aalborg"):
# a customer's "faar" is the file's "får", "haandvask" its "håndvask". Read both as "a", as "å" folds.
AA_FOR_Å = frozenset({"da", "no"})


def typed_aa(code: str, word: str) -> str:
    """``word`` with a typed "aa" read as the "a" its "å" folds to, in Danish and Norwegian; as it is otherwise."""
    return word.replace("aa", "a") if code in AA_FOR_Å else word


# Hangul, kana and Han have no accents to lose, but NFKD takes a Hangul syllable apart into its letters ("상" is
# "ᄉ", "ᅡ", "ᆼ") and a kana's voicing mark off ("ゴ" is "コ" and a mark, so "カテゴリ" was "カテコリ"): a word
# holding them is only made narrow (NFKC: full-width "１２０" and "（" are "120" and "(").
EAST_ASIAN = regex.compile(r"[\p{Hangul}\p{Hiragana}\p{Katakana}\p{Han}]")


def fold_accents(word: str) -> str:
    """The word without its accents and umlauts ("livrée" -> "livree", "größe" -> "große", "kołdra" -> "koldra");
    other scripts' marks (a Devanagari vowel sign) go too, but only Latin-script languages are folded. A Japanese,
    Chinese or Korean word keeps its characters (``EAST_ASIAN``)."""
    if not word.isascii() and EAST_ASIAN.search(word):
        return unicodedata.normalize("NFKC", word).translate(UNMARKED)
    return MARKS.sub("", unicodedata.normalize("NFKD", word)).translate(UNMARKED)


def _german(word: str) -> str:
    word = word.replace("ß", "ss")
    size = len(word)
    if size > 5 and word.endswith("ern"):
        word = word[:-3]
    elif size > 4 and word[-2:] in ("em", "en", "er", "es"):
        word = word[:-2]
    elif size > 3 and word[-1] == "e":
        word = word[:-1]
    # The genitive's and loan plurals' -s; after p too, which Savoy's list lacks: the terms page's "Apps" never met a
    # customer's "App" ("Shops", "Tops", "Laptops" the same).
    elif size > 3 and word[-1] == "s" and word[-2] in "bdfghklmnprt":
        word = word[:-1]
    size = len(word)
    if size > 5 and word.endswith("est"):
        word = word[:-3]
    elif size > 4 and (word[-2:] in ("er", "en") or (word[-2:] == "st" and word[-3] in "bdfghklmnt")):
        word = word[:-2]
    return word


def _french(word: str) -> str:
    # Lucene's FrenchMinimalStemmer on the folded word: the plural -s/-x, the infinitive's -r, the feminine -e
    # and a participle's é, then a doubled last letter ("bonne" -> "bon").
    if len(word) < 6:
        return word
    if word[-1] == "x":
        return word[:-2] + "l" if word.endswith("aux") else word[:-1]  # chevaux -> cheval
    for ending in "sree":
        if word[-1] == ending:
            word = word[:-1]
    return word[:-1] if word[-1] == word[-2] else word


def _portuguese(word: str) -> str:
    if len(word) < 4 or word[-1] != "s":
        return word
    for plural, single in (("oes", "ao"), ("aes", "ao"), ("ais", "al"), ("eis", "el"), ("ns", "m")):
        if word.endswith(plural):
            return word[: -len(plural)] + single
    if word.endswith("es") and word[-3] in "rsz":  # cores, luzes
        return word[:-2]
    return word[:-1]


DOUBLED = regex.compile(r"([bdfgklmnprst])\1$")


def _dutch(word: str) -> str:
    if len(word) > 5 and word.endswith("en"):  # fietsen -> fiets, tassen -> tas (a short vowel's doubled consonant)
        return DOUBLED.sub(r"\1", word[:-2])
    # The plural -s comes after -el, -em, -en, -er, -je or an -e (kabels, meisjes, tantes); "fiets" and "tas" keep
    # theirs, and "foto's" is read as "foto" and "s". Before, any vowel took it: "fietstas" was "fietsta", so the
    # question's "fietstassen" named nothing the file has.
    if len(word) > 4 and word[-1] == "s" and (word[-3:-1] in ("el", "em", "en", "er", "je") or word[-2] == "e"):
        word = word[:-1]
    # An adjective's -e after a consonant: "waterdichte" is the file's "waterdicht", "zwarte" its "zwart".
    if len(word) > 5 and word[-1] == "e" and word[-2] not in "aeiouyj":
        return word[:-1]
    return word


# Hebrew glues "and", "the", "in", "to", "from", "that" and "as" (ו ה ב ל מ ש כ) to the word after: "ושמן", "בריח",
# "לעור" are "שמן", "ריח", "עור". Two at most ("וה", "שב"), leaving at least three letters.
HEBREW_PREFIX = regex.compile(r"^[והבלמשכ]{1,2}(?=\p{L}{3})")
# Arabic's teh marbuta typed as heh at a word's end ("الثلاجه" for "الثلاجة"), as customers type it: read as the
# teh marbuta, which the stemmer takes off.
TYPED_TEH_MARBUTA = regex.compile(r"(?<=\p{L}{2})ه$")


def hebrew_prefix_off(word: str) -> str:
    """A Hebrew word without the prefixes glued to it (``HEBREW_PREFIX``); other words as they are."""
    return HEBREW_PREFIX.sub("", word)


def hebrew_word(word: str) -> str:
    """A Hebrew word as its searches read it, having no stemmer: its prefixes off, then its points."""
    return fold_accents(hebrew_prefix_off(word))


# The light Arabic stemming search engines do (Larkey's light10, as Lucene's ArabicNormalizer and ArabicStemmer): the
# article and a glued "and", "with", "for" before it, and the endings of a plural, a dual, a feminine or a pronoun,
# on a word folded as customers type it (alef forms one, teh marbuta as heh, alef maqsura as yeh).
ARABIC_PREFIXES = ("وال", "بال", "كال", "فال", "لل", "ال")
ARABIC_SUFFIXES = ("ها", "ان", "ات", "ون", "ين", "يه", "ية", "ه", "ة", "ي")
ARABIC_FOLD = str.maketrans({"ة": "ه", "ى": "ي", "ـ": None})


def _arabic(word: str) -> str:
    word = word.translate(ARABIC_FOLD)
    for prefix in ARABIC_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 2:
            word = word[len(prefix):]
            break
    if word.startswith("و") and len(word) > 3:
        word = word[1:]
    for suffix in ARABIC_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            word = word[: -len(suffix)]
    return word

# Swedish, Danish and Norwegian glue the article to the noun's end ("tältet", "mössan", "garnet", "sovsäcken") and
# make plurals the same way ("kajaker", "mössor", "størrelser", "sovsäckarna"), so a customer names the file's
# "tält", "mössa", "garn" in a form the file never writes. Off come the definite plural, then a definite -n/-t or a
# plural -r after its vowel, then that vowel ("mössan" and "mössor" are "möss", as "mössa" is), then a doubled last
# consonant ("kittet" is "kit"). Not Lucene's SwedishLightStemmer, which takes off one ending only: there "tältet"
# is "tält" but "tält" is "tål", "mössan" is "mössa" but "mössa" is "möss".
NORDIC_DEFINITE_PLURALS = ("arna", "erna", "orna", "arne", "erne")


def _nordic(word: str) -> str:
    if len(word) > 6 and word.endswith(NORDIC_DEFINITE_PLURALS):
        word = word[:-4]
    elif len(word) > 4 and word[-1] in "ntr" and word[-2] in "aeo":
        word = word[:-1]
    if len(word) > 3 and word[-1] in "aeo":
        word = word[:-1]
    return DOUBLED.sub(r"\1", word) if len(word) > 3 else word


# Hungarian puts case, number and possession in endings stacked on the word ("paprikát", "pistában", "gyereknek",
# "toimituksen"'s kind): a light rule that took off one case ending measured no better than whole words, and
# Snowball's Hungarian stemmer, which takes off cases, possessives and plurals (its few derivational endings are
# rare in a shop's words), parted the probe's answerable and unanswerable questions on both halves of its rows
# (BENCHMARKS.md, "Refusing in the shop's language, continued"). Stemmed after folding, as the file's words are.
def _hungarian(word: str) -> str:
    return snowball("hungarian").stemWord(word)


# Turkish and Lithuanian put case and possession on the word as Hungarian does: a customer's "peştemalin ölçüsü"
# (the towel's size) is the file's "Peştemal" and "Ölçü", a Lithuanian's "spanguolem" the file's "spanguolėmis".
# Snowball's stemmer of each, on the folded word as Hungarian's: every word-search setup summed, the Turkish export's
# answerable questions wrongly refused on the odd rows (fitted on the even ones) 26 -> 0 of 120, the Lithuanian
# export's 25 -> 24 of 144, the even rows 12 -> 10 of 168 and none refused more or fewer (BENCHMARKS.md, "Refusing in
# the shop's language, a fourth time"). The same stemmer as named form lost in Polish, Spanish, Italian, Catalan,
# Romanian, Czech, Russian and Greek (there).
def _snowball_named(algorithm: str) -> Callable[[str], str]:
    return lambda word: snowball(algorithm).stemWord(word)


# Finnish puts case, number, possession and a question's "-ko" on the word ("toimituksen", "kiukaalla", "takuuta",
# "lahjakortteja", "maksaako"), and the file states the same things in another case. Snowball's Finnish stemmer
# parted the probe's questions on its odd rows but wrongly refused more on the even ones a change is decided on
# (BENCHMARKS.md); this light rule takes one particle, one possessive and one case ending off, then the stem's own
# alternations that inflection makes: the doubled vowel of a long case ("kiukaan"), "-kse-" of an "-us" noun
# ("toimituksen" is "toimitus"), "-nen" as "-se-" ("ilmainen", "ilmaisen") and a plural's -i-/-j-.
FINNISH_PARTICLES = ("kaan", "kin", "han", "ko", "pa")
FINNISH_POSSESSIVES = ("nsa", "mme", "nne")
FINNISH_CASES = ("seen", "ssa", "sta", "lla", "lta", "lle", "ksi", "tta", "na", "ta", "a", "n", "t")


def _off(word: str, endings: tuple[str, ...], keep: int) -> str:
    """``word`` without the first of ``endings`` it ends in, when ``keep`` letters stay."""
    for ending in endings:
        if word.endswith(ending) and len(word) - len(ending) >= keep:
            return word[: -len(ending)]
    return word


def _finnish(word: str) -> str:
    word = _off(_off(word, FINNISH_PARTICLES, 5), FINNISH_POSSESSIVES, 5)
    if word.endswith("nen") and len(word) > 6:  # ilmainen: the stem the cases are put on is ilmaise-
        word = word[:-3] + "se"
    else:
        word = _off(word, FINNISH_CASES, 4)
    if len(word) > 5 and word[-1] == word[-2] and word[-1] in "aeiouy":
        word = word[:-1]
    if word.endswith("kse") and len(word) > 5:
        word = word[:-3]
    elif len(word) > 5 and word[-1] == "s" and word[-2] in "aeiouy":
        word = word[:-1]
    if word.endswith("ej") and len(word) > 5:
        return word[:-2]
    return word[:-1] if len(word) > 5 and word[-1] in "ij" else word


# Bulgarian writes its article on the word's end ("маслото", "парфюма", "розовата", "чая") and customers ask with it,
# where a product's name has none ("Розово масло", "Парфюм", "Чай"); Snowball has no Bulgarian. This light rule, on
# the folded word (й is и), takes the article off and then one final vowel, which also parts a plural's "-и" from
# its singular's "-а" ("рози", "роза"): "маслото" and "масло" are both "масл", "чая" and "чай" "ча".
BULGARIAN_ARTICLES = ("ът", "ят", "та", "то", "те")


def _bulgarian(word: str) -> str:
    word = _off(word, BULGARIAN_ARTICLES, 3)
    return word[:-1] if len(word) > 2 and word[-1] in "аяоеиъ" else word


# Latvian, Bengali and Georgian (blind45) have no Snowball stemmer and write a word's case on its end: a customer asks
# of "zeķēm", "segu", "dzijas" where the shop wrote "Zeķes", "Sega", "Dzija"; of "রসগোল্লার" (its genitive) or
# "দইয়ে" where it wrote "রসগোল্লা", "দই"; of "ჩურჩხელაში" ("in the churchkhela") or "საფერავს" where it wrote
# "ჩურჩხელა", "საფერავი". Each light rule takes one ending off (the longest that fits, a stem of three letters
# kept, of two characters in Bengali: "দই"), and again (a Georgian postposition then the case's vowel, "ჩურჩხელაში" -> "ჩურჩხელა" -> "ჩურჩხელ"; a
# Bengali word whose own last letter is its ending's, "খেজুর" and "খেজুরের" both "খেজু"). Latvian's on the folded
# word; Bengali's before folding, which takes its vowel signs (its endings' "ে" among them) with the accents.
LATVIAN_ENDINGS = ("ajiem", "ajam", "ajai", "ajos", "ajas", "iem", "aja", "ais", "am", "ai", "as", "os", "es",
                   "em", "is", "im", "us", "um", "a", "e", "i", "u", "s", "o")
BENGALI_ENDINGS = tuple(unicodedata.normalize("NFC", ending) for ending in (  # "য়" as a shop types it: য and its dot
    "গুলোর", "গুলো", "দের", "টির", "টার", "য়ের", "য়ে", "য়", "ের", "এর", "কে", "তে", "টি", "টা", "র", "ে"))
GEORGIAN_ENDINGS = ("ისთვის", "თვის", "ებში", "ებს", "ებით", "ები", "ში", "ზე", "თან", "დან", "ით", "ის", "ად",
                    "მა", "ს", "ი", "ა", "ო", "ე")


def _twice_off(word: str, endings: tuple[str, ...], keep: int = 3) -> str:
    return _off(_off(word, endings, keep), endings, keep)


def _latvian(word: str) -> str:
    return _twice_off(word, LATVIAN_ENDINGS)


def _georgian(word: str) -> str:
    return _twice_off(word, GEORGIAN_ENDINGS)


def bengali_stem(word: str) -> str:
    """A Bengali word's stem, its endings off before its marks are folded (``BENGALI_ENDINGS``)."""
    return fold_accents(_twice_off(unicodedata.normalize("NFC", word), BENGALI_ENDINGS, 2))


# Persian written on an Arabic keyboard has Arabic's yeh and kaf ("قيمت", "كشمش") for Persian's ی and ک, as Snowball's
# Persian stemmer reads them for the searches; the confidence's form reads them so too.
PERSIAN_LETTERS = str.maketrans({"ي": "ی", "ك": "ک", "ى": "ی"})


def _persian(word: str) -> str:
    return word.translate(PERSIAN_LETTERS)


RULES: dict[str, Callable[[str], str]] = {
    "de": _german, "fr": _french, "pt": _portuguese, "nl": _dutch, "ar": _arabic, "he": hebrew_prefix_off,
    "sv": _nordic, "da": _nordic, "no": _nordic, "hu": _hungarian, "fi": _finnish, "bg": _bulgarian,
    "fa": _persian, "tr": _snowball_named("turkish"), "lt": _snowball_named("lithuanian"), "lv": _latvian,
    "ka": _georgian,
}


def named_form(code: str, word: str) -> str:
    """``word`` (lowercase) in the form compared for language ``code``: English as it is, another language without
    its accents and, where a rule is known, without its inflection."""
    if code == "en":
        return word
    if code == "bn":
        return bengali_stem(word)
    folded = typed_aa(code, fold_accents(word))
    rule = RULES.get(code)
    return rule(folded) if rule is not None else folded
