"""The event-stream reader on the framings a server may send: heartbeats and other fields skipped."""
import unittest

from deckhand.sse import iter_events


def lines(text: str) -> list[bytes]:
    return [line.encode() for line in text.splitlines(keepends=True)]


class EventStreamTest(unittest.TestCase):
    def test_data_events_in_order_heartbeats_and_other_fields_skipped(self) -> None:
        stream = ': heartbeat\n\ndata: {"data":{"status":"starting"},"type":"system","id":"1"}\n\n: heartbeat\n\nevent: x\nid: 7\ndata: {"data":{"status":"finished","result":1},"type":"system","id":"2"}\n\n'
        events = list(iter_events(lines(stream)))
        self.assertEqual([e["data"]["status"] for e in events], ["starting", "finished"])

    def test_crlf_multi_line_data_no_space_and_a_last_event_without_blank_line(self) -> None:
        stream = 'data: {"data":\r\ndata:{"status":"running","message":{"message":"é"}},"type":"log","id":"3"}\r\n\r\ndata: {"data":{"status":"error","error":"x"},"type":"system","id":"4"}'
        events = list(iter_events(lines(stream)))
        self.assertEqual(events[0]["data"], {"status": "running", "message": {"message": "é"}})
        self.assertEqual(events[1]["data"]["status"], "error")
