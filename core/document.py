"""A loaded, analysed document: its text, sentences, signature and what was noticed on the way.

`load_document` is the one import path for files (extraction → normalised text → language →
sentences → signature); `document_from_text` does the same for text already in memory."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from core.extract import extract
from core.language import detect_language, get_language
from core.options import SignatureOptions
from core.sentences import Sentence, split_sentences
from core.signature import Signature, build_signature

DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Document:
    path: Path
    format: str  # "txt", "docx", "pdf", …
    content_hash: str  # sha256 of the file's bytes (of the text's UTF-8 for in-memory text)
    text: str  # the normalised text: displayed and analysed, every span indexes into it
    language: str  # ISO 639-1 code actually used
    language_source: str  # "chosen", "detected", or "default" (detection was unsure)
    sentences: tuple[Sentence, ...]
    signature: Signature
    warnings: tuple[str, ...]
    options: SignatureOptions

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def char_count(self) -> int:
        return len(self.text)

    @property
    def sentence_count(self) -> int:
        return len(self.sentences)

    def chars_of(self, position: int, length: int) -> tuple[int, int]:
        """Character span [start, end) of `length` signature positions from `position`."""
        first = self.sentences[self.signature.sentence_indices[position]]
        last = self.sentences[self.signature.sentence_indices[position + length - 1]]
        return first.start, last.end


def load_document(path: str | Path, options: SignatureOptions | None = None) -> Document:
    """Load and analyse one file. Raises only core.errors.DocumentError subclasses."""
    extracted = extract(path)
    return _analyse(
        Path(path),
        extracted.text,
        extracted.format,
        extracted.content_hash,
        extracted.warnings,
        options or SignatureOptions(),
    )


def document_from_text(
    text: str, name: str = "text", options: SignatureOptions | None = None
) -> Document:
    """Analyse text already in memory (normalised the same way as a file's)."""
    from core.normalize import normalize_text

    text = normalize_text(text)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return _analyse(Path(name), text, "txt", digest, (), options or SignatureOptions())


def _analyse(
    path: Path,
    text: str,
    fmt: str,
    content_hash: str,
    warnings: tuple[str, ...],
    options: SignatureOptions,
) -> Document:
    notes = list(warnings)
    if options.language == "auto":
        detection = detect_language(text)
        if detection.reliable:
            code, source = detection.code, "detected"
        else:
            code, source = DEFAULT_LANGUAGE, "default"
            notes.append(
                "the language could not be recognised with confidence; "
                "English rules were used (choose the language to change this)"
            )
    else:
        code, source = options.language, "chosen"
    language = get_language(code)
    sentences = split_sentences(text, language, remove_stopwords=options.remove_stopwords)
    signature = build_signature(sentences, key_size=options.key_size, length_cap=options.length_cap)
    if signature.too_long:
        notes.append(
            f"{len(signature.too_long)} sentence(s) longer than 35 words (after stop words) "
            "are left out of the comparison"
        )
    return Document(
        path=path,
        format=fmt,
        content_hash=content_hash,
        text=text,
        language=language.info.code,
        language_source=source,
        sentences=sentences,
        signature=signature,
        warnings=tuple(notes),
        options=options,
    )
