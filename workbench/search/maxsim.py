"""maxsim: the re-check that compares each word of the question with its best match in the piece (late interaction).

Its token vectors are held in blocks, its columns kept in the embedding cache between runs; the base class and
the plainer re-checks are in ``rerankers.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from workbench.core.model import Chunk, Settings
from workbench.core.words import ENGLISH, Analyzer
from workbench.search.rerankers import RERANKERS, Reranker, named, title_terms

if TYPE_CHECKING:  # annotations only: the model's modules load where a model reads (DESIGN.md, Start-up)
    from workbench.encode.embedding import Encoder

# maxsim's token vectors held in float16 blocks, as stored (768 bytes a row; each product widens the rows it takes to
# float32, the same values, so the same product to the last bit; float32 blocks held 2x): at most BLOCK_ROWS rows in
# all once a new block is placed, past that only by the new block, which holds at most NEW_ROWS (``_groups``):
# 45 + 15 MB, and one product's rows widened at a time (at most WIDEN_ROWS, 6 MB). A block was once made of every text a batch of questions
# needed, unbounded (13,807 rows on a 1,000-product catalog; a file of a few long sections, its every row), and the
# blocks held 100,000 rows (150 MB) in all.
BLOCK_ROWS = 60_000
NEW_ROWS = 20_000
# A question's product runs over a whole block when it needs at least 1/WHOLE_BLOCK of the block's rows: a
# row multiplied costs about what a row copied does, and the rest of the block is often the next shortlist's.
WHOLE_BLOCK = 3
# Question token rows multiplied by a block in one product (``MaxSim.prepare``), times the block rows it takes at
# once: 8 M float32 products, 32 MB at a time (16 M, 64 MB, before the memory budget: no faster).
PRODUCT_CELLS = 8_000_000
# Block rows widened to float32 for one product, at most: a question alone took a whole new block at once (20,000
# rows, 30 MB beside the blocks), the heading cut's long windows of a German export read by E5 at the run's end.
WIDEN_ROWS = 4_096
# maxsim's columns written to the store this many at a time (one transaction each), the rest when the run ends.
SAVE_BATCH = 20_000


@dataclass(frozen=True)
class _Block:
    """Texts' token vectors one after another: text ``i`` is rows ``starts[i]:ends[i]`` of ``matrix``."""

    texts: list[str]
    matrix: np.ndarray
    starts: np.ndarray
    ends: np.ndarray


