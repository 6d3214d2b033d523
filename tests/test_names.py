"""Names as people type them: typographic quotes and dashes, attribute tags in headings, alternative sources."""

from __future__ import annotations

from workbench.core.model import BadQuestion, Question, Settings, make_chunk
from workbench.grade.grading import ChunkMap, grade
from workbench.read.loaders import load_bytes, parse_markdown
from workbench.read.resolve import fold, resolve
from workbench.run.evaluate import evaluate

CHAIRS = "# Chairs\n\n## Manager’s Desk Chair\nPrice: 120\nNote: the “Executive” model – ask in store.\n\n## Stool\nPrice: 40\n"
CHAIRS_DOC = parse_markdown(CHAIRS, "chairs.md")


def test_a_name_typed_with_a_keyboards_apostrophe_finds_the_typographic_one():
    resolved = resolve(CHAIRS_DOC, Question("How much is it?", "Manager's desk chair", "Price: 120"))
    assert not isinstance(resolved, BadQuestion), resolved.reason  # was: no product or section is called …
    assert CHAIRS[slice(*resolved.answer_spans[0])] == "Price: 120"


def test_an_answer_typed_with_plain_quotes_and_hyphen_matches_the_documents_curly_ones_at_their_true_offsets():
    resolved = resolve(CHAIRS_DOC, Question("q", "Manager’s Desk Chair", 'the "Executive" model - ask'))
    assert not isinstance(resolved, BadQuestion), resolved.reason
    assert CHAIRS[slice(*resolved.answer_spans[0])] == "the “Executive” model – ask"


def test_full_width_letters_fold_as_nfkc():
    assert fold("ＷｉＦｉ ６ — Manager’s") == "WiFi 6 - Manager's"
    doc = load_bytes("name,price\nＷｉＦｉ Router,59\n".encode(), "r.csv")
    assert resolve(doc, Question("q", "WiFi router", "59")).section_id is not None


def test_attribute_tags_leave_headings_but_the_heading_span_keeps_the_line():
    text = (
        "# Router {#top}\n\n## Wi-Fi standard {#wifi-standard .spec}\nSpeed: 1 Gbit.\n\n## Ports\n{: #ports}\nLAN: 4\n"
    )
    doc = parse_markdown(text, "router.md")
    wifi, ports = doc.sections[1], doc.sections[2]
    assert (wifi.heading, wifi.breadcrumb) == ("Wi-Fi standard", "Router > Wi-Fi standard")
    assert doc.slice(wifi.heading_span) == "## Wi-Fi standard {#wifi-standard .spec}"  # offsets still true
    assert [doc.slice(f.span) for f in ports.facts] == ["LAN: 4"]  # kramdown's attribute line is not a fact
    assert resolve(doc, Question("q", "Wi-Fi standard", "1 Gbit")).section_id == wifi.id
    # Braces that are not attributes stay: "Set {1} of {2}".
    assert parse_markdown("## Set {1} of {2}\nA\n", "s.md").sections[0].heading == "Set {1} of {2}"


TWO = "# Help\n\n## Wi-Fi\nReset: hold the button 10 s.\nBand: 5 GHz.\n\n## Network settings\nReset: hold the button 10 s.\n\n## Power\nPlug: USB-C.\n"
TWO_DOC = parse_markdown(TWO, "help.md")


def test_a_question_may_name_two_sources_and_a_piece_from_either_is_clean():
    question = Question("How do I reset it?", "Wi-Fi | Network settings", "Reset: hold the button 10 s.")
    resolved = resolve(TWO_DOC, question)
    assert not isinstance(resolved, BadQuestion), resolved.reason
    assert [TWO_DOC.section(s).heading for s in resolved.sources] == ["Wi-Fi", "Network settings"]
    assert len(resolved.answer_spans) == 2  # one in each
    sections = {s.heading: s for s in TWO_DOC.sections}
    pieces = [make_chunk(TWO_DOC, "t", i, [sections[h].span]) for i, h in enumerate(["Network settings", "Power"])]
    both = make_chunk(TWO_DOC, "t", 2, [(sections["Wi-Fi"].span[0], sections["Network settings"].span[1])])
    chunks = [*pieces, both]
    chunk_map = ChunkMap(TWO_DOC, chunks)
    # The second source's own piece on top: clean, not a decoy (its words are one of the answers).
    assert grade(resolved, [0, 1, 2], chunks, chunk_map).grade == "clean"
    # A piece with both sources: neither makes the other "mixed".
    assert grade(resolved, [2, 0, 1], chunks, chunk_map).grade == "clean"
    assert grade(resolved, [1, 0, 2], chunks, chunk_map).reason == "ranked"


def test_an_alternative_that_names_nothing_is_reported_and_one_lacking_the_answer_is_skipped():
    bad = resolve(TWO_DOC, Question("q", "Wi-Fi | Bluetooth", "Reset: hold the button 10 s."))
    assert isinstance(bad, BadQuestion) and bad.reason == "no product or section is called 'Bluetooth'"
    skipped = resolve(TWO_DOC, Question("q", "Wi-Fi | Power", "Band: 5 GHz."))
    assert [TWO_DOC.section(s).heading for s in skipped.sources] == ["Wi-Fi"]
    none = resolve(TWO_DOC, Question("q", "Power | Network settings", "Band: 5 GHz."))
    assert none.reason == "the answer 'Band: 5 GHz.' is in none of 'Power', 'Network settings'"


def test_alternatives_through_a_whole_evaluation():
    question = Question("How do I reset it?", "Wi-Fi | Network settings", "Reset: hold the button 10 s.")
    run = evaluate(TWO_DOC, [question], Settings(["heading"], ["keyword"], ["none"])).runs[0]
    assert run.counts["clean"] == 1


def test_an_answer_is_found_in_its_sections_text_where_the_documents_offsets_find_it():
    """``find_answer`` reads the section's text alone (remembered per text for the to-do's copies): every place is
    where the pattern finds it between the section's offsets of the whole text, on the sample's and the real
    files' answers, in every section, the same again when asked twice."""
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.read.resolve import answer_pattern, find_answer

    from .conftest import ROOT, SAMPLE_MD, SAMPLE_QUESTIONS, real_data_files

    pairs = [(SAMPLE_MD, SAMPLE_QUESTIONS)] + [(p, ROOT / "bench" / "questions" / f"{p.stem}.questions.csv")
                                              for p in real_data_files()]
    found = 0
    for path, questions_path in pairs:
        if not questions_path.is_file():
            continue
        document = load_path(path)
        answers = {q.expected_answer for q in parse_questions(questions_path.read_bytes(), questions_path.name)}
        answers = sorted(a for a in answers if a.strip()) + ["1", "a", "-"]
        for section in document.sections[:60]:
            for answer in answers:
                whole = tuple((m.start(), m.end()) for m in answer_pattern(answer).finditer(document.text, *section.span))
                assert find_answer(document, section, answer) == whole == find_answer(document, section, answer)
                found += bool(whole)
    assert found >= 20  # the sample's answers alone are found in their sections
