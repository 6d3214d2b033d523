"""The memory benchmark's German export (``bench/memory.py --scale``): a real shop's products repeated under new
names, read by E5, and where the model budget's limit stands on it today: a 1 MB German export passes the check
under the four default cuts, a bigger one is refused before the model loads, naming the limit. The limit is
MiniLM's (BENCHMARKS.md, "A German export read by E5": 300 of these products peaked at 1,052 MB cold under E5),
so a limit of E5's own must change these figures knowingly."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from bench.memory import scaled_export
from workbench.core import limits
from workbench.core.model import WorkbenchError
from workbench.encode.multilingual import E5Encoder, encoder_class, file_language
from workbench.read.loaders import load_bytes
from workbench.run import defaults

GERMAN = Path(__file__).resolve().parent / "data" / "real" / "bagisto_winter_products_de.csv"


def rows_of(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"))))


def test_the_scaled_export_keeps_the_file_first_and_names_every_copy_anew():
    original = rows_of(GERMAN.read_bytes())
    scaled = rows_of(scaled_export(GERMAN.read_bytes(), 25))
    assert len(original) == 12 and len(scaled) == 26  # the header and 11 products; the header and 25
    assert scaled[:12] == original  # copy 0 is the file itself: its questions ask about it
    names = [row[2] for row in scaled[1:]]
    assert len(set(names)) == 25
    assert names[11] == "Arctic Cozy Knit Unisex Beanie 2" and names[22] == "Arctic Cozy Knit Unisex Beanie 3"
    assert scaled[12][0] == "SP-001-2"
    # Its description's sentences in another order (and the new name where it says the whole name): new text to
    # the model, not the first copy's read again from memory.
    sentences = re.split(r"(?<=[.!?])\s+", original[1][4])
    shuffled = re.split(r"(?<=[.!?])\s+", scaled[12][4])
    assert shuffled != sentences and sorted(shuffled) == sorted(sentences) and len(sentences) == 12
    gloves = [row[4] for row in scaled if row[2] == "Arctic Touchscreen Winterhandschuhe 2"][0]
    assert "die Arctic Touchscreen Winterhandschuhe 2 –" in gloves


def test_a_one_megabyte_german_export_is_read_by_e5_within_the_limit_and_a_bigger_one_is_refused():
    data = scaled_export(GERMAN.read_bytes(), 460)
    assert 990_000 < len(data) < 1_000_000  # 998,982 bytes: "under 1 MB"
    document = load_bytes(data, "winter_de.csv")
    assert encoder_class(file_language(document)) is E5Encoder
    cuts = list(defaults.DEFAULTS.strategies)
    text = len(document.text)  # 1,020,281 characters, 4,081,124 read under the four cuts
    assert len(cuts) == 4 and 4 * text <= limits.MAX_MODEL_CHARACTERS
    limits.check_model_run("winter_de.csv", text, cuts, choose=lambda fit, example: "")  # not refused
    bigger = len(load_bytes(scaled_export(GERMAN.read_bytes(), 620), "winter_de.csv").text)  # 1,374,807
    with pytest.raises(WorkbenchError) as refusal:
        limits.check_model_run("winter_de.csv", bigger, cuts, choose=lambda fit, example: f"keep {fit} cuts")
    assert (f"cut 4 ways that is {4 * bigger:,} characters, and a run with meaning-based search reads at most "
            f"{limits.MAX_MODEL_CHARACTERS:,} characters") in str(refusal.value)
    assert str(refusal.value).endswith("keep 3 cuts")  # 5,400,000 // 1,374,807 = 3
