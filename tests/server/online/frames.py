"""Websocket frames generated from the protocol's JSON Schema (what /api/online/
socket-schema.json publishes): `valid(model)` draws frames the schema allows, and
`hostile_frames(rng)` frames with one field just past what it allows, for the tests
and the fuzzer. The schema's own subset is read: objects, anyOf, const and enum,
strings and integers with their bounds, null."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st
from pydantic import TypeAdapter

from noughts.server.online import protocol

#: The client frames' models, each with its JSON Schema.
CLIENT_MODELS: tuple[type[Any], ...] = (
    protocol.Move,
    protocol.Action,
    protocol.Resync,
    protocol.Ping,
    protocol.ChatSay,
    protocol.ChatMute,
    protocol.ChatReport,
)
SCHEMAS = {model: TypeAdapter(model).json_schema() for model in CLIENT_MODELS}


def values(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """What `schema` (one of the protocol's) allows."""
    if "anyOf" in schema:
        return st.one_of([values(option) for option in schema["anyOf"]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 60), 60))
    if kind == "object":
        required = set(schema.get("required", []))
        fields = schema["properties"]
        return st.fixed_dictionaries(
            {name: values(fields[name]) for name in fields if name in required},
            optional={name: values(fields[name]) for name in fields if name not in required},
        )
    raise NotImplementedError(f"a schema the protocol does not use: {schema}")


def valid(model: type[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Frames of `model` the schema allows."""
    return values(SCHEMAS[model])


def _past(schema: dict[str, Any], rng: random.Random) -> Any:
    """A value just outside `schema`: past a bound, or of another kind."""
    if "anyOf" in schema:
        bounded = [option for option in schema["anyOf"] if option.get("type") != "null"]
        return _past(rng.choice(bounded), rng)
    if "const" in schema or "enum" in schema:
        return rng.choice([None, 5, "", "x" * 41])
    if schema.get("type") == "integer":
        return rng.choice([schema["maximum"] + 1, schema["minimum"] - 1, True, 1.5, str(schema["minimum"])])
    if schema.get("type") == "string":
        most = schema.get("maxLength")
        return rng.choice([7, [], {}, *(["x" * (most + 1)] if most else [])])
    return None


def hostile_frames(rng: random.Random) -> dict[str, Any]:
    """A client frame of the schema's with one of its fields (not its type) just
    outside what the schema allows."""
    model = rng.choice([m for m in CLIENT_MODELS if len(SCHEMAS[m]["properties"]) > 2])
    schema = SCHEMAS[model]
    fields = schema["properties"]
    kinds = fields["type"].get("enum", [fields["type"].get("const")])
    frame: dict[str, Any] = {"type": rng.choice(kinds)}
    for name in schema.get("required", []):
        if name != "type":
            frame[name] = _simple(fields[name])
    name = rng.choice([n for n in fields if n not in ("type", "id")])
    frame[name] = _past(fields[name], rng)
    return frame


def _simple(schema: dict[str, Any]) -> Any:
    """The simplest value `schema` allows (a required field left as it may be)."""
    if "anyOf" in schema:
        return _simple(schema["anyOf"][0])
    if schema.get("type") == "integer":
        return max(schema.get("minimum", 0), 1)
    if schema.get("type") == "string":
        return "5" * max(1, schema.get("minLength", 1))
    return None
