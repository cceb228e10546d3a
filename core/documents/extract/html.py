"""Reads the visible text of a web page (.html, .htm) with BeautifulSoup's html.parser.

Left out: script, style, noscript, template, svg and everything in <head> (the title too), plus
elements marked `hidden` or styled `display: none`. Block elements (p, div, h1-h6, li, td ...)
become paragraph breaks and <br> a line break; whitespace inside text is collapsed as a browser
does, except in <pre>. The text of each outermost <blockquote> is reported as a block quote.

Encoding: a byte-order mark or a declared charset (meta tag) is honoured by bs4's own byte
handling; a page that declares nothing goes through the same detection as a .txt file, because
bs4's fallback guesses (charset-normalizer) misread short Windows-1252 pages."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from core.documents.extract.encoding import decode_text
from core.documents.extract.raw import RawText, library_message
from core.documents.extract.sniff import binary_kind
from core.errors import CorruptDocument, DocumentError

# bs4 reports undecodable bytes through logging; without any handler Python would print the
# record to stderr. A NullHandler silences that and still lets an application's logging see it.
logging.getLogger("bs4").addHandler(logging.NullHandler())

_SKIPPED_TAGS = frozenset(
    {"script", "style", "noscript", "template", "head", "title", "svg", "math", "iframe",
     "object", "embed", "canvas", "datalist", "select"}
)  # fmt: skip
_BLOCK_TAGS = frozenset(
    {"address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details",
     "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
     "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li",
     "listing", "main", "menu", "nav", "ol", "p", "plaintext", "pre", "section", "summary",
     "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "xmp"}
)  # fmt: skip
_PREFORMATTED_TAGS = frozenset({"pre", "textarea", "listing", "plaintext", "xmp"})
_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")
_PARAGRAPH_BREAK = "\n\n"
_LEAVE = object()  # marks, on the walk's stack, the end of a block element
_LEAVE_QUOTE = object()  # the end of a <blockquote>


def read_html(data: bytes, path: Path) -> RawText:
    kind = binary_kind(data)
    if kind is not None:
        raise CorruptDocument(path, f"it is not a web page (it looks like {kind})")

    from bs4 import BeautifulSoup  # imported late: only needed for web pages
    from bs4.dammit import EncodingDetector

    warnings: list[str] = []
    try:
        _, bom_encoding = EncodingDetector.strip_byte_order_mark(data)
        declared = bom_encoding or EncodingDetector.find_declared_encoding(data, is_html=True)
        if declared:
            soup = BeautifulSoup(data, "html.parser")
            encoding = (soup.original_encoding or "").lower()
            if encoding not in {"utf-8", "ascii", ""}:
                source = "byte-order mark" if bom_encoding else "declared by the page"
                warnings.append(f"encoding detected as {encoding} ({source})")
            if soup.contains_replacement_characters:
                warnings.append("some characters could not be decoded and show as �")
        else:
            decoded = decode_text(data, path)
            if decoded.warning:
                warnings.append(decoded.warning)
            soup = BeautifulSoup(decoded.text, "html.parser")
        text, block_quotes = _visible_text(soup)
    except DocumentError:
        raise
    except Exception as exc:
        raise CorruptDocument(
            path, f"it cannot be read as a web page ({library_message(exc)})"
        ) from exc
    return RawText(text, tuple(warnings), block_quotes)


def _visible_text(soup: Any) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The page's visible text, and the spans of its outermost <blockquote>s in it."""
    from bs4.element import (
        NavigableString,
        PreformattedString,
        Script,
        Stylesheet,
        Tag,
        TemplateString,
    )

    parts: list[str] = []
    length = 0  # of "".join(parts)
    quotes: list[tuple[int, int]] = []
    quote_depth = 0
    quote_start = 0
    # (node, inside <pre>) pairs; _LEAVE closes a block. Iterative: deeply nested pages are fine.
    stack: list[tuple[Any, bool]] = [(soup, False)]
    while stack:
        node, preformatted = stack.pop()
        part = ""
        if node is _LEAVE:
            part = _PARAGRAPH_BREAK
        elif node is _LEAVE_QUOTE:
            quote_depth -= 1
            if quote_depth == 0:
                quotes.append((quote_start, length))
            continue
        elif isinstance(node, Tag):
            name = (node.name or "").lower()
            if name in _SKIPPED_TAGS or _hidden(node):
                continue
            if name == "br":
                part = "\n"
            else:
                inner_pre = preformatted or name in _PREFORMATTED_TAGS
                if name in _BLOCK_TAGS:
                    part = _PARAGRAPH_BREAK
                    stack.append((_LEAVE, False))
                if name == "blockquote":
                    stack.append((_LEAVE_QUOTE, False))
                    quote_depth += 1
                    if quote_depth == 1:
                        quote_start = length + len(part)
                stack.extend((child, inner_pre) for child in reversed(node.contents))
        elif isinstance(node, NavigableString) and not isinstance(
            node, PreformattedString | Script | Stylesheet | TemplateString
        ):
            # Comments, doctypes, CDATA and the like are PreformattedStrings: never shown.
            part = str(node) if preformatted else _WHITESPACE.sub(" ", str(node))
        if part:
            parts.append(part)
            length += len(part)
    return "".join(parts), tuple(quotes)


def _hidden(tag: Any) -> bool:
    attrs = tag.attrs or {}
    if "hidden" in attrs:
        return True
    return bool(_DISPLAY_NONE.search(str(attrs.get("style", ""))))
