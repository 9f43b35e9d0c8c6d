"""England and Avalon in the PDF report (companion/grailccg/views.py, england_flowable): with
four to six players the Englands stand in two rows, each wide enough for its title and its
areas' names; the Round Table area's name and label never overprint each other."""
from __future__ import annotations

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from companion.grailccg.kind import KIND
from companion.grailccg.views import _figure_data, draw_layout
from companion.render import fonts

from ccg_play import new_state

SEATS = ["Anna", "Bert", "Cleo", "Dirk", "Edda", "Fritz"]


class Recorder:
    """The canvas calls draw_layout makes, with each text's box (x0, x1, baseline, size)."""

    def __init__(self):
        self.font, self.size, self.texts = "", 0.0, []

    def setFont(self, font, size):
        self.font, self.size = font, size

    def _text(self, x0, y, text):
        width = stringWidth(text, self.font, self.size)
        self.texts.append((text, x0, x0 + width, y, self.size))

    def drawString(self, x, y, text):
        self._text(x, y, text)

    def drawCentredString(self, x, y, text):
        self._text(x - stringWidth(text, self.font, self.size) / 2, y, text)

    def drawRightString(self, x, y, text):
        self._text(x - stringWidth(text, self.font, self.size), y, text)

    def __getattr__(self, name):          # colours, lines, rectangles: not looked at
        return lambda *args, **kw: None


def drawn(count: int) -> Recorder:
    state = new_state(KIND, 3, players=SEATS[:count])[0]
    view = KIND.view(state, SEATS[0])
    fonts.register_fonts()
    canvas = Recorder()
    draw_layout(canvas, _figure_data(view), 0, 700, 515, fonts)
    return canvas


def overlap(a, b) -> bool:
    """Two texts' boxes (from the baseline up to the size) cross."""
    return a[1] < b[2] and b[1] < a[2] and a[3] < b[3] + b[4] * 0.75 and b[3] < a[3] + a[4] * 0.75


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_every_england_has_its_whole_title_and_readable_names(count):
    texts = drawn(count).texts
    for seat, builder in zip(SEATS[:count], SEATS[1:count] + SEATS[:1]):
        title = f"{seat}'s England (from {builder}'s cards)"
        assert any(t[0] == title for t in texts), (title, [t[0] for t in texts][:12])
    cut = [t[0] for t in texts if t[0].endswith(".") and "unexplored".startswith(t[0][:-1])]
    assert cut == [], f"'unexplored' cut short: {cut[:3]}"
    names = [t for t in texts if t[0] == "unexplored"]
    assert names and min(t[4] for t in names) >= 5, "area labels squeezed below 5 pt"


@pytest.mark.parametrize("count", [2, 3, 6])
def test_no_two_texts_of_the_figure_overprint(count):
    texts = drawn(count).texts
    crossing = [(a[0], b[0]) for i, a in enumerate(texts) for b in texts[i + 1:]
                if overlap(a, b)]
    assert crossing == [], crossing
