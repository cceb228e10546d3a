"""Runs one importer case at a time in a child process with limits, and judges the outcome.

The parent (`Sandbox`) keeps one worker process alive and feeds it cases over a pipe: the
path of a file holding the case's bytes and what to call on it, `extract` (core.documents.
extract) or `load` (core.documents.document.load_document, end to end). Starting Python and
importing the engine takes a second or more; a case takes milliseconds, so one process per case
would spend nearly all its time starting. The worker is started again whenever it dies, fails a
case, or runs out of its limits.

Limits on the worker (docs/reliability.md, "Fuzzing"):
- address space (RLIMIT_AS, FUZZ_MEMORY_MB, 512 MB by default): an allocation past it fails
  with MemoryError;
- CPU time per case (RLIMIT_CPU, FUZZ_CPU_SECONDS, 5 s): the soft limit is set to the CPU time
  used so far plus the case's allowance before each case; past it the kernel sends SIGXCPU,
  which the worker turns into `CpuLimitExceeded` (a BaseException, so no `except Exception`
  in a reader swallows it) to get a traceback of where it was;
- wall-clock time per case, in the parent: 4 × the CPU allowance + 10 s (a busy machine
  stretches CPU time), after which the worker is killed;
- no core files.

The property, per case: the call returns (an `ExtractedText`, or a `Document` for `load`) or
raises a `core.errors.DocumentError` subclass with a non-empty reason, and the file is
unchanged afterwards. Anything else is a failure: another exception ("exception"), a
DocumentError caused by a MemoryError ("oom": extract turns any reader exception into
CorruptDocument), a MemoryError itself ("oom"), the CPU limit ("timeout"), the wall-clock limit
("hang"), the worker dying ("crash", with its signal), an empty reason ("no-reason"), or the
input file changed ("modified", checked by the parent).

    python tests/fuzz/fuzz_sandbox.py FILE...   # replay files once each, print the outcomes
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
MEMORY_MB = int(os.environ.get("FUZZ_MEMORY_MB", "512"))
CPU_SECONDS = int(os.environ.get("FUZZ_CPU_SECONDS", "5"))

#: outcomes that satisfy the property
PASSING = ("ok", "document-error")


class CpuLimitExceeded(BaseException):
    """Raised in the worker by SIGXCPU: the case used up its CPU time."""


@dataclass(frozen=True)
class Outcome:
    """What one case did. `status` is "ok", "document-error" or a failure kind (module doc);
    `signature` identifies a failure's cause across inputs (kind, exception type and where it
    was raised, without line numbers), so one bug found many times is one finding."""

    status: str
    detail: str = ""  # the exception's type and message, or the signal
    traceback: str = ""
    signature: str = ""
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.status not in PASSING


@dataclass
class Sandbox:
    """A worker process fed cases one at a time; see the module docstring."""

    memory_mb: int = MEMORY_MB
    cpu_seconds: int = CPU_SECONDS
    wall_seconds: float = 0.0  # 0: 4 × cpu_seconds + 10
    warm_up: list[tuple[str, bytes]] = field(default_factory=list)  # (suffix, bytes) per format
    starts: int = 0  # workers started so far
    _process: subprocess.Popen[bytes] | None = None
    _replies: IO[bytes] | None = None
    _folder: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop()
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def start(self) -> None:
        """Start the worker now (else the first case does), warm-up included."""
        if self._process is None:
            self._start()

    def run(self, data: bytes, suffix: str, mode: str = "extract") -> Outcome:
        """Run one case: `data` as a file named with `suffix`, through `mode`."""
        self.start()
        assert self._folder is not None
        path = Path(self._folder.name) / f"case{suffix}"
        path.write_bytes(data)
        outcome = self._ask(path, mode, self.cpu_seconds)
        if not outcome.failed and not _unchanged(path, data):
            outcome = Outcome("modified", "the input file changed", "", "modified", outcome.seconds)
        if outcome.failed:
            self._stop()  # whatever state it is in, the next case gets a fresh worker
        return outcome

    # --- the worker's life ---------------------------------------------------------------

    def _start(self) -> None:
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="doppel-fuzz-")
        read_end, write_end = os.pipe()
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
        env["FUZZ_MEMORY_MB"] = str(self.memory_mb)
        self._process = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(write_end)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(write_end,),
            cwd=ROOT,
            env=env,
        )
        os.close(write_end)
        self._replies = os.fdopen(read_end, "rb")
        self.starts += 1
        ready = self._reply(60.0 + 10 * len(self.warm_up))
        if ready is None or ready is _TIMED_OUT or not ready.get("ready"):
            code = self._process.poll()
            self._stop()
            raise RuntimeError(f"the fuzz worker did not start (exit code {code})")
        assert self._folder is not None
        for k, (suffix, data) in enumerate(self.warm_up):
            # every reader once (lazy imports, language models), limits off: not a case
            path = Path(self._folder.name) / f"warm-up-{k}{suffix}"
            path.write_bytes(data)
            self._ask(path, "load", 0)

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
            if process.stdin is not None:
                process.stdin.close()
        if self._replies is not None:
            self._replies.close()
            self._replies = None

    def _ask(self, path: Path, mode: str, cpu_seconds: int) -> Outcome:
        assert self._process is not None and self._process.stdin is not None
        started = time.monotonic()
        request = json.dumps({"path": str(path), "mode": mode, "cpu": cpu_seconds})
        try:
            self._process.stdin.write(request.encode() + b"\n")
            self._process.stdin.flush()
        except BrokenPipeError:
            pass  # it died: the reply is EOF, handled below
        wall = self.wall_seconds or (4.0 * cpu_seconds + 10.0 if cpu_seconds else 120.0)
        reply = self._reply(wall)
        seconds = time.monotonic() - started
        process = self._process
        if reply is _TIMED_OUT:
            process.kill()
            process.wait()
            return Outcome("hang", f"no answer within {wall:.0f} s", "", "hang", seconds)
        if reply is None:  # EOF: it died
            try:
                code: int | None = process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                code = process.wait()
            detail = _signal_name(code)
            return Outcome("crash", detail, "", f"crash:{detail}", seconds)
        return Outcome(
            reply["status"],
            reply.get("detail", ""),
            reply.get("traceback", ""),
            reply.get("signature", ""),
            seconds,
        )

    def _reply(self, timeout: float) -> dict[str, Any] | None:
        """The worker's next reply; None at EOF, _TIMED_OUT after `timeout` seconds."""
        assert self._replies is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self._replies, selectors.EVENT_READ)
            if not selector.select(timeout):
                return _TIMED_OUT
        line = self._replies.readline()
        return json.loads(line) if line else None


