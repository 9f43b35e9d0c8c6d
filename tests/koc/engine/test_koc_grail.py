"""The Quest of the Holy Grail and the Campaign game: a casebook (rules: SCENARIOS, Quest of
the Holy Grail, Campaign Game; King Arthur; PLAYER INTERACTION, challenging a PK; Prophecies;
enchantment into Animal form). Records and decisions: docs/koc-engine.md, "Quest of the Holy
Grail and Campaign: records and decisions". Dice are explicit; the Luck-of-the-Day is 4 unless
a case plays a whole turn.

In the grail scenario a knight of 100 CP and 25 VP has VL 4: his tests to see and to grasp
the Grail (VL+1) succeed on 5 or 6; the bearer's turn-start test (VL) on 4 or more. The Random
Kingdom chart places the Grail: 2d6, with a second die on 6, 7, 8 and 12."""
from __future__ import annotations

from kocpos import pos

from companion.koc.engine import combat as cb
from companion.koc.engine import grail
from companion.koc.engine import knight as kn
from companion.koc.engine import requests as rq
from companion.koc.engine import resolutions as rs
from companion.koc.engine import rivals
from companion.koc.engine.encounters import friendly_castle
from companion.koc.position import read_position, write_position

QUESTER = "cp = 100\nvp = 25\narthurian = true\nluck = 4\n"   # VL 4
UNWORTHY = "cp = 60\nvp = 10\narthurian = true\nluck = 4\n"   # VL 6
SURLUISE = [1, 1]                 # Random Kingdom 2: Surluise (Orgulous)
LISTENOISE = [5, 5]               # 10: Listenoise (Carbonek)
JAGENT = [3, 4, 1]                # 7, then 1: Logres, Jagent castellany
BENWICK = [6, 6, 1]               # 12, then 1: Benwick (Trebes)


def gpos(scenario="grail", at="Carbonek", where="inside", anna="", extra="", others=None,
         lord="King Arthur", cp=100, vp=25):
    return f'scenario = "{scenario}"\n' + pos(at=at, where=where, anna=anna, extra=extra,
                                              others=others, lord=lord, cp=cp, vp=vp)


def anna(more: str = "") -> str:
    """Anna's fields besides cp/vp: an Arthurian knight with luck 4."""
    return "arthurian = true\nluck = 4\n" + more


def grail_at(castle: str) -> str:
    return f'[grail]\ncastle = "{castle}"\n'


def requests_turn(t, player="Anna"):
    """The prayers & requests phase and the Grail's end of it, as a player turn plays them."""
    s = t.session(player)
    rq.requests_phase(s)
    grail.after_requests([s])
    return s


# ------------------------------------------------------------------------------ the record
def test_g01_grail_starts_at_carbonek_and_round_trips_in_the_position(table):
    """Quest of the Holy Grail: the Grail begins in the castle/shrine of Carbonek. Its record
    (castle, bearer, Campaign permission) is written as [grail] and read back; a knight's
    progress ('quest') and his bearing it ('grail') travel with his record."""
    t = table(gpos(anna=anna()))
    assert grail.peek(t.state) == {"castle": "Carbonek", "bearer": None, "permission": False,
                                   "seen_turn": 0}
    assert "grail" not in t.state            # nothing written until the Quest needs it
    t2 = table(gpos(anna=anna(more='quest = {carbonek = true}'),
                    extra='[grail]\nbearer = "Anna"\n'))
    assert grail.bearer(t2.state) == "Anna" and t2.knight()["grail"] is True
    assert t2.state["grail"]["castle"] is None
    text = write_position(t2.world, t2.state)
    assert '[grail]\nbearer = "Anna"' in text
    back = read_position(t2.world, text, "back.toml")
    assert back["grail"] == t2.state["grail"] and back["knights"]["Anna"]["quest"] == \
        {"carbonek": True}
    fields_only = text.rpartition("\n[engine]\n")[0] + "\n"
    again = read_position(t2.world, fields_only, "fields.toml")
    assert again["grail"]["bearer"] == "Anna" and again["knights"]["Anna"]["grail"] is True


