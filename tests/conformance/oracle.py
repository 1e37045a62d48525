"""The official provider SDKs as the oracle for what each API accepts.

The validators in ``tests/support/provider_checks.py`` were written from the same reading of the
formats as the encoders, so they agree with them by construction. This module asks the
vendors' own Python SDKs instead (``anthropic``, ``openai``, ``google-genai``):

- :func:`check_request` validates a request body three ways: pydantic in strict mode against
  the SDK's request type (with every lazily validated ``Iterable`` forced), a walk over the
  SDK's ``TypedDict`` annotations (unknown keys, missing required keys, wrong literals, wrong
  scalar types: TypedDict validation ignores unknown keys, and a union takes any member that
  fits), and the rules the APIs enforce that the types do not encode (:func:`api_rules`).
- Bedrock has no pydantic types: botocore's own service model for ``bedrock-runtime`` is the
  oracle (:func:`bedrock_shape`): ``ParamValidator`` checks a body against the ``Converse``
  input shape (required members, unknown members, types, unions, minimum lengths), and
  :func:`model_limits` the rest of what the model states and the validator leaves to the
  server (enums, maximum lengths, patterns). Responses and stream events are checked the
  same way against the output shapes.
- :func:`sdk_response` builds an SDK response object, and :func:`dumps` gives the ways a
  program commonly turns one back into JSON; the response tests require each to round-trip.

Every check returns :class:`Finding` records rather than raising, so that a test can tell a
known, named fault (:data:`FAULTS`, still open while listed in :data:`OPEN`) from a new one.
:data:`COUNTS` counts the bodies validated per provider; the conformance ``conftest`` prints
it at the end of the run.
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from typing import Any
from typing import Literal
from typing import Union
from typing import get_args
from typing import get_origin
from typing import get_type_hints

import pytest

pydantic = pytest.importorskip("pydantic")
pytest.importorskip("anthropic")
pytest.importorskip("openai")
pytest.importorskip("google.genai")
botocore_session = pytest.importorskip("botocore.session")
botocore_validate = pytest.importorskip("botocore.validate")

from typing import NotRequired  # noqa: E402
from typing import Required  # noqa: E402

from anthropic.types import Message as AnthropicMessage  # noqa: E402
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming  # noqa: E402
from anthropic.types.message_create_params import MessageCreateParamsStreaming  # noqa: E402
from google.genai import types as gtypes  # noqa: E402
from openai.types.chat import ChatCompletion  # noqa: E402
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming  # noqa: E402
from openai.types.chat.completion_create_params import CompletionCreateParamsStreaming  # noqa: E402
from openai.types.responses import Response  # noqa: E402
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming  # noqa: E402
from openai.types.responses.response_create_params import ResponseCreateParamsStreaming  # noqa: E402
from typing_extensions import is_typeddict  # noqa: E402

from support.provider_checks import INVENTED  # noqa: E402

PROVIDERS = ("anthropic", "openai_chat", "openai_responses", "gemini", "bedrock")

REQUEST_TYPES: dict[str, Any] = {
    "anthropic": MessageCreateParamsNonStreaming,
    "openai_chat": CompletionCreateParamsNonStreaming,
    "openai_responses": ResponseCreateParamsNonStreaming,
}
"""The SDK request TypedDict each provider's body is checked against (Gemini: see
:func:`_gemini_sdk`, which uses the ``google.genai.types`` models)."""

STREAMING_TYPES: dict[str, Any] = {
    "anthropic": MessageCreateParamsStreaming,
    "openai_chat": CompletionCreateParamsStreaming,
    "openai_responses": ResponseCreateParamsStreaming,
}
"""The request TypedDict of a body that asks for a stream (``"stream": true``)."""

RESPONSE_TYPES: dict[str, Any] = {
    "anthropic": AnthropicMessage,
    "openai_chat": ChatCompletion,
    "openai_responses": Response,
    "gemini": gtypes.GenerateContentResponse,
}
"""The SDK response model of each provider."""

_REQUIRED_PARAMS: dict[str, dict[str, Any]] = {
    "anthropic": {"model": "claude-x", "max_tokens": 1024},
    "openai_chat": {"model": "gpt-x"},
    "openai_responses": {"model": "gpt-x"},
}
"""Request parameters the SDK requires that ``encode_request`` does not write without
settings (it writes only the message-carrying keys then); a body's own values win."""

COUNTS: Counter[str] = Counter()
"""Request bodies validated per provider in this run."""
RESPONSE_COUNTS: Counter[str] = Counter()
"""Response dumps round-tripped per provider in this run."""
STREAM_COUNTS: Counter[str] = Counter()
"""Streams folded by our accumulator and the SDK's and compared, per provider."""
PAIRS: Counter[tuple[str, str]] = Counter()
"""Cross-provider request bodies accepted, per (source, target): a conversation decoded from
one provider's request and encoded for another."""
SETTINGS_PAIRS: Counter[tuple[str, str]] = Counter()
"""Of :data:`PAIRS`, the bodies encoded with request settings (tools, tool choice, limits,
sampling, stop sequences) as well as the conversation."""
SEEN: Counter[str] = Counter()
"""How often each open fault was met (and tolerated) in this run."""


@dataclass(frozen=True)
class Finding:
    """One thing the oracle objects to in a body."""

    provider: str
    rule: str
    """``pydantic``, ``unknown-key``, ``missing-key``, ``literal``, ``type``, ``union``,
    ``alias`` or the name of an API rule (see :func:`api_rules`)."""
    path: str
    message: str
    value: Any = field(default=None, compare=False)
    """The offending JSON value (the item or block at ``path``)."""

    def __str__(self) -> str:
        return f"{self.provider} {self.rule} at {self.path}: {self.message}"


# --------------------------------------------------------------------------- the walker


def _strip(tp: Any) -> tuple[Any, str | None]:
    """``tp`` without ``Required``/``NotRequired``/``Annotated``, and its wire alias if any."""
    alias = None
    while True:
        origin = get_origin(tp)
        if origin in (Required, NotRequired):
            tp = get_args(tp)[0]
        elif origin is typing.Annotated:
            args = get_args(tp)
            for meta in args[1:]:
                alias = getattr(meta, "alias", None) or alias
            tp = args[0]
        else:
            return tp, alias


