"""What a Knights of Camelot player reads in his report (companion/koc/views.py): the final
report of a finished game, and journal rows that combine several entries."""
from __future__ import annotations

import copy

from companion.koc.kind import KIND
from companion.render.report_text import render_text
from tests.koc.kocplay import play_states

ENVELOPE = {"game_id": "g", "turn": 9, "date": "2027-01-01 00:00 UTC", "link": None,
            "link_label": "your private link"}


def report(state: dict, viewer: str) -> dict:
    view = KIND.view(state, viewer)
    view["envelope"] = dict(ENVELOPE)
    return KIND.report(view)


def finished() -> dict:
    """A two-knight game ended by its scenario's last game turn (the third)."""
    from companion.koc import scenarios

    terms = dict(scenarios.builtin("basic"), turn_limit=3, knaves=False)
    states = list(play_states(11, 2, 10, {"scenario": terms}))
    assert states[-1]["koc"]["over"]
    return states[-1]


def test_a_finished_game_says_so_and_asks_for_no_orders():
    """The last report: the game turn is the last one (not "the next"), the winner is named
    once when his knight bears his name ("Anna", not "Anna (Anna)"), and no order form with
    its hundred questions follows "no more orders are taken"."""
    state = finished()
    winner = state["koc"]["winner"]
    for viewer in state["koc"]["order"]:
        doc = report(state, viewer)
        header = dict(doc["header"])
        assert header["Game turn"] == "3 (the last)", header
        titles = [s["title"] for s in doc["sections"]]
        assert "Order form" not in titles and "What you can order now" not in titles, titles
        text = render_text(doc)
        assert "no more orders are taken" in text
        assert f"{winner} ({winner})" not in text.split("What happened")[0], text
        assert f"{winner} wins: stands best when time runs out" in text
        from companion.koc.journal import journal_data

        view = KIND.view(state, viewer)
        view["envelope"] = dict(ENVELOPE)
        assert journal_data(view)["turn_text"] == "3 (the last)"    # his journal says so too


def test_a_knight_with_a_name_of_his_own_is_shown_with_his_player():
    from companion.koc.engine.words import knight_and_player

    assert knight_and_player(None, "Sir Kay", "Anna") == "Sir Kay (Anna)"
    assert knight_and_player(None, "Anna", "Anna") == "Anna"


def test_the_journal_shows_the_lords_summonses_and_an_enchantress_alone():
    """'Lord' kept the unanswered summonses only for a knight with no Lord (who cannot have
    any); 'Enchantments' began with '; ' for a knight in an enchantress's service and under no
    enchantment."""
    state = copy.deepcopy(next(play_states(11, 2, 0)))
    anna = state["koc"]["order"][0]
    rec = state["knights"][anna]
    assert rec["lord"], "a knight of the basic scenario starts with a Lord"
    rec["lord_summons"] = 2
    rec["enchantments"] = []
    rec["enchantress"] = "Morgan le Fay"
    rows = {r[0]: r[1] for s in report(state, anna)["sections"] if s["title"] ==
            "Your Adventure Journal" for r in s["blocks"][0]["rows"]}
    assert rows["Lord"] == f"{rec['lord']['name']} (summoned 2x)", rows["Lord"]
    assert rows["Enchantments"] == "in the service of Morgan le Fay", rows["Enchantments"]
