"""Kit assembly: plan every page (layouts, fitted texts, page numbers), then draw them into one
PDF with an outline (bookmarks), document metadata, and progress reports.

Planning does all the checking: a text that cannot fit, a character the fonts lack, an unknown
icon or a card too big for the paper raise before the first page is drawn.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from companion.engine.words import counted
from companion.errors import UsageError
from companion.render.printkit.layout import (BoardPlan, PageLayout, SheetPlan, content_area,
                                              layout_items, tile_board)
from companion.render.printkit.model import (Board, CardFace, ChitSheet, Deck, FreePages, Kit,
                                             Note, Part, ReferenceSheet, Standees, Table,
                                             notes_for, part_answers, reprint_parts,
                                             select_parts)
from companion.render.printkit.fit import TextFitError
from companion.render.printkit.options import PrintOptions
from companion.render.printkit.units import MM, Rect, mm

Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: called after each page is drawn."""


@dataclass
class PlannedPage:
    label: str
    draw: Callable[[object], None]
    role: str = "single"
    """'cover', 'front', 'back', 'fold', 'single' or 'blank'."""
    part: Part | None = None
    bookmarks: list[tuple[str, int]] = field(default_factory=list)
    layout: PageLayout | None = None
    alone: bool = False
    """A sheet that is cut up or assembled (one-sided chits, standees, a board's tiles): in the
    duplex modes nothing is printed on its reverse."""
    private: bool = False
    """A sheet one player keeps hidden (``FreePages(sheets='each')``): in the duplex modes it
    has a sheet of its own, as ``alone``."""
    starts_sheet: bool = False
    """In the duplex modes: printed on the front of a new sheet (``FreePages(sheets='own')``)."""
    ends_sheet: bool = False
    """In the duplex modes: the next part starts a new sheet (nothing of it on this one's back)."""


@dataclass
class PartPlan:
    part: Part
    pages: list[PlannedPage]
    sheets: SheetPlan | None = None
    board: BoardPlan | None = None
    backs: str = "none"
    note: str = ""
    checklist: list = field(default_factory=list)
    """A deck's checklist blocks; the checklists of decks that follow each other in a kit are
    flowed together after the last of them (no page holding one short table)."""


@dataclass
class KitPlan:
    kit: Kit
    options: PrintOptions
    parts: list[PartPlan]
    pages: list[PlannedPage]
    forms: "_Forms | None" = None

    def part_plan(self, slug: str) -> PartPlan:
        for p in self.parts:
            if p.part.slug == slug:
                return p
        raise KeyError(slug)


class _Forms:
    """Each distinct design placed more than once is drawn once as a PDF form and placed
    wherever it is needed; a design placed once only (``uses[name] == 1``, counted while
    planning) is drawn in place, clipped to the form's box as a form would be: the same
    picture, without a form object of its own to build, describe and compress (most cards of
    a kit are unique, so this is most of them)."""

    def __init__(self):
        self.defined: set[str] = set()
        self.uses: dict[str, int] = {}

    def count(self, name: str) -> None:
        self.uses[name] = self.uses.get(name, 0) + 1

    def place(self, c, name: str, transform, bbox: Rect, draw: Callable[[object], None]):
        if self.uses.get(name) == 1:
            c.saveState()
            c.transform(*transform)
            p = c.beginPath()
            p.rect(bbox.x, bbox.y, bbox.w, bbox.h)
            c.clipPath(p, stroke=0, fill=0)
            draw(c)
            c.restoreState()
            return
        if name not in self.defined:
            c.beginForm(name, bbox.x, bbox.y, bbox.x1, bbox.y1)
            draw(c)
            c.endForm()
            self.defined.add(name)
        c.saveState()
        c.transform(*transform)
        c.doForm(name)
        c.restoreState()


