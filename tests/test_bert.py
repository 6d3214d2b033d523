"""The plain-torch BERT reader gives the vectors the libraries give: transformers' BertModel on a tiny random
network (fast), and sentence-transformers on the packaged model (the reference the disk cache was filled by)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import torch

from workbench.encode.bert import Bert


def tiny_bert(folder, prefix=""):
    """A random two-layer BERT saved as config.json + model.safetensors, and the same network in transformers."""
    from safetensors.torch import save_file
    from transformers import BertConfig, BertModel

    config = BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=32, max_position_embeddings=40, attn_implementation="sdpa")
    torch.manual_seed(0)
    network = BertModel(config, add_pooling_layer=False).eval()
    config.to_json_file(str(folder / "config.json"))
    save_file({prefix + name: tensor.contiguous() for name, tensor in network.state_dict().items()},
              str(folder / "model.safetensors"))
    return network


@pytest.mark.parametrize("prefix", ["", "bert."])
def test_tiny_network_matches_transformers_bit_for_bit_with_padding(tmp_path, prefix):
    network = tiny_bert(tmp_path, prefix)
    ids = torch.tensor([[2, 7, 9, 11, 3], [2, 5, 3, 0, 0], [2, 4, 4, 4, 3]])
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
    with torch.inference_mode():
        expected = network(input_ids=ids, attention_mask=mask).last_hidden_state
    mine = Bert(tmp_path).forward(ids, mask)
    assert mine.shape == (3, 5, 16)
    # Padding keys are hidden, so a padded row's real tokens are those of the same text read alone, to float32's
    # rounding: a batch of 3 x 5 and a text of 3 may be multiplied by different kernels, which sum in another order
    # on some processors (6e-8 apart on an AMD EPYC; equal on the Intel machine this was written on).
    alone = Bert(tmp_path).forward(ids[1:2, :3], mask[1:2, :3])[0]
    assert torch.allclose(mine[1, :3], alone, rtol=0, atol=1e-6)
    assert not torch.allclose(mine[0, :3], alone, rtol=0, atol=1e-2)  # another text's tokens are far from it
    assert torch.equal(mine * mask[..., None], expected * mask[..., None])


def test_a_batch_without_padding_matches_too(tmp_path):
    network = tiny_bert(tmp_path)
    ids = torch.tensor([[2, 7, 9, 3], [2, 8, 8, 3]])
    mask = torch.ones_like(ids)
    with torch.inference_mode():
        expected = network(input_ids=ids, attention_mask=mask).last_hidden_state
    assert torch.equal(Bert(tmp_path).forward(ids, mask), expected)


def test_a_model_it_cannot_read_is_refused_by_name(tmp_path):
    tiny_bert(tmp_path)
    config = json.loads((tmp_path / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps(config | {"hidden_act": "gelu_new"}))
    with pytest.raises(ValueError, match="gelu_new"):
        Bert(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps(config | {"model_type": "roberta"}))
    with pytest.raises(ValueError, match="BERT"):
        Bert(tmp_path)


@pytest.mark.slow
def test_the_packaged_model_gives_sentence_transformers_vectors_bit_for_bit(real_encoder):
    """The reference: sentence-transformers' own ``encode`` of the same texts, shuffled lengths over several
    batches of 64, one past the model's 256 word pieces, one with a character the vocabulary lacks ([UNK])."""
    from sentence_transformers import SentenceTransformer

    from workbench.encode.minilm import MiniLMEncoder, _unit

    words = "kettle warranty year steel litre cordless blue fan ceiling table price returns".split()
    generator = random.Random(3)
    texts = [" ".join(generator.choice(words) for _ in range(generator.randint(1, 40))) for _ in range(150)]
    texts += ["Warranty: 1 year. " * 80, "Ceiling fan \u2603 quiet", "x"]
    generator.shuffle(texts)
    reference = SentenceTransformer(str(real_encoder.path), device="cpu", local_files_only=True)
    special = set(reference.tokenizer.all_special_ids)
    mine = MiniLMEncoder(None)._encode(texts)
    for output, embedding in zip(reference.encode(texts, output_value=None, batch_size=64,
                                                  show_progress_bar=False), mine):
        real = output["attention_mask"].bool()
        ids = output["input_ids"][real].tolist()
        keep = [i for i, token in enumerate(ids) if token not in special] or list(range(len(ids)))
        assert np.array_equal(embedding.sentence, _unit(output["sentence_embedding"].float().numpy()))
        assert np.array_equal(embedding.tokens, _unit(output["token_embeddings"][real].float().numpy()[keep]))
    long = mine[texts.index("Warranty: 1 year. " * 80)]
    assert long.tokens.shape == (254, 384)  # 256 read, [CLS] and [SEP] dropped
    snowman = mine[texts.index("Ceiling fan \u2603 quiet")]
    assert snowman.tokens.shape[0] == 3  # ceiling fan quiet: the [UNK] dropped as before
