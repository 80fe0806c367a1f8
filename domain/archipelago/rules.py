"""The Archipelago ``Rules`` object: setup, fold, decide, views, redaction, result, determinize.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from domain.archipelago import catalogue, labels, schema, scoring
from domain.archipelago import data as D
from domain.archipelago import evaluate as evaluation
from domain.archipelago.decide import decide as _decide
from domain.archipelago.decide import decide_and_apply as _decide_and_apply
from domain.archipelago.decide import prompt, run
from domain.archipelago.evolve import apply, evolve
from domain.archipelago.flow import Ctx, advance, shuffled_stack
from domain.archipelago.legal import legal_commands as _legal
from domain.archipelago.state import ArchState, clone, composed_tile, copy_on_write, face_source
from domain.archipelago.view import reveal_all, view
from domain.game import Capabilities, GameResult, InvalidOptions, Option, Rules, validate_options
from domain.rng import rng_for

HIDDEN_EVENTS = {"EvolutionDeckShuffled", "ExplorationStackShuffled", "ExplorationStackReshuffled"}
SEAT_PRIVATE = {
    "ObjectivesDealt": "cards",
    "ObjectivesKept": "cards",
    "Turn0HandDealt": "tiles",
    "Turn0HandSetAside": "tiles",
    "BidCommitted": "amount",
    "CartographerLooked": "tiles",
}
SEAT_PRIVATE_EXTRA = {"Turn0HandDealt": ("faces",)}  # further fields only the holder sees
REVEALING = {
    "GameStarted",
    "EvolutionDeckShuffled",
    "EvolutionMarketDealt",
    "TrendsRevealed",
    "ObjectivesDealt",
    "ObjectivesLaidOut",
    "ExplorationStackShuffled",
    "ExplorationStackReshuffled",
    "Turn0HandDealt",
    "TileDrawn",
    "CartographerLooked",
    "SlotRefilled",
    "CardsRevealed",
    "BidsRevealed",
    "GameEnded",
}


_RESAMPLED_IN_PLACE = ("bids", "cart_seen", "dealt_objectives", "hands", "objectives")  # see ``determinize``
_BACK = {c: card.back.id for c, card in D.CARDS.items()}  # evolution card -> the id of its back
# (length, only objectives without a special) -> the objective ids, in the order of ``D.OBJECTIVES``
_OBJECTIVES_OF_LENGTH = {
    (length, plain): [o.id for o in D.OBJECTIVES.values() if o.length == length and (not plain or o.special is None)]
    for length in D.LENGTHS
    for plain in (False, True)
}


def parse_trend_list(text: str) -> list[str]:
    ids = [t.strip() for t in text.split(",") if t.strip()]
    if not 1 <= len(ids) <= 12 or len(set(ids)) != len(ids) or any(t not in D.TRENDS for t in ids):
        raise InvalidOptions("choose_trends must list 1 to 12 distinct trend ids (T01..T12), comma-separated")
    return ids


class Archipelago(Rules):
    name = "archipelago"
    title = "Archipelago"
    min_players = 2
    max_players = 5
    state_version = "1"
    capabilities = Capabilities(play_in_place=True, apply_in_place=True, decide_and_apply=True)
    options_schema = (
        Option("length", "str", "medium", "objective set / game length", choices=D.LENGTHS),
        Option("start", "str", "ocean", "start tile variant", choices=("ocean", "desert", "volcano")),
        Option("no_secrets", "bool", False, "NO_SECRETS: open objectives and holdings, no trends"),
        Option("more_trends", "bool", False, "MORE_TRENDS: reveal 2 trend cards"),
        Option("more_fun", "bool", False, "MORE_FUN: deal twice the objectives, keep half"),
        Option("choose_trends", "str", "", "CHOOSE_TRENDS: comma-separated trend ids (empty = random)"),
        Option("good_guys", "bool", False, "GOOD_GUYS: Humanism plus random trend(s); no Separatist/Pacifist"),
        Option("auto_end", "bool", False, "AUTO_END: the engine declares the end as soon as a condition holds"),
    )

    def validate_options(self, options: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        self.check_seats(seats)
        opts = validate_options(self.options_schema, options)
        if opts["no_secrets"] and (
            opts["more_fun"] or opts["more_trends"] or opts["choose_trends"] or opts["good_guys"]
        ):
            raise InvalidOptions("no_secrets excludes more_fun, more_trends, choose_trends and good_guys")
        if opts["choose_trends"]:
            parse_trend_list(opts["choose_trends"])
        if opts["more_fun"] and opts["good_guys"] and seats > 4:
            raise InvalidOptions("more_fun with good_guys allows at most 4 players")
        return opts

    # ------------------------------------------------------------------------------------------------ setup
    def setup(self, seed: int, seats: int, options: dict[str, Any]) -> list[dict]:
        opts = self.validate_options(options, seats)
        rng = rng_for(seed, 0, "setup")
        order = list(range(seats))
        rng.shuffle(order)
        deck = list(D.CARD_IDS)
        rng.shuffle(deck)
        ctx = Ctx(ArchState(), None)
        ctx.emit({"type": "GameStarted", "seats": seats, "options": opts, "order": order})
        ctx.emit({"type": "EvolutionDeckShuffled", "deck": deck})
        ctx.emit({"type": "EvolutionMarketDealt", "cards": deck[: D.EVO_MARKET_SLOTS]})
        if not opts["no_secrets"]:
            if opts["choose_trends"]:
                trends = parse_trend_list(opts["choose_trends"])
                if opts["good_guys"] and D.HUMANISM not in trends:
                    trends.insert(0, D.HUMANISM)
            else:
                pool = sorted(D.TRENDS)
                k = 2 if opts["more_trends"] else 1
                trends = []
                if opts["good_guys"]:
                    pool.remove(D.HUMANISM)
                    trends = [D.HUMANISM]
                rng.shuffle(pool)
                trends += pool[:k]
            ctx.emit({"type": "TrendsRevealed", "trends": trends})
        objs = [o.id for o in D.OBJECTIVES.values() if o.length == opts["length"]]
        if seats == 2 or opts["no_secrets"] or opts["good_guys"]:
            objs = [o for o in objs if D.OBJECTIVES[o].special is None]
        rng.shuffle(objs)
        if opts["no_secrets"]:
            ctx.emit({"type": "ObjectivesLaidOut", "cards": objs[:seats]})
        else:
            k = (2 if seats == 2 else 1) * (2 if opts["more_fun"] else 1)
            for i, seat in enumerate(order):
                dealt = {"type": "ObjectivesDealt", "seat": seat, "cards": objs[i * k : (i + 1) * k]}
                if opts["more_fun"]:
                    dealt["keep"] = k // 2  # the others go back unseen: never revealed (§3.10)
                ctx.emit(dealt)
        ctx.emit({"type": "ExplorationStackShuffled", "stack": shuffled_stack(rng, list(D.TILE_IDS))})
        if opts["more_fun"]:
            ctx.emit({"type": "ObjectiveChoiceStarted"})
        else:
            from domain.archipelago.flow import start_turn0

            start_turn0(ctx)
        advance(ctx)
        return ctx.events

    def initial_state(self) -> ArchState:
        return ArchState()

    def evolve(self, state: ArchState, event: dict) -> ArchState:
        return evolve(state, event)

    def fold(self, events: list[dict], state: ArchState | None = None) -> ArchState:
        """The pure fold with one copy for the whole run of events (``evolve`` copies per event)."""
        st = ArchState() if state is None else clone(state)
        for event in events:
            apply(st, event)
        return st

    # ---- the in-place fast path for search bots (each equals the pure path; property tests check it)
    def copy_state(self, state: ArchState) -> ArchState:
        """A private copy that ``play`` and ``apply_in_place`` may mutate."""
        return clone(state)

    def play(self, state: ArchState, command: dict, seat: int, rng: random.Random) -> list[dict]:
        """``decide`` and fold its events into ``state`` itself; returns the events. A refused command raises
        ``IllegalCommand`` and leaves ``state`` as it was."""
        return run(state, command, seat, rng)

    def apply_in_place(self, state: ArchState, event: dict) -> ArchState:
        """Fold one event into ``state`` itself (``evolve`` without the copy)."""
        apply(state, event)
        return state

    def decide(self, state: ArchState, command: dict, seat: int, rng: random.Random) -> list[dict]:
        return _decide(state, command, seat, rng)

    def decide_and_apply(
        self, state: ArchState, command: dict, seat: int, rng: random.Random
    ) -> tuple[list[dict], ArchState]:
        return _decide_and_apply(state, command, seat, rng)

    def to_act(self, state: ArchState) -> set[int]:
        return set(prompt(state)[1])

    def legal_commands(self, state: ArchState, seat: int) -> list[dict]:
        return _legal(state, seat)

    # ------------------------------------------------------------------------------------------------ views
    def view(self, state: ArchState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def reveal_all(self, state: ArchState) -> dict[str, Any]:
        return reveal_all(state)

    def redact(self, event: dict, seat: int | None) -> dict:
        t = event["type"]
        if t in HIDDEN_EVENTS:
            key = "deck" if t == "EvolutionDeckShuffled" else "stack"
            return {"type": t, "size": len(event[key])}
        field = SEAT_PRIVATE.get(t)
        if field and event.get("seat") != seat:
            hidden = {**event, field: None}
            if isinstance(event[field], list):
                hidden["count"] = len(event[field])
            for extra in SEAT_PRIVATE_EXTRA.get(t, ()):
                if extra in hidden:
                    hidden[extra] = None
            return hidden
        return event

    def public_event(self, event: dict) -> dict:
        """§3.10: an objective returned under MORE_FUN is never revealed, not even after the end. A MORE_FUN deal
        (it names how many cards its holder keeps) shows its count only; ``ObjectivesKept`` names the kept ones."""
        if event["type"] == "ObjectivesDealt" and event.get("keep") is not None:
            return {**event, "cards": None, "count": len(event["cards"])}
        return event

    def reveals(self, event: dict) -> bool:
        return event["type"] in REVEALING

    # ---- what clients are told
    def catalogue(self) -> dict[str, Any]:
        return catalogue.catalogue()

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        return schema.command_schemas()

    def view_schema(self) -> dict[str, Any]:
        return schema.VIEW

    def label(self, state: ArchState, seat: int, command: dict) -> dict[str, Any]:
        return labels.label(state, seat, command)

    def is_over(self, state: ArchState) -> bool:
        return state.phase == "OVER"

    def result(self, state: ArchState) -> GameResult:
        return scoring.result(state)

    def evaluate(self, state: ArchState, seat: int) -> float:
        return evaluation.evaluate(state, seat)

    def evaluate_all(self, state: ArchState) -> list[float]:
        return evaluation.evaluate_all(state)

    def peril(self, state: ArchState) -> tuple[float, tuple[int, ...]]:
        return evaluation.peril(state)

    def command_cost(self, command: dict) -> float:
        return evaluation.command_cost(command)

    def evaluation_change(self, state: ArchState, command: dict) -> float | None:
        return evaluation.evaluation_change(state, command)

    def determinize(self, state: ArchState, seat: int, rng: random.Random) -> ArchState:
        """A world for ``seat``. Like every state the bots plan on, it is only read or copied (``copy_state``) before
        it is changed in place, so it shares with ``state`` every field it does not resample; the fields changed
        in place below (``_RESAMPLED_IN_PLACE``) are copied first, the others are replaced."""
        st = copy_on_write(state, _RESAMPLED_IN_PLACE)
        if len(st.deck) > 1:
            # the top card shows its back (shared by 3 to 5 cards, §3.10 v1.2), not its front: the front is drawn
            # among the deck's cards of that back, and the rest of the deck shuffled. Whether the top card's red
            # crisis was already resolved is public (it stayed on top), which front it is is not: the mark goes
            # with the front drawn (the mark names a card, so keeping it on the true one would name the front)
            top = st.deck[0]
            back = _BACK[top]
            alike = [i for i, card in enumerate(st.deck) if _BACK[card] == back]
            deck = list(st.deck)
            pick = rng.choice(alike)
            deck[0], deck[pick] = deck[pick], deck[0]
            if deck[0] != top:
                marks = st.resolved_red - {top, deck[0]}
                st.resolved_red = marks | {deck[0]} if top in st.resolved_red else marks
            rest = deck[1:]
            rng.shuffle(rest)
            st.deck = deck[:1] + rest
            if st.crisis and st.crisis.get("card") == top:  # an open crisis is the top card's: the same world
                st.crisis = {**st.crisis, "card": st.deck[0]}
        # exploration tiles: keep what the seat has seen (own hand, CARTOGRAPHER look, the top tile's up face),
        # resample the rest, the top tile's hidden face included (§3.10 v1.2)
        seen = st.cart_seen.get(seat) or []
        keep = 0
        while keep < len(seen) and keep < len(st.stack) and st.stack[keep][0] == seen[keep][0]:
            keep += 1
        hidden = [x[0] for x in st.stack[keep:]]
        other_hands = [s for s in range(st.n) if s != seat]
        for s in other_hands:
            hidden += [x[0] for x in st.hands[s]]
        hidden += [x[0] for x in st.set_aside]
        head = st.stack[:keep]
        if keep == 0 and st.stack:
            head = [self._top_with_sampled_back(st.stack[0], hidden, rng)]
            hidden = hidden[1:]
            keep = 1
        rng.shuffle(hidden)
        it = iter(hidden)
        tail = [[next(it), rng.choice("AB")] for _ in st.stack[keep:]]
        st.stack = head + tail
        for s in other_hands:
            st.hands[s] = [[next(it), rng.choice("AB")] for _ in st.hands[s]]
        st.set_aside = [[next(it), rng.choice("AB")] for _ in st.set_aside]
        for s in other_hands:
            st.cart_seen.pop(s, None)
        if not st.options.get("no_secrets"):
            mine = set(st.objectives[seat]) | set(st.dealt_objectives[seat])
            plain = st.n == 2 or st.options.get("good_guys")
            pool = [o for o in _OBJECTIVES_OF_LENGTH[st.length, bool(plain)] if o not in mine]
            rng.shuffle(pool)
            for s in other_hands:
                dealt = st.dealt_objectives[s]
                if dealt:
                    new, pool = pool[: len(dealt)], pool[len(dealt) :]
                    st.dealt_objectives[s] = new
                    st.objectives[s] = new[: len(st.objectives[s])]
                else:
                    k = len(st.objectives[s])
                    st.objectives[s], pool = pool[:k], pool[k:]
        for s in list(st.bids):
            if s != seat:
                st.bids[s] = rng.randint(0, max(0, st.players[s]["money"]))
        return st

    @staticmethod
    def _top_with_sampled_back(top: list, hidden: list[str], rng: random.Random) -> list:
        """The top tile keeps its public up face; its hidden face is drawn from every face the seat has not seen.

        ``hidden[0]`` is the top tile. When the drawn face belongs to another tile, the two tiles swap those faces
        (made-up tile ids, see ``state.composed_tile``), so every printed face stays in play exactly once.
        """
        real, up = top
        back = "B" if up == "A" else "A"
        choices = [face_source(real, back)] + [face for t in hidden[1:] for face in _printed_faces(t)]
        donor_face = rng.choice(choices)
        if donor_face == face_source(real, back):
            return [real, up]
        k = 1 + (choices.index(donor_face) - 1) // 2
        donor = hidden[k]
        donor_letter = "A" if face_source(donor, "A") == donor_face else "B"
        donor_keeps = face_source(donor, "B" if donor_letter == "A" else "A")
        faces = {up: face_source(real, up), back: donor_face}
        hidden[k] = composed_tile(donor_keeps, face_source(real, back))
        return [composed_tile(faces["A"], faces["B"]), up]


@lru_cache(maxsize=1024)
def _printed_faces(tid: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """``face_source`` of faces A and B of ``tid``."""
    return face_source(tid, "A"), face_source(tid, "B")


RULES = Archipelago()
