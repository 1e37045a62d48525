"""Estimated cost from the ``genai-prices`` package (the ``prices`` extra), when installed.

The package keeps a maintained table of prices per provider and model, with the dates prices
changed; each message is priced at its own time, on its own (a long-context price tier is
decided per request). Input, output, cache read and cache write tokens are priced separately
(``genai-prices`` counts input tokens with the cached ones, so they are added back here:
:class:`~messages.usage.Usage` counts input without them), and so are the further counts a
log reports (one-hour cache writes, web searches, audio tokens: :class:`Tokens` ``more``)
and how the request was served (fast mode, batch, flex or priority tier).

A model the table does not know under its own name is looked up under its documented
aliases (a ``provider/`` prefix, a Bedrock or Vertex spelling, a ``[1m]`` context tag); a
model still unknown has no estimate (``None``), never a price of zero.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable
from collections.abc import Iterator
from datetime import UTC
from datetime import datetime
from decimal import Decimal
from decimal import localcontext
from functools import cache
from typing import Any
from typing import Final

from ._engine import Tokens

__all__ = [
    "REFUSED",
    "Memo",
    "aliases",
    "available",
    "estimate",
    "memoized",
    "parted",
    "refusal",
    "stamp",
    "total",
    "version",
    "warm",
]

Memo = dict[str, tuple[float | None, tuple[str | None, ...]]]
"""Prices already worked out: :func:`total`'s answer by a digest of its parts."""

_memo: Memo | None = None
_used: set[str] = set()
"""The digests :func:`total` answered from the memo or added to it, within :func:`memoized`."""


@cache
def _module() -> Any:
    light = _light()
    if light is not None:
        return light
    try:
        import genai_prices
    except ImportError:
        return None
    return genai_prices


_TABLE: Final = ("_usage", "units", "decompose", "validation", "types", "data_snapshot", "data")
"""The modules of ``genai-prices`` that hold its types and price table (no network client)."""


def _spec() -> Any:
    """Where the installed ``genai-prices`` package is, found without importing it, or ``None``."""
    from importlib.util import find_spec

    try:
        spec = find_spec("genai_prices")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return spec


@contextlib.contextmanager
def _uncollected() -> Iterator[None]:
    """Within the block, no garbage collection.

    The price table is some hundred thousand objects that live to the end; a collection
    while they are made would walk them, and everything made before them (a whole
    archive's counts), again and again.
    """
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _light() -> Any:
    """The price table of ``genai-prices`` without its package's own start-up, or ``None``.

    Importing the package loads its price-update client too (``httpx`` and ``asyncio``,
    about a fifth of its import time), which a report never uses. Its table modules are
    loaded under a bare stand-in for the package, which is taken away again, so a later
    ``import genai_prices`` runs the package as usual (and finds these modules loaded).
    ``None`` (the caller imports the package) when the package is already imported, not
    installed or laid out otherwise.
    """
    import sys

    if "genai_prices" in sys.modules:
        return None
    from importlib import import_module
    from types import ModuleType
    from types import SimpleNamespace

    spec = _spec()
    if spec is None:
        return None
    stand_in = ModuleType("genai_prices")
    stand_in.__path__ = list(spec.submodule_search_locations)
    stand_in.__spec__ = spec
    sys.modules["genai_prices"] = stand_in
    try:
        with _uncollected():
            found = {name: import_module(f"genai_prices.{name}") for name in _TABLE}
    except Exception:
        return None
    finally:
        if sys.modules.get("genai_prices") is stand_in:
            del sys.modules["genai_prices"]
    usage = getattr(found["types"], "Usage", None)
    if usage is None or not hasattr(found["data_snapshot"], "get_snapshot"):
        return None

    def calc_price(*args: Any, **kwargs: Any) -> Any:  # the package's own, imported when asked
        return import_module("genai_prices").calc_price(*args, **kwargs)

    return SimpleNamespace(
        data_snapshot=found["data_snapshot"],
        types=found["types"],
        Usage=usage,
        calc_price=calc_price,
        light=True,
    )


