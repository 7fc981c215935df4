"""Values the client must never print: API keys and the variable values it sent. Every log line and
every exception message passes through mask(), whatever the server already masked.

A short value is masked only where it stands alone (not inside a longer word or number): a key shorter
than KEY_MASKED_ANYWHERE_FROM ("x" on a keyless loopback server) would otherwise turn "vertex" into
"verte••••", and a variable value of SHORT_SECRET characters or fewer follows the server's rule."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar, cast

MASK = "••••"
KEY_MASKED_ANYWHERE_FROM = 8
SHORT_SECRET = 3
T = TypeVar("T")


class Secrets:
    def __init__(self) -> None:
        # Each value with the length up to which it is masked only as a whole token.
        self._values: dict[str, int] = {}

    def add(self, value: object) -> None:
        """An API key or a model key."""
        if isinstance(value, str) and value:
            self._values[value] = max(self._values.get(value, 0), KEY_MASKED_ANYWHERE_FROM - 1)

    def add_variables(self, variables: Mapping[str, Any] | None) -> None:
        """Adds the values of an act/observe/agent `variables` map (a primitive or `{value, description}` each).

        Strings only: masking every "1" of a log because a variable was the number 1 would hide more than it protects.
        """
        for entry in (variables or {}).values():
            value = cast("Mapping[str, object]", entry).get("value") if isinstance(entry, Mapping) else entry
            if isinstance(value, str) and value and value not in self._values:
                self._values[value] = SHORT_SECRET

    def mask(self, text: str) -> str:
        # Longest first, so a secret that contains another is masked whole.
        for value, short_up_to in sorted(self._values.items(), key=lambda item: len(item[0]), reverse=True):
            if value not in text:
                continue
            if len(value) > short_up_to:
                text = text.replace(value, MASK)
            else:
                text = re.sub(rf"(?<![^\W_]){re.escape(value)}(?![^\W_])", MASK, text)
        return text

    def mask_value(self, value: T) -> T:
        """A JSON-like value with every secret masked inside its strings (keys included). It walks the value
        rather than masking its JSON text, where a secret with a quote or a non-ASCII letter is escaped."""
        return cast(T, self._walk(value))

    def _walk(self, value: object) -> object:
        if isinstance(value, str):
            return self.mask(value)
        if isinstance(value, Mapping):
            return {self.mask(str(key)): self._walk(item) for key, item in cast("Mapping[object, object]", value).items()}
        if isinstance(value, (list, tuple)):
            return [self._walk(item) for item in cast("list[object]", value)]
        return value