def test_g01b_a_bad_grail_table_is_refused_where_it_stands(table):
    """A [grail] naming nobody at the table, or both a castle and a bearer, is refused."""
    import pytest

    from companion.errors import DataError, DataErrors

    with pytest.raises((DataError, DataErrors)) as err:
        table(gpos(anna=anna(), extra='[grail]\nbearer = "Zed"\n'))
    assert "grail.bearer 'Zed' is not a player" in str(err.value.errors[0].message
                                                       if hasattr(err.value, "errors")
                                                       else err.value)


def test_g02_carbonek_is_always_friendly_on_the_quest(table):
    """Carbonek Castle always reacts friendly to knights on the Quest (even one outlawed from
    it); in a Round Table scenario it is an ordinary castle."""
    t = table(gpos(at="Listenoise", where=None, anna=anna(more='outlawed = ["Carbonek"]')))
    assert friendly_castle(t.session(), "Carbonek")
    t2 = table(gpos(scenario="basic", at="Listenoise", where=None, anna=anna()))
    assert not friendly_castle(t2.session(), "Carbonek")


# ------------------------------------------------------------------------------ seeking
def test_g03_leave_to_see_then_see_and_grasp_at_carbonek(table):
    """Seeking: a friendly castle, a Request of its King for leave to see the Grail (meeting
    the owner: Luck Test; granting: Luck Test), then in the same phase a VL test of VL+1 to
    see it and another to grasp it. The bearer is announced to every player, from rules
    edition 7 by his name once when it is his player's (words.NAME_ONCE); a game of edition 6
    keeps "Anna (Anna) grasps ...", for its replay."""
    for ed in (7, 6):
        t = table(gpos(anna=anna()), dice=[6, 5, 5, 6], orders={"Anna": "request grail of king"})
        t.state["edition"] = ed
        requests_turn(t)
        assert t.saw("King Pellam gives Anna leave to see the Holy Grail")
        assert t.saw("VL test of Anna (see the Holy Grail (VL+1)): rolled 5 against VL 5: "
                     "success")
        assert t.saw(("Anna" if ed >= 7 else "Anna (Anna)")
                     + " grasps the Holy Grail in Carbonek and bears it away.")
        assert grail.bearer(t.state) == "Anna" and t.knight()["grail"] is True
        assert t.state["grail"]["castle"] is None and t.knight()["quest"]["carbonek"] is True
    public = [e for e in t.ctx.events if "grasps the Holy Grail" in e["text"]]
    assert public and public[0]["to"] == "public"
    assert t.unused_dice == []


def test_g03b_grasping_can_fail_and_the_sight_is_kept(table):
    """Seen but not grasped: he is unworthy to carry it now; the Grail stays (it was seen),
    and next turn, still with leave, he tries to grasp it without seeing it again."""
    t = table(gpos(anna=anna(more='quest = {carbonek = true, permission = "Carbonek"}')),
              dice=[6, 2])
    s = t.session()
    grail.after_requests([s])
    assert t.saw("Anna sees the Holy Grail") and t.saw("found unworthy to carry the Holy Grail")
    assert t.state["grail"]["castle"] == "Carbonek"
    assert t.knight()["quest"]["seen"] == "Carbonek"
    t.state["koc"]["turn"] = 2
    t2 = table(write_position(t.world, t.state), dice=[5])
    grail.after_requests([t2.session()])
    assert grail.bearer(t2.state) == "Anna" and t2.unused_dice == []


def test_g04_carbonek_first_even_when_the_grail_has_left(table):
    """With no bearer, a knight first travels to Carbonek even if the Grail is gone: at the
    Grail's castle his request is refused until he has been there; having been there, he may
    ask (and need not follow every place the Grail has been)."""
    t = table(gpos(at="Tintagel", anna=anna(), extra=grail_at("Tintagel")),
              orders={"Anna": "request grail of king"})
    requests_turn(t)
    assert t.saw("must first go to Carbonek") and t.unused_dice == []
    assert "permission" not in t.knight().get("quest", {})
    t2 = table(gpos(at="Tintagel", anna=anna(more="quest = {carbonek = true}"),
                    extra=grail_at("Tintagel")),
               dice=[6, 6, 5, 1], orders={"Anna": "request grail of king"})
    requests_turn(t2)
    assert t2.saw("King Mark gives Anna leave to see the Holy Grail")
    assert t2.knight()["quest"]["permission"] == "Tintagel"


