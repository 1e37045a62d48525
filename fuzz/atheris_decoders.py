"""Coverage-guided fuzzing of every decoder with atheris (an optional, deeper run by hand).

    pip install atheris
    python fuzz/atheris_decoders.py --seed /tmp/corpus          # build a seed corpus
    python fuzz/atheris_decoders.py /tmp/corpus -max_total_time=300 -max_len=4096

The first byte of an input picks a target, the rest is what it is fed. The targets come from
the registries (``messages.adapters.NAMES``, ``messages.providers.NAMES``), so a format is
fuzzed the day it is registered:

- ``native``: :func:`messages.serialize.loads` of the rest as one line;
- ``parse_blocks``: :func:`messages.convert.parse_blocks` of the rest parsed as JSON;
- ``adapter:<name>``: the adapter's strict ``iter_decode`` of the rest split into lines (so a
  decoder's state across lines and a document written over several lines are reached), then
  its ``merge`` of what was read;
- ``<provider>:request``, ``:settings``, ``:response``: the provider's decoders of the rest
  parsed as JSON; ``<provider>:stream``: its accumulator fed every line as an event, with a
  ``snapshot()`` after each and ``message()`` at the end.

Anything but a value or a ``DecodeError`` whose path starts with ``$`` is a crash that atheris
reports with the input that caused it. With ``MESSAGES_FUZZ_ROUND_TRIP=1`` an input that
decodes must also encode back JSON-equal (``1``, ``1.0`` and ``true`` told apart), as the
contract tests require of every fixture: each line an adapter's ``decode`` reads must come
back from its ``encode`` (a native value of an older version as the current one); a
provider's response from ``encode_response``; a request from ``encode_request`` with the
settings ``decode_settings`` read. The adapters promise that of any line; the providers only
of their fixtures, and by their documented rules leave out an ``extra`` key not spelled like
their own or owned by another format, rewrite an id their API would refuse, and refuse a raw
part they cannot tell is theirs: expect reports of those for damaged provider bodies. With
``MESSAGES_FUZZ_LOG=FILE`` a failure does not stop the run: each distinct one (exception
type and the innermost frame in ``messages``, or where a round trip differed) is written to
``FILE`` once, with its input in hex.

``--seed DIR [ROOT ...]`` writes a seed corpus to ``DIR`` (keep it out of the repository):
every line and every whole file (up to 4,096 bytes, cut at a line) of the project's fixtures
and of each ``ROOT`` (say ``../shared/fixtures``), given to the target of its folder's name
and to the adapter :func:`messages.adapters.detect` names for it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import traceback
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from messages import DecodeError
from messages import adapters
from messages import providers
from messages._core.jsontext import same_json
from messages.convert import parse_blocks
from messages.serialize import FORMAT_VERSION
from messages.serialize import READ_VERSIONS
from messages.serialize import dumps
from messages.serialize import loads

ROOT = Path(__file__).resolve().parents[1]
ROUND_TRIP = os.environ.get("MESSAGES_FUZZ_ROUND_TRIP") == "1"
LOG = os.environ.get("MESSAGES_FUZZ_LOG")
MAX_SEED = 4096


class LossError(AssertionError):
    """An input that decoded but did not encode back JSON-equal."""


def _json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _difference(back: Any, original: Any, path: str = "$") -> str:
    """Where ``back`` first differs from ``original``: a path and what happened there."""
    if type(back) is dict and type(original) is dict:
        for key in original:
            if key not in back:
                return f"{path}.{key}: lost"
        for key in back:
            if key not in original:
                return f"{path}.{key}: added"
        for key in original:
            if not same_json(back[key], original[key]):
                return _difference(back[key], original[key], f"{path}.{key}")
    if type(back) is list and type(original) is list and len(back) == len(original):
        for i, (x, y) in enumerate(zip(back, original, strict=True)):
            if not same_json(x, y):
                return _difference(x, y, f"{path}[{i}]")
    return f"{path}: changed"


def _check(what: str, back: Any, original: Any) -> None:
    if not same_json(back, original):
        raise LossError(
            f"{what}: {_difference(back, original)}: {original!r} came back as {back!r}"
        )


def _ignore(value: object) -> None:
    """A target's result is not looked at: only how it ends matters."""


def _current(obj: Any) -> Any:
    """A native value as it is written back: an older version is written as the current."""
    if type(obj) is dict and obj.get("v") in READ_VERSIONS:
        obj["v"] = FORMAT_VERSION
    return obj


def _native(data: bytes) -> None:
    value = loads(data)
    if ROUND_TRIP:
        _check("native", json.loads(dumps(value)), _current(json.loads(data)))


def _adapter(name: str) -> Callable[[bytes], None]:
    codec = adapters.get(name)

    def run(data: bytes) -> None:
        lines = data.split(b"\n")
        list(codec.merge(list(codec.iter_decode(lines, strict=True))))
        if ROUND_TRIP:
            for line in lines:
                obj = _json(line)
                if obj is None:
                    continue
                try:
                    message = codec.decode(_json(line))
                except DecodeError:
                    continue
                expected = _current(obj) if name == "native" else obj
                _check(f"adapter:{name}", codec.encode(message), expected)

    return run


