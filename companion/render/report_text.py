"""Render a report document as the plain-text email body (Jinja2 template in ``templates/``)."""
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
    env.filters["wrap"] = lambda s, width=76, indent="": "\n".join(
        textwrap.fill(part, width, initial_indent=indent, subsequent_indent=indent,
                      break_long_words=False, break_on_hyphens=False) or indent.rstrip()
        for part in str(s).split("\n"))
    env.filters["bullet"] = lambda s, width=76: textwrap.fill(
        str(s), width, initial_indent="  - ", subsequent_indent="    ",
        break_long_words=False, break_on_hyphens=False)
    env.globals["table_text"] = table_text
    return env


def table_text(columns: list[str], rows: list[list[str]]) -> str:
    """A simple aligned text table."""
    cells = [list(map(str, columns))] + [list(map(str, r)) for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    out = []
    for index, row in enumerate(cells):
        out.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
        if index == 0:
            out.append("  " + "  ".join("-" * w for w in widths))
    return "\n".join(out)


def render_text(doc: dict[str, Any]) -> str:
    return _environment().get_template("report.txt.j2").render(doc=doc)