@RERANKERS.register("maxsim")
class MaxSim(Reranker):
    order = 30
    label = "Re-checked word by word for meaning"
    score_words = ("from 0 to 1: how closely each word of the question finds its match in the piece, averaged "
                   "(rare words count more), plus 0.05 when the piece's title names the question's product")
    explanation = (
        "Compares each word of the question with its best match in the piece, using the same small "
        "language model, and averages, rare words counting more (late interaction, as in ColBERT). "
        "A piece whose heading the question names in full (\u201cthe 2-Slice Toaster\u201d) gets 0.05 more, "
        "enough to win a near tie against a look-alike (the 4-Slice Toaster), never a clearly better match."
    )
    needs_encoder = True
    # On maxsim's 0-1 scale a near tie. Measured on the six real files (bench/quality.py): 0.03, 0.05 and
    # 0.1 all raised clean answers under every cut that keeps headings (heading 187 -> 189, 190, 190;
    # small-to-big 183 -> 187, 188, 189); 0.1 began to cost a manual a question, 0.2 more. The middle one.
    named_bonus = 0.05
    # A piece read as n units (small-to-big: a section as its sentences) scores as its best one, so a section of 25
    # sentences has 25 draws at a near match where one of 3 has 3: the best of many draws is higher by chance, and
    # the longest sections and a page's summing-up opening won questions about their neighbours. Its score is its
    # best unit's less per_draw x ln(n) (0 for a piece read whole). Decided on the even question rows of the seven
    # real non-English prose pages (small-to-big / maxsim, clean: 0 83, 0.0025 83, 0.004 85, 0.005 85, 0.0075 84,
    # 0.01 80 of 110); on the odd rows, held back, 72 -> 76 of 98 (BENCHMARKS.md, "prose45").
    per_draw = 0.005

    @classmethod
    def recheck_characters(cls, cuts: dict[str, list[Chunk]], questions: int, settings: Settings) -> float:
        """Characters maxsim compares: each question's shortlist (the top ``depth`` pieces) under each cut, for
        each search whose shortlist can differ. When every piece fits in the shortlist, the searches share it."""
        work = 0.0
        for chunks in cuts.values():
            if chunks:
                shortlist = min(settings.depth, len(chunks))
                searches = 1 if len(chunks) <= settings.depth else len(settings.retrievers)
                work += shortlist * sum(len(chunk.text) for chunk in chunks) / len(chunks) * searches
        return work * questions

    def __init__(self, encoder_factory: Callable[[], Encoder] | None = None, model_path: str | None = None,
                 analyzer: Analyzer = ENGLISH) -> None:
        self.analyzer = analyzer
        if encoder_factory is None:
            from workbench.encode.embedding import get_encoder as encoder_factory
        self.encoder = encoder_factory()
        # Retrievers often shortlist the same pieces (always, when the shortlist is every piece): a question's
        # scores are worked out once per shortlist.
        self._memo: dict[tuple[str, frozenset], dict[tuple, float]] = {}
        self._ids: dict[str, list[int]] = {}  # a question's word pieces
        # Shortlists that differ still share most of their units (three searches' top 50 of one question, a
        # text in several cuts): each unit's best match per question token, and its word pieces, once per run.
        self._best: dict[str, dict[str, np.ndarray]] = {}  # question -> text -> best match per question token
        self._queries: dict[str, np.ndarray] = {}
        self._blocks: dict[int, _Block] = {}  # in the order they were made, the oldest dropped first
        self._where: dict[str, tuple[int, int]] = {}  # text -> (block, its place in the block)
        self._next = self._rows = 0
        self._pieces: dict[tuple[str, ...], np.ndarray] = {}  # a unit's distinct word pieces, sorted
        # A text's column depends on the question and the text alone, so the encoder's store keeps them for the
        # next run of the same questions: a warm run of a 1,000-product catalog spent 14 of its 24 s here.
        self._looked: dict[str, set[str]] = {}  # question -> texts already asked of the store
        self._unsaved: list[tuple[str, str, np.ndarray]] = []  # (question, text, column) worked out, not yet kept
        # A piece is shortlisted for many questions: its reading units and its titles' words, once per run.
        self._chunks: dict[tuple, tuple[list[tuple[str, ...]], list[set[str]]]] = {}

    def scores(self, question: str, chunks: list[Chunk]) -> np.ndarray:
        keys = [(chunk.text, chunk.search) for chunk in chunks]
        shortlist = frozenset(keys)  # the weights depend on which pieces are shortlisted, not on their order
        if (question, shortlist) not in self._memo:
            self._memo[(question, shortlist)] = self._score(question, list(dict(zip(keys, chunks)).values()))
        found = self._memo[(question, shortlist)]
        return np.array([found[key] for key in keys])

    def _score(self, question: str, chunks: list[Chunk]) -> dict[tuple, float]:
        # Each chunk is read as one or more units: itself, or (small-to-big) each of its small pieces,
        # as the search read it. A unit past the model's window is read window by window, and its
        # token vectors are all its windows'. A chunk scores as its best unit, less ``per_draw`` for each
        # e-fold of its units.
        known = [self._chunk(chunk) for chunk in chunks]
        units = [chunk_units for chunk_units, _ in known]
        flat = [windows for chunk_units in units for windows in chunk_units]
        best = self._best_matches(question, flat)  # question tokens x units
        per_unit = self._weights(question, len(best), flat) @ best  # one score per unit
        found, position = {}, 0
        asked = set(self.analyzer.question_terms(question))
        for chunk, (chunk_units, titled) in zip(chunks, known):
            bonus = self.named_bonus if named(asked, titled) else 0.0
            found[(chunk.text, chunk.search)] = float(per_unit[position : position + len(chunk_units)].max()) + bonus \
                - self.per_draw * math.log(len(chunk_units))
            position += len(chunk_units)
        return found

    def prepare(self, asked: list[tuple[str, list[Chunk]]]) -> None:
        """Work out a batch of questions' best matches over their shortlists' texts in one product per block.

        A product of one question's dozen token rows with a block runs at a quarter of the speed of one with a
        few hundred rows (measured on this project's 2-core machine: 36 against 150 GFLOP/s), so when the
        questions each need a good share of the texts any of them needs (``WHOLE_BLOCK``: a small file, whose
        shortlists hold most of its pieces), every question is multiplied with every one of those texts at once.
        Otherwise (a large catalog, each question its own few texts) ``scores`` works them out one by one.
        """
        # The batch's units tokenised together for the IDF weights (a few hundred at a time: one call each
        # shortlist made 419 calls, 1.8 s, in a warm run of a 1,000-product catalog).
        self._learn_pieces([units for _, chunks in asked for chunk in chunks for units in self._chunk(chunk)[0]])
        wanted: dict[str, dict[str, None]] = {}
        for question, chunks in asked:
            texts = list(dict.fromkeys(text for chunk in chunks for windows in self._chunk(chunk)[0] for text in windows))
            known = self._recall(question, texts)
            new = [text for text in texts if text not in known]
            if new:
                wanted.setdefault(question, {}).update(dict.fromkeys(new))
        union = list(dict.fromkeys(text for texts in wanted.values() for text in texts))
        if len(wanted) < 2 or sum(len(texts) for texts in wanted.values()) * WHOLE_BLOCK < len(union) * len(wanted):
            return
        for by_block in self._held(union):
            for number, texts in by_block.items():
                block = self._blocks[number]
                places = [self._where[text][1] for text in texts]
                first, end = min(places), max(places) + 1
                needed = sum(int(block.ends[place] - block.starts[place]) for place in places)
                if needed * WHOLE_BLOCK >= block.ends[end - 1] - block.starts[first]:
                    self._multiply(list(wanted), block, first, end)
                # else a few texts of an older block: ``scores`` copies just their rows
        self._save(SAVE_BATCH)

    def finish(self) -> None:
        self._save(1)

    def _recall(self, question: str, texts: list[str]) -> dict[str, np.ndarray]:
        """The question's known columns, with those an earlier run kept for ``texts`` (each text asked once)."""
        known = self._best.setdefault(question, {})
        looked = self._looked.setdefault(question, set())
        ask = [text for text in texts if text not in known and text not in looked]
        if ask:
            looked.update(ask)
            known.update(self.encoder.stored_matches(question, ask, len(self._query(question))))
        return known

    def _save(self, at_least: int) -> None:
        """Hand the columns worked out to the store, once ``at_least`` of them wait (a write is a transaction)."""
        if len(self._unsaved) >= at_least:
            self.encoder.keep_matches(self._unsaved)
            self._unsaved = []

    def _held(self, texts: list[str]) -> Iterator[dict[int, list[str]]]:
        """These texts by the block holding their token vectors: first those already held, then the others, placed
        a new block of at most NEW_ROWS rows at a time. Each is yielded for the caller to multiply before the next
        block is placed, which may drop it: so the blocks stay within BLOCK_ROWS + NEW_ROWS, however many texts."""
        held: dict[int, list[str]] = {}
        for text in texts:
            if text in self._where:
                held.setdefault(self._where[text][0], []).append(text)
        if held:
            yield held
        for group in self._groups([text for text in texts if text not in self._where]):
            self._place(group)
            yield {self._next - 1: group}

    def _groups(self, texts: list[str]) -> Iterator[list[str]]:
        """``texts`` in order, in groups of at most NEW_ROWS token rows, counted before any is read: a text has at
        most a row a character, and at most the model's window (a piece past it is read window by window), and two
        more for a model that keeps its special tokens' rows (MiniLM drops them)."""
        window = self.encoder.window
        group: list[str] = []
        rows = 0
        for text in texts:
            most = (len(text) if window is None else min(len(text), window)) + 2
            if group and rows + most > NEW_ROWS:
                yield group
                group, rows = [], 0
            group.append(text)
            rows += most
        if group:
            yield group

    def _multiply(self, questions: list[str], block: _Block, first: int, end: int) -> None:
        """Each question's column for texts ``first:end`` of a block, kept in ``_best`` (one already known stays):
        all the questions' token rows in one product, over about PRODUCT_CELLS // their rows block rows at once."""
        queries = [self._query(question) for question in questions]
        rows = np.cumsum([0] + [len(query) for query in queries])
        stacked = queries[0] if len(queries) == 1 else np.vstack(queries)
        step = max(1, min(WIDEN_ROWS, PRODUCT_CELLS // len(stacked)))
        while first < end:  # whole texts at a time, about ``step`` rows
            last = min(end, max(first + 1, int(np.searchsorted(block.ends, block.starts[first] + step, side="right"))))
            a, b = int(block.starts[first]), int(block.ends[last - 1])
            rows_ab = block.matrix[a:b].astype(np.float32)  # widened for this product only (the block is float16)
            columns = np.maximum.reduceat(stacked @ rows_ab.T, block.starts[first:last] - a, axis=1)
            del rows_ab
            for index, question in enumerate(questions):
                mine = np.ascontiguousarray(columns[rows[index] : rows[index + 1]].T)
                known = self._best.setdefault(question, {})
                for text, column in zip(block.texts[first:last], mine):
                    if text not in known:
                        known[text] = column
                        self._unsaved.append((question, text, column))
            first = last

    def _chunk(self, chunk: Chunk) -> tuple[list[tuple[str, ...]], list[set[str]]]:
        """A piece's reading units (each as its windows) and its titles' words."""
        from workbench.encode.model_window import reading_units

        key = (chunk.prefix, chunk.text, chunk.search)
        if key not in self._chunks:
            self._chunks[key] = ([tuple(windows) for windows in reading_units(self.encoder, chunk)],
                                 title_terms(chunk, self.analyzer))
        return self._chunks[key]

    def _best_matches(self, question: str, units: list[tuple[str, ...]]) -> np.ndarray:
        """For each unit, each question token's best match among the unit's tokens (question tokens x units).

        A unit's tokens are its windows' (texts'), so its column is the largest of its texts' columns, and a
        text's column depends on the question and the text alone: it is computed the first time a shortlist of
        the question holds the text and read back after. The texts' token vectors are copied once per run
        into blocks (``_place``), so a question's product runs over a block in place, not over a copy of its
        shortlist made again for every question.
        """
        distinct = list(dict.fromkeys(text for windows in units for text in windows))
        known = self._recall(question, distinct)
        new = [text for text in distinct if text not in known]
        if new:
            query = self._query(question)
            for needed in self._held(new):
                for number, texts in needed.items():
                    block = self._blocks[number]
                    spans = [(int(block.starts[i]), int(block.ends[i])) for i in (self._where[t][1] for t in texts)]
                    if sum(b - a for a, b in spans) * WHOLE_BLOCK >= len(block.matrix):  # most of it: all, in place
                        self._multiply([question], block, 0, len(block.texts))
                    else:  # a few texts of a large block: copy just their rows
                        matrix = np.concatenate([block.matrix[a:b] for a, b in spans], dtype=np.float32)
                        starts = np.cumsum([0] + [b - a for a, b in spans[:-1]])
                        columns = list(zip(texts, np.maximum.reduceat(query @ matrix.T, starts, axis=1).T))
                        known.update(columns)
                        self._unsaved.extend((question, text, column) for text, column in columns)
            self._save(SAVE_BATCH)
        return np.stack([known[windows[0]] if len(windows) == 1 else np.maximum.reduce([known[t] for t in windows])
                         for windows in units], axis=1)

    def _query(self, question: str) -> np.ndarray:
        """The question's token vectors, read as the model reads a question (E5's "query: ", whose own pieces
        are left out of the rows: the rows stay the question's words, lined up with ``_weights``' pieces)."""
        if question not in self._queries:
            self._queries[question] = self.encoder.token_vectors([self.encoder.as_question(question)])[0]
        return self._queries[question]

    def _place(self, texts: list[str]) -> None:
        """Copy these texts' token vectors into one new block; drop the oldest others past BLOCK_ROWS in all (the
        texts the caller needed from them it has multiplied already, ``_held``)."""
        if not texts:
            return
        vectors = self.encoder.token_vectors(texts, as_stored=True)  # float16, as the block holds them
        lengths = np.array([len(v) for v in vectors])
        ends = np.cumsum(lengths)
        block = _Block(texts, np.concatenate(vectors, dtype=np.float16), ends - lengths, ends)
        self._blocks[self._next] = block
        for position, text in enumerate(texts):
            self._where[text] = (self._next, position)
        self._next += 1
        self._rows += len(block.matrix)
        # A question's columns already worked out stay known; only the vectors to work out more go.
        for number in [n for n in self._blocks if n != self._next - 1]:
            if self._rows <= BLOCK_ROWS:
                break
            old = self._blocks.pop(number)
            self._rows -= len(old.matrix)
            for text in old.texts:
                if self._where.get(text, (None,))[0] == number:
                    del self._where[text]
        # What the block's making freed (the store's rows it was copied from, a dropped block) goes back to the
        # system: glibc kept it, and a German export's run ended 28 MB higher at the heading cut's re-check.
        from workbench.encode.minilm import release_freed_memory  # here: a word search never loads the model's modules

        release_freed_memory()

    def _learn_pieces(self, units: list[tuple[str, ...]]) -> None:
        """Each unit's word pieces (for the IDF weights), its windows tokenised in one batch."""
        tokenizer = getattr(self.encoder, "tokenizer", None)
        new = [windows for windows in dict.fromkeys(units) if windows not in self._pieces]
        if not new or tokenizer is None:
            return
        encoded = tokenizer.encode_batch([w for windows in new for w in windows], add_special_tokens=False)
        position = 0
        for windows in new:  # a unit counts a word piece once, whichever of its windows holds it
            # As a small int32 array: a frozenset of its ids took ~550 bytes a unit more (20 MB of a 1,000-product
            # catalog's run, 20,000 units).
            self._pieces[windows] = np.unique(np.fromiter((i for piece in encoded[position : position + len(windows)]
                                                           for i in piece.ids), dtype=np.int32))
            position += len(windows)

    def _weights(self, question: str, tokens: int, units: list[tuple[str, ...]]) -> np.ndarray:
        """How much each question token counts: its IDF over the shortlisted units, as BERTScore weighs tokens.

        ``ln((N + 1) / (df + 1))``: a word piece in every unit ("the", "?", the product name in every
        breadcrumb) counts for nothing, one in a single unit most; the weights add up to 1. On the six real
        files (bench/quality.py) this raised clean answers under heading 183 -> 187, breadcrumb 182 -> 186,
        section-window 171 -> 177 and concern 170 -> 173 (small-to-big 185 -> 183). Equal weights, as
        before, when the model's word pieces cannot be lined up with its token vectors (a fake encoder in
        tests, or a question longer than the model reads) or every word piece is in every unit. Only the
        question's own pieces are counted: a shortlist's other pieces never weigh anything.
        """
        tokenizer = getattr(self.encoder, "tokenizer", None)
        if question not in self._ids:
            self._ids[question] = tokenizer.encode(question, add_special_tokens=False).ids if tokenizer else []
        ids = self._ids[question]
        if len(ids) != tokens:
            return np.full(tokens, 1.0 / max(tokens, 1))
        self._learn_pieces(units)
        # Each unit lists a piece once: the units holding each of the question's pieces, counted in one pass.
        held = np.concatenate([self._pieces[windows] for windows in units] or [np.zeros(0, np.int32)])
        found, counts = np.unique(held[np.isin(held, np.array(ids, dtype=np.int32))], return_counts=True)
        frequency = dict(zip(found.tolist(), counts.tolist()))
        weights = np.array([math.log((len(units) + 1) / (frequency.get(i, 0) + 1)) for i in ids])
        total = weights.sum()
        return weights / total if total > 0 else np.full(tokens, 1.0 / tokens)