def _marks(hint: Any) -> set[Any]:
    """The ``Required``/``NotRequired`` wrappers around ``hint`` (inside ``Annotated`` too)."""
    marks = set()
    while get_origin(hint) in (Required, NotRequired, typing.Annotated):
        if get_origin(hint) is not typing.Annotated:
            marks.add(get_origin(hint))
        hint = get_args(hint)[0]
    return marks


@cache
def _fields(td: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """A TypedDict's fields by wire name, and the wire names it requires."""
    hints = get_type_hints(td, include_extras=True)
    out: dict[str, Any] = {}
    required = set()
    for name, hint in hints.items():
        tp, alias = _strip(hint)
        wire = alias or name
        out[wire] = tp
        # With postponed annotations ``__required_keys__`` misses ``Required[...]``: read the
        # wrapper itself, and take the class's totality for the keys without one.
        marks = _marks(hint)
        if Required in marks or (NotRequired not in marks and name in td.__required_keys__):
            required.add(wire)
    return out, frozenset(required)


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, pydantic.BaseModel)


def _name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or repr(tp)


_LIST_ORIGINS = {list, tuple, Iterable, typing.Iterable}


def _is_listlike(origin: Any) -> bool:
    if origin in _LIST_ORIGINS:
        return True
    try:
        import collections.abc as abc

        return isinstance(origin, type) and issubclass(origin, abc.Iterable)
    except TypeError:  # pragma: no cover - exotic origins
        return False


def walk(value: Any, tp: Any, path: str) -> list[tuple[str, str, str, Any]]:
    """Check ``value`` against the SDK annotation ``tp``; (rule, path, message, value) each."""
    tp, _ = _strip(tp)
    if tp is Any or tp is object:
        return []
    if tp is type(None) or tp is None:
        return [] if value is None else [("type", path, f"expected null, found {value!r}", value)]
    origin = get_origin(tp)
    if origin is Literal:
        allowed = get_args(tp)
        ok = any(value == a and type(value) is type(a) for a in allowed)
        return [] if ok else [("literal", path, f"{value!r} is not one of {allowed}", value)]
    if origin in (Union, types.UnionType):
        return _union(value, get_args(tp), path)
    if is_typeddict(tp):
        return _typeddict(value, tp, path)
    if _is_model(tp):
        return _model(value, tp, path)
    if origin in (dict, typing.Dict, typing.Mapping) or tp in (dict, typing.Dict):  # noqa: UP006
        if not isinstance(value, dict):
            return [("type", path, f"expected an object, found {type(value).__name__}", value)]
        args = get_args(tp)
        if len(args) == 2:
            return [e for k, v in value.items() for e in walk(v, args[1], f"{path}.{k}")]
        return []
    if origin is not None and _is_listlike(origin):
        if not isinstance(value, list):
            return [("type", path, f"expected an array, found {type(value).__name__}", value)]
        (item,) = get_args(tp)[:1] or (Any,)
        return [e for i, v in enumerate(value) for e in walk(v, item, f"{path}[{i}]")]
    if tp is str:
        ok = isinstance(value, str)
    elif tp is bool:
        ok = isinstance(value, bool)
    elif tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif tp is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif isinstance(tp, type):
        ok = isinstance(value, tp)
    else:  # pragma: no cover - an annotation this walker does not know: say so loudly
        return [("type", path, f"annotation {tp!r} not understood by the walker", value)]
    if ok:
        return []
    return [("type", path, f"expected {_name(tp)}, found {type(value).__name__}", value)]


def _discriminators(td: Any, value: dict[str, Any]) -> str | None:
    """Why ``td`` cannot be the member (a literal-typed key with another value), if so."""
    if _is_model(td):
        fields = {(f.alias or n): f.annotation for n, f in td.model_fields.items()}
    elif is_typeddict(td):
        fields, _ = _fields(td)
    else:
        return None
    for key, tp in fields.items():
        allowed = _literals(tp)
        if (
            key in value
            and allowed is not None
            and not any(value[key] == a and type(value[key]) is type(a) for a in allowed)
        ):
            return f"{key}={value[key]!r}"
    return None


def _literals(tp: Any) -> tuple[Any, ...] | None:
    """The values a ``Literal`` (or ``Optional[Literal]``) annotation allows; None otherwise."""
    tp, _ = _strip(tp)
    if get_origin(tp) is Literal:
        return get_args(tp)
    if get_origin(tp) in (Union, types.UnionType):
        members = [_strip(m)[0] for m in get_args(tp)]
        if all(m is type(None) or get_origin(m) is Literal for m in members):
            return tuple(a for m in members if m is not type(None) for a in get_args(m)) + (
                (None,) if type(None) in members else ()
            )
    return None


def _model(value: Any, model: Any, path: str) -> list[tuple[str, str, str, Any]]:
    """A response model the SDK also takes in a request (Anthropic: a returned block sent
    back as is): its fields by wire name, like a TypedDict's."""
    if not isinstance(value, dict):
        return [("type", path, f"expected {model.__name__} (an object), found {value!r}", value)]
    errors: list[tuple[str, str, str, Any]] = []
    fields = {(f.alias or n): f for n, f in model.model_fields.items()}
    for key, f in fields.items():
        if f.is_required() and key not in value:
            errors.append(("missing-key", path, f"{model.__name__} requires {key!r}", value))
    for key, item in value.items():
        if key not in fields:
            if key not in INVENTED:
                errors.append(
                    ("unknown-key", f"{path}.{key}", f"{model.__name__} has no {key!r}", value)
                )
            continue
        errors.extend(walk(item, fields[key].annotation, f"{path}.{key}"))
    return errors


def _flat(members: tuple[Any, ...]) -> tuple[Any, ...]:
    """A union's members with nested unions spread out."""
    out: list[Any] = []
    for member in members:
        bare, _ = _strip(member)
        if get_origin(bare) in (Union, types.UnionType):
            out.extend(_flat(get_args(bare)))
        else:
            out.append(member)
    return tuple(out)


