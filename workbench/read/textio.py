"""Turning uploaded bytes into text, whatever the shop's computer saved them as."""

from __future__ import annotations

import codecs
import os
import re
import stat
import unicodedata
from pathlib import Path

import regex

from workbench.core.limits import MAX_BYTES, MAX_CHARACTERS, MB, too_big
from workbench.core.model import WorkbenchError
from workbench.read.baltic import BALTIC_PAGE, is_baltic, is_estonian


def display_name(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by Python as lone surrogates, which no output can
    encode) become U+FFFD, so the name can be printed, saved in JSON and in the history."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def file_info(path: str | Path) -> os.stat_result:
    """A regular file's size and identity, without reading it: a plain error when it is missing, a folder (called
    a folder, whatever its name looks like), a pipe or a device."""
    path = Path(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise WorkbenchError(f"{path} does not exist.") from None
    except OSError as error:
        raise WorkbenchError(f"{path} cannot be read: {error.strerror or error}.") from None
    if stat.S_ISDIR(info.st_mode):
        raise WorkbenchError(f"{path} is a folder, not a file.")
    if not stat.S_ISREG(info.st_mode):
        raise WorkbenchError(f"{path} is not an ordinary file (a pipe, socket or device); save the data to a file first.")
    return info


def read_file(path: str | Path) -> bytes:
    """A regular file's bytes, with a plain error when it is missing, a folder, a pipe or device, or too big.

    A pipe (FIFO) or a device would block or never end, so they are refused before opening; the size
    is checked before reading, so a huge file is never loaded to be refused.
    """
    path = Path(path)
    info = file_info(path)
    if info.st_size > MAX_BYTES:
        raise too_big(str(path), f"is {info.st_size / MB:,.0f} MB")
    try:
        # O_NONBLOCK: should the path be swapped for a pipe after the check above, opening it does not hang.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as handle:
            data = handle.read(min(info.st_size, MAX_BYTES) + 1)  # read(n) sets aside n bytes at once
            if len(data) > info.st_size:  # it grew since: read on, up to the limit
                data += handle.read(MAX_BYTES + 1 - len(data))
    except OSError as error:
        raise WorkbenchError(f"{path} cannot be read: {error.strerror or error}.") from None
    if len(data) > MAX_BYTES:
        raise too_big(str(path), f"is over {MAX_BYTES // MB} MB")
    return data


def check_size(data: bytes, name: str) -> None:
    if not data or not data.strip():
        raise WorkbenchError(f"{name} is empty: there is nothing to read.")
    if len(data) > MAX_BYTES:
        raise too_big(name, f"is {len(data) / MB:,.0f} MB")


def check_zero_bytes(data: bytes, name: str) -> None:
    """Refuse a file with a zero byte, which no text file holds: a binary file (a photo renamed .csv: its first
    8 KB hold many) plainly, and a text file with a stray one anywhere naming its line and the words before it
    (one past the first 8 KB was read into a product's text, "dr\x00y cloth", without a word)."""
    at = data.find(b"\x00")
    if at < 0:
        return
    head = data[:8192]
    if head.count(b"\x00") * 100 > len(head):  # more than 1 in 100: made of bytes, not of text
        raise WorkbenchError(
            f"{name} looks like a binary file, not text. Upload a CSV, an Excel (.xlsx) or a Markdown file."
        )
    line = data.count(b"\n", 0, at) + 1
    before = data[data.rfind(b"\n", 0, at) + 1 : at][-40:].decode("utf-8", errors="replace").strip()
    after = f", after “{before}”" if before else ", at its start"
    raise WorkbenchError(
        f"{name} looks like a binary file, not text: line {line:,} holds a zero byte (NUL){after}, which no text file "
        "holds. If it is your price list, it was damaged there: save it again from the program that made it, or "
        "delete that character."
    )


def decode_text(data: bytes, name: str) -> tuple[str, str, list[str]]:
    """Decode a text file: UTF-8 (with or without BOM), UTF-16, else the Japanese, Chinese or Korean code page it
    reads as (``_east_asian_text``), else the Windows code page it reads as (``_windows_text``).

    Returns the text with newlines normalised to ``\\n``, the encoding used,
    and warnings for the user. Binary files are refused with a plain message.
    """
    check_size(data, name)
    warnings: list[str] = []
    if data.startswith(codecs.BOM_UTF8):
        text, encoding = data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="strict"), "utf-8-sig"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = _decode_utf16(data, name, "utf-16"), "utf-16"
    elif (encoding := _bomless_utf16(data)) is not None:
        text = _decode_utf16(data, name, encoding)
    else:
        check_zero_bytes(data, name)
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            text, encoding = _east_asian_text(data) or _windows_text(data)
            warnings.append(
                f"{name} is not saved as UTF-8 (the usual encoding), so it was read as "
                f"{encoding_words(encoding)}. Check that "
                + ("its characters look right" if encoding in EAST_ASIAN_PAGES or encoding in OWN_SCRIPTS else
                   "accented letters and currency signs look right") + "; save the file as UTF-8 to be sure."
            )
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > MAX_CHARACTERS:
        raise too_big(name, f"holds {len(text):,} characters of text")
    if not text.strip():
        raise WorkbenchError(f"{name} is empty: it holds only blank space.")
    return text, encoding, warnings


