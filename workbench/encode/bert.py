"""A BERT encoder's forward pass in plain torch, from a packaged model's ``model.safetensors``.

The packaged all-MiniLM-L6-v2 is a six-layer BERT. sentence-transformers runs it through transformers, and
importing those two libraries costs a fresh process 4-6 s before the first text is read (transformers' own
import 2.8 s, sentence-transformers' 1.5-2.4 s more, scikit-learn and SciPy among it: ``bench/default_setup.py``),
a quarter of a 200-row export's whole model time. This module does the same arithmetic as transformers'
``BertModel`` in eval mode (the same operations in the same order: embeddings summed word + type, then position;
post-norm layers; ``scaled_dot_product_attention`` with a boolean key mask; exact GELU), so its vectors are those
the library gives (``tests/test_bert.py`` checks them against sentence-transformers, the reference).
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
import torch.nn.functional as F  # noqa: N812 - torch's own name for it
from safetensors.torch import load_file


class Bert:
    """A BERT encoder (eval mode, CPU) read from a folder holding ``config.json`` and ``model.safetensors``."""

    def __init__(self, folder: Path) -> None:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "bert" or config.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"{folder} does not hold a BERT model with absolute positions")
        if config.get("hidden_act") != "gelu":
            raise ValueError(f"{folder}'s activation is {config.get('hidden_act')!r}, not the exact GELU")
        weights = load_file(str(folder / "model.safetensors"))
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""
        self.w = {name[len(prefix):]: tensor for name, tensor in weights.items() if name.startswith(prefix)}
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.hidden = int(config["hidden_size"])
        self.eps = float(config["layer_norm_eps"])

    @classmethod
    def from_weights(cls, weights: dict[str, torch.Tensor], layers: int, heads: int, hidden: int, eps: float) -> Bert:
        """A BERT encoder from weights already in memory, named as transformers names them (without "bert.")."""
        bert = cls.__new__(cls)
        bert.w, bert.layers, bert.heads, bert.hidden, bert.eps = weights, layers, heads, hidden, eps
        return bert

    def _norm(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return F.layer_norm(x, (self.hidden,), self.w[f"{name}.weight"], self.w[f"{name}.bias"], self.eps)

    def _dense(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return F.linear(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"])

    @torch.inference_mode()
    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The last layer's token vectors, ``(batch, length, hidden)``, for word-piece ids and their 0/1 mask."""
        return self.forward_embedded(F.embedding(ids, self.w["embeddings.word_embeddings.weight"]), mask)

    @torch.inference_mode()
    def forward_embedded(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """``forward`` from the word embeddings' rows already looked up, ``(batch, length, hidden)`` (a model whose
        word table is kept packed looks up only the rows a batch needs)."""
        batch, length = mask.shape
        w = self.w
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = x + w["embeddings.position_embeddings.weight"][:length]
        x = self._norm(x, "embeddings.LayerNorm")
        # Padding keys are hidden from every query; a batch without padding passes no mask, as transformers does.
        keys = None if bool(mask.all()) else mask.bool()[:, None, None, :].expand(batch, 1, length, length)
        size = self.hidden // self.heads
        for n in range(self.layers):
            layer = f"encoder.layer.{n}"
            q, k, v = (self._dense(x, f"{layer}.attention.self.{part}").view(batch, length, -1, size).transpose(1, 2)
                       for part in ("query", "key", "value"))
            context = F.scaled_dot_product_attention(q, k, v, attn_mask=keys, dropout_p=0.0, scale=size**-0.5)
            context = context.transpose(1, 2).reshape(batch, length, -1).contiguous()
            x = self._norm(self._dense(context, f"{layer}.attention.output.dense") + x,
                           f"{layer}.attention.output.LayerNorm")
            inner = F.gelu(self._dense(x, f"{layer}.intermediate.dense"))
            x = self._norm(self._dense(inner, f"{layer}.output.dense") + x, f"{layer}.output.LayerNorm")
        return x
