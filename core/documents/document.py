"""A loaded, analysed document: its text, sentences, signature and what was noticed on the way.

`load_document` is the one import path for files (extraction → normalised text → language →
sentences → signature); `document_from_text` does the same for text already in memory."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from core.documents.excluded_spans import ExcludedSpan, SpanSet, normalised, sentences_for_scoring
from core.documents.extract import extract
from core.documents.language import detect_language, get_language
from core.documents.normalize import normalize_with_report
from core.documents.sentences import Sentence, split_sentences
from core.documents.signature import Signature, build_signature
from core.documents.tampering import Tampering
from core.errors import DocumentError
from core.options import SignatureOptions

DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Document:
    path: Path
    format: str  # "txt", "docx", "pdf", …
    content_hash: str  # sha256 of the file's bytes (of the text's UTF-8 for in-memory text)
    text: str  # the normalised text: displayed and analysed, every span indexes into it
    language: str  # ISO 639-1 code actually used
    # "chosen", "detected", "default" (detection was unsure: English), or "partner" (unsure,
    # so the language of the document it is compared with was used)
    language_source: str
    sentences: tuple[Sentence, ...]
    signature: Signature
    load_warnings: tuple[str, ...]  # noticed while reading the file
    analysis_warnings: tuple[str, ...]  # noticed while finding sentences and the signature
    options: SignatureOptions
    # spans of the text the source file marks as block quotes (.docx/.odt quote styles, HTML
    # <blockquote>): facts about the file, used only if quotations are excluded
    block_quotes: tuple[tuple[int, int], ...] = ()
    # what is left out of the signature, and why (core.documents.excluded_spans); () when nothing is
    excluded: tuple[ExcludedSpan, ...] = ()
    # disguises undone before analysis (core.documents.tampering): look-alike letters, invisible
    # characters, hidden text; each is also one of `warnings`, in words
    tampering: tuple[Tampering, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        return (
            tuple(t.message for t in self.tampering) + self.load_warnings + self.analysis_warnings
        )

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
    """Load and analyse one file. Raises core.errors.DocumentError (the file cannot be used)
    and core.errors.LanguageError (an unknown language was asked for)."""
    extracted = extract(path)
    return _analyse(
        Path(path),
        extracted.text,
        extracted.format,
        extracted.content_hash,
        extracted.warnings,
        options or SignatureOptions(),
        block_quotes=extracted.block_quotes,
        tampering=extracted.tampering,
    )


def document_from_text(
    text: str, name: str = "text", options: SignatureOptions | None = None
) -> Document:
    """Analyse text already in memory (normalised the same way as a file's)."""
    text, tampering = normalize_with_report(text)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return _analyse(
        Path(name), text, "txt", digest, (), options or SignatureOptions(), tampering=tampering
    )


def _analyse(
    path: Path,
    text: str,
    fmt: str,
    content_hash: str,
    warnings: tuple[str, ...],
    options: SignatureOptions,
    *,
    block_quotes: tuple[tuple[int, int], ...] = (),
    excluded: tuple[ExcludedSpan, ...] = (),
    tampering: tuple[Tampering, ...] = (),
) -> Document:
    notes: list[str] = []
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
    try:
        sentences = split_sentences(text, language, remove_stopwords=options.remove_stopwords)
    except (TimeoutError, RecursionError, MemoryError) as error:  # a backstop: never a crash
        raise DocumentError(path, f"its text could not be split into sentences ({error})") from None
    signature = _signature(text, sentences, options, excluded)
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
        load_warnings=warnings,
        analysis_warnings=tuple(notes),
        options=options,
        block_quotes=block_quotes,
        excluded=excluded,
        tampering=tampering,
    )


def _signature(
    text: str,
    sentences: tuple[Sentence, ...],
    options: SignatureOptions,
    excluded: tuple[ExcludedSpan, ...],
) -> Signature:
    dropped: tuple[int, ...] = ()
    scored: Sequence[Sentence] = sentences
    if excluded:
        scored, dropped = sentences_for_scoring(text, sentences, SpanSet(excluded))
    return build_signature(
        scored, key_size=options.key_size, length_cap=options.length_cap, excluded=dropped
    )


def reanalysed(doc: Document, options: SignatureOptions) -> Document:
    """The same document analysed with other options (its text is not read again; its
    exclusions still apply)."""
    return _analyse(
        doc.path,
        doc.text,
        doc.format,
        doc.content_hash,
        doc.load_warnings,
        options,
        block_quotes=doc.block_quotes,
        excluded=doc.excluded,
        tampering=doc.tampering,
    )


def with_exclusions(doc: Document, spans: Iterable[ExcludedSpan]) -> Document:
    """`doc` with exactly `spans` excluded from scoring (replacing any earlier exclusions):
    the same text and sentences, a signature without the excluded words and sentences.
    Cheap: the text is not split again."""
    excluded = normalised(spans)
    if excluded == doc.excluded:
        return doc
    signature = _signature(doc.text, doc.sentences, doc.options, excluded)
    return replace(doc, excluded=excluded, signature=signature)


def harmonise_languages(a: Document, b: Document) -> tuple[Document, Document]:
    """When detection was unsure for one document (so English was used) and sure for the other,
    read the unsure one in the other's language: a short copy of a German essay is German too,
    and with English stop words its signature could not match the original's."""
    if a.language == b.language:
        return a, b
    if a.language_source == "default" and b.language_source == "detected":
        return _in_language_of(a, b), b
    if b.language_source == "default" and a.language_source == "detected":
        return a, _in_language_of(b, a)
    return a, b


def _in_language_of(unsure: Document, sure: Document) -> Document:
    doc = reanalysed(unsure, replace(unsure.options, language=sure.language))
    note = (
        f"the language could not be recognised with confidence; that of {sure.name} "
        f"({sure.language}) was used"
    )
    notes = tuple(w for w in doc.analysis_warnings if "language" not in w)
    return replace(doc, language_source="partner", analysis_warnings=(note, *notes))
