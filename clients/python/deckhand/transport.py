"""HTTP to a Deckhand server with the standard library: one JSON call, or one event stream read to its
terminal event. Every non-2xx answer becomes a DeckhandApiError carrying the server's error body."""
from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from ._gen_shapes import ENDPOINTS, Endpoint, ErrorResponse, LogLine, StreamEvent, ValidationIssue
from .errors import DeckhandApiError, DeckhandError
from .masking import Secrets
from .sse import iter_events


@dataclass
class Exchange:
    """One call as it went over the wire (for observers: the client's own contract checks)."""

    operation: str
    endpoint: Endpoint
    body: Any
    status: int
    answer: Any = None
    """The JSON answer, or None for a stream (see events)."""
    events: list[StreamEvent] = field(default_factory=list[StreamEvent])


class Transport:
    def __init__(self, api_url: str | None, headers: Mapping[str, str], secrets: Secrets, timeout: float | None = None) -> None:
        """`api_url` None: the server is not known yet (env 'LOCAL' starts it at init); point_at() names it."""
        self._scheme = self._netloc = self._prefix = ""
        if api_url is not None:
            self.point_at(api_url)
        self._headers = dict(headers)
        self._secrets = secrets
        self._timeout = timeout
        self.observer: Callable[[Exchange], None] | None = None
        """Sees every exchange (unmasked: it is the caller's own data); None by default."""

    def point_at(self, api_url: str) -> None:
        parsed = urllib.parse.urlsplit(api_url)
        self._scheme = parsed.scheme
        self._netloc = parsed.netloc
        self._prefix = parsed.path.rstrip("/")

    def call(
        self, operation: str, session_id: str | None = None, body: Any = None, *, name: str | None = None, query: Mapping[str, str] | None = None, raw: bytes | None = None
    ) -> Any:
        """A JSON call; answers the decoded body of a 2xx answer. `name`: a file path's `{name}`; `raw`: bytes sent as they are."""
        endpoint = ENDPOINTS[operation]
        response, connection = self._open(endpoint, session_id, body, {"accept": "application/json"}, name=name, query=query, raw=raw)
        exchange = Exchange(operation, endpoint, body, response.status)
        try:
            raw = response.read()
            self._raise_for_status(response, raw, exchange)
            exchange.answer = json.loads(raw) if raw else None
            self._observe(exchange)
            return exchange.answer
        finally:
            connection.close()

    def fetch(self, operation: str, session_id: str, name: str) -> bytes:
        """A file's bytes (a 2xx answer's whole body)."""
        endpoint = ENDPOINTS[operation]
        response, connection = self._open(endpoint, session_id, None, {"accept": "*/*"}, name=name)
        exchange = Exchange(operation, endpoint, None, response.status)
        try:
            raw = response.read()
            self._raise_for_status(response, raw, exchange)
            self._observe(exchange)
            return raw
        finally:
            connection.close()

    def stream(self, operation: str, session_id: str, body: Any, on_log: Callable[[LogLine], None]) -> dict[str, Any]:
        """A streamed call, read to its terminal event; answers the `finished` event's payload without `status`
        (`{result, actionId, ...}`, what `data` holds in the JSON answer). Log events go to on_log."""
        endpoint = ENDPOINTS[operation]
        response, connection = self._open(endpoint, session_id, body, {"accept": "text/event-stream", "x-stream-response": "true"})
        exchange = Exchange(operation, endpoint, body, response.status)
        try:
            self._raise_for_status(response, None, exchange)
            content_type = response.getheader("content-type", "")
            if not content_type.startswith("text/event-stream"):
                raise DeckhandError("Stream ended without completion signal: the server answered a streamed request with " + (content_type or "no content type"))
            for event in iter_events(_lines(response)):
                exchange.events.append(event)
                data = cast(dict[str, Any], event["data"])
                status = data.get("status")
                if status == "running":
                    on_log(cast(LogLine, data["message"]))
                elif status == "error":
                    self._observe(exchange)
                    code = data.get("code") or "internal_error"
                    raise DeckhandApiError(response.status, self._error_body(str(data.get("error")), code), response.getheader("x-request-id"))
                elif status == "finished":
                    self._observe(exchange)
                    return {key: value for key, value in data.items() if key != "status"}
            raise DeckhandError("Stream ended without completion signal")
        finally:
            connection.close()

    def _open(
        self,
        endpoint: Endpoint,
        session_id: str | None,
        body: Any,
        extra: Mapping[str, str],
        *,
        name: str | None = None,
        query: Mapping[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[http.client.HTTPResponse, http.client.HTTPConnection]:
        if not self._netloc:
            raise DeckhandError("no Deckhand server yet: call init() first")
        path = self._prefix + endpoint.path
        if "{id}" in path:
            if session_id is None:
                raise DeckhandError(f"{endpoint.path} needs a session id")
            path = path.replace("{id}", urllib.parse.quote(session_id, safe=""))
        if "{name}" in path:
            if name is None:
                raise DeckhandError(f"{endpoint.path} needs a file name")
            path = path.replace("{name}", urllib.parse.quote(name, safe=""))
        if query:
            path += "?" + urllib.parse.urlencode(query)
        headers = {**self._headers, **extra}
        payload: bytes | None = None
        if raw is not None:
            payload = raw
            headers["content-type"] = "application/octet-stream"
        elif body is not None:
            payload = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        connection: http.client.HTTPConnection
        if self._scheme == "https":
            connection = http.client.HTTPSConnection(self._netloc, timeout=self._timeout)
        else:
            connection = http.client.HTTPConnection(self._netloc, timeout=self._timeout)
        try:
            connection.request(endpoint.method, path, body=payload, headers=headers)
            return connection.getresponse(), connection
        except OSError as error:
            connection.close()
            # The reason only (no headers, no body): nothing secret goes into the message.
            raise DeckhandError(self._secrets.mask(f"cannot reach the Deckhand server at {self._scheme}://{self._netloc}: {error}")) from None

    def _raise_for_status(self, response: http.client.HTTPResponse, raw: bytes | None, exchange: Exchange) -> None:
        if 200 <= response.status < 300:
            return
        text = (raw if raw is not None else response.read()).decode("utf-8", "replace")
        request_id = response.getheader("x-request-id")
        try:
            parsed: object = json.loads(text)
        except ValueError:
            parsed = None
        body = cast("dict[str, object]", parsed) if isinstance(parsed, dict) else {}
        message, code, issues = body.get("message"), body.get("code"), body.get("issues")
        if not (isinstance(message, str) and isinstance(code, str)):
            raise DeckhandError(self._secrets.mask(f"HTTP {response.status} without Deckhand's error body: {text[:200]}"))
        exchange.answer = body
        self._observe(exchange)
        error = self._error_body(message, code)
        if isinstance(issues, list):
            error["issues"] = self._secrets.mask_value(cast("list[ValidationIssue]", issues))
        raise DeckhandApiError(response.status, error, request_id)

    def _error_body(self, message: str, code: str) -> ErrorResponse:
        return cast(ErrorResponse, {"success": False, "message": self._secrets.mask(message), "code": code})

    def _observe(self, exchange: Exchange) -> None:
        if self.observer is not None:
            self.observer(exchange)


def _lines(response: http.client.HTTPResponse) -> Iterator[bytes]:
    while True:
        line = response.readline()
        if not line:
            return
        yield line
