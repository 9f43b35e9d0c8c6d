"""The report document model: plain data that both the PDF and the text renderer consume.

A game builds this from a view (never from the state), so everything a report can show has
passed through the view function. Shape::

    {
      "title": "Die Jagd nach dem Gral",
      "header": [["Game", "g1"], ["Turn", "3"], ...],    # label/value pairs
      "qr": "companion://g1/3/anna.7f3a...?h=...",       # payload, or None
      "qr_label": "Your private link",
      "footer": "Private report for Anna",
      "sections": [
        {"title": "What happened", "blocks": [
            {"type": "para", "text": "..."},
            {"type": "list", "items": ["...", "..."]},
            {"type": "table", "columns": ["A", "B"], "rows": [["1", "2"]], "widths": [2, 1]},
            {"type": "figure", "figure": "module:function", "data": {...},
             "text": "ascii art"},
            {"type": "options", "groups": [{"title": "...", "lines": ["..."]}]},
            {"type": "form", "lines": 8, "text": "instructions"},
            {"type": "code", "lines": ["..."]},
        ]},
      ],
    }
"""
from __future__ import annotations

from typing import Any


def para(text: str) -> dict[str, Any]:
    return {"type": "para", "text": text}


def bullet_list(items: list[str]) -> dict[str, Any]:
    return {"type": "list", "items": list(items)}


def table(columns: list[str], rows: list[list[str]], widths: list[float] | None = None) -> dict:
    return {"type": "table", "columns": list(columns), "rows": [list(r) for r in rows],
            "widths": list(widths) if widths else None}


def figure(name: str, data: dict[str, Any], text: str) -> dict[str, Any]:
    return {"type": "figure", "figure": name, "data": data, "text": text}


def options(groups: list[tuple[str, list[str]]]) -> dict[str, Any]:
    return {"type": "options", "groups": [{"title": t, "lines": list(l)} for t, l in groups]}


def form(lines: int, text: str) -> dict[str, Any]:
    return {"type": "form", "lines": lines, "text": text}


def code(lines: list[str]) -> dict[str, Any]:
    return {"type": "code", "lines": list(lines)}


def section(title: str, *blocks: dict[str, Any]) -> dict[str, Any]:
    return {"title": title, "blocks": [b for b in blocks if b is not None]}
