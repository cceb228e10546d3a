"""The evaluation's modules live in bench/ (scripts, not a package): put the repository root on
sys.path so the tests import them as `bench.eval_methods` and `bench.eval_measures`."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
