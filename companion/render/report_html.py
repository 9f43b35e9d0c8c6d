"""Render a report document (see :mod:`companion.render.document`) as an HTML page: the third
renderer of the one document, beside the PDF and the text (Jinja2 templates in
``templates/web/``, autoescaped: a player called ``<b>Bo & Jo`` shows exactly so).

A figure block is drawn as SVG when the module of its PDF figure (``module:function``) also
has ``<function>_svg`` (the ``_flowable`` suffix dropped: ``board_flowable`` -> ``board_svg``),
a function of the block's data returning SVG markup it has escaped itself; otherwise as the
block's text in a ``pre``. The page holds no script and no inline style (the web view's
Content-Security-Policy allows neither).
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

from companion.resources import resource_dir


@lru_cache(maxsize=1)
def environment():
    """The Jinja2 environment of the web templates (autoescape on for every template)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resource_dir("templates") / "web")),
        autoescape=True, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.ChainableUndefined)
    env.globals["figure_svg"] = figure_svg
    env.globals["figure_fit"] = figure_fit
    env.globals["header_class"] = header_class
    env.filters["anchor"] = anchor
    env.globals["turns_shown"] = TURNS_SHOWN
    return env


TURNS_SHOWN = 12
"""A report page lists at most this many turns unfolded; a longer game lists the first, the
five around the page's own and the latest, and every turn in a fold (report.html.j2)."""


def anchor(title: str) -> str:
    """An id for a section heading: letters and digits of its title, joined by '-'."""
    out, dash = [], False
    for ch in str(title).lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "sec-" + ("".join(out).strip("-") or "x")


SHORT_ROW = 18
"""A header row whose label and value together have at most this many characters is short:
on a phone it takes one of two columns (about 22 characters of the header's type fit in one)."""
TOKEN_CHARS = 24
"""A header value of at least this many characters without a space (a hash) is a token: set in
a smaller monospace that may break anywhere."""


def header_class(label: Any, value: Any) -> str:
    """The class of a row of the report's header (app.css, ``dl.header``): "token" for a long
    value without a space, "short" for a short row, "" for any other."""
    label, value = str(label), str(value)
    if len(value) >= TOKEN_CHARS and not any(ch.isspace() for ch in value):
        return "token"
    return "short" if len(label) + len(value) <= SHORT_ROW else ""


def svg_function(name: str):
    """The SVG twin of a figure's flowable function, or None."""
    module_name, _, func = name.partition(":")
    base = func[: -len("_flowable")] if func.endswith("_flowable") else func
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return getattr(module, base + "_svg", None)


def figure_svg(block: dict[str, Any]):
    """The SVG of a figure block (as markup), or None when its kind draws none."""
    from markupsafe import Markup

    function = svg_function(block.get("figure", ""))
    if function is None:
        return None
    return Markup(function(block.get("data", {})))


FIT_LABEL_PX = 16
"""A figure is drawn no wider than makes its typical label (the median font size of its
texts) this many CSS pixels high: on a wide screen a figure made to be read on a phone (a
close-up) is not blown up to the column's full width."""
FIT_REM = (24, 38, 2)
"""The widths a figure may be capped at (rem: from, to, step; the classes ``fit-24`` ...
``fit-38`` of app.css). Never below 24rem, wider than a phone's column, so a phone never sees a
cap; a figure whose cap would be above the last step keeps the column's width."""


def figure_fit(svg) -> str:
    """The class capping a figure's width on a wide screen (``fit-30``), or "" for none: from
    its viewBox width and the median ``font-size`` of its texts (the width at which that label
    is FIT_LABEL_PX high, rounded down to a step)."""
    import re
    from statistics import median

    if not svg:
        return ""
    box = re.search(r'<svg\b[^>]*\bviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)', str(svg))
    sizes = [float(x) for x in re.findall(r'\bfont-size="([\d.]+)"', str(svg))]
    sizes = [x for x in sizes if x > 0]
    if not box or not sizes:
        return ""
    rem = float(box.group(1)) * FIT_LABEL_PX / median(sizes) / 16
    low, high, step = FIT_REM
    if rem >= high + step:
        return ""
    return f"fit-{max(low, int((rem - low) // step) * step + low)}"


def render_html(doc: dict[str, Any], page: dict[str, Any] | None = None) -> str:
    """The report page of ``doc``; ``page`` carries what only the web view has (links to the
    PDF, the orders, earlier and newer turns; see templates/web/report.html.j2)."""
    page = page or {}
    return environment().get_template("report.html.j2").render(doc=doc, page=page,
                                                               root=page.get("root", ""))


def render_page(template: str, **context: Any) -> str:
    """Any other page of the web view (orders, moderator, errors)."""
    return environment().get_template(template).render(page={}, **context)
