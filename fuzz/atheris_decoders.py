"""Coverage-guided fuzzing of every decoder with atheris (an optional, deeper run by hand).

    pip install atheris
    python fuzz/atheris_decoders.py -max_total_time=300 -max_len=4096

Each input picks a decoder (native, parse_blocks, every adapter's strict line reader, every
provider's request/response decoders and accumulator) and feeds it the rest of the bytes as
one line. Anything but a value or a ``DecodeError`` with a path is a crash that atheris reports
with the input that caused it.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import atheris  # type: ignore[import-not-found]

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import messages.adapters
import messages.providers
from messages import DecodeError
from messages.convert import parse_blocks
from messages.serialize import loads


def _modules(package: Any) -> list[Any]:
    return [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
        if not info.name.startswith("_")
    ]


def _json(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


DECODERS: list[Callable[[bytes], Any]] = [loads, lambda line: parse_blocks(_json(line))]
for _adapter in _modules(messages.adapters):
    if hasattr(_adapter, "iter_decode"):
        DECODERS.append(lambda line, a=_adapter: list(a.iter_decode([line], strict=True)))
for _provider in _modules(messages.providers):
    if hasattr(_provider, "decode_response"):
        DECODERS.append(lambda line, p=_provider: p.decode_response(_json(line)))
        DECODERS.append(lambda line, p=_provider: p.decode_request(_json(line)))

        def _stream(line: bytes, p: Any = _provider) -> Any:
            acc = p.accumulator()
            for event in line.split(b"\n"):
                acc.feed(_json(event))
                acc.snapshot()
            return acc.message()

        DECODERS.append(_stream)


def fuzz_one_input(data: bytes) -> None:
    """The atheris entry point: choose a decoder, feed it the rest."""
    provider = atheris.FuzzedDataProvider(data)
    decoder = DECODERS[provider.ConsumeIntInRange(0, len(DECODERS) - 1)]
    line = provider.ConsumeBytes(provider.remaining_bytes())
    try:
        decoder(line)
    except DecodeError as exc:
        if not exc.path.startswith("$"):
            raise AssertionError(f"error without a path: {exc!r}") from exc


if __name__ == "__main__":
    atheris.instrument_all()
    atheris.Setup(sys.argv, fuzz_one_input)
    atheris.Fuzz()
