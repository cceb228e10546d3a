"""Reads the text of a Word .docx: body paragraphs and tables in document order, then footnotes
and endnotes. Headers, footers and comments are left out. Paragraphs in a quote style (Word's
"Quote", "Intense Quote", "Block Text", or a style based on one) are reported as block quotes.
Text a reader does not see - hidden (w:vanish, directly or through a style), coloured like what
is behind it (w:color against run, paragraph and cell shading and the page colour), or 1 point
small (w:sz <= 2 half-points) - is left out and counted (core.documents.extract.visibility).

The package is opened with core.documents.extract.zipguard (parts inflated under real-byte
limits) and each XML part is read as a stream of events (core.documents.extract.xmlstream): the
main part is found through the package relationships, its styles, footnotes and endnotes
through its own. No tree is built, so a part full of empty paragraphs costs time, bounded by
the element budget, not memory."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from core.documents.extract.raw import (
    RAW_TEXT_FACTOR,
    RawText,
    derived_quote_styles,
    is_quote_style_name,
    join_paragraphs,
)
from core.documents.extract.sniff import is_encrypted_office_file, is_ole2, looks_like
from core.documents.extract.visibility import (
    HIDDEN,
    HIGHLIGHTS,
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
from core.errors import CorruptDocument, DocumentTooLarge, EncryptedDocument, UnsupportedFormat

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_W_STRICT = "{http://purl.oclc.org/ooxml/wordprocessingml/main}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"

_DOCUMENT = f"{_W}document"
_BACKGROUND = f"{_W}background"
_P = f"{_W}p"
_R = f"{_W}r"
_T = f"{_W}t"
_TC = f"{_W}tc"
_TBL = f"{_W}tbl"
_VAL = f"{_W}val"
_P_STYLE = f"{_W}pStyle"
_SHD = f"{_W}shd"
_TBL_STYLE = f"{_W}tblStyle"
_TEXT_BOX = f"{_W}txbxContent"
_INLINE_TEXT = {
    f"{_W}tab": "\t",
    f"{_W}ptab": "\t",
    f"{_W}br": "\n",
    f"{_W}cr": "\n",
    f"{_W}noBreakHyphen": "-",
    f"{_W}softHyphen": "\u00ad",
}
# Subtrees whose text is not part of what the reader sees: tracked deletions and moved-away
# text, field instructions, records of formatting changes, and mc:Fallback (a second copy of
# mc:Choice content, e.g. the same text box drawn the old way).
_SKIPPED = frozenset(
    {
        f"{_W}del",
        f"{_W}moveFrom",
        f"{_W}instrText",
        f"{_W}delText",
        f"{_W}delInstrText",
        f"{_MC}Fallback",
    }
)
# Property elements: they hold no text. Their direct children are read for the paragraph's
# style and shading (w:pPr in w:p), the run's formatting (w:rPr in w:r) and the shading of a
# table or cell (w:tblPr, w:tcPr); everything below those is ignored.
_PROPERTIES = frozenset(
    f"{_W}{name}"
    for name in ("pPr", "rPr", "tcPr", "tblPr", "trPr", "tblPrEx", "sectPr", "sdtPr", "sdtEndPr")
)
# Notes with these types are the separator lines Word draws above notes, not notes.
_SEPARATOR_NOTE_TYPES = frozenset({"separator", "continuationSeparator", "continuationNotice"})

_DOCX_KIND = "a Word (.docx) document"  # as core.documents.extract.sniff describes one
_PAGES_HINT = "a 1,000-page document has under 800,000"

_DEFAULT_MAIN = "word/document.xml"


def read_docx(data: bytes, path: Path, *, max_chars: int | None = None) -> RawText:
    """The text of the .docx in `data`. With `max_chars`, reading stops with DocumentTooLarge
    once the text read runs RAW_TEXT_FACTOR times over it."""
    if is_encrypted_office_file(data):
        raise EncryptedDocument(
            path,
            "it is password-protected; open it in Word, remove the password "
            "(File > Info > Protect Document) and save it again",
        )
    if is_ole2(data):
        raise CorruptDocument(
            path,
            "it is not a .docx file but an old-style Word 97-2003 document (.doc) or another "
            "Office file; open it in Word or LibreOffice and save it as .docx",
        )
    if not data.startswith(b"PK"):
        raise CorruptDocument(
            path, f"it is not a Word .docx file (not a zip container){looks_like(data)}"
        )
    archive = SafeArchive(data, path)
    budget = ElementBudget(path, pages_hint=_PAGES_HINT)
    main = _main_part(archive, data, path, budget)
    related = _related_parts(archive, main, budget)
    styles = _Styles()
    if "styles" in related:
        parse_part(archive.chunks(related["styles"]), styles, budget, related["styles"])

    limit = None if max_chars is None else max_chars * RAW_TEXT_FACTOR
    counter = _Counter(path, limit, max_chars or 0)
    hidden = HiddenText()
    body = _TextReader(styles, hidden, counter, root_check=_root_check(data, path, main))
    parse_part(archive.chunks(main), body, budget, main)
    paragraphs = body.paragraphs
    warnings: list[str] = []
    for kind, note_tag in (("footnote", f"{_W}footnote"), ("endnote", f"{_W}endnote")):
        part = related.get(f"{kind}s")
        if part is None:
            continue
        reader = _TextReader(styles, hidden, counter, note_tag=note_tag)
        parse_part(archive.chunks(part), reader, budget, part)
        if reader.paragraphs:
            paragraphs.extend(reader.paragraphs)
            warnings.append(f"added {len(reader.paragraphs)} {kind}(s) at the end of the text")
    text, block_quotes = join_paragraphs(paragraphs)
    return RawText(text, tuple(warnings), block_quotes, hidden.tampering())


class _Counter:
    """The raw text's length so far, refused past the limit."""

    def __init__(self, path: Path, limit: int | None, max_chars: int) -> None:
        self.path = path
        self.limit = limit
        self.max_chars = max_chars
        self.chars = 0

    def add(self, n: int) -> None:
        self.chars += n
        if self.limit is not None and self.chars > self.limit:
            raise DocumentTooLarge(
                self.path, f"its text is longer than the limit of {self.max_chars:,} characters"
            )


