"""Parses the XML parts of .docx and .odt files as a stream of events, under an element budget.

A reader hands a part's chunks (from `zipguard.SafeArchive.chunks`) to lxml's parser with a
handler as its target: lxml calls `start(tag, attrib)`, `end(tag)` and `data(text)` as it goes,
and no tree is ever built, so memory does not grow with the part (the handler keeps only what
it needs: the open elements and the text). Every element counts against the document's
`ElementBudget`: past MAX_XML_ELEMENTS the document is refused at once, before the work grows
further (a 1 MB .docx can hold 60 MiB of empty paragraphs, ten million elements).

Tags arrive in Clark notation ("{namespace}local"). A document type declaration is refused:
Word and LibreOffice never write one, and it is where entity tricks live (a parser target gets
entities expanded). Deep nesting costs nothing: the handlers keep counters, not stacks of
elements (python-docx's tree refused more than 256 levels)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from core.documents.extract.raw import library_message
from core.errors import CorruptDocument, DocumentError, DocumentTooLarge

#: Most XML elements read from one document, all its parts together (docs/formats.md, "Limits"):
#: 1,000 pages of a novel are 34,000 elements as python-docx writes them and 764,000 with direct
#: formatting and revision marks on every few words, as Word writes pasted text. Each costs 2-4
#: us, so the limit bounds the work to a few seconds.
MAX_XML_ELEMENTS = 1_000_000


class ElementBudget:
    """How many more XML elements the document may hold; shared by the parts of one file."""

    def __init__(self, path: Path, limit: int | None = None, *, pages_hint: str = "") -> None:
        self.path = path
        self.limit = MAX_XML_ELEMENTS if limit is None else limit
        self.used = 0
        self.pages_hint = pages_hint  # e.g. "a 1,000-page document has under 800,000"

    def exceeded(self, part: str) -> DocumentTooLarge:
        hint = f" ({self.pages_hint})" if self.pages_hint else ""
        return DocumentTooLarge(
            self.path,
            f"its part {part} has more XML elements than the limit of {self.limit:,} for a "
            f"whole document{hint}; not opened",
        )


class Handler:
    """Receives a part's events. Subclasses override `start`, `end` and `data`; a `start` that
    does not call this one counts the element itself (`self.used += 1`, then `self.over()` past
    `self.limit`), which saves a call per element in the readers' hot loops."""

    used = 0
    limit = MAX_XML_ELEMENTS
    part = ""
    budget: ElementBudget | None = None

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.used += 1
        if self.used > self.limit:
            self.over()

    def end(self, tag: str) -> None:
        pass

    def data(self, text: str) -> None:
        pass

    def over(self) -> None:
        assert self.budget is not None
        raise self.budget.exceeded(self.part)

    def doctype(self, *_: object) -> None:
        raise _Refused("it declares a document type (DTD), which Word and LibreOffice never do")

    def close(self) -> None:
        return None


class _Refused(Exception):
    pass


def parse_part(chunks: Iterable[bytes], handler: Handler, budget: ElementBudget, part: str) -> None:
    """Feed the part's bytes to `handler`. Raises DocumentTooLarge past the element budget,
    CorruptDocument for XML that is not well formed, and whatever DocumentError the chunks or
    the handler raise."""
    from lxml import etree

    handler.budget, handler.part = budget, part
    handler.used, handler.limit = budget.used, budget.limit
    parser = etree.XMLParser(
        target=handler,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
    )
    try:
        for chunk in chunks:
            parser.feed(chunk)
        parser.close()
    except DocumentError:
        raise
    except (etree.XMLSyntaxError, _Refused) as exc:
        raise CorruptDocument(
            budget.path, f"its part {part} is damaged, so it cannot be read ({_reason(exc)})"
        ) from exc
    finally:
        budget.used = handler.used


def _reason(exc: Exception) -> str:
    return library_message(exc)
