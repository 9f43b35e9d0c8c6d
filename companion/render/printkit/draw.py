"""Drawing primitives: card faces and backs, chits, standees, and the sheet furniture (crop marks,
cut and fold lines, the print-at-100% notice).

Every item is drawn in its own local coordinates (points, origin at the lower-left corner of its
trim, upright); the caller applies the slot's transform.  Faces are *prepared* first (texts fitted,
colours resolved) so that every error surfaces before any page is drawn.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.render import fonts
from companion.render.printkit.colours import (INK, PAPER, PALETTE, RGB, darker, lighter, mix,
                                               rgb, text_on)
from companion.render.printkit.fit import (Fitted, check_glyphs, draw_fitted, fit_line, fit_text,
                                           TextFitError, text_width)
from companion.render.printkit.icons import check_icon, draw_icon
from companion.render.printkit.layout import PageLayout
from companion.render.printkit.model import (CardBack, CardFace, ChitFace, Deck, Standee,
                                             Standees)
from companion.render.printkit.pen import Pen
from companion.render.printkit.units import MM, mm


def _clamp(v: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, v))


TEXT_PAD = mm(1.8)
"""Space between a card's panel edge and its text."""

MIN_PT = 5.5
"""The smallest text on a card, a card back or a chit (rules text, names, type lines,
footers, labels): a text that does not fit at this size is set in the condensed face, then
wraps, then is refused (a card too small for the design says so with the smallest size that
works)."""


def text_max_pt(deck: Deck, w: float) -> float:
    """The largest size a card's text may take: the deck's own, else from the card's width
    (9 pt on a poker card, 10.5 pt on a tarot card)."""
    if deck.text_max_pt is not None:
        return max(deck.text_max_pt, deck.text_min_pt)
    return max(deck.text_min_pt, _clamp(w / MM / 7.0, 7.0, 10.5))


# ----------------------------------------------------------------------------------------------
# Card faces


@dataclass
class FaceLayout:
    """A card face with every measure decided and every text fitted."""

    face: CardFace
    w: float
    h: float
    band: RGB
    border: float
    header_h: float
    name: Fitted
    kind_line: str
    kind_font: str
    kind_size: float
    emblem_h: float
    stats_h: float
    text_box: tuple[float, float, float, float]  # x, y, w, h
    text: Fitted | None
    footer_left: str
    footer_right: str
    footer_size: float
    corner_w: float
    kind_lines: tuple[str, ...] = ()
    """The type line, or the kind and the subtitle on two lines on a small card."""
    kind_h: float = 0.0
    footer_font: str = fonts.SANS
    badge_h: float = 0.0


def deck_colours(deck: Deck) -> dict[str, RGB]:
    """Band colour of each kind: the deck's own, else the palette in order of first use."""
    out: dict[str, RGB] = {}
    spare = iter(PALETTE * 4)
    for kind, colour in deck.colours.items():
        out[kind] = rgb(colour, what=f"deck '{deck.title}' colour of '{kind}'")
    for card in deck.cards:
        if card.kind not in out:
            out[card.kind] = rgb(next(spare))
    return out


def fit_name(name: str, width: float, header_h: float, what: str) -> Fitted:
    """A card name on one line if it fits at 70% of the band's natural size or more, else on
    two or more lines, as large as the band allows and as even as that size allows (no lone
    'I' under 'The Scavenger, version')."""
    top = min(header_h / MM * 1.55, 13.0)
    box_h = header_h * 0.86
    try:
        fit_line(name, width, max_size=top, min_size=max(5.5, top * 0.7), what=what,
                 condense=False)
        fitted = fit_text(name, width, box_h, max_size=top, min_size=max(5.5, top * 0.7),
                          style="b", leading=1.0, what=what, condense=False)
        return balanced(fitted, name, width, box_h, style="b", leading=1.0, what=what)
    except TextFitError:
        fitted = fit_text(name, width, box_h, max_size=max(top, MIN_PT), min_size=MIN_PT,
                          style="b", leading=1.0, what=what)
        return balanced(fitted, name, width, box_h, style="b", leading=1.0, what=what)