# What the warning says of each Windows code page a file that is not UTF-8 can be read as.
CODE_PAGES = {
    "windows-1252": "Windows-1252, the usual encoding of older Excel exports",
    "windows-1250": "Windows-1250, as Excel saves text on a Polish, Czech, Slovak or Hungarian computer",
    "windows-1251": "Windows-1251, as Excel saves text on a Russian, Ukrainian or Bulgarian computer",
    "windows-1253": "Windows-1253, as Excel saves text on a Greek computer",
    "windows-1254": "Windows-1254, as Excel saves text on a Turkish computer",
}
# Bytes that Windows-1250 reads as a letter and Windows-1252 as a sign: Polish ł ą ż Ł Ą Ż and Slovak ľ Ľ ť Ť Ź
# (1252's ³ ¹ ¿ £ ¥ ¯ ¾ ¼ and three bytes it leaves undefined).
CENTRAL_LETTERS = frozenset(b"\xa3\xa5\xaf\xb3\xb9\xbc\xbe\xbf\x8d\x8f\x9d")
# Bytes both pages read as letters, but that a Western word holds only at its end: Czech ě ů Ě Ů (1252's ì ù Ì Ù,
# Italian's "così", "più"; a Czech "průměr" is "prùmìr" in 1252) and Hungarian ő Ő (õ Õ, which Portuguese writes
# only before an "e": "limões", "põe"; a Hungarian "erős" is "erõs"). Inside a word they are Central European.
CZECH_HUNGARIAN = frozenset(b"\xec\xf9\xcc\xd9\xf5\xd5")
TILDE_O = frozenset(b"\xf5\xd5")
CENTRAL_LETTER = re.compile(b"[" + re.escape(bytes(sorted(CENTRAL_LETTERS | CZECH_HUNGARIAN))) + b"]")
CENTRAL_MIN = 2  # such bytes inside words: one could be a stray sign, two are a Central European file
# Turkish ı ş ğ İ Ş Ğ, which Windows-1252 reads as Icelandic ý þ ð Ý Þ Ð; and the letters Icelandic writes far
# more than Turkish does (á é í ó ú æ), which tell the two apart.
TURKISH_LETTERS = frozenset(b"\xfd\xfe\xf0\xdd\xde\xd0")
TURKISH = re.compile(b"[" + re.escape(bytes(sorted(TURKISH_LETTERS))) + b"]")
ICELANDIC = re.compile(b"[\xe1\xe9\xed\xf3\xfa\xe6\xc6]")
# Letters' bytes: ASCII's and those Windows-1251 (Cyrillic) and -1253 (Greek) read as their alphabets' letters, and
# Windows-1252 as accented Latin ones. In a Western text most letters are ASCII; in a Russian or Greek one almost
# none are.
ASCII_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))
HIGH_LETTERS = bytes(range(0xC0, 0x100))
# Every byte that can turn a file's reading away from Windows-1252 when it sits inside a word.
NOT_WESTERN = CENTRAL_LETTERS | CZECH_HUNGARIAN | TURKISH_LETTERS
# Cyrillic's and Greek's two commonest letters, each the other page's rare one: Russian, Ukrainian and Bulgarian
# а and о (a sixth of their letters) are Greek ΰ and ξ in 1253, which Greek hardly writes; Greek α and ο (a fifth) are
# Cyrillic б and п in 1251, a twentieth of a Russian text. Small and capital.
CYRILLIC_A_O, GREEK_A_O = b"\xe0\xee\xc0\xce", b"\xe1\xef\xc1\xcf"