def _sheet_pages(plan: SheetPlan, part: Part, *, noun: str, forms: _Forms, prefix: str,
                 front_form: Callable[[int], tuple[str, Callable]],
                 back_form: Callable[[int], tuple[str, Callable] | None],
                 w: float, h: float,
                 size_of: Callable[[int], tuple[float, float]] | None = None
                 ) -> list[PlannedPage]:
    """Planned pages of a sheet plan; ``front_form(i)`` / ``back_form(i)`` give the form name and
    drawing function of item i's front and back; every item is w x h points, or
    ``size_of(i)`` when the items differ."""
    pages: list[PlannedPage] = []
    n = len(plan.sheets)
    b = plan.bleed
    bbox = Rect(-b, -b, w + 2 * b, h + 2 * b)

    def box(i: int) -> Rect:
        if size_of is None:
            return bbox
        iw, ih = size_of(i)
        return Rect(-b, -b, iw + 2 * b, ih + 2 * b)

    def page_drawer(layout: PageLayout, label: str):
        def draw(c):
            from companion.render.printkit.draw import draw_sheet_furniture

            for slot in layout.slots:
                spec = front_form(slot.index) if slot.side == "front" else back_form(slot.index)
                if spec is None:
                    continue
                name, fn = spec
                forms.place(c, name, slot.transform, box(slot.index), fn)
            draw_sheet_furniture(c, layout, label)
        return draw

    for sheet in plan.sheets:
        for layout in sheet.pages:
            for slot in layout.slots:
                spec = front_form(slot.index) if slot.side == "front" else back_form(slot.index)
                if spec is not None:
                    forms.count(spec[0])
    for sheet in plan.sheets:
        if sheet.front.role == "fold":
            label = (f"{part.title}: {noun}, sheet {sheet.number} of {n}, fronts and backs - "
                     "fold on the dashed line, glue, then cut")
            pages.append(PlannedPage(label, page_drawer(sheet.front, label), "fold", part,
                                     layout=sheet.front))
            continue
        label = f"{part.title}: {noun}, sheet {sheet.number} of {n}"
        if sheet.back is not None:
            label += ", fronts"
        # only a sheet with backs needs an odd page; one-sided sheets go anywhere
        role = "front" if sheet.back is not None else "single"
        pages.append(PlannedPage(label, page_drawer(sheet.front, label), role, part,
                                 layout=sheet.front, alone=role == "single"))
        if sheet.back is not None:
            flip = "long" if plan.backs == "duplex-long" else "short"
            blabel = (f"{part.title}: {noun}, sheet {sheet.number} of {n}, backs "
                      f"(print double-sided, flip on the {flip} edge)")
            pages.append(PlannedPage(blabel, page_drawer(sheet.back, blabel), "back", part,
                                     layout=sheet.back))
    return pages


def _backs_for(part_two_sided: bool, options: PrintOptions) -> tuple[str, str]:
    if options.backs == "none" and part_two_sided:
        return "fold", ("both sides carry information, so with --backs none they are printed "
                        "side by side to fold and glue.")
    return options.backs, ""


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _prepare_deck(deck: Deck, w: float, h: float, colours, numbers: dict[int, int], n: int):
    """Every standard face and back of a deck fitted to a w x h card (points): the face
    layouts by design, the deck's back, and the cards' own backs.  Faces a game draws itself
    (``draw=``) need no fitting."""
    from companion.render.printkit.draw import prepare_back, prepare_face

    layouts = {i: prepare_face(card, deck, w, h, colours, numbers[i], n)
               for i, card in enumerate(deck.cards) if card.count and card.draw is None}
    back_prep = prepare_back(deck.back, w, h, f"deck '{deck.title}'")
    own_backs: dict[int, tuple[str, object]] = {}
    for i, card in enumerate(deck.cards):
        if card.back is None or not card.count:
            continue
        if isinstance(card.back, CardFace):
            own_backs[i] = ("face", prepare_face(card.back, deck, w, h, colours, numbers[i], n))
        else:
            own_backs[i] = ("back", prepare_back(card.back, w, h,
                                                 f"deck '{deck.title}', card '{card.name}'"))
    return layouts, back_prep, own_backs


def _size_words(w_mm: float, h_mm: float) -> str:
    return f"{w_mm:g} x {h_mm:g} mm"


class _CardTooSmall(Exception):
    """Raised while planning a deck on the ``--card`` size asked for, when its texts do not
    fit; :func:`plan_kit` turns it into a message with the smallest size for every deck."""

    def __init__(self, error: Exception):
        super().__init__(str(error))
        self.error = error


def _deck_works(deck: Deck, w_mm: float, h_mm: float) -> bool:
    """Whether every standard face and back of ``deck`` fits a w x h mm card."""
    from companion.render.printkit.draw import deck_colours

    if deck.min_size is not None:
        from companion.render.printkit.model import _size

        least = _size(deck.min_size, f"deck '{deck.title}' min_size")
        if w_mm < least.width_mm - 1e-9 or h_mm < least.height_mm - 1e-9:
            return False
    numbering = [i for i, card in enumerate(deck.cards) if card.count]
    numbers = {i: k + 1 for k, i in enumerate(numbering)}
    try:
        _prepare_deck(deck, mm(w_mm), mm(h_mm), deck_colours(deck), numbers, len(numbering))
    except TextFitError:
        return False
    return True


def _least_width(deck: Deck, ratio: float, below: float) -> float | None:
    """About the smallest width (whole mm) of a card of height ``ratio`` x width on which
    ``deck`` works, knowing it does not at ``below``; None if it does not work even on a card
    of that shape covering its own size."""
    import math

    own = deck.card_size
    lo, hi = below, max(own.width_mm, own.height_mm / ratio)
    if not _deck_works(deck, hi, hi * ratio):
        return None
    while hi - lo > 0.5:
        mid = (lo + hi) / 2
        if _deck_works(deck, mid, mid * ratio):
            hi = mid
        else:
            lo = mid
    return float(math.ceil(hi - 1e-9))