def balanced(fitted: Fitted, text: str, width: float, height: float, **options) -> Fitted:
    """``fitted`` (``text`` wrapped to ``width``) broken into lines of more even length: the
    narrowest width that still gives as many lines at the same size and face, with no word
    broken. The widths tried are those a line can have (a run of the words), fewest first, in
    a binary search: a few trial wraps a name."""
    if len(fitted.lines) < 2:
        return fitted
    font = fitted.lines[0].pieces[0].font
    if any(piece.font != font for line in fitted.lines for piece in line.pieces):
        return fitted                   # markup in a name: left as wrapped

    def words(f: Fitted) -> list[str]:
        return " ".join("".join(piece.text for piece in line.pieces)
                        for line in f.lines).split()

    whole = words(fitted)
    widest = max(line.width for line in fitted.lines)
    runs = sorted({w for i in range(len(whole)) for j in range(i + 1, len(whole) + 1)
                   if (w := text_width(" ".join(whole[i:j]), font, fitted.size)) < widest})
    best, lo, hi = fitted, 0, len(runs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        try:
            trial = fit_text(text, runs[mid] + 0.01, height, max_size=fitted.size,
                             min_size=fitted.size, condense=fitted.condensed, **options)
        except TextFitError:
            lo = mid + 1
            continue
        if (len(trial.lines) == len(fitted.lines) and trial.condensed == fitted.condensed
                and words(trial) == whole):
            best, hi = trial, mid - 1
        else:
            lo = mid + 1
    return best


def _face_text(face: CardFace) -> list[tuple[str, str]]:
    parts = []
    if face.text:
        parts.append((face.text, "r"))
    if face.flavour:
        parts.append((face.flavour, "i"))
    return parts


def prepare_face(face: CardFace, deck: Deck, w: float, h: float, colours: dict[str, RGB],
                 number: int, total: int) -> FaceLayout:
    """Decide the face's layout and fit its texts (raises TextFitError / GlyphError / UsageError
    naming the card)."""
    what = f"deck '{deck.title}', card '{face.name}'"
    band = rgb(face.colour, what=what) if face.colour else colours.get(face.kind, rgb(PALETTE[0]))
    if face.icon:
        check_icon(face.icon, what)
    for stat in list(face.stats) + ([face.corner] if face.corner else []):
        check_icon(stat.icon, f"{what}, statistic")
        check_glyphs(str(stat.value), what)
    border = _clamp(0.045 * min(w, h), mm(2.2), mm(3.5))
    pad = TEXT_PAD
    header_h = _clamp(0.115 * h, mm(6.0), mm(11.0))
    inner_w = w - 2 * border
    # the corner badge as high as the band; on a small card, smaller when the name needs room
    for badge_h in ((header_h, header_h * 0.8, header_h * 0.65) if face.corner else (0.0,)):
        corner_w = _badge_width(face.corner, badge_h) + pad * 0.5 if face.corner else 0.0
        if inner_w - 2 * pad - corner_w < mm(8):
            # no box of negative or next to no width for the name: the card is too small
            error = TextFitError(f"{what}: a {w / MM:.0f} x {h / MM:.0f} mm card is too small "
                                 "for this design", hint="print on a bigger card size")
            continue
        try:
            name = fit_name(face.name, inner_w - 2 * pad - corner_w, header_h,
                            what=f"{what}: name")
            break
        except TextFitError as exc:
            error = exc
    else:
        raise error
    kind_line = " · ".join(x for x in (face.kind, face.subtitle) if x)
    kind_font, kind_size = fonts.SANS_ITALIC, 6.5
    kind_lines = [kind_line] if kind_line else []
    if kind_line:
        try:
            kind_font, kind_size = fit_line(kind_line, inner_w - 2 * pad, max_size=7.0,
                                            min_size=MIN_PT, bold=False,
                                            what=f"{what}: type line")
        except TextFitError:
            # a small card: the kind on one line, the subtitle on the next
            if not (face.kind and face.subtitle):
                raise
            kind_lines = [face.kind, face.subtitle]
            fitted_lines = [fit_line(line, inner_w - 2 * pad, max_size=7.0, min_size=MIN_PT,
                                     bold=False, what=f"{what}: type line")
                            for line in kind_lines]
            # one face and size for both lines: the smaller, condensed if either needs it
            kind_size = min(size for _, size in fitted_lines)
            kind_font = (fonts.SANS if all(font == fonts.SANS for font, _ in fitted_lines)
                         else fonts.CONDENSED)
        if (kind_font == fonts.SANS and all(
                text_width(line, fonts.SANS_ITALIC, kind_size) <= inner_w - 2 * pad
                for line in kind_lines)):
            kind_font = fonts.SANS_ITALIC
    kind_h = (mm(3.8) + (len(kind_lines) - 1) * kind_size * 1.1) if kind_line else mm(1.0)
    stats_h = _clamp(0.085 * h, mm(5.5), mm(8.0)) if face.stats else 0.0
    if face.stats:
        stats_size(face.stats, inner_w - 2 * pad, stats_h, what)
    footer_h = mm(3.0)
    footer_left = face.footer or deck.title
    footer_right = f"{number}/{total}" if deck.numbering else ""
    footer_size = MIN_PT
    footer_font = fonts.SANS
    avail_footer = inner_w - 2 * pad - (text_width(footer_right, fonts.SANS, footer_size) + mm(2)
                                         if footer_right else 0)
    check_glyphs(footer_left, f"{what}: footer")
    if text_width(footer_left, fonts.SANS, footer_size) > avail_footer:
        footer_font = fonts.CONDENSED
    if text_width(footer_left, footer_font, footer_size) > avail_footer:
        raise TextFitError(f"{what}: footer '{footer_left}' is too long for the card",
                           hint="shorten the footer or the deck title, or print on a bigger "
                                "card size")
    top = h - border - header_h - kind_h
    bottom = border + footer_h
    emblem_full = _clamp(0.24 * h, mm(9.0), mm(32.0)) if face.icon else 0.0
    texts = _face_text(face)
    last_error: TextFitError | None = None
    for emblem_h in ([emblem_full, emblem_full * 0.55, 0.0] if face.icon else [0.0]):
        tb_top = top - emblem_h - stats_h - (pad if (emblem_h or stats_h) else pad * 0.5)
        tb = (border + pad, bottom + pad * 0.5, inner_w - 2 * pad, tb_top - bottom - pad * 0.5)
        if not texts:
            return FaceLayout(face, w, h, band, border, header_h, name, kind_line,
                              kind_font, kind_size, emblem_h, stats_h, tb, None, footer_left,
                              footer_right, footer_size, corner_w, tuple(kind_lines), kind_h,
                              footer_font, badge_h)
        if tb[3] <= mm(4):
            continue
        try:
            fitted = fit_text(texts, tb[2], tb[3], max_size=text_max_pt(deck, w),
                              min_size=deck.text_min_pt, what=f"{what}: text")
        except TextFitError as exc:
            last_error = exc
            continue
        return FaceLayout(face, w, h, band, border, header_h, name, kind_line,
                          kind_font, kind_size, emblem_h, stats_h, tb, fitted, footer_left,
                          footer_right, footer_size, corner_w, tuple(kind_lines), kind_h,
                          footer_font, badge_h)
    if last_error is None:
        raise TextFitError(f"{what}: no room left for the text on a {w / MM:.0f} x {h / MM:.0f} mm card",
                           hint="use a bigger card size or fewer statistics")
    raise last_error


def _top_rounded(c, x, y, w, h, r, fill: RGB):
    c.setFillColorRGB(*fill)
    c.roundRect(x, y, w, h, r, stroke=0, fill=1)
    c.rect(x, y, w, min(h, r * 1.2), stroke=0, fill=1)


def draw_face(c, fl: FaceLayout, bleed: float) -> None:
    face, w, h, b = fl.face, fl.w, fl.h, fl.border
    band = fl.band
    # background runs into the bleed
    c.setFillColorRGB(*band)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    radius = mm(1.6)
    c.setFillColorRGB(*PAPER)
    c.setStrokeColorRGB(*darker(band, 0.35))
    c.setLineWidth(0.5)
    c.roundRect(b, b, w - 2 * b, h - 2 * b, radius, stroke=1, fill=1)
    # name band
    hx, hy, hw, hh = b, h - b - fl.header_h, w - 2 * b, fl.header_h
    dark = darker(band, 0.25)
    _top_rounded(c, hx, hy, hw, hh, radius, dark)
    ink = text_on(dark)
    c.setFillColorRGB(*ink)
    pad = TEXT_PAD
    avail = hw - 2 * pad - fl.corner_w
    draw_fitted(c, fl.name, hx + pad, hy + hh - (hh - fl.name.height) / 2, align="centre",
                width=avail)
    if face.corner is not None:
        _stat_badge(c, face.corner, hx + hw - pad * 0.5, hy + hh / 2, fl.badge_h or hh, band)
    y = hy
    if fl.kind_line:
        c.setFillColorRGB(*darker(band, 0.45))
        c.setFont(fl.kind_font, fl.kind_size)
        # the last line sits where a one-line type line does, the others above it
        last = y - fl.kind_h + (mm(3.8) - fl.kind_size * 0.7) / 2
        n = len(fl.kind_lines)
        for k, line in enumerate(fl.kind_lines):
            kw = text_width(line, fl.kind_font, fl.kind_size)
            c.drawString(w / 2 - kw / 2, last + (n - 1 - k) * fl.kind_size * 1.1, line)
        y -= fl.kind_h
    else:
        y -= mm(1.0)
    if fl.emblem_h:
        ex, ew = b + mm(1.2), w - 2 * b - mm(2.4)
        ey = y - fl.emblem_h
        c.setFillColorRGB(*lighter(band, 0.82))
        c.setStrokeColorRGB(*lighter(band, 0.5))
        c.setLineWidth(0.4)
        c.roundRect(ex, ey, ew, fl.emblem_h, mm(1.0), stroke=1, fill=1)
        size = fl.emblem_h * 0.8
        draw_icon(c, face.icon, w / 2 - size / 2, ey + (fl.emblem_h - size) / 2, size,
                  ink=darker(band, 0.5), line=0.8)
        y = ey
    if fl.stats_h:
        _stats_row(c, face.stats, b + pad, y - fl.stats_h - mm(0.6), w - 2 * b - 2 * pad,
                   fl.stats_h, band)
    if fl.text is not None:
        x, ty, tw, th = fl.text_box
        draw_fitted(c, fl.text, x, ty + th, colour=INK)
    # footer
    c.setFillColorRGB(*mix(INK, PAPER, 0.45))
    c.setFont(fl.footer_font, fl.footer_size)
    fy = b + mm(1.0)
    c.drawString(b + pad, fy, fl.footer_left)
    if fl.footer_right:
        c.drawRightString(w - b - pad, fy, fl.footer_right)


def _badge_width(stat, header_h: float) -> float:
    ph = header_h * 0.72
    fs = ph * 0.78
    return ph * 0.86 + text_width(str(stat.value), fonts.SANS_BOLD, fs) + ph * 0.45


def _stat_badge(c, stat, right: float, cy: float, header_h: float, band: RGB) -> None:
    """A pill at the right of the name band: the icon and the value."""
    ph = header_h * 0.72
    fs = ph * 0.78
    w = _badge_width(stat, header_h)
    x = right - w
    c.setFillColorRGB(*PAPER)
    c.setStrokeColorRGB(*darker(band, 0.5))
    c.setLineWidth(0.6)
    c.roundRect(x, cy - ph / 2, w, ph, ph / 2, stroke=1, fill=1)
    size = ph * 0.78
    draw_icon(c, stat.icon, x + ph * 0.14, cy - size / 2, size, line=0.5)
    c.setFillColorRGB(*INK)
    c.setFont(fonts.SANS_BOLD, fs)
    c.drawString(x + ph * 0.14 + size + ph * 0.06, cy - fs * 0.36, str(stat.value))


def stats_size(stats, w: float, h: float, what: str = "card") -> float:
    """One font size for all values of a statistics row, so that each icon and value fits its
    share of the row; raises TextFitError if a value is too long even at 5 pt."""
    slot = w / len(stats)
    icon = h * 0.86
    fs = min(h / MM * 1.9, 12.0)
    for stat in stats:
        value = str(stat.value)
        while fs > 5 and icon + mm(0.8) + text_width(value, fonts.SANS_BOLD, fs) > slot - mm(0.5):
            fs -= 0.25
        if icon + mm(0.8) + text_width(value, fonts.SANS_BOLD, fs) > slot - mm(0.5):
            raise TextFitError(f"{what}: statistic value '{value}' is too long for its place",
                               hint="shorten the value or show fewer statistics")
    return fs


def _stats_row(c, stats, x: float, y: float, w: float, h: float, band: RGB) -> None:
    n = len(stats)
    slot = w / n
    size = h * 0.86
    fs = stats_size(stats, w, h)
    font = fonts.SANS_BOLD
    for i, stat in enumerate(stats):
        value = str(stat.value)
        vw = text_width(value, font, fs)
        total = size + mm(0.8) + vw
        sx = x + i * slot + (slot - total) / 2
        draw_icon(c, stat.icon, sx, y + (h - size) / 2, size, line=0.55)
        c.setFillColorRGB(*INK)
        c.setFont(font, fs)
        c.drawString(sx + size + mm(0.8), y + h / 2 - fs * 0.36, value)


# ----------------------------------------------------------------------------------------------
# Backs


def prepare_back(back: CardBack, w: float, h: float, what: str) -> dict:
    """Fit the back's title; returns what :func:`draw_back` needs."""
    colour = rgb(back.colour, what=f"{what} back colour")
    accent = rgb(back.accent, what=f"{what} back accent")
    if back.icon:
        check_icon(back.icon, f"{what} back")
    if back.pattern not in ("diamonds", "stripes", "dots", "grid", "plain"):
        from companion.errors import UsageError

        raise UsageError(f"{what} back: unknown pattern '{back.pattern}'",
                         hint="use diamonds, stripes, dots, grid or plain")
    title = None
    if back.title:
        title = fit_line(back.title, w * 0.8, max_size=min(16.0, h * 0.07),
                         min_size=5.0, what=f"{what} back title")
    sub = None
    if back.subtitle:
        sub = fit_line(back.subtitle, w * 0.8, max_size=7.0, min_size=4.5, bold=False,
                       what=f"{what} back subtitle")
    return {"back": back, "colour": colour, "accent": accent, "title": title, "sub": sub}


def draw_back(c, prepared: dict, w: float, h: float, bleed: float) -> None:
    back: CardBack = prepared["back"]
    colour, accent = prepared["colour"], prepared["accent"]
    c.setFillColorRGB(*colour)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    faint = mix(colour, accent, 0.28)
    c.setStrokeColorRGB(*faint)
    c.setFillColorRGB(*faint)
    c.setLineWidth(0.6)
    step = mm(4.5)
    x0, y0 = -bleed - step, -bleed - step
    x1, y1 = w + bleed + step, h + bleed + step
    cx, cy = w / 2, h / 2
    # patterns are laid out from the centre so they look the same turned half round
    nx = int((x1 - x0) / step / 2) + 2
    ny = int((y1 - y0) / step / 2) + 2
    if back.pattern == "diamonds":
        p = c.beginPath()
        for i in range(-nx - ny, nx + ny + 1):
            off = i * step
            p.moveTo(cx + off - (ny + 2) * step, cy - (ny + 2) * step)
            p.lineTo(cx + off + (ny + 2) * step, cy + (ny + 2) * step)
            p.moveTo(cx + off - (ny + 2) * step, cy + (ny + 2) * step)
            p.lineTo(cx + off + (ny + 2) * step, cy - (ny + 2) * step)
        c.drawPath(p, stroke=1, fill=0)
    elif back.pattern == "stripes":
        p = c.beginPath()
        for i in range(-nx - ny, nx + ny + 1):
            off = i * step
            p.moveTo(cx + off - (ny + 2) * step, cy - (ny + 2) * step)
            p.lineTo(cx + off + (ny + 2) * step, cy + (ny + 2) * step)
        c.drawPath(p, stroke=1, fill=0)
    elif back.pattern == "grid":
        p = c.beginPath()
        for i in range(-nx, nx + 1):
            p.moveTo(cx + i * step, y0)
            p.lineTo(cx + i * step, y1)
        for j in range(-ny, ny + 1):
            p.moveTo(x0, cy + j * step)
            p.lineTo(x1, cy + j * step)
        c.drawPath(p, stroke=1, fill=0)
    elif back.pattern == "dots":
        for i in range(-nx, nx + 1):
            for j in range(-ny, ny + 1):
                c.circle(cx + i * step, cy + j * step, mm(0.45), stroke=0, fill=1)
    inset = _clamp(0.045 * min(w, h), mm(2.2), mm(3.5)) + mm(0.8)
    c.setStrokeColorRGB(*accent)
    c.setLineWidth(1.0)
    c.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, mm(2.0), stroke=1, fill=0)
    c.setLineWidth(0.4)
    c.roundRect(inset + mm(1.0), inset + mm(1.0), w - 2 * inset - mm(2.0), h - 2 * inset - mm(2.0),
                mm(1.4), stroke=1, fill=0)
    r = min(w, h) * 0.27
    c.setFillColorRGB(*darker(colour, 0.25))
    c.setStrokeColorRGB(*accent)
    c.setLineWidth(1.2)
    c.circle(cx, cy, r, stroke=1, fill=1)
    c.setLineWidth(0.4)
    c.circle(cx, cy, r * 0.88, stroke=1, fill=0)
    if back.icon:
        size = r * 1.15
        draw_icon(c, back.icon, cx - size / 2, cy - size / 2, size, fill=accent,
                  ink=darker(colour, 0.5), line=0.8)
    ink = lighter(accent, 0.25)
    if prepared["title"]:
        font, size = prepared["title"]
        band_h = size * 1.5
        by = cy - r - mm(3) - band_h
        if by < inset + mm(2):
            by = inset + mm(2)
        c.setFillColorRGB(*darker(colour, 0.25))
        tw = text_width(back.title, font, size)
        c.roundRect(cx - tw / 2 - mm(2), by, tw + mm(4), band_h, mm(1), stroke=0, fill=1)
        c.setFillColorRGB(*ink)
        c.setFont(font, size)
        c.drawCentredString(cx, by + (band_h - size * 0.7) / 2, back.title)
    if prepared["sub"]:
        font, size = prepared["sub"]
        c.setFillColorRGB(*ink)
        c.setFont(font, size)
        c.drawCentredString(cx, cy + r + mm(3), back.subtitle)