# Arabic, Hebrew, Thai and Vietnamese code pages (issue 35's third probe): looked at before the pages above, as each
# shares their bytes. Python names Windows-874 "cp874" only: ``codec`` gives the name a codec is looked up by.
CODE_PAGES |= {
    "windows-1256": "Windows-1256, as Excel saves text on an Arabic computer",
    "windows-1255": "Windows-1255, as Excel saves text on a Hebrew computer",
    "windows-874": "Windows-874 (TIS-620), as Excel saves text on a Thai computer",
    "windows-1258": "Windows-1258, as Excel saves text on a Vietnamese computer",
}
CODECS = {"windows-874": "cp874"}
CODE_PAGES |= BALTIC_PAGE
# Pages of scripts with letters of their own (not Latin with accents): the warning asks the owner to check the text's
# characters, not its accents.
OWN_SCRIPTS = frozenset({"windows-1251", "windows-1253", "windows-1255", "windows-1256", "windows-874"})
# Thai's consonants are 0xA1-0xCE, its vowels and tone marks 0xD0-0xFB: a Thai text is almost all such bytes, a third
# of them below 0xC0 (Windows-1252's signs ¡-¿, which no other script's letters fill so), and none of 0xDB-0xDE or
# 0xFC-0xFF, which Windows-874 leaves undefined and Cyrillic (ь э ю я), Greek (ό ύ ώ) and Arabic (ف ق) write often.
THAI_BYTES, THAI_LOW = bytes(range(0xA1, 0xFC)), bytes(range(0xA1, 0xC0))
NOT_THAI = bytes(range(0xDB, 0xDF)) + bytes(range(0xFC, 0x100))
# Thai's vowel signs above and below its consonants and its tone marks (ั ิ ี ึ ื ุ ู ฺ, ็ ่ ้ ๊ ๋ ์ ํ): a fifth to a third of a
# Thai line's bytes (the probe export: 0.23-0.34 a line), and none of 1252's signs ¡-¿. Asked for, a file of digits
# and one "¡" (Hypothesis found it: no letter, so its one byte in Thai's range outnumbered them) is not Thai.
THAI_MARKS, THAI_MARK_SHARE = bytes(range(0xD1, 0xDB)) + bytes(range(0xE7, 0xEF)), 0.1
THAI_LOW_SHARE = 0.2
# Hebrew's 27 letters are 0xE0-0xFA in Windows-1255 (its vowel points, 0xC0-0xD2, are rarely typed): a Russian
# text puts its capitals and ы ь э ю я, a Greek one its accented vowels, outside that range as a tenth or more of
# its letters.
HEBREW_LETTERS = bytes(range(0xE0, 0xFB))
HEBREW_SHARE = 0.97
# Arabic's article "ال" is 0xC7 0xE1 in Windows-1256, about one letter pair in twenty of a text (0xC0 and above); Cyrillic reads the
# pair "Зб" and Greek "Ηα", which neither writes: one in a hundred of the high bytes is Arabic.
ARABIC_ARTICLE, ARABIC_SHARE = b"\xc7\xe1", 0.01
# Vietnamese in Windows-1258 is mostly ASCII letters; a tone the page has no letter for is a combining mark after
# the vowel (grave 0xCC, acute 0xEC, tilde 0xDE, hook 0xD2, dot below 0xF2): "ấ" is "â" 0xE2 and 0xEC. Those bytes are
# Czech ě ň and Romanian Ţ in Windows-1250, which no vowel comes before but in a word-final "aň", "eň"; read as
# Vietnamese when vowels with a tone mark are a fifth of the bytes above 0x7F.
VIETNAMESE_TONE = re.compile(b"[aeiouyAEIOUY\xe2\xe3\xea\xf4\xf5\xfd\xc2\xc3\xca\xd4\xd5\xdd][\xcc\xec\xde\xd2\xf2]")
VIETNAMESE_SHARE = 0.2
TONE_MARKS = frozenset("\u0300\u0301\u0303\u0309\u0323")