_TIMED_OUT: dict[str, Any] = {"status": "timed out"}


def _unchanged(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _signal_name(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


# --- the worker ----------------------------------------------------------------------------


def _worker(reply_fd: int) -> None:
    import resource

    replies = os.fdopen(reply_fd, "w", buffering=1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)  # a library's stray print must not garble anything
    os.dup2(null, 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    def on_sigxcpu(signum: int, frame: object) -> None:
        raise CpuLimitExceeded("the case used up its CPU time")

    signal.signal(signal.SIGXCPU, on_sigxcpu)

    from core.documents.document import Document, load_document
    from core.documents.extract import ExtractedText, extract
    from core.errors import DocumentError

    limit = int(os.environ["FUZZ_MEMORY_MB"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
    replies.write(json.dumps({"ready": True}) + "\n")

    for line in sys.stdin:
        case = json.loads(line)
        path = Path(case["path"])
        if case["cpu"]:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            soft = int(usage.ru_utime + usage.ru_stime) + 1 + case["cpu"]
            resource.setrlimit(resource.RLIMIT_CPU, (soft, cpu_hard))
        reply: dict[str, str]
        result: object
        expected: type
        try:
            if case["mode"] in _MISBEHAVIOURS:  # the sandbox's own tests
                result = _MISBEHAVIOURS[case["mode"]](path)
                expected = ExtractedText
            elif case["mode"] == "load":
                result = load_document(path)
                expected = Document
            else:
                result = extract(path)
                expected = ExtractedText
            if isinstance(result, expected):
                reply = {"status": "ok"}
            else:
                detail = f"returned {type(result).__name__}, not {expected.__name__}"
                reply = {"status": "exception", "detail": detail, "signature": "wrong-type"}
            del result
        except DocumentError as error:
            oom = _memory_error_in(error)
            if oom is not None:
                reply = _failure("oom", oom)
            elif not (isinstance(error.reason, str) and error.reason.strip()):
                reply = _failure("no-reason", error)
            else:
                reply = {"status": "document-error", "detail": f"{type(error).__name__}: {error}"}
        except CpuLimitExceeded as error:
            reply = _failure("timeout", error)
        except MemoryError as error:
            reply = _failure("oom", error)
        except BaseException as error:  # the property's failure: anything else escaping
            reply = _failure("exception", error)
        finally:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_hard, cpu_hard))
        replies.write(json.dumps(reply) + "\n")


def _spin(path: Path) -> object:
    while True:
        pass


def _allocate(path: Path) -> object:
    hoard = []
    while True:
        hoard.append(bytearray(16 << 20))


def _crash(path: Path) -> object:
    os.kill(os.getpid(), signal.SIGSEGV)
    return None


def _raise(path: Path) -> object:
    return {}["a library's KeyError"]


def _no_reason(path: Path) -> object:
    from core.errors import CorruptDocument

    raise CorruptDocument(path, " ")


def _wrapped_oom(path: Path) -> object:
    from core.errors import CorruptDocument

    try:
        _allocate(path)
    except MemoryError as error:
        raise CorruptDocument(path, "it may be damaged (MemoryError)") from error
    return None


def _block(path: Path) -> object:
    return sys.stdin.read()  # waits for input that never comes: a hang without CPU


def _modify(path: Path) -> object:
    path.write_bytes(b"changed")
    from core.documents.extract import extract

    return extract(path)


def _wrong_type(path: Path) -> object:
    return "text"


#: cases that misbehave on purpose, one way each, so tests can check the sandbox sees it
_MISBEHAVIOURS = {
    "_spin": _spin,
    "_allocate": _allocate,
    "_crash": _crash,
    "_raise": _raise,
    "_no_reason": _no_reason,
    "_wrapped_oom": _wrapped_oom,
    "_block": _block,
    "_modify": _modify,
    "_wrong_type": _wrong_type,
}


def _memory_error_in(error: BaseException) -> BaseException | None:
    seen = 0
    current: BaseException | None = error
    while current is not None and seen < 20:
        if isinstance(current, MemoryError):
            return current
        current = current.__cause__ or current.__context__
        seen += 1
    return None


def _failure(kind: str, error: BaseException) -> dict[str, str]:
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.name != "on_sigxcpu"]
    text = "".join(traceback.format_exception(error))
    return {
        "status": kind,
        "detail": f"{type(error).__name__}: {error}"[:500],
        "traceback": text[-6000:],
        "signature": signature(kind, type(error).__name__, frames),
    }


def signature(kind: str, error_type: str, frames: list[Any]) -> str:
    """`kind:type:where`: where = the last frame in Doppel's own code and, for an exception,
    the frame that raised it (file name and function, no line numbers)."""
    ours = [f for f in frames if f"{os.sep}core{os.sep}" in f.filename]
    where = []
    if ours:
        where.append(f"{Path(ours[-1].filename).name}:{ours[-1].name}")
    raised = frames[-1] if frames else None
    # where it was raised, unless that is ours already, or a timeout's (wherever the clock
    # ran out) with one of ours to name
    if raised is not None and not (ours and (raised == ours[-1] or kind == "timeout")):
        where.append(f"{Path(raised.filename).name}:{raised.name}")
    return ":".join([kind, error_type, *where])


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        _worker(int(sys.argv[2]))
        return
    with Sandbox() as sandbox:
        for name in sys.argv[1:]:
            path = Path(name)
            for mode in ("extract", "load"):
                outcome = sandbox.run(path.read_bytes(), path.suffix, mode)
                print(f"{path} [{mode}]: {outcome.status} {outcome.detail}")
                if outcome.traceback:
                    print(outcome.traceback)


if __name__ == "__main__":
    main()
