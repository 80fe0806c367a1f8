"""Shared helpers for the Archipelago tests: invariants, leak checks and scenario builders."""

from __future__ import annotations

import random

from domain.archipelago import RULES
from domain.archipelago import data as D
from domain.archipelago.state import ArchState, clone, population
from domain.rng import rng_for


def check_invariants(st: ArchState) -> None:
    """§17.4 invariants (conservation of cubes, tokens, pieces, cards and tiles, bounds)."""
    if not st.started:
        return
    for r in D.RESOURCES:
        held = sum(p["cubes"][r] for p in st.players)
        assert st.bank[r] + st.dom[r] + st.exp[r] + held == D.CUBE_TOTALS[r], r
        assert min(st.bank[r], st.dom[r], st.exp[r]) >= 0
        assert st.dom[r] <= D.DOM_CAP and st.exp[r] <= D.EXP_CAP
        assert all(p["cubes"][r] >= 0 for p in st.players)
    assert sum(st.stacks) + sum(p["tokens"] for p in st.players) + st.tokens_spent == 24
    mult = 2 if st.n == 2 else 1
    for s, p in enumerate(st.players):
        cits = sum(1 for u in st.units.values() if u["owner"] == s and u["kind"] == "C")
        ships = sum(1 for u in st.units.values() if u["owner"] == s and u["kind"] == "S")
        assert cits + p["sup_c"] + len(p["wonders"]) == D.CITIZENS_PER_PLAYER * mult
        assert ships + p["sup_s"] == D.SHIPS_PER_PLAYER * mult
        assert p["money"] >= 0 and p["tokens"] >= 0
        assert 3 <= p["ad_total"] <= 5 and 0 <= p["ad_avail"] <= p["ad_total"]
        if st.discard_pending != s:
            assert len(p["track"]) <= D.EVO_TRACK_SIZE
    assert all(u["place"] != "LAND" for u in st.units.values() if u["kind"] == "S")  # a ship is never on land
    assert 0 <= st.sur <= D.SURPLUS_MAX and st.reb >= 0
    if st.phase != "OVER":
        assert st.reb <= population(st)
    cards = len(st.deck) + sum(1 for m in st.market if m) + len(st.evo_discard)
    cards += sum(len(p["track"]) + len(p["wonders"]) for p in st.players)
    if st.step and st.step.get("kind") == "research":
        cards += len(st.step["revealed"])
    assert cards == 40
    tiles = len(st.tiles) + len(st.stack) + sum(len(h) for h in st.hands) + len(st.set_aside) + len(st.tile_discard)
    if st.step and st.step.get("kind") == "explore" and st.step.get("tile") and st.step["tile"] not in st.tiles:
        tiles += 1
    assert tiles == 25
    per_tile: dict = {}
    for uid, u in st.units.items():
        t = st.tiles[u["tile"]]
        assert t["land"] if u["kind"] == "C" else t["sea"], uid
        if u["kind"] == "C":
            per_tile[(u["owner"], u["tile"])] = per_tile.get((u["owner"], u["tile"]), 0) + 1
        if u["place"].startswith("I:"):
            assert t["occ"][int(u["place"][2:])] == uid
        if u["place"].startswith("B:"):
            assert st.buildings[u["tile"]][u["place"][2:]] == uid
    assert all(v <= 4 for v in per_tile.values())
    for tid, t in st.tiles.items():
        for i, occ in enumerate(t["occ"]):
            if occ is not None:
                assert st.units[occ]["tile"] == tid and st.units[occ]["place"] == f"I:{i}"
                assert (st.units[occ]["kind"] == "S") == (t["icons"][i] == "FISH")
    used = {"MARKET_PORT": 0, "TOWN_TEMPLE": 0}
    for b in st.buildings.values():
        for btype in b:
            used[D.BUILDING_POOL_OF[btype]] += 1
    for k, v in used.items():
        assert v + st.pool[k] == D.BUILDING_POOL[k]


PRIVATE_KEYS = (
    "money",
    "cubes",
    "explorer_tokens",
    "objectives",
    "dealt_objectives",
    "bid",
    "hand",
    "cartographer_tiles",
    "cartographer_seen",
)


def perturb_hidden(st: ArchState, other: int) -> ArchState:
    """A copy in which seat ``other``'s hidden information differs (money, cubes, tokens, objectives, bid)."""
    x = clone(st)
    p = x.players[other]
    p["money"] += 7
    p["cubes"]["IRON"] += 1
    p["tokens"] += 2
    x.objectives[other] = ["XXX"] + list(x.objectives[other][1:])
    if other in x.bids:
        x.bids[other] = x.bids[other] + 13
    return x


def check_no_leak(st: ArchState, events: list[dict]) -> None:
    """No view for another seat or a spectator changes when a seat's hidden information changes."""
    if not st.started or st.phase == "OVER":
        return
    no_secrets = st.options.get("no_secrets")
    for other in range(st.n):
        changed = perturb_hidden(st, other)
        for viewer in [None, *range(st.n)]:
            if viewer == other:
                continue
            v = RULES.view(st, viewer)
            assert v["crisis"] is None or "card" not in v["crisis"]
            if not no_secrets:
                assert RULES.view(changed, viewer) == v, f"view of {viewer} leaks seat {other}"
            for key in PRIVATE_KEYS:
                if no_secrets and key in ("money", "cubes", "explorer_tokens"):
                    continue
                assert key not in v["players"][other], (viewer, other, key)
    for ev in events:
        for viewer in [None, *range(st.n)]:
            red = RULES.redact(ev, viewer)
            t = ev["type"]
            if t in ("CrisisStarted", "CrisisEnded", "BeigeEventApplied"):  # the top card's front is hidden
                assert "card" not in red and red["back"] in D.BACKS
            if t in ("EvolutionDeckShuffled", "ExplorationStackShuffled", "ExplorationStackReshuffled"):
                assert "deck" not in red and "stack" not in red
            if (
                t
                in (
                    "ObjectivesDealt",
                    "ObjectivesKept",
                    "Turn0HandDealt",
                    "Turn0HandSetAside",
                    "BidCommitted",
                    "CartographerLooked",
                )
                and ev["seat"] != viewer
            ):
                field = {"ObjectivesDealt": "cards", "ObjectivesKept": "cards", "BidCommitted": "amount"}.get(
                    t, "tiles"
                )
                assert red[field] is None, (t, viewer)
                assert red.get("faces") is None, (t, viewer)


def new_game(seats: int, seed: int = 1, options: dict | None = None) -> tuple[ArchState, list[dict]]:
    events = RULES.setup(seed, seats, options or {})
    return RULES.fold(events), events


def play(st: ArchState, cmd: dict, seat: int, version: int = 99) -> tuple[ArchState, list[dict]]:
    events = RULES.decide(st, cmd, seat, rng_for(7, version))
    return RULES.fold(events, st), events


def advance_random(st: ArchState, until, rng: random.Random, limit: int = 5000, avoid=("declare_end",)) -> ArchState:
    """Play random legal commands (never those in ``avoid``) until ``until(st)`` holds."""
    for i in range(limit):
        if until(st) or RULES.is_over(st):
            return st
        seat = sorted(RULES.to_act(st))[0]
        legal = [c for c in RULES.legal_commands(st, seat) if c["type"] not in avoid] or RULES.legal_commands(st, seat)
        st, _ = play(st, rng.choice(legal), seat, i)
    return st