# The encodings a file can be read in besides the code pages above, as a report names them.
UNICODE_NAMES = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8 (with a BOM)", "utf-16": "UTF-16", "utf-16-le": "UTF-16",
                 "utf-16-be": "UTF-16"}


def encoding_words(encoding: str) -> str:
    """The encoding a file was read in, as the Document page's warning names it ("Shift_JIS (cp932), as Excel saves
    text on a Japanese computer"), not by its codec's name alone ("cp932"), which no shop owner knows."""
    return CODE_PAGES.get(encoding) or EAST_ASIAN_PAGES.get(encoding) or UNICODE_NAMES.get(encoding, encoding)


def codec(encoding: str) -> str:
    """The name Python's codecs know ``encoding`` by ("windows-874" is "cp874")."""
    return CODECS.get(encoding, encoding)


def _counted(data: bytes, these: bytes) -> int:
    return len(data) - len(data.translate(None, these))  # counted by deleting them: no loop in Python


def _script_page(data: bytes) -> tuple[str, str] | None:
    """Text in the Thai, Hebrew, Arabic or Vietnamese code page, told by its letters' bytes (the constants above);
    None for any other text, which ``_windows_text`` reads as before."""
    letters = _counted(data, ASCII_LETTERS)
    thai = _counted(data, THAI_BYTES)
    if (thai > letters and _counted(data, THAI_LOW) >= THAI_LOW_SHARE * thai and not _counted(data, NOT_THAI)
            and _counted(data, THAI_MARKS) >= max(1, THAI_MARK_SHARE * thai)):
        return data.decode("cp874", errors="replace"), "windows-874"
    high = _counted(data, HIGH_LETTERS)
    if high > letters:
        if _counted(data, HEBREW_LETTERS) >= HEBREW_SHARE * high:
            return data.decode("cp1255", errors="replace"), "windows-1255"
        if data.count(ARABIC_ARTICLE) >= max(1, ARABIC_SHARE * high):
            return data.decode("cp1256", errors="replace"), "windows-1256"
        return None
    tones = len(VIETNAMESE_TONE.findall(data))
    if tones >= CENTRAL_MIN and tones >= VIETNAMESE_SHARE * _counted(data, bytes(range(0x80, 0x100))):
        return data.decode("cp1258", errors="replace"), "windows-1258"
    return None


def windows_1258_form(text: str) -> str:
    """Text as Windows-1258 can write it: a letter the page lacks ("ấ") as its nearest letter there and its tone as a
    combining mark ("â" and U+0301), as Windows saves Vietnamese; the rest as it is."""
    out = []
    for char in unicodedata.normalize("NFC", text):
        try:
            char.encode("cp1258")
            out.append(char)
        except UnicodeEncodeError:
            parts = unicodedata.normalize("NFD", char)
            tones = "".join(mark for mark in parts[1:] if mark in TONE_MARKS)
            base = unicodedata.normalize("NFC", "".join(mark for mark in parts if mark not in TONE_MARKS))
            out.append(base + tones)
    return "".join(out)


