"""Reads the text of an OpenDocument text (.odt): paragraphs, headings, lists, tables, sections
and text boxes in document order, then footnotes and endnotes. Headers and footers (kept in
the styles part) and comments are left out. Paragraphs in LibreOffice's "Quotations" style (or
a style derived from it, or another quote style: core.documents.extract.raw.QUOTE_STYLE_NAMES)
are reported as block quotes. Text a reader does not see - hidden (a hidden section, paragraph
or text field, or a style with text:display="none"), coloured like what is behind it
(fo:color against the text, paragraph, cell and page background), or 1 point small - is left
out and counted (core.documents.extract.visibility).

The package is opened with core.documents.extract.zipguard (parts inflated under real-byte
limits); styles.xml and then content.xml are read as streams of events
(core.documents.extract.xmlstream), so no tree is built and a part full of empty paragraphs
costs time, bounded by the element budget, not memory. Elements whose prefix was never declared
(some writers omit declarations; LibreOffice reads such files) are matched by their usual
prefix."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from core.documents.extract.raw import (
    RAW_TEXT_FACTOR,
    RawText,
    derived_quote_styles,
    is_quote_style_name,
    join_paragraphs,
    library_message,
)
from core.documents.extract.sniff import looks_like
from core.documents.extract.visibility import (
    HIDDEN,
    MAX_INVISIBLE_POINTS,
    TINY,
    UNKNOWN_RGB,
    WHITE_RGB,
    HiddenText,
    colour_reason,
    parse_rgb,
)
from core.documents.extract.xmlstream import ElementBudget, Handler, parse_part
from core.documents.extract.zipguard import SafeArchive
from core.errors import (
    CorruptDocument,
    DocumentError,
    DocumentTooLarge,
    EncryptedDocument,
    UnsupportedFormat,
)

_NAMESPACES = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
}
_OFFICE, _TEXT, _DRAW, _SVG, _STYLE, _TABLE, _FO = (
    "{" + _NAMESPACES[prefix] + "}"
    for prefix in ("office", "text", "draw", "svg", "style", "table", "fo")
)

_PARAGRAPHS = frozenset({f"{_TEXT}p", f"{_TEXT}h"})
_SPANS = frozenset({f"{_TEXT}span", f"{_TEXT}a"})
_STYLE_NAME = f"{_TEXT}style-name"
_INLINE_TEXT = {f"{_TEXT}tab": "\t", f"{_TEXT}line-break": "\n"}
# Subtrees that are not running text: tracked-change records (they hold deleted text), comments,
# index templates, declarations, alt text, pictures and embedded objects; in the styles part,
# the master pages (they hold the page headers and footers).
_SKIPPED = frozenset(
    {
        f"{_TEXT}tracked-changes",
        f"{_OFFICE}annotation",
        f"{_OFFICE}annotation-end",
        f"{_OFFICE}forms",
        f"{_TEXT}sequence-decls",
        f"{_TEXT}variable-decls",
        f"{_TEXT}user-field-decls",
        f"{_TEXT}table-of-content-source",
        f"{_TEXT}illustration-index-source",
        f"{_TEXT}alphabetical-index-source",
        f"{_TEXT}bibliography-source",
        f"{_TEXT}user-index-source",
        f"{_TEXT}object-index-source",
        f"{_TEXT}table-index-source",
        f"{_TEXT}note-citation",
        f"{_SVG}title",
        f"{_SVG}desc",
        f"{_DRAW}image",
        f"{_DRAW}object",
        f"{_DRAW}object-ole",
        f"{_STYLE}master-page",
    }
)

_XML_WHITESPACE = str.maketrans("\t\n\r", "   ")
_TEXT_MIMETYPE = "application/vnd.oasis.opendocument.text"
_PAGES_HINT = "a 1,000-page document has under 800,000"
# lengths in points
_UNITS = {"pt": 1.0, "px": 0.75, "pc": 12.0, "in": 72.0, "cm": 72 / 2.54, "mm": 72 / 25.4}
_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*(pt|px|pc|in|cm|mm|%)\s*")
_DEFAULT_POINTS = 12.0


def read_odt(data: bytes, path: Path, *, max_chars: int | None = None) -> RawText:
    """The text of the .odt in `data`. With `max_chars`, reading stops with DocumentTooLarge
    once the text read runs RAW_TEXT_FACTOR times over it."""
    if not data.startswith(b"PK"):
        raise CorruptDocument(
            path, f"it is not an OpenDocument .odt file (not a zip container){looks_like(data)}"
        )
    archive = SafeArchive(data, path)
    _check_package(archive, path)
    budget = ElementBudget(path, pages_hint=_PAGES_HINT)
    styles = _Styles()
    hidden = HiddenText()
    limit = None if max_chars is None else max_chars * RAW_TEXT_FACTOR
    reader = _Reader(styles, hidden, path, limit, max_chars or 0)
    if "styles.xml" in archive.names:
        reader.reading_styles = True
        parse_part(archive.chunks("styles.xml"), reader, budget, "styles.xml")
        reader.reading_styles = False
    parse_part(archive.chunks("content.xml"), reader, budget, "content.xml")
    if not reader.saw_body:
        raise CorruptDocument(path, "it has no text body")

    paragraphs = reader.paragraphs
    warnings: list[str] = []
    if reader.notes:
        paragraphs.extend((note, False) for note in reader.notes)
        warnings.append(
            f"added {len(reader.notes)} footnote/endnote paragraph(s) at the end of the text"
        )
    text, block_quotes = join_paragraphs(paragraphs)
    return RawText(text, tuple(warnings), block_quotes, hidden.tampering())


def _check_package(archive: SafeArchive, path: Path) -> None:
    """Encrypted, non-text and damaged packages, told apart before reading."""
    names = archive.names
    try:
        mimetype = (
            archive.read("mimetype").decode("utf-8", "replace").strip()
            if "mimetype" in names
            else _TEXT_MIMETYPE
        )
        manifest = (
            archive.read("META-INF/manifest.xml") if "META-INF/manifest.xml" in names else b""
        )
    except DocumentError:
        raise
    except Exception as exc:
        raise CorruptDocument(
            path, f"the file is damaged or incomplete ({library_message(exc)})"
        ) from exc
    if b"encryption-data" in manifest:
        raise EncryptedDocument(
            path,
            "it is password-protected; open it in LibreOffice, remove the password "
            "(File > Properties > Security) and save it again",
        )
    if not mimetype.startswith(_TEXT_MIMETYPE):
        kind = mimetype.rsplit(".", 1)[-1] if "opendocument" in mimetype else "unknown"
        raise UnsupportedFormat(
            path,
            f"it is an OpenDocument {kind}, not a text document; only .odt text is supported",
        )
    if "content.xml" not in names:
        raise CorruptDocument(path, "it has no content part (content.xml)")


# --- styles ------------------------------------------------------------------------------------

_Colour = tuple[int, int, int]


@dataclass(slots=True)
class _TextProps:
    """Text formatting: each field None when the style leaves it to its parent."""

    hidden: bool | None = None
    colour: _Colour | str | None = None  # "auto": the automatic (always readable) colour
    size: str | None = None  # "12pt", "50%"
    background: _Colour | str | None = None  # "none": transparent

    def over(self, base: _TextProps, base_points: float) -> tuple[_TextProps, float]:
        """These properties applied over `base` (whose font size is `base_points`)."""
        points = base_points
        if self.size is not None:
            points = _points(self.size, base_points)
        return (
            _TextProps(
                base.hidden if self.hidden is None else self.hidden,
                base.colour if self.colour is None else self.colour,
                base.size if self.size is None else self.size,
                base.background if self.background is None else self.background,
            ),
            points,
        )


def _points(size: str, base_points: float) -> float:
    match = _LENGTH.fullmatch(size)
    if match is None:
        return base_points
    value, unit = float(match.group(1)), match.group(2)
    return base_points * value / 100 if unit == "%" else value * _UNITS[unit]


def _colour(value: str | None, transparent: str) -> _Colour | str | None:
    if value is None:
        return None
    if value.strip().lower() == "transparent":
        return transparent
    return parse_rgb(value)


@dataclass(slots=True)
class _OdfStyle:
    family: str
    parent: str | None
    display_name: str
    text: _TextProps = field(default_factory=_TextProps)
    background: _Colour | str | None = None  # paragraph or cell background; "none"


@dataclass(slots=True)
class _Resolved:
    """Formatting in effect: the properties and the font size in points they give."""

    props: _TextProps
    points: float


class _Styles:
    """The named styles (styles.xml), the automatic ones (content.xml) and the defaults."""

    def __init__(self) -> None:
        self.styles: dict[tuple[str, str], _OdfStyle] = {}  # (family, name)
        self.defaults: dict[str, _OdfStyle] = {}  # family -> default style
        self.page_layouts: dict[str, _Colour | str | None] = {}
        self.page = WHITE_RGB
        self._resolved: dict[tuple[str, str | None], _Resolved] = {}

    def quote_styles(self) -> frozenset[str]:
        """The names of the paragraph styles that are quote styles or derive from one: the
        automatic styles ("P3") a paragraph formatted by hand gets name their parent."""
        # names escape spaces and other characters as _20_ ("Intense_20_Quote")
        return derived_quote_styles(
            {
                name: (
                    is_quote_style_name(_unescape(name)) or is_quote_style_name(style.display_name),
                    style.parent,
                )
                for (family, name), style in self.styles.items()
                if family == "paragraph"
            }
        )

    def _chain(self, family: str, name: str | None) -> list[_OdfStyle]:
        chain: list[_OdfStyle] = []
        seen: set[str] = set()
        while name is not None and name not in seen:
            style = self.styles.get((family, name))
            if style is None:
                break
            seen.add(name)
            chain.append(style)
            name = style.parent
        return chain[::-1]

    def paragraph(self, name: str | None) -> _Resolved:
        key = ("paragraph", name)
        resolved = self._resolved.get(key)
        if resolved is None:
            props, points = _TextProps(), _DEFAULT_POINTS
            default = self.defaults.get("paragraph")
            for style in ([default] if default else []) + self._chain("paragraph", name):
                props, points = style.text.over(props, points)
            resolved = self._resolved[key] = _Resolved(props, points)
        return resolved

    def span(self, outer: _Resolved, name: str | None) -> _Resolved:
        props, points = outer.props, outer.points
        for style in self._chain("text", name):
            props, points = style.text.over(props, points)
        return _Resolved(props, points)

    def background(self, family: str, name: str | None) -> _Colour | str | None:
        background: _Colour | str | None = None
        for style in self._chain(family, name):
            if style.background is not None:
                background = style.background
        return background


def _unescape(name: str) -> str:
    return re.sub(r"_([0-9a-fA-F]{2})_", lambda m: chr(int(m.group(1), 16)), name)


# --- the reader --------------------------------------------------------------------------------


class _Paragraph:
    __slots__ = ("boxes", "depth", "hidden", "parts", "style")

    def __init__(self, style: str | None, depth: int) -> None:
        self.style = style
        self.depth = depth
        self.hidden = False  # a text:hidden-paragraph field hides it
        self.parts: list[tuple[str, str]] = []  # (text, why it is hidden or "")
        self.boxes: list[tuple[str, bool]] = []  # its text-box paragraphs


@dataclass(slots=True)
class _Formatting:
    """What is in effect at a point of a paragraph: formatting, what is behind the text, and
    why text there is hidden (computed on first use)."""

    resolved: _Resolved
    behind: _Colour
    why: str | None = None


_STYLE_ELEMENTS = frozenset({f"{_STYLE}style", f"{_STYLE}default-style"})
_PROPERTY_ELEMENTS = frozenset(
    {
        f"{_STYLE}text-properties",
        f"{_STYLE}paragraph-properties",
        f"{_STYLE}table-cell-properties",
        f"{_STYLE}table-properties",
        f"{_STYLE}page-layout-properties",
    }
)
# tables and cells, with the style family of their backgrounds
_CELLS = {
    f"{_TABLE}table": "table",
    f"{_TABLE}table-cell": "table-cell",
    f"{_TABLE}covered-table-cell": "table-cell",
}
_FALSE = frozenset({"false", "0", "no"})
_MASTER_PAGE = f"{_STYLE}master-page"
_SECTION = f"{_TEXT}section"
_DISPLAY = f"{_TEXT}display"
_IS_HIDDEN = f"{_TEXT}is-hidden"
_SPACE_COUNT = f"{_TEXT}c"
_TABLE_STYLE_NAME = f"{_TABLE}style-name"
# what an element starts, for the reader's dispatch (one dictionary look-up per element)
(
    _K_PARAGRAPH,
    _K_SPAN,
    _K_SPACES,
    _K_INLINE,
    _K_SKIP,
    _K_NOTE_BODY,
    _K_TEXT_BOX,
    _K_CELL,
    _K_HIDDEN,
    _K_HIDDEN_PARAGRAPH,
    _K_STYLE,
    _K_PROPERTIES,
    _K_PAGE_LAYOUT,
    _K_BODY,
) = range(14)
_KINDS: dict[str, int] = {
    **dict.fromkeys(_SKIPPED, _K_SKIP),
    **dict.fromkeys(_PARAGRAPHS, _K_PARAGRAPH),
    **dict.fromkeys(_SPANS, _K_SPAN),
    f"{_TEXT}s": _K_SPACES,
    **dict.fromkeys(_INLINE_TEXT, _K_INLINE),
    f"{_TEXT}note-body": _K_NOTE_BODY,
    f"{_DRAW}text-box": _K_TEXT_BOX,
    **dict.fromkeys(_CELLS, _K_CELL),
    f"{_TEXT}hidden-text": _K_HIDDEN,
    _SECTION: _K_HIDDEN,
    f"{_TEXT}hidden-paragraph": _K_HIDDEN_PARAGRAPH,
    **dict.fromkeys(_STYLE_ELEMENTS, _K_STYLE),
    **dict.fromkeys(_PROPERTY_ELEMENTS, _K_PROPERTIES),
    f"{_STYLE}page-layout": _K_PAGE_LAYOUT,
    f"{_OFFICE}text": _K_BODY,
}


class _Reader(Handler):
    """Reads styles.xml (only its styles) and then content.xml from their events."""

    def __init__(
        self, styles: _Styles, hidden: HiddenText, path: Path, limit: int | None, max_chars: int
    ) -> None:
        self.paragraphs: list[tuple[str, bool]] = []
        self.notes: list[str] = []
        self.saw_body = False
        self.reading_styles = False
        self._styles = styles
        self._hidden = hidden
        self._path = path
        self._limit = limit
        self._max_chars = max_chars
        self._chars = 0
        self._quote_styles: frozenset[str] | None = None
        self._depth = 0
        self._skip_at = 0
        self._hidden_at: list[int] = []  # depths of open hidden sections and hidden-text fields
        self._style: _OdfStyle | None = None  # the style being read
        self._page_layout: str | None = None  # the page layout being read
        self._open: list[_Paragraph] = []
        self._formatting: list[_Formatting] = []  # one per open paragraph and span
        # what is behind the text in each open table and cell (the page outside them)
        self._fills: list[_Colour] = [styles.page]
        self._paragraph_formatting: dict[tuple[str | None, _Colour], _Formatting] = {}
        # open note bodies and text boxes, innermost last, with the depth each opened at
        self._containers: list[tuple[str, int]] = []
        self._ends: list[tuple[int, str]] = []  # (depth, what to undo) for open elements

    # events
    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.used += 1
        if self.used > self.limit:
            self.over()
        depth = self._depth = self._depth + 1
        if self._skip_at:
            return
        kind = _KINDS.get(tag)
        if kind is None:
            if tag[0] == "{":
                return  # the common case: an element that changes nothing
            tag, attrib = _declared(tag, attrib)
            kind = _KINDS.get(tag)
            if kind is None:
                return
        if kind == _K_PARAGRAPH:
            self._start_paragraph(attrib, depth)
        elif kind == _K_SPAN:
            if self._formatting:
                outer = self._formatting[-1]
                resolved = self._styles.span(outer.resolved, attrib.get(_STYLE_NAME))
                self._formatting.append(_Formatting(resolved, outer.behind))
                self._ends.append((depth, "formatting"))
        elif kind == _K_SPACES:
            if self._open:
                self._add(" " * _space_count(attrib.get(_SPACE_COUNT)))
        elif kind == _K_INLINE:
            self._add(_INLINE_TEXT[tag])
        elif kind == _K_SKIP:
            if tag == _MASTER_PAGE:
                self._master_page(attrib)
            self._skip_at = depth
        elif kind == _K_NOTE_BODY:
            self._containers.append(("note", depth))
            self._ends.append((depth, "container"))
        elif kind == _K_TEXT_BOX:
            self._containers.append(("box", depth))
            self._ends.append((depth, "container"))
            # drawn in a frame whose fill is not read: what is behind its text is unknown
            self._fills.append(UNKNOWN_RGB)
            self._ends.append((depth, "fill"))
        elif kind == _K_CELL:
            fill = self._styles.background(_CELLS[tag], attrib.get(_TABLE_STYLE_NAME))
            self._fills.append(fill if isinstance(fill, tuple) else self._fills[-1])
            self._ends.append((depth, "fill"))
        elif kind == _K_HIDDEN:
            if (tag != _SECTION or attrib.get(_DISPLAY) == "none") and attrib.get(
                _IS_HIDDEN, "true"
            ).lower() not in _FALSE:
                self._hidden_at.append(depth)
                self._ends.append((depth, "hidden"))
        elif kind == _K_HIDDEN_PARAGRAPH:
            if self._open and attrib.get(_IS_HIDDEN, "true").lower() not in _FALSE:
                self._open[-1].hidden = True
        elif kind == _K_STYLE:
            self._start_style(tag, attrib)
        elif kind == _K_PROPERTIES:
            self._properties(tag, attrib)
        elif kind == _K_PAGE_LAYOUT:
            self._page_layout = attrib.get(f"{_STYLE}name")
        elif kind == _K_BODY and not self.reading_styles:
            self.saw_body = True
            self._fills = [self._styles.page]  # known now: styles.xml has been read

    def end(self, tag: str) -> None:
        depth = self._depth
        self._depth = depth - 1
        if self._skip_at:
            if depth == self._skip_at:
                self._skip_at = 0
            return
        ends = self._ends
        while ends and ends[-1][0] == depth:  # what the element that ends had started
            what = ends.pop()[1]
            if what == "formatting":
                self._formatting.pop()
            elif what == "paragraph":
                self._formatting.pop()
                self._end_paragraph()
            elif what == "container":
                self._containers.pop()
            elif what == "fill":
                self._fills.pop()
            elif what == "hidden":
                self._hidden_at.pop()
            elif what == "style":
                self._style = None

    def data(self, text: str) -> None:
        if self._open and not self._skip_at:
            self._add(text.translate(_XML_WHITESPACE))

    # styles
    def _start_style(self, tag: str, attrib: dict[str, str]) -> None:
        family = attrib.get(f"{_STYLE}family", "paragraph")
        style = _OdfStyle(
            family,
            attrib.get(f"{_STYLE}parent-style-name"),
            attrib.get(f"{_STYLE}display-name", ""),
        )
        if tag == f"{_STYLE}default-style":
            self._styles.defaults[family] = style
        else:
            name = attrib.get(f"{_STYLE}name")
            if not name:
                return
            self._styles.styles[family, name] = style
        self._style = style
        self._ends.append((self._depth, "style"))

    def _properties(self, tag: str, attrib: dict[str, str]) -> None:
        background = _colour(attrib.get(f"{_FO}background-color"), "none")
        if tag == f"{_STYLE}page-layout-properties":
            if self._page_layout is not None:
                self._styles.page_layouts[self._page_layout] = background
            return
        style = self._style
        if style is None:
            return
        if tag == f"{_STYLE}text-properties":
            text = style.text
            display = attrib.get(f"{_TEXT}display")
            if display is not None:
                text.hidden = display == "none"
            if attrib.get(f"{_STYLE}use-window-font-color") == "true":
                text.colour = "auto"
            elif f"{_FO}color" in attrib:
                text.colour = parse_rgb(attrib[f"{_FO}color"]) or "auto"
            text.size = attrib.get(f"{_FO}font-size", text.size)
            if background is not None:
                text.background = background
        elif background is not None:  # paragraph, table or table cell properties
            style.background = background

    def _master_page(self, attrib: dict[str, str]) -> None:
        """The page colour: that of the default master page's layout."""
        name = attrib.get(f"{_STYLE}name")
        layout = self._styles.page_layouts.get(attrib.get(f"{_STYLE}page-layout-name", ""))
        if name == "Standard" and isinstance(layout, tuple):
            self._styles.page = layout

    # paragraphs
    def _start_paragraph(self, attrib: dict[str, str], depth: int) -> None:
        if self.reading_styles:
            return
        style = attrib.get(_STYLE_NAME)
        self._open.append(_Paragraph(style, depth))
        key = (style, self._fills[-1])
        formatting = self._paragraph_formatting.get(key)
        if formatting is None:
            styles = self._styles
            own = styles.background("paragraph", style)
            behind = own if isinstance(own, tuple) else self._fills[-1]
            formatting = _Formatting(styles.paragraph(style), behind)
            self._paragraph_formatting[key] = formatting
        self._formatting.append(formatting)
        self._ends.append((depth, "paragraph"))

    def _add(self, text: str) -> None:
        if not self._open:
            return
        if self._containers and self._containers[-1][1] > self._open[-1].depth:
            return  # in a note body or text box, between its paragraphs
        formatting = self._formatting[-1]
        if formatting.why is None:
            formatting.why = _why_hidden(formatting)
        why = formatting.why
        if self._hidden_at:
            why = f"{HIDDEN},{why}" if why else HIDDEN
        self._open[-1].parts.append((text, why))
        self._chars += len(text)
        if self._limit is not None and self._chars > self._limit:
            raise DocumentTooLarge(
                self._path, f"its text is longer than the limit of {self._max_chars:,} characters"
            )

    def _end_paragraph(self) -> None:
        paragraph = self._open.pop()
        if not paragraph.parts and not paragraph.boxes:
            return
        parts = paragraph.parts
        if paragraph.hidden:  # (a hidden paragraph: every part of it, for its own reasons)
            parts = [(text, why or HIDDEN) for text, why in parts]
        text = self._hidden.visible(parts)
        if self._quote_styles is None:
            self._quote_styles = self._styles.quote_styles()
        entries: list[tuple[str, bool]] = []
        if text.strip():
            entries.append((text, paragraph.style in self._quote_styles))
        entries.extend(paragraph.boxes)
        # where it goes: the innermost note body or text box it is in, or the body
        container = self._containers[-1][0] if self._containers else ""
        if container == "note":
            self.notes.extend(text for text, _ in entries)
        elif container == "box" and self._open:
            self._open[-1].boxes.extend(entries)
        else:
            self.paragraphs.extend(entries)


def _why_hidden(formatting: _Formatting) -> str:
    props = formatting.resolved.props
    reasons: list[str] = []
    if props.hidden:
        reasons.append(HIDDEN)
    if formatting.resolved.points <= MAX_INVISIBLE_POINTS:
        reasons.append(TINY)
    if isinstance(props.colour, tuple):
        background = props.background if isinstance(props.background, tuple) else formatting.behind
        why = colour_reason(props.colour, background)
        if why:
            reasons.append(why)
    return ",".join(reasons)


def _declared(tag: str, attrib: dict[str, str]) -> tuple[str, dict[str, str]]:
    """A tag and attributes whose prefixes were never declared ("text:p"), in Clark notation
    where the prefix is one of the usual ODF prefixes."""

    def clark(name: str) -> str:
        prefix, _, local = name.partition(":")
        namespace = _NAMESPACES.get(prefix)
        return f"{{{namespace}}}{local}" if local and namespace else name

    return clark(tag), {clark(key): value for key, value in attrib.items()}


def _space_count(value: str | None) -> int:
    try:
        return max(1, min(int(value or "1"), 1000))
    except ValueError:
        return 1
