"""Packing a view's layout (splitters, table headers, a few values) into one QByteArray for
QSettings, tagged with the view's name and a version so a foreign or outdated blob is refused."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QByteArray, QDataStream, QIODevice


def write_state(
    name: str, version: int, parts: Sequence[QByteArray]
) -> tuple[QByteArray, QDataStream]:
    """The blob with `parts` written; the stream stays open for any values that follow."""
    state = QByteArray()
    stream = QDataStream(state, QIODevice.OpenModeFlag.WriteOnly)
    stream.writeQString(name)
    stream.writeInt32(version)
    for part in parts:
        stream << part
    return state, stream


def read_state(
    state: QByteArray, name: str, version: int, count: int
) -> tuple[list[QByteArray], QDataStream] | None:
    """The `count` parts `write_state` wrote, and the stream for what follows; None if the blob
    is not this view's (check `stream.status()` after reading the rest)."""
    stream = QDataStream(state, QIODevice.OpenModeFlag.ReadOnly)
    if stream.readQString() != name or stream.readInt32() != version:
        return None
    parts = [QByteArray() for _ in range(count)]
    for part in parts:
        stream >> part
    if stream.status() != QDataStream.Status.Ok:
        return None
    return parts, stream
