"""Test-wide set-up: Qt runs offscreen, and nothing reaches the network or the user's data."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