# ----------------------------------------------------------------------------------------------
# Chits


def prepare_chit_face(face: ChitFace, w: float, h: float, what: str) -> dict:
    colour = rgb(face.colour, what=what)
    ink = rgb(face.text_colour, what=what) if face.text_colour else text_on(colour)
    if face.draw is not None:       # drawn by the game: the label only names it (--reprint)
        return {"face": face, "colour": colour, "ink": ink}
    if face.icon:
        check_icon(face.icon, what)
    value = str(face.value)
    has_label = bool(face.label)
    label_h = h * 0.28 if has_label else 0.0
    value_fit = None
    icon_size = 0.0
    body_h = h - label_h - mm(1.6)
    if value and face.icon:
        icon_size = body_h * 0.55
        value_fit = fit_line(value, w * 0.8, max_size=min(body_h * 0.45, 20), min_size=4.0,
                             what=f"{what} value")
    elif value:
        value_fit = fit_line(value, w * 0.82, max_size=min(body_h * 0.75, 28), min_size=4.0,
                             what=f"{what} value")
    elif face.icon:
        icon_size = min(body_h, w) * 0.78
    label_fit = None
    if has_label:
        label_fit = fit_text(face.label, w - mm(1.6), label_h, max_size=6.5, min_size=3.5,
                             leading=1.05, what=f"{what} label")
    return {"face": face, "colour": colour, "ink": ink, "value": value, "value_fit": value_fit,
            "icon_size": icon_size, "label_fit": label_fit, "label_h": label_h}


