"""The session controller: loading, failing files, automatic comparison and ranking."""

from __future__ import annotations

from pathlib import Path

from app.gui.models.document_list import ENTRY_ROLE, DocumentListModel, Status
from app.gui.session import Session, expand
from core.options import MatchOptions, SignatureOptions
from core.resources import resource_path
from tests.core.docmakers import COPIED, FILLER_A, FILLER_B
from tests.gui_logic.edited import MONASTERY, MONASTERY_EDITED

ORIGINAL = resource_path("samples", "original-essay.txt")
COPY = resource_path("samples", "reworded-copy.docx")
UNRELATED = resource_path("samples", "unrelated-essay.docx")


def make_session(settings, runner) -> tuple[Session, list]:
    session = Session(runner, settings)
    shown: list = []
    session.comparison_ready.connect(shown.append)
    session.comparison_cleared.connect(lambda: shown.append(None))
    return session, shown


def test_two_documents_compare_by_themselves(settings, sync_runner) -> None:
    session, shown = make_session(settings, sync_runner)
    assert session.add_paths([ORIGINAL, COPY]) == 2
    (comparison,) = shown
    assert {comparison.a.name, comparison.b.name} == {ORIGINAL.name, COPY.name}
    assert comparison.counts.verified == 1 and comparison.counts.split == 2
    assert not session.busy


