"""Word, web pages and PDF: converted to Markdown with markitdown, then read as Markdown.

The converted text is the document: every offset points into it, and the Document page
shows it. Each format loses something on the way, and ``NOTES`` says what in plain words.
markitdown (and the PDF, Word and HTML libraries under it) is imported only when such a
file is read: it takes seconds to import and the other loaders never need it.
"""

from __future__ import annotations

import html
import io
import re
from collections import Counter
from dataclasses import replace
from pathlib import PurePath
from statistics import median

from workbench.core import limits
from workbench.core.limits import MAX_CHARACTERS, MB, check_pdf_streams, check_zip, converted_too_big, too_big
from workbench.core.model import Document, WorkbenchError
from workbench.read.base import LOADERS, Loader
from workbench.read.markdown import parse_markdown
from workbench.read.textio import check_size

NOTES = {
    "docx": "Converted from Word to Markdown: headings come from Word's heading styles (Heading 1, 2, …), "
    "so text styled only as big or bold is not a heading; tables became Markdown tables; images, text "
    "boxes, headers, footers and comments were left out.",
    "html": "Converted from a web page to Markdown: headings come from the page's <h1>–<h6> tags; tables "
    "became Markdown tables; scripts and styles were dropped, images and links kept as Markdown; menus and "
    "footers, if the page has them, are read as text like the rest.",
    "pdf": "Converted from PDF to text: a PDF has no real headings, so they were guessed from larger or bold "
    "lines; tables may have flattened into lines of words, and columns, page headers and footers may run "
    "together. Check the converted text below.",
}
OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an encrypted Word file is an OLE2 container, not a zip


@LOADERS.register("converted")
class ConvertedLoader(Loader):
    """Reads ``.docx``, ``.html``/``.htm`` and ``.pdf`` by converting them to Markdown."""

    order = 40
    kind = "markdown"
    extensions = (".docx", ".html", ".htm", ".pdf")

    def load(self, data: bytes, name: str, **_options: object) -> Document:
        check_size(data, name)
        suffix = PurePath(name).suffix.lower()
        if suffix == ".docx":
            text, source = _docx(data, name), "docx"
        elif suffix == ".pdf":
            text, source = _pdf(data, name), "pdf"
        else:
            text, source = _html(data, name), "html"
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x0c", "\n").strip() + "\n"
        if len(text) > MAX_CHARACTERS:
            raise too_big(name, f"converts to {len(text):,} characters of text")
        if not re.search(r"\w", text):
            raise WorkbenchError(f"{name} holds no text to read once converted: it is empty or only images.")
        links = tuple(source_links(data.decode("utf-8", "replace"))) if source == "html" else ()
        return replace(parse_markdown(text, name), converted_from=source, risky_links=links)


def _docx(data: bytes, name: str) -> str:
    if data[:8] == OLE2:
        raise WorkbenchError(
            f"{name} is protected with a password (or is an old Word .doc file renamed), so it cannot be read. "
            "Open it in Word, remove the password (File > Info > Protect Document), save it as .docx, and upload it again."
        )
    if data[:2] != b"PK":
        raise WorkbenchError(f"{name} is not a Word file (.docx): it is damaged or something else renamed. "
                             "Open it in Word and save it again as .docx.")
    check_zip(data, name, limits.MAX_CONVERTED_BYTES)  # before anything is unpacked: mammoth holds ~20x a part
    from markitdown import StreamInfo
    from markitdown.converters import DocxConverter

    try:
        return DocxConverter().convert(io.BytesIO(data), StreamInfo(extension=".docx")).markdown
    except WorkbenchError:
        raise
    except Exception as error:  # mammoth and zipfile raise many kinds on a broken file; all mean the same here
        raise WorkbenchError(
            f"{name} cannot be read as a Word file: it is damaged ({type(error).__name__}: {str(error)[:120]}). "
            "Open it in Word and save it again as .docx."
        ) from None


def _html(data: bytes, name: str) -> str:
    if b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise WorkbenchError(f"{name} looks like a binary file, not a web page.")
    if len(data) > limits.MAX_CONVERTED_BYTES:  # BeautifulSoup and markdownify: 20 MB took 80 s and 1.6 GB
        raise converted_too_big(name, f"is {len(data) / MB:,.0f} MB")
    from markitdown import StreamInfo
    from markitdown.converters import HtmlConverter

    return HtmlConverter().convert(io.BytesIO(data), StreamInfo(extension=".html")).markdown


