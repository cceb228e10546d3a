"""A document's signature (spec §1): one symbol per sentence, its length ℓ, plus the sentence's
key (its first terms) and the index of the sentence it came from.

With the length cap on (the paper), ℓ is written in the 36-letter alphabet 0-9a-z and sentences
with ℓ > 35 are left out and recorded; with it off, ℓ itself is the symbol and none is left out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.documents.sentences import Sentence

PAPER_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_PAPER_LENGTH = len(PAPER_ALPHABET) - 1  # 35

Key = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Signature:
    symbols: tuple[int, ...]  # ℓ of each kept sentence, in order
    keys: tuple[Key, ...]  # first `key_size` terms of each kept sentence
    sentence_indices: tuple[int, ...]  # position -> index of the Sentence record
    too_long: tuple[int, ...]  # indices of sentences left out because ℓ > 35
    key_size: int
    length_cap: bool
    # indices of sentences left out because every word of theirs is excluded
    # (core.documents.excluded_spans)
    excluded: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.symbols)

    def is_short(self, position: int) -> bool:
        """True when the sentence has fewer terms than the key size: its key says little."""
        return len(self.keys[position]) < self.key_size

    def text(self) -> str:
        """The signature as the paper writes it ('3a7…'); lengths over 35 shown as '[ℓ]'."""
        return "".join(
            PAPER_ALPHABET[s] if s <= MAX_PAPER_LENGTH else f"[{s}]" for s in self.symbols
        )


def build_signature(
    sentences: Sequence[Sentence],
    *,
    key_size: int = 2,
    length_cap: bool = True,
    excluded: tuple[int, ...] = (),
) -> Signature:
    """The signature of `sentences` (for a document with exclusions, the sentences as
    `core.documents.excluded_spans.sentences_for_scoring` gives them, and the indices it left
    out)."""
    symbols: list[int] = []
    keys: list[Key] = []
    indices: list[int] = []
    too_long: list[int] = []
    for sentence in sentences:
        texts = sentence.term_texts
        if length_cap and len(texts) > MAX_PAPER_LENGTH:
            too_long.append(sentence.index)
            continue
        symbols.append(len(texts))
        keys.append(texts[:key_size])
        indices.append(sentence.index)
    return Signature(
        symbols=tuple(symbols),
        keys=tuple(keys),
        sentence_indices=tuple(indices),
        too_long=tuple(too_long),
        key_size=key_size,
        length_cap=length_cap,
        excluded=excluded,
    )