def test_g04b_arriving_at_carbonek_marks_it_and_tells_where_the_grail_is(table):
    """Inside Carbonek a knight on the Quest has made his first journey; the Grail elsewhere,
    he learns where it rests."""
    t = table(gpos(anna=anna(), extra=grail_at("Tintagel")))
    grail.after_requests([t.session()])
    assert t.knight()["quest"] == {"carbonek": True}
    assert t.saw("learns that the Grail now rests in Tintagel")


def test_g04c_without_orders_he_heads_for_carbonek_then_the_grail_then_the_bearer(table):
    """Default movement on the Quest (no other obligation): Carbonek first, then the Grail's
    castle; the bearer's area when somebody bears it; the bearer himself towards Camelot."""
    from companion.koc.engine.movement import default_plan

    t = table(gpos(at="Hampshire", where=None, anna=anna(), extra=grail_at("Tintagel")))
    assert default_plan(t.session()) == [{"do": "to", "area": "Carbonek"}]
    t.knight()["quest"] = {"carbonek": True}
    assert default_plan(t.session()) == [{"do": "to", "area": "Tintagel"}]
    t2 = table(gpos(at="Hampshire", where=None, anna=anna(),
                    others={"Bert": QUESTER + 'at = "Devon"\n'},
                    extra='[grail]\nbearer = "Bert"\n'))
    assert default_plan(t2.session()) == [{"do": "to", "area": "Devon"}]
    assert default_plan(t2.session("Bert")) == [{"do": "to", "area": "Camelot Castle"}]


# ------------------------------------------------------------------------------ relocation
def test_g05_all_unworthy_the_grail_moves_at_once(table):
    """Every knight who tried to see it this game turn failed: it moves at once to another
    random royal castle (the Random Kingdom chart); every leave and sight lapses."""
    t = table(gpos(anna=anna(more='quest = {carbonek = true, permission = "Carbonek"}')),
              dice=[4, *SURLUISE])
    grail.after_requests([t.session()])
    assert t.saw("found unworthy to see the Holy Grail")
    assert t.saw("now rests in Orgulous")
    assert t.state["grail"]["castle"] == "Orgulous"
    assert t.knight()["quest"] == {"carbonek": True}
    assert t.unused_dice == []


def test_g06_a_knight_of_vl_6_does_not_move_it(table):
    """A knight of VL 6 or more who fails to see it is ignored: the Grail stays."""
    t = table(gpos(anna=anna('quest = {carbonek = true, permission = "Carbonek"}'), cp=60,
                   vp=10), dice=[1])
    assert kn.vl(t.knight()) == 6
    grail.after_requests([t.session()])
    assert t.saw("found unworthy to see the Holy Grail")
    assert t.state.get("grail", {}).get("castle", "Carbonek") == "Carbonek"
    assert not t.saw("now rests in")
    assert t.unused_dice == []


def test_g06b_counted_with_a_vl_6_knight_ignored(table):
    """Two knights try in one (party) phase: the VL 6 knight's failure is not counted, the VL 4
    knight's is: the Grail moves."""
    leave = 'quest = {carbonek = true, permission = "Carbonek"}\n'
    t = table(gpos(anna=anna(more=leave),
                   others={"Bert": UNWORTHY + 'at = "Carbonek"\nwhere = "inside"\n' + leave}),
              dice=[2, 1, *SURLUISE])
    grail.after_requests([t.session("Anna"), t.session("Bert")])
    assert t.state["grail"]["castle"] == "Orgulous" and t.unused_dice == []


def test_g06c_one_who_saw_it_this_game_turn_keeps_it_in_place(table):
    """As long as one knight saw it in the game turn it stays, though the others fail (and
    though he could not grasp it), even when they try in later player turns."""
    leave = 'quest = {carbonek = true, permission = "Carbonek"}\n'
    t = table(gpos(anna=anna(more=leave),
                   others={"Bert": QUESTER + 'at = "Carbonek"\nwhere = "inside"\n' + leave}),
              dice=[5, 1, 2])
    grail.after_requests([t.session("Anna")])          # sees (5), cannot grasp (1)
    grail.after_requests([t.session("Bert")])          # a later player turn: fails (2)
    assert t.state["grail"]["castle"] == "Carbonek" and t.unused_dice == []
    assert not t.saw("now rests in")