def warm() -> None:
    """Import ``genai-prices`` and load its table now.

    A parent waiting on workers calls it, so that the report does not pay for it after
    they finish.
    """
    if _module() is not None:
        _grouped()


def available() -> bool:
    """Whether ``genai-prices`` is installed (``pip install 'llm-messages[prices]'``)."""
    if _used:  # a price was taken from the memo, made with this very price data
        return True
    return _module() is not None


def stamp() -> str | None:
    """What tells one installed ``genai-prices`` (code and price table) from another.

    Found without importing it (that is most of the cost of a re-run): the package's
    distribution name and the size and modification time of its modules. ``None`` when it
    is not installed.
    """
    spec = _spec()
    if spec is None:
        return None
    folder = next(iter(spec.submodule_search_locations))
    try:
        found = [
            f"{name}:{st.st_size}:{st.st_mtime_ns}"
            for name in sorted(os.listdir(folder))
            if name.endswith(".py") and (st := os.stat(os.path.join(folder, name)))
        ]
        parent = os.path.dirname(folder)
        found += sorted(
            name
            for name in os.listdir(parent)
            if name.startswith("genai_prices-") and name.endswith(".dist-info")
        )
    except OSError:
        return None
    return "|".join(found)


@contextlib.contextmanager
def memoized(memo: Memo | None) -> Iterator[set[str]]:
    """Within the block, :func:`total` answers from ``memo`` and adds what it works out.

    ``memo`` must come from the same library version and :func:`stamp` (the stats cache
    keys it so). The block gives the digests answered or added, the ones worth keeping.
    A total over a part without a time (priced at the current time) is not memoized.
    """
    global _memo, _used
    before = _memo, _used
    _memo, _used = memo, set()
    try:
        yield _used
    finally:
        _memo, _used = before


def version() -> str | None:
    """The installed ``genai-prices`` version (its price data), or ``None``."""
    prices = _module()
    if prices is None:
        return None
    if getattr(prices, "light", False):
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as installed

        try:
            return installed("genai_prices")
        except PackageNotFoundError:
            return "unknown"
    return str(getattr(prices, "__version__", None) or "unknown")


_PROVIDERS: Final = frozenset(
    ("anthropic", "openai", "google", "google-vertex", "gemini", "vertex_ai", "bedrock")
)
_BEDROCK: Final = re.compile(
    r"^(?:(?:us|eu|apac|global|jp|au)\.)?anthropic\.(.+?)(?:-v\d+(?::\d+)?)?$"
)
_VERTEX: Final = re.compile(r"^(claude-.+?)@\d{8}$")
_CONTEXT_TAG: Final = re.compile(r"\[[^\]]*\]$")


def aliases(model: str) -> list[str]:
    """The names a model is looked up under, its own first.

    Date suffixes and ``-latest`` are resolved by ``genai-prices`` itself; this adds what it
    does not: a ``[1m]`` context tag (Claude Code), a routing prefix (``anthropic/``,
    ``openrouter/anthropic/``), a Bedrock spelling (``us.anthropic.claude-...-v1:0``) and a
    Vertex one (``claude-...@20250929``).

    >>> aliases("openrouter/anthropic/claude-sonnet-4-5")
    ['openrouter/anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 'claude-sonnet-4-5']
    >>> aliases("us.anthropic.claude-opus-4-6-v1:0")
    ['us.anthropic.claude-opus-4-6-v1:0', 'claude-opus-4-6']
    """
    found = [model]

    def add(name: str) -> None:
        if name and name not in found:
            found.append(name)

    name = _CONTEXT_TAG.sub("", model).strip()
    add(name)
    while "/" in name:
        name = name.split("/", 1)[1]
        add(name)
    bedrock = _BEDROCK.match(name)
    if bedrock:
        add(bedrock.group(1))
    vertex = _VERTEX.match(name)
    if vertex:
        add(vertex.group(1))
    return found


_Context = tuple[tuple[str, str], ...]


