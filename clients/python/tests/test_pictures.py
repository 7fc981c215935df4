"""screenshot() and pdf() against a running Deckhand server: the file's bytes (PNG, JPEG, PDF) at the
sizes asked, errors as DeckhandApiError naming what is wrong, every answer checked against openapi.yaml.
Needs the servers test/python/python-client.test.ts starts; skipped without them."""
from __future__ import annotations

import struct
import unittest

from deckhand import DeckhandApiError
from deckhand.transport import Exchange

from .contract import assert_follows_contract
from .test_live import API_KEY, API_URL, FIXTURES, client


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n", png[:8]
    width, height = struct.unpack(">II", png[16:24])
    return width, height


@unittest.skipUnless(API_URL and API_KEY and FIXTURES, "needs a running server: DECKHAND_TEST_API_URL, DECKHAND_TEST_API_KEY, DECKHAND_TEST_FIXTURES_URL")
class PicturesTest(unittest.TestCase):
    def test_screenshots_and_pdf_as_bytes(self) -> None:
        exchanges: list[Exchange] = []
        deckhand = client(exchanges, local_browser_launch_options={"headless": True, "viewport": {"width": 640, "height": 480}})
        deckhand.init()
        try:
            deckhand.goto(f"{FIXTURES}/pictures.html")
            self.assertEqual(png_size(deckhand.screenshot()), (640, 480))
            self.assertEqual(png_size(deckhand.screenshot(selector="#box")), (200, 100))
            self.assertEqual(png_size(deckhand.screenshot(full_page=True)), (640, 3000))
            self.assertEqual(deckhand.screenshot(type="jpeg", quality=40)[:3], b"\xff\xd8\xff")
            self.assertEqual(deckhand.pdf(format="A4", landscape=True)[:5], b"%PDF-")
            with self.assertRaises(DeckhandApiError) as missing:
                deckhand.screenshot(selector="#nowhere")
            self.assertEqual((missing.exception.status, missing.exception.code), (422, "unprocessable"))
            self.assertIn("#nowhere", str(missing.exception))
            with self.assertRaises(DeckhandApiError) as quality:
                deckhand.screenshot(quality=50)
            self.assertEqual((quality.exception.status, quality.exception.code), (400, "validation_error"))
        finally:
            deckhand.close()
        self.assertGreater(assert_follows_contract(self, exchanges), 7)