def _union(value: Any, members: tuple[Any, ...], path: str) -> list[tuple[str, str, str, Any]]:
    members = _flat(members)
    if value is None and type(None) in members:
        return []
    tried: list[tuple[int, Any, list[tuple[str, str, str, Any]]]] = []
    mismatch = ""
    for member in members:
        if member is type(None):
            continue
        bare, _ = _strip(member)
        if isinstance(value, dict):
            mismatch = _discriminators(bare, value) or ""
            if mismatch:
                continue
        errors = walk(value, member, path)
        if not errors:
            return []
        tried.append((len(errors), member, errors))
    named = [_name(_strip(m)[0]) for m in members if m is not type(None)]
    names = ", ".join(named) if len(named) <= 4 else f"{len(named)} members"
    if not tried:
        return [("union", path, f"no member of ({names}) has {mismatch}", value)]
    # A member of another shape altogether (a string where an array came) is no candidate.
    shaped = [t for t in tried if not any(r == "type" and p == path for r, p, _, _ in t[2])]
    if len(shaped) == 1:
        return shaped[0][2]  # the one member of the right shape: its own findings, precisely
    # The nearest member: fewest findings, a request TypedDict before a response model (the
    # Anthropic params also take the response blocks); alone in front, it speaks for itself.
    ranked = sorted(shaped or tried, key=lambda t: (t[0], _is_model(_strip(t[1])[0])))
    if (
        len(ranked) == 1
        or ranked[0][0] < ranked[1][0]
        or (_is_model(_strip(ranked[1][1])[0]) and not _is_model(_strip(ranked[0][1])[0]))
    ):
        return ranked[0][2]
    _, member, errors = ranked[0]
    nearest = "; ".join(f"{p}: {m}" for _, p, m, _ in errors[:3])
    return [
        (
            "union",
            path,
            f"no member of ({names}) accepts it; nearest {_name(member)}: {nearest}",
            value,
        )
    ]


def _typeddict(value: Any, td: Any, path: str) -> list[tuple[str, str, str, Any]]:
    if not isinstance(value, dict):
        return [("type", path, f"expected {td.__name__} (an object), found {value!r}", value)]
    fields, required = _fields(td)
    errors: list[tuple[str, str, str, Any]] = []
    for key in required - set(value):
        errors.append(("missing-key", path, f"{td.__name__} requires {key!r}", value))
    for key, item in value.items():
        if key not in fields:
            if key not in INVENTED:
                errors.append(
                    ("unknown-key", f"{path}.{key}", f"{td.__name__} has no {key!r}", value)
                )
            continue
        errors.extend(walk(item, fields[key], f"{path}.{key}"))
    return errors


# --------------------------------------------------------------------------- pydantic


@cache
def _adapter(tp: Any) -> Any:
    return pydantic.TypeAdapter(tp)


def _force(value: Any, loc: tuple[Any, ...], errors: list[tuple[tuple[Any, ...], Any]]) -> None:
    """Consume every lazily validated iterable pydantic left in ``value`` (recursively),
    collecting the validation errors each one raises with the place it sits at."""
    if isinstance(value, dict):
        for k, v in value.items():
            _force(v, (*loc, k), errors)
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _force(v, (*loc, i), errors)
    elif isinstance(value, Iterator):
        try:
            items = list(value)
        except pydantic.ValidationError as exc:
            errors.append((loc, exc))
            return
        for i, v in enumerate(items):
            _force(v, (*loc, i), errors)


def _is_tag(part: Any) -> bool:
    """Whether a pydantic ``loc`` element names a union member or a validator, not a key."""
    return isinstance(part, str) and ("[" in part or part[:1].isupper() or part in _TAGS)


_TAGS = {"str", "int", "float", "bool", "list", "dict", "none", "literal", "typed-dict"}