def test_g07_logres_1_means_jagent_and_another_castle_is_drawn_again(table):
    """Relocating to Logres 1 places it in Jagent, not Camelot; a draw of the castle it leaves
    is drawn again ('another' royal castle)."""
    t = table(gpos(at="Orgulous", anna=anna(
        more='quest = {carbonek = true, permission = "Orgulous"}'), extra=grail_at("Orgulous")),
        dice=[1, *SURLUISE, *JAGENT])
    grail.after_requests([t.session()])
    assert t.saw("The Grail stands in Orgulous already: drawn again.")
    assert t.state["grail"]["castle"] == "Jagent" and t.unused_dice == []


# ------------------------------------------------------------------------------ the bearer
def test_g08_bearer_tests_his_vl_at_the_start_of_each_turn(table):
    """The bearer tests his VL at the start of each of his turns (after his Luck-of-the-Day):
    passing he keeps it; failing, it takes itself to a random royal castle."""
    bearer = '[grail]\nbearer = "Anna"\n'
    t = table(gpos(at="Hampshire", where=None, anna=anna(), extra=bearer), dice=[4])
    grail.start_of_turn(t.session())
    assert grail.bearer(t.state) == "Anna" and t.unused_dice == []
    t2 = table(gpos(at="Hampshire", where=None, anna=anna(), extra=bearer),
               dice=[3, *BENWICK])
    grail.start_of_turn(t2.session())
    assert t2.saw("failed his VL test at the start of his turn")
    assert grail.bearer(t2.state) is None and "grail" not in t2.knight()
    assert t2.state["grail"]["castle"] == "Trebes" and t2.unused_dice == []


def test_g08b_the_turn_start_check_in_a_whole_player_turn(table):
    """In a played turn the check comes right after the Luck-of-the-Day."""
    t = table(gpos(at="Hampshire", where=None, anna=anna(), extra='[grail]\nbearer = "Anna"\n'),
              dice=[2, 1, *LISTENOISE], orders={"Anna": "stay"})
    t.play()
    texts = t.events
    luck = next(i for i, e in enumerate(texts) if "Luck-of-the-Day: 2" in e)
    test = next(i for i, e in enumerate(texts) if "keep the Holy Grail" in e)
    assert test == luck + 1
    assert t.state["grail"]["castle"] == "Carbonek"


def test_g09_the_bearer_adds_one_to_his_combat_rolls(table):
    """While carrying the Grail, +1 on all his combat rolls."""
    t = table(gpos(at="Hampshire", where=None, anna=anna(), extra='[grail]\nbearer = "Anna"\n'),
              dice=[3, 3, 3, 3])
    s = t.session()
    foe = cb.foe("brigand", "a brigand", 3, 2)
    c = cb.Combat(s, [foe], attacker="foe")
    c.me["method"] = "sword"
    assert c.roll(c.me, foe)[0] == 7
    t.knight().pop("grail")
    assert c.roll(c.me, foe)[0] == 6


def test_g10_defeated_though_his_side_wins_he_loses_it(table):
    """A bearer who goes down in a fight loses the Grail even when his companions carry the
    day; it moves to a random royal castle."""
    t = table(gpos(at="Hampshire", where=None, anna=anna(), extra='[grail]\nbearer = "Anna"\n'),
              dice=[*SURLUISE])
    s = t.session()
    knight = cb.npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 50})
    c = cb.Combat(s, [knight], attacker="foe")
    c.result.pk_defeated, c.result.won = True, True
    cb.settle_battle([c], on_defeat=None)
    assert t.saw("no longer bears the Holy Grail: defeated in combat")
    assert t.saw("fell, but his side won the day")
    assert grail.bearer(t.state) is None and t.state["grail"]["castle"] == "Orgulous"
    assert t.unused_dice == []


