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