def _windows_text(data: bytes) -> tuple[str, str]:
    """Text that is not UTF-8, read as the Windows code page its writer's Excel saved it in.

    - Cyrillic (1251) or Greek (1253) when most letters' bytes are above 0xC0 (1252 would read them as accented
      Latin letters, "Íàçâàíèå" for "Название"): of the two, Greek when more of its bytes are Greek's α and ο
      than Cyrillic's а and о (``GREEK_A_O``).
    - Windows-1257 when Estonian õ and ä sit inside words (``read.baltic.is_estonian``).
    - Windows-1250 (Central Europe) when bytes only it reads as letters (``CENTRAL_LETTERS``), or the Czech and
      Hungarian letters that 1252 writes only at a word's end (``CZECH_HUNGARIAN``), sit inside words at least
      ``CENTRAL_MIN`` times. A Polish "Kołdra" is "Ko³dra" in 1252; a French, German or Spanish file has no "³",
      "¹" or "¿" between two letters (Spain's "¿" opens a word, and "m³" ends one).
    - Windows-1257 (Baltic) when Lithuanian or Latvian š ž and vowels do (``read.baltic``).
    - Windows-1254 (Turkish) when ı ş ğ İ Ş Ğ's bytes do, at least twice, and outnumber Icelandic's á é í ó ú æ.
    - Windows-1252 (Western Europe and the Americas) otherwise.

    Thai, Hebrew, Arabic and Vietnamese text is told first (``_script_page``)."""
    found = _script_page(data)
    if found is not None:
        return found
    if _counted(data, HIGH_LETTERS) > _counted(data, ASCII_LETTERS):
        if _counted(data, GREEK_A_O) > _counted(data, CYRILLIC_A_O):
            return data.decode("cp1253", errors="replace"), "windows-1253"
        return data.decode("cp1251", errors="replace"), "windows-1251"
    if is_estonian(data):  # before Central Europe: Estonian õ is Hungarian ő's byte
        return data.decode("cp1257", errors="replace"), "windows-1257"
    central = data.decode("cp1250", errors="replace")  # one character a byte: its indices are the bytes'
    inside = 0
    for found in CENTRAL_LETTER.finditer(data, 1, len(data) - 1):  # only those bytes are looked at
        index = found.start()
        if central[index - 1].isalpha() and central[index + 1].isalpha():
            if data[index] in TILDE_O and central[index + 1] in "eE":  # Portuguese "ões"
                continue
            inside += 1
            if inside >= CENTRAL_MIN:
                return central, "windows-1250"
    if is_baltic(data):
        return data.decode("cp1257", errors="replace"), "windows-1257"
    western = data.decode("cp1252", errors="replace")
    turkish = sum(1 for found in TURKISH.finditer(data, 1, len(data) - 1)
                  if western[found.start() - 1].isalpha() and western[found.start() + 1].isalpha())
    if turkish >= CENTRAL_MIN and turkish > len(ICELANDIC.findall(data)):
        return data.decode("cp1254", errors="replace"), "windows-1254"
    return western, "windows-1252"


