"""A cache of data built from the data files (parsed and validated), so a quick command need not
build it again: Knights of Camelot's world takes about 100 ms to load from TOML.

- Where: ``$COMPANION_CACHE_DIR`` if set (``off`` turns the cache off), else
  ``$XDG_CACHE_HOME/companion``, else ``~/.cache/companion``.
- Keyed by the content of every file the value is built from and by the code version (the
  package version, the Python and marshal versions, and the source of the modules that build
  the value): editing a data file or the loader makes the cached value stale, and it is built
  again and the file replaced.
- Never pickle: a cache file holds plain data (``marshal`` of None, bools, numbers, text,
  tuples, lists and dicts), and objects are rebuilt by calling the constructors of a fixed list
  of classes (and ``Path``); nothing in a cache file can name a class or a function, or run
  code.
- A file is written whole to a temporary name and renamed into place, and it carries a hash
  of its content; a value is written only if it reads back equal to the built one.
- A file is read only if it belongs to the user and nobody else may write it (POSIX).
- Any problem (no home, an unwritable folder, a corrupt, truncated or foreign file) means the
  value is built from the files as without a cache, silently: the cache never changes a result.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

ENV = "COMPANION_CACHE_DIR"
OFF = "off"
MAGIC = b"companion-cache 1\n"
_PLAIN = frozenset({str, int, float, bool, type(None)})
_OBJECT = b"o"      # (b"o", class index, mask, field values...): a dataclass instance
_SAME = b"r"        # (b"r", n): the n-th instance built so far again (shared, not copied)
_TUPLE, _LIST, _DICT = b"t", b"l", b"d"     # (tag, mask, items...), a dict's as key, value...
_PATH = b"p"        # (b"p", 0, text): a Path
_DEFERRED = b"z"    # (b"z", 0, bytes): a deferred field, encoded on its own and marshalled
_PENDING = "__pending__"    # where a Deferred object keeps its fields not yet decoded
_PATH_TYPE = type(Path())


def cache_dir() -> Path | None:
    """The folder of cache files, or None when the cache is off or no folder can be named."""
    configured = os.environ.get(ENV, "").strip()
    if configured:
        return None if configured.lower() == OFF else Path(configured).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "companion"
    home = os.path.expanduser("~")
    if not home or home == "~":
        return None
    return Path(home) / ".cache" / "companion"


def content_key(files: Iterable[Path], code: Iterable[Path]) -> str:
    """A hash of the files' names and contents, the code's sources and the versions; raises
    OSError when a file cannot be read."""
    from companion import __version__

    digest = hashlib.sha256()
    digest.update(f"{__version__}\0{sys.version}\0{marshal.version}\0".encode())
    for path in (*files, *code):
        data = Path(path).read_bytes()
        digest.update(f"{Path(path).name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


class Codec:
    """Turns values made of plain data and instances of the given dataclasses into plain data
    that ``marshal`` can store, and back (rebuilding instances by calling their classes)."""

    def __init__(self, classes: Sequence[type], rebuilt: dict[type, tuple[str, ...]] | None = None,
                 deferred: dict[type, tuple[str, ...]] | None = None):
        """``classes``: plain dataclasses, kept field by field and rebuilt by calling the class
        with them. ``rebuilt``: other classes with the attributes that are their constructor's
        arguments (in order); the constructor derives the rest (checked when a file is written:
        the value read back must be the same, attribute by attribute). ``deferred``: fields of
        some of ``classes`` (subclasses of ``Deferred``) kept apart in the file and decoded
        only when first read (a quick command that never reads them never pays for them)."""
        for cls in classes:
            if not is_dataclass(cls) or hasattr(cls, "__post_init__"):
                raise TypeError(f"{cls.__name__}: only plain dataclasses can be cached")
            if any(not f.init or f.kw_only is True for f in fields(cls)):
                raise TypeError(f"{cls.__name__}: every field must be a positional init field")
        rebuilt = dict(rebuilt or {})
        self.classes = (*classes, *rebuilt)
        self.index = {cls: i for i, cls in enumerate(self.classes)}
        self.names = [tuple(f.name for f in fields(cls)) for cls in classes] + list(rebuilt.values())
        self.derives = frozenset(rebuilt)
        self.deferred: dict[int, frozenset[str]] = {}
        for cls, names in (deferred or {}).items():
            if cls not in classes or not issubclass(cls, Deferred):
                raise TypeError(f"{cls.__name__}: only a Deferred dataclass of the codec can "
                                "defer fields")
            unknown = set(names) - set(self.names[self.index[cls]])
            if unknown:
                raise TypeError(f"{cls.__name__} has no fields {sorted(unknown)}")
            self.deferred[self.index[cls]] = frozenset(names)

    def encode(self, value: Any) -> Any:
        """Plain data for ``value``; raises TypeError for anything the codec cannot rebuild
        exactly (another type, bytes, an attribute that is not a field, a cycle).

        A container or instance that holds an instance is written as a tuple whose first item
        is a tag (bytes, which plain data never holds) and whose second is a bit mask of the
        items that need decoding; a container of plain data is written as it is, so reading
        it back costs nothing beyond ``marshal``."""
        done: dict[int, int] = {}
        keep: list[Any] = []            # the encoded instances stay alive: their ids stay unique
        busy: set[int] = set()

        def deep(items: list[tuple[bool, Any]]) -> int:
            return sum(1 << i for i, (needs, _) in enumerate(items) if needs)

        def enc(v: Any) -> tuple[bool, Any]:
            t = type(v)
            if t in _PLAIN:
                return False, v
            if t is tuple or t is list:
                items = [enc(x) for x in v]
                mask = deep(items)
                if not mask:
                    return False, v
                return True, (_TUPLE if t is tuple else _LIST, mask, *[x for _, x in items])
            if t is dict:
                for k in v:
                    if type(k) is not str and type(k) is not int:
                        raise TypeError(f"a dict key of type {type(k).__name__}")
                items = [enc(x) for x in v.values()]
                mask = deep(items)
                if not mask:
                    return False, v
                flat: list[Any] = []
                for k, (_, x) in zip(v, items):
                    flat += (k, x)
                return True, (_DICT, mask, *flat)
            if t is _PATH_TYPE:
                return True, (_PATH, 0, str(v))
            number = self.index.get(t)
            if number is None:
                raise TypeError(f"cannot cache a {t.__name__}")
            if id(v) in done:
                return True, (_SAME, done[id(v)])
            if id(v) in busy:
                raise TypeError(f"a cycle through a {t.__name__}")
            names = self.names[number]
            extra = set(getattr(v, "__dict__", {})) - set(names) - {_PENDING}
            if extra and t not in self.derives:
                raise TypeError(f"{t.__name__} has attributes that are not fields: {sorted(extra)}")
            busy.add(id(v))
            apart = self.deferred.get(number, ())
            items = [(True, (_DEFERRED, 0, marshal.dumps(self.encode(getattr(v, name)))))
                     if name in apart else enc(getattr(v, name)) for name in names]
            busy.discard(id(v))
            done[id(v)] = len(done)
            keep.append(v)
            return True, (_OBJECT, number, deep(items), *[x for _, x in items])

        return enc(value)[1]

    def decode(self, data: Any) -> Any:
        """The value that ``encode`` turned into ``data``; raises an exception (ValueError,
        IndexError, TypeError...) for data it did not make."""
        classes = self.classes
        built: list[Any] = []

        def dec(v: Any) -> Any:
            tag, mask = v[0], v[1]
            if tag == _SAME:
                if not 0 <= mask < len(built):
                    raise ValueError("a cache refers to an instance not yet built")
                return built[mask]
            if tag == _OBJECT:
                if not 0 <= mask < len(classes):
                    raise ValueError("a cache names an unknown class")
                mask, items = v[2], v[3:]
                apart = self.deferred.get(v[1])
                if apart is None:
                    if mask:
                        items = [dec(x) if mask >> i & 1 else x for i, x in enumerate(items)]
                    obj = classes[v[1]](*items)
                else:       # built with the deferred fields None, then they wait in the object
                    names = self.names[v[1]]
                    later = {n: _Later(self, x[2]) for n, x in zip(names, items) if n in apart
                             and type(x) is tuple and x[:2] == (_DEFERRED, 0)
                             and type(x[2]) is bytes}
                    if len(later) != len(apart) or len(items) != len(names):
                        raise ValueError("a cache holds a deferred field in place")
                    items = [None if n in apart else dec(x) if mask >> i & 1 else x
                             for i, (n, x) in enumerate(zip(names, items))]
                    obj = classes[v[1]](*items)
                    for n in later:
                        del obj.__dict__[n]
                    obj.__dict__[_PENDING] = later
                built.append(obj)
                return obj
            items = v[2:]
            if tag == _PATH and type(items[0]) is str:
                return Path(items[0])
            if tag == _TUPLE:
                return tuple([dec(x) if mask >> i & 1 else x for i, x in enumerate(items)])
            if tag == _LIST:
                return [dec(x) if mask >> i & 1 else x for i, x in enumerate(items)]
            if tag == _DICT:
                return {items[2 * i]: dec(x) if mask >> i & 1 else x
                        for i, x in enumerate(items[1::2])}
            raise ValueError("a cache holds an unknown tag")

        if type(data) is tuple and data and type(data[0]) is bytes:
            return dec(data)
        return data


class _Later:
    """A deferred field's marshalled data and the codec that decodes it."""

    __slots__ = ("codec", "data")

    def __init__(self, codec: Codec, data: bytes):
        self.codec, self.data = codec, data

    def value(self) -> Any:
        return self.codec.decode(marshal.loads(self.data))


