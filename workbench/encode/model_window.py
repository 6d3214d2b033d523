"""What the language model can read: pieces counted in word pieces, and longer ones read in windows.

all-MiniLM-L6-v2 reads at most ``max_seq_length`` word pieces and silently drops
the rest, so an answer at word piece 300 of a section is invisible to a search
that embeds the section whole. Every text the model scores goes through
``views`` here: a text that fits is read as it is; a longer one is read as
overlapping windows, each starting with the piece's prefix (its breadcrumb), and
the piece is scored by its best window (``dense``) or by all its windows' token
vectors (``maxsim``). Window texts are ordinary texts to the encoder, so each is
embedded once and cached on disk like any other.
"""

from __future__ import annotations

from workbench.core.model import Chunk, Span
from workbench.encode.embedding import Encoder

OVERLAP = 0.25  # share of a window repeated by the next, so a sentence cut by one window is whole in the other


def piece_count(encoder: Encoder, text: str) -> int:
    """How many word pieces the model splits ``text`` into (special tokens not counted)."""
    return len(encoder.word_pieces(text))


def piece_counts(encoder: Encoder, texts: list[str]) -> list[int]:
    """Word pieces of each text, tokenised in one batch."""
    tokenizer = getattr(encoder, "tokenizer", None)
    if tokenizer is None:
        return [piece_count(encoder, text) for text in texts]
    return [len(encoded.ids) for encoded in tokenizer.encode_batch(texts, add_special_tokens=False)]


def window_spans(pieces: list[Span], window: int, overlap: float = OVERLAP) -> list[Span]:
    """Character spans of overlapping runs of at most ``window`` word pieces covering every piece.

    ``pieces`` are the word pieces' character offsets. Consecutive windows share
    ``overlap`` of their pieces. One span when everything fits.
    """
    if window < 1:
        raise ValueError(f"a window must hold at least one word piece, not {window}")
    if not pieces:
        return []
    step = max(1, window - int(window * overlap))
    spans = []
    for first in range(0, len(pieces), step):
        last = min(first + window, len(pieces)) - 1
        spans.append((pieces[first][0], pieces[last][1]))
        if last == len(pieces) - 1:
            break
    return spans


def text_windows(encoder: Encoder, text: str, prefix: str = "", pieces: list[Span] | None = None) -> list[str]:
    """``prefix + text`` when the model reads it whole, else ``prefix`` + each window of ``text``
    (``pieces``: ``text``'s word pieces, when already known)."""
    window = encoder.window
    if window is None:
        return [prefix + text]
    key = _window_key(encoder, window, prefix, text)
    cached = _WINDOWS.get(key)
    if cached is not None:
        return cached
    if pieces is None:
        pieces = encoder.word_pieces(text)
    prefix_pieces = piece_count(encoder, prefix) if prefix else 0
    room = window - prefix_pieces
    if len(pieces) + prefix_pieces <= window:
        result = [prefix + text]
    elif room < window // 2:  # a prefix too long to repeat in every window: window the whole text
        whole = prefix + text
        result = [whole[a:b] for a, b in window_spans(encoder.word_pieces(whole), window)]
    else:
        result = [prefix + text[a:b] for a, b in window_spans(pieces, room)]
    if len(_WINDOWS) > 50_000:  # a bound, not a policy: tokenising again is cheap
        _WINDOWS.clear()
    _WINDOWS[key] = result
    return result


_WINDOWS: dict[tuple, list[str]] = {}


def _window_key(encoder: Encoder, window: int, prefix: str, text: str) -> tuple:
    """What ``_WINDOWS`` files a text's windows under: the model, its window, the text and its prefix."""
    return (encoder.model_key, window, prefix, text)


def prime_windows(encoder: Encoder, pairs: list[tuple[str, str]]) -> None:
    """Work out the windows of these (prefix, text) pairs with their texts tokenised in one batch, as far as
    ``text_windows`` keeps them: asked one text at a time, a warm run of a 1,000-product catalog made 21,000
    calls to the tokenizer (1.5 s)."""
    window = encoder.window
    tokenizer = getattr(encoder, "tokenizer", None)
    if window is None or tokenizer is None:
        return
    todo = [pair for pair in dict.fromkeys(pairs) if _window_key(encoder, window, *pair) not in _WINDOWS][:40_000]
    encoded = tokenizer.encode_batch([text for _, text in todo], add_special_tokens=False)
    for (prefix, text), pieces in zip(todo, encoded):
        text_windows(encoder, text, prefix, pieces=list(pieces.offsets))


def search_texts(chunk: Chunk) -> list[tuple[str, str]]:
    """(prefix, text) pairs a search reads for a chunk: its small pieces (small-to-big), else itself."""
    if chunk.search:
        return [("", text) for text in chunk.search]
    return [(chunk.prefix, chunk.body)]


def views(encoder: Encoder, chunk: Chunk) -> list[str]:
    """Every text the model reads for one chunk: its windows, or its small pieces' windows."""
    return [window for prefix, text in search_texts(chunk) for window in text_windows(encoder, text, prefix)]


def reading_units(encoder: Encoder, chunk: Chunk) -> list[list[str]]:
    """What a reranker reads for a chunk, unit by unit, each unit as its windows: the chunk itself,
    or for small-to-big each small piece on its own (as the search read it), so the section is
    judged by its best sentence, not diluted by the rest of the section."""
    return [text_windows(encoder, text, prefix) for prefix, text in search_texts(chunk)]
