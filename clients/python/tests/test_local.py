"""env='LOCAL': init() starts a Deckhand server of the client's own on loopback (the checkout's, as `npm start`
runs it), the session works there on the offline model, and close() stops that server.

Needs DECKHAND_TEST_FIXTURES_URL (test/python/python-client.test.ts sets it); skipped without it."""
from __future__ import annotations

import os
import unittest
import urllib.error
import urllib.parse
import urllib.request

from deckhand import Deckhand, DeckhandOptionsError
from deckhand._gen_shapes import LogLine

FIXTURES = os.environ.get("DECKHAND_TEST_FIXTURES_URL", "")


def answers(origin: str) -> bool:
    try:
        with urllib.request.urlopen(f"{origin}/healthz", timeout=5) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, ConnectionError):
        return False


@unittest.skipUnless(FIXTURES, "needs DECKHAND_TEST_FIXTURES_URL")
class LocalTest(unittest.TestCase):
    def test_init_starts_a_loopback_server_that_close_stops(self) -> None:
        lines: list[LogLine] = []
        deckhand = Deckhand(env="LOCAL", model_name="builtin/offline", verbose=1, logger=lines.append)
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

    def test_a_server_command_that_does_not_start_a_server_is_a_clear_error(self) -> None:
        previous = os.environ.get("DECKHAND_SERVER_COMMAND")
        os.environ["DECKHAND_SERVER_COMMAND"] = "python3 -c \"import sys; sys.stderr.write('no port for me')\""
        try:
            with self.assertRaisesRegex(Exception, r"the Deckhand server did not start[\s\S]*no port for me"):
                Deckhand(env="LOCAL", model_name="builtin/offline", verbose=0).init()
        finally:
            if previous is None:
                del os.environ["DECKHAND_SERVER_COMMAND"]
            else:
                os.environ["DECKHAND_SERVER_COMMAND"] = previous

    def test_local_takes_no_api_url(self) -> None:
        with self.assertRaises(DeckhandOptionsError) as caught:
            Deckhand(env="LOCAL", api_url="http://127.0.0.1:3000")
        self.assertEqual(caught.exception.option, "api_url")
