"""Checks values against openapi.yaml's schemas (deckhand._gen_shapes.SCHEMAS, generated from it), so a
request the client sends or an answer it reads that drifts from the contract fails a test.

Requests are checked strictly: a property the schema does not name is an error unless the schema allows
extra properties explicitly. Answers follow the schema as written."""
from __future__ import annotations

import unittest
from collections.abc import Iterable
from typing import Any, cast

from deckhand._gen_shapes import SCHEMAS
from deckhand.transport import Exchange

TYPES: dict[str, Any] = {"string": str, "object": dict, "array": list, "boolean": bool}


def _is_type(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if name in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return name == "number" or float(value).is_integer()
    return isinstance(value, TYPES[name])


def problems(value: Any, schema: dict[str, Any], path: str = "$", strict: bool = False) -> list[str]:
    """Where value departs from schema (empty when it follows it)."""
    if "$ref" in schema:
        return problems(value, SCHEMAS[schema["$ref"].split("/")[-1]], path, strict)
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        results = [problems(value, branch, path, strict) for branch in branches]
        if any(not result for result in results):
            return []
        return min(results, key=len)
    if "const" in schema and value != schema["const"]:
        return [f"{path}: {value!r} is not {schema['const']!r}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{path}: {value!r} is not one of {schema['enum']!r}"]
    types = schema.get("type")
    if types is not None:
        names = cast("list[str]", types if isinstance(types, list) else [types])
        if not any(_is_type(value, name) for name in names):
            return [f"{path}: {type(value).__name__} where the contract has {types}"]
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        return [f"{path}: shorter than {schema['minLength']}"]
    found: list[str] = []
    if isinstance(value, dict) and (types == "object" or "properties" in schema):
        properties: dict[str, Any] = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                found.append(f"{path}: missing required {name!r}")
        extra: Any = schema.get("additionalProperties")
        for name, item in cast("dict[str, Any]", value).items():
            if name in properties:
                found += problems(item, properties[name], f"{path}.{name}", strict)
            elif isinstance(extra, dict):
                found += problems(item, cast("dict[str, Any]", extra), f"{path}.{name}", strict)
            elif extra is False or (strict and extra is not True):
                found.append(f"{path}: {name!r} is not in the contract")
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(cast("list[Any]", value)):
            found += problems(item, schema["items"], f"{path}[{index}]", strict)
    return found


def schema(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def assert_follows_contract(test: unittest.TestCase, exchanges: Iterable[Exchange]) -> int:
    """Every request body and every answer (JSON, error body, or each stream event and its terminal payload)
    checked against the endpoint's schemas (a request the server refused as invalid excepted: tests send those
    on purpose); answers how many exchanges were checked."""
    count = 0
    for exchange in exchanges:
        count += 1
        where = f"{exchange.operation} ({exchange.status})"
        endpoint = exchange.endpoint
        answer: Any = exchange.answer
        refused = not 200 <= exchange.status < 300 and isinstance(answer, dict) and cast("dict[str, Any]", answer).get("code") == "validation_error"
        if refused:
            pass  # a request the test made invalid on purpose; the server's 400 is what is checked
        elif endpoint.request is not None:
            test.assertEqual(problems(exchange.body, schema(endpoint.request), "request", strict=True), [], where)
        else:
            test.assertIsNone(exchange.body, where)
        if not 200 <= exchange.status < 300:
            test.assertEqual(problems(answer, schema("ErrorResponse"), "error"), [], where)
        elif exchange.events:
            test.assertTrue(endpoint.streams, where)
            for event in exchange.events:
                test.assertEqual(problems(event, schema("StreamEvent"), "event"), [], where)
            terminal = dict(exchange.events[-1]["data"])
            if terminal.pop("status") == "finished" and endpoint.response is not None:
                test.assertEqual(problems({"success": True, "data": terminal}, schema(endpoint.response), "finished"), [], where)
        elif endpoint.response is not None:
            test.assertEqual(problems(answer, schema(endpoint.response), "answer"), [], where)
    return count
