"""Issue 13's hostile and unlucky cases, tried for real: each built in a temporary folder and run through the
command line as a user would, with its exit status, its first line of output, the wall time and the peak memory.

    python bench/hostile.py            # prints a Markdown table (the 1 GiB bomb takes ~10 s to build)
"""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hostile import SHEET, rewrite_part, workbook_bytes, xlsx_bomb  # noqa: E402

SAMPLE_MD = ROOT / "sample_data" / "breezy_home_price_list.md"
SAMPLE_Q = ROOT / "sample_data" / "breezy_home_questions.csv"


def run(args: list[str], env: dict | None = None, timeout: float = 600) -> tuple[int, str, float, float]:
    """Exit status, the last line it printed on stderr (else the first on stdout), seconds, peak MB."""
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "workbench", *args], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    out, err = process.communicate(timeout=timeout)
    _, status, usage = os.wait4(process.pid, 0) if process.returncode is None else (0, 0, None)
    seconds = time.perf_counter() - began
    peak = (usage.ru_maxrss / 1024) if usage else float("nan")
    warned = [line for line in out.splitlines() if line.startswith("warning:")]
    lines = [line for line in err.splitlines() if line.strip()] or warned or out.splitlines()[:1] or [""]
    return process.returncode, lines[-1][:160], seconds, peak


def peak_of_children() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="wb-hostile-"))
    env = {"WORKBENCH_HISTORY_DB": str(folder / "history.sqlite"), "WORKBENCH_EMBEDDING_CACHE": str(folder / "e.sqlite")}
    rows = []

    def case(name: str, args: list[str], extra_env: dict | None = None) -> None:
        before = peak_of_children()
        code, line, seconds, _ = run(args, {**env, **(extra_env or {})})
        peak = peak_of_children()
        peak_text = f"{peak:,.0f}" if peak > before else f"≤ {before:,.0f}"
        rows.append((name, code, f"{seconds:.1f}", peak_text, line.replace("|", "/")))

    began = time.perf_counter()
    bomb = xlsx_bomb(folder / "bomb.xlsx", 1 << 30)
    print(f"built a {bomb.stat().st_size / 1e6:.2f} MB .xlsx whose one cell unpacks to 1 GiB "
          f"in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    case("1 MB .xlsx, one cell unpacking to 1 GiB (audit)", ["audit", str(bomb)])

    products = [["name", "price"], *[[f"Product {i}", 10 * i] for i in range(1, 11)]]
    import re

    wrong = folder / "dimension.xlsx"
    wrong.write_bytes(rewrite_part(workbook_bytes(products), SHEET,
                                   lambda xml: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:B2"', xml)))
    (folder / "q10.csv").write_text("question,expected_source,expected_answer\nPrice of the tenth?,Product 10,price: 100\n")
    case("10 products, <dimension> says A1:B2 (evaluate a question on product 10)",
         ["evaluate", str(wrong), "--questions", str(folder / "q10.csv"), "--strategies", "heading"])
    formulas = folder / "formulas.xlsx"
    formulas.write_bytes(workbook_bytes([["name", "price", "with tax"],
                                         *[[f"P{i}", i, f"=B{i + 1}*1.2"] for i in range(1, 5)]]))
    (folder / "q.csv").write_text("question,expected_source,expected_answer\nPrice of P1?,P1,price: 1\n")
    case("formulas saved without values (evaluate)", ["evaluate", str(formulas), "--questions", str(folder / "q.csv"),
                                                      "--strategies", "heading"])
    try:
        from msoffcrypto.format.ooxml import OOXMLFile

        locked = io.BytesIO()
        OOXMLFile(io.BytesIO(workbook_bytes(products))).encrypt("secret", locked)
        (folder / "locked.xlsx").write_bytes(locked.getvalue())
        case("password-protected .xlsx", ["audit", str(folder / "locked.xlsx")])
    except ImportError:
        rows.append(("password-protected .xlsx", "-", "-", "-", "msoffcrypto-tool not installed"))
    truncated = folder / "truncated.xlsx"
    truncated.write_bytes(rewrite_part(workbook_bytes(products), SHEET, lambda xml: xml[: len(xml) // 2]))
    case("truncated sheet XML", ["audit", str(truncated)])
    fifo = folder / "pipe.md"
    os.mkfifo(fifo)
    case("a FIFO named .md", ["audit", str(fifo)])
    mem = folder / "unreadable.md"
    mem.symlink_to("/proc/self/mem")
    case("a file whose read fails (EIO)", ["audit", str(mem)])
    big_q = folder / "bigq.csv"
    big_q.write_text("question,expected_source,expected_answer\n" + "x" * 1_000_000 + ",A,B\n")
    case("1 MB question cell", ["evaluate", str(SAMPLE_MD), "--questions", str(big_q)])
    config = folder / "ce"
    config.mkdir()
    (config / "config.json").write_text("[1, 2]")
    case("cross-encoder config.json is a list", ["evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_Q),
                                                 "--rerankers", "cross-encoder", "--reranker-model", str(config)])
    base = ["evaluate", str(SAMPLE_MD), "--questions", str(SAMPLE_Q), "--strategies", "fixed,heading"]
    case("--threshold nan", [*base, "--threshold", "nan"])
    case("--fail-below clean=nan", [*base, "--fail-below", "clean=nan"])
    case("--out in a missing folder (checked first)", [*base, "--out", str(folder / "nope" / "x.csv")])
    none = folder / "none.csv"
    none.write_text("question,expected_source,expected_answer\nA?,Nothing,1\nB?,Nowhere,2\n")
    case("every question row left out", ["evaluate", str(SAMPLE_MD), "--questions", str(none)])
    history = folder / "damaged-history.sqlite"
    run([*base, "--db", str(history)], env)
    sqlite3.connect(history).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    data = bytearray(history.read_bytes())
    data[4096:] = b"\xa5" * (len(data) - 4096)
    history.write_bytes(bytes(data))
    out = folder / "out.csv"
    case("damaged history (bad pages), --out out.csv", [*base, "--db", str(history), "--format", "csv",
                                                          "--out", str(out)])
    rows[-1] = (*rows[-1][:4], rows[-1][4] + f" [out.csv written: {out.exists()}]")
    cache_dir = folder / "cache-folder"
    cache_dir.mkdir()
    case("embedding cache path is a folder (dense)", [*base, "--retrievers", "dense", "--no-history"],
         {"WORKBENCH_EMBEDDING_CACHE": str(cache_dir)})

    print("| case | exit | seconds | peak MB | what the user sees (last line) |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")


if __name__ == "__main__":
    main()