def _fields(tokens: Tokens) -> dict[str, int]:
    """The usage keys ``genai-prices`` prices, for ``tokens``."""
    fresh, read, write = tokens.input or 0, tokens.cache_read or 0, tokens.cache_write or 0
    fields = {
        "input_tokens": fresh + read + write,
        "cache_read_tokens": read,
        "cache_write_tokens": write,
        "output_tokens": tokens.output or 0,
    }
    for name, n in (tokens.more or {}).items():
        if name == "cache_write_1h_tokens":  # the table wants both parts beside their sum
            long = min(n, write)
            fields["cache_write_1h_tokens"] = long
            fields["cache_write_5m_tokens"] = write - long
        elif name != "web_fetches":  # reported, but not a priced unit of the table
            fields[name] = n
    return fields


@cache
def _lookup(model: str) -> tuple[Any, Any] | None:
    """The table's provider and model for a model name or one of its aliases.

    Without the table's lookup (a ``genai-prices`` that lays it out otherwise), the name
    that the public ``calc_price`` knows is returned, with ``None`` for its provider.
    """
    prices = _module()
    for name in aliases(model):
        try:
            if _grouped():
                snapshot = prices.data_snapshot.get_snapshot()
                return snapshot.find_provider_model(name, None, None, None)  # type: ignore[no-any-return]
            prices.calc_price(prices.Usage(input_tokens=0), name)
            return (None, name)
        except LookupError:
            continue
    return None


def _alone(model: str, when: float | None, fields: dict[str, int], context: _Context) -> float:
    """One request priced through the public ``calc_price`` (the path without grouping)."""
    prices = _module()
    found = _lookup(model)
    name = model if found is None else found[1]
    usage = prices.Usage(**fields)
    at = _when(when)
    price = prices.calc_price(
        usage, name, genai_request_timestamp=at, price_context=dict(context) or None
    )
    return float(price.total_price)


@cache
def _grouped() -> bool:
    """Whether the table's own lookup is there to group requests by the prices they get."""
    prices = _module()
    try:
        snapshot = prices.data_snapshot.get_snapshot()
        provider, info = snapshot.find_provider_model("gpt-4o", None, None, None)
    except Exception:
        return False
    return all(
        hasattr(x, name)
        for x, name in ((info, "get_prices"), (info, "calc_price"), (provider, "models"))
    )


def _when(when: float | None) -> datetime:
    return datetime.now(UTC) if when is None else datetime.fromtimestamp(when, UTC)


