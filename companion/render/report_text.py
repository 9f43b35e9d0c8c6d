"""Render a report document as the plain-text email body (Jinja2 template in ``templates/``).

No line is longer than ``WIDTH`` (76) characters, so that mail programs neither wrap nor cut it:
paragraphs, list items, order lines and header values wrap with a hanging indent; a table too
wide for the line is written as one block of ``column: value`` lines per row; a link stands on a
line of its own (a link cannot be broken without breaking it)."""
from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Any

from companion.resources import resource_dir


@lru_cache(maxsize=1)
def _environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resource_dir("templates"))),
        autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.StrictUndefined)
    env.filters["wrap"] = lambda s, width=WIDTH, indent="": "\n".join(
        textwrap.fill(part, width, initial_indent=indent, subsequent_indent=indent,
                      break_long_words=False, break_on_hyphens=False) or indent.rstrip()
        for part in str(s).split("\n"))
    env.filters["bullet"] = lambda s, width=WIDTH: textwrap.fill(
        str(s), width, initial_indent="  - ", subsequent_indent="    ",
        break_long_words=False, break_on_hyphens=False)
    env.filters["hanging"] = hanging
    env.globals["table_text"] = table_text
    env.globals["header_text"] = header_text
    return env


WIDTH = 76


def hanging(text: str, first: str = "", rest: str | None = None) -> str:
    """``text`` after ``first``, wrapped to WIDTH, continued with the indent ``rest`` (plus the
    text's own indent); a line that fits is left as it is."""
    text = str(text)
    if len(first) + len(text) <= WIDTH:
        return first + text
    rest = " " * len(first) if rest is None else rest
    rest += " " * (len(text) - len(text.lstrip()))
    return textwrap.fill(str(text), WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or first.rstrip()


def header_text(header: list, qr_label: str | None, qr: str | None) -> str:
    """The header labels in one column (as wide as the longest label), values wrapped beside
    them; the link on its own line below its label."""
    labels = [str(label) + ":" for label, _ in header]
    own_line = [len(str(value)) > WIDTH - 26 and " " not in str(value) for _, value in header]
    width = min(max([len(label) for label, alone in zip(labels, own_line) if not alone]
                    + [12]) + 2, 24)
    out = []
    for label, (_, value), alone in zip(labels, header, own_line):
        value = str(value)
        if alone:
            out.extend([label, f"  {value}"])       # a long code (a hash) on its own line
        else:
            out.append(hanging(value, label.ljust(width), " " * width))
    if qr:
        out.append(f"{str(qr_label)[:1].upper()}{str(qr_label)[1:]}:")
        out.append(f"  {qr}")
    return "\n".join(out)


def table_text(columns: list[str], rows: list[list[str]]) -> str:
    """An aligned text table; as records (``column: value`` lines per row) when it would be
    wider than a line."""
    cells = [list(map(str, columns))] + [list(map(str, r)) for r in rows]
    cells = [row + [""] * (len(columns) - len(row)) for row in cells]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    if 2 + sum(widths) + 2 * (len(widths) - 1) > WIDTH:
        turned = [list(column) for column in zip(*cells)]   # a short, wide grid with row
        if not columns[0] and len(rows) <= 6 and len(turned[0]) < len(columns):  # labels
            # (its first heading empty) reads down the page: rows become columns
            flipped = [max(len(row[i]) for row in turned) for i in range(len(turned[0]))]
            if 2 + sum(flipped) + 2 * (len(flipped) - 1) <= WIDTH:
                return table_text(turned[0], turned[1:])
        label = max(len(c) for c in cells[0]) + 2
        records = []
        for row in cells[1:]:
            lines = [hanging(value, f"  {column + ':':<{label}}", " " * (label + 2))
                     for column, value in zip(cells[0], row) if value]
            records.append("\n".join(lines))
        return "\n\n".join(records)
    out = []
    for index, row in enumerate(cells):
        out.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
        if index == 0:
            out.append("  " + "  ".join("-" * w for w in widths))
    return "\n".join(out)


def render_text(doc: dict[str, Any]) -> str:
    text = _environment().get_template("report.txt.j2").render(doc=doc)
    return "\n".join(line if len(line) <= WIDTH else _fold(line)
                     for line in text.split("\n"))


def _fold(line: str) -> str:
    """A line still too long (a figure's caption, say): wrapped under its own indent."""
    indent = line[: len(line) - len(line.lstrip())]
    return hanging(line.strip(), indent, indent + "  ")