# --- the package: which part is the document, and which parts belong to it --------------------


class _Relationships(Handler):
    """Collects (type, target) of each internal relationship in a .rels part."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str]] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        super().start(tag, attrib)
        if tag == f"{_RELS}Relationship" and attrib.get("TargetMode") != "External":
            kind = attrib.get("Type", "").rsplit("/", 1)[-1]
            target = attrib.get("Target")
            if kind and target:
                self.found.append((kind, target))


def _relationships(
    archive: SafeArchive, source: str, budget: ElementBudget
) -> list[tuple[str, str]]:
    """(type, part name) of the internal relationships of `source` ("" for the package)."""
    folder, name = posixpath.split(source)
    rels = archive.find(posixpath.join(folder, "_rels", f"{name}.rels"))
    if rels is None:
        return []
    reader = _Relationships()
    parse_part(archive.chunks(rels), reader, budget, rels)
    parts = []
    for kind, target in reader.found:
        target = unquote(target)
        resolved = posixpath.normpath(
            target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
        )
        part = archive.find(resolved)
        if part is not None:
            parts.append((kind, part))
    return parts


def _main_part(archive: SafeArchive, data: bytes, path: Path, budget: ElementBudget) -> str:
    for kind, part in _relationships(archive, "", budget):
        if kind == "officeDocument":
            return part
    default = archive.find(_DEFAULT_MAIN)
    if default is None:
        raise CorruptDocument(
            path,
            "it cannot be opened as a Word document (it has no main document part)"
            + looks_like(data, expected=_DOCX_KIND),
        )
    return default


def _related_parts(archive: SafeArchive, main: str, budget: ElementBudget) -> dict[str, str]:
    wanted = {"styles", "footnotes", "endnotes"}
    parts: dict[str, str] = {}
    for kind, part in _relationships(archive, main, budget):
        if kind in wanted and kind not in parts:
            parts[kind] = part
    return parts


def _root_check(data: bytes, path: Path, part: str) -> Callable[[str], None]:
    """What checks the main part's root element: a Word document body, not Strict Open XML or
    another Office file's main part."""

    def check(tag: str) -> None:
        if tag == f"{_W_STRICT}document":
            raise UnsupportedFormat(
                path,
                "it is saved as Strict Open XML, which cannot be read; open it in Word and "
                "save it as a normal Word document (.docx)",
            )
        if tag != _DOCUMENT:
            raise CorruptDocument(
                path,
                f"it cannot be opened as a Word document (its main part {part} is not a Word "
                "document body)" + looks_like(data, expected=_DOCX_KIND),
            )

    return check


