"""Hostile and damaged files, built for real in a temporary folder (shared by the tests and bench/hostile.py)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import openpyxl


def workbook_bytes(rows: list[list[object]]) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Products"
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def rewrite_part(data: bytes, part: str, change) -> bytes:
    """The same .xlsx with one part's bytes passed through ``change``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            target.writestr(info.filename, change(content) if info.filename == part else content)
    return out.getvalue()


SHEET = "xl/worksheets/sheet1.xml"


def xlsx_bomb(path: Path, unpacked: int) -> Path:
    """A real .xlsx whose one cell holds ``unpacked`` bytes of text: 1 GiB packs into about 1 MB."""
    base = workbook_bytes([["name", "notes"], ["Fan", "PLACEHOLDER"]])
    with zipfile.ZipFile(io.BytesIO(base)) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename != SHEET:
                target.writestr(info.filename, content)
                continue
            head, tail = re.split(rb'<c r="B2"[^>]*>.*?</c>', content, maxsplit=1)
            with target.open(SHEET, "w", force_zip64=True) as part:
                part.write(head + b'<c r="B2" t="inlineStr"><is><t>')
                block = b"A" * (1 << 20)
                for _ in range(unpacked // len(block)):
                    part.write(block)
                part.write(b"</t></is></c>" + tail)
    return path


def html_page(path: Path, megabytes: int) -> Path:
    """A plain web page of ``megabytes`` MB: one product section after another."""
    block = "".join(f"<h2>Product {i}</h2><p>Price: {i}.00. Warranty: 2 years.</p>\n" for i in range(1000))
    with open(path, "w", encoding="utf-8") as out:
        out.write("<html><body><h1>Catalog</h1>\n")
        for _ in range(megabytes * (1 << 20) // len(block)):
            out.write(block)
        out.write("</body></html>\n")
    return path


def distinct_strings_xlsx(path: Path, rows: int, columns: int = 10) -> Path:
    """A workbook whose every cell is a different string (shared strings: one table entry per cell)."""
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("Products")
    sheet.append(["name", *[f"field {c}" for c in range(1, columns)]])
    for row in range(rows):
        sheet.append([f"Product {row}", *[f"value {row}-{c}" for c in range(1, columns)]])
    workbook.save(path)
    return path


def wide_csv(path: Path, columns: int, rows: int = 3) -> Path:
    """A CSV whose header has ``columns`` named columns, then a few short rows."""
    with open(path, "w", encoding="utf-8") as out:
        out.write("name," + ",".join(f"c{i}" for i in range(columns - 1)) + "\n")
        for row in range(rows):
            out.write(f"Product {row},1\n")
    return path


def long_csv(path: Path, rows: int) -> Path:
    with open(path, "w", encoding="utf-8") as out:
        out.write("name,price,colour,warranty\n")
        for row in range(rows):
            out.write(f"Product {row},{row % 97}.50,{('red', 'blue', 'green')[row % 3]},{row % 4} years\n")
    return path


def docx_bomb(path: Path, unpacked: int) -> Path:
    """A real .docx whose word/document.xml holds one paragraph of ``unpacked`` bytes."""
    import docx

    document = docx.Document()
    document.add_paragraph("PLACEHOLDER")
    base = io.BytesIO()
    document.save(base)
    with zipfile.ZipFile(base) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename != "word/document.xml":
                target.writestr(info.filename, content)
                continue
            head, tail = content.split(b"PLACEHOLDER", 1)
            with target.open(info.filename, "w", force_zip64=True) as part:
                part.write(head)
                block = b"A" * (1 << 20)
                for _ in range(unpacked // len(block)):
                    part.write(block)
                part.write(tail)
    return path


def pdf_bomb(path: Path, unpacked: int) -> Path:
    """A one-page PDF whose content stream inflates to ``unpacked`` bytes (of spaces, after one line of text)."""
    import zlib

    packer = zlib.compressobj(9)
    stream = packer.compress(b"BT /F1 12 Tf 72 720 Td (Zephyr Table Fan) Tj ET\n")
    block = b" " * (1 << 20)
    for _ in range(unpacked // len(block)):
        stream += packer.compress(block)
    stream += packer.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


# Issue 35's and 37's readers, each fed what could make it slow or large (bench/hostile.py's "readers" table).
JAPANESE_ROW = "商品名は抹茶です。価格は千二百円、送料は無料です。\n"


def shift_jis_looking(path: Path, size: int) -> Path:
    """A text file whose first 64 KB read as Shift_JIS (cp932) Japanese and whose rest, to ``size`` bytes, is bytes
    no East Asian page decodes (each a U+FFFD once read)."""
    head = (JAPANESE_ROW * (65_536 // len(JAPANESE_ROW.encode("cp932")) + 1)).encode("cp932")[:65_536]
    head = head[: head.rfind(b"\n") + 1]
    with open(path, "wb") as out:
        out.write(head)
        block = bytes([0x80, 0xA0, 0xFD, 0xFE, 0xFF]) * 100 + b"\n"  # undefined in cp932 (0x80, 0xA0, 0xFD-0xFF)
        for _ in range((size - len(head)) // len(block)):
            out.write(block)
    return path


def hangul_pairs(path: Path, pairs: int, line: int = 0) -> Path:
    """``pairs`` Hangul syllables in EUC-KR (cp949), two bytes each; one line unless ``line`` syllables a line."""
    syllables = "가격배송상품교환"
    with open(path, "wb") as out:
        written = 0
        while written < pairs:
            count = min(line or 100_000, pairs - written)
            chunk = (syllables * (count // len(syllables) + 1))[:count]
            out.write(chunk.encode("cp949") + (b"\n" if line else b""))
            written += count
    return path


def titles_then_header(path: Path, titles: int, delimiter: str = ";") -> Path:
    """A CSV of ``titles`` title-like rows (one cell each), then a header and three products below them."""
    with open(path, "w", encoding="utf-8") as out:
        for number in range(titles):
            out.write(f"Mis publicaciones - Exportado el 07/12/2026 - hoja {number}\n")
        out.write(delimiter.join(["Título", "Precio", "Stock"]) + "\n")
        for number in range(3):
            out.write(delimiter.join([f"Mate {number}", f"{number + 10}", "5"]) + "\n")
    return path


def bold_lines(path: Path, size: int) -> Path:
    """A Markdown FAQ of ``size`` bytes written with bold lines only: "**Question n?**", a blank line, an answer."""
    with open(path, "w", encoding="utf-8") as out:
        out.write("# Preguntas\n\n")
        written, number = 0, 0
        while written < size:
            block = f"**¿Cuánto cuesta el envío {number}?**\n\nEl envío {number} cuesta {number % 90} euros.\n\n"
            out.write(block)
            written += len(block.encode("utf-8"))
            number += 1
    return path


def html_cell_csv(path: Path, size: int, depth: int = 1000) -> Path:
    """A CSV of one product whose description is a ``size``-character HTML cell: ``depth`` nested tags opened and
    closed again and again, paragraphs, entities ("&nbsp;", "&amp;", "&#x20AC;") and WooCommerce's literal "\\n"."""
    nest = "".join(f'<div class="l{level}"><span>' for level in range(depth))
    close = "</span></div>" * depth
    block = nest + "<p>Té verde&nbsp;100&#x20AC; &amp; más\\n</p>" + close
    cell = block * (size // len(block) + 1)
    with open(path, "w", encoding="utf-8") as out:
        out.write('name,price,description\nTé verde,12,"' + cell[:size].replace('"', '""') + '"\n')
    return path


def big5_questions(path: Path, rows: int) -> Path:
    """A questions CSV of ``rows`` rows in Big5 (cp950)."""
    text = "question,expected_source,expected_answer\n" + "".join(
        f"這個產品的價格是多少 {number}？,商品 {number},{number} 元\n" for number in range(rows))
    path.write_bytes(text.encode("cp950"))
    return path
