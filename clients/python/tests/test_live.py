"""The client against a running Deckhand server with the offline model (`builtin/offline`) and fixture
pages: every operation streamed and as JSON, errors as DeckhandApiError with the server's code, no
secret in any log line or error, and every request and answer checked against openapi.yaml.

Needs DECKHAND_TEST_API_URL, DECKHAND_TEST_API_KEY and DECKHAND_TEST_FIXTURES_URL (test/python/
python-client.test.ts starts both servers and sets them); skipped without them."""
from __future__ import annotations

import io
import json
import os
import unittest
import urllib.error
import urllib.request
from contextlib import redirect_stderr
from typing import Any

from deckhand import Deckhand, DeckhandApiError, DeckhandError
from deckhand._gen_shapes import LogLine
from deckhand.transport import Exchange

from .contract import assert_follows_contract

API_URL = os.environ.get("DECKHAND_TEST_API_URL", "")
API_KEY = os.environ.get("DECKHAND_TEST_API_KEY", "")
FIXTURES = os.environ.get("DECKHAND_TEST_FIXTURES_URL", "")
PASSWORD = 'hunter2-"päss"'
MODEL_KEY = "sk-python-model-key"


def discard(line: LogLine) -> None:
    pass


def client(exchanges: list[Exchange] | None = None, **options: Any) -> Deckhand:
    settings: dict[str, Any] = {"api_key": API_KEY, "api_url": API_URL, "model_name": "builtin/offline", "verbose": 0, "logger": discard, "local_browser_launch_options": {"headless": True}}
    settings.update(options)
    deckhand = Deckhand(**settings)
    if exchanges is not None:
        deckhand._transport.observer = exchanges.append  # pyright: ignore[reportPrivateUsage]
    return deckhand


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"x-bb-api-key": API_KEY})) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