def _too_small(kit: Kit, parts: list[Part], size, failed: Deck, error: Exception) -> Exception:
    """The error for decks whose texts do not fit the ``--card`` size asked for.  If the
    failing deck's texts fit its own size, the card is too small for the design: the error
    says about how small a card of the same shape may be for every deck of the kit to work.
    Otherwise a text is too long for any card and ``error`` stands."""
    from companion.render.printkit.units import CARD_SIZES

    own = failed.card_size
    if not _deck_works(failed, own.width_mm, own.height_mm):
        return error
    ratio = size.height_mm / size.width_mm
    least = size.width_mm
    for deck in parts:
        if not isinstance(deck, Deck) or not deck.cards:
            continue
        if deck is not failed and _deck_works(deck, least, least * ratio):
            continue
        w = _least_width(deck, ratio, least)
        if w is None:
            least = max(least, own.width_mm)
            ratio = own.height_mm / own.width_mm
            continue
        least = max(least, w)
    import math

    w, h = least, float(math.ceil(least * ratio - 1e-9))
    fits = [f"{name} ({_size_words(s.width_mm, s.height_mm)})" for name, s in
            sorted(CARD_SIZES.items(), key=lambda item: item[1].width_mm * item[1].height_mm)
            if s.width_mm >= w - 1e-9 and s.height_mm >= h - 1e-9]
    return UsageError(
        f"cards of {_size_words(round(size.width_mm, 1), round(size.height_mm, 1))} are too "
        f"small for the {kit.title} cards: the smallest that works is about "
        f"{_size_words(w, h)}",
        hint=f"use --card {w:g}x{h:g} or larger" + (", or " + " or ".join(fits[:2])
                                                     if fits else "")
        + ", or leave --card out for each deck's own size")


def _plan_deck(deck: Deck, options: PrintOptions, forms: _Forms, pi: int,
               numbered_as: Deck | None = None) -> PartPlan:
    """The sheets of a deck; ``numbered_as``: the full deck a reprint comes from (its cards
    keep their numbers)."""
    from companion.render.printkit.draw import deck_colours, draw_back, draw_face

    size = options.card or deck.card_size
    w, h = size.width, size.height
    colours = deck_colours(deck)
    total = deck.total
    for card in deck.cards:
        if int(card.count) != card.count or card.count < 0:
            raise UsageError(f"deck '{deck.title}', card '{card.name}': count must be a whole "
                             f"number >= 0, not {card.count!r}")
    # number the designs by first copy
    designs = [i for i, card in enumerate(deck.cards) if card.count]
    numbering = [i for i, card in enumerate((numbered_as or deck).cards) if card.count]
    numbers = {i: k + 1 for k, i in enumerate(numbering)}
    if options.card is not None and deck.min_size is not None and not _deck_works(
            deck, size.width_mm, size.height_mm):
        raise _CardTooSmall(UsageError(f"deck '{deck.title}': cards of {size.label} are "
                                       "smaller than the design allows"))
    try:
        layouts, back_prep, own_backs = _prepare_deck(deck, w, h, colours, numbers,
                                                      len(numbering))
    except TextFitError as exc:
        if options.card is None:
            raise
        raise _CardTooSmall(exc) from None
    backs, note = _backs_for(deck.two_sided, options)
    plan = layout_items(total, size, options.paper, margin_mm=options.margin_mm,
                        bleed_mm=options.bleed_mm, gap_mm=options.gap_mm, backs=backs,
                        back_offset_mm=options.back_offset_mm, crop_marks=options.crop_marks,
                        cut_lines=options.cut_lines, rotate=options.rotate,
                        what=f"cards of deck '{deck.title}'")
    order = [i for i, _ in deck.expanded()]
    bleed = plan.bleed
    prefix = f"P{pi}"

    def custom(draw_fn, bleed_mm):
        def fn(c):
            from companion.render.printkit.pen import Pen

            c.saveState()
            c.scale(MM, MM)
            draw_fn(Pen(c, w / MM, h / MM, bleed_mm, f"deck '{deck.title}'"), w / MM, h / MM)
            c.restoreState()
        return fn

    def front_form(idx: int):
        d = order[idx]
        card = deck.cards[d]
        if card.draw is not None:
            return f"{prefix}F{d}", custom(card.draw, bleed / MM)
        return f"{prefix}F{d}", lambda c, fl=layouts[d]: draw_face(c, fl, bleed)

    def back_form(idx: int):
        d = order[idx]
        if d in own_backs:
            kind, prep = own_backs[d]
            if kind == "face":
                if prep.face.draw is not None:
                    return f"{prefix}B{d}", custom(prep.face.draw, bleed / MM)
                return f"{prefix}B{d}", lambda c, fl=prep: draw_face(c, fl, bleed)
            if prep["back"].draw is not None:
                return f"{prefix}B{d}", custom(prep["back"].draw, bleed / MM)
            return f"{prefix}B{d}", lambda c, p=prep: draw_back(c, p, w, h, bleed)
        if deck.back.draw is not None:
            return f"{prefix}B", custom(deck.back.draw, bleed / MM)
        return f"{prefix}B", lambda c: draw_back(c, back_prep, w, h, bleed)

    pages = _sheet_pages(plan, deck, noun=f"{size.label} cards", forms=forms, prefix=prefix,
                         front_form=front_form, back_form=back_form, w=w, h=h)
    if pages:
        pages[0].bookmarks.append((deck.title, 0))
        pages[0].bookmarks.append(("Card sheets", 1))
    if deck.checklist and deck.cards:
        rows = [["\u2610", checklist_name(c), " · ".join(x for x in (c.kind, c.subtitle) if x),
                 str(c.count)] for c in deck.cards if c.count]
        table = Table(["", "Card", "Type", "Count"], rows, align=["centre", "left", "left", "right"])
        summary = (f"{total} cards, {len(rows)} different. Tick each card once it is cut. "
                   f"Card size {size.label}.")
        from companion.render.printkit.model import Heading, Paragraph

        checklist = [Heading(deck.title, level=2), Paragraph(summary), table]
    else:
        checklist = []
    return PartPlan(deck, pages, sheets=plan, backs=backs, note=note, checklist=checklist)