def _pdf(data: bytes, name: str) -> str:
    if not data.lstrip()[:5] == b"%PDF-":
        raise WorkbenchError(f"{name} is not a PDF: it does not start as one. Save or export it again as PDF.")
    check_pdf_streams(data, name)  # before pdfminer inflates anything whole
    import pdfplumber
    from markitdown import StreamInfo
    from markitdown.converters import PdfConverter
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            headings = guess_headings(pdf)
        text = PdfConverter().convert(io.BytesIO(data), StreamInfo(extension=".pdf")).markdown
    except Exception as error:  # pdfminer raises many kinds on a broken file; all mean the same here
        if _caused_by(error, PDFPasswordIncorrect):  # pdfplumber wraps pdfminer's own error
            raise WorkbenchError(
                f"{name} is protected with a password, so its text cannot be read. Open it, save a copy without "
                "the password (or print it to a new PDF), and upload that."
            ) from None
        raise WorkbenchError(
            f"{name} cannot be read as a PDF: it is damaged ({type(error).__name__}: {str(error)[:120]}). "
            "Export it again from the program that made it."
        ) from None
    if not re.search(r"\w", text or ""):
        raise WorkbenchError(
            f"{name} has no text to read: its pages are blank or only images (a scan or a photo). Run it through text "
            "recognition (OCR), or export the text from the program that made it."
        )
    return mark_headings(text, headings)


def _caused_by(error: BaseException, kind: type[BaseException]) -> bool:
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, kind) or any(isinstance(arg, kind) for arg in getattr(error, "args", ())):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def guess_headings(pdf) -> list[tuple[str, int]]:
    """(line text, level) of lines set larger than the body text, or bold and short, in page order.

    The body size is the size most characters are set in; each larger size (up to three) is a
    heading level, largest first; a short bold line at body size that does not end like a
    sentence is one level below those.
    """
    lines: list[tuple[str, float, bool]] = []
    sizes: Counter[float] = Counter()
    for page in pdf.pages:
        for line in page.extract_text_lines(return_chars=True):
            chars = [c for c in line["chars"] if c["text"].strip()]
            if not chars:
                continue
            size = round(median(c["size"] for c in chars), 1)
            bold = all("bold" in str(c.get("fontname", "")).lower() for c in chars)
            lines.append((_normal(line["text"]), size, bold))
            sizes[size] += len(chars)
        page.close()
    if not sizes:
        return []
    body = sizes.most_common(1)[0][0]
    larger = sorted({size for _, size, _ in lines if size >= body * 1.15}, reverse=True)[:3]
    levels = {size: number for number, size in enumerate(larger, start=1)}
    headings = []
    for text, size, bold in lines:
        if len(text) > 100 or not re.search(r"\w", text):
            continue
        if size in levels:
            headings.append((text, levels[size]))
        elif bold and size >= body and len(text) <= 80 and not text.endswith((".", ",", ";", ":")):
            headings.append((text, len(larger) + 1))
    return headings


def mark_headings(text: str, headings: list[tuple[str, int]], look_ahead: int = 200) -> str:
    """Prefix each guessed heading's line in ``text`` with ``#``s, matching them in order.

    A heading is looked for within the next ``look_ahead`` lines after the previous one found,
    so a repeated line (a product name in a table) is marked only where it was set as a heading.
    """
    lines = text.split("\n")
    position = 0
    for heading, level in headings:
        for index in range(position, min(position + look_ahead, len(lines))):
            if _normal(lines[index]) == heading:
                lines[index] = "#" * level + " " + lines[index].strip()
                position = index + 1
                break
    return "\n".join(lines)


# In a web page's source, before conversion drops them: attributes whose URL would run script or open a page.
SOURCE_LINK = re.compile(
    r"\b(?:href|src|action|formaction|xlink:href|srcdoc)\s{0,8}=\s{0,8}[\"']?[\s\x00-\x1f]{0,8}"
    r"(?:j[\s\x00-\x1f]{0,4}a[\s\x00-\x1f]{0,4}v[\s\x00-\x1f]{0,4}a[\s\x00-\x1f]{0,4}s[\s\x00-\x1f]{0,4}"
    r"c[\s\x00-\x1f]{0,4}r[\s\x00-\x1f]{0,4}i[\s\x00-\x1f]{0,4}p[\s\x00-\x1f]{0,4}t|vbscript|data)\s{0,4}:",
    re.IGNORECASE,
)

def source_links(source: str) -> list[str]:
    """The ``javascript:``, ``vbscript:`` and ``data:`` URLs in a web page's attributes (entities decoded),
    each shown as the attribute it sits in: a page converted to Markdown loses them, a browser runs them."""
    decoded = html.unescape(source) if "&" in source else source
    return [decoded[m.start() : m.end() + 40].split(">")[0] for m in SOURCE_LINK.finditer(decoded)]
