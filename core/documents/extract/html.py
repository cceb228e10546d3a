"""Reads the visible text of a web page (.html, .htm) with Python's html.parser, as a stream.

Left out: script, style, noscript, template, svg and everything in <head> (the title too), plus
elements marked `hidden` or styled `display: none`. Block elements (p, div, h1-h6, li, td ...)
become paragraph breaks and <br> a line break; whitespace inside text is collapsed as a browser
does, except in <pre>. The text of each outermost <blockquote> is reported as a block quote.

Elements nest as BeautifulSoup's html.parser tree builder nests them (an end tag closes the most
recent open element of its name and those inside it; void elements such as <br> never hold
anything), but no tree is built: the parser's events are turned into text as they come, keeping
only the open elements, so a page of 200 MiB of nested tags costs no more memory than its
depth. Every start tag counts against MAX_HTML_TAGS, so the work is bounded too.

Encoding: a byte-order mark or a declared charset (meta tag) is honoured through bs4's
UnicodeDammit; a page that declares nothing goes through the same detection as a .txt file,
because bs4's fallback guesses (charset-normalizer) misread short Windows-1252 pages."""

from __future__ import annotations

import logging
import re
from html.parser import HTMLParser
from pathlib import Path

from core.documents.extract.encoding import decode_text
from core.documents.extract.raw import RAW_TEXT_FACTOR, RawText, library_message
from core.documents.extract.sniff import mislabelled_kind
from core.errors import CorruptDocument, DocumentError, DocumentTooLarge

# bs4 reports undecodable bytes through logging; without any handler Python would print the
# record to stderr. A NullHandler silences that and still lets an application's logging see it.
logging.getLogger("bs4").addHandler(logging.NullHandler())

#: Most start tags read from one page (docs/formats.md, "Limits"): 1,000 pages of a novel are
#: 11,000 tags with a <p> per paragraph, and under 100,000 as word processors export them, with a
#: <span> for every change of formatting. Each costs about 10 us.
MAX_HTML_TAGS = 500_000

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
# elements that never hold anything: an end tag for one is ignored (as bs4 does)
_VOID_TAGS = frozenset(
    {"area", "base", "basefont", "bgsound", "br", "col", "command", "embed", "frame", "hr",
     "image", "img", "input", "isindex", "keygen", "link", "menuitem", "meta", "nextid",
     "param", "source", "spacer", "track", "wbr"}
)  # fmt: skip
_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")
_PARAGRAPH_BREAK = "\n\n"
_FEED_CHARS = 1 << 20

# what closing an open element does (bit flags)
_SKIP = 1  # it was left out, with everything inside it
_BLOCK = 2  # it ends a paragraph
_QUOTE = 4  # a <blockquote>
_PRE = 8  # whitespace inside it is kept


def read_html(data: bytes, path: Path, *, max_chars: int | None = None) -> RawText:
    kind = mislabelled_kind(data)
    if kind is not None:
        raise CorruptDocument(
            path,
            f"it is not a web page: it looks like {kind}; give it the matching file extension",
        )

    from bs4.dammit import EncodingDetector, UnicodeDammit  # only needed for web pages

    warnings: list[str] = []
    try:
        _, bom_encoding = EncodingDetector.strip_byte_order_mark(data)
        declared = bom_encoding or EncodingDetector.find_declared_encoding(data, is_html=True)
        if declared:
            dammit = UnicodeDammit(data, is_html=True)
            markup = dammit.unicode_markup
            if markup is None:
                raise ValueError("the page's characters cannot be decoded")
            encoding = (dammit.original_encoding or "").lower()
            if encoding not in {"utf-8", "ascii", ""}:
                source = "byte-order mark" if bom_encoding else "declared by the page"
                warnings.append(f"encoding detected as {encoding} ({source})")
            if dammit.contains_replacement_characters:
                warnings.append("some characters could not be decoded and show as �")
        else:
            decoded = decode_text(data, path)
            if decoded.warning:
                warnings.append(decoded.warning)
            markup = decoded.text
        limit = None if max_chars is None else max_chars * RAW_TEXT_FACTOR
        reader = _VisibleText(path, limit, max_chars or 0)
        for start in range(0, len(markup), _FEED_CHARS):
            reader.feed(markup[start : start + _FEED_CHARS])
        reader.close()
        text, block_quotes = reader.result()
    except DocumentError:
        raise
    except Exception as exc:
        raise CorruptDocument(
            path, f"it cannot be read as a web page ({library_message(exc)})"
        ) from exc
    return RawText(text, tuple(warnings), block_quotes)