def checklist_name(card: CardFace) -> str:
    """A card as its checklist names it: a two-sided card whose back has a name of its own
    is listed by both ('Lady Elaine / Lady Elaine (away)'), or by the back's when it says more
    ('The Thief, version II' for three cards whose face-up sides are all 'The Thief')."""
    back = card.back
    if not isinstance(back, CardFace) or not back.name or back.name == card.name:
        return card.name
    return back.name if back.name.startswith(card.name) else f"{card.name} / {back.name}"


def _add_checklists(plans: list[PartPlan], options: PrintOptions) -> None:
    """The checklists of each run of consecutive decks, flowed as one sheet after the run."""
    run: list[PartPlan] = []
    for plan in plans + [None]:
        if plan is not None and isinstance(plan.part, Deck):
            run.append(plan)
            continue
        lists = [p for p in run if p.checklist]
        if lists:
            title = (f"{lists[0].part.title}: checklist" if len(lists) == 1
                     else "Checklists")
            blocks = [b for p in lists for b in (p.checklist[1:] if len(lists) == 1
                                                 else p.checklist)]
            sheet = ReferenceSheet(title, blocks, columns=2)
            pages = _flow_pages(sheet, options, lists[-1].part)
            if pages:
                pages[0].bookmarks.append(("Checklist" if len(lists) == 1 else title, 1))
            lists[-1].pages += pages
        run = []


def _plan_chits(part: ChitSheet, options: PrintOptions, forms: _Forms, pi: int) -> PartPlan:
    from companion.render.printkit.draw import draw_chit_face, prepare_chit_face

    size = part.chit_size
    w, h = size.width, size.height
    preps = {}
    for i, chit in enumerate(part.chits):
        what = f"chits '{part.title}', chit {i + 1}"
        if int(chit.count) != chit.count or chit.count < 0:
            raise UsageError(f"{what}: count must be a whole number >= 0")
        if chit.count:
            preps[(i, "f")] = prepare_chit_face(chit.front, w, h, what + " front")
            if chit.back is not None:
                preps[(i, "b")] = prepare_chit_face(chit.back, w, h, what + " back")
    backs, note = _backs_for(part.two_sided, options)
    if backs != "none" and not part.two_sided:
        backs, note = "none", "one-sided chits: printed without backs."
    bleed_mm = min(options.bleed_mm, 1.0) if part.bleed_mm is None else part.bleed_mm
    plan = layout_items(sum(int(c.count) for c in part.chits), size, options.paper,
                        margin_mm=options.margin_mm, bleed_mm=bleed_mm,
                        gap_mm=part.gap_mm, backs=backs, back_offset_mm=options.back_offset_mm,
                        crop_marks=options.crop_marks, cut_lines=options.cut_lines,
                        rotate=False, what=f"chits '{part.title}'")
    order = [i for i, _ in part.expanded()]
    bleed = plan.bleed
    prefix = f"P{pi}"

    def front_form(idx):
        d = order[idx]
        return f"{prefix}F{d}", lambda c, p=preps[(d, 'f')]: draw_chit_face(c, p, w, h, bleed)

    def back_form(idx):
        d = order[idx]
        if (d, "b") not in preps:
            return None
        return f"{prefix}B{d}", lambda c, p=preps[(d, 'b')]: draw_chit_face(c, p, w, h, bleed)

    pages = _sheet_pages(plan, part, noun=f"{size.label} chits", forms=forms, prefix=prefix,
                         front_form=front_form, back_form=back_form, w=w, h=h)
    if pages:
        pages[0].bookmarks.append((part.title, 0))
    return PartPlan(part, pages, sheets=plan, backs=backs, note=note)


