"""The client's files, cookies, storage state and sessions list against a running server: a file sent and
set on a file field by the setInputFiles Action, a download fetched and deleted, a login carried to another
session by `storage_state=`, and the project's sessions listed; every exchange checked against openapi.yaml.

Needs the same environment as test_live (set by test/python/python-client.test.ts)."""
from __future__ import annotations

import unittest

from deckhand import DeckhandApiError
from deckhand.transport import Exchange

from .contract import assert_follows_contract
from .test_live import API_KEY, API_URL, FIXTURES, client


@unittest.skipUnless(API_URL and API_KEY and FIXTURES, "needs a running server: DECKHAND_TEST_API_URL, DECKHAND_TEST_API_KEY, DECKHAND_TEST_FIXTURES_URL")
class SessionDataTest(unittest.TestCase):
    def test_files_and_downloads(self) -> None:
        exchanges: list[Exchange] = []
        with client(exchanges, streaming=False) as deckhand:
            deckhand.goto(f"{FIXTURES}/upload.html")
            sent = deckhand.upload("report.pdf", b"%PDF-1.4")
            self.assertEqual((sent["name"], sent["size"], sent["mimeType"]), ("report.pdf", 8, "application/pdf"))
            self.assertEqual([f["name"] for f in deckhand.files()], ["report.pdf"])
            acted = deckhand.act({"selector": "#attachment", "method": "setInputFiles", "arguments": ["report.pdf"], "description": "Attachment"})
            self.assertTrue(acted["success"], acted)
            self.assertIn("chose: report.pdf 8", deckhand.extract(selector="#log")["pageText"])
            deckhand.delete_file("report.pdf")
            self.assertEqual(deckhand.files(), [])

            deckhand.goto(f"{FIXTURES}/download.html")
            deckhand.act({"selector": "#save", "method": "click", "arguments": [], "description": "Save the note"})
            self.assertEqual([f["name"] for f in deckhand.downloads()], ["note.txt"])
            self.assertEqual(deckhand.download("note.txt"), b"relay-download")
            deckhand.delete_download("note.txt")
            with self.assertRaises(DeckhandApiError) as caught:
                deckhand.download("note.txt")
            self.assertEqual((caught.exception.status, caught.exception.code), (404, "file_not_found"))
        assert_follows_contract(self, exchanges)

    def test_login_carried_to_another_session_and_sessions_listed(self) -> None:
        exchanges: list[Exchange] = []
        with client(exchanges, streaming=False) as first:
            first.goto(f"{FIXTURES}/login.html")
            first.act({"selector": "#user", "method": "fill", "arguments": ["Linus"], "description": "User"})
            first.act({"selector": "#sign-in", "method": "click", "arguments": [], "description": "Sign in"})
            state = first.storage_state()
            self.assertIn("login", [c["name"] for c in first.cookies()])
            with client(exchanges, streaming=False, storage_state=state) as second:
                second.goto(f"{FIXTURES}/login.html")
                self.assertEqual(second.extract(selector="#status"), {"pageText": "Signed in as Linus"})
                listed = first.list_sessions(limit=200)["data"]["sessions"]
                self.assertTrue({first.session_id, second.session_id} <= {s["sessionId"] for s in listed})
                second.set_cookies(clear=True)
                self.assertEqual(second.cookies(), [])
        assert_follows_contract(self, exchanges)


if __name__ == "__main__":
    unittest.main()