def test_g11_fighting_unchivalrously_costs_him_the_grail(table):
    """The bearer fighting without chivalry: the Grail leaves him at once."""
    t = table(gpos(at="Hampshire", where=None, anna=anna(), extra='[grail]\nbearer = "Anna"\n'),
              dice=[*SURLUISE])
    s = t.session()
    knight = cb.npk({"kind": "knight", "name": "Sir Kay", "vl": 5, "cp": 50})
    c = cb.Combat(s, [knight], attacker="pk")
    c.unchivalrous = True
    c.result.won = True
    c.result.defeated = [knight]
    knight["struck_down_by"] = "Anna"
    cb.settle_battle([c], on_defeat=None)
    assert t.saw("no longer bears the Holy Grail: he fought without chivalry")
    assert grail.bearer(t.state) is None and t.unused_dice == []


def test_g12_finding_and_challenging_the_bearer(table):
    """Another knight in the bearer's area finds him on a Luck Test and challenges his right
    to the Grail; the bearer cannot avoid it. Beaten, the bearer loses the Grail (nobody is
    slain). A failed search is retried with +1 next turn."""
    bert = QUESTER + 'at = "Hampshire"\n'
    setup = dict(at="Hampshire", where=None, anna=anna(), others={"Bert": bert},
                 extra='[grail]\nbearer = "Bert"\n')
    t = table(gpos(**setup), dice=[2])
    assert not rivals.confront(t.session(), "challenge", "Bert")
    assert t.saw("does not find Bert this turn")
    assert t.knight()["persistence"]["seek:Bert:Hampshire"] == 1
    # found: three passes (Anna's lance 18 against Bert's 3+1), the bearer has no say
    t2 = table(gpos(**setup), dice=[5, 6, 6, 6, 1, 1, 1, *SURLUISE])
    assert rivals.confront(t2.session(), "challenge", "Bert")
    assert t2.saw("the bearer cannot refuse") and not t2.saw("declines")
    assert t2.saw("Anna wins")
    assert t2.saw("Bert no longer bears the Holy Grail: he lost a challenge")
    assert grail.bearer(t2.state) is None and not t2.state["knights"]["Bert"]["slain"]
    assert t2.state["grail"]["castle"] == "Orgulous" and t2.unused_dice == []


def test_g12b_the_bearer_is_found_and_challenged_through_the_orders(table):
    """'challenge <bearer>' is a legal order line when standing with him, beyond the one
    challenge a game; the acknowledgement and the engine take it like any challenge."""
    from companion.koc.checks import legal_lines

    bert = QUESTER + 'at = "Hampshire"\n'
    t = table(gpos(at="Hampshire", where=None, anna=anna(more='challenged = ["Bert"]'),
                   others={"Bert": bert}, extra='[grail]\nbearer = "Bert"\n'))
    assert "challenge Bert" in legal_lines(t.world, t.state, "Anna")


# ------------------------------------------------------------------------------ prophecies
def test_g13_a_prophecy_must_be_fulfilled_before_seeking(table):
    """A Prophecy received before setting out (or before grasping) must be fulfilled first:
    no leave is asked, and one who has leave does not try to see the Grail."""
    from test_koc_adventures import give

    t = table(gpos(anna=anna(more='quest = {carbonek = true}')),
              orders={"Anna": "request grail of king"})
    give(t, "vanquish_brigands", "Devon", prophecy=True)
    requests_turn(t)
    assert t.saw("must first fulfil his Prophecy (2:4 Rout five brigands) before he may seek")
    assert t.unused_dice == [] and "permission" not in t.knight()["quest"]
    t.knight()["quest"]["permission"] = "Carbonek"
    grail.after_requests([t.session()])
    assert t.unused_dice == [] and t.state["grail"]["castle"] == "Carbonek"


def test_g14_the_bearer_is_immune_to_prophecies_and_enchantment(table):
    """A bearer receives no Prophecy (nothing is rolled) and no enchantment touches him."""
    t = table(gpos(at="Hampshire", where=None, anna=anna(), extra='[grail]\nbearer = "Anna"\n'))
    s = t.session()
    assert rs.adventure_news(s, {"kind": "hermit", "name": "a hermit"}, prophecy=True) is None
    assert t.saw("untouched by the Prophecy") and t.knight()["tasks"] == []
    assert rs.enchant(s, {"kind": "lady", "name": "Morgan Le Fay"}, 0) is True
    assert t.saw("The Grail shields Anna") and t.knight()["enchantments"] == []
    assert t.unused_dice == []


