"""The app's settings: one typed wrapper over QSettings, with every default in one place.

Engine options default to the engine's own defaults (the paper's values, and the reworded
passages looked for beside them), so "restore defaults" and a fresh install agree with
`doppel compare`. Tests pass their own QSettings (an
INI file in a temporary folder) and never touch the user's real settings."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from core.options import ExclusionOptions, MatchOptions, ShortSentenceRule, SignatureOptions

ORGANISATION = "Doppel"
APPLICATION = "Doppel"
MAX_RECENT = 10
#: the evidence report's paper: the locale's, or one chosen
EVIDENCE_PAPERS = ("auto", "a4", "letter")


def _as_bool(value: object, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):  # INI files store booleans as text
        return value.lower() in ("true", "1", "yes")
    return default


def _as_int(value: object, default: int) -> int:
    if isinstance(value, bool):  # (an int to Python, but not a number a setting means)
        return default
    if isinstance(value, int | float | str):  # INI files store numbers as text
        try:
            return int(value)
        except ValueError:
            return default
    return default


class Settings:
    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store or QSettings(ORGANISATION, APPLICATION)

    # -- engine options ------------------------------------------------------------------

    def signature_options(self) -> SignatureOptions:
        default = SignatureOptions()
        s = self.store
        try:
            return SignatureOptions(
                language=str(s.value("engine/language", default.language)),
                remove_stopwords=_as_bool(
                    s.value("engine/remove_stopwords"), default.remove_stopwords
                ),
                length_cap=_as_bool(s.value("engine/length_cap"), default.length_cap),
                key_size=_as_int(s.value("engine/key_size"), default.key_size),
            )
        except ValueError:  # a hand-edited, impossible value: fall back to the defaults
            return default

    def match_options(self) -> MatchOptions:
        default = MatchOptions()
        s = self.store
        try:
            rule = ShortSentenceRule(
                str(s.value("engine/short_sentences", default.short_sentences))
            )
            return MatchOptions(
                min_block=_as_int(s.value("engine/min_block"), default.min_block),
                short_sentences=rule,
                reworded=_as_bool(s.value("engine/reworded"), default.reworded),
            )
        except ValueError:
            return default

    def set_engine_options(self, signature: SignatureOptions, match: MatchOptions) -> None:
        for options in (signature, match):
            for field in fields(options):
                value = getattr(options, field.name)
                self.store.setValue(
                    f"engine/{field.name}",
                    str(value) if isinstance(value, ShortSentenceRule) else value,
                )

    def restore_engine_defaults(self) -> None:
        self.set_engine_options(SignatureOptions(), MatchOptions())
        self.set_exclusion_options(ExclusionOptions())

    # -- exclusions (all off by default) --------------------------------------------------

    def exclusion_options(self) -> ExclusionOptions:
        """Quotations, references and the template phrase length; the Folder check tab adds
        its own common-text share."""
        default = ExclusionOptions()
        s = self.store
        try:
            return ExclusionOptions(
                quotations=_as_bool(s.value("exclusions/quotations"), default.quotations),
                references=_as_bool(s.value("exclusions/references"), default.references),
                template_phrase_words=_as_int(
                    s.value("exclusions/template_phrase_words"), default.template_phrase_words
                ),
            )
        except ValueError:
            return default

    def set_exclusion_options(self, options: ExclusionOptions) -> None:
        self.store.setValue("exclusions/quotations", options.quotations)
        self.store.setValue("exclusions/references", options.references)
        self.store.setValue("exclusions/template_phrase_words", options.template_phrase_words)

    # -- view --------------------------------------------------------------------------

    def hide_discarded(self) -> bool:
        # discarded blocks (lengths that agree by chance) are shown only on request
        return _as_bool(self.store.value("view/hide_discarded"), True)

    def set_hide_discarded(self, hide: bool) -> None:
        self.store.setValue("view/hide_discarded", hide)

    def sync_scroll(self) -> bool:
        return _as_bool(self.store.value("view/sync_scroll"), True)

    def set_sync_scroll(self, on: bool) -> None:
        self.store.setValue("view/sync_scroll", on)

    # -- window state --------------------------------------------------------------------

    def state(self, name: str) -> QByteArray | None:
        value = self.store.value(f"window/{name}")
        return value if isinstance(value, QByteArray) else None

    def set_state(self, name: str, value: QByteArray) -> None:
        self.store.setValue(f"window/{name}", value)

    # -- files -------------------------------------------------------------------------

    def last_folder(self) -> str:
        folder = str(self.store.value("files/last_folder", ""))
        return folder if folder and Path(folder).is_dir() else str(Path.home())

    def set_last_folder(self, folder: str | Path) -> None:
        self.store.setValue("files/last_folder", str(folder))

    def recent_files(self) -> list[str]:
        value = self.store.value("files/recent", [])
        if isinstance(value, str):  # QSettings returns a lone item as a string
            value = [value]
        if not isinstance(value, list):
            return []
        return [str(v) for v in value][:MAX_RECENT]

    def add_recent_files(self, paths: list[str]) -> None:
        recent = [p for p in self.recent_files() if p not in paths]
        self.store.setValue("files/recent", (list(reversed(paths)) + recent)[:MAX_RECENT])

    def clear_recent_files(self) -> None:
        self.store.setValue("files/recent", [])

    def export_folder(self) -> str:
        """Where the last evidence report was saved (else the last folder documents came from)."""
        folder = str(self.store.value("files/export_folder", ""))
        return folder if folder and Path(folder).is_dir() else self.last_folder()

    def set_export_folder(self, folder: str | Path) -> None:
        self.store.setValue("files/export_folder", str(folder))

    def case_folder(self) -> str:
        """Where the last case file was saved or opened (else the last documents' folder)."""
        folder = str(self.store.value("files/case_folder", ""))
        return folder if folder and Path(folder).is_dir() else self.last_folder()

    def set_case_folder(self, folder: str | Path) -> None:
        self.store.setValue("files/case_folder", str(folder))

    # -- evidence reports ----------------------------------------------------------------

    def evidence_paper(self) -> str:
        """ "auto" (the locale's: Letter in the US, Canada…, A4 elsewhere), "a4" or "letter"."""
        value = str(self.store.value("evidence/paper", "auto"))
        return value if value in EVIDENCE_PAPERS else "auto"

    def set_evidence_paper(self, paper: str) -> None:
        if paper not in EVIDENCE_PAPERS:
            raise ValueError(f"unknown paper size {paper!r}")
        self.store.setValue("evidence/paper", paper)

    def evidence_format(self) -> str:
        """The format of the last evidence report saved: "pdf" or "html"."""
        value = str(self.store.value("evidence/format", "pdf"))
        return value if value in ("pdf", "html") else "pdf"

    def set_evidence_format(self, kind: str) -> None:
        self.store.setValue("evidence/format", kind)

    def sync(self) -> None:
        self.store.sync()
