"""The ``bb-edge`` command line: one subcommand per module in :mod:`bb_edge.commands`.

Each module there defines ``register(subparsers)`` which adds its parser and
sets ``func`` to a callable taking the parsed namespace and returning an exit
code. Adding a command is adding a file.

Errors: every failure is ONE line on stderr,
``error: <ErrorType>: <what went wrong>; <how to fix>``, and a non-zero exit
(2 for a bad command line, 1 for anything found while working, 130 when
interrupted). ``--debug`` (anywhere on the command line) or ``BB_EDGE_DEBUG=1``
adds the traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys
import traceback
import warnings
from typing import NoReturn, TextIO

import bb_edge.commands
from bb_edge.errors import BBError, UsageError

#: longest error line printed without --debug (a compiler log can be long; --debug shows all of it)
MAX_ERROR_CHARS = 1200


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and raise :class:`UsageError` (exit 2)."""

    def error(self, message: str) -> NoReturn:
        """Raise instead of printing the usage block, so main() formats it like every other error."""
        raise UsageError(f"{self.prog}: {message}; see `{self.prog} --help`")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every discovered subcommand, or with command ``only`` alone when it is one.

    Why ``only``: each command module imports what its parser needs, and some (demo, build) pull in the
    compiler and matplotlib; a ``bb-edge node`` process would carry them for its whole life (about 45 MB of
    its resident memory, beside a few MB of weights on a small stage).
    """
    parser = Parser(prog="bb-edge", description="Run one ML workload across a mixed edge fleet.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--debug", action="store_true",
                        help="on an error, also print the traceback (accepted anywhere on the command line)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    found = [m.name for m in pkgutil.iter_modules(bb_edge.commands.__path__) if not m.name.startswith("_")]
    for name in sorted([only] if only in found else found):
        mod = importlib.import_module(f"bb_edge.commands.{name}")
        mod.register(sub)
    return parser


def one_line(text: str) -> str:
    """``text`` on one line (newlines and runs of spaces collapsed), shortened in the middle if very long."""
    flat = " ".join(text.split())
    if len(flat) > MAX_ERROR_CHARS:
        keep = MAX_ERROR_CHARS // 2
        flat = f"{flat[:keep]} ... {flat[-keep:]} (--debug shows the whole message)"
    return flat


def _fix_for(exc: BaseException) -> str:
    """How to proceed after an error that is not one of bb-edge's own (those carry their fix)."""
    if isinstance(exc, FileNotFoundError):
        return "check the path"
    if isinstance(exc, PermissionError):
        return "check the permissions of the path, or choose another"
    if isinstance(exc, (IsADirectoryError, NotADirectoryError)):
        return "check which paths are files and which are directories"
    if type(exc).__name__ == "SerialException":  # pyserial, raised when a port cannot be opened or configured
        return "check that the port exists, is a serial device and that no other program holds it"
    if isinstance(exc, ModuleNotFoundError):  # an optional extra this command needs
        return f"install what provides {exc.name or 'it'}: `bb-edge doctor` lists each extra and its install line"
    if isinstance(exc, MemoryError):
        return "free memory or use a smaller model / fewer requests"
    return "bb-edge did not expect this; rerun with --debug and report the traceback"


def _has_fix(message: str) -> bool:
    """Whether a message already says how to proceed (``what; how`` or a suggestion)."""
    return "; " in message or " run `" in message.lower() or "did you mean" in message.lower()


def format_error(exc: BaseException) -> str:
    """The one-line report of ``exc``: ``error: <Type>: <what went wrong>; <how to fix>``."""
    msg = (str(exc) or repr(exc)).strip().rstrip(".")
    if not isinstance(exc, BBError):
        msg = f"{msg}; {_fix_for(exc)}"
    elif not _has_fix(msg):  # each error class says how to proceed (BBError.fix, overridden below it)
        msg = f"{msg}; {type(exc).fix}"
    return f"error: {type(exc).__name__}: {one_line(msg)}"


def _one_line_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                      file: TextIO | None = None, line: str | None = None) -> None:
    """warnings.showwarning without the source line: ``warning: <Category>: <message>`` (--debug keeps Python's)."""
    print(f"warning: {category.__name__}: {one_line(str(message))}", file=file or sys.stderr, flush=True)


def _split_debug(argv: list[str]) -> tuple[list[str], bool]:
    """Remove every ``--debug`` before a ``--`` separator; report whether there was one."""
    end = argv.index("--") if "--" in argv else len(argv)
    debug = "--debug" in argv[:end]
    return [a for i, a in enumerate(argv) if not (i < end and a == "--debug")], debug


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``bb-edge`` console script."""
    args_list, debug = _split_debug(list(sys.argv[1:] if argv is None else argv))
    debug = debug or os.environ.get("BB_EDGE_DEBUG", "") not in ("", "0")
    shown = warnings.showwarning
    root = logging.getLogger()
    root_level, ours = root.level, logging.getLogger("bb_edge")
    our_level = ours.level
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s: %(name)s: %(message)s"))
    if not debug:
        warnings.showwarning = _one_line_warning
        # libraries' advice on the root logger (ORT's quantizer) is noise here; bb-edge's own warnings stay
        root.setLevel(logging.ERROR)
        ours.setLevel(logging.WARNING)
        if not root.handlers:
            root.addHandler(handler)
    try:
        code, err = _dispatch(args_list)
    finally:
        # a caller running main() in-process gets its own handlers and levels back
        warnings.showwarning = shown
        root.setLevel(root_level)
        ours.setLevel(our_level)
        if handler in root.handlers:
            root.removeHandler(handler)
    if err is None:
        return code
    if debug:
        traceback.print_exception(err, file=sys.stderr)
    sys.stdout.flush()
    print(format_error(err), file=sys.stderr, flush=True)
    return code


def _dispatch(args_list: list[str]) -> tuple[int, BaseException | None]:
    """Parse and run one command: (exit code, the error that ended it or None)."""
    try:
        # the command's own module only (every module for --help, --version or an unknown command)
        parser = build_parser(args_list[0] if args_list and not args_list[0].startswith("-") else None)
        args = parser.parse_args(args_list)
        if args.version:
            from bb_edge import __version__

            print(__version__)
            return 0, None
        if not getattr(args, "func", None):
            parser.print_help()
            return 2, None
        return int(args.func(args) or 0), None
    except UsageError as exc:
        return 2, exc
    except KeyboardInterrupt as exc:
        err = BBError("interrupted; run the command again to finish")
        err.__cause__ = exc
        return 130, err
    except Exception as exc:  # every failure becomes one line; --debug keeps the traceback
        return 1, exc


if __name__ == "__main__":
    sys.exit(main())
