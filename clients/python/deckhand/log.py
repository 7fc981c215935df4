"""Where the client's log lines go: the `logger` callable, else stderr (coloured when `use_rich_logging`
and stderr is a terminal). Lines above `verbose` are dropped; every line is masked first."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from ._gen_shapes import LogLine
from .masking import Secrets

LEVELS = {0: "ERROR", 1: "INFO", 2: "DEBUG"}
COLOURS = {0: "\x1b[31m", 1: "\x1b[36m", 2: "\x1b[2m"}
RESET = "\x1b[0m"


class LogSink:
    def __init__(self, verbose: int, logger: Callable[[LogLine], None] | None, secrets: Secrets, rich: bool, stream: TextIO | None = None) -> None:
        self._verbose = verbose
        self._logger = logger
        self._secrets = secrets
        self._rich = rich
        self._stream = stream

    def __call__(self, line: LogLine) -> None:
        level = line.get("level", 1)
        if level > self._verbose:
            return
        masked = self._secrets.mask_value(line)
        if self._logger is not None:
            self._logger(masked)
            return
        stream = self._stream or sys.stderr
        print(self._format(masked, level, stream.isatty()), file=stream)

    def _format(self, line: LogLine, level: int, tty: bool) -> str:
        category = f"{line.get('category')}: " if line.get("category") else ""
        tag = LEVELS.get(level, str(level))
        if not self._rich:
            return f"[deckhand] {tag} {category}{line['message']}"
        aux = "".join(f"\n    {key}: {entry.get('value')}" for key, entry in (line.get("auxiliary") or {}).items())
        if tty:
            tag = f"{COLOURS.get(level, '')}{tag:<5}{RESET}"
        return f"[deckhand] {tag} {category}{line['message']}{aux}"
