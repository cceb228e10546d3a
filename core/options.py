"""The engine's options, each defaulting to the paper's value (see docs/options.md).

Options that change a document's signature (language, stop words, length cap, key size) are
separated from those that only change matching, so caches can key on the former; what to
leave out of scoring (`ExclusionOptions`, docs/exclusions.md) is a third, separate set."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ShortSentenceRule(StrEnum):
    """How sentences with fewer terms than the key size count inside a verified piece."""

    #: project rule (spec §3): they may sit inside a piece but do not count towards its length
    FULL_KEY = "full-key"
    #: the paper read literally: every aligned sentence whose key matches counts
    LITERAL = "literal"


@dataclass(frozen=True, slots=True)
class SignatureOptions:
    """What turns a document's text into its signature."""

    language: str = "auto"  # ISO 639-1 code, or "auto" to detect per document
    remove_stopwords: bool = True  # paper: stop words are removed before counting
    length_cap: bool = True  # paper alphabet 0-9a-z; sentences with ℓ > 35 left out
    key_size: int = 2  # paper: the first two terms verify a sentence

    def __post_init__(self) -> None:
        if self.key_size < 1:
            raise ValueError("key size must be at least 1")


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """What decides which common blocks are kept."""

    min_block: int = 2  # paper: a block, and a piece after splitting, needs 2 sentences
    short_sentences: ShortSentenceRule = ShortSentenceRule.FULL_KEY
    # Doppel's addition, on by default: reworded passages beside SL+ST's verified blocks
    # (core.detection.reworded); False (--strict) gives the paper's method alone
    reworded: bool = True

    def __post_init__(self) -> None:
        if self.min_block < 1:
            raise ValueError("minimum block length must be at least 1")


@dataclass(frozen=True, slots=True)
class ExclusionOptions:
    """Which exclusions to apply; all off by default (the paper excludes nothing)."""

    quotations: bool = False
    references: bool = False
    # a submission's sentence holding a phrase of at least this many words (stop words
    # included) that is also in a template is excluded (docs/exclusions.md)
    template_phrase_words: int = 6
    # batch only: text found in more than this share of the documents is excluded (None: off)
    common_share: float | None = None

    def __post_init__(self) -> None:
        if self.template_phrase_words < 2:
            raise ValueError("the template phrase length must be at least 2 words")
        if self.common_share is not None and not 0 < self.common_share < 1:
            raise ValueError("the common-text share must be between 0 and 1 (exclusive)")