def draw_chit_face(c, prep: dict, w: float, h: float, bleed: float) -> None:
    face: ChitFace = prep["face"]
    colour, ink = prep["colour"], prep["ink"]
    c.setFillColorRGB(*colour)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    if face.round:
        c.setStrokeColorRGB(*darker(colour, 0.35))
        c.setLineWidth(0.4)
        c.circle(w / 2, h / 2, min(w, h) / 2 - 0.2, stroke=1, fill=0)
    if face.draw is not None:
        c.saveState()
        c.scale(MM, MM)
        face.draw(Pen(c, w / MM, h / MM, bleed / MM, "chit"), w / MM, h / MM)
        c.restoreState()
        return
    top = h - mm(0.8)
    label_h = prep["label_h"]
    body_bottom = label_h + mm(0.8)
    body_h = top - body_bottom
    size = prep["icon_size"]
    vf = prep["value_fit"]
    if size and vf:
        font, fs = vf
        gap = fs * 0.25
        block = size + gap + fs * 0.74
        y = body_bottom + (body_h - block) / 2
        draw_icon(c, face.icon, w / 2 - size / 2, y + fs * 0.74 + gap, size,
                  ink=darker(colour, 0.6), line=0.5)
        c.setFillColorRGB(*ink)
        c.setFont(font, fs)
        c.drawCentredString(w / 2, y, prep["value"])
    elif vf:
        font, fs = vf
        c.setFillColorRGB(*ink)
        c.setFont(font, fs)
        c.drawCentredString(w / 2, body_bottom + (body_h - fs * 0.72) / 2, prep["value"])
    elif size:
        draw_icon(c, face.icon, w / 2 - size / 2, body_bottom + (body_h - size) / 2, size,
                  ink=darker(colour, 0.6), line=0.5)
    lf = prep["label_fit"]
    if lf is not None:
        draw_fitted(c, lf, mm(0.8), mm(0.6) + label_h - (label_h - lf.height) / 2, align="centre",
                    width=w - mm(1.6), colour=ink)