def _plan_standees(part: Standees, options: PrintOptions, forms: _Forms, pi: int) -> PartPlan:
    """The strips of a part's standees; figures of several sizes (``Standee(width_mm=...,
    figure_mm=...)``) share a page when they fit, each size in rows of its own."""
    from companion.render.printkit.draw import draw_standee, prepare_standee
    from companion.render.printkit.layout import layout_groups

    preps = {i: prepare_standee(f, part, f"standees '{part.title}', '{f.name}'")
             for i, f in enumerate(part.figures) if f.count}
    # the figures by strip size, sizes in the order they first come
    groups: dict[tuple[float, float], list[int]] = {}
    for i, f in part.expanded():
        s = part.strip_of(f)
        groups.setdefault((s.width_mm, s.height_mm), []).append(i)
    order = [i for ids in groups.values() for i in ids]
    sizes = {k: part.strip_of(part.figures[ids[0]]) for k, ids in groups.items()}
    plan = layout_groups([(sizes[k], len(ids)) for k, ids in groups.items()], options.paper,
                         margin_mm=options.margin_mm, bleed_mm=options.bleed_mm,
                         gap_mm=max(options.gap_mm, 2.0), crop_marks=options.crop_marks,
                         cut_lines=options.cut_lines, rotate=options.rotate,
                         what=f"standees '{part.title}'")
    bleed = plan.bleed
    prefix = f"P{pi}"

    def front_form(idx):
        d = order[idx]
        return f"{prefix}S{d}", lambda c, p=preps[d]: draw_standee(c, p, part, bleed)

    def size_of(idx):
        s = part.strip_of(part.figures[order[idx]])
        return s.width, s.height

    size = part.strip_size
    pages = _sheet_pages(plan, part, noun="fold-over standees (fold on the dashed lines)",
                         forms=forms, prefix=prefix, front_form=front_form,
                         back_form=lambda i: None, w=size.width, h=size.height,
                         size_of=size_of)
    if pages:
        pages[0].bookmarks.append((part.title, 0))
    return PartPlan(part, pages, sheets=plan, backs="none")


def _plan_board(part: Board, options: PrintOptions, forms: _Forms, pi: int) -> PartPlan:
    from companion.render.printkit.boards import board_pages

    if part.draw is None:
        raise UsageError(f"board '{part.title}' has no drawing")
    bp = tile_board(part.width_mm, part.height_mm, options.paper, margin_mm=options.margin_mm,
                    overlap_mm=part.overlap_mm, rotate=options.rotate)
    # a board on several pages (tiles and the overview) is drawn once, as a form placed on each
    board_forms = forms if len(bp.tiles) > 1 else None
    # a tile is cut and glued to its neighbours: it needs a sheet of its own (the overview not)
    pages = [PlannedPage(label, fn, "single", part, bookmarks=marks,
                         alone=not label.endswith(": assembly"))
             for label, fn, marks in board_pages(part, bp, board_forms, f"P{pi}M")]
    if pages:
        pages[0].bookmarks.insert(0, (part.title, 0))
    return PartPlan(part, pages, board=bp)


def _flow_pages(sheet: ReferenceSheet, options: PrintOptions, owner: Part) -> list[PlannedPage]:
    from companion.render import fonts
    from companion.render.printkit.draw import draw_notice
    from companion.render.printkit.fit import check_glyphs
    from companion.render.printkit.flow import flow

    safe, notice, area = content_area(options.paper, options.margin_mm)
    check_glyphs(sheet.title, f"'{sheet.title}' title")
    title_h = mm(11)
    cont_h = mm(7)
    fpages, ncols = flow(list(sheet.blocks), area, size=sheet.font_pt, columns=sheet.columns,
                         first_top=title_h, later_top=cont_h, what=f"'{sheet.title}'")
    out = []
    n = len(fpages)
    for k, fp in enumerate(fpages):
        label = f"{sheet.title}, page {k + 1} of {n}"

        def draw(c, fp=fp, k=k, label=label):
            c.setFillColorRGB(0.18, 0.24, 0.36)
            if k == 0:
                c.setFont(fonts.SANS_BOLD, 15)
                c.drawString(area.x, area.y1 - 15, sheet.title)
                c.setStrokeColorRGB(0.18, 0.24, 0.36)
                c.setLineWidth(1.2)
                c.line(area.x, area.y1 - mm(7.8), area.x1, area.y1 - mm(7.8))
            else:
                c.setFont(fonts.SANS_BOLD, 9)
                c.drawString(area.x, area.y1 - 9, f"{sheet.title} (continued)")
            for op in fp.ops:
                op(c)
            draw_notice(c, notice, label)
        out.append(PlannedPage(label, draw, "single", owner))
    return out


def _plan_reference(part: ReferenceSheet, options: PrintOptions) -> PartPlan:
    pages = _flow_pages(part, options, part)
    if pages:
        pages[0].bookmarks.append((part.title, 0))
    return PartPlan(part, pages)


def _plan_free(part: FreePages, options: PrintOptions, forms: _Forms, pi: int) -> PartPlan:
    from companion.render.printkit.draw import draw_notice
    from companion.render.printkit.pen import Pen

    if part.draw is None:
        raise UsageError(f"pages '{part.title}' have no drawing")
    safe, notice, area = content_area(options.paper, options.margin_mm)
    pages = []
    if part.same_pages and int(part.count) > 1:
        # one drawing for every page: drawn once as a form, placed on each page
        name = f"P{pi}S"

        def art(c):
            c.saveState()
            c.scale(MM, MM)
            part.draw(Pen(c, area.w / MM, area.h / MM, 0.0, f"pages '{part.title}'"),
                      area.w / MM, area.h / MM, 0)
            c.restoreState()

        for k in range(int(part.count)):
            label = f"{part.title}, page {k + 1} of {part.count}"
            forms.count(name)

            def draw(c, label=label):
                forms.place(c, name, (1.0, 0.0, 0.0, 1.0, area.x, area.y),
                            Rect(0.0, 0.0, area.w, area.h), art)
                draw_notice(c, notice, label)
            pages.append(PlannedPage(label, draw, "single", part))
        pages[0].bookmarks.append((part.title, 0))
        return PartPlan(part, _sheets_of(part, pages))
    for k in range(int(part.count)):
        label = f"{part.title}, page {k + 1} of {part.count}"

        def draw(c, k=k, label=label):
            c.saveState()
            c.translate(area.x, area.y)
            p = c.beginPath()
            p.rect(0, 0, area.w, area.h)
            c.clipPath(p, stroke=0, fill=0)
            c.scale(MM, MM)
            part.draw(Pen(c, area.w / MM, area.h / MM, 0.0, f"pages '{part.title}'"),
                      area.w / MM, area.h / MM, k)
            c.restoreState()
            draw_notice(c, notice, label)
        pages.append(PlannedPage(label, draw, "single", part))
    if pages:
        pages[0].bookmarks.append((part.title, 0))
    return PartPlan(part, _sheets_of(part, pages))


