"""Word pieces a character, per script, on the project's Japanese, Chinese, Korean and Thai probe files: the basis of
``core/text_size.py``'s token estimate.

    python bench/token_ratio.py

Each run of one script's characters in the six files (tests/data/written) is read alone by the two tokenizers the
project ships (all-MiniLM-L6-v2's and multilingual-e5-small's), with no special tokens, and the pieces are summed;
the English sample is read whole for comparison. Only the tokenizers are loaded, not the models.
"""

from __future__ import annotations

import sys
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FILES = ["chaki_makeshop_ja.csv", "okurimono_faq_ja.md", "lingshi_youzan_zh.csv", "banshou_shopline_tw.csv",
         "bansang_cafe24_ko.csv", "chathai_shopee_th.csv"]
SCRIPTS = {"Han and kana": r"[\p{Han}\p{Hiragana}\p{Katakana}ー]+", "Hangul": r"\p{Hangul}+", "Thai": r"\p{Thai}+"}


def main() -> None:
    from workbench.encode.minilm import MiniLMEncoder
    from workbench.encode.multilingual import E5Encoder
    from workbench.read.loaders import load_path

    tokenizers = {"MiniLM": MiniLMEncoder().tokenizer, "E5": E5Encoder().tokenizer}
    texts = [load_path(ROOT / "tests" / "data" / "written" / name).text for name in FILES]
    for script, pattern in SCRIPTS.items():
        runs = [run for text in texts for run in regex.findall(pattern, text)]
        characters = sum(map(len, runs))
        counts = {name: sum(len(t.encode(run, add_special_tokens=False).ids) for run in runs)
                  for name, t in tokenizers.items()}
        print(f"{script:<13} {characters:5} characters  " + "  ".join(
            f"{name} {count:5} pieces ({count / characters:.2f} a character)" for name, count in counts.items()))
    english = load_path(ROOT / "sample_data" / "breezy_home_price_list.md").text
    print(f"{'English':<13} {len(english):5} characters  " + "  ".join(
        f"{name} {len(t.encode(english, add_special_tokens=False).ids):5} pieces "
        f"({len(t.encode(english, add_special_tokens=False).ids) / len(english):.2f} a character)"
        for name, t in tokenizers.items()))


if __name__ == "__main__":
    main()
