"""Reads a Deckhand event stream: events are separated by a blank line; an event's `data:` lines are its
JSON (joined by newlines, as the SSE format says); comment lines (`: heartbeat`) and other fields are skipped."""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import cast

from ._gen_shapes import StreamEvent


def iter_events(lines: Iterable[bytes]) -> Iterator[StreamEvent]:
    data: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield cast(StreamEvent, json.loads("\n".join(data)))
            data = []
        elif line.startswith("data:"):
            value = line[len("data:"):]
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield cast(StreamEvent, json.loads("\n".join(data)))