# --- styles ------------------------------------------------------------------------------------

_Props = dict[str, object]  # run formatting: vanish, color, sz, shd, highlight, rStyle


def _is_on(value: str | None) -> bool:
    return value is None or value.lower() not in {"0", "false", "off", "none"}


def _shading(attrib: dict[str, str]) -> tuple[int, int, int] | None:
    """The colour a w:shd paints, or None when it is transparent ("auto", "nil")."""
    if attrib.get(_VAL) == "solid":  # the pattern colour covers everything
        solid = parse_rgb(attrib.get(f"{_W}color"))
        if solid is not None:
            return solid
    return parse_rgb(attrib.get(f"{_W}fill"))


def _size(attrib: dict[str, str]) -> int | None:
    try:
        return int(attrib.get(_VAL, ""))
    except ValueError:
        return None


# what each run property element sets: its key and how its value is read
_RUN_PROPERTIES: dict[str, tuple[str, Callable[[dict[str, str]], object]]] = {
    f"{_W}vanish": ("vanish", lambda attrib: _is_on(attrib.get(_VAL))),
    # None: automatic colour, always readable
    f"{_W}color": ("color", lambda attrib: parse_rgb(attrib.get(_VAL))),
    f"{_W}sz": ("sz", _size),
    f"{_W}shd": ("shd", _shading),
    f"{_W}highlight": ("highlight", lambda attrib: HIGHLIGHTS.get(attrib.get(_VAL, ""))),
    f"{_W}rStyle": ("rStyle", lambda attrib: attrib.get(_VAL)),
}


def _run_property(tag: str, attrib: dict[str, str], props: _Props) -> None:
    known = _RUN_PROPERTIES.get(tag)
    if known is not None:
        key, read = known
        props[key] = read(attrib)


@dataclass(slots=True)
class _Style:
    kind: str
    name: str = ""
    based_on: str | None = None
    props: _Props = field(default_factory=dict)
    shading: tuple[int, int, int] | None = None
    has_shading: bool = False


