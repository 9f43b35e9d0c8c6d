"""Plain command-line values converted without pydantic, so a command starts fast.

The typer installed with companion converts every parameter's value through a pydantic
``TypeAdapter``, and importing pydantic costs as much again as importing typer: ``companion
games`` took twice ``python -c "import typer"`` for that alone. The values this command line
takes are plain: text, whole numbers, flags and paths. For those, :func:`install` gives typer's
parameters a converter that returns exactly what typer's own would (``str`` as given, ``int``
of ASCII digits, a flag's ``bool``, ``Path`` followed by typer's own path checks); any other
value (a sign, spaces, another type, a parser) goes to typer's own converter, with its own
messages.
``tests/test_cli_startup.py`` checks both give the same values. If typer changes its
internals, nothing is installed and typer converts as before.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, get_args, get_origin

_NOT_PLAIN = object()
_PLAIN_TYPES = (str, int, bool, Path)


def plain_type(annotation: Any, parameter_info: Any) -> bool:
    """Whether a parameter is one this module converts: str, int, bool or Path, or a list of
    them, with no parser, range, choices or path type of its own."""
    if get_origin(annotation) is list:
        args = get_args(annotation)
        if len(args) != 1:
            return False
        annotation = args[0]
    if annotation not in _PLAIN_TYPES:
        return False
    for name in ("parser", "click_type", "path_type", "min", "max"):
        if getattr(parameter_info, name, None) is not None:
            return False
    return not getattr(parameter_info, "clamp", False)


def _plain_value(annotation: Any, value: Any, check_path) -> Any:
    """``value`` converted as typer converts it, or _NOT_PLAIN when typer must decide."""
    if annotation is bool:
        return value if type(value) is bool else _NOT_PLAIN
    if type(value) is not str:
        return _NOT_PLAIN
    if annotation is str:
        return value
    if annotation is int:
        if value.isascii() and value.isdigit() and len(value) <= 18:
            return int(value)
        return _NOT_PLAIN
    return check_path(Path(value))


def install() -> bool:
    """Give typer's parameters the plain converter; False (nothing changed) if this typer
    has no such internals."""
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer._param_types import coerce_cli_path
        from typer.core import _TyperParameter
    except ImportError:
        return False
    if not hasattr(_TyperParameter, "get_runtime_param") or \
            getattr(_TyperParameter.get_runtime_param, "_companion_plain", False):
        return False
    typers_own = _TyperParameter.get_runtime_param

    class PlainRuntimeParam(RuntimeParam):
        # a subclass, not a dataclass of its own: making one costs more than the rest of
        # install() (RuntimeParam is a frozen dataclass, so the field is set as it sets them)
        def __init__(self, parameter_info: Any, annotation: Any, descriptor: Any) -> None:
            super().__init__(parameter_info=parameter_info, annotation=annotation)
            object.__setattr__(self, "descriptor", descriptor)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            def check_path(path: Path) -> Any:
                return coerce_cli_path(path, self.parameter_info, path_type=Path, param=param,
                                       ctx=ctx)

            if get_origin(self.annotation) is list:
                leaf = get_args(self.annotation)[0]
                if isinstance(value, (list, tuple)):
                    items = [_plain_value(leaf, item, check_path) for item in value]
                    if all(item is not _NOT_PLAIN for item in items):
                        return items
            else:
                result = _plain_value(self.annotation, value, check_path)
                if result is not _NOT_PLAIN:
                    return result
            return build_runtime_param(self.descriptor)._coerce_value(value, param=param,
                                                                      ctx=ctx)

    def get_runtime_param(self):
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            if descriptor.file_annotation is None and \
                    plain_type(descriptor.annotation, descriptor.parameter_info):
                self._runtime_param = PlainRuntimeParam(
                    parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                    descriptor=descriptor)
            else:
                return typers_own(self)
        return self._runtime_param

    get_runtime_param._companion_plain = True
    _TyperParameter.get_runtime_param = get_runtime_param
    return True
