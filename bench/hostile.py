"""Issue 13's and 23's hostile and unlucky cases, tried for real: each built in a temporary folder and run through the
command line as a user would, with its exit status, its first line of output, the wall time and the peak memory.
Then each pattern that reads user text, fed its 1 MB adversarial line (tests/test_linear_patterns.py), timed.

    python bench/hostile.py            # prints two Markdown tables (the 1 GiB bombs take ~20 s to build)
    python bench/hostile.py patterns   # only the patterns' table
    python bench/hostile.py reading    # only issue 36's files read as meant (a row's width, stray cells, formulas, feeds)
    python bench/hostile.py readers    # only issue 35's and 37's readers: East Asian and Windows pages, titles, bold, HTML
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

from tests.hostile import (  # noqa: E402
    SHEET,
    big5_questions,
    bold_lines,
    distinct_strings_xlsx,
    docx_bomb,
    hangul_pairs,
    html_cell_csv,
    html_page,
    long_csv,
    pdf_bomb,
    rewrite_part,
    shift_jis_looking,
    titles_then_header,
    wide_csv,
    workbook_bytes,
    xlsx_bomb,
)

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


def reading_cases(folder: Path, case) -> None:
    """Issue 36: files read as the user meant them, and a row bounded to a sheet's width."""
    import json

    import openpyxl

    case("CSV, one row of a million cells (audit)", ["audit", str(wide_csv(folder / "row.csv", 1_000_000, rows=1))])
    case("CSV, 16,384 columns (a sheet's width) x 3 rows (audit)", ["audit", str(wide_csv(folder / "xfd.csv", 16_384))])
    workbook = openpyxl.Workbook()
    for row in [["name", "price", "colour", "sku", "stock"], *[[f"P{i}", i, "red", f"S{i}", i] for i in range(1, 5)]]:
        workbook.active.append(row)
    workbook.active["XFD1048576"] = "x"
    workbook.save(folder / "stray.xlsx")
    case("4 products and a stray cell at XFD1048576 (audit)", ["audit", str(folder / "stray.xlsx")])
    formulas = folder / "formulas2.xlsx"
    formulas.write_bytes(workbook_bytes([["name", "price", "colour"], ["Fan", 19, "white"], ["Tower", "=B2*2", "black"],
                                         ["Heater", "=B2+5", "grey"], ["Lamp", 12, "red"]]))
    (folder / "q2.csv").write_text("question,expected_source,expected_answer\nPrice of the Lamp?,Lamp,12\n")
    case("2 formulas saved without values in the price column (evaluate)",
         ["evaluate", str(formulas), "--questions", str(folder / "q2.csv"), "--strategies", "heading", "--no-history"])
    feed = folder / "feed.json"
    feed.write_text(json.dumps({"categories": [{"name": "Fans"}, {"name": "Heaters"}],
                                "products": [{"name": "Fan", "price": 19}, {"name": "Lamp", "price": 12}]}))
    case("JSON feed, categories before products (audit)", ["audit", str(feed)])


