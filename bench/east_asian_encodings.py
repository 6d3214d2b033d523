"""How well a file that is not UTF-8 is told to be Japanese, Chinese or Korean, and how often a Western one is taken
for one (issue 35). ``textio._east_asian_text`` against charset-normalizer's ``from_bytes`` limited to the same four
code pages:

    python bench/east_asian_encodings.py

Right readings: the four probe exports of tests/data/written in their own pages, their header line, their first two
lines, every description and every product name alone, each export in GB18030 (which encodes every character of the
four) and the Japanese FAQ in Shift_JIS and GB18030. Wrong takes: every file of tests/data, sample_data and the real
files beside the project, whole and line by line, in each Windows page it encodes in (a take turns it away from the
Windows page it is read in now).
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workbench.read.textio import EAST_ASIAN_PAGES, _east_asian_text, decode_text  # noqa: E402

WRITTEN = ROOT / "tests" / "data" / "written"
EXPORTS = [("chaki_makeshop_ja.csv", "cp932"), ("lingshi_youzan_zh.csv", "gb18030"),
           ("banshou_shopline_tw.csv", "cp950"), ("bansang_cafe24_ko.csv", "cp949")]
WINDOWS = ("cp1252", "cp1250", "cp1251", "cp1253", "cp1254")


def right_readings() -> list[tuple[str, str, str]]:
    cases = []
    for name, page in EXPORTS:
        text = (WRITTEN / name).read_bytes().decode(page)
        lines = text.splitlines()
        cases += [(name, text, page), (f"{name} header", lines[0], page), (f"{name} 2 lines", "\n".join(lines[:2]), page)]
        rows = list(csv.reader(io.StringIO(text)))[1:]
        cases += [(f"{name} description {i}", row[-1], page) for i, row in enumerate(rows)]
        cases += [(f"{name} name {i}", row[1], page) for i, row in enumerate(rows)]
        if page != "gb18030":
            cases.append((f"{name} in GB18030", text, "gb18030"))
    faq = (WRITTEN / "okurimono_faq_ja.md").read_text(encoding="utf-8")
    return cases + [("okurimono_faq_ja.md", faq, "cp932"), ("okurimono_faq_ja.md in GB18030", faq, "gb18030")]


def western_texts() -> list[tuple[str, str]]:
    paths = [p for folder in (ROOT / "tests" / "data", ROOT / "sample_data") for p in folder.rglob("*")]
    paths += list((ROOT.parent / "shared" / "real-data").glob("*"))
    texts = []
    for path in sorted(paths):
        if path.suffix in (".csv", ".md", ".txt") and not any(f"_{c}." in path.name for c in ("ja", "zh", "tw", "ko")):
            text = decode_text(path.read_bytes(), path.name)[0]
            texts.append((path.name, text))
            texts += [(f"{path.name}:{i}", line) for i, line in enumerate(text.split("\n")) if not line.isascii()]
    return texts


def normalizer(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    found = from_bytes(data, cp_isolation=list(EAST_ASIAN_PAGES)).best()
    return found.encoding if found else None


def main() -> int:
    right = {"textio": 0, "charset-normalizer": 0}
    cases = right_readings()
    for name, text, page in cases:
        data = text.encode(page)
        ours = _east_asian_text(data)
        right["textio"] += ours is not None and ours[0] == text
        theirs = normalizer(data)
        right["charset-normalizer"] += theirs is not None and data.decode(theirs) == text
        if ours is None or ours[0] != text:
            print(f"  textio misses {name} ({page}): {ours[1] if ours else 'left to the Windows pages'}")
    taken = {"textio": 0, "charset-normalizer": 0}
    western = 0
    for _name, text in western_texts():
        for page in WINDOWS:
            try:
                data = text.encode(page)
            except UnicodeEncodeError:
                continue
            if data.isascii():
                continue
            western += 1
            taken["textio"] += _east_asian_text(data) is not None
            taken["charset-normalizer"] += normalizer(data) is not None
    for who in right:
        print(f"{who:20} right readings {right[who]}/{len(cases)}; Western texts taken for East Asian "
              f"{taken[who]}/{western}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
