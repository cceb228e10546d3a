"""Writing exports atomically: a temporary file beside the target, then a rename, so an
existing file is only ever replaced by a complete one (a crash or a full disk leaves the old
file, never half a report)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _read_umask() -> int:
    # (os.umask can only be read by setting it: done once, at import, before any thread runs)
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _read_umask()


def write_atomic(path: str | Path, data: str | bytes, encoding: str = "utf-8") -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode(encoding) if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp makes the file private (0600); give it the mode a plain write would have
        try:
            mode = target.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = 0o666 & ~_UMASK
        Path(temporary).chmod(mode)
        Path(temporary).replace(target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target
