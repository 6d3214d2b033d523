"""Shop pages in five scripts the project reads (issue 35's prose probe): a Korean 배송/교환/반품 page whose headings
are bold lines, as a page pasted from a shop's rich-text editor keeps them, a Chinese 售后服务 page numbered 一、二、,
an Arabic returns policy, a Hebrew takanon with numbered headings and a Thai FAQ whose headings are questions."""

from __future__ import annotations

import pytest

from .conftest import ROOT

WRITTEN = ROOT / "tests" / "data" / "written"


@pytest.mark.parametrize(("name", "language", "sections"), [
    ("baesong_gyohwan_ko.md", "Korean", 9), ("shouhou_fuwu_zh.md", "Chinese", 9),
    ("istibdal_istirja_ar.md", "Arabic", 9), ("takanon_mishloachim_he.md", "Hebrew", 9),
    ("khamthamphoi_faq_th.md", "Thai", 9)])
def test_each_page_opens_in_its_language_with_a_section_per_heading(name, language, sections):
    from workbench.read.language import reading_sentence
    from workbench.read.loaders import load_bytes

    document = load_bytes((WRITTEN / name).read_bytes(), name)
    assert reading_sentence(document) == f"Written in {language}; read with {language} word rules."
    # The title's section holds no fact and is not counted on screen: 8 sections under it, 9 in all. The Korean
    # page's headings are bold lines: one section before main's bold-question rule (18dc624).
    assert len(document.sections) == sections
    assert all(len(section.facts) == 1 for section in document.sections[1:])