FREE_SHEETS = ("follow", "own", "each")


def _sheets_of(part: FreePages, pages: list[PlannedPage]) -> list[PlannedPage]:
    """Mark ``pages`` for the duplex sequence as ``part.sheets`` says."""
    if part.sheets not in FREE_SHEETS:
        raise UsageError(f"pages '{part.title}': sheets='{part.sheets}' is not known",
                         hint="one of " + ", ".join(FREE_SHEETS))
    if pages and part.sheets == "own":
        pages[0].starts_sheet = True
        pages[-1].ends_sheet = True
    for page in pages:
        page.private = part.sheets == "each"
    return pages


def _blank_page(options: PrintOptions, why: str = "") -> PlannedPage:
    from companion.render.printkit.draw import draw_notice

    safe, notice, area = content_area(options.paper, options.margin_mm)
    why = why or "so that every sheet of fronts is printed with its backs on the reverse"

    def draw(c):
        draw_notice(c, notice, f"left blank {why}")
    return PlannedPage("blank", draw, "blank")


def plan_kit(kit: Kit, options: PrintOptions) -> KitPlan:
    """Lay out and check the whole kit without drawing it."""
    from companion.render.fonts import register_fonts
    from companion.render.printkit import fit, flow

    register_fonts()
    fit.reset_caches()
    flow.reset_caches()
    parts = select_parts(kit, options.only)
    numbered: dict[int, Part] = {}
    if options.reprint:
        parts, numbered = reprint_parts(kit, parts, options.reprint)
    slugs = [p.slug for p in kit.parts]
    dupes = sorted({s for s in slugs if slugs.count(s) > 1})
    if dupes:
        raise UsageError(f"kit '{kit.title}': several parts are named {', '.join(dupes)}",
                         hint="give each part its own title or name")
    for note in kit.notes:
        if isinstance(note, Note) and not any(part_answers(p, w) for p in kit.parts
                                              for w in note.parts):
            raise UsageError(f"kit '{kit.title}': the note '{note.text[:40]}...' is about parts "
                             f"{', '.join(note.parts) or '(none)'}, which the kit does not have",
                             hint="name part kinds ('cards', 'board') or part names in "
                                  "Note(parts=...)")
    forms = _Forms()
    plans: list[PartPlan] = []
    for pi, part in enumerate(parts):
        if isinstance(part, Deck):
            try:
                plans.append(_plan_deck(part, options, forms, pi, numbered.get(id(part))))
            except _CardTooSmall as exc:
                raise _too_small(kit, list(parts), options.card, numbered.get(id(part), part),
                                 exc.error) from None
        elif isinstance(part, ChitSheet):
            plans.append(_plan_chits(part, options, forms, pi))
        elif isinstance(part, Standees):
            plans.append(_plan_standees(part, options, forms, pi))
        elif isinstance(part, Board):
            plans.append(_plan_board(part, options, forms, pi))
        elif isinstance(part, ReferenceSheet):
            plans.append(_plan_reference(part, options))
        elif isinstance(part, FreePages):
            plans.append(_plan_free(part, options, forms, pi))
        else:
            raise TypeError(f"unknown part type {type(part).__name__}")
    _add_checklists(plans, options)
    duplex = options.backs in ("duplex-long", "duplex-short")

    def sequence(cover_pages: list[PlannedPage]) -> list[PlannedPage]:
        """Duplex: each sheet of fronts on an odd page with its backs behind it, and a sheet
        that is cut up or assembled on a sheet of its own (not behind another page, nothing
        behind it): a map tile on the back of another could not be glued to it."""
        out = list(cover_pages)
        for pp in plans:
            for page in pp.pages:
                what = "kept by one player" if page.private else "cut up or assembled"
                if (duplex and (page.role == "front" or page.alone or page.private
                                or page.starts_sheet) and len(out) % 2 == 1):
                    out.append(_blank_page(
                        options, "" if page.role == "front" else
                        f"so that '{pp.part.title}' starts a sheet of its own"
                        if page.starts_sheet else
                        f"so that the next page, {what}, has a sheet of its own"))
                out.append(page)
                if duplex and (page.alone or page.private):
                    out.append(_blank_page(options, f"behind a sheet {what}"))
                elif duplex and page.ends_sheet and len(out) % 2 == 1:
                    out.append(_blank_page(options, f"behind the last page of "
                                                    f"'{pp.part.title}'"))
        while duplex and out[-1].role == "blank":
            out.pop()
        return out

    # the cover lists page numbers, which depend on the cover's own length (one page)
    placeholder = PlannedPage("cover", lambda c: None, "cover")
    pages = sequence([placeholder])
    starts = {}
    for idx, page in enumerate(pages):
        if page.part is not None and id(page.part) not in starts:
            starts[id(page.part)] = idx + 1
    cover = _cover_page(kit, options, plans, starts, len(pages))
    pages[0] = cover
    return KitPlan(kit, options, plans, pages, forms)