def _bomless_utf16(data: bytes) -> str | None:
    """"utf-16-le" or "utf-16-be" when the head reads as UTF-16 text without a byte-order mark, else None.

    Text in UTF-8 or Windows-1252 holds no zero byte, so a zero is UTF-16 or a binary file. Counting zeros on one
    side took text with few ASCII letters (U+0100, U+4E00 and the surrogates of an emoji put their zero on the
    other side) for binary or for the wrong byte order. Each order is decoded instead: binary has a NUL or a broken
    surrogate in both, and in a text's reading line breaks and plain ASCII characters are at least an
    eighth of it (a byte-swapped reading has almost none); of two readings, the one with more.
    """
    sample = data[:4096]
    if b"\x00" not in sample:
        return None
    best, best_key = None, None
    for encoding in ("utf-16-le", "utf-16-be"):
        try:  # a pair cut by the sample's end is held back, not an error
            text = codecs.getincrementaldecoder(encoding)().decode(sample[: len(sample) // 2 * 2], final=False)
        except UnicodeDecodeError:
            continue
        if "\x00" in text:
            continue
        key = (text.count("\n") + text.count("\r"), sum(1 for char in text if " " <= char <= "~"))
        if sum(key) * 8 < len(text):  # a UTF-8 file with a stray NUL reads as neither: binary
            continue
        if best_key is None or key > best_key:
            best, best_key = encoding, key
    return best


def _decode_utf16(data: bytes, name: str, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise WorkbenchError(
            f"{name} looks like UTF-16 text but byte {error.start} is damaged; save it again as UTF-8."
        ) from None


# Japanese, Chinese and Korean code pages: what the warning says of each, in the order a tie is decided. Each is the
# superset Windows writes: cp932 of Shift_JIS, GB18030 of GBK and GB2312, cp950 of Big5, cp949 of EUC-KR. The
# warning names the codec too (the Document page says the encoding once when the warning holds its name).
EAST_ASIAN_PAGES = {
    "cp932": "Shift_JIS (cp932), as Excel saves text on a Japanese computer",
    "gb18030": "GB18030 (GBK), as Excel saves text on a computer in mainland China",
    "cp950": "Big5 (cp950), as Excel saves text on a computer in Taiwan or Hong Kong",
    "cp949": "EUC-KR (cp949), as Excel saves text on a Korean computer",
}
# The characters a text in these languages writes most: every kana, the commonest Hangul syllables, and the
# commonest Chinese characters in both scripts (general text's and a shop's: 品, 价, 克, 装, 袋). Most of the bytes of
# one of these code pages decode "validly" in the others too, but as rare characters picked by chance: the right
# reading is the one with most of these (bench/east_asian_encodings.py).
COMMON_HANGUL = ("이다에의는로하을가고지서한은기으년대사시를리도인스일요니습있해어아게나수정보주상품제자부내개후전만구용안"
                 "세드원거합할면것되또와과께님배송")
COMMON_HAN = ("的一是不了在有人这个们中来上大为和到以时要就出会可也对能子得于着下自之年过发后作里用道行所然家种事成方多经"
              "么去法如都同现当没动面起看定天分还进好小部其些主样理心本前开但因只从想实商品价格克装包袋入含请无已加水内"
              "产货色糖茶保存期月日件盒公斤毫升元送购买次款颗块")
COMMON_HANT = ("這個們來為時會對於著過發後裡種經麼現當沒動還進樣從實價裝請無內產貨購買顆塊")
EAST_ASIAN_COMMON = regex.compile("[\u3041-\u30ff" + COMMON_HANGUL + COMMON_HAN + COMMON_HANT + "]")
WIDE = regex.compile("[\u3000-\U0010ffff]")  # kana, Hangul, Han, CJK punctuation, full-width forms, private use
EAST_ASIAN_SAMPLE = 65_536  # bytes read to decide: a reading's share is settled long before
EAST_ASIAN_MIN = 8  # wide characters: a name or two ("花生糖 300g") reads as common characters in two pages
EAST_ASIAN_SHARE = 0.15  # of the wide characters are common ones: a right reading has 0.30-0.66, a wrong one < 0.15


def _east_asian_text(data: bytes) -> tuple[str, str] | None:
    """Text that is not UTF-8, read as the Japanese, Chinese or Korean code page its writer's Excel saved it in; None
    when it reads as none of them (a Windows-125x file: ``_windows_text`` reads it as before).

    The head of the file is decoded strictly in each page (a Western or Cyrillic file breaks in most), and of the
    readings the one whose wide characters are most often common ones (``EAST_ASIAN_COMMON``) is kept when at least
    ``EAST_ASIAN_MIN`` wide characters are read and ``EAST_ASIAN_SHARE`` of them are common. Bytes past the head that
    do not decode become U+FFFD, as a Windows page's undefined bytes do."""
    head = data[:EAST_ASIAN_SAMPLE]
    whole = len(head) == len(data)
    best, best_key, best_text = None, None, ""
    for encoding in EAST_ASIAN_PAGES:
        try:  # a character cut by the sample's end is held back, not an error
            text = codecs.getincrementaldecoder(encoding)().decode(head, final=whole)
        except UnicodeDecodeError:
            continue
        wide = len(WIDE.findall(text))
        if wide < EAST_ASIAN_MIN:
            continue
        share = len(EAST_ASIAN_COMMON.findall(text)) / wide
        if share >= EAST_ASIAN_SHARE and (best_key is None or share > best_key):
            best, best_key, best_text = encoding, share, text
    if best is None:
        return None
    # A file no longer than the head was decoded whole, strictly: that reading is the file's.
    return (best_text if whole else data.decode(best, errors="replace")), best
