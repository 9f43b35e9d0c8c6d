"""Shared fixtures of the print-suite tests: the sample kit built once per session, every
game's kit once per module."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.render.printkit import PrintOptions, build_kit, plan_kit
from companion.registry import KINDS, get_kind
from companion.render.printkit.sample import sample_kit


@pytest.fixture(scope="session")
def duplex_options() -> PrintOptions:
    return PrintOptions.from_strings(paper="a4", backs="duplex-long", bleed="3",
                                     back_offset="0.5,-1")


@pytest.fixture(scope="session")
def sample_pdf(duplex_options) -> bytes:
    return build_kit(sample_kit(), duplex_options)


@pytest.fixture(scope="session")
def sample_plan(duplex_options):
    return plan_kit(sample_kit(), duplex_options)


@pytest.fixture(scope="session")
def png_dir(tmp_path_factory) -> Path:
    """Where rendered pages go: $COMPANION_PRINT_PNG if set (to look at them), else a temp dir."""
    target = os.environ.get("COMPANION_PRINT_PNG")
    if target:
        path = Path(target)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("print-png")


def render(pdf: bytes, index: int, scale: float = 2.0):
    """Page ``index`` (0-based) as a PIL image; ``scale`` pixels per point."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[index].render(scale=scale).to_pil().convert("RGB")
    finally:
        doc.close()


@pytest.fixture(scope="session")
def render_page():
    return render


@pytest.fixture(scope="module")
def kits():
    """Every game's print kit (the kinds that have one), by kind id."""
    return {k.id: get_kind(k.id).print_kit() for k in KINDS
            if hasattr(get_kind(k.id), "print_kit")}