class _Group:
    """Requests priced alike: same model, prices in effect, service and price tier.

    Their price is linear in their counts, so it is ``n`` times the price of their mean.
    The counts are the sums of what :func:`_fields` gives for each request.
    """

    __slots__ = (
        "at",
        "cache_read",
        "cache_write",
        "context",
        "info",
        "input",
        "model",
        "more",
        "n",
        "output",
        "provider",
    )

    def __init__(
        self, provider: Any, info: Any, at: datetime, context: dict[str, str] | None, model: str
    ):
        self.provider, self.info, self.at, self.context = provider, info, at, context
        self.model = model
        self.input = self.cache_read = self.cache_write = self.output = self.n = 0
        self.more: dict[str, int] = {}

    def add(self, fields: dict[str, int]) -> None:
        """Add one request's :func:`_fields`."""
        more = self.more
        for name, value in fields.items():
            if name == "input_tokens":
                self.input += value
            elif name == "cache_read_tokens":
                self.cache_read += value
            elif name == "cache_write_tokens":
                self.cache_write += value
            elif name == "output_tokens":
                self.output += value
            else:
                more[name] = more.get(name, 0) + value
        self.n += 1

    def add_counts(self, tokens: Tokens, fresh: int, read: int, write: int) -> None:
        """Add one request's counts as :meth:`add` of their :func:`_fields` would.

        ``fresh``, ``read`` and ``write``: its input, cache read and cache write counts
        (``0`` for none, none below 0); its further counts must be of :data:`_USUAL`.
        """
        self.input += fresh + read + write
        self.cache_read += read
        self.cache_write += write
        self.output += tokens.output or 0
        if tokens.more:
            more = self.more
            for name, n in tokens.more.items():
                if name == "cache_write_1h_tokens":  # the table wants both parts
                    long = min(n, write)
                    more[name] = more.get(name, 0) + long
                    more["cache_write_5m_tokens"] = (
                        more.get("cache_write_5m_tokens", 0) + write - long
                    )
                elif name != "web_fetches":  # reported, but not a priced unit of the table
                    more[name] = more.get(name, 0) + n
        self.n += 1

    def price(self) -> float:
        """The price of the requests: ``n`` times that of their mean (see :meth:`mean`)."""
        found = self.info.calc_price(
            self.mean(), self.provider, genai_request_timestamp=self.at, price_context=self.context
        )
        return float(found.total_price * self.n)

    def mean(self) -> Any:
        """The mean request, as ``genai-prices`` usage.

        Each mean is rounded (to :data:`_PLACES`), and the table subtracts the parts of a
        count from it (cache reads and writes from the input, the one-hour and five-minute
        writes from the writes): rounded apart, the parts could come to more than their
        whole, which the table refuses. So the means of the parts are taken, and each whole
        is the exact sum of its rounded parts (within :data:`_PLACES`, sums are exact).
        """
        prices = _module()
        if self.n == 1:
            return prices.Usage(**self._counts())
        more = self.more
        with localcontext(prec=60):  # (counts a log may make too large for 28 digits)
            n = Decimal(self.n)

            def mean(total: int) -> Decimal:
                return (Decimal(total) / n).quantize(_PLACES)

            split = [name for name in _WRITE_PARTS if name in more]
            means = {name: mean(v) for name, v in more.items()}
            write = mean(self.cache_write - sum(more[name] for name in split))
            write += sum((means[name] for name in split), Decimal(0))
            read = mean(self.cache_read)
            fresh = mean(self.input - self.cache_read - self.cache_write)
            whole = fresh + read + write
            output = mean(self.output)
        return prices.Usage(
            input_tokens=whole,
            cache_read_tokens=read,
            cache_write_tokens=write,
            output_tokens=output,
            **means,
        )

    def _counts(self) -> dict[str, int]:
        return {
            "input_tokens": self.input,
            "cache_read_tokens": self.cache_read,
            "cache_write_tokens": self.cache_write,
            "output_tokens": self.output,
            **self.more,
        }


REFUSED: Final = " (counts the price table refuses: "
"""What stands between a model and why in the name :func:`total` gives usage the table
refuses (see :func:`refusal`)."""


def _refused(model: str, error: ValueError) -> str:
    """How a report names a model whose counts the table refuses to price, with why.

    ``genai-prices`` refuses counts that contradict each other (audio input tokens beyond
    the input tokens, say): such usage has no estimate, as a model it does not know.
    """
    why = str(error).removeprefix("Invalid usage data: ")
    return f"{model}{REFUSED}{why})"


def refusal(name: str) -> tuple[str, str] | None:
    """The model and why, of a name :func:`total` gives usage the table refuses; else ``None``.

    >>> refusal("m (counts the price table refuses: input_audio_tokens (9) cannot exceed"
    ...         " input_tokens (5))")
    ('m', 'input_audio_tokens (9) cannot exceed input_tokens (5)')
    >>> refusal("claude-sonnet-4-5") is None
    True
    """
    model, found, why = name.partition(REFUSED)
    if not found or not why.endswith(")"):
        return None
    return model, why[:-1]