class _VisibleText(HTMLParser):
    """The page's visible text, and the spans of its outermost <blockquote>s in it, from the
    parser's events. Only the open elements are kept: their names and what closing each does."""

    def __init__(self, path: Path, limit: int | None, max_chars: int) -> None:
        super().__init__(convert_charrefs=True)
        self._path = path
        self._limit = limit
        self._max_chars = max_chars
        self._tags = 0
        self._names: list[str] = []  # open elements, outermost first ...
        self._flags: list[int] = []  # ... and what closing each does
        self._open_count: dict[str, int] = {}  # how many elements of each name are open
        self._skipping = 0  # open elements that are left out
        self._preformatted = 0  # open elements that keep whitespace
        self._quote_depth = 0
        self._quote_start = 0
        self._quotes: list[tuple[int, int]] = []
        self._parts: list[str] = []
        self._length = 0  # of "".join(self._parts)
        self._pending: list[str] = []  # text not yet added: adjacent pieces are one string

    def result(self) -> tuple[str, tuple[tuple[int, int], ...]]:
        self._flush()
        while self._names:  # elements never closed end with the page
            self._pop()
        return "".join(self._parts), tuple(self._quotes)

    # events
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs)
        if tag in _VOID_TAGS:
            self._pop_to(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs)  # <div/> is an empty div, as in bs4
        self._pop_to(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID_TAGS:  # void elements were closed when they started
            self._flush()
            self._pop_to(tag)

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._pending.append(data)

    # the work
    def _start(self, name: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tags += 1
        if self._tags > MAX_HTML_TAGS:
            raise DocumentTooLarge(
                self._path,
                f"it has more HTML tags than the limit of {MAX_HTML_TAGS:,} (a 1,000-page "
                "document has well under 100,000); not opened",
            )
        self._flush()
        flags = 0
        if self._skipping or name in _SKIPPED_TAGS or _hidden(attrs):
            flags = _SKIP
            self._skipping += 1
        elif name == "br":
            self._add("\n")
        else:
            if name in _PREFORMATTED_TAGS:
                flags |= _PRE
                self._preformatted += 1
            if name in _BLOCK_TAGS:
                flags |= _BLOCK
                self._add(_PARAGRAPH_BREAK)
            if name == "blockquote":
                flags |= _QUOTE
                self._quote_depth += 1
                if self._quote_depth == 1:
                    self._quote_start = self._length
        self._names.append(name)
        self._flags.append(flags)
        self._open_count[name] = self._open_count.get(name, 0) + 1

    def _pop_to(self, name: str) -> None:
        """Close the most recent open element called `name` and everything inside it; nothing
        when none is open."""
        if self._open_count.get(name):
            while self._pop() != name:
                pass

    def _pop(self) -> str:
        name = self._names.pop()
        flags = self._flags.pop()
        self._open_count[name] -= 1
        if flags & _SKIP:
            self._skipping -= 1
            return name
        if flags & _PRE:
            self._preformatted -= 1
        if flags & _QUOTE:
            self._quote_depth -= 1
            if self._quote_depth == 0:
                self._quotes.append((self._quote_start, self._length))
        if flags & _BLOCK:
            self._add(_PARAGRAPH_BREAK)
        return name

    def _flush(self) -> None:
        if self._pending:
            text = "".join(self._pending)
            self._pending.clear()
            self._add(text if self._preformatted else _WHITESPACE.sub(" ", text))

    def _add(self, part: str) -> None:
        self._parts.append(part)
        self._length += len(part)
        if self._limit is not None and self._length > self._limit:
            raise DocumentTooLarge(
                self._path, f"its text is longer than the limit of {self._max_chars:,} characters"
            )


def _hidden(attrs: list[tuple[str, str | None]]) -> bool:
    for key, value in attrs:
        if key == "hidden" or (key == "style" and value and _DISPLAY_NONE.search(value)):
            return True
    return False
