"""Mutable classes with ``__slots__`` that pickle under every protocol.

Protocols 2 and up pickle a slotted object's slots on their own; protocols 0 and 1 refuse a
class with ``__slots__`` unless it defines ``__getstate__``. Stream accumulators and stats
accumulators are slotted (they are made by the thousand) and are sent to worker processes
and back, so they take :class:`Slotted` as a base: one home for that rule.
"""

from __future__ import annotations

__all__ = ["Slotted"]


class Slotted:
    """Base of a mutable slotted class: it pickles under every protocol, 0 included.

    The state is what the interpreter gives for any slotted object, ``(None, {slot: value})``
    (slots never set are left out), and the default unpickling restores it slot by slot.
    """

    __slots__ = ()

    def __getstate__(self) -> object:
        # object.__getstate__ knows the slots of every class in the MRO; defining the method
        # here (not inheriting object's) is what protocols 0 and 1 ask for.
        return object.__getstate__(self)