def parted(names: Iterable[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Names from :func:`total`, parted: models the table has no price for, and usage it refuses.

    The second gives the model and why of each (see :func:`refusal`); both keep the order
    given.

    >>> parted(["x-1", "m (counts the price table refuses: a cannot exceed b)"])
    (['x-1'], [('m', 'a cannot exceed b')])
    """
    unknown, refused = [], []
    for name in names:
        found = refusal(name)
        if found is None:
            unknown.append(name)
        else:
            refused.append(found)
    return unknown, refused


_PLACES: Final = Decimal("1e-12")
"""How finely a group's mean counts are told: far below a token, and their sums stay exact
(a mean below 10^15 tokens has at most 27 digits; a Decimal holds 28)."""

_WRITE_PARTS: Final = ("cache_write_1h_tokens", "cache_write_5m_tokens")
"""The parts of the cache writes by lifetime, as the table names them."""

_USUAL: Final = frozenset(("cache_write_1h_tokens", "web_searches", "web_fetches"))
"""Further counts that never contradict the others as :func:`_fields` gives them (the
one-hour writes are capped at the writes). A request with any other (a count of audio or
image tokens, a count named as one of the usual four) is priced alone: the table may refuse
it (see :func:`_refused`), and then only it."""


_Prices = tuple[Any, tuple[int, ...], frozenset[int]]
"""The prices in effect for a request: the base set, the variants its service selects (by
id) and the input counts where a price tier starts."""


def _prices_at(
    info: Any,
    at: datetime,
    context: _Context,
    *,
    starts: dict[int, tuple[Any, frozenset[int]]],
) -> _Prices:
    """The prices in effect at ``at`` for a request served as ``context`` says.

    ``starts`` keeps the tier starts of each price set already looked at (by id, with the
    set itself, so that the id stays its own).
    """
    base = info.get_prices(at)
    variants: tuple[int, ...] = ()
    resolved = base
    if context:
        resolved = info.get_prices(at, dict(context))
        variants = tuple(
            id(v)
            for v in info.price_variants or ()
            if v.constraint is None or v.constraint.active(at)
        )
    known = starts.get(id(resolved))
    if known is None:
        tiered = _tiered()
        found: set[int] = set()
        for value in vars(resolved).values():
            if isinstance(value, tiered):
                found.update(tier.start for tier in getattr(value, "tiers", ()))
        known = starts[id(resolved)] = (resolved, frozenset(found))
    return base, variants, known[1]


def _keyed(
    provider: Any, info: Any, prices: _Prices, context: _Context, total_input: int
) -> tuple[Any, ...]:
    """What decides a request's prices.

    The prices in effect (:func:`_prices_at`) and the price tier its input reaches (a tier
    prices every token, not only those above it).
    """
    base, variants, tiers = prices
    bracket = sum(1 for start in tiers if total_input > start) if tiers else 0
    return (id(provider), id(info), id(base), variants, context, bracket)


def _by_day(info: Any, known: dict[int, tuple[Any, bool]]) -> bool:
    """Whether the prices of ``info`` change only at the start of a day (UTC).

    So they do when each of its prices and variants starts on a date or always holds (a
    time-of-day price, such as an off-peak one, does not). ``known`` keeps the answer by
    id, with the model itself.
    """
    found = known.get(id(info))
    if found is None:
        dated = getattr(_module().types, "StartDateConstraint", None)
        prices = getattr(info, "prices", None)
        constraints = (
            [getattr(c, "constraint", c) for c in prices] if isinstance(prices, list) else []
        )
        constraints += [getattr(v, "constraint", v) for v in info.price_variants or ()]
        found = known[id(info)] = (
            info,
            dated is not None and all(c is None or type(c) is dated for c in constraints),
        )
    return found[1]


@cache
def _tiered() -> type:
    return _module().types.TieredPrices  # type: ignore[no-any-return]


def total(
    parts: Iterable[tuple[str | None, float | None, Tokens, _Context]],
) -> tuple[float | None, set[str | None]]:
    """The estimated price of several requests, and the models that have none.

    Each part is ``(model, when, tokens, context)``, priced as :func:`estimate` would price
    it on its own; requests priced alike are added up first and priced once (the table's
    price is linear in the counts within a price tier), which makes a report over many
    thousands of messages cost a few hundred calls to ``genai-prices``. The price is
    ``None`` when nothing could be priced; the models without a price (``None`` for an
    unnamed one) are returned beside it, for parts with token counts, and so are those
    with counts the table refuses to price, named with why (``"gemini-2.5-flash (counts
    the price table refuses: input_audio_tokens (9) cannot exceed input_tokens (5))"``).
    """
    memo = _memo
    if memo is not None:
        parts = list(parts)
        digest = _digest(parts)
        if digest is not None:
            found = memo.get(digest)
            if found is not None:
                _used.add(digest)
                return found[0], set(found[1])
            price, missing = _total(parts)
            if _module() is not None:
                memo[digest] = (price, tuple(sorted(missing, key=lambda m: (m is not None, m))))
                _used.add(digest)
            return price, missing
    return _total(parts)


def _digest(parts: list[tuple[str | None, float | None, Tokens, _Context]]) -> str | None:
    """What :func:`total` is asked, as a digest; ``None`` when its answer depends on the day."""
    shown: list[object] = []
    for model, when, t, served in parts:
        if when is None and model and t.reported():
            return None
        more = sorted(t.more.items()) if t.more else None
        shown.append((model, when, t.input, t.output, t.cache_read, t.cache_write, t.reasoning))
        shown.append((more, served))
    import hashlib  # here: a run without the result cache never asks

    return hashlib.sha256(repr(shown).encode("utf-8", "surrogatepass")).hexdigest()


def _total(
    parts: Iterable[tuple[str | None, float | None, Tokens, _Context]],
) -> tuple[float | None, set[str | None]]:
    if _module() is None:
        return None, set()
    groups: dict[tuple[Any, ...], _Group] = {}
    starts: dict[int, tuple[Any, frozenset[int]]] = {}
    days: dict[tuple[int, float, _Context], _Prices] = {}
    by_day: dict[int, tuple[Any, bool]] = {}
    unpriced: set[str | None] = set()
    total_price: float | None = None
    by_group = _grouped()
    for model, when, tokens, served in parts:
        if not tokens.reported():
            continue
        if not model:
            unpriced.add(None)
            continue
        found = _lookup(model)
        if found is None:
            unpriced.add(model)
            continue
        provider, info = found
        if not by_group:
            try:
                alone = _alone(model, when, _fields(tokens), served)
            except ValueError as e:
                unpriced.add(_refused(model, e))
                continue
            total_price = alone if total_price is None else total_price + alone
            continue
        fresh, read, write = tokens.input or 0, tokens.cache_read or 0, tokens.cache_write or 0
        total_input = fresh + read + write
        fields = None  # the general path: a request priced alone, in a group of its own
        if (
            (tokens.more and not _USUAL.issuperset(tokens.more))
            or fresh < 0
            or read < 0
            or write < 0
            or (tokens.output or 0) < 0
        ):
            fields = _fields(tokens)
            total_input = fields["input_tokens"]
        context = served
        if context and not any(info is m for m in provider.models):
            context = ()  # the table's rule: a model found under another provider's name
        at = None
        if when is not None and _by_day(info, by_day):
            # its prices change at most at a day's start (UTC): one look-up a day will do
            day = (id(info), when // 86400, context)
            prices = days.get(day)
            if prices is None:
                at = _when(when)
                prices = days[day] = _prices_at(info, at, context, starts=starts)
        else:
            at = _when(when)
            prices = _prices_at(info, at, context, starts=starts)
        key = _keyed(provider, info, prices, context, total_input)
        if fields is not None:
            key = (*key, len(groups))
        group = groups.get(key)
        if group is None:
            at = _when(when) if at is None else at
            group = groups[key] = _Group(provider, info, at, dict(context) or None, model)
        if fields is None:
            group.add_counts(tokens, fresh, read, write)
        else:
            group.add(fields)
    for group in groups.values():
        try:
            price = group.price()
        except ValueError as e:  # counts that contradict each other
            unpriced.add(_refused(group.model, e))
            continue
        total_price = price if total_price is None else total_price + price
    return total_price, unpriced


def estimate(
    model: str | None,
    when: float | None,
    tokens: Tokens,
    context: _Context = (),
) -> float | None:
    """The price in US dollars of ``tokens`` on ``model`` at ``when`` (seconds, UTC).

    ``context`` says how the request was served (see :func:`~messages.stats.price_context`).
    ``None`` when the model is not named or not in the table (under any of its
    :func:`aliases`), when no token figure is known, or when ``genai-prices`` is not
    installed. Unknown figures count as zero tokens.
    """
    if not model:
        return None
    return total([(model, when, tokens, context)])[0]
