"""Which Windows code page a file that is not UTF-8 is read as, on samples of the written shop files.

    python bench/code_pages.py                          # this checkout's reading of each sample
    python bench/code_pages.py --against /path/to/main  # and whether another checkout reads each sample the same

For each file of tests/data/written in the code page its country's Excel saves (Russian and Ukrainian in 1251,
Greek 1253, Turkish 1254, Czech, Hungarian and Polish 1250, the Western files 1252, Arabic 1256, Hebrew 1255, Thai
874, Lithuanian 1257, Vietnamese 1258, written as Windows writes it: a tone the page has no letter for as a combining mark), it takes
300 random runs of 1 to 8 of its lines (seeded), encodes each in that page, and counts the samples read in the
right page (``textio._windows_text``) and, with ``--against``, those the other checkout reads the same. A sample
that is pure ASCII, or valid UTF-8, never reaches the guess and is left out.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRITTEN = ROOT / "tests" / "data" / "written"
PAGES = {
    "cp1251": ["kosmetika_bitrix_ru.csv", "chai_opencart_uk.csv", "rozi_woocommerce_bg.csv"], "cp1253": ["meli_woocommerce_el.csv"],
    "cp1254": ["havlu_ikas_tr.csv"],
    "cp1250": ["hrnky_prestashop_cs.csv", "paprika_unas_hu.csv", "posciel_prestashop_pl.csv", "cajovna_shoptet_sk.csv"],
    "cp1252": ["caffe_magento_it.csv", "jabones_woocommerce_es.csv", "cafe_loja_pt.csv", "shop_faq_fr.md",
               "shop_terms_de.md", "friluft_woocommerce_sv.csv", "strik_shopify_da.csv", "toimitus_ukk_fi.md",
               "envios_faq_es.md"],
    "cp1256": ["qahwa_salla_ar.csv"], "cp1255": ["nerot_konimbo_he.csv"], "cp874": ["chathai_shopee_th.csv"],
    "cp1258": ["caphe_haravan_vi.csv"], "cp1257": ["medus_eparduotuve_lt.csv", "metsatee_woocommerce_et.csv"],
}
SAMPLES = 300


def textio_of(root: Path, name: str):
    """The ``textio`` module of the checkout at ``root``, loaded under its own name."""
    spec = importlib.util.spec_from_file_location(name, root / "workbench" / "read" / "textio.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(root))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout (main) to compare the readings with")
    args = parser.parse_args()
    here = textio_of(ROOT, "textio_here")
    other = textio_of(args.against, "textio_other") if args.against else None
    rng = random.Random(42)
    print("| page | file | samples | right page | same as the other checkout |")
    print("|---|---|---:|---:|---:|")
    for page, files in PAGES.items():
        for name in files:
            text = here.decode_text((WRITTEN / name).read_bytes(), name)[0]
            lines = [line for line in text.split("\n") if line.strip()]
            counted = right = same = 0
            for _ in range(SAMPLES):
                size = rng.randint(1, min(8, len(lines)))
                start = rng.randrange(0, len(lines) - size + 1)
                sample = "\n".join(lines[start : start + size])
                if page == "cp1258":
                    sample = here.windows_1258_form(sample)
                try:
                    data = sample.encode(page)
                except UnicodeEncodeError:
                    continue
                try:
                    data.decode("utf-8")
                    continue
                except UnicodeDecodeError:
                    pass
                encoding = here._windows_text(data)[1]
                counted += 1
                right += here.codec(encoding).replace("windows-", "cp") == page
                if other is not None:
                    same += other._windows_text(data)[1] == encoding
            print(f"| {page} | {name} | {counted} | {right} | {same if other is not None else '-'} |")


if __name__ == "__main__":
    main()
