"""Render sample pages to PNG (set COMPANION_PRINT_PNG=DIR to keep them and look at them):
a card sheet, a back sheet, a chit sheet, a tiled board page, a chart page, the calibration
sheet, and a fold-over sheet."""
from __future__ import annotations

import pytest

from companion.render.printkit import PrintOptions, build_kit, calibration_pdf, plan_kit
from companion.render.printkit.sample import sample_kit


def _first(plan, title, role=None, label_has=None):
    for i, page in enumerate(plan.pages):
        if page.part is None or page.part.title != title:
            continue
        if role and page.role != role:
            continue
        if label_has and label_has not in page.label:
            continue
        return i
    raise AssertionError(f"no page of {title} ({role}, {label_has})")


def _ink(img) -> float:
    """Share of pixels that are not white."""
    small = img.convert("L").resize((img.width // 4, img.height // 4))
    hist = small.histogram()
    return sum(hist[:245]) / sum(hist)


def test_render_sample_pages(sample_pdf, sample_plan, render_page, png_dir):
    wanted = {
        "card-sheet": _first(sample_plan, "Sample deck", "front"),
        "back-sheet": _first(sample_plan, "Sample deck", "back"),
        "two-sided-backs": _first(sample_plan, "Characters", "back"),
        "chit-sheet": _first(sample_plan, "Counters", "front"),
        "chit-backs": _first(sample_plan, "Counters", "back"),
        "standees": _first(sample_plan, "Standees"),
        "board-overview": _first(sample_plan, "Board", label_has="assembly"),
        "board-tile": _first(sample_plan, "Board", label_has="tile A1"),
        "chart": _first(sample_plan, "Reference"),
        "checklist": _first(sample_plan, "Sample deck", label_has="checklist"),
        "cover": 0,
    }
    for name, index in wanted.items():
        img = render_page(sample_pdf, index, 2.0)
        img.save(png_dir / f"{name}.png")
        assert img.size == (round(595.28 * 2), round(841.89 * 2)) or abs(img.width - 1191) <= 1
        assert _ink(img) > 0.02, f"{name} looks empty"
    cal = calibration_pdf("letter")
    for i, name in enumerate(("calibration-front", "calibration-back")):
        img = render_page(cal, i, 2.0)
        img.save(png_dir / f"{name}.png")
        assert _ink(img) > 0.002


@pytest.mark.parametrize("paper,backs", [("letter", "fold"), ("letter", "duplex-short")])
def test_render_other_modes(paper, backs, render_page, png_dir):
    opts = PrintOptions.from_strings(paper=paper, backs=backs, bleed="2", cut_lines=True,
                                     only="cards")
    data = build_kit(sample_kit(), opts)
    plan = plan_kit(sample_kit(), opts)
    role = "fold" if backs == "fold" else "back"
    index = next(i for i, p in enumerate(plan.pages) if p.role == role)
    img = render_page(data, index, 2.0)
    img.save(png_dir / f"{paper}-{backs}.png")
    assert _ink(img) > 0.05
