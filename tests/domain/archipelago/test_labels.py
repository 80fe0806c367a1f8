"""Labels of legal commands (what a seat is shown before it decides): each names the choice in the words of
docs/rules/archipelago.md (§5.2 bids, §6.2–§6.3 supplies, §8 actions, §9 buildings, §10.4 cards, §11 offers) and
previews a fixed public price (§5.2 a bid, §5.6 a market card, §8.8 a building, §9 the 1-coin fee, §10.3 a
wonder's coins and VP)."""

from __future__ import annotations

import pytest

from domain.archipelago import RULES
from tests.domain.archipelago.fixtures import first_legal_until, island

CASES = [
    ({"type": "keep_objectives", "cards": ["S01", "S02"]}, "Keep objectives S01, S02"),
    ({"type": "keep_objectives", "cards": []}, "Keep objectives none"),
    (
        {"type": "place_start_tile", "tile": "E05", "face": "B", "pos": {"q": 1, "r": 0}, "rot": 2},
        "Place tile E05 face B at (1, 0), rotation 2",
    ),
    ({"type": "discard_card", "card": "C15"}, "Discard Banker"),
    ({"type": "supply", "source": "MARKET"}, "Supply a cube from the market"),
    ({"type": "supply", "source": "CUBE"}, "Supply one of your cubes"),
    ({"type": "supply", "source": "TOKEN"}, "Supply an explorer token"),
    ({"type": "stand", "citizen": "c1-3"}, "Stand up citizen c1-3"),
    ({"type": "activate_temple", "temple": "E07:TEMPLE"}, "Use the temple on E07:TEMPLE"),
    (
        {"type": "export_supply", "unit": 0, "source": "TOKEN", "resource": "IRON"},
        "Supply iron for requirement 1 (token)",
    ),
    ({"type": "order_pick", "seat": 2}, "Seat 3 plays next"),
    ({"type": "harvest", "resource": "WOOD", "with": ["C05", "P05"]}, "Harvest wood with Foreman, Sawmill"),
    ({"type": "harvest", "resource": "FISH", "with": []}, "Harvest fish"),
    ({"type": "recruit", "with": ["C09"]}, "Recruit with Overseer"),
    ({"type": "tax", "with": []}, "Tax"),
    ({"type": "trade", "market": "DOM", "op": "BUY", "resource": "IRON"}, "Buy iron on the domestic market"),
    ({"type": "trade", "market": "EXP", "op": "SELL", "resource": "FISH"}, "Sell fish on the export market"),
    (
        {"type": "explore", "slot": "SHARED", "pick": "SECOND", "with": ["C12"]},
        "Explore (shared slot, second tile) with Cartographer",
    ),
    (
        {"type": "use_card", "card": "C03", "op": "BUY", "resource": "FISH"},
        "Use Merchant: buy fish on the domestic market",
    ),
    (
        {"type": "use_card", "card": "C04", "op": "SELL", "resource": "IRON"},
        "Use Shipowner: sell iron on the export market",
    ),
    ({"type": "use_card", "card": "C16", "resource": "WOOD"}, "Use Smuggler: sell wood on the export market"),
    ({"type": "use_card", "card": "C08", "ship": "s0-90", "to": "E03"}, "Use Navigator: sail s0-90 to E03"),
    (
        {"type": "use_card", "card": "C13", "pick": "TOP", "with": ["C12"]},
        "Use Conquistador: explore (top tile) with Cartographer",
    ),
    (
        {"type": "use_card", "card": "P13", "tokens": {"FISH": 1, "FRUIT": 2}},
        "Use Festival, paying 1 fish, 2 fruit with explorer tokens",
    ),
    ({"type": "use_card", "card": "P13", "tokens": {}}, "Use Festival"),
    (
        {"type": "use_card", "card": "P14", "cubes": ["FISH", "IRON"]},
        "Use Charity: give fish, iron to the domestic market",
    ),
    ({"type": "use_card", "card": "C06"}, "Use Missionary"),
    ({"type": "offer_open", "to": 2}, "Open a trade offer to seat 3"),
    ({"type": "offer_add", "side": "GIVE", "item": {"kind": "MONEY_1"}}, "Give 1 coin"),
    ({"type": "offer_add", "side": "GIVE", "item": {"kind": "MONEY_5"}}, "Give 5 coins"),
    ({"type": "offer_add", "side": "GIVE", "item": {"kind": "TOKEN"}}, "Give an explorer token"),
    ({"type": "offer_add", "side": "GET", "item": {"kind": "CARD", "card": "C18"}}, "Ask for the card Pirate"),
    (
        {"type": "offer_add", "side": "GET", "item": {"kind": "GRANT", "grant": "HARVEST_ON", "tile": "E03"}},
        "Ask for the right to harvest on E03",
    ),
    (
        {"type": "offer_add", "side": "GET", "item": {"kind": "GRANT", "grant": "ENTER", "building": "E03:TOWN"}},
        "Ask for the right to enter E03:TOWN",
    ),
    (
        {"type": "offer_add", "side": "GET", "item": {"kind": "GRANT", "grant": "BUILD_ON", "tile": "E03"}},
        "Ask for the right to build on E03",
    ),
    ({"type": "offer_add", "side": "GET", "item": {"kind": "SOMETHING"}}, "Ask for something"),
    ({"type": "evo_buy", "slot": 9, "rotate": 1}, "Buy the card in slot 9"),
    ({"type": "evo_rotate", "slots": [0, 3]}, "Rotate market slots 0, 3"),
    ({"type": "evo_rotate", "slots": []}, "Rotate market slots none"),
    ({"type": "harvest_assign", "unit": "c0-91", "icon": 0}, "Put citizen c0-91 on E07's cattle icon (icon 1)"),
    ({"type": "harvest_assign", "unit": "s0-90", "icon": 0}, "Put ship s0-90 on OCEAN's resource icon (icon 1)"),
    ({"type": "hire", "tile": "E07"}, "Hire a citizen on E07"),
    ({"type": "birth", "tile": "E03"}, "A new citizen on E03"),
    ({"type": "cartographer_pick", "index": 1}, "Take seen tile 2"),
    (
        {"type": "place_tile", "pos": {"q": 2, "r": -1}, "face": "A", "rot": 4, "mover": "c0-92"},
        "Place the tile face A at (2, -1), rotation 4, moving c0-92 onto it",
    ),
    (
        {"type": "place_tile", "pos": {"q": 2, "r": -1}, "face": "B", "rot": 0},
        "Place the tile face B at (2, -1), rotation 0",
    ),
    (
        {"type": "move_ship", "ship": "s0-90", "to": "E03", "passengers": ["c0-91", "c0-92"]},
        "Sail s0-90 to E03 with c0-91, c0-92",
    ),
    ({"type": "move_ship", "ship": "s0-90", "to": "E03", "passengers": []}, "Sail s0-90 to E03"),
    ({"type": "convoy", "citizen": "c0-91", "to": "E03"}, "Convoy c0-91 to E03"),
    ({"type": "walk", "citizen": "c0-92", "to": "E03"}, "Walk c0-92 to E03"),
    ({"type": "enter_building", "unit": "s0-90", "building": "E03:PORT"}, "Move ship s0-90 into the port"),
    ({"type": "leave_building", "unit": "c0-91"}, "Move citizen c0-91 out of its building"),
    ({"type": "ability_trade", "op": "SELL", "resource": "STONE"}, "Sell stone"),
    ({"type": "research_pick", "card": "P08"}, "Buy Guilds"),
    ({"type": "research_pick", "card": None}, "Buy none of the revealed cards"),
    ({"type": "declare_end", "objective": "M03"}, "Declare the end with objective M03"),
    ({"type": "pass"}, "Pass for the rest of the round"),
    ({"type": "card_done"}, "Finish the card"),
]