def test_a_corrupt_file_stays_listed_with_its_reason_and_the_others_compare(
    settings, sync_runner, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 this is not a zip")
    session, shown = make_session(settings, sync_runner)
    session.add_paths([ORIGINAL, broken, COPY])
    model = session.documents
    entry = model.data(model.index(model.row_of(broken.resolve()), 0), ENTRY_ROLE)
    assert entry.status is Status.FAILED and entry.error
    notes = model.data(model.index(model.row_of(broken.resolve()), DocumentListModel.COL_NOTES))
    assert notes == entry.error
    assert len(shown) == 1 and shown[0].jaccard > 0


def test_three_documents_are_ranked_and_the_most_similar_pair_opens(settings, sync_runner) -> None:
    session, shown = make_session(settings, sync_runner)
    ranked: list = []
    session.pairs_ranked.connect(ranked.append)
    session.add_paths([ORIGINAL, COPY, UNRELATED])
    (pair,) = ranked[-1]  # the only pair with copied text (the indexes skip the rest)
    assert {pair.comparison.a.name, pair.comparison.b.name} == {ORIGINAL.name, COPY.name}
    assert {shown[-1].a.name, shown[-1].b.name} == {ORIGINAL.name, COPY.name}
    session.open_pair(ORIGINAL, UNRELATED.resolve())
    assert {shown[-1].a.name, shown[-1].b.name} == {ORIGINAL.name, UNRELATED.name}


def test_a_pair_found_only_by_the_reworded_detector_is_ranked_and_opened(
    settings, sync_runner, tmp_path: Path
) -> None:
    texts = {
        "source.txt": FILLER_A + MONASTERY,
        "edited.txt": FILLER_B + MONASTERY_EDITED,
        "other.txt": COPIED,
    }
    paths = []
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(tmp_path / name)
    session, shown = make_session(settings, sync_runner)
    ranked: list = []
    session.pairs_ranked.connect(ranked.append)
    session.add_paths(paths)
    (pair,) = ranked[-1]  # no verified block anywhere: found by the reworded index alone
    comparison = pair.comparison
    assert {comparison.a.name, comparison.b.name} == {"source.txt", "edited.txt"}
    assert comparison.flagged and not comparison.result.pieces
    assert shown[-1] is comparison

    # the strict setting (the paper's method alone) finds nothing: the first pair shows its zero
    settings.set_engine_options(settings.signature_options(), MatchOptions(reworded=False))
    session.options_changed()
    assert ranked[-1] == []
    assert not shown[-1].flagged and shown[-1].options.reworded is False


def test_the_strict_setting_reruns_two_documents_without_reworded_passages(
    settings, sync_runner
) -> None:
    session, shown = make_session(settings, sync_runner)
    session.add_paths([ORIGINAL, COPY])
    assert shown[-1].reworded_passages
    settings.set_engine_options(settings.signature_options(), MatchOptions(reworded=False))
    session.options_changed()
    strict = shown[-1]
    assert strict.options.reworded is False and not strict.reworded_passages
    assert strict.result.counts == shown[0].result.counts  # SL+ST's blocks are the same


def test_removing_a_document_clears_the_comparison(settings, sync_runner) -> None:
    session, shown = make_session(settings, sync_runner)
    session.add_paths([ORIGINAL, COPY])
    session.remove_rows([0])
    assert shown[-1] is None and session.current is None
    session.clear()
    assert session.documents.rowCount() == 0


def test_changed_options_rerun_the_comparison(settings, sync_runner) -> None:
    session, shown = make_session(settings, sync_runner)
    session.add_paths([ORIGINAL, COPY])
    settings.set_engine_options(SignatureOptions(key_size=1), MatchOptions(min_block=3))
    session.options_changed()
    latest = shown[-1]
    assert latest.a.options.key_size == 1 and latest.options.min_block == 3
    assert len(shown) == 2


def test_a_file_changed_on_disk_is_flagged_and_rechecked(
    settings, sync_runner, tmp_path: Path
) -> None:
    essay = tmp_path / "essay.txt"
    essay.write_text(ORIGINAL.read_text(encoding="utf-8"), encoding="utf-8")
    session, shown = make_session(settings, sync_runner)
    session.add_paths([essay, COPY])
    session._file_changed(str(essay))  # what QFileSystemWatcher reports
    entry = session.documents.entries()[0]
    assert entry.changed_on_disk and "changed on disk" in entry.note
    essay.write_text("Something else entirely. Nothing in common at all.", encoding="utf-8")
    session.recheck()
    assert not session.documents.entries()[0].changed_on_disk
    assert shown[-1].jaccard == 0.0


def test_folders_are_expanded_recursively(tmp_path: Path) -> None:
    (tmp_path / "class" / "late").mkdir(parents=True)
    for name in ("a.txt", "late/b.docx", "notes.xyz", ".hidden.txt", "~$lock.docx"):
        (tmp_path / "class" / name).write_text("x", encoding="utf-8")
    found = [p.relative_to(tmp_path / "class").as_posix() for p in expand([tmp_path / "class"])]
    assert found == ["a.txt", "late/b.docx"]


def test_options_changed_while_a_document_loads_are_applied(settings, sync_runner, monkeypatch):
    from app.gui import session as session_module

    real_load = session_module.load_document

    def load_while_the_user_changes_settings(path, options):
        document = real_load(path, options)
        if path.name == COPY.name and options.key_size == 2:
            settings.set_engine_options(SignatureOptions(key_size=3), MatchOptions())
        return document

    monkeypatch.setattr(session_module, "load_document", load_while_the_user_changes_settings)
    session, shown = make_session(settings, sync_runner)
    session.add_paths([ORIGINAL, COPY])
    copy = next(d for d in session.documents.loaded() if d.name == COPY.name)
    assert copy.options.key_size == 3  # its load noticed the change and ran again
    session.options_changed()  # what the settings dialog calls after saving
    assert {d.options.key_size for d in session.documents.loaded()} == {3}
    assert shown[-1].a.options.key_size == 3 == shown[-1].b.options.key_size


def test_cancel_stops_loading_at_once_and_keeps_nothing_stale(qtbot, settings, monkeypatch):
    import threading

    from app.gui import session as session_module
    from app.gui.tasks import TaskRunner

    release = threading.Event()
    real_load = session_module.load_document

    def slow_load(path, options):
        release.wait(10)
        return real_load(path, options)

    monkeypatch.setattr(session_module, "load_document", slow_load)
    runner = TaskRunner()
    session, shown = make_session(settings, runner)
    session.add_paths([ORIGINAL, COPY])
    assert session.busy
    session.cancel()
    assert not session.busy  # at once, not when the workers return
    entries = session.documents.entries()
    assert all(e.status is Status.FAILED and "cancelled" in e.error for e in entries)
    release.set()
    runner.pool.waitForDone(10_000)
    qtbot.wait_until(lambda: not runner.busy, timeout=10_000)
    assert shown == []  # the late results were ignored
    session.recheck()  # F5 loads them again
    qtbot.wait_until(lambda: bool(shown), timeout=30_000)
    assert shown[-1].jaccard > 0


def test_a_file_removed_and_re_added_while_loading_gets_the_new_load(qtbot, settings, monkeypatch):
    import threading

    from app.gui import session as session_module
    from app.gui.tasks import TaskRunner

    gate = threading.Event()
    real_load = session_module.load_document
    calls: list[str] = []

    def gated_load(path, options):
        calls.append(path.name)
        if len(calls) == 1:
            gate.wait(10)  # the first load of ORIGINAL is slow
        return real_load(path, options)

    monkeypatch.setattr(session_module, "load_document", gated_load)
    runner = TaskRunner()
    session, shown = make_session(settings, runner)
    session.add_paths([ORIGINAL])
    session.remove_rows([0])
    session.add_paths([ORIGINAL, COPY])
    gate.set()
    qtbot.wait_until(lambda: bool(shown) and not session.busy, timeout=30_000)
    assert len(session.documents.loaded()) == 2 and shown[-1].jaccard > 0


def test_when_no_pair_shares_anything_the_first_pair_shows_its_zero(
    settings, sync_runner, tmp_path: Path
) -> None:
    texts = (
        "Rivers carry fine sediment to the sea. Glaciers shape deep valleys slowly.",
        "Bees dance to share directions. Colonies keep their brood warm in winter.",
        "Libraries lend books and time. Students study there every single evening.",
    )
    paths = []
    for k, text in enumerate(texts):
        path = tmp_path / f"essay{k}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    session, shown = make_session(settings, sync_runner)
    ranked: list = []
    session.pairs_ranked.connect(ranked.append)
    session.add_paths(paths)
    assert ranked[-1] == []
    assert shown[-1].jaccard == 0.0 and shown[-1].counts.verified == 0


def test_a_superseded_jobs_preparation_never_replaces_the_current_one(qtbot, settings) -> None:
    import threading
    from dataclasses import replace

    from app.gui.tasks import TaskRunner

    gate = threading.Event()
    prepared: list = []

    def prepare(comparison):  # stands for `marks.prepare_view`
        prepared.append(comparison)
        if len(prepared) == 1:
            gate.wait(10)  # the first comparison's preparation is slow: superseded meanwhile
        return ("prepared", comparison)

    runner = TaskRunner()
    session = Session(runner, settings, prepare=prepare)
    shown: list = []
    session.comparison_ready.connect(shown.append)
    session.add_paths([ORIGINAL, COPY])
    qtbot.wait_until(lambda: len(prepared) == 1, timeout=30_000)  # the first job prepares
    match = settings.match_options()
    settings.set_engine_options(
        settings.signature_options(), replace(match, min_block=match.min_block + 1)
    )
    session.options_changed()  # a new comparison supersedes the first
    qtbot.wait_until(lambda: bool(shown) and not session.busy, timeout=30_000)
    (current,) = shown
    assert current.options.min_block == match.min_block + 1
    assert session.prepared_for(current) == ("prepared", current)

    gate.set()  # the superseded job finishes late, its preparation made
    runner.pool.waitForDone(10_000)
    qtbot.wait_until(lambda: not runner.busy, timeout=10_000)
    assert len(prepared) == 2 and prepared[0] is not current
    assert shown == [current]
    # the current comparison keeps its own preparation: the view never prepares it again on
    # the GUI thread
    assert session.prepared_for(current) == ("prepared", current)
    assert session.prepared_for(prepared[0]) is None


def test_each_document_gets_its_strongest_partner_from_the_ranking(settings, sync_runner) -> None:
    from core.batch.partners import strongest_partners

    session, _shown = make_session(settings, sync_runner)
    ranked: list = []
    session.pairs_ranked.connect(ranked.append)
    session.add_paths([ORIGINAL, COPY, UNRELATED])
    (pair,) = ranked[-1]
    c = pair.comparison
    model = session.documents
    assert model.partners_shown()
    original = model.partner(ORIGINAL.resolve())
    assert original is not None and original.partner == COPY.resolve()
    share = c.copied_a if c.a.path == ORIGINAL.resolve() else c.copied_b
    assert original.share == share
    assert model.partner(UNRELATED.resolve()) is None  # nothing of it found in another
    # the same rule as the folder check's (core.batch.partners), keyed by path
    assert strongest_partners([]) == {}
    session.remove_rows([model.row_of(UNRELATED.resolve())])
    assert ranked[-1] == [] and not model.partners_shown()