class Deferred:
    """A mixin for a dataclass some of whose fields a cache file may keep apart (``Codec(...,
    deferred=...)``): such a field is decoded the first time it is read, and from then on it
    is an attribute like any other. Equality, ``repr``, ``dataclasses.replace`` and ``asdict``
    read every field, so they see the object as if it had been decoded whole."""

    def __getattr__(self, name: str) -> Any:
        pending = self.__dict__.get(_PENDING)
        if pending is not None and name in pending:
            value = pending[name].value()
            self.__dict__[name] = value
            return value
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def name_for(what: str, folder: Path) -> str:
    """A cache file's name for data read from ``folder``: two installations (or edited copies)
    keep a file each instead of replacing each other's."""
    where = hashlib.sha256(str(Path(folder).resolve()).encode()).hexdigest()[:16]
    return f"{what}-{where}"


def cached(name: str, *, files: Sequence[Path], code: Sequence[Path],
           build: Callable[[], Any], codec: Codec) -> Any:
    """``build()``, or the value a cache file kept for the same files and code.

    ``name`` names the cache file (letters, digits, ``-`` and ``.``). Whatever goes wrong with
    the cache, the value is built as if there were none."""
    folder = cache_dir()
    if folder is None:
        return build()
    try:
        key = content_key(files, code)
    except OSError:
        return build()
    path = folder / f"{name}.cache"
    try:
        return _read(path, key, codec)
    except Exception:       # no file, another version, corrupt: build it again
        pass
    value = build()
    try:
        _write(path, key, value, codec)
    except Exception:       # unwritable, full, a value the codec cannot keep: no cache
        pass
    return value