def _cover_page(kit: Kit, options: PrintOptions, plans: list[PartPlan], starts: dict,
                total: int) -> PlannedPage:
    from companion.render import fonts
    from companion.render.printkit.draw import draw_notice
    from companion.render.printkit.fit import check_glyphs, draw_fitted, fit_text
    from companion.render.printkit.flow import flow
    from companion.render.printkit.model import Bullets, Heading

    safe, notice, area = content_area(options.paper, options.margin_mm)
    check_glyphs(kit.title, "kit title")
    rows = []
    for pp in plans:
        part = pp.part
        what = {
            "cards": lambda: (f"{counted(pp.part.total, 'card')}, "
                              f"{counted(len(pp.sheets.sheets), 'sheet')} of "
                              f"{pp.sheets.per_sheet}"),
            "chits": lambda: (f"{counted(pp.sheets.count, 'chit')}, "
                              f"{counted(len(pp.sheets.sheets), 'sheet')}"),
            "standees": lambda: counted(pp.sheets.count, "standee"),
            # every page the board takes: its tiles and the assembly overview
            "board": lambda: (f"{pp.part.width_mm:g} x {pp.part.height_mm:g} mm on "
                              f"{counted(len(pp.pages), 'page')}"
                              + (" with the assembly overview"
                                 if any(p.label.endswith(": assembly") for p in pp.pages)
                                 else "")),
        }.get(part.kind, lambda: counted(len(pp.pages), "page"))()
        rows.append([part.title, what, str(starts.get(id(part), ""))])
    duplex = options.backs in ("duplex-long", "duplex-short")
    # decks printed without their backs (--backs none): the cover says so, and how to get them
    unbacked = [pp.part.title for pp in plans
                if isinstance(pp.part, Deck) and pp.backs == "none" and pp.sheets.sheets]
    folded = any(pp.backs == "fold" for pp in plans)
    tips = [
        "Print at **100% / actual size**: switch off 'fit to page' and any scaling. The 100 mm "
        "rulers of 'companion print calibrate' check this.",
    ]
    if duplex:
        edge = "long" if options.backs == "duplex-long" else "short"
        alone = any(page.alone for pp in plans for page in pp.pages)
        private = [pp.part.title for pp in plans if any(page.private for page in pp.pages)]
        empty = (["every sheet to cut up or assemble (chits, standees, board tiles)"]
                 if alone else []) + ([f"every sheet a player keeps ({_and(private)})"]
                                      if private else [])
        tips.append(f"Print **double-sided, flipping on the {edge} edge**. Each sheet of fronts is "
                    "followed by its backs; blank pages keep them paired"
                    + (", and leave the back of " + " and of ".join(empty) + " empty"
                       if empty else "")
                    + ". If the backs land shifted, print 'companion print calibrate' and use "
                    "the --back-offset it gives.")
    elif options.backs == "fold":
        tips.append("Fronts and backs are side by side: cut out each pair, fold on the dashed "
                    "line, glue, then cut along the crop marks.")
    else:
        tips.append("Single-sided printing." + (" Parts whose backs carry information are "
                                                "printed side by side for folding (see the "
                                                "dashed fold lines)." if folded else ""))
        if unbacked:
            tips.append(f"**Card backs are not printed** (--backs none): the backs of "
                        f"{_and(unbacked)}. Use --backs duplex-long, duplex-short or fold to "
                        "print them.")
    tips.append("Cut along the lines the crop marks extend (a ruler and a craft knife or a "
                "paper trimmer work best). Card sheets with bleed have extra background around "
                "each card, so a slightly missed cut does not show white.")
    # a reprint holds a few pieces: the kit's own notes (how many decks, what to print twice)
    # are about the whole kit, so it says what it holds instead
    # and a note about some parts only (a Note) is left out when they are not printed (--only)
    kit_notes = notes_for(kit, [pp.part for pp in plans]) if not options.reprint else [
        "A reprint of single pieces, to replace lost or worn ones: each keeps its number and "
        "back, so it mixes with the pieces of the whole kit."]
    notes = kit_notes + [f"{pp.part.title}: {pp.note}" for pp in plans if pp.note]
    blocks = [Heading("Contents"),
              Table(["Part", "What", "Page"], rows, align=["left", "left", "right"]),
              Heading("How to print"), Bullets(tips)]
    if notes:
        blocks += [Heading("Notes"), Bullets(notes)]
    fpages, _ = flow(blocks, area, size=9.0, columns=1, first_top=mm(26), later_top=mm(26),
                     what="cover")
    if len(fpages) > 1:
        raise UsageError("the kit's cover does not fit one page", hint="shorten the kit notes")
    settings = options.describe()

    def draw(c):
        c.setFillColorRGB(0.18, 0.24, 0.36)
        title_fit = fit_text(kit.title, area.w, mm(12), max_size=22, min_size=10,
                             style="b", what="kit title")
        draw_fitted(c, title_fit, area.x, area.y1)
        c.setFont(fonts.SANS, 9)
        c.setFillColorRGB(0.3, 0.3, 0.3)
        sub = f"Print-and-play kit · {settings}"
        from companion.render.printkit.fit import text_width

        size = 9.0
        while text_width(sub, fonts.SANS, size) > area.w and size > 5:
            size -= 0.25
        c.setFont(fonts.SANS, size)
        c.drawString(area.x, area.y1 - mm(18), sub)
        for op in fpages[0].ops:
            op(c)
        draw_notice(c, notice, kit.title, f"{total} pages")
    return PlannedPage("cover", draw, "cover", None, bookmarks=[("Contents and printing", 0)])