def test_g14b_merlin_does_not_change_the_bearer_into_a_beast(table):
    """Immune to Enchantment, the bearer is not turned into an animal by Merlin's reaction 2
    (Enchantment 4): from edition 7 nothing happens (encounters.MERLIN_SPARES_BEARER); an
    edition 6 game changed him into a beast, the Grail still his."""
    from companion.koc.engine import encounters as E

    for ed in (7, 6):
        t = table(gpos(at="Hampshire", where=None, anna=anna(),
                       extra='[grail]\nbearer = "Anna"\n'), dice=[1, 1, 1, 1, 1, 1])
        t.state["edition"] = ed
        t.state["merlin"] = {"area": "Hampshire", "who": "merlin"}
        s = t.session()
        E.meet_merlin(E.Meeting(s, "Hampshire"))
        assert t.saw("Merlin reactions: 1+1 = 2")
        if ed == 7:
            assert t.saw("The Grail shields Anna from Merlin's spell")
            assert t.knight()["animal"] is None and t.knight()["gear"]["horse"]
            assert t.unused_dice == [1, 1, 1, 1]
        else:
            assert t.saw("Merlin changes Anna into a beast") and t.knight()["animal"]
        assert grail.bearer(t.state) == "Anna"


def test_g15_in_animal_form_he_can_neither_see_nor_grasp(table):
    """Enchanted into Animal form, a knight can neither see nor grasp the Grail (and so does
    not count as having tried)."""
    t = table(gpos(anna=anna(more='animal = "Hart"\n'
                                  'quest = {carbonek = true, permission = "Carbonek"}')))
    grail.after_requests([t.session()])
    assert t.saw("In animal form Anna can neither see nor grasp the Holy Grail")
    assert t.unused_dice == [] and t.state["grail"]["castle"] == "Carbonek"


# ------------------------------------------------------------------------------ winning
def test_g16_the_grail_brought_to_camelot_wins_and_ends_the_game(table):
    """The bearer inside Camelot Castle wins the scenario; the game is over."""
    t = table(gpos(at="Camelot Castle", anna=anna(), extra='[grail]\nbearer = "Anna"\n'))
    grail.after_requests([t.session()])
    koc = t.state["koc"]
    assert koc["winner"] == "Anna" and koc["over"] is True
    assert t.saw("brings the Holy Grail to Camelot Castle and wins the game")


# ------------------------------------------------------------------------------ campaign
def test_g17_campaign_king_arthurs_leave_holds_for_every_arthurian_knight(table):
    """Campaign: an Arthurian knight asks King Arthur leave to seek the Grail (his Request
    Reaction Chart, as for the Round Table petition, with no VL+1 test). Once one has it,
    every Arthurian knight has it; a knight not of the Round Table does not."""
    others = {"Bert": QUESTER + 'at = "Devon"\n', "Cora": "cp = 60\nvp = 6\nat = \"Devon\"\n"}
    t = table(gpos(scenario="campaign", at="Camelot Castle", anna=anna(), others=others),
              dice=[6, 6], orders={"Anna": "request grail of arthur"})
    assert not grail.on_quest(t.state, t.state["knights"]["Bert"])
    requests_turn(t)
    assert t.saw("King Arthur's answer") and t.saw("King Arthur grants the request")
    assert t.saw("every Knight of the Round Table may now seek it")
    assert t.state["grail"]["permission"] is True
    assert grail.on_quest(t.state, t.state["knights"]["Bert"])
    assert not grail.on_quest(t.state, t.state["knights"]["Cora"])
    assert t.unused_dice == [] and t.state["koc"]["winner"] is None


def test_g17b_campaign_arthur_refuses_a_knight_not_of_the_round_table(table):
    """Only a Knight of the Round Table may ask: nothing is rolled for another."""
    t = table(gpos(scenario="campaign", at="Camelot Castle", anna="luck = 4\n"),
              orders={"Anna": "request grail of arthur"})
    requests_turn(t)
    assert t.saw("Only a Knight of the Round Table may ask leave") and t.unused_dice == []


