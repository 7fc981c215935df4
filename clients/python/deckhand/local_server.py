"""env='LOCAL': a Deckhand server of this client's own, on loopback with no API keys, started by init() and
stopped by close() (or when Python exits). It runs the command in DECKHAND_SERVER_COMMAND, else the installed
`deckhand` command on PATH (`deckhand serve`, of the @deckhand/server package), else the server of the Deckhand
checkout this package sits in (what `npm start` runs)."""
from __future__ import annotations

import atexit
import collections
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from .errors import DeckhandError

# What the server prints on stdout once it listens (packages/server/src/main.ts).
LISTENING = re.compile(r"listening on (https?://\S+)")
START_TIMEOUT_S = 90
STOP_TIMEOUT_S = 15
# Settings that would make the private server refuse its own client, or listen beyond loopback.
CLEARED = ("DECKHAND_API_KEYS", "DECKHAND_API_KEYS_FILE", "DECKHAND_PUBLIC_URL")


def server_command(environ: Mapping[str, str]) -> tuple[list[str], Path | None]:
    """The command that runs a Deckhand server, and the directory to run it in."""
    configured = environ.get("DECKHAND_SERVER_COMMAND", "").strip()
    if configured:
        return shlex.split(configured), None
    installed = shutil.which("deckhand", path=environ.get("PATH", os.defpath))
    if installed:
        return [installed, "serve", "--port", "0", "--host", "127.0.0.1"], None
    checkout = Path(__file__).resolve().parents[3]
    tsx = checkout / "node_modules" / ".bin" / "tsx"
    main = checkout / "packages" / "server" / "src" / "main.ts"
    if tsx.exists() and main.exists():
        return [str(tsx), str(main)], checkout
    raise DeckhandError(
        "env 'LOCAL' starts a Deckhand server on this machine, and none was found: install the @deckhand/server "
        "package so that its `deckhand` command is on PATH, set DECKHAND_SERVER_COMMAND to the command that runs "
        "one, or use this client from a Deckhand checkout (after `npm install`)"
    )


class LocalServer:
    """One running server: `url` once started; stop() ends it and every session in it."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        command, cwd = server_command(environ)
        env = {key: value for key, value in environ.items() if key not in CLEARED}
        env.update({"HOST": "127.0.0.1", "PORT": "0"})
        try:
            # Its own process group: the command may start children (tsx runs node), and stop() ends them all.
            self._process = subprocess.Popen(
                command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
            )
        except OSError as error:
            raise DeckhandError(f"env 'LOCAL' could not run {command[0]}: {error.strerror or error}") from None
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        announced: queue.Queue[str | None] = queue.Queue()
        # Both pipes are drained for the server's whole life: a full pipe would stall it.
        threading.Thread(target=self._read_stdout, args=(self._process.stdout, announced), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self._process.stderr,), daemon=True).start()
        atexit.register(self.stop)
        try:
            url = announced.get(timeout=START_TIMEOUT_S)
        except queue.Empty:
            url = None
        if url is None:
            self.stop()
            detail = "\n".join(self._stderr) or "no output"
            raise DeckhandError(f"env 'LOCAL': the Deckhand server did not start ({' '.join(command)}):\n{detail}")
        self.url = url

    def stop(self) -> None:
        """Ends the server (SIGTERM: it ends its sessions first), then anything of its group still running."""
        atexit.unregister(self.stop)
        if self._process.poll() is not None:
            return
        group = os.getpgid(self._process.pid)
        os.killpg(group, signal.SIGTERM)
        try:
            self._process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(group, signal.SIGKILL)
            self._process.wait()

    def _read_stdout(self, stream: IO[bytes] | None, announced: queue.Queue[str | None]) -> None:
        told = False
        for raw in stream or ():
            match = LISTENING.search(raw.decode("utf-8", "replace"))
            if match and not told:
                told = True
                announced.put(match.group(1))
        if not told:
            announced.put(None)

    def _read_stderr(self, stream: IO[bytes] | None) -> None:
        for raw in stream or ():
            self._stderr.append(raw.decode("utf-8", "replace").rstrip())