def same(a: Any, b: Any) -> bool:
    """Whether two values are alike in every type, item and attribute (objects are compared by
    their attributes, not by their ``==``)."""
    seen: set[tuple[int, int]] = set()

    def alike(x: Any, y: Any) -> bool:
        t = type(x)
        if t is not type(y):
            return False
        if t in _PLAIN:
            return x == y or (x != x and y != y)
        if t is tuple or t is list:
            return len(x) == len(y) and all(alike(i, j) for i, j in zip(x, y))
        if t is dict:
            return list(x) == list(y) and all(alike(x[k], y[k]) for k in x)
        if (id(x), id(y)) in seen:
            return True
        seen.add((id(x), id(y)))
        if not hasattr(x, "__dict__"):
            return x == y
        if is_dataclass(t):     # fields read one by one: a Deferred one is decoded first
            return all(alike(getattr(x, f.name), getattr(y, f.name)) for f in fields(t))
        return alike(vars(x), vars(y))

    return alike(a, b)


def _header(key: str, payload: bytes) -> bytes:
    return MAGIC + key.encode("ascii") + b"\n" + hashlib.sha256(payload).hexdigest().encode() + b"\n"


def _read(path: Path, key: str, codec: Codec) -> Any:
    with open(path, "rb") as handle:
        if hasattr(os, "geteuid"):      # only a file of the user's own, writable by him only
            status = os.fstat(handle.fileno())
            if status.st_uid != os.geteuid() or status.st_mode & 0o022:
                raise ValueError("a cache file someone else could have written")
        raw = handle.read()
    start = MAGIC + key.encode("ascii") + b"\n"
    if not raw.startswith(start):
        raise ValueError("another version")
    stored, _, payload = raw[len(start):].partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode() != stored:
        raise ValueError("corrupt")
    return codec.decode(marshal.loads(payload))


def _write(path: Path, key: str, value: Any, codec: Codec) -> None:
    payload = marshal.dumps(codec.encode(value))
    if not same(codec.decode(marshal.loads(payload)), value):
        return
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_header(key, payload))
            out.write(payload)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


__all__ = ["Codec", "Deferred", "cache_dir", "cached", "content_key", "name_for", "same"]