def readers_cases(folder: Path, case) -> None:
    """Issues 35 and 37: the readers added for other languages' files, each on what could make it slow or large."""
    import openpyxl

    from workbench.core.limits import MAX_BYTES

    case("50 MB text, its first 64 KB Shift_JIS, the rest undecodable (audit)",
         ["audit", str(shift_jis_looking(folder / "sjis.txt", MAX_BYTES))])
    case("10 million Hangul syllables in EUC-KR, one line (audit)", ["audit", str(hangul_pairs(folder / "ko1.txt", 10**7))])
    case("10 million Hangul syllables in EUC-KR, 50 a line (audit)",
         ["audit", str(hangul_pairs(folder / "ko50.txt", 10**7, 50))])
    windows = (folder / "ru.txt", "Цена чая ", "cp1251"), (folder / "ar.txt", "السعر الشاي ", "cp1256"), \
        (folder / "th.txt", "ราคาชาไทย ", "cp874"), (folder / "lt.txt", "Arbatos kaina ąčęėįšųūž ", "cp1257")
    for path, words, page in windows:
        path.write_bytes((words * (10 * (1 << 20) // len(words.encode(page)))).encode(page))
        case(f"10 MB of one line in {page} (audit)", ["audit", str(path)])
    titles = titles_then_header(folder / "titles.csv", 100_000)
    case("100,000 title rows above the header, CSV (audit)", ["audit", str(titles)])
    sheet = openpyxl.Workbook(write_only=True)
    rows = sheet.create_sheet("Publicaciones")
    for number in range(100_000):
        rows.append([f"Mis publicaciones - hoja {number}"])
    rows.append(["Título", "Precio", "Stock"])
    rows.append(["Mate", 10, 5])
    sheet.save(folder / "titles.xlsx")
    case("100,000 title rows above the header, .xlsx (audit)", ["audit", str(folder / "titles.xlsx")])
    faq = bold_lines(folder / "bold.md", 1 << 20)
    case("1 MB of bold question lines (audit)", ["audit", str(faq)])
    (folder / "faq_q.csv").write_text("question,expected_source,expected_answer\n"
                                      "¿Cuánto cuesta el envío 7?,¿Cuánto cuesta el envío 7?,7 euros\n", encoding="utf-8")
    case("1 MB of bold question lines (evaluate heading, keyword)",
         ["evaluate", str(faq), "--questions", str(folder / "faq_q.csv"), "--strategies", "heading", "--retrievers",
          "keyword", "--rerankers", "none", "--no-history"])
    cell = html_cell_csv(folder / "cell.csv", 5 << 20)
    case("5 MB HTML cell, 1,000 nested tags, entities (audit)", ["audit", str(cell)])
    (folder / "cell_q.csv").write_text("question,expected_source,expected_answer\nPrecio del té?,Té verde,12\n",
                                       encoding="utf-8")
    case("5 MB HTML cell (evaluate heading, keyword)",
         ["evaluate", str(cell), "--questions", str(folder / "cell_q.csv"), "--strategies", "heading", "--retrievers",
          "keyword", "--rerankers", "none", "--no-history"])
    case("50,000-row questions CSV in Big5 (evaluate)",
         ["evaluate", str(SAMPLE_MD), "--questions", str(big5_questions(folder / "big5q.csv", 50_000)), "--no-history"])
    case("10,000-row questions CSV in Big5 (evaluate heading, keyword)",
         ["evaluate", str(SAMPLE_MD), "--questions", str(big5_questions(folder / "big5q10k.csv", 10_000)),
          "--strategies", "heading", "--retrievers", "keyword", "--rerankers", "none", "--no-history"])


def main(only: str | None = None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="wb-hostile-"))
    env = {"WORKBENCH_HISTORY_DB": str(folder / "history.sqlite"), "WORKBENCH_EMBEDDING_CACHE": str(folder / "e.sqlite")}
    rows = []

    def case(name: str, args: list[str], extra_env: dict | None = None) -> None:
        before = peak_of_children()
        code, line, seconds, _ = run(args, {**env, **(extra_env or {})})
        peak = peak_of_children()
        peak_text = f"{peak:,.0f}" if peak > before else f"≤ {before:,.0f}"
        rows.append((name, code, f"{seconds:.1f}", peak_text, line.replace("|", "/")))
        print(" | ".join(str(cell) for cell in rows[-1]), file=sys.stderr, flush=True)  # a long run's progress

    if only in ("reading", "readers"):
        (reading_cases if only == "reading" else readers_cases)(folder, case)
        _table(rows)
        return
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

    # Issue 23: bombs and floods, each refused or read within the budget.
    case(".docx whose word/document.xml unpacks to 200 MB", ["audit", str(docx_bomb(folder / "bomb.docx", 200 << 20))])
    case("PDF with a 1 GB flate stream", ["audit", str(pdf_bomb(folder / "bomb.pdf", 1 << 30))])
    case("20 MB web page", ["audit", str(html_page(folder / "big.html", 20))])
    case("XLSX of 400,000 rows x 10 distinct strings", ["audit", str(distinct_strings_xlsx(folder / "d.xlsx", 400_000))])
    long_rows = long_csv(folder / "long.csv", 200_000)
    case("200,000-row CSV (audit)", ["audit", str(long_rows)])
    (folder / "longq.csv").write_text("question,expected_source,expected_answer\nPrice of Product 5?,Product 5,5.50\n")
    case("200,000-row CSV (evaluate heading,fixed)", ["evaluate", str(long_rows), "--questions", str(folder / "longq.csv"),
                                                      "--strategies", "heading,fixed", "--no-history"])
    case("200,000-row CSV (evaluate heading,fixed --format json)",
         ["evaluate", str(long_rows), "--questions", str(folder / "longq.csv"), "--strategies", "heading,fixed",
          "--retrievers", "keyword", "--rerankers", "none", "--no-history", "--format", "json"])
    case("200,000-row CSV (evaluate, every cut: past the run budget)",
         ["evaluate", str(long_rows), "--questions", str(folder / "longq.csv"), "--no-history"])
    many = folder / "manyq.csv"
    many.write_text("question,expected_source,expected_answer\n" + "What is the price?,Zephyr Table Fan,39.90\n" * 100_000)
    case("100,000-row questions CSV", ["evaluate", str(SAMPLE_MD), "--questions", str(many)])
    damaged = folder / "nul.csv"  # issue 37: a stray zero byte past the first 8 KB was read into a product's text
    rows_text = "".join(f"Fan {n},{n}.00,Wipe with a dry cloth.\n" for n in range(400)).encode()
    damaged.write_bytes(b"Name,Price,Care\n" + rows_text[:9_000] + b"\x00" + rows_text[9_000:])
    case("CSV with one NUL byte at 9 KB (audit)", ["audit", str(damaged)])
    import openpyxl

    shelves = openpyxl.Workbook()
    shelves.remove(shelves.active)
    for number in range(50):
        shelves.create_sheet(f"S{number}").append(["Name", "Price"])
        shelves[f"S{number}"].append([f"Fan {number}", number])
    shelves.save(folder / "shelves.xlsx")
    case("XLSX of 50 product sheets (audit: the 49 not read are named)", ["audit", str(folder / "shelves.xlsx")])
    case("--top-k 1000000000000", [*base, "--top-k", "1000000000000"])
    case("--overlap -1", [*base, "--overlap", "-1"])
    case("--threshold 2", [*base, "--threshold", "2"])
    case("--out is the questions file", [*base, "--out", str(SAMPLE_Q)])
    heads = folder / "headings.md"
    heads.write_text("# A\n## B\n### C\n")
    case("Markdown of headings only (evaluate)", ["evaluate", str(heads), "--questions", str(folder / "q.csv")])
    fifo_out = folder / "out.fifo"
    os.mkfifo(fifo_out)
    case("--out a FIFO with no reader", ["audit", str(SAMPLE_MD), "--out", str(fifo_out)])
    own = folder / "my_prices.xlsx"
    own.write_bytes(workbook_bytes(products))
    case("WORKBENCH_EMBEDDING_CACHE names the user's .xlsx (dense)", [*base, "--retrievers", "dense", "--no-history"],
         {"WORKBENCH_EMBEDDING_CACHE": str(own)})
    case("--db /dev/null", [*base, "--db", "/dev/null"])
    reading_cases(folder, case)
    readers_cases(folder, case)
    _table(rows)


def _table(rows: list[tuple]) -> None:
    print("| case | exit | seconds | peak MB | what the user sees (last line) |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")


PATTERN_CASES = {
    "heading: '#', 1 MB of spaces, 'x'": ("atx", "'#' + ' ' * MB + 'x'"),
    "heading: '# a', 1 MB of tabs, 'x'": ("atx", "'# a' + '\\t' * MB + 'x'"),
    "heading text: 1 MB of '<'": ("tags", "'<' * MB"),
    "check-up images: 1 MB of '!['": ("images", "'![' * (MB // 2)"),
    "check-up images: 1 MB of '![a]('": ("images", "'![a](' * (MB // 5)"),
    "check-up images: 1 MB of '<img '": ("images", "'<img ' * (MB // 5)"),
    "Markdown file: '# ' and 1 MB of '<'": ("parse", "'# ' + '<' * MB"),
    "LangChain 1,000: a list indented 600 deep": ("nested", "''"),
    "injection (part B's): 1 MB of '<a '": ("script", "'<a ' * (MB // 3)"),
    "bold line: '**a**', 1 MB of spaces, 'x'": ("parse", "'\\n**a**' + ' ' * MB + 'x'"),
    "bold line: '**' and 1 MB of 'a'": ("parse", "'\\n**' + 'a' * MB"),
    "HTML cell: 1 MB of '<div '": ("html", "'<div ' * (MB // 5)"),
    "HTML cell: 1 MB of nested '<p><b>&amp;'": ("page", "'<p><b>&amp;' * (MB // 11)"),
}
PATTERN_CALLS = {
    "atx": "from workbench.read.markdown import atx_heading as run",
    "tags": "from workbench.read.markdown import clean_heading as run",
    "images": "from workbench.advise.risky import IMAGE\nrun = lambda line: list(IMAGE.finditer(line))",
    "parse": "from workbench.read.markdown import parse_markdown\nrun = lambda text: parse_markdown(text, 'x.md')",
    "nested": "from workbench.read.markdown import parse_markdown\nfrom workbench.cut import chunk_document\n"
    "text = '# T\\n' + ''.join('  ' * i + f'- item {i}\\n' for i in range(600))\n"
    "run = lambda _: chunk_document(parse_markdown(text, 'n.md'), 'langchain-recursive-1000', None)",
    "script": "from workbench.advise.injection import SCRIPT\nrun = lambda line: list(SCRIPT.finditer(line))",
    "html": "from workbench.read.data_columns import HTML\nrun = lambda line: list(HTML.finditer(line))",
    "page": "from workbench.read.table import page_text as run",
}


def patterns(timeout: float = 120) -> None:
    """Each pattern on its adversarial input in a fresh interpreter: seconds for the call alone, and peak MB."""
    print("| adversarial input | seconds | peak MB |")
    print("| --- | --- | --- |")
    for name, (call, line) in PATTERN_CASES.items():
        script = (f"import resource, time\nMB = 1 << 20\n{PATTERN_CALLS[call]}\nline = {line}\n"
                  "began = time.perf_counter()\nrun(line)\n"
                  "print(f'{time.perf_counter() - began:.3f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}')")
        try:
            done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                                  timeout=timeout, check=True)
            seconds, peak = done.stdout.split()
        except subprocess.TimeoutExpired:
            seconds, peak = f"> {timeout:.0f} (stopped)", "-"
        print(f"| {name} | {seconds} | {peak} |")


if __name__ == "__main__":
    if sys.argv[1:] == ["patterns"]:
        patterns()
    elif sys.argv[1:] in (["reading"], ["readers"]):
        main(sys.argv[1])
    else:
        main()
        print()
        patterns()