# ----------------------------------------------------------------------------------------------
# Standees


def prepare_standee(fig: Standee, part: Standees, what: str) -> dict:
    colour = rgb(fig.colour, what=what)
    if fig.icon:
        check_icon(fig.icon, what)
    w, fh = (mm(v) for v in part.figure_size(fig))
    name = fit_line(fig.name, w - mm(2), max_size=9.0, min_size=4.5, what=f"{what} name")
    text = None
    if fig.text:
        text = fit_text(fig.text, w - mm(2), fh * 0.18, max_size=6.0, min_size=3.5, leading=1.05,
                        what=f"{what} text")
    return {"fig": fig, "colour": colour, "name": name, "text": text}


def _standee_panel(c, prep: dict, w: float, fh: float) -> None:
    fig: Standee = prep["fig"]
    colour = prep["colour"]
    c.setFillColorRGB(*lighter(colour, 0.85))
    c.rect(0, 0, w, fh, stroke=0, fill=1)
    if fig.draw is not None:
        c.saveState()
        c.scale(MM, MM)
        fig.draw(Pen(c, w / MM, fh / MM, 0.0, "standee"), w / MM, fh / MM)
        c.restoreState()
        return
    font, fs = prep["name"]
    name_h = fs * 1.4 + mm(1)
    text = prep["text"]
    text_h = text.height + mm(0.8) if text else 0.0
    c.setFillColorRGB(*colour)
    c.rect(0, 0, w, name_h, stroke=0, fill=1)
    c.setFillColorRGB(*text_on(colour))
    c.setFont(font, fs)
    c.drawCentredString(w / 2, (name_h - fs * 0.72) / 2, fig.name)
    if text:
        draw_fitted(c, text, mm(1), name_h + text_h, align="centre", width=w - mm(2),
                    colour=INK)
    if fig.icon:
        avail_h = fh - name_h - text_h - mm(2)
        size = min(avail_h, w - mm(3))
        draw_icon(c, fig.icon, w / 2 - size / 2, name_h + text_h + (avail_h - size) / 2 + mm(1),
                  size, fill=colour, ink=darker(colour, 0.6), line=0.7)


