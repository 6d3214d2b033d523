"""Windows-1257, the code page Excel saves text in on a Lithuanian, Latvian or Estonian computer, told from the
Western (1252) and Turkish (1254) pages, whose bytes it shares (``read.textio._windows_text`` asks first).

Lithuanian š ž Š Ž are bytes 0xF0 0xFE 0xD0 0xDE, which 1254 reads as Turkish ğ ş Ğ Ş and 1252 as Icelandic ð þ Ð Þ:
read by either, "Vaškinė žvakė" was "Vağkinë şvakë". Two things tell Baltic text apart: its vowels ė ų ą ū and
Latvian ā ī (``BALTIC_VOWELS``), which 1254 reads as ë ø à û â î, letters Turkish does not write (but in a loan word's
â, î, û), and the dotless ı (0xFD in 1254, ż in 1257), a twentieth of a Turkish text's letters and none of a Baltic one's.
"""

from __future__ import annotations

import re

SZ = b"\xf0\xfe\xd0\xde"  # š ž Š Ž
BALTIC_VOWELS = b"\xe0\xe2\xeb\xee\xf8\xfb\xc0\xc2\xcb\xce\xd8\xdb"  # ą ā ė ī ų ū and their capitals
DOTLESS_I = b"\xfd\xdd"  # Turkish ı İ
LETTER = rb"[A-Za-z\xc0-\xff]"
# A byte counts beside a letter: š and ž start words ("žvakė"), ų and ė end them ("medų").
_SZ = re.compile(rb"(?<=" + LETTER + rb")[" + re.escape(SZ) + rb"]|[" + re.escape(SZ) + rb"](?=" + LETTER + rb")")
_VOWELS = re.compile(rb"(?<=[A-Za-z])[" + re.escape(BALTIC_VOWELS) + rb"]")
_DOTLESS = re.compile(rb"(?<=[A-Za-z])[" + re.escape(DOTLESS_I) + rb"]")
BALTIC_MIN = 2  # such letters beside others: one could be a stray sign, two are a Baltic file

# Estonian writes õ (0xF5 in 1257, as in 1252 and in 1250, where it is Hungarian ő) and ä ö ü inside its words, and
# hardly ever Hungarian's á é í ó ú; š and ž (0xF0 0xFE) only in loan words ("tšai"). Counted as Hungarian's ő, an
# Estonian file was read as Windows-1250, its š a "đ" (blind45). Õ inside words and ä more often than those acute
# vowels: Estonian, read in 1257 (its õ ä ö ü are 1252's bytes too; its š ž only 1257's).
_TILDE_O = re.compile(rb"(?<=[A-Za-z\xe4\xf6\xfc])[\xf5\xd5]|[\xf5\xd5](?=[a-z\xe4\xf6\xfc])")
_A_UMLAUT = re.compile(rb"(?<=[A-Za-z])[\xe4\xc4]|[\xe4\xc4](?=[a-z])")
_ACUTE = re.compile(rb"[\xe1\xe9\xed\xf3\xfa\xc1\xc9\xcd\xd3\xda]")


def is_estonian(data: bytes) -> bool:
    """Whether text that is not UTF-8 is Estonian: õ inside words and ä at least ``BALTIC_MIN`` times each, ä more
    often than Hungarian's acute vowels."""
    tilde, umlaut = len(_TILDE_O.findall(data)), len(_A_UMLAUT.findall(data))
    return tilde >= BALTIC_MIN and umlaut >= BALTIC_MIN and umlaut > len(_ACUTE.findall(data))


# What the warning says of the page, as ``textio.CODE_PAGES`` says of the others.
BALTIC_PAGE = {"windows-1257": "Windows-1257, as Excel saves text on a Lithuanian, Latvian or Estonian computer"}


def is_baltic(data: bytes) -> bool:
    """Whether text that is not UTF-8 is Windows-1257: š or ž and Baltic vowels each at least ``BALTIC_MIN`` times
    beside letters, and the dotless ı fewer than a quarter as often as š and ž (Turkish writes it more often than ş
    and ğ together)."""
    sz = len(_SZ.findall(data))
    if sz < BALTIC_MIN or len(_VOWELS.findall(data)) < BALTIC_MIN:
        return False
    return 4 * len(_DOTLESS.findall(data)) < sz