def build_kit(kit: Kit, options: PrintOptions, progress: Progress | None = None) -> bytes:
    """The kit as PDF bytes.  Same kit and options give byte-identical output."""
    import gc

    # a build makes hundreds of thousands of small objects and keeps most of them to the end:
    # the cyclic collector would walk them again and again for nothing (7 to 14% of the time)
    enabled = gc.isenabled()
    gc.disable()
    try:
        plan = plan_kit(kit, options)
        return render_plan(plan, progress)
    finally:
        if enabled:
            gc.enable()


def render_plan(plan: KitPlan, progress: Progress | None = None) -> bytes:
    """Draw a planned kit into PDF bytes."""
    from companion.render.printkit.pdfcanvas import fast_pdfdoc_encoding, kit_streams

    with kit_streams(), fast_pdfdoc_encoding():
        return _render_plan(plan, progress)


def subject(kit: Kit, options: PrintOptions) -> str:
    """The PDF subject: what the kit holds (the kit's own words) and the settings it was
    printed with."""
    what = kit.subject or "Print-and-play kit"
    return f"{what}; {options.describe()}"


def _render_plan(plan: KitPlan, progress: Progress | None) -> bytes:
    from companion.render.printkit.pdfcanvas import new_canvas

    kit, options = plan.kit, plan.options
    if plan.forms is not None:
        plan.forms.defined.clear()
    buf = io.BytesIO()
    c = new_canvas(buf, options.paper, title=kit.title,
                   subject=subject(kit, options),
                   keywords=["print-and-play", kit.game, options.paper.name, options.backs])
    total = len(plan.pages)
    counter = 0
    for n, page in enumerate(plan.pages, start=1):
        for title, level in page.bookmarks:
            counter += 1
            key = f"b{counter}"
            c.bookmarkPage(key)
            c.addOutlineEntry(title, key, level=level, closed=False)
        page.draw(c)
        c.showPage()
        if progress is not None:
            progress(n, total, page.label)
    c.showOutline()
    c.save()
    return buf.getvalue()


def kit_file(kit: Kit, options: PrintOptions, path: str | Path | None = None) -> Path:
    """Where :func:`write_kit` writes: ``path``, else ``options.out``, else
    ``<game>-kit.pdf`` (``<game>-reprint.pdf`` for a reprint); a folder that exists gets that
    file name inside it."""
    name = f"{kit.game}-reprint.pdf" if options.reprint else f"{kit.game}-kit.pdf"
    target = Path(path) if path is not None else options.out or Path(name)
    if target.is_dir():
        target = target / name
    return target


def write_kit(kit: Kit, options: PrintOptions, path: str | Path | None = None,
              progress: Progress | None = None) -> Path:
    """Build the kit and write it to :func:`kit_file` (``path``, else ``options.out``, else
    ``<game>-kit.pdf``; into it if it is a folder); returns the path written.  The file is
    written beside the target and renamed, so a failed write never leaves half a PDF; a
    failure says what could not be written and why."""
    target = kit_file(kit, options, path)
    data = build_kit(kit, options, progress)
    tmp = target.with_name(target.name + ".part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        tmp.replace(target)
    except OSError as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise _write_failure(target, exc) from None
    return target


def _write_failure(target: Path, exc: OSError):
    import errno

    from companion.errors import CompanionError

    reason = {errno.ENOSPC: "the disk is full", errno.EROFS: "the file system is read-only",
              errno.EACCES: "permission denied", errno.EPERM: "permission denied",
              errno.EISDIR: "a folder of that name is in the way",
              errno.ENOTDIR: "a part of the path is a file, not a folder",
              errno.EEXIST: "a part of the path is a file, not a folder",
              }.get(exc.errno, exc.strerror or str(exc))
    return CompanionError(f"cannot write the kit to {target}: {reason}",
                          hint="give --out a file name (such as kit.pdf) in a folder you can "
                               "write to, or a folder to write the kit's usual file name into")
