"""Small real Word, web and PDF policy pages, made by the libraries that write those formats.

The same policy in each format: a title, three products under their own headings, a line
("Warranty: 1 year.") shared word for word by two of them, and a returns table.
"""

from __future__ import annotations

import io

TITLE = "Breezy Home warranty and returns"
INTRO = "These terms apply to every order from Breezy Home."
PRODUCTS = [
    ("Aurora Ceiling Fan", ["Warranty: 1 year.", "Returns: 30 days, unused, in the original box."]),
    ("Nimbus Air Purifier", ["Warranty: 3 years.", "Returns: 14 days, filter seal unbroken."]),
    ("Zephyr Table Fan", ["Warranty: 1 year.", "Returns: 30 days, unused, in the original box."]),
]
QUESTIONS = (
    "question,expected_source,expected_answer\n"
    "What is the warranty on the Aurora ceiling fan?,Aurora Ceiling Fan,Warranty: 1 year.\n"
    "What warranty does the Nimbus air purifier have?,Nimbus Air Purifier,Warranty: 3 years.\n"
    "How long is the warranty of the Zephyr table fan?,Zephyr Table Fan,Warranty: 1 year.\n"
    "What is the returns policy for the Nimbus air purifier?,Nimbus Air Purifier,"
    "\"Returns: 14 days, filter seal unbroken.\"\n"
    "Do you ship to Canada?,,\n"
)


def docx_bytes() -> bytes:
    import docx

    document = docx.Document()
    document.add_heading(TITLE, level=1)
    document.add_paragraph(INTRO)
    for name, lines in PRODUCTS:
        document.add_heading(name, level=2)
        for line in lines:
            document.add_paragraph(line)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def html_bytes() -> bytes:
    body = "".join(
        f"<h2>{name}</h2>" + "".join(f"<p>{line}</p>" for line in lines) for name, lines in PRODUCTS
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Policy</title>"
        "<style>h1 {color: red}</style><script>var tracking = 1;</script></head>"
        f"<body><h1>{TITLE}</h1><p>{INTRO}</p>{body}</body></html>"
    ).encode()


def pdf_bytes(*, password: str | None = None) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(text=TITLE, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.cell(text=INTRO, new_x="LMARGIN", new_y="NEXT")
    for name, lines in PRODUCTS:
        pdf.ln(4)
        pdf.set_font("Helvetica", "B", 14)
        pdf.cell(text=name, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)
        for line in lines:
            pdf.cell(text=line, new_x="LMARGIN", new_y="NEXT")
    if password:
        pdf.set_encryption(owner_password="owner-" + password, user_password=password)
    return bytes(pdf.output())


def image_only_pdf_bytes() -> bytes:
    """A one-page 'scan': a picture of text, with no text in the PDF."""
    from fpdf import FPDF
    from PIL import Image, ImageDraw

    picture = Image.new("RGB", (400, 100), "white")
    ImageDraw.Draw(picture).text((10, 40), "Warranty: 1 year.", fill="black")
    pdf = FPDF()
    pdf.add_page()
    pdf.image(picture, x=10, y=10, w=150)
    return bytes(pdf.output())
