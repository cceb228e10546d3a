"""The document cache's value format: frozen dataclasses as typed, compressed JSON, never code.

A `Codec` is made for one root class and an allow-list of the dataclasses it may contain. It
reads each class's fields (`dataclasses.fields`) and their declared types (`typing
.get_type_hints`) once, and from them builds an encoder and a checking decoder. Nothing in the
data names a class or a function: what a value is comes from the declared types alone, so a
crafted row can at worst be refused. Decoding checks every value against its field's declared
type and builds each object with its own constructor (so its checks run too); anything
unexpected raises `CodecError`, the one exception `Codec.decode` raises.

Types understood: int, float, str, bool, None, Path, Enum classes (by value), Literal[...]
(of str or int), tuple[X, ...], tuple[X, Y, ...], X | None, array.array of integers, and the
allowed dataclasses. Anything else, or a dataclass not on the allow-list, is refused when the
codec is made (a programming error, caught by the tests), never while a row is read.

Layout: the bytes "DC1", the length of the compressed JSON (4 bytes, little-endian), the JSON
compressed with zlib, then the raw bytes of the arrays (little-endian; fingerprints do not
compress, and raw they are read at memory speed), which the JSON refers to by type code, offset
and count. In the JSON a dataclass is the list of its field values in declaration order; a tuple
of a dataclass is stored by column (one list per field, e.g. a sentence's terms as their texts,
their starts, their ends), which is compact and lets whole columns of ints and strings be
checked at C speed.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
import zlib
from array import array
from collections.abc import Callable, Collection, Mapping
from enum import Enum
from itertools import accumulate, chain
from operator import attrgetter
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar, get_args, get_origin

T = TypeVar("T")

#: the most a row may inflate to; a larger one (a compression bomb) is refused, not read
MAX_DECODED_BYTES = 1 << 30
#: array type codes of integers, the only arrays stored
_INT_TYPECODES = frozenset("bBhHiIlLqQ")
#: the first bytes of every row
MAGIC = b"DC1"
#: columns of strings that do not contain it are written as one string joined with it (a
#: sentence's words, a signature's keys: far faster to read than a JSON string each)
_SEP = " "
_STR = frozenset({str})
_SEQUENCES = frozenset({tuple, list})


class CodecError(ValueError):
    """Data that is not a value of the declared type (or not the codec's data at all)."""


class _ArrayHint:
    """What `array[int]` in an annotation stands for (the real `array.array` cannot be
    subscripted at run time): an array of integers."""

    def __class_getitem__(cls, item: object) -> type[_ArrayHint]:
        return cls


#: names the annotations use that need a stand-in to be evaluated
_HINT_NAMES: Mapping[str, object] = {"array": _ArrayHint}


class _Tail:
    """The raw bytes after the JSON (arrays), as they are written."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.size = 0

    def add(self, raw: bytes) -> int:
        """Appends `raw`; its offset."""
        at = self.size
        self.chunks.append(raw)
        self.size += len(raw)
        return at


class _Part:
    """How one declared type is written and read. `encode_many` / `decode_many` handle a
    column of values of the type (a list), by default one at a time. `tail` holds the raw bytes
    arrays are stored in (a `_Tail` when writing, a memoryview when reading)."""

    def encode(self, value: Any, tail: _Tail) -> Any:
        raise NotImplementedError

    def decode(self, data: Any, tail: memoryview) -> Any:
        raise NotImplementedError

    def encode_many(self, values: list[Any], tail: _Tail) -> Any:
        return [self.encode(v, tail) for v in values]

    def decode_many(self, data: Any, tail: memoryview) -> list[Any]:
        if type(data) is not list:
            raise CodecError("a list was expected")
        return [self.decode(d, tail) for d in data]


class _Scalar(_Part):
    """int, float, str, bool, None: stored as themselves, checked by exact type (a bool is not
    an int; a float field takes an int, as Python does)."""

    def __init__(self, allowed: frozenset[type]) -> None:
        self.allowed = allowed

    def encode(self, value: Any, tail: _Tail) -> Any:
        return value

    def decode(self, data: Any, tail: memoryview) -> Any:
        if type(data) not in self.allowed:
            raise CodecError(f"{type(data).__name__} where {self.names()} was expected")
        return data

    def encode_many(self, values: list[Any], tail: _Tail) -> Any:
        if self.allowed == _STR and values:
            joined = _SEP.join(values)
            if joined.count(_SEP) == len(values) - 1:  # no string holds the separator
                return joined
        return values

    def decode_many(self, data: Any, tail: memoryview) -> list[Any]:
        if type(data) is str and self.allowed == _STR:
            return data.split(_SEP)
        if type(data) is not list or not set(map(type, data)) <= self.allowed:
            raise CodecError(f"a list of {self.names()} was expected")
        return data

    def names(self) -> str:
        return " or ".join(sorted(t.__name__ for t in self.allowed))


class _Converted(_Part):
    """A value stored as a str or int and rebuilt by a constructor: Path, an Enum."""

    def __init__(
        self, stored: frozenset[type], make: Callable[[Any], Any], write: Any, name: str
    ) -> None:
        self.stored = stored
        self.make = make
        self.write = write
        self.name = name

    def encode(self, value: Any, tail: _Tail) -> Any:
        return self.write(value)

    def decode(self, data: Any, tail: memoryview) -> Any:
        if type(data) not in self.stored:
            raise CodecError(f"{type(data).__name__} where a {self.name} was expected")
        return self.make(data)

    def encode_many(self, values: list[Any], tail: _Tail) -> list[Any]:
        return list(map(self.write, values))

    def decode_many(self, data: Any, tail: memoryview) -> list[Any]:
        if type(data) is not list or not set(map(type, data)) <= self.stored:
            raise CodecError(f"a list of {self.name} values was expected")
        return list(map(self.make, data))


class _Literal(_Part):
    def __init__(self, values: tuple[object, ...]) -> None:
        if not all(type(v) in (str, int) for v in values):
            raise TypeError(f"Literal{list(values)}: only str and int literals are stored")
        self.allowed = frozenset((type(v), v) for v in values)

    def encode(self, value: Any, tail: _Tail) -> Any:
        return value

    def decode(self, data: Any, tail: memoryview) -> Any:
        if type(data) not in (str, int) or (type(data), data) not in self.allowed:
            raise CodecError(f"{data!r} is not one of the allowed values")
        return data


class _Optional(_Part):
    def __init__(self, inner: _Part) -> None:
        self.inner = inner

    def encode(self, value: Any, tail: _Tail) -> Any:
        return None if value is None else self.inner.encode(value, tail)

    def decode(self, data: Any, tail: memoryview) -> Any:
        return None if data is None else self.inner.decode(data, tail)


class _TupleOf(_Part):
    """tuple[X, ...]: the items as X writes a column of them. Tuples of ints or strings (a
    signature's keys, a profile's stems) are written and checked whole, at C speed."""

    def __init__(self, item: _Part) -> None:
        self.item = item
        self.scalars = item.allowed if isinstance(item, _Scalar) else None
        self.names = item.names() if isinstance(item, _Scalar) else ""

    def encode(self, value: Any, tail: _Tail) -> Any:
        if type(value) not in _SEQUENCES:  # (a list where a tuple is declared reads back a tuple)
            raise CodecError(f"{type(value).__name__} where a tuple was expected")
        if self.scalars is not None:
            return value  # (JSON writes a tuple as a list)
        return self.item.encode_many(list(value), tail)

    def decode(self, data: Any, tail: memoryview) -> Any:
        return tuple(self.item.decode_many(data, tail))

    def encode_many(self, values: list[Any], tail: _Tail) -> Any:
        if self.scalars is None:
            return [self.encode(v, tail) for v in values]
        if not set(map(type, values)) <= _SEQUENCES:
            raise CodecError("tuples were expected")
        if self.scalars == _STR:
            words = list(chain.from_iterable(values))
            joined = _SEP.join(words)
            if joined.count(_SEP) == max(len(words) - 1, 0):  # no string holds the separator
                return {"joined": joined, "lengths": list(map(len, values))}
        return values

    def decode_many(self, data: Any, tail: memoryview) -> list[Any]:
        if self.scalars is None:
            return super().decode_many(data, tail)
        if type(data) is dict and self.scalars == _STR:
            return self._split(data)
        if type(data) is not list or not set(map(type, data)) <= {list}:
            raise CodecError("a list of lists was expected")
        if not set(map(type, chain.from_iterable(data))) <= self.scalars:
            raise CodecError(f"lists of {self.names} were expected")
        return list(map(tuple, data))

    @staticmethod
    def _split(data: dict[str, Any]) -> list[tuple[str, ...]]:
        """Tuples of strings written as one string and the tuples' lengths."""
        joined, lengths = data.get("joined"), data.get("lengths")
        if len(data) != 2 or type(joined) is not str or type(lengths) is not list:
            raise CodecError("joined strings and their lengths were expected")
        if not set(map(type, lengths)) <= {int} or (lengths and min(lengths) < 0):
            raise CodecError("lengths must be counts")
        total = sum(lengths)
        words = tuple(joined.split(_SEP)) if total else ()
        if len(words) != total or (not total and joined):
            raise CodecError("the lengths do not add up to the strings")
        ends = list(accumulate(lengths))  # (every loop below runs in C)
        return list(map(words.__getitem__, map(slice, chain((0,), ends), ends)))


class _FixedTuple(_Part):
    """tuple[X, Y, ...]: a list of exactly that many values."""

    def __init__(self, items: tuple[_Part, ...]) -> None:
        self.items = items

    def encode(self, value: Any, tail: _Tail) -> Any:
        if type(value) not in _SEQUENCES or len(value) != len(self.items):
            raise CodecError(f"a tuple of {len(self.items)} was expected")
        return [part.encode(v, tail) for part, v in zip(self.items, value, strict=True)]

    def decode(self, data: Any, tail: memoryview) -> Any:
        if type(data) is not list or len(data) != len(self.items):
            raise CodecError(f"a list of {len(self.items)} was expected")
        return tuple(part.decode(d, tail) for part, d in zip(self.items, data, strict=True))


class _IntArray(_Part):
    """array.array of integers: its bytes (little-endian) in the tail, and in the JSON its
    [type code, offset, count]."""

    def encode(self, value: Any, tail: _Tail) -> Any:
        if type(value) is not array or value.typecode not in _INT_TYPECODES:
            raise CodecError("an array of integers was expected")
        if sys.byteorder != "little":
            value = array(value.typecode, value)
            value.byteswap()
        return [value.typecode, tail.add(value.tobytes()), len(value)]

    def decode(self, data: Any, tail: memoryview) -> Any:
        if type(data) is not list or len(data) != 3:
            raise CodecError("an array was expected")
        code, start, count = data
        if type(code) is not str or code not in _INT_TYPECODES:
            raise CodecError("an array of integers was expected")
        if type(start) is not int or type(count) is not int or start < 0 or count < 0:
            raise CodecError("an array's place is not a pair of counts")
        values = array(code)
        end = start + count * values.itemsize
        if end > len(tail):
            raise CodecError("an array runs past the end of the row")
        values.frombytes(tail[start:end])
        if sys.byteorder != "little":
            values.byteswap()
        return values


class _Dataclass(_Part):
    """An allowed dataclass: the list of its field values; a column of them, a list of
    columns (one per field)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.fields: tuple[tuple[str, _Part], ...] = ()  # set once the field types are made

    def encode(self, value: Any, tail: _Tail) -> Any:
        if type(value) is not self.cls:
            raise CodecError(f"{type(value).__name__} where {self.cls.__name__} was expected")
        return [part.encode(getattr(value, name), tail) for name, part in self.fields]

    def decode(self, data: Any, tail: memoryview) -> Any:
        if type(data) is not list or len(data) != len(self.fields):
            raise CodecError(f"{self.cls.__name__}: a list of {len(self.fields)} was expected")
        return self.cls(
            *(part.decode(d, tail) for (_, part), d in zip(self.fields, data, strict=True))
        )

    def encode_many(self, values: list[Any], tail: _Tail) -> list[Any]:
        if values and set(map(type, values)) != {self.cls}:
            raise CodecError(f"only {self.cls.__name__} values were expected")
        return [
            part.encode_many(list(map(attrgetter(name), values)), tail)
            for name, part in self.fields
        ]

    def decode_many(self, data: Any, tail: memoryview) -> list[Any]:
        if type(data) is not list or len(data) != len(self.fields):
            raise CodecError(f"{self.cls.__name__}: {len(self.fields)} columns were expected")
        columns = [
            part.decode_many(d, tail) for (_, part), d in zip(self.fields, data, strict=True)
        ]
        if len({len(c) for c in columns}) != 1:
            raise CodecError(f"{self.cls.__name__}: columns of different lengths")
        return list(map(self.cls, *columns))


class _Builder:
    """Makes the parts of a codec from declared types, each allowed dataclass once."""

    def __init__(self, allowed: Collection[type]) -> None:
        self.allowed = frozenset(allowed)
        self.made: dict[type, _Dataclass] = {}

    def part(self, hint: Any, where: str) -> _Part:
        if hint in (int, str, bool, type(None)):
            return _Scalar(frozenset({hint}))
        if hint is float:
            return _Scalar(frozenset({float, int}))
        if hint is Path:
            return _Converted(frozenset({str}), Path, str, "path")
        if hint is _ArrayHint:
            return _IntArray()
        if isinstance(hint, type) and issubclass(hint, Enum):
            stored = frozenset(type(m.value) for m in hint)
            if not stored <= {str, int}:
                raise TypeError(f"{where}: {hint.__name__} values must be str or int")
            return _Converted(stored, hint, attrgetter("value"), hint.__name__)
        if dataclasses.is_dataclass(hint) and isinstance(hint, type):
            return self.dataclass(hint, where)
        origin, args = get_origin(hint), get_args(hint)
        if origin is Literal:
            return _Literal(args)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return _TupleOf(self.part(args[0], where))
            if args and Ellipsis not in args:
                return _FixedTuple(tuple(self.part(a, where) for a in args))
        if origin in (typing.Union, types.UnionType):
            rest = [a for a in args if a is not type(None)]
            if len(rest) == 1 and len(args) == 2:
                return _Optional(self.part(rest[0], where))
        raise TypeError(f"{where}: the cache cannot store a {hint!r}")

    def dataclass(self, cls: type, where: str) -> _Dataclass:
        if cls in self.made:
            return self.made[cls]
        if cls not in self.allowed:
            raise TypeError(f"{where}: {cls.__qualname__} is not on the cache's allow-list")
        made = self.made[cls] = _Dataclass(cls)
        hints = typing.get_type_hints(cls, localns=dict(_HINT_NAMES))
        fields = dataclasses.fields(cls)
        if not fields or not all(f.init for f in fields):
            raise TypeError(f"{cls.__qualname__}: every field must be set by the constructor")
        made.fields = tuple(
            (f.name, self.part(hints[f.name], f"{cls.__qualname__}.{f.name}")) for f in fields
        )
        return made


class Codec(Generic[T]):
    """Values of the dataclass `root` to bytes and back, for the classes in `allowed`."""

    def __init__(self, root: type[T], allowed: Collection[type], level: int = 1) -> None:
        self.root = root
        self.level = level
        self._part = _Builder(allowed).dataclass(root, root.__qualname__)

    def encode(self, value: T) -> bytes:
        """The bytes of `value`; CodecError if it is not a well-typed `root`."""
        tail = _Tail()
        try:
            data = self._part.encode(value, tail)
            text = json.dumps(data, ensure_ascii=False, check_circular=False, separators=(",", ":"))
        except CodecError:
            raise
        except Exception as error:  # a value of a type JSON cannot hold, an Enum that is not one
            raise CodecError(f"{type(error).__name__}: {error}") from None
        packed = zlib.compress(text.encode("utf-8", "surrogatepass"), self.level)
        return b"".join([MAGIC, len(packed).to_bytes(4, "little"), packed, *tail.chunks])

    def decode(self, blob: object) -> T:
        """The value stored in `blob`; CodecError (never another exception) if it is not one."""
        try:
            if not isinstance(blob, bytes) or not blob.startswith(MAGIC):
                raise CodecError("not a row of this format")
            whole = memoryview(blob)
            end = len(MAGIC) + 4 + int.from_bytes(whole[len(MAGIC) : len(MAGIC) + 4], "little")
            inflate = zlib.decompressobj()
            raw = inflate.decompress(whole[len(MAGIC) + 4 : end], MAX_DECODED_BYTES)
            if end > len(blob) or inflate.unconsumed_tail or not inflate.eof or inflate.unused_data:
                raise CodecError("truncated, too large, or not compressed JSON")
            data = json.loads(raw.decode("utf-8", "surrogatepass"))
            value = self._part.decode(data, whole[end:])
        except CodecError:
            raise
        except Exception as error:  # zlib.error, ValueError, RecursionError, a constructor's
            raise CodecError(f"{type(error).__name__}: {error}") from None
        return typing.cast(T, value)
