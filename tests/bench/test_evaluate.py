"""The evaluation runner (bench/evaluate.py), end to end on the tiny synthetic library of
test_eval_corpus.py and the made-up P4P sample of test_eval_p4p.py, so it runs where the shared
Gutenberg corpus and P4P are absent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import evaluate as ev  # noqa: E402
from test_eval_corpus import CONFIG, write_library  # noqa: E402
from test_eval_p4p import write_sample  # noqa: E402


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    folder = tmp_path_factory.mktemp("evaluate")
    library = write_library(folder / "novels")
    summary = ev.evaluate(
        library,
        CONFIG,
        corpus=folder / "corpus",
        out=folder / "results.json",
        report=folder / "docs" / "evaluation.md",
        plot=folder / "docs" / "evaluation-roc.png",
        p4p=write_sample(folder / "p4p"),
        progress=lambda _: None,
    )
    return summary, folder


def test_the_results_file_holds_the_summary(outcome: tuple[dict, Path]) -> None:
    summary, folder = outcome
    saved = json.loads((folder / "results.json").read_text())
    assert saved["thresholds"] == summary["thresholds"]
    assert saved["config"]["seed"] == CONFIG.seed


def test_every_level_table_counts_the_same_negatives(outcome: tuple[dict, Path]) -> None:
    summary, _ = outcome
    methods = [m for members in summary["families"].values() for m in members]
    negatives = {summary["levels"][level]["negatives"] for level in ev.TABLE_LEVELS}
    assert len(negatives) == 1 and negatives.pop() > 0
    positives = {level: summary["levels"][level]["positives"] for level in ev.TABLE_LEVELS}
    assert positives["all"] == sum(positives[level] for level in ev.COPY_LEVELS)
    assert positives["all"] == summary["corpus"]["pairs"]["test"]["positive"]
    for level in ev.TABLE_LEVELS:
        rows = summary["levels"][level]["rows"]
        assert [r["method"] for r in rows] == methods
        for r in rows:
            assert r["tp"] + r["fn"] == positives[level]
            assert r["fp"] + r["tn"] == summary["levels"][level]["negatives"]
            assert 0 <= r["precision"] <= 1 and 0 <= r["roc_auc"] <= 1


def test_verbatim_copies_are_found_and_nothing_else(outcome: tuple[dict, Path]) -> None:
    """The synthetic novels have disjoint vocabularies: SL+ST finds every verbatim copy, and
    no unrelated pair shares a verified block."""
    summary, _ = outcome
    default = summary["doppel_default"]
    assert default == summary["verdicts"]["Doppel (SL+ST + reworded)"]
    assert default["verbatim"]["fn"] == 0 and default["verbatim"]["tp"] > 0
    assert default["all"]["fp"] == 0
    strict = summary["verdicts"]["SL+ST"]
    assert strict["verbatim"]["fn"] == 0 and strict["all"]["fp"] == 0
    pan = ev._pan(summary, "verbatim", "SL+ST")
    assert pan["recall"] > 0.9 and pan["precision"] == 1.0


def test_only_localising_methods_have_passage_rows(outcome: tuple[dict, Path]) -> None:
    summary, _ = outcome
    localising = {r["method"] for r in summary["passages"]["all"]}
    assert "SL+ST" in localising
    assert not any(m.startswith(("Shingling", "SpotSigs", "Wang")) for m in localising)


def test_costs_are_ratios_to_the_reference_measured_in_the_run(
    outcome: tuple[dict, Path],
) -> None:
    summary, _ = outcome
    cost = {r["family"]: r for r in summary["cost"]}
    assert cost[ev.REFERENCE]["score_vs_reference"] == 1.0
    assert set(cost) == set(summary["families"])
    assert all(r["features_per_document"] > 0 for r in cost.values())


def _can_plot() -> bool:
    try:
        import matplotlib.pyplot  # noqa: F401
    except ImportError:
        return False
    return True


def test_the_report_has_a_table_per_level_and_the_plot(outcome: tuple[dict, Path]) -> None:
    summary, folder = outcome
    report = (folder / "docs" / "evaluation.md").read_text()
    for title in ("Level: verbatim", "Level: light", "Level: heavy", "All levels together"):
        assert f"### {title}" in report
    for method in summary["thresholds"]:
        assert f"| {method} |" in report
    assert "## For teachers" in report
    # the methods' and measures' own descriptions, read from their docstrings' sections
    assert "Broder" in report and "SpotSigs" in report and "plagdet(S, R)" in report
    if _can_plot():  # the bench extra (matplotlib) draws the plot
        assert "](evaluation-roc.png)" in report
        assert (folder / "docs" / "evaluation-roc.png").read_bytes()[:4] == b"\x89PNG"
    else:
        assert "](evaluation-roc.png)" not in report
    sl = next(r for r in summary["levels"]["verbatim"]["rows"] if r["method"] == "SL+ST")
    assert f"| SL+ST | {sl['precision']:.2f} | {sl['recall']:.2f} |" in report


def test_the_report_can_be_rewritten_from_the_results(outcome: tuple[dict, Path]) -> None:
    _, folder = outcome
    saved = json.loads((folder / "results.json").read_text())
    plot = folder / "docs" / "evaluation-roc.png"
    report = folder / "docs" / "evaluation.md"
    drawn = plot if plot.exists() else None  # drawn only with the bench extra (matplotlib)
    assert ev.render_report(saved, drawn, report.parent) == report.read_text()


def test_reflow_leaves_tables_code_and_quotes_alone() -> None:
    text = (
        "A paragraph\nwrapped  oddly\nhere.\n\n| a | b |\n|---|---:|\n| 1 | 2 |\n\n"
        "```sh\nmake evaluate    # keep\n\nnext\n```\n\n    code block\n\n> quote\n\n"
        "- item one\n  goes on\n- item two, 1,500–\n  2,500 words"
    )
    out = ev.reflow(text)
    assert out.startswith("A paragraph wrapped  oddly here.\n\n| a | b |\n|---|---:|\n| 1 | 2 |")
    assert "```sh\nmake evaluate    # keep\n\nnext\n```" in out
    assert "    code block" in out and "> quote" in out
    assert out.endswith("- item one goes on\n- item two, 1,500–2,500 words")


def test_docstring_sections() -> None:
    doc = "Intro.\n\nFirst\n-----\none\ntwo\n\nSecond part\n-----------\nthree\n"
    assert ev.docstring_sections(doc) == {"First": "one\ntwo", "Second part": "three"}


def test_without_the_corpus_it_skips(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ev, "novels", lambda: [])
    monkeypatch.setattr(sys, "argv", ["evaluate.py"])
    ev.main()
    assert "skipped" in capsys.readouterr().out


def test_verdicts_are_counted_per_level_for_the_methods_that_have_one(
    outcome: tuple[dict, Path],
) -> None:
    summary, _ = outcome
    assert set(summary["verdicts"]) == {"Doppel (SL+ST + reworded)", "Reworded", "SL+ST"}
    for counts in summary["verdicts"].values():
        for level in ev.TABLE_LEVELS:
            c = counts[level]
            assert c["tp"] + c["fn"] == summary["levels"][level]["positives"]
            assert c["fp"] + c["tn"] == summary["levels"][level]["negatives"]


def test_hard_negatives_are_reported_apart_from_the_level_tables(
    outcome: tuple[dict, Path],
) -> None:
    summary, _ = outcome
    hard = summary["hard"]
    assert hard["documents"] == CONFIG.hard_negatives
    assert hard["pairs"] == CONFIG.hard_negatives * CONFIG.sources
    assert 0 < hard["same_novel_pairs"] <= hard["pairs"]
    # the level tables' negatives are the suspicious documents' pairs only
    test_pairs = summary["corpus"]["pairs"]["test"]
    assert summary["levels"]["all"]["negatives"] == test_pairs["pairs"] - test_pairs["positive"]
    rows = {row["method"]: row for row in hard["rows"]}
    assert set(rows) == set(summary["thresholds"])
    assert rows["Doppel (SL+ST + reworded)"]["verdict_fp"] == 0  # disjoint vocabularies
    assert "verdict_fp" not in rows["Shingling w=4"]


def test_the_report_has_the_new_methods_verdicts_hard_negatives_and_p4p(
    outcome: tuple[dict, Path],
) -> None:
    summary, folder = outcome
    report = (folder / "docs" / "evaluation.md").read_text()
    for method in ("Doppel (SL+ST + reworded)", "Reworded"):
        assert f"| {method} |" in report  # threshold and level tables
        assert f'("{method}")' in report or f"{method}" in report
    assert "### At Doppel's own verdict (test part)" in report
    assert "| **Doppel (SL+ST + reworded)**, its verdict |" in report
    assert "| Shingling w=4, recall at 0 FP |" in report
    assert "### Hard negatives: other parts of the same novels" in report
    assert "### Human rewriting: P4P" in report
    assert "### Sentences as a reader sees them" in report
    p4p = {row["method"]: row for row in summary["p4p"]["rows"]}
    doppel = p4p["Doppel (SL+ST + reworded)"]
    assert f"| **Doppel (SL+ST + reworded)** | {doppel['recall_at_zero_fp']:.3f} |" in report
    # the teachers' section quotes the run's numbers
    default = summary["verdicts"]["Doppel (SL+ST + reworded)"]["verbatim"]
    text = " ".join(report.split())
    assert f"{default['tp']} of {default['tp'] + default['fn']} (100%) pairs" in text
    assert "*Jaccard* is the SL+ST paper's score" in text
    assert "Rewritten by a person" in text


def test_without_p4p_the_report_says_so(outcome: tuple[dict, Path]) -> None:
    summary, folder = outcome
    report = ev.render_report({**summary, "p4p": None}, None, folder / "docs")
    assert "P4P was not found for this run" in report
    assert "Rewritten by a person" not in " ".join(report.split())


def test_disguised_verbatim_copies_are_found_after_and_reported(
    outcome: tuple[dict, Path],
) -> None:
    """The evasion part: every trick's disguised copies are found as the plain ones once the
    disguises are undone, each disguised document is warned about, no clean one is."""
    summary, folder = outcome
    evasion = summary["evasion"]
    assert evasion["pairs"] > 0 and evasion["plain_found"] == evasion["pairs"]
    assert [row["trick"] for row in evasion["rows"]] == list(ev.eval_evasion.TRICKS)
    for row in evasion["rows"]:
        assert row["found_after"] == evasion["plain_found"], row["trick"]
        assert row["warned"] == row["restored"] == evasion["documents"], row["trick"]
    assert evasion["clean_warned"] == []
    report = " ".join((folder / "docs" / "evaluation.md").read_text().split())
    assert "### Evasion: disguised characters" in report
    first = evasion["rows"][0]
    assert f"| {first['trick']} | {first['found_before']} of {evasion['pairs']}" in report
    assert "disguised character by character" in report


def test_results_without_the_evasion_part_still_make_a_report(
    outcome: tuple[dict, Path],
) -> None:
    summary, folder = outcome
    report = ev.render_report({**summary, "evasion": None}, None, folder / "docs")
    assert "### Evasion: disguised characters\n\nNot measured in this run." in report
