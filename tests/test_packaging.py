"""The packaging: the release workflow is well-formed and does what docs/packaging.md says; the
packaged entry point dispatches; the self-test passes from source. (The bundle itself is built
and proven by `make package-check`, which .ci/run runs.)"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from app.cli.commands import COMMANDS
from app.cli.self_test import run_self_test

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def test_release_runs_on_tags_and_by_hand(workflow) -> None:
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as a boolean
    assert triggers["push"]["tags"] == ["v*"]
    assert "workflow_dispatch" in triggers


def test_release_matrix_covers_windows_and_both_macs(workflow) -> None:
    (job,) = workflow["jobs"].values()
    include = job["strategy"]["matrix"]["include"]
    assert {entry["os"] for entry in include} == {"windows-latest", "macos-14", "macos-13"}
    artifacts = {entry["os"]: entry["artifact"] for entry in include}
    assert artifacts["windows-latest"].endswith(".zip")
    assert artifacts["macos-14"].endswith(".dmg") and artifacts["macos-13"].endswith(".dmg")


def test_release_tests_before_building_and_proves_the_bundle(workflow) -> None:
    (job,) = workflow["jobs"].values()
    runs = [step.get("run", "") for step in job["steps"]]
    test = next(k for k, run in enumerate(runs) if "pytest" in run)
    build = next(k for k, run in enumerate(runs) if "packaging/build.py --check" in run)
    assert test < build
    uploads = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/upload")]
    assert uploads and uploads[0]["with"]["if-no-files-found"] == "error"


def test_signing_only_with_secrets_and_a_warning_without(workflow) -> None:
    (job,) = workflow["jobs"].values()
    steps = {step.get("name", ""): step for step in job["steps"]}
    assert "HAS_MACOS_SIGNING == 'true'" in steps["Sign and notarise (macOS)"]["if"]
    assert "HAS_WINDOWS_SIGNING == 'true'" in steps["Sign (Windows)"]["if"]
    warning = steps["Unsigned build warning"]
    assert "!= 'true'" in warning["if"] and "::warning" in warning["run"]
    for script in ("packaging/macos_sign.sh", "packaging/windows_sign.ps1"):
        assert (ROOT / script).is_file()


def test_spec_takes_name_and_version_from_pyproject() -> None:
    spec = (ROOT / "packaging" / "doppel.spec").read_text(encoding="utf-8")
    assert 'tomllib.loads((ROOT / "pyproject.toml")' in spec
    assert '(str(ROOT / "resources"), "resources")' in spec
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    assert version


def test_icons_exist_in_every_format() -> None:
    icons = ROOT / "resources" / "icons"
    assert (icons / "doppel.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (icons / "doppel.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
    assert (icons / "doppel.icns").read_bytes()[:4] == b"icns"


def test_self_test_passes_from_source() -> None:
    out = io.StringIO()
    assert run_self_test(out) == 0
    assert out.getvalue().strip().endswith("self-test passed")


def test_packaged_entry_point_runs_commands(monkeypatch, capsys) -> None:
    path = ROOT / "packaging" / "doppel_app.py"
    spec = importlib.util.spec_from_file_location("doppel_app", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(sys, "argv", ["Doppel", "--self-test"])
    assert module.main() == 0
    assert "self-test passed" in capsys.readouterr().out
    # the bug of issue 11: `Doppel batch FOLDER --json` opened the window's parser
    samples = str(ROOT / "resources" / "samples")
    monkeypatch.setattr(sys, "argv", ["Doppel", "batch", samples, "--json", "--no-cache"])
    assert module.main() == 0
    assert json.loads(capsys.readouterr().out)["pairs"]


def test_the_bundle_check_runs_every_command_of_the_table(tmp_path: Path) -> None:
    build = importlib.util.spec_from_file_location("build", ROOT / "packaging" / "build.py")
    module = importlib.util.module_from_spec(build)
    build.loader.exec_module(module)
    checks = module.command_checks(ROOT / "resources" / "samples", tmp_path)
    assert set(checks) == {c.name for c in COMMANDS}
    assert all(any("--json" in a for a in checks[name]) for name in ("batch", "phrases"))