def test_g17c_campaign_no_seeking_before_arthurs_leave(table):
    """Before King Arthur's leave nobody seeks the Grail, at Carbonek either."""
    t = table(gpos(scenario="campaign", anna=anna()), orders={"Anna": "request grail of king"})
    requests_turn(t)
    assert t.saw("King Arthur has not yet allowed the search") and t.unused_dice == []
    assert not friendly_castle(t.session(), "Carbonek")


def test_g18_campaign_joining_the_round_table_does_not_end_the_game(table):
    """Campaign: becoming an Arthurian Knight is a step, not the victory."""
    t = table(gpos(scenario="campaign", at="Camelot Castle", anna="luck = 4\n", lord="",
                   cp=100, vp=20), dice=[6])
    assert rq.round_table_test(t.session())
    assert t.knight()["arthurian"] and t.state["koc"]["winner"] is None
    assert not t.state["koc"]["over"]


# ------------------------------------------------------------------------------ orders
def test_g19_orders_request_grail_lines_checks_and_acknowledgement(table):
    """'request grail [of king|arthur]' parses; it is a legal line inside the Grail's castle
    (and at Camelot before the Campaign's leave); other persons and the Round Table
    scenarios are refused with the line located."""
    import pytest

    from companion.engine.orders import OrdersRejected
    from companion.koc.checks import acknowledge, check_orders, legal_lines
    from companion.koc.orders import parse_orders

    t = table(gpos(anna=anna()))
    assert "request grail of king" in legal_lines(t.world, t.state, "Anna")
    orders = parse_orders(t.world, ["Anna"], "request grail of king\n", "a.txt")
    check_orders(t.world, t.state, "Anna", orders, "a.txt")
    assert any("leave of the King of the castle where it rests" in line
               for line in acknowledge(t.world, t.state, "Anna", orders))
    bad = parse_orders(t.world, ["Anna"], "stay\nrequest grail of lady\n", "a.txt")
    with pytest.raises(OrdersRejected) as err:
        check_orders(t.world, t.state, "Anna", bad, "a.txt")
    assert err.value.errors[0].line.number == 2
    t2 = table(gpos(scenario="basic", anna=anna()))
    assert not any("grail" in line for line in legal_lines(t2.world, t2.state, "Anna"))
    with pytest.raises(OrdersRejected) as err:
        check_orders(t2.world, t2.state, "Anna", orders, "a.txt")
    assert "no Quest of the Holy Grail" in err.value.errors[0].message
    t3 = table(gpos(scenario="campaign", at="Camelot Castle", anna=anna()))
    assert "request grail of arthur" in legal_lines(t3.world, t3.state, "Anna")


def test_g20_the_grail_is_public_news_in_the_views(table):
    """The Grail's castle, or its bearer and where he is, is known to every player."""
    from companion.koc.kind import KIND
    from companion.koc.views import view

    t = table(gpos(at="Hampshire", where=None, anna=anna(), others={"Bert": QUESTER +
                                                                    'at = "Devon"\n'},
                   extra='[grail]\nbearer = "Anna"\n'))
    v = view(KIND, t.state, "Bert")
    assert v["grail"] == ["The Holy Grail is borne by Anna, now in Hampshire."]


# ------------------------------------------------------------------------------ a game turn
def test_g21_a_whole_grail_game_turn_through_process(table):
    """A whole game turn of the Quest through game.process: Anna, inside Carbonek, asks King
    Pellam's leave, sees and grasps the Grail; Bert stays in Devon; then the Merlin/Morgan
    counter moves. Dice: Anna's luck 3; her stay (no roll inside a friendly castle); meeting
    the owner 4, his grant 5, seeing 6, grasping 5; Bert's luck 2, his stay in Devon (an
    encounter roll: 6, nothing); the counter: 1, 1 then 1."""
    from companion.koc.engine.game import process

    t = table(gpos(anna=anna(), others={"Bert": QUESTER + 'at = "Devon"\n'}),
              dice=[3, 4, 5, 6, 5, 2, 6, 1, 1, 1],
              orders={"Anna": "stay\nrequest grail of king", "Bert": "stay"})
    process(t.world, t.state, t.ctx)
    assert grail.bearer(t.state) == "Anna"
    assert t.saw("Anna grasps the Holy Grail in Carbonek")
    assert t.state["koc"]["turn"] == 2 and not t.state["koc"]["over"]
    assert t.unused_dice == []