def _loc(parts: Iterable[Any]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def _pydantic_errors(exc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[str, str, str, Any]]:
    """One finding per place: the errors of a union's members are summed up at the innermost
    union they went through (the member names in pydantic's ``loc`` are left out)."""
    places: dict[str, tuple[str, Any]] = {}
    for error in exc.errors():
        loc = [*prefix, *error["loc"]]
        last = max((k for k, p in enumerate(loc) if _is_tag(p)), default=None)
        if last is None:
            where, message = _loc(loc), error["msg"]
        else:
            where = _loc(p for p in loc[:last] if not _is_tag(p))
            message = "no member of the union accepts it"
        places.setdefault(where, (message, error.get("input")))
    deepest = [
        w
        for w in places
        if not any(o != w and o.startswith(w) and o[len(w)] in ".[" for o in places)
    ]
    return [("pydantic", w, places[w][0], places[w][1]) for w in deepest]


def _without_invented_keys(value: Any) -> Any:
    """``value`` without the keys the test data invents on purpose (``INVENTED``): the
    walker and the API rules see them and let them through; pydantic would reject them."""
    if isinstance(value, dict):
        return {k: _without_invented_keys(v) for k, v in value.items() if k not in INVENTED}
    if isinstance(value, list):
        return [_without_invented_keys(v) for v in value]
    return value


def _strict(tp: Any, body: Any) -> list[tuple[str, str, str, Any]]:
    body = _without_invented_keys(body)
    try:
        validated = _adapter(tp).validate_python(body, strict=True)
    except pydantic.ValidationError as exc:
        return _pydantic_errors(exc)
    lazy: list[tuple[tuple[Any, ...], Any]] = []
    _force(validated, (), lazy)
    return [e for loc, exc in lazy for e in _pydantic_errors(exc, loc)]


def _invented(body: Any) -> bool:
    """Whether ``body`` holds a name the fixtures invent (``provider_checks.INVENTED``)."""
    if isinstance(body, dict):
        return any(k in INVENTED or _invented(v) for k, v in body.items())
    if isinstance(body, list):
        return any(_invented(v) for v in body)
    return isinstance(body, str) and body in INVENTED


_GEMINI_CONFIG_KEYS = ("systemInstruction", "tools", "toolConfig", "safetySettings", "labels")
_GEMINI_CONFIG_KEYS += ("cachedContent",)
"""Top-level request keys ``GenerateContentConfig`` holds too (its other fields are the
request's ``generationConfig``)."""


def _gemini_sdk(body: dict[str, Any]) -> list[tuple[str, str, str, Any]]:
    """Gemini: each content as ``types.Content``; everything else of the request through
    ``GenerateContentConfig`` (the system instruction, tools, tool config, and the fields of
    ``generationConfig``); JSON mode, so base64 bytes fields read as the wire has them. A
    top-level key the request does not have is a finding."""
    errors: list[tuple[str, str, str, Any]] = []
    checks: list[tuple[Any, Any, str]] = [
        (gtypes.Content, c, f"$.contents[{i}]") for i, c in enumerate(body.get("contents", []))
    ]
    config = {k: body[k] for k in _GEMINI_CONFIG_KEYS if k in body}
    generation = body.get("generationConfig")
    if isinstance(generation, dict):
        clash = set(generation) & set(config)
        config.update(generation)
        errors.extend(
            ("unknown-key", f"$.generationConfig.{k}", "not a generation field", generation)
            for k in clash
        )
    if config:
        checks.append((gtypes.GenerateContentConfig, config, "$"))
    known = {"contents", "generationConfig", "model", *_GEMINI_CONFIG_KEYS}
    errors.extend(
        ("unknown-key", f"$.{k}", f"a generateContent request has no {k!r}", body[k])
        for k in body
        if k not in known and k not in INVENTED
    )
    if "model" in body and not isinstance(body["model"], str):
        errors.append(("type", "$.model", "expected a string", body["model"]))
    for model, value, where in checks:
        try:
            model.model_validate_json(json.dumps(_without_invented_keys(value)), strict=True)
        except pydantic.ValidationError as exc:
            errors.extend((r, where + p[1:], m, v) for r, p, m, v in _pydantic_errors(exc))
        errors.extend(_camel(value, model, where))
    return errors


def _camel(value: Any, tp: Any, path: str) -> list[tuple[str, str, str, Any]]:
    """Gemini REST is camelCase: the SDK also takes its Python names, the wire does not."""
    tp, _ = _strip(tp)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return [e for m in get_args(tp) if m is not type(None) for e in _camel(value, m, path)]
    if origin is list and isinstance(value, list):
        (item,) = get_args(tp)
        return [e for i, v in enumerate(value) for e in _camel(v, item, f"{path}[{i}]")]
    if not (isinstance(tp, type) and issubclass(tp, pydantic.BaseModel)):
        return []
    if not isinstance(value, dict):
        return []
    errors = []
    by_alias = {(f.alias or n): f for n, f in tp.model_fields.items()}
    for key, item in value.items():
        if key not in by_alias:
            if key in tp.model_fields:
                alias = tp.model_fields[key].alias
                errors.append(("alias", f"{path}.{key}", f"the wire name is {alias!r}", value))
            continue  # unknown keys: pydantic (extra="forbid") reports them
        errors.extend(_camel(item, by_alias[key].annotation, f"{path}.{key}"))
    return errors


# --------------------------------------------------------------------------- Bedrock


@cache
def bedrock_model() -> Any:
    """botocore's service model of ``bedrock-runtime`` (installed package data, offline)."""
    return botocore_session.get_session().get_service_model("bedrock-runtime")


def bedrock_shape(name: str) -> Any:
    """A shape of the model: ``Converse`` (the request), ``ConverseResponse``,
    ``ConverseStreamOutput`` (one stream event), or any shape by name."""
    model = bedrock_model()
    if name == "Converse":
        return model.operation_model("Converse").input_shape
    if name == "ConverseResponse":
        return model.operation_model("Converse").output_shape
    if name == "ConverseStreamOutput":
        return model.operation_model("ConverseStream").output_shape.members["stream"]
    return model.shape_for(name)


def _dotted(name: str) -> str:
    return "$" + ("" if not name or name[0] in ".[" else ".") + name


def model_limits(value: Any, shape: Any, path: str = "$") -> list[tuple[str, str, str, Any]]:
    """What botocore's model states that ``ParamValidator`` does not check: enums, maximum
    lengths and sizes, and string patterns (the server enforces them)."""
    errors: list[tuple[str, str, str, Any]] = []
    kind = shape.type_name
    meta = shape.metadata
    if kind == "structure" and not getattr(shape, "is_document_type", False):
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in shape.members:
                    errors.extend(model_limits(inner, shape.members[key], f"{path}.{key}"))
    elif kind == "list" and isinstance(value, list):
        if "max" in meta and len(value) > meta["max"]:
            errors.append(("max", path, f"more than {meta['max']} items", value))
        for i, inner in enumerate(value):
            errors.extend(model_limits(inner, shape.member, f"{path}[{i}]"))
    elif kind == "map" and isinstance(value, dict):
        for key, inner in value.items():
            errors.extend(model_limits(inner, shape.value, f"{path}.{key}"))
    elif kind == "string" and isinstance(value, str):
        if shape.enum and value not in shape.enum:
            errors.append(("enum", path, f"{value!r} is not one of {shape.enum}", value))
        if "max" in meta and len(value) > meta["max"]:
            errors.append(("max", path, f"longer than {meta['max']}", value))
        pattern = meta.get("pattern")
        if pattern and not re.fullmatch(pattern, value):
            errors.append(("pattern", path, f"{value!r} does not match {pattern}", value))
    elif kind in ("integer", "long") and isinstance(value, int) and value > meta.get("max", value):
        errors.append(("max", path, f"more than {meta['max']}", value))
    elif (
        kind in ("float", "double")
        and isinstance(value, int | float)
        and not meta.get("min", value) <= value <= meta.get("max", value)
    ):
        errors.append(("range", path, f"outside {meta.get('min')}..{meta.get('max')}", value))
    return errors


def bedrock_validate(value: Any, shape_name: str) -> list[tuple[str, str, str, Any]]:
    """botocore's ``ParamValidator`` and :func:`model_limits` over ``value``."""
    shape = bedrock_shape(shape_name)
    report = botocore_validate.ParamValidator().validate(value, shape)
    errors = []
    for kind, name, extra in report._errors:  # (ValidationErrors has no public list)
        path = _dotted(name)
        said = {k: v for k, v in extra.items() if k not in ("user_params", "members")}
        errors.append(("botocore", path, f"{kind}: {said}", at(value, path)))
    return errors + model_limits(value, shape)


def _bedrock_sdk(body: dict[str, Any]) -> list[tuple[str, str, str, Any]]:
    return bedrock_validate({"modelId": "model-x", **body}, "Converse")


_BEDROCK_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def _bedrock_rules(body: dict[str, Any], paired: bool) -> Iterator[tuple[str, str, str, Any]]:
    for j, block in enumerate(body.get("system", [])):
        text = block.get("text") if isinstance(block, dict) else None
        if isinstance(text, str) and not text.strip():
            yield ("blank-text", f"$.system[{j}]", "text blocks must not be blank", block)
    messages = body.get("messages", [])
    previous = None
    calls: dict[str, int] = {}
    for i, message in enumerate(messages):
        where = f"$.messages[{i}]"
        role = message.get("role")
        content = message.get("content") or []
        if not content:
            yield ("empty-message", where, "content must be non-empty", message)
        if role == previous:
            yield ("alternation", where, f"two {role} messages in a row", message)
        previous = role
        results: list[str] = []
        for j, block in enumerate(content):
            at = f"{where}.content[{j}]"
            text = block.get("text") if isinstance(block, dict) else None
            if isinstance(text, str) and not text.strip():
                yield ("blank-text", at, "text blocks must not be blank", block)
            use = block.get("toolUse") if isinstance(block, dict) else None
            result = block.get("toolResult") if isinstance(block, dict) else None
            for inner in (use, result):
                ident = inner.get("toolUseId") if isinstance(inner, dict) else None
                if isinstance(ident, str) and not _BEDROCK_ID.fullmatch(ident):
                    yield ("tool-id", at, f"{ident!r}: Claude takes [a-zA-Z0-9_-]{{1,64}}", block)
            if isinstance(use, dict):
                calls[use.get("toolUseId")] = i
            if isinstance(result, dict):
                results.append(result.get("toolUseId"))
                for k, part in enumerate(result.get("content") or ()):
                    said = part.get("text") if isinstance(part, dict) else None
                    if isinstance(said, str) and not said.strip():
                        yield ("blank-text", f"{at}.content[{k}]", "blank text", part)
        for ident in results:
            asked = calls.get(ident)
            if asked != i - 1 and (paired or asked is not None):
                yield (
                    "result-placement",
                    where,
                    f"{ident} is not answered right after its call",
                    message,
                )
        if paired and i and messages[i - 1].get("role") == "assistant":
            want = {
                b["toolUse"].get("toolUseId")
                for b in messages[i - 1].get("content") or ()
                if isinstance(b, dict) and isinstance(b.get("toolUse"), dict)
            }
            if want - set(results):
                yield (
                    "unanswered",
                    where,
                    f"calls {sorted(want - set(results))} not answered",
                    message,
                )
    if paired and messages and messages[-1].get("role") == "assistant":
        last = messages[-1].get("content") or ()
        if any(isinstance(b, dict) and "toolUse" in b for b in last):
            yield (
                "unanswered",
                f"$.messages[{len(messages) - 1}]",
                "the last calls are not answered",
                None,
            )


# --------------------------------------------------------------------------- API rules


def _blocks(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return content if isinstance(content, list) else []


def _anthropic_rules(body: dict[str, Any], paired: bool) -> Iterator[tuple[str, str, str, Any]]:
    system = body.get("system")
    if isinstance(system, list):
        for j, block in enumerate(system):
            if isinstance(block, dict) and block.get("text") == "":
                yield ("empty-text", f"$.system[{j}]", "text blocks must be non-empty", block)
    messages = body.get("messages", [])
    runs: list[tuple[str, list[Any], int]] = []
    for i, message in enumerate(messages):
        content = message.get("content")
        if content in ("", []) and i != len(messages) - 1:
            yield ("empty-message", f"$.messages[{i}]", "content must be non-empty", message)
        for j, block in enumerate(_blocks(content)):
            where = f"$.messages[{i}].content[{j}]"
            empty = block.get("type") == "text" and block.get("text") == ""
            if empty and not isinstance(content, str):
                yield ("empty-text", where, "text blocks must be non-empty", block)
            if block.get("type") == "tool_result":
                for k, inner in enumerate(_blocks(block.get("content"))):
                    if isinstance(block.get("content"), list) and inner.get("text") == "":
                        yield ("empty-text", f"{where}.content[{k}]", "empty text", inner)
        role = message.get("role")
        if runs and runs[-1][0] == role:
            runs[-1][1].extend(_blocks(content))
        else:
            runs.append((role, list(_blocks(content)), i))
    calls: dict[str, int] = {}
    for r, (role, blocks, first) in enumerate(runs):
        where = f"$.messages[{first}]"
        if role == "user":
            kinds = [b.get("type") for b in blocks]
            other = next((k for k, t in enumerate(kinds) if t != "tool_result"), len(kinds))
            if "tool_result" in kinds[other:]:
                yield ("results-first", where, "tool_result blocks must come first", kinds)
            for block in blocks:
                if block.get("type") != "tool_result":
                    continue
                asked = calls.get(block.get("tool_use_id"))
                if asked != r - 1 and (paired or asked is not None):
                    yield (
                        "result-placement",
                        where,
                        f"{block.get('tool_use_id')} is not answered right after its call",
                        block,
                    )
            if paired and r and runs[r - 1][0] == "assistant":
                want = {b.get("id") for b in runs[r - 1][1] if b.get("type") == "tool_use"}
                got = {b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"}
                if want - got:
                    yield ("unanswered", where, f"calls {sorted(want - got)} not answered", blocks)
        for block in blocks:
            if block.get("type") == "tool_use":
                calls[block.get("id")] = r
        last = paired and role == "assistant" and r == len(runs) - 1
        if last and any(b.get("type") == "tool_use" for b in blocks):
            yield ("unanswered", where, "the last calls are not answered", blocks)


def _chat_rules(body: dict[str, Any], paired: bool) -> Iterator[tuple[str, str, str, Any]]:
    messages = body.get("messages", [])
    pending: set[str] = set()
    last: set[str] = set()
    for i, message in enumerate(messages):
        where = f"$.messages[{i}]"
        role = message.get("role")
        content = message.get("content")
        if role == "assistant":
            said = content not in (None, "", []) or message.get("refusal")
            acted = message.get("tool_calls") or message.get("function_call")
            if not (said or acted or message.get("audio")):
                yield (
                    "empty-assistant",
                    where,
                    "an assistant message with neither content nor tool calls",
                    message,
                )
            if message.get("tool_calls") == []:
                yield ("empty-tool-calls", where, "tool_calls must not be empty", message)
        elif role in ("user", "system", "developer") and content == []:
            yield ("empty-message", where, "content must be non-empty", message)
        if role == "tool":
            call = message.get("tool_call_id")
            if call not in last and (
                paired
                or any(
                    call in {c.get("id") for c in m.get("tool_calls") or ()}
                    for m in messages[:i]
                    if m.get("role") == "assistant"
                )
            ):
                yield ("result-placement", where, f"{call} does not follow its call", message)
            pending.discard(call)
            continue
        if paired and pending:
            yield ("unanswered", where, f"calls {sorted(pending)} not answered before it", message)
        last = (
            {c.get("id") for c in message.get("tool_calls") or ()} if role == "assistant" else set()
        )
        pending = set(last)
    if paired and pending:
        yield ("unanswered", "$.messages", f"calls {sorted(pending)} never answered", None)


_R_MODEL_SIDE = {"reasoning", "function_call", "custom_tool_call"}


def _responses_rules(body: dict[str, Any], paired: bool) -> Iterator[tuple[str, str, str, Any]]:
    items = body.get("input", [])
    if isinstance(items, str):
        return
    pending: list[str] = []
    for i, item in enumerate(items):
        where = f"$.input[{i}]"
        tag = item.get("type", "message")
        if tag == "message" and item.get("content") == []:
            yield ("empty-item", where, "an input message with no content", item)
        if tag == "function_call":
            pending.append(item.get("call_id"))
        elif tag == "function_call_output":
            if item.get("call_id") in pending:
                pending.remove(item.get("call_id"))
            elif paired:
                yield ("result-placement", where, "an output with no pending call", item)
        elif (
            tag not in _R_MODEL_SIDE
            and not (tag == "message" and item.get("role") == "assistant")
            and paired
            and pending
        ):
            yield ("unanswered", where, f"calls {pending} not answered before it", item)
            pending = []
    if paired and pending:
        yield ("unanswered", "$.input", f"calls {pending} never answered", None)


def _gemini_rules(body: dict[str, Any], paired: bool) -> Iterator[tuple[str, str, str, Any]]:
    contents = body.get("contents", [])
    previous = None
    for i, content in enumerate(contents):
        where = f"$.contents[{i}]"
        role = content.get("role", "user")
        parts = content.get("parts") or []
        if not parts:
            yield ("empty-message", where, "a content with no parts", content)
        if role == previous:
            yield ("alternation", where, f"two {role} contents in a row", content)
        previous = role
        for j, part in enumerate(parts):
            data = [k for k in part if k not in _G_METADATA]
            if len(data) != 1 and not _invented(part):
                yield ("one-data-field", f"{where}.parts[{j}]", f"data fields {data}", part)
        calls = [p["functionCall"].get("name") for p in parts if "functionCall" in p]
        if calls and paired:
            after = contents[i + 1].get("parts", []) if i + 1 < len(contents) else []
            got = [p["functionResponse"].get("name") for p in after if "functionResponse" in p]
            if Counter(got) != Counter(calls):
                yield ("unanswered", where, f"calls {calls} answered by {got}", content)


_G_METADATA = {"thought", "thoughtSignature", "videoMetadata", "mediaResolution", "partMetadata"}

RULES: dict[str, Callable[[dict[str, Any], bool], Iterator[tuple[str, str, str, Any]]]] = {
    "anthropic": _anthropic_rules,
    "openai_chat": _chat_rules,
    "openai_responses": _responses_rules,
    "gemini": _gemini_rules,
    "bedrock": _bedrock_rules,
}


def api_rules(provider: str, body: dict[str, Any], *, paired: bool = False) -> list[Finding]:
    """The rules the API enforces that the SDK types do not encode.

    Anthropic: no empty text block, no empty message but the last, tool results first in
    the user turn right after their call. Chat: no assistant message with neither content
    nor tool calls, no empty ``tool_calls``, tool messages right after their call. Responses:
    no input message without content. Gemini: alternating roles, one data field a part, no
    content without parts. With ``paired`` (the source answered every call): every call is
    answered before the next turn.
    """
    return [Finding(provider, r, p, m, v) for r, p, m, v in RULES[provider](body, paired)]


# --------------------------------------------------------------------------- entry points


def check_request(provider: str, body: dict[str, Any], *, paired: bool = False) -> list[Finding]:
    """Everything the oracle finds wrong with an ``encode_request`` body for ``provider``."""
    COUNTS[provider] += 1
    raw: list[tuple[str, str, str, Any]] = []
    if provider == "gemini":
        raw.extend(_gemini_sdk(body))
    elif provider == "bedrock":
        raw.extend(_bedrock_sdk(body))
    else:
        full = {**_REQUIRED_PARAMS[provider], **body}
        tp = (STREAMING_TYPES if body.get("stream") is True else REQUEST_TYPES)[provider]
        raw.extend(e for e in _strict(tp, full) if not _invented(e[3]))
        raw.extend(walk(full, tp, "$"))
    found = [
        Finding(provider, r, p, m, v)
        for r, p, m, v in raw
        if not _invented(v) or r in ("missing-key",)
    ]
    found.extend(api_rules(provider, body, paired=paired))
    return found


def sdk_response(provider: str, body: dict[str, Any]) -> Any:
    """``body`` as the SDK's response object (``model_validate``; raises when it does not fit)."""
    model = RESPONSE_TYPES[provider]
    if provider == "gemini":
        return model.model_validate_json(json.dumps(body))
    return model.model_validate(body)


def dumps(provider: str, obj: Any) -> dict[str, dict[str, Any]]:
    """The JSON a program commonly gets back from an SDK response object, by name.

    Anthropic and OpenAI models: ``model_dump(mode="json")`` with ``exclude_unset``, with
    ``exclude_none``, and plain (every field, ``None`` included), all with ``by_alias``
    (their wire names are the Python names but for a few). Gemini: only ``by_alias`` dumps
    are wire JSON (camelCase), with ``exclude_none`` or ``exclude_unset``.
    """
    out = {
        "exclude_unset": obj.model_dump(mode="json", by_alias=True, exclude_unset=True),
        "exclude_none": obj.model_dump(mode="json", by_alias=True, exclude_none=True),
    }
    if provider != "gemini":
        out["all"] = obj.model_dump(mode="json", by_alias=True)
    return out


# --------------------------------------------------------------------------- JSON diffs


def first_difference(a: Any, b: Any, path: str = "$") -> str | None:
    """Where two JSON values first differ (``1``, ``1.0`` and ``True`` all differ), or None."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                side = "only in the first" if key in a else "only in the second"
                return f"{path}.{key}: {side} ({a.get(key, b.get(key))!r})"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


# --------------------------------------------------------------------------- known faults


def at(body: Any, path: str) -> Any:
    """The value at a ``$.a[0].b`` path in ``body`` (None where there is nothing)."""
    value = body
    for key, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path):
        if index:
            ok = isinstance(value, list) and int(index) < len(value)
            value = value[int(index)] if ok else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return value


def _item_path(finding: Finding) -> str | None:
    match = re.match(r"^\$\.input\[\d+\]", finding.path)
    return match.group(0) if match else None


def _as_output_message(item: dict[str, Any]) -> dict[str, Any]:
    """What the assistant-history fault needs: a full output message item."""
    if item.get("role") != "assistant":
        return item
    parts = [
        {"annotations": [], **_without(p, "prompt_cache_breakpoint")}
        if isinstance(p, dict) and p.get("type") == "output_text"
        else p
        for p in (item["content"] if isinstance(item.get("content"), list) else [])
    ]
    return {"id": "msg_x", "status": "completed", "type": "message", **item, "content": parts}


def _without(d: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k != key}


def _with_detail(item: dict[str, Any]) -> dict[str, Any]:
    """What the image-detail fault needs: ``detail`` on every ``input_image`` part."""

    def fix(part: Any) -> Any:
        if isinstance(part, dict) and part.get("type") == "input_image":
            return {"detail": "auto", **part}
        return part

    out = dict(item)
    for key in ("content", "output"):
        if isinstance(item.get(key), list):
            out[key] = [fix(p) for p in item[key]]
    return out


def _item_clean(item: Any) -> bool:
    from openai.types.responses.response_input_item_param import ResponseInputItemParam

    found = [*_strict(ResponseInputItemParam, item), *walk(item, ResponseInputItemParam, "$")]
    return all(_invented(value) for _, _, _, value in found)


_REPAIRS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "responses-assistant-history": _as_output_message,
    "responses-image-detail": _with_detail,
}


def _repaired_by(finding: Finding, body: dict[str, Any]) -> set[str] | None:
    """Which open Responses item faults explain a type finding (None: none of them do)."""
    where = _item_path(finding)
    item = at(body, where) if where else None
    if finding.provider != "openai_responses" or not isinstance(item, dict):
        return None
    if finding.rule not in ("pydantic", "union", "missing-key", "literal", "unknown-key"):
        return None
    names = [n for n in _REPAIRS if n in OPEN]
    for size in range(1, len(names) + 1):
        for chosen in _subsets(names, size):
            fixed = item
            for name in chosen:
                fixed = _REPAIRS[name](fixed)
            if fixed != item and _item_clean(fixed):
                return set(chosen)
    return None


def _subsets(names: list[str], size: int) -> Iterator[list[str]]:
    from itertools import combinations

    for chosen in combinations(names, size):
        yield list(chosen)


def _empty_item_after_output(finding: Finding, body: dict[str, Any]) -> bool:
    if finding.provider != "openai_responses" or finding.rule != "empty-item":
        return False
    index = int(re.findall(r"\d+", finding.path)[0])
    before = [i for i in body["input"][:index] if i != {"role": "user", "content": []}]
    return (
        finding.value == {"role": "user", "content": []}
        and bool(before)
        and before[-1].get("type") == "function_call_output"
    )


def _rule(provider: str, rule: str) -> Callable[[Finding, dict[str, Any]], bool]:
    return lambda f, body: f.provider == provider and f.rule == rule


def _anthropic_empty_text(finding: Finding, body: dict[str, Any]) -> bool:
    """An empty text block, or a message whose whole content is the empty string."""
    if finding.provider != "anthropic":
        return False
    if finding.rule == "empty-text":
        return True
    value = finding.value
    return finding.rule == "empty-message" and isinstance(value, dict) and value["content"] == ""


def _foreign_compaction(finding: Finding, body: dict[str, Any]) -> bool:
    value = finding.value
    return (
        finding.provider == "anthropic"
        and finding.rule in ("pydantic", "union")
        and isinstance(value, dict)
        and value.get("type") == "compaction"
        and "encrypted_content" in value
    )


@dataclass(frozen=True)
class Fault:
    """A known encoder fault the oracle found: what it is, and which findings it explains."""

    name: str
    reason: str
    explains: Callable[[Finding, dict[str, Any]], bool] | None = None
    """For a request fault: whether a finding in a body is this fault showing."""


FAULTS: dict[str, Fault] = {
    f.name: f
    for f in (
        Fault(
            "responses-assistant-history",
            "Responses: assistant history is written as a message with output_text parts and "
            "no id/status, which no member of the SDK's ResponseInputItemParam accepts",
        ),
        Fault(
            "responses-empty-user-item",
            "Responses: a user turn of only tool results leaves an empty "
            '{"role":"user","content":[]} item after the function_call_output items',
            _empty_item_after_output,
        ),
        Fault(
            "responses-caller",
            "Responses: `caller` on function_call / function_call_output is dropped by "
            "decode then encode, and a neighbouring unknown key with it",
        ),
        Fault(
            "responses-image-detail",
            "Responses: input_image is written without `detail`, which the SDK type requires",
        ),
        Fault(
            "anthropic-empty-text",
            'Anthropic: an empty TextBlock becomes {"type":"text","text":""}, which the API '
            "rejects",
            _anthropic_empty_text,
        ),
        Fault(
            "anthropic-foreign-compaction",
            "Anthropic: a Responses `compaction` item (id, encrypted_content) is taken for "
            "Anthropic's own `compaction` block, the same type name, and written as a block",
            _foreign_compaction,
        ),
        Fault(
            "chat-empty-assistant",
            "Chat: a turn with nothing Chat can carry (reasoning only, under drop) becomes "
            '{"role":"assistant","content":""}',
            _rule("openai_chat", "empty-assistant"),
        ),
        Fault(
            "chat-response-content-key",
            "Chat: a completion message without a `content` key comes back with "
            "`content: null` added",
        ),
        Fault(
            "chat-response-content-parts",
            "Chat: encode_response writes a message of several text blocks as a list of "
            "content parts; a completion's message content is a string (ChatCompletionMessage)",
        ),
        Fault(
            "gemini-3-signatures",
            "Gemini: no option fills the documented thought-signature sentinel for function "
            "calls that have no real signature (Gemini 3 rejects them)",
        ),
    )
}
"""Every fault the oracle found in the encoders, by name (issue 12)."""

OPEN: frozenset[str] = frozenset()
"""The faults not fixed yet: their tests are expected to fail (``xfail(strict=True)``) and
the corpus tests tolerate the findings they explain. Fixing one means taking it out of here,
which turns its test green and its findings into failures everywhere else."""


def explain(finding: Finding, body: dict[str, Any]) -> set[str]:
    """The open faults that explain ``finding`` (empty: a new problem)."""
    names = {
        n for n in OPEN if FAULTS[n].explains is not None and FAULTS[n].explains(finding, body)
    }
    return names or _repaired_by(finding, body) or set()


def unexplained(findings: list[Finding], body: dict[str, Any]) -> list[Finding]:
    """The findings no open fault explains; counts the explained ones in :data:`SEEN`."""
    out = []
    for finding in findings:
        names = explain(finding, body)
        SEEN.update(names)
        if not names:
            out.append(finding)
    return out


def xfail_if_open(name: str) -> Any:
    """The mark for a fault's own test: expected to fail while the fault is open."""
    fault = FAULTS[name]
    if name in OPEN:
        return pytest.mark.xfail(strict=True, reason=f"{name}: {fault.reason}")
    return lambda test: test  # fixed: the test must pass


# --------------------------------------------------------------------------- responses

_FILL: dict[str, Any] = {
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
    "cache_write_tokens": 0,
    "web_fetch_requests": 0,
    "web_search_requests": 0,
    "created_at": 1755600000,
    "created": 1755600000,
    "object": None,  # the literal the model wants: see _literal_default
    "id": "resp_x",
    "model": "model-x",
    "input_tokens": 0,
    "output_tokens": 0,
    "total_tokens": 0,
    "cached_tokens": 0,
    "input_tokens_details": {},
    "output_tokens_details": {},
    "reasoning_tokens": 0,
    "prompt_tokens": 0,
    "completion_tokens": 0,
    "annotations": [],
    "logprobs": None,
    "status": "completed",
    "index": 0,
    "finish_reason": "stop",
    "content": [],
    "usage": {"input_tokens": 0, "output_tokens": 0},
    "stop_reason": None,
    "stop_sequence": None,
    "output": [],
    "error": None,
    "incomplete_details": None,
    "instructions": None,
    "metadata": None,
    "temperature": None,
    "top_p": None,
}
"""Values for the fields an SDK response model requires that a message does not carry (or
that a fixture written against an older API lacks): see :func:`complete`."""

_OBJECTS = {
    "anthropic": {"type": "message", "role": "assistant"},
    "openai_chat": {"object": "chat.completion"},
    "openai_responses": {"object": "response"},
    "gemini": {},
}


def _set(body: Any, loc: tuple[Any, ...], value: Any) -> bool:
    target = body
    for part in loc[:-1]:
        listed = isinstance(part, int) and isinstance(target, list) and part < len(target)
        keyed = isinstance(part, str) and isinstance(target, dict) and part in target
        if listed or keyed:
            target = target[part]
        else:
            return False
    if not isinstance(target, dict):
        return False
    target[loc[-1]] = value
    return True


def _fill_items(body: dict[str, Any]) -> list[str]:
    """Responses output items of a message from elsewhere have no item ids (nor the status
    and annotations a server always sends): fill them as a server would."""
    filled = []
    for k, item in enumerate(body.get("output") or ()):
        kind = item.get("type")
        if kind not in ("message", "reasoning"):
            continue
        defaults = {"id": f"item_{k}"}
        if kind == "message":
            defaults["status"] = "completed"
        else:
            defaults["summary"] = []
        for key, value in defaults.items():
            if key not in item:
                item[key] = value
                filled.append(f"$.output[{k}].{key}")
        for j, part in enumerate(item.get("content") or () if kind == "message" else ()):
            if part.get("type") == "output_text" and "annotations" not in part:
                part["annotations"] = []
                filled.append(f"$.output[{k}].content[{j}].annotations")
    return filled


def complete(provider: str, body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``body`` with the fields the SDK's response model requires and it lacks filled in
    (from :data:`_FILL`), and the paths filled. Raises ValidationError when something other
    than a missing field is wrong, or a missing field has no value in :data:`_FILL`."""
    body = json.loads(json.dumps(body))
    filled: list[str] = []
    for key, value in _OBJECTS[provider].items():
        if key not in body:
            body[key] = value
            filled.append(f"$.{key}")
    if provider == "openai_responses":
        filled.extend(_fill_items(body))
    filled.extend(fill(lambda value: sdk_response(provider, value), body))
    return body, filled


def _fillable(errors: list[Any]) -> list[tuple[Any, ...]]:
    """The places to fill when every error is a missing field :data:`_FILL` has a value for.

    Inside a union only one member has to fit: the errors are grouped by the member they
    went through, and a member whose errors are all fillable is taken (locations without
    the member names)."""
    groups: dict[tuple[Any, ...], list[Any]] = {}
    for error in errors:
        member = tuple(p for p in error["loc"] if _is_tag(p))
        groups.setdefault(member, []).append(error)
    plain = groups.pop((), [])
    for member_errors in [*groups.values(), []] if groups else [[]]:
        chosen = plain + member_errors
        if chosen and all(e["type"] == "missing" and str(e["loc"][-1]) in _FILL for e in chosen):
            return [tuple(p for p in e["loc"] if not _is_tag(p)) for e in chosen]
    return []


def fill(validate: Callable[[Any], Any], body: Any) -> list[str]:
    """Fill in place the fields ``validate`` (an SDK model's validation) reports missing,
    from :data:`_FILL`; the paths filled. Raises the ValidationError when anything else is
    wrong, or a missing field has no value there."""
    filled: list[str] = []
    for _ in range(8):
        try:
            validate(body)
        except pydantic.ValidationError as exc:
            todo = _fillable(exc.errors())
            if not todo:
                raise
            for loc in todo:
                value = _FILL[str(loc[-1])]
                if _set(body, loc, json.loads(json.dumps(value))):
                    filled.append(_loc(loc))
            continue
        return filled
    raise AssertionError("could not complete the body")  # pragma: no cover


# --------------------------------------------------------------------------- Gemini 3

SKIP_SIGNATURE = "skip_thought_signature_validator"
"""The value Google documents for ``thoughtSignature`` on a call with no real signature."""


def gemini3_unsigned(body: dict[str, Any]) -> list[Finding]:
    """Calls a Gemini 3 model rejects: in the current turn (the contents after the last user
    content that is not only function responses), a model content whose first
    ``functionCall`` part has no ``thoughtSignature``. Later calls of a parallel set are
    unsigned on purpose."""
    contents = body.get("contents", [])
    start = 0
    for i, content in enumerate(contents):
        parts = content.get("parts") or []
        if content.get("role", "user") == "user" and any(
            "functionResponse" not in p for p in parts
        ):
            start = i + 1
    found = []
    for i in range(start, len(contents)):
        calls = [p for p in contents[i].get("parts") or () if "functionCall" in p]
        if calls and "thoughtSignature" not in calls[0]:
            found.append(
                Finding(
                    "gemini",
                    "gemini3-signature",
                    f"$.contents[{i}]",
                    "the first call of the current turn has no thoughtSignature",
                    calls[0],
                )
            )
    return found