@pytest.mark.parametrize("command,text", CASES, ids=[f"{i}-{c['type']}" for i, (c, _) in enumerate(CASES)])
def test_labels_name_the_choice(command, text):
    assert RULES.label(island(), 0, command) == {"label": text}


def test_labels_preview_fixed_prices():
    st = island()
    assert RULES.label(st, 0, {"type": "bid", "amount": 1}) == {"label": "Bid 1 coin", "cost": 1}
    assert RULES.label(st, 0, {"type": "bid", "amount": 3}) == {"label": "Bid 3 coins", "cost": 3}
    build = {"type": "build", "building": "PORT", "tile": "E07", "builder": "c0-91", "with": []}
    assert RULES.label(st, 0, build) == {"label": "Build a port on E07 with c0-91", "cost": 2}  # §8.8: PORT 2ƒ
    wonder = {"type": "build_wonder", "card": "W03", "citizen": "c0-91", "tokens": {}}
    assert RULES.label(st, 0, wonder) == {"label": "Build the wonder Royal Palace with c0-91", "cost": 2, "points": 4}
    use = {"type": "use_building", "building": "E07:MARKET"}
    assert RULES.label(st, 0, use) == {"label": "Use the market on E07 for 1 coin", "cost": 1}  # §9: 1ƒ fee
    st.market[0] = ["P07", 1]  # EMIGRATION 4/3/2 at orientation 1 (§5.6: price = prices[orientation])
    assert RULES.label(st, 0, {"type": "evo_buy", "slot": 0, "rotate": 1}) == {
        "label": "Buy Emigration for 3 coins",
        "cost": 3,
    }


def test_turn0_icon_labels_name_the_resource_of_the_placed_tile():
    """§4 step 12: after placing its start tile a player picks an icon for the market, then one for itself."""
    st = RULES.fold(RULES.setup(3, 3, {}))
    st = first_legal_until(
        st,
        lambda s: any(c["type"] == "choose_market_icon" for c in RULES.legal_commands(s, sorted(RULES.to_act(s))[0])),
    )
    seat = sorted(RULES.to_act(st))[0]
    icons = st.tiles[st.t0["tile"]]["icons"]
    for i, r in enumerate(icons):
        assert RULES.label(st, seat, {"type": "choose_market_icon", "icon": i}) == {
            "label": f"Put a {r.lower()} cube on the market (icon {i + 1})"
        }
        assert RULES.label(st, seat, {"type": "choose_own_icon", "icon": i}) == {
            "label": f"Take a {r.lower()} cube (icon {i + 1})"
        }
