"""The Gral board, orders, initiates and influence sheet, loaded from the editable data files."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from companion.engine.datafiles import DataFile, suggest
from companion.engine.names import slugify
from companion.engine.record import record
from companion.engine.words import counted

DATA_DIR = Path(__file__).resolve().parent / "data"
SYMBOLS = ("knife", "cross", "rose-cross", "triangle")


@record(frozen=True)
class Field:
    id: str
    name: str
    row: int
    column: int
    short: str           # the name shortened to 14 characters at most, for tight spaces


@record(frozen=True)
class Order:
    id: str
    name: str
    headquarters: str    # field id
    symbol: str
    colour: str


@record(frozen=True)
class Initiate:
    id: str
    name: str
    order: str           # order id
    size: str


@record(frozen=True)
class Unit:
    id: str              # e.g. 'A7': bar A, seventh unit
    bar: str
    value: int


class World:
    def __init__(self, fields: list[Field], orders: list[Order], initiates: list[Initiate],
                 units: list[Unit], rows: int, columns: int, diagonal: bool, grail_start: str):
        self.fields = fields
        self.orders = orders
        self.initiates = initiates
        self.units = units
        self.rows = rows
        self.columns = columns
        self.diagonal = diagonal
        self.grail_start = grail_start
        self.field = {f.id: f for f in fields}
        self.order = {o.id: o for o in orders}
        self.initiate = {i.id: i for i in initiates}
        self.unit = {u.id: u for u in units}
        self.field_names = [f.name for f in fields]
        self.initiate_names = [i.name for i in initiates]
        self.field_by_name = {f.name: f.id for f in fields}
        self.initiate_by_name = {i.name: i.id for i in initiates}
        self.order_by_name = {o.name: o.id for o in orders}
        self.hq_of = {o.headquarters: o.id for o in orders}
        by_pos = {(f.row, f.column): f.id for f in fields}
        steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
        if diagonal:
            steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        self.adjacent: dict[str, list[str]] = {}
        for f in fields:
            near = [by_pos[(f.row + dr, f.column + dc)] for dr, dc in steps
                    if (f.row + dr, f.column + dc) in by_pos]
            self.adjacent[f.id] = sorted(near, key=self.field_order)
        self.total_points = sum(u.value for u in units)

    def field_order(self, field_id: str) -> tuple[int, int]:
        f = self.field[field_id]
        return (f.row, f.column)

    def start_field(self, initiate_id: str) -> str:
        return self.order[self.initiate[initiate_id].order].headquarters


def load_world(data_dir: Path | str | None = None) -> World:
    folder = Path(data_dir) if data_dir is not None else DATA_DIR
    return _load(str(folder.resolve()))


@lru_cache(maxsize=4)
def _load(folder: str) -> World:
    if Path(folder) != DATA_DIR.resolve():
        return _read(folder)
    from companion.engine import cache     # the bundled data: loaded once, then from the cache

    return cache.cached(cache.name_for("gral-world", DATA_DIR),
                        files=[DATA_DIR / "board.toml", DATA_DIR / "sheet.toml"], code=CODE,
                        build=lambda: _read(folder),
                        codec=cache.Codec((Field, Order, Initiate, Unit), rebuilt={World: (
                            "fields", "orders", "initiates", "units", "rows", "columns",
                            "diagonal", "grail_start")}))


_HERE = Path(__file__).resolve().parent
CODE = (_HERE / "world.py", _HERE.parent / "engine" / "datafiles.py",
        _HERE.parent / "engine" / "names.py", _HERE.parent / "engine" / "cache.py",
        _HERE.parent / "engine" / "record.py", _HERE.parent / "engine" / "words.py",
        _HERE.parent / "errors.py")
"""The sources a cached world depends on besides its data files (tests/test_cache.py checks
that every module of the package that loading imports is here)."""


def _read(folder: str) -> World:
    board = DataFile.load(Path(folder) / "board.toml", display=_display(folder, "board.toml"))
    sheet = DataFile.load(Path(folder) / "sheet.toml", display=_display(folder, "sheet.toml"))
    world = _build(board, sheet)
    board.raise_if_errors()
    sheet.raise_if_errors()
    return world


def _display(folder: str, name: str) -> str:
    path = Path(folder) / name
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _build(board: DataFile, sheet: DataFile) -> World | None:
    data = board.data
    board.unknown_keys(data, ["board", "field", "order", "initiate"], "board.toml")
    spec = data.get("board", {})
    board.unknown_keys(spec, ["rows", "columns", "diagonal", "grail_start"], "[board]")
    rows = board.require(spec, "rows", int, "[board]", locate="rows") or 0
    columns = board.require(spec, "columns", int, "[board]", locate="columns") or 0
    diagonal = board.require(spec, "diagonal", bool, "[board]", locate="diagonal") or False
    grail_start = board.require(spec, "grail_start", str, "[board]", locate="grail_start")

    fields: list[Field] = []
    seen_pos: dict[tuple[int, int], str] = {}
    for entry in data.get("field", []):
        name = board.require(entry, "name", str, "[[field]]", locate="[[field]]")
        if name is None:
            continue
        board.unknown_keys(entry, ["name", "row", "column", "short"], f"field '{name}'")
        short = entry.get("short", name)
        if not isinstance(short, str) or not 0 < len(short) <= 14:
            board.error(f"field '{name}': 'short' must be a name of 1 to 14 characters", name)
            short = name[:14]
        elif len(name) > 14 and "short" not in entry:
            board.error(f"field '{name}' has more than 14 characters; give it a 'short' name "
                        "for the text board", name)
        row = board.require(entry, "row", int, f"field '{name}'", locate=name)
        col = board.require(entry, "column", int, f"field '{name}'", locate=name)
        if row is None or col is None:
            continue
        if not (1 <= row <= rows and 1 <= col <= columns):
            board.error(f"field '{name}' at row {row}, column {col} is outside the "
                        f"{rows} x {columns} board", name)
            continue
        if (row, col) in seen_pos:
            board.error(f"fields '{seen_pos[(row, col)]}' and '{name}' are both at row {row}, "
                        f"column {col}", name)
            continue
        if any(slugify(f.name) == slugify(name) for f in fields):
            board.error(f"field '{name}' is listed twice", name)
            continue
        seen_pos[(row, col)] = name
        fields.append(Field(slugify(name), name, row, col, short))
    missing = [(r, c) for r in range(1, rows + 1) for c in range(1, columns + 1)
               if (r, c) not in seen_pos]
    if missing and rows and columns:
        board.error(f"the board has no field at row {missing[0][0]}, column {missing[0][1]} "
                    f"({counted(len(missing), 'position')} empty)", "[[field]]")
    field_names = {f.name: f.id for f in fields}
    corners = {(1, 1), (1, columns), (rows, 1), (rows, columns)}

    def field_ref(name: str | None, where: str) -> str | None:
        if name is None:
            return None
        if name not in field_names:
            board.error(f"{where}: no field called '{name}'", name,
                        hint=suggest(name, field_names))
            return None
        return field_names[name]

    start = field_ref(grail_start, "[board] grail_start")
    if start and rows % 2 and columns % 2:
        f = next(f for f in fields if f.id == start)
        if (f.row, f.column) != ((rows + 1) // 2, (columns + 1) // 2):
            board.error(f"the grail must start on the centre field; '{grail_start}' is not it",
                        grail_start)

    orders: list[Order] = []
    for entry in data.get("order", []):
        name = board.require(entry, "name", str, "[[order]]", locate="[[order]]")
        if name is None:
            continue
        board.unknown_keys(entry, ["name", "headquarters", "symbol", "colour"], f"order '{name}'")
        hq = field_ref(board.require(entry, "headquarters", str, f"order '{name}'", locate=name),
                       f"order '{name}' headquarters")
        symbol = board.require(entry, "symbol", str, f"order '{name}'", locate=name)
        colour = board.require(entry, "colour", str, f"order '{name}'", locate=name)
        if symbol is not None and symbol not in SYMBOLS:
            board.error(f"order '{name}': symbol '{symbol}' is not one of {', '.join(SYMBOLS)}",
                        symbol, hint=suggest(symbol, SYMBOLS))
        if colour is not None and not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
            board.error(f"order '{name}': colour '{colour}' is not of the form #rrggbb", colour)
        if hq:
            f = next(f for f in fields if f.id == hq)
            if (f.row, f.column) not in corners:
                board.error(f"order '{name}': headquarters '{f.name}' is not a corner field",
                            f.name)
            if any(o.headquarters == hq for o in orders):
                board.error(f"two orders have their headquarters on '{f.name}'", f.name)
        orders.append(Order(slugify(name), name, hq or "", symbol or "", colour or "#000000"))
    if len(orders) != 4:
        board.error(f"the game has 4 orders; the file lists {len(orders)}", "[[order]]")
    order_names = {o.name: o.id for o in orders}

    initiates: list[Initiate] = []
    for entry in data.get("initiate", []):
        name = board.require(entry, "name", str, "[[initiate]]", locate="[[initiate]]")
        if name is None:
            continue
        board.unknown_keys(entry, ["name", "order", "size"], f"initiate '{name}'")
        order = board.require(entry, "order", str, f"initiate '{name}'", locate=name)
        size = board.require(entry, "size", str, f"initiate '{name}'", locate=name)
        if order is not None and order not in order_names:
            board.error(f"initiate '{name}': no order called '{order}'", order,
                        hint=suggest(order, order_names))
        if size is not None and size not in ("tall", "small"):
            board.error(f"initiate '{name}': size must be 'tall' or 'small', not '{size}'", size)
        if any(i.id == slugify(name) for i in initiates):
            board.error(f"initiate '{name}' is listed twice", name)
        initiates.append(Initiate(slugify(name), name, order_names.get(order or "", ""),
                                  size or "tall"))
    for o in orders:
        members = [i for i in initiates if i.order == o.id]
        sizes = sorted(i.size for i in members)
        if sizes != ["small", "tall"]:
            board.error(f"order '{o.name}' needs one tall and one small initiate; it has "
                        f"{len(members)} ({', '.join(sizes) or 'none'})", o.name)

    units: list[Unit] = []
    sheet.unknown_keys(sheet.data, ["sheet", "bar"], "sheet.toml")
    total = sheet.require(sheet.data.get("sheet", {}), "total", int, "[sheet]", locate="total")
    bars = sheet.data.get("bar", [])
    if not bars:
        sheet.error("the sheet has no [[bar]] of units", "[sheet]")
    for bar in bars:
        bar_name = sheet.require(bar, "name", str, "[[bar]]", locate="[[bar]]")
        values = sheet.require(bar, "units", list, f"bar '{bar_name}'", locate="units")
        if bar_name is None or values is None:
            continue
        if not re.fullmatch(r"[A-Z]", bar_name):
            sheet.error(f"bar name '{bar_name}' must be one capital letter", bar_name)
        for index, value in enumerate(values, start=1):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 10:
                sheet.error(f"bar '{bar_name}': unit {index} is {value!r}; units are whole "
                            "numbers from 1 to 10", "units")
                continue
            units.append(Unit(f"{bar_name}{index}", bar_name, value))
    if total is not None and units and sum(u.value for u in units) != total:
        sheet.error(f"the units add up to {sum(u.value for u in units)}, not {total}", "total")
    if board.errors or sheet.errors:
        return None
    return World(fields, orders, initiates, units, rows, columns, diagonal, start)