def draw_standee(c, prep: dict, part: Standees, bleed: float) -> None:
    """The strip from the bottom: base tab, front panel, back panel (turned half round, so that
    it stands upright once folded over the top), base tab."""
    w, fh = (mm(v) for v in part.figure_size(prep["fig"]))
    base = mm(part.base_mm)
    total = 2 * fh + 2 * base
    colour = prep["colour"]
    c.setFillColorRGB(*darker(colour, 0.15))
    c.rect(-bleed, -bleed, w + 2 * bleed, total + 2 * bleed, stroke=0, fill=1)
    c.saveState()
    c.translate(0, base)
    _standee_panel(c, prep, w, fh)
    c.restoreState()
    c.saveState()
    c.translate(w, base + 2 * fh)
    c.rotate(180)
    _standee_panel(c, prep, w, fh)
    c.restoreState()
    # tab labels
    c.setFillColorRGB(*text_on(darker(colour, 0.15)))
    c.setFont(fonts.SANS, MIN_PT)  # the smallest text the suite prints (5.5 pt)
    drop = 0.36 * MIN_PT  # about half the height of 'base', centred
    c.drawCentredString(w / 2, base / 2 - drop, "base")
    c.saveState()
    c.translate(w / 2, total - base / 2)
    c.rotate(180)
    c.drawCentredString(0, -drop, "base")
    c.restoreState()
    # fold lines
    c.setStrokeColorRGB(*lighter(INK, 0.55))
    c.setLineWidth(0.5)
    c.setDash([2, 2], 0)
    for y in (base, base + fh, base + 2 * fh):
        c.line(0, y, w, y)
    c.setDash([], 0)


