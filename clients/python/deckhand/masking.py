"""Values the client must never print: API keys and the variable values it sent. Every log line and
every exception message passes through mask(), whatever the server already masked."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

MASK = "••••"
T = TypeVar("T")


class Secrets:
    def __init__(self) -> None:
        self._values: set[str] = set()

    def add(self, value: object) -> None:
        if isinstance(value, str) and value:
            self._values.add(value)

    def add_variables(self, variables: Mapping[str, Any] | None) -> None:
        """Adds the values of an act/observe/agent `variables` map (a primitive or `{value, description}` each).

        Strings only: masking every "1" of a log because a variable was the number 1 would hide more than it protects.
        """
        for entry in (variables or {}).values():
            self.add(cast("Mapping[str, object]", entry).get("value") if isinstance(entry, Mapping) else entry)

    def mask(self, text: str) -> str:
        # Longest first, so a secret that contains another is masked whole.
        for value in sorted(self._values, key=len, reverse=True):
            text = text.replace(value, MASK)
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