def test_g22_a_fallen_bearers_grail_takes_itself_away(table):
    """A bearer who falls (slain by a monster, drowned): the Grail goes to a random royal
    castle before his player's new knight starts."""
    from companion.koc.engine.setup import replace_slain

    t = table(gpos(at="Hampshire", where=None, anna=anna(), extra='[grail]\nbearer = "Anna"\n'),
              dice=[*SURLUISE])
    s = t.session()
    t.knight()["slain"] = True
    replace_slain(s)
    assert grail.bearer(t.state) is None and t.state["grail"]["castle"] == "Orgulous"
    assert "grail" not in t.knight() and t.unused_dice == []


def test_g23_a_party_tries_together_in_its_joint_turn(table):
    """Knights travelling together each get their chance in the party's joint turn; the Grail
    moves only after all of them have failed (here both, of VL 4). Dice: the luck of Anna (3)
    and Bert (3), staying inside (no roll), Anna's sight 1, Bert's 2, the Random Kingdom
    chart 1, 1 (Orgulous); the counter's redeployment 1, 1, 1."""
    from companion.koc.engine.game import process

    leave = 'quest = {carbonek = true, permission = "Carbonek"}\n'
    t = table(gpos(anna=anna(more=leave),
                   others={"Bert": QUESTER + 'at = "Carbonek"\nwhere = "inside"\n' + leave},
                   extra='[parties]\nAnna = ["Bert"]\n'),
              dice=[3, 3, 1, 2, *SURLUISE, 1, 1, 1], orders={"Anna": "stay", "Bert": ""})
    process(t.world, t.state, t.ctx)
    texts = t.events
    bert = next(i for i, e in enumerate(texts) if "VL test of Bert (see the Holy Grail" in e)
    moved = next(i for i, e in enumerate(texts) if "now rests in Orgulous" in e)
    assert bert < moved and t.unused_dice == []


def test_g20b_a_knights_progress_on_the_quest_is_his_own(table):
    """His leave and sight show in his own journal only; the other players see the Grail's
    place, not his progress."""
    from companion.koc.kind import KIND
    from companion.koc.views import view

    t = table(gpos(anna=anna(more='quest = {carbonek = true, permission = "Carbonek"}'),
                   others={"Bert": QUESTER + 'at = "Devon"\n'}))
    mine = view(KIND, t.state, "Anna")
    assert mine["journal"]["quest"] == "has been to Carbonek; has leave to see it in Carbonek"
    theirs = view(KIND, t.state, "Bert")
    assert theirs["journal"]["quest"] is None and "journals" not in theirs
    assert theirs["grail"] == ["The Holy Grail rests in Carbonek."]


def test_g24_campaign_king_arthurs_leave_asked_on_the_road(table):
    """Campaign; King Arthur: his leave to seek the Grail may be asked wherever the knight
    meets him, here King Arthur met friendly in Devon: his chart (6+6) grants it, for every
    Arthurian knight. Without King Arthur there, nothing is asked."""
    from kocpos import card

    t = table(gpos(scenario="campaign", at="Devon", where="", anna=anna()),
              dice=[6, 6], orders={"Anna": "request grail of arthur"})
    t.knight()["met"] = [{"kind": "king", "card": card("King Arthur", "king"),
                          "attitude": "friendly"}]
    requests_turn(t)
    assert t.saw("Anna asks King Arthur for:")
    assert t.saw("King Arthur's answer") and t.saw("King Arthur grants the request")
    assert t.state["grail"]["permission"] is True
    assert t.unused_dice == []
    t2 = table(gpos(scenario="campaign", at="Devon", where="", anna=anna()),
               orders={"Anna": "request grail of arthur"})
    requests_turn(t2)
    assert t2.saw("King Arthur has not yet allowed the search") and t2.unused_dice == []