class _Styles(Handler):
    """The styles part, read as events: each style's name, base, run formatting and paragraph
    shading, and the document defaults. Answers what formatting a run ends up with."""

    def __init__(self) -> None:
        self.styles: dict[str, _Style] = {}
        self.defaults: _Props = {}
        self.default_paragraph: str | None = None
        self._tags: list[str] = []
        self._current: _Style | None = None
        self._merged: dict[tuple[str, str | None], _Props] = {}
        self._quote_styles: frozenset[str] | None = None

    # events
    def start(self, tag: str, attrib: dict[str, str]) -> None:
        super().start(tag, attrib)
        tags = self._tags
        parent = tags[-1] if tags else ""
        grandparent = tags[-2] if len(tags) > 1 else ""
        tags.append(tag)
        if tag == f"{_W}style":
            style_id = attrib.get(f"{_W}styleId")
            self._current = None
            if style_id:
                kind = attrib.get(f"{_W}type", "paragraph")
                self._current = self.styles[style_id] = _Style(kind)
                if kind == "paragraph" and _is_on(attrib.get(f"{_W}default", "0")):
                    self.default_paragraph = style_id
            return
        current = self._current
        if parent == f"{_W}rPr":
            if grandparent == f"{_W}style" and current is not None:
                _run_property(tag, attrib, current.props)
            elif grandparent == f"{_W}rPrDefault":
                _run_property(tag, attrib, self.defaults)
        elif current is not None and parent == f"{_W}style":
            if tag == f"{_W}name":
                current.name = attrib.get(_VAL, "")
            elif tag == f"{_W}basedOn":
                current.based_on = attrib.get(_VAL)
        elif (
            current is not None
            and tag == _SHD
            and parent == f"{_W}pPr"
            and grandparent == f"{_W}style"
        ):
            current.shading = _shading(attrib)
            current.has_shading = True

    def end(self, tag: str) -> None:
        self._tags.pop()
        if tag == f"{_W}style":
            self._current = None

    # questions
    def quote_styles(self) -> frozenset[str]:
        """The ids of the paragraph styles that are quote styles or based on one (any depth)."""
        if self._quote_styles is None:
            self._quote_styles = derived_quote_styles(
                {
                    sid: (
                        is_quote_style_name(sid) or is_quote_style_name(style.name),
                        style.based_on,
                    )
                    for sid, style in self.styles.items()
                    if style.kind == "paragraph"
                }
            )
        return self._quote_styles

    def _chain(self, style_id: str | None, kind: str) -> list[_Style]:
        """The style and the styles it is based on, the base first; a cycle ends the chain."""
        chain: list[_Style] = []
        seen: set[str] = set()
        while style_id is not None and style_id not in seen:
            style = self.styles.get(style_id)
            if style is None or style.kind != kind:
                break
            seen.add(style_id)
            chain.append(style)
            style_id = style.based_on
        return chain[::-1]

    def run_props(self, paragraph_style: str | None, character_style: str | None) -> _Props:
        """The run formatting the document defaults, the paragraph's style and the run's
        character style give (each overriding the one before)."""
        key = (paragraph_style or self.default_paragraph or "", character_style)
        merged = self._merged.get(key)
        if merged is None:
            merged = dict(self.defaults)
            for style in self._chain(key[0] or None, "paragraph"):
                merged.update(style.props)
            for style in self._chain(character_style, "character"):
                merged.update(style.props)
            self._merged[key] = merged
        return merged

    def paragraph_shading(self, paragraph_style: str | None) -> tuple[int, int, int] | None:
        shading = None
        for style in self._chain(paragraph_style or self.default_paragraph, "paragraph"):
            if style.has_shading:
                shading = style.shading
        return shading


# --- the text ----------------------------------------------------------------------------------


class _Paragraph:
    __slots__ = ("behind", "boxes", "has_shading", "parts", "shading", "style")

    def __init__(self) -> None:
        self.style: str | None = None
        self.shading: tuple[int, int, int] | None = None
        self.has_shading = False
        self.parts: list[tuple[str, str]] = []  # (text, why it is hidden or "")
        self.boxes: list[tuple[str, bool]] = []  # text-box paragraphs in it
        self.behind: tuple[int, int, int] | None = None  # the colour behind its text, once known


@dataclass(slots=True)
class _Run:
    props: _Props = field(default_factory=dict)
    hidden: str | None = None  # why its text is hidden ("" when it is not), once known