# ----------------------------------------------------------------------------------------------
# Sheet furniture

NOTICE = "Print at 100% (actual size) - do not scale or fit to page"


def draw_sheet_furniture(c, page: PageLayout, label: str) -> None:
    if page.crop_marks:
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.35)
        p = c.beginPath()
        for s in page.crop_marks:
            p.moveTo(s.x0, s.y0)
            p.lineTo(s.x1, s.y1)
        c.drawPath(p, stroke=1, fill=0)
    if page.cut_lines:
        c.setStrokeColorRGB(0.55, 0.55, 0.55)
        c.setLineWidth(0.25)
        p = c.beginPath()
        for s in page.cut_lines:
            p.moveTo(s.x0, s.y0)
            p.lineTo(s.x1, s.y1)
        c.drawPath(p, stroke=1, fill=0)
    if page.fold_lines:
        # white under dark dashes: visible on light and dark backgrounds alike
        c.saveState()
        for colour, width, dash in (((1, 1, 1), 1.4, None), ((0.1, 0.1, 0.1), 0.7, [3, 2])):
            c.setStrokeColorRGB(*colour)
            c.setLineWidth(width)
            c.setDash(dash or [], 0)
            for s in page.fold_lines:
                c.line(s.x0, s.y0, s.x1, s.y1)
        c.restoreState()
    draw_notice(c, page.notice, label)


def draw_notice(c, notice, label: str, right: str = "") -> None:
    """The small print at the bottom of every sheet: the 100% notice and what the page is."""
    size = 5.5
    c.setFillColorRGB(0.35, 0.35, 0.35)
    text = f"{NOTICE}  ·  {label}" if label else NOTICE
    avail = notice.w - (text_width(right, fonts.SANS, size) + mm(3) if right else 0)
    font = fonts.SANS
    while text_width(text, font, size) > avail and size > 4:
        size -= 0.25
    if text_width(text, font, size) > avail:
        font = fonts.CONDENSED
    c.setFont(font, size)
    y = notice.y + (notice.h - size * 0.7) / 2
    c.drawString(notice.x, y, text)
    if right:
        c.setFont(fonts.SANS, 5.5)
        c.drawRightString(notice.x1, y, right)
