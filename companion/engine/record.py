"""``@record``: a dataclass whose methods are shared instead of generated per class.

``dataclasses.dataclass`` writes the source of ``__init__``, ``__repr__``, ``__eq__`` (and, for a
frozen class, ``__hash__``, ``__setattr__`` and ``__delattr__``) and compiles it for every class,
when the module defining it is imported. On CPython 3.11 that is 2 to 4 million instructions a
class, about a quarter of what a quick command such as ``companion show`` spends beyond
``import typer`` (docs/performance.md). A record class is made by ``dataclasses`` itself (fields,
defaults, ``field(...)`` options, ``__dataclass_fields__``, ``__match_args__``), asked to
generate nothing; the methods come from this module, one set for every class, driven by the
class's field names. So ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass``
work on records, and a record behaves as the same dataclass would (same ``repr``, equality
only with its own class, the same hash, frozen instances refusing assignment, ordering with
``order=True``), which tests/test_record.py checks against real dataclasses.

Usage: ``@record`` or ``@record(frozen=True, order=True)`` in place of ``@dataclass(...)``.
``InitVar`` fields, ``kw_only``, ``slots`` and ``unsafe_hash`` are not supported (a TypeError
says so): use ``dataclass`` for such a class.
"""
from __future__ import annotations

import dataclasses
import reprlib
from operator import attrgetter
from typing import Any, Callable

_MISSING = dataclasses.MISSING


class _Shape:
    """What the shared methods need to know of one record class."""

    __slots__ = ("cls", "names", "count", "init", "init_set", "required", "defaults",
                 "factories", "key", "repr_names", "post_init", "built")

    def __init__(self, cls: type):
        initvar = getattr(dataclasses, "_FIELD_INITVAR", None)
        for f in cls.__dataclass_fields__.values():
            if initvar is not None and getattr(f, "_field_type", None) is initvar:
                raise TypeError(f"{cls.__name__}.{f.name}: @record does not support InitVar; "
                                "use @dataclass")
        self.cls, self.built = cls, 0
        fields = dataclasses.fields(cls)
        for f in fields:
            if f.kw_only is True:
                raise TypeError(f"{cls.__name__}.{f.name}: @record does not support kw_only "
                                "fields; use @dataclass")
        self.names = tuple(f.name for f in fields)
        self.count = len(self.names) if all(f.init for f in fields) else -1    # fast path
        self.init = tuple(f.name for f in fields if f.init)
        self.init_set = frozenset(self.init)
        self.required = frozenset(f.name for f in fields if f.init and f.default is _MISSING
                                  and f.default_factory is _MISSING)
        self.defaults = {f.name: f.default for f in fields if f.default is not _MISSING}
        self.factories = {f.name: f.default_factory for f in fields
                          if f.default_factory is not _MISSING}
        compared = [f.name for f in fields if f.compare]
        self.key = _getter(compared)
        self.repr_names = tuple(f.name for f in fields if f.repr)
        self.post_init = getattr(cls, "__post_init__", None)


def _getter(names: list[str]) -> Callable[[Any], tuple]:
    """The tuple of these attributes (a tuple even of one or none, as dataclasses compare)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names)


_COMPILE_AFTER = 200
"""A class built this many times gets an ``__init__`` of its own, compiled once (as dataclasses
would have compiled it at import): a hot class then costs what a dataclass costs."""


def _init(self, *args: Any, **kwargs: Any) -> None:
    shape: _Shape = type(self).__record__
    shape.built += 1
    if shape.built >= _COMPILE_AFTER:
        _compile(shape)(self, *args, **kwargs)
        return
    if len(args) == shape.count and not kwargs:
        self.__dict__.update(zip(shape.names, args))    # every field given in order: the usual
    else:
        self.__dict__.update(_values(shape, type(self).__qualname__, args, kwargs))
    if shape.post_init is not None:
        self.__post_init__()


_FACTORY = object()     # the default of a parameter whose field has a default_factory


def _compile(shape: _Shape) -> Callable[..., None]:
    """The class's own ``__init__``: parameters with the fields' defaults, the values stored
    straight into the instance's ``__dict__`` in field order, then ``__post_init__``."""
    params, lines = [], []
    for n in shape.names:
        if n not in shape.init_set:
            if n in shape.factories:
                lines.append(f"    d[{n!r}] = _factories[{n!r}]()")
            continue
        if n in shape.required:
            params.append(n)
        elif n in shape.factories:
            params.append(f"{n}=_FACTORY")
            lines.append(f"    d[{n!r}] = _factories[{n!r}]() if {n} is _FACTORY else {n}")
            continue
        else:
            params.append(f"{n}=_defaults[{n!r}]")
        lines.append(f"    d[{n!r}] = {n}")
    if shape.post_init is not None:
        lines.append("    __record_self__.__post_init__()")
    source = (f"def __init__(__record_self__, {', '.join(params)}):\n"
              "    d = __record_self__.__dict__\n" + "\n".join(lines) + "\n    return None\n")
    space = {"_defaults": shape.defaults, "_factories": shape.factories, "_FACTORY": _FACTORY}
    exec(source, space)
    init = space["__init__"]
    init.__qualname__ = f"{shape.cls.__qualname__}.__init__"
    shape.cls.__init__ = init
    return init