# what an element starts or ends, for the text reader's dispatch
_SKIP, _PROPS, _TEXT, _RUN, _PARAGRAPH, _INLINE, _FILL, _PAGE, _BOX = range(9)
_START_KIND = {
    **dict.fromkeys(_SKIPPED, _SKIP),
    **dict.fromkeys(_PROPERTIES, _PROPS),
    **dict.fromkeys(_INLINE_TEXT, _INLINE),
    _T: _TEXT,
    _R: _RUN,
    _P: _PARAGRAPH,
    _TC: _FILL,
    _TBL: _FILL,
    _BACKGROUND: _PAGE,
    _TEXT_BOX: _BOX,
}
# property elements read where they describe their owner (pStyle: paragraphs; tblStyle: tables)
_PROPERTY_TAGS = frozenset({*_RUN_PROPERTIES, _P_STYLE, _TBL_STYLE})
_FILL_ENDS = frozenset({_TC, _TBL, _TEXT_BOX})


class _TextReader(Handler):
    """Reads the paragraphs of a document or notes part from its events.

    Text boxes anchored in a paragraph become paragraphs after it, instead of being spliced into
    the middle of its sentence. Each table cell paragraph is its own paragraph. Unknown
    wrappers (content controls, custom XML, tracked insertions, hyperlinks) are read through.
    Blank paragraphs are dropped: they would only separate paragraphs, which the others do.

    Called for every element of the part: `start` and `end` are kept lean."""

    def __init__(
        self,
        styles: _Styles,
        hidden: HiddenText,
        counter: _Counter,
        *,
        note_tag: str | None = None,
        root_check: Callable[[str], None] | None = None,
    ) -> None:
        self.paragraphs: list[tuple[str, bool]] = []
        self._root_check = root_check
        self._styles = styles
        self._quote_styles = frozenset() if note_tag else styles.quote_styles()
        self._hidden = hidden
        self._counter = counter
        self._note_tag = note_tag
        self._depth = 0
        self._quiet_at = 0  # depth of the skipped subtree or property element being read
        self._props_owner = ""  # what that property element's children describe, if anything
        self._owner = ""  # the kind of the last paragraph, run, cell or table started ...
        self._owner_depth = 0  # ... and its depth
        self._text_at = 0  # depth of the w:t being read, 0 if none
        self._open: list[_Paragraph] = []  # open paragraphs, outermost first
        self._runs: list[_Run] = []
        self._fills: list[tuple[int, int, int] | None] = []  # shading of open tables and cells
        self._page = WHITE_RGB
        self._seen: dict[tuple[object, ...], str] = {}  # _why_hidden's answers

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.used += 1
        if self.used > self.limit:
            self.over()
        depth = self._depth = self._depth + 1
        if depth == 1 and self._root_check is not None:
            self._root_check(tag)
        if self._quiet_at:
            if self._props_owner and depth == self._quiet_at + 1 and tag in _PROPERTY_TAGS:
                self._property(tag, attrib)
            return
        kind = _START_KIND.get(tag)
        if kind is None:
            if tag == self._note_tag and attrib.get(f"{_W}type") in _SEPARATOR_NOTE_TYPES:
                self._quiet_at = depth
            return
        if kind == _TEXT:
            self._text_at = depth
        elif kind == _PROPS:
            self._quiet_at = depth
            self._props_owner = self._owner if self._owner_depth == depth - 1 else ""
        elif kind == _RUN:
            self._runs.append(_Run())
            self._owner, self._owner_depth = "run", depth
        elif kind == _PARAGRAPH:
            self._open.append(_Paragraph())
            self._owner, self._owner_depth = "paragraph", depth
        elif kind == _INLINE:
            self._add(_INLINE_TEXT[tag])
        elif kind == _SKIP:
            self._quiet_at = depth
        elif kind == _FILL:
            self._fills.append(None)
            self._owner, self._owner_depth = "fill", depth
        elif kind == _PAGE:
            self._page = parse_rgb(attrib.get(f"{_W}color")) or WHITE_RGB
        elif kind == _BOX:  # drawn in a shape whose fill is not read: its colour is unknown
            self._fills.append(UNKNOWN_RGB)

    def end(self, tag: str) -> None:
        depth = self._depth
        self._depth = depth - 1
        if self._quiet_at:
            if depth == self._quiet_at:
                self._quiet_at = 0
                self._props_owner = ""
            return
        if tag == _T:
            self._text_at = 0
        elif tag == _R:
            if self._runs:
                self._runs.pop()
        elif tag == _P:
            if self._open:
                self._end_paragraph()
        elif tag in _FILL_ENDS and self._fills:
            self._fills.pop()

    def data(self, text: str) -> None:
        if self._text_at:
            self._add(text)

    def _property(self, tag: str, attrib: dict[str, str]) -> None:
        owner = self._props_owner
        if owner == "run" and self._runs:
            _run_property(tag, attrib, self._runs[-1].props)
        elif owner == "paragraph" and self._open:
            if tag == _P_STYLE:
                self._open[-1].style = attrib.get(_VAL)
            elif tag == _SHD:
                self._open[-1].shading = _shading(attrib)
                self._open[-1].has_shading = True
        elif owner == "fill" and self._fills:
            if tag == _SHD:
                self._fills[-1] = _shading(attrib)
            elif tag == _TBL_STYLE and self._fills[-1] is None:
                # a table style may colour cells (a dark header row): not read, so unknown
                self._fills[-1] = UNKNOWN_RGB

    def _add(self, text: str) -> None:
        if not self._open:
            return
        paragraph = self._open[-1]
        if self._runs:
            run = self._runs[-1]
            if run.hidden is None:
                run.hidden = self._why_hidden(run.props, paragraph)
            hidden = run.hidden
        else:
            hidden = self._why_hidden({}, paragraph)
        paragraph.parts.append((text, hidden))
        self._counter.add(len(text))

    def _why_hidden(self, direct: _Props, paragraph: _Paragraph) -> str:
        """Why text with this direct formatting in `paragraph` cannot be seen: a comma-separated
        list of visibility reasons, "" when it can. Runs formatted alike share the answer."""
        if paragraph.behind is None:
            paragraph.behind = self._behind(paragraph)
        key = (paragraph.style, paragraph.behind, *direct.items())
        reasons = self._seen.get(key)
        if reasons is None:
            reasons = self._seen[key] = self._reasons(direct, paragraph.style, paragraph.behind)
        return reasons

    def _reasons(
        self, direct: _Props, paragraph_style: str | None, behind: tuple[int, int, int]
    ) -> str:
        style = direct.get("rStyle")
        props = self._styles.run_props(paragraph_style, style if isinstance(style, str) else None)
        if direct:
            props = {**props, **direct}
        reasons: list[str] = []
        if props.get("vanish"):
            reasons.append(HIDDEN)
        size = props.get("sz")
        if isinstance(size, int) and size <= 2 * MAX_INVISIBLE_POINTS:  # in half-points
            reasons.append(TINY)
        colour = props.get("color")
        if isinstance(colour, tuple):
            # what is behind the run: its highlight or shading, else what is behind its paragraph
            background = behind
            for layer in (props.get("shd"), props.get("highlight")):  # highlight on top
                if isinstance(layer, tuple):
                    background = layer
            why = colour_reason(colour, background)
            if why:
                reasons.append(why)
        return ",".join(reasons)

    def _behind(self, paragraph: _Paragraph) -> tuple[int, int, int]:
        """What is behind a paragraph's text: its shading, else that of the cells and tables
        around it, else the page."""
        shading = (
            paragraph.shading
            if paragraph.has_shading
            else self._styles.paragraph_shading(paragraph.style)
        )
        if shading is not None:
            return shading
        for fill in reversed(self._fills):
            if fill is not None:
                return fill
        return self._page

    def _end_paragraph(self) -> None:
        paragraph = self._open.pop()
        if not paragraph.parts and not paragraph.boxes:
            return
        text = self._hidden.visible(paragraph.parts)
        entries: list[tuple[str, bool]] = []
        if text.strip():
            entries.append((text, paragraph.style in self._quote_styles))
        entries.extend(paragraph.boxes)
        if self._open:
            self._open[-1].boxes.extend(entries)
        else:
            self.paragraphs.extend(entries)