@unittest.skipUnless(API_URL and API_KEY and FIXTURES, "needs a running server: DECKHAND_TEST_API_URL, DECKHAND_TEST_API_KEY, DECKHAND_TEST_FIXTURES_URL")
class LiveTest(unittest.TestCase):
    def scenario(self, streaming: bool) -> tuple[list[LogLine], list[Exchange]]:
        lines: list[LogLine] = []
        exchanges: list[Exchange] = []
        deckhand = client(exchanges, streaming=streaming, verbose=1, logger=lines.append)
        init = deckhand.init()
        self.assertEqual(deckhand.session_id, init.session_id)
        self.assertTrue(init.session_url.startswith(f"{API_URL}/v1/sessions/{init.session_id}/live?token="), init.session_url)
        self.assertEqual((init.sessionId, init.sessionUrl, init.debugUrl), (init.session_id, init.session_url, init.debug_url))
        self.assertTrue(init.debug_url.startswith(f"{API_URL}/v1/sessions/{init.session_id}/devtools?token="), init.debug_url)
        self.assertTrue(deckhand.cdp_url.startswith(f"ws://{API_URL.split('://', 1)[1]}/v1/sessions/{init.session_id}/cdp?token="), deckhand.cdp_url)
        self.assertEqual(status_of(init.session_url), 200)

        navigated = deckhand.goto(f"{FIXTURES}/forms.html")
        assert navigated is not None
        self.assertEqual(navigated["response"]["status"], 200)
        clicked = deckhand.act("click the Go button")
        self.assertTrue(clicked["success"], clicked)
        self.assertEqual(clicked["actions"][0].get("method"), "click")
        filled = deckhand.act({"selector": "#name", "method": "fill", "arguments": ["Ada"], "description": "Name"})
        self.assertTrue(filled["success"], filled)
        self.assertTrue(deckhand.act("type %pw% into Password", variables={"pw": {"value": PASSWORD, "description": "the password"}})["success"])
        observed = deckhand.observe("click Submit")
        self.assertEqual(observed[0].get("method"), "click")
        self.assertIn("Submit", observed[0].get("description", ""))
        self.assertEqual(deckhand.extract(selector="#log"), {"pageText": "clicked: go"})
        self.assertEqual(deckhand.extract(selector="h1"), {"pageText": "Sign up"})
        agent = deckhand.agent().execute("click the Go button, then click Submit")
        self.assertEqual((agent["success"], agent["completed"]), (True, True), agent)
        self.assertEqual(agent.get("metadata", {}).get("stopReason"), "done")
        result = deckhand.extract(selector="#result")
        self.assertRegex(result["pageText"], r"^submitted: ")
        self.assertNotIn(PASSWORD, result["pageText"])
        session_id = init.session_id

        deckhand.close()
        deckhand.close()
        with self.assertRaises(DeckhandError):
            _ = deckhand.session_id
        self.assertEqual(status_of(f"{API_URL}/v1/sessions/{session_id}/replay"), 410)
        operations = [e.operation for e in exchanges]
        self.assertEqual(operations, ["startSession", "navigate", "act", "act", "act", "observe", "extract", "extract", "agentExecute", "extract", "endSession"])
        self.assertEqual(assert_follows_contract(self, exchanges), len(exchanges))
        return lines, exchanges

    def test_every_operation_streamed_by_default(self) -> None:
        lines, exchanges = self.scenario(streaming=True)
        operations = [e for e in exchanges if e.endpoint.streams]
        self.assertTrue(all(e.events and e.events[-1]["data"]["status"] == "finished" for e in operations))
        # Log lines arrive only on a stream: the server's own lines prove the calls streamed.
        self.assertTrue(any("navigated" in line["message"] for line in lines), lines)
        self.assertTrue(any(line.get("category") == "agent" for line in lines), lines)

    def test_every_operation_as_json(self) -> None:
        lines, exchanges = self.scenario(streaming=False)
        self.assertTrue(all(not e.events and e.answer["success"] is True for e in exchanges))
        self.assertFalse(any("navigated" in line["message"] for line in lines), lines)

    def test_errors_are_deckhand_api_errors_with_the_servers_code(self) -> None:
        exchanges: list[Exchange] = []
        for streaming in (True, False):
            with self.subTest(streaming=streaming):
                deckhand = client(exchanges, streaming=streaming)
                deckhand.init()
                with self.assertRaises(DeckhandApiError) as bad:
                    deckhand.act("")
                self.assertEqual((bad.exception.status, bad.exception.code), (400, "validation_error"))
                self.assertEqual(bad.exception.issues[0]["path"], "body.input")
                self.assertTrue(bad.exception.request_id)
                with self.assertRaises(DeckhandApiError) as refused:
                    deckhand.agent({"mode": "cua"}).execute("find the sign up form")
                self.assertEqual((refused.exception.status, refused.exception.code), (422, "unprocessable"))
                # After the stream opened, a failure is its error event: status 200, the code still the server's.
                with self.assertRaises(DeckhandApiError) as failed:
                    deckhand.goto("http://127.0.0.1:1/")
                self.assertEqual(failed.exception.code, "navigation_failed")
                self.assertEqual(failed.exception.status == 200, streaming)
                deckhand.close()
        with self.assertRaises(DeckhandApiError) as unauthorized:
            client(exchanges, api_key="wrong-key").init()
        self.assertEqual((unauthorized.exception.status, unauthorized.exception.code), (401, "unauthorized"))
        with self.assertRaises(DeckhandApiError) as unknown:
            client(exchanges, browserbase_session_id="no-such-session").init()
        self.assertEqual((unknown.exception.status, unknown.exception.code), (404, "session_not_found"))
        assert_follows_contract(self, exchanges)
        with self.assertRaises(DeckhandError):
            client(api_url="http://127.0.0.1:1").init()

    def test_resumes_a_session_by_browserbase_session_id(self) -> None:
        first = client()
        started = first.init()
        first.goto(f"{FIXTURES}/forms.html")
        exchanges: list[Exchange] = []
        resumed = client(exchanges, browserbaseSessionID=started.session_id).init()
        self.assertEqual(resumed.session_id, started.session_id)
        self.assertEqual(status_of(resumed.session_url), 200)
        # As a context manager: init on entry, close (the session ends) on exit.
        with client(exchanges, browserbaseSessionID=started.session_id) as third:
            self.assertEqual(third.session_id, started.session_id)
            self.assertEqual(third.extract(selector="h1"), {"pageText": "Sign up"})
        self.assertEqual(status_of(f"{API_URL}/v1/sessions/{started.session_id}/replay"), 410)
        self.assertEqual([e.operation for e in exchanges], ["getBrowserSession", "getBrowserSession", "extract", "endSession"])
        assert_follows_contract(self, exchanges)

    def test_no_secret_in_any_log_line_or_error(self) -> None:
        secrets = (API_KEY, MODEL_KEY, PASSWORD)
        lines: list[LogLine] = []
        errors: list[str] = []
        stderr = io.StringIO()
        with redirect_stderr(stderr):
            for logger in (lines.append, None):
                deckhand = client(verbose=2, logger=logger, model_api_key=MODEL_KEY, use_rich_logging=logger is None)
                deckhand.init()
                deckhand.goto(f"{FIXTURES}/forms.html")
                deckhand.act("type %pw% into Password", variables={"pw": {"value": PASSWORD, "description": "the password"}})
                deckhand.agent().execute({"instruction": "type %pw% into Password", "variables": {"pw": PASSWORD}})
                # A failing call whose request carries the secret: logged at error level, raised.
                try:
                    deckhand.act({"selector": "#nope", "method": "fill", "arguments": [PASSWORD]}, variables={"pw": PASSWORD}, timeout=-1)
                except DeckhandApiError as error:
                    errors += [str(error), repr(error), repr(error.body)]
                deckhand.close()
        self.assertTrue(errors)
        self.assertTrue(any(line.get("level") == 2 and "request:" in line["message"] for line in lines), "debug lines carry each request")
        self.assertTrue(any(line.get("level") == 0 for line in lines), "the failure is logged")
        self.assertIn("request:", stderr.getvalue())
        written = "\n".join([repr(lines), stderr.getvalue(), *errors])
        for secret in secrets:
            # Also as JSON would escape it (a quote, a non-ASCII letter).
            for form in {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}:
                self.assertNotIn(form, written)


if __name__ == "__main__":
    unittest.main()
