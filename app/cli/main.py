"""`doppel`'s command line: parse, run the command, turn failures into exit codes.

Exit codes: 0 done, 1 internal error or a full or read-only disk (said in words), 2 unreadable
input or bad usage, 130 interrupted, 143 terminated.
Every document error is printed on stderr as one line naming the file and the reason."""

from __future__ import annotations

import argparse
import errno
import os
import sys
import tempfile
from collections.abc import Sequence

from app.cli.commands import OPTION_COMMANDS, WINDOW_COMMANDS, build_parser, command
from app.cli.options import UsageError
from core.batch.cluster import ClusterError
from core.errors import LanguageError

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_INPUT = 2
EXIT_INTERRUPTED = 130


#: what the system said, in words a teacher acts on (a full disk, a read-only folder): not
#: internal errors, and never a traceback
_SYSTEM_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "a file grew larger than this system allows",
    errno.EROFS: "the folder is on a read-only disk",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
}


def system_reason(error: OSError) -> str | None:
    """ "could not write FILE: the disk is full (free some space, or set TMPDIR …)", or None
    for an error that is not about the computer's disks and folders."""
    what = _SYSTEM_REASONS.get(error.errno or 0)
    if what is None:
        return None
    where = f" {error.filename}" if error.filename else " a temporary file"
    hint = ""
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        hint = (
            f" — free some space and check again (temporary files go to {tempfile.gettempdir()};"
            " set TMPDIR to use another folder)"
        )
    return f"could not write{where}: {what}{hint}"


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is not None and hasattr(sys.stdout, "reconfigure"):  # None: a windowed app
        sys.stdout.reconfigure(errors="replace")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] and argv[0] in OPTION_COMMANDS:
        argv[0] = OPTION_COMMANDS[argv[0]]
    if argv[:1] and argv[0] in WINDOW_COMMANDS:  # app.launcher opens the window before this
        print(f"doppel: '{argv[0]}' is not a command-line command", file=sys.stderr)
        return EXIT_INPUT
    args = build_parser().parse_args(argv)
    run = command(args.command).run
    assert run is not None  # the window's commands were turned away above
    try:
        return run(args)
    except UsageError as error:
        usage: argparse.ArgumentParser = args.command_parser
        usage.error(str(error))  # exits 2 with the command's usage
    except (LanguageError, ClusterError) as error:  # an unknown language; --scheduler unusable
        print(f"doppel: {error}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:  # `doppel compare A B | head`: the reader has gone, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        print("doppel: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # never a raw traceback for a teacher
        reason = system_reason(error) if isinstance(error, OSError) else None
        pools = sys.modules.get("concurrent.futures.process")  # (loaded by a check that used it)
        if pools is not None and isinstance(error, pools.BrokenProcessPool):
            # workers that die on a file fail that file alone: this is workers that never start
            reason = f"the reader processes could not start ({error}); the check was not run"
        if reason is not None:  # the computer, not Doppel
            print(f"doppel: {reason}", file=sys.stderr)
            return EXIT_INTERNAL
        print(f"doppel: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        print("Please report this, with the command you ran.", file=sys.stderr)
        return EXIT_INTERNAL