def _provider(name: str) -> list[tuple[str, Callable[[bytes], None]]]:
    codec = providers.get(name)

    def request(data: bytes) -> None:
        body = _json(data)
        conversation = codec.decode_request(body)
        if ROUND_TRIP:
            settings = codec.decode_settings(body)
            _check(f"{name}:request", codec.encode_request(conversation, settings=settings), body)

    def settings(data: bytes) -> None:
        codec.decode_settings(_json(data))

    def response(data: bytes) -> None:
        body = _json(data)
        message = codec.decode_response(body)
        if ROUND_TRIP:
            _check(f"{name}:response", codec.encode_response(message), body)

    def stream(data: bytes) -> None:
        accumulator = codec.accumulator()
        for event in data.split(b"\n"):
            try:
                accumulator.feed(_json(event))
            finally:
                accumulator.snapshot()
        accumulator.message()

    return [
        (f"{name}:request", request),
        (f"{name}:settings", settings),
        (f"{name}:response", response),
        (f"{name}:stream", stream),
    ]


TARGETS: list[tuple[str, Callable[[bytes], None]]] = [
    ("native", _native),
    ("parse_blocks", lambda data: _ignore(parse_blocks(_json(data)))),
]
TARGETS += [(f"adapter:{name}", _adapter(name)) for name in adapters.NAMES]
for _name in providers.NAMES:
    TARGETS += _provider(_name)
INDEX = {name: i for i, (name, _) in enumerate(TARGETS)}

_seen: set[tuple[str, str, str]] = set()


def _where(exc: BaseException) -> str:
    """The innermost frame of the library in the exception's traceback (a loss: where)."""
    if isinstance(exc, LossError):
        return re.sub(r"\[\d+\]", "[*]", " ".join(str(exc).split(": ", 3)[1:3]))
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/messages/" in f.filename]
    if not frames:
        return "?"
    frame = frames[-1]
    return f"{frame.filename.split('/src/')[-1]}:{frame.lineno} {frame.name}"


def fuzz_one_input(data: bytes) -> None:
    """The atheris entry point: the first byte chooses a target, the rest is fed to it."""
    if not data:
        return
    name, target = TARGETS[data[0] % len(TARGETS)]
    try:
        try:
            target(data[1:])
        except DecodeError as exc:
            if not exc.path.startswith("$"):
                raise AssertionError(f"error without a path: {exc!r}") from exc
    except Exception as exc:
        if LOG is None:
            raise
        key = (name, type(exc).__name__, _where(exc))
        if key not in _seen:
            _seen.add(key)
            with open(LOG, "a", encoding="utf-8") as fp:
                fp.write(f"{' | '.join(key)}\n  {str(exc)[:300]!r}\n  {data.hex()}\n")


# -- the seed corpus ----------------------------------------------------------------------


def _lines(path: Path) -> list[bytes]:
    data = path.read_bytes()
    if path.suffix == ".json":  # one pretty-printed document: also as one line
        obj = _json(data)
        return [data] if obj is None else [data, json.dumps(obj).encode()]
    return [line for line in data.split(b"\n") if line.strip()]


def _whole(lines: list[bytes]) -> Iterator[bytes]:
    """Runs of consecutive lines, each up to the seed limit."""
    run: list[bytes] = []
    size = 0
    for line in lines:
        if run and size + len(line) + 1 > MAX_SEED:
            yield b"\n".join(run)
            run, size = [], 0
        run.append(line)
        size += len(line) + 1
    if len(run) > 1:
        yield b"\n".join(run)


def _targets_of(path: Path, line: bytes) -> set[str]:
    names = {part for part in path.parts if part in adapters.NAMES}
    found = {f"adapter:{n}" for n in names}
    obj = _json(line)
    detected = adapters.detect(obj) if obj is not None else None
    if detected is not None:
        found.add(f"adapter:{detected}")
    for provider in providers.NAMES:
        if provider in path.parts:
            stem = path.stem
            kinds = ["stream"] if stem.startswith("stream") and path.suffix == ".jsonl" else []
            kinds += ["request", "settings"] if "request" in stem else []
            kinds += ["response"] if "response" in stem else []
            found |= {f"{provider}:{kind}" for kind in kinds}
    if path.name == "conversation.jsonl" or "native" in path.parts:
        found.add("native")
    message = obj.get("message") if type(obj) is dict else None
    if type(message) is dict and type(message.get("content")) is list:
        found.add("parse_blocks")
    return found


def seed(out: Path, roots: list[Path]) -> int:
    """Write the seed corpus to ``out``; returns how many seeds it holds."""
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".json", ".jsonl", ".ndjson") or not path.is_file():
                continue
            lines = _lines(path)
            for line in [*lines, *_whole(lines)]:
                first = line.split(b"\n", 1)[0]
                for name in _targets_of(path, first):
                    fed = line
                    if name == "parse_blocks":
                        fed = json.dumps(json.loads(first)["message"]["content"]).encode()
                    seed_bytes = bytes([INDEX[name]]) + fed
                    if len(seed_bytes) > MAX_SEED:
                        continue
                    digest = hashlib.sha1(seed_bytes).hexdigest()
                    target = out / digest
                    if not target.exists():
                        target.write_bytes(seed_bytes)
                        written += 1
    return written


if __name__ == "__main__":
    if sys.argv[1:2] == ["--seed"]:
        roots = [ROOT / "tests" / "fixtures", ROOT / "src" / "messages" / "examples"]
        roots += [Path(p) for p in sys.argv[3:]]
        print(seed(Path(sys.argv[2]), roots), "seeds written")
        sys.exit(0)
    import contextlib
    import importlib
    import pkgutil

    import atheris  # type: ignore[import-not-found]

    import messages

    for info in pkgutil.walk_packages(messages.__path__, "messages."):
        if info.name.endswith("__main__"):
            continue
        with contextlib.suppress(ImportError):  # an optional extra that is not installed
            importlib.import_module(info.name)  # what a decoder loads on first use, instrumented
    atheris.instrument_all()
    atheris.Setup(sys.argv, fuzz_one_input)
    atheris.Fuzz()
