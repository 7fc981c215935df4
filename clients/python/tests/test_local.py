"""env='LOCAL': init() starts a Deckhand server of the client's own on loopback (the `deckhand` command on PATH,
else the checkout's, as `npm start` runs it), the session works there on the offline model, and close() stops
that server.

Needs DECKHAND_TEST_FIXTURES_URL (test/python/python-client.test.ts sets it); skipped without it."""
from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import tempfile
import unittest
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from deckhand import Deckhand, DeckhandOptionsError
from deckhand._gen_shapes import LogLine

FIXTURES = os.environ.get("DECKHAND_TEST_FIXTURES_URL", "")
# The `deckhand` command npm linked in this checkout (@deckhand/server's bin).
CHECKOUT_BIN = Path(__file__).resolve().parents[3] / "node_modules" / ".bin" / "deckhand"


@contextlib.contextmanager
def environment(**changes: str | None) -> Iterator[None]:
    """Sets (or, with None, removes) environment variables for the block."""
    previous = {name: os.environ.get(name) for name in changes}

    def apply(values: dict[str, str | None]) -> None:
        for name, value in values.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

    apply(changes)
    try:
        yield
    finally:
        apply(previous)


def path_without_deckhand() -> str:
    """PATH less its directories that hold a `deckhand` command (npm puts the checkout's there for its scripts)."""
    return os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep) if not shutil.which("deckhand", path=d))


def answers(origin: str) -> bool:
    try:
        with urllib.request.urlopen(f"{origin}/healthz", timeout=5) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, ConnectionError):
        return False


@unittest.skipUnless(FIXTURES, "needs DECKHAND_TEST_FIXTURES_URL")
class LocalTest(unittest.TestCase):
    def test_init_starts_the_checkouts_server_on_loopback_and_close_stops_it(self) -> None:
        lines: list[LogLine] = []
        deckhand = Deckhand(env="LOCAL", model_name="builtin/offline", verbose=1, logger=lines.append)
        with environment(PATH=path_without_deckhand(), DECKHAND_SERVER_COMMAND=None):
            init = deckhand.init()
        origin = urllib.parse.urlsplit(init.session_url)
        self.assertEqual(origin.hostname, "127.0.0.1")
        server = f"{origin.scheme}://{origin.netloc}"
        try:
            self.assertTrue(answers(server))
            deckhand.goto(f"{FIXTURES}/forms.html")
            self.assertTrue(deckhand.act("click the Go button")["success"])
            self.assertIn("clicked: go", deckhand.extract(selector="#log")["pageText"])
        finally:
            deckhand.close()
        self.assertFalse(answers(server), "the local server still answers after close()")
        self.assertIn(f"local Deckhand server at {server}", [line["message"] for line in lines])

    def test_prefers_the_deckhand_command_on_path(self) -> None:
        with tempfile.TemporaryDirectory() as bin_dir:
            # A `deckhand` first on PATH that notes its arguments, then runs the checkout's installed command.
            ran = Path(bin_dir) / "ran"
            command = Path(bin_dir) / "deckhand"
            command.write_text(f'#!/bin/sh\necho "$@" > {shlex.quote(str(ran))}\nexec {shlex.quote(str(CHECKOUT_BIN))} "$@"\n')
            command.chmod(0o755)
            deckhand = Deckhand(env="LOCAL", model_name="builtin/offline", verbose=0)
            with environment(PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", DECKHAND_SERVER_COMMAND=None):
                init = deckhand.init()
            origin = urllib.parse.urlsplit(init.session_url)
            server = f"{origin.scheme}://{origin.netloc}"
            try:
                self.assertEqual(ran.read_text().split(), ["serve", "--port", "0", "--host", "127.0.0.1"])
                deckhand.goto(f"{FIXTURES}/forms.html")
                self.assertTrue(deckhand.act("click the Go button")["success"])
            finally:
                deckhand.close()
            self.assertFalse(answers(server), "the local server still answers after close()")

    def test_a_server_command_that_does_not_start_a_server_is_a_clear_error(self) -> None:
        with environment(DECKHAND_SERVER_COMMAND="python3 -c \"import sys; sys.stderr.write('no port for me')\""):
            with self.assertRaisesRegex(Exception, r"the Deckhand server did not start[\s\S]*no port for me"):
                Deckhand(env="LOCAL", model_name="builtin/offline", verbose=0).init()

    def test_local_takes_no_api_url(self) -> None:
        with self.assertRaises(DeckhandOptionsError) as caught:
            Deckhand(env="LOCAL", api_url="http://127.0.0.1:3000")
        self.assertEqual(caught.exception.option, "api_url")