def _values(shape: _Shape, name: str, args: tuple, kwargs: dict) -> dict[str, Any]:
    """The fields' values, in field order, from arguments some of which are left out or given
    by keyword; a TypeError worded as the generated ``__init__`` would word it."""
    init = shape.init
    if len(args) > len(init):
        least = 1 + sum(1 for n in init if n in shape.required)
        takes = f"{least}" if least == len(init) + 1 else f"from {least} to {len(init) + 1}"
        raise TypeError(f"{name}.__init__() takes {takes} positional arguments but "
                        f"{len(args) + 1} were given")
    if kwargs:
        for key in kwargs.keys() - shape.init_set:
            raise TypeError(f"{name}.__init__() got an unexpected keyword argument '{key}'")
        for key in kwargs.keys() & set(init[:len(args)]):
            raise TypeError(f"{name}.__init__() got multiple values for argument '{key}'")
    values = dict(zip(init, args))
    missing = []
    for n in shape.names[len(args):] if shape.count == len(init) else shape.names:
        if n in values:
            continue
        if n in kwargs:
            values[n] = kwargs[n]
        elif n in shape.factories:
            values[n] = shape.factories[n]()
        elif n in shape.defaults and n in shape.init_set:     # else the class attribute serves
            values[n] = shape.defaults[n]
        elif n in shape.required:
            missing.append(n)
    if missing:
        listed = " and ".join(", ".join(repr(m) for m in missing).rsplit(", ", 1))
        raise TypeError(f"{name}.__init__() missing {len(missing)} required positional "
                        f"argument{'s' if len(missing) > 1 else ''}: {listed}")
    if shape.count != len(init):
        return {n: values[n] for n in shape.names if n in values}     # field order
    return values


@reprlib.recursive_repr()
def _repr(self) -> str:
    names = type(self).__record__.repr_names
    inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
    return f"{type(self).__qualname__}({inner})"


def _eq(self, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = type(self).__record__.key
        return key(self) == key(other)
    return NotImplemented


def _hash(self) -> int:
    return hash(type(self).__record__.key(self))


def _frozen_setattr(self, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field '{name}'")


def _frozen_delattr(self, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field '{name}'")


def _order(compare: Callable[[tuple, tuple], bool]) -> Callable[[Any, Any], Any]:
    def method(self, other: Any) -> Any:
        if other.__class__ is self.__class__:
            key = type(self).__record__.key
            return compare(key(self), key(other))
        return NotImplemented
    return method


_ORDER = {"__lt__": _order(lambda a, b: a < b), "__le__": _order(lambda a, b: a <= b),
          "__gt__": _order(lambda a, b: a > b), "__ge__": _order(lambda a, b: a >= b)}
_OWN = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", *_ORDER)


def record(cls: type | None = None, /, *, frozen: bool = False, order: bool = False):
    """Make ``cls`` a dataclass (``dataclass(cls, frozen=..., order=...)``) with shared
    methods; see the module's docstring."""

    def wrap(cls: type) -> type:
        for name in _OWN:
            if name in cls.__dict__ and not (name == "__hash__" and cls.__dict__[name] is None):
                raise TypeError(f"{cls.__name__} defines {name}: use @dataclass")
        if not cls.__dict__.get("__doc__"):
            # dataclasses would run inspect.signature to write one; the field names will do
            names = [n for n in cls.__dict__.get("__annotations__", {})]
            cls.__doc__ = f"{cls.__name__}({', '.join(names)})"
        cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False)
        cls.__record__ = _Shape(cls)
        cls.__init__ = _init
        cls.__repr__ = _repr
        cls.__eq__ = _eq
        cls.__hash__ = _hash if frozen else None
        if frozen:
            cls.__setattr__ = _frozen_setattr
            cls.__delattr__ = _frozen_delattr
        if order:
            for name, method in _ORDER.items():
                setattr(cls, name, method)
        return cls

    return wrap if cls is None else wrap(cls)
