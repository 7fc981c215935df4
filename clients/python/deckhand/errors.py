"""The client's exceptions: one base, the server's error body, and a wrong option found at construction."""
from __future__ import annotations

from ._gen_shapes import ErrorResponse, ValidationIssue


class DeckhandError(Exception):
    """Anything that went wrong in the client: the server unreachable, a stream cut short, an unreadable answer."""


class DeckhandApiError(DeckhandError):
    """The server said no: a non-2xx answer, or a stream's `error` event (status 200), with its error body.

    The message is the server's (which never carries secrets), masked again by the client.
    """

    def __init__(self, status: int, body: ErrorResponse, request_id: str | None = None) -> None:
        super().__init__(body["message"])
        self.status = status
        self.body = body
        self.request_id = request_id

    @property
    def code(self) -> str:
        """The server's stable machine-readable error code, e.g. `validation_error`."""
        return self.body["code"]

    @property
    def message(self) -> str:
        return self.body["message"]

    @property
    def issues(self) -> list[ValidationIssue]:
        """For a validation error, one entry per problem (`path`, `message`)."""
        return self.body.get("issues", [])

    def __str__(self) -> str:
        return f"{self.body['message']} ({self.status} {self.body['code']})"

    def __repr__(self) -> str:
        return f"DeckhandApiError(status={self.status}, code={self.body['code']!r}, message={self.body['message']!r}, request_id={self.request_id!r})"


class DeckhandOptionsError(DeckhandError, ValueError):
    """A wrong option, raised by the constructor; the message starts with the option's name as given."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
