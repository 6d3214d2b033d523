"""The to-do never offers the words of how a customer asks as "Search words" (issue 35: Polish "powinienem",
Portuguese "faço", "vejo", German "müsste" were offered on real pages): each rule on a tiny file, failing before."""

from __future__ import annotations

from tests.test_todo import todo
from workbench.advise.todo_words import missing_words
from workbench.core.model import Question
from workbench.core.words import analyzer
from workbench.read.loaders import parse_markdown


def test_a_form_of_a_function_word_is_never_missing():
    """"vejo" (I see) is a form of Portuguese "ver", "müsste" of German "müssen", "showing" of English "show": no
    list spells these forms out, but their Snowball stem is a listed word's. Before: ["vejo", "fatura"],
    ["müsste", "klagen"], ["showing", "invoice"]."""
    assert missing_words("Como vejo a fatura?", "Pagamento por cartão.", "Pagamento",
                         analyzer=analyzer(("pt",))) == ["fatura"]
    assert missing_words("Wo müsste ich klagen?", "Gerichtsstand ist Berlin.", "Recht",
                         analyzer=analyzer(("de",))) == ["klagen"]
    assert missing_words("Is showing the invoice enough?", "Pay by card.", "Payment") == ["invoice"]


def test_a_word_asked_about_two_sections_is_never_offered():
    """Customers "grab" a refund and a tracking number: the word says how they ask, not what about. Only the
    refund question is missed (Payment holds "refunds" and "return"), so before only Returns wanted "grab" and the
    to-do offered it (“Orders … (Search words: grab)” on Returns' line); now a word the questions use about two
    sections is offered to neither. "swiftly", which only the refund question uses, still is."""
    document = parse_markdown(
        "# Shop\n\n## Delivery\nOrders arrive in 3 days. Tracking numbers come by email.\n\n## Returns\nReturns are "
        "accepted within 30 days.\n\n## Payment\nPay for delivery of each parcel by card; refunds for a return go to "
        "the card.\n", "shop.md")
    questions = [Question("Can I grab refunds swiftly for a return?", "Returns", "Returns are accepted within 30 days.",
                          row=2),
                 Question("Where do I grab tracking numbers?", "Delivery", "Tracking numbers come by email.", row=3)]
    evaluation, items = todo(document, questions)
    assert [r.grade for r in evaluation.runs[0].per_question] == ["missed", "clean"]
    assert [(i.kind, i.fixes, i.edit) for i in items if i.kind == "words"] == [
        ("words", [2], "Add the word “swiftly” to Returns, in the sentence that holds the answer: “Returns are "
                       "accepted within 30 days. (Search words: swiftly)”.")]
