"""Read-only rule queries shared by decide, legal_commands and the bots: ship moves and the completability filter
(§6), action availability (§7), build targets (§8), income (§9), production and sales (§10), seats, final scoring.

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from domain.murano import data
from domain.murano.board import Geometry, geometry
from domain.murano.state import GLASS_FACTORY, SHOP, STREET, MuranoState

ACTIONS = tuple(a.lower() for a in data.RING)
N_RING = data.RING_SIZE
INF = 1 << 30
COLOUR_INDEX = {c: i for i, c in enumerate(data.PLAYER_COLOURS)}
BEAD_INDEX = {c: i for i, c in enumerate(data.BEAD_COLOURS)}
N_COLOURS = len(data.PLAYER_COLOURS)


def geo(state: MuranoState) -> Geometry:
    return geometry(state.n)


def has(state: MuranoState, seat: int, card: str) -> bool:
    return card in state.effective[seat]


# ---- ships (§6.1, §6.2) -----------------------------------------------------------------------------------------
def occupancy(ships: Sequence[int]) -> list[int]:
    occ = [0] * N_RING
    for p in ships:
        occ[p] += 1
    return occ


def ship_targets(ships: Sequence[int], occ: list[int], ship: int, arsenale: bool) -> list[int]:
    """Destinations of one ship: the run of empty spaces ahead; with Arsenale the red ship may also join the first
    occupied space ahead (rule (b) still holds)."""
    p = ships[ship]
    out = []
    for d in range(1, N_RING):
        t = (p + d) % N_RING
        if occ[t]:
            if arsenale and ship == data.RED_SHIP:
                out.append(t)
            break
        out.append(t)
    return out


def move_cost(k: int, shipyard: bool) -> int:
    """Cost of the k-th ship move of a turn (1-based)."""
    return max(0, k - 2) if shipyard else k - 1


def action_needs(state: MuranoState, seat: int) -> dict[str, int]:
    """Minimum gold with which each action is available for ``seat`` (INF = not available at any gold)."""
    if state.personal[seat] >= 1:
        own = COLOUR_INDEX[state.colours[seat]]
        harbor = has(state, seat, data.HARBOR)
        own_price = data.SEAT_OWN_PRICE_HARBOR if harbor else data.SEAT_OWN_PRICE
        other_price = data.SEAT_OTHER_PRICE_HARBOR if harbor else data.SEAT_OTHER_PRICE
        best = INF
        for i, occupant in enumerate(state.gondolas):
            if occupant < 0:
                price = own_price if i % N_COLOURS == own else other_price
                if price < best:
                    best = price
        gold_seat = best
    else:
        gold_seat = INF
    if state.personal[seat] >= 1:
        gondoliers = 0
    elif owned_gondoliers(state, seat) < data.MAX_OWNED_GONDOLIERS and state.general[seat] >= 1:
        gondoliers = data.GONDOLIER_HIRE_PRICE
    else:
        gondoliers = INF
    return {
        "take_2_gold": 0,
        "buy_glass_factory": data.FACTORY_PRICE if state.factories else INF,
        "buy_shop": data.TOP_PRICE if state.shops else INF,
        "buy_palace": data.TOP_PRICE if state.palaces else INF,
        "buy_special_building": data.SPECIAL_TILE_PRICE if state.special_tiles else INF,
        "hire_character": hire_cost(state, seat) if state.char_deck else INF,
        "place_gondolier": gold_seat,
        "build": 0 if has_first_placement(state, seat) else INF,
        "income": 0,
        "production": 0,
        "gondoliers": gondoliers,
    }


def ring_needs(state: MuranoState, seat: int) -> list[int]:
    needs = action_needs(state, seat)
    return [needs[a] for a in ACTIONS]


def turn_needs(state: MuranoState, seat: int) -> tuple[int, ...]:
    """ring_needs, cached on the state: ship moves change no need, every other event clears the cache."""
    cached = state.needs
    if cached is not None and cached[0] == seat:
        needs_of_seat: tuple[int, ...] = cached[1]
        return needs_of_seat
    needs = tuple(ring_needs(state, seat))
    state.needs = (seat, needs)
    return needs


def _route_length(occ: list[int], target: int) -> int:
    """m(T) of §6.3: least number of moves ending with a ship moving onto ``target``."""
    if not occ[target]:
        return 1
    need = occ[target]
    for i in range(1, N_RING):
        if occ[(target + i) % N_RING]:
            need += occ[(target + i) % N_RING] - 1
        else:
            need -= 1
        if need == 0:
            return i + 1
    return INF  # pragma: no cover - impossible with 8 ships on 18 spaces


def completable(
    ships: Sequence[int], k: int, gold: int, last_ship: int, needs: Sequence[int], shipyard: bool, arsenale: bool
) -> bool:
    """§6.3: can the turn still be finished with an ``act`` after ``k`` moves with ``gold`` left?"""
    if k >= 1 and needs[ships[last_ship]] <= gold:
        return True
    first = move_cost(k + 1, shipyard)
    if first > gold:
        return False  # no further move is affordable (whatever the cards)
    occ = occupancy(ships)
    for t in range(N_RING):
        need = needs[t]
        if need + first > gold:
            continue
        m = _route_length(occ, t)
        if m == 1:
            return True
        cost = 0
        for j in range(k + 1, k + m + 1):
            cost += move_cost(j, shipyard)
        if gold - cost >= need:
            return True
    if not arsenale:
        return False
    # Arsenale: the red ship may join the first occupied space ahead in one move.
    red_targets = ship_targets(ships, occ, data.RED_SHIP, True)
    if red_targets and occ[red_targets[-1]] and gold - move_cost(k + 1, shipyard) >= needs[red_targets[-1]]:
        return True
    return _search(tuple(ships), k, gold, needs, shipyard, {})


def _search(
    ships: tuple[int, ...],
    k: int,
    gold: int,
    needs: Sequence[int],
    shipyard: bool,
    seen: dict[tuple[tuple[int, ...], int], bool],
) -> bool:
    """Exhaustive fallback for Arsenale owners (depth bounded: move costs rise, gold is finite)."""
    key = (ships, k)
    if key in seen:
        return seen[key]
    seen[key] = False
    cost = move_cost(k + 1, shipyard)
    if cost > gold:
        return False
    occ = occupancy(ships)
    for ship in range(data.SHIPS):
        for t in ship_targets(ships, occ, ship, True):
            if needs[t] <= gold - cost:
                seen[key] = True
                return True
            nxt = ships[:ship] + (t,) + ships[ship + 1 :]
            if move_cost(k + 2, shipyard) <= gold - cost and _search(nxt, k + 1, gold - cost, needs, shipyard, seen):
                seen[key] = True
                return True
    return False


def all_moves(ships: Sequence[int], occ: list[int], arsenale: bool) -> list[tuple[int, int]]:
    """Every (ship, to) ship move of §6.1 (pass moves; before the cost and completability filters)."""
    out = []
    for ship, p in enumerate(ships):
        t = p + 1 if p < N_RING - 1 else 0
        while not occ[t]:
            out.append((ship, t))
            t = t + 1 if t < N_RING - 1 else 0
        if arsenale and ship == data.RED_SHIP:
            out.append((ship, t))
    return out


def legal_moves(
    state: MuranoState, seat: int, for_pass: bool = False, moves: list[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """(ship, to) pairs. For a pass: every legal move. Otherwise: the affordable moves passing the filter.
    ``moves`` may pass in ``all_moves`` of the current position."""
    ships = state.ships
    occ = occupancy(ships)
    arsenale = has(state, seat, data.ARSENALE)
    if moves is None:
        moves = all_moves(ships, occ, arsenale)
    if for_pass:
        return moves
    out: list[tuple[int, int]] = []
    shipyard = has(state, seat, data.SHIPYARD)
    k = state.moves + 1
    cost = move_cost(k, shipyard)
    gold = state.gold[seat] - cost
    if gold < 0:
        return out
    needs = turn_needs(state, seat)
    # Targets reachable by one more (empty-space) move after this one: a quick sufficient test.
    spare = gold - move_cost(k + 1, shipyard)
    if spare < 0:
        # no further move is affordable, so acting where the ship stops is the only way to finish
        return [m for m in moves if needs[m[1]] <= gold]
    cheap = [t for t in range(N_RING) if needs[t] <= spare]
    for move in moves:
        ship, t = move
        if needs[t] <= gold:
            out.append(move)
            continue
        p = ships[ship]
        quick = False
        for c in cheap:
            if occ[c] - (c == p) + (c == t) == 0:
                quick = True
                break
        if quick:
            out.append(move)
            continue
        nxt = list(ships)
        nxt[ship] = t
        if completable(nxt, k, gold, ship, needs, shipyard, arsenale):
            out.append(move)
    return out


def move_is_legal(state: MuranoState, seat: int, ship: int, to: int, for_pass: bool) -> bool:
    occ = occupancy(state.ships)
    arsenale = has(state, seat, data.ARSENALE)
    if to not in ship_targets(state.ships, occ, ship, arsenale):
        return False
    if for_pass:
        return True
    shipyard = has(state, seat, data.SHIPYARD)
    k = state.moves + 1
    gold = state.gold[seat] - move_cost(k, shipyard)
    if gold < 0:
        return False
    nxt = list(state.ships)
    nxt[ship] = to
    return completable(nxt, k, gold, ship, turn_needs(state, seat), shipyard, arsenale)


def current_action(state: MuranoState) -> str:
    return ACTIONS[state.ships[state.last_ship]]


def can_act(state: MuranoState, seat: int) -> bool:
    if state.moves < 1:
        return False
    return turn_needs(state, seat)[state.ships[state.last_ship]] <= state.gold[seat]


# ---- prices ------------------------------------------------------------------------------------------------------
def hire_cost(state: MuranoState, seat: int) -> int:
    cost = len(state.chars[seat]) + 1
    if has(state, seat, data.SCUOLA_GRANDE):
        cost = max(0, cost - 1)
    return cost


def choose_price(state: MuranoState, seat: int) -> int:
    return data.CHOOSE_PRICE_TOWN_HALL if has(state, seat, data.TOWN_HALL) else data.CHOOSE_PRICE


def seat_price(state: MuranoState, seat: int, colour_index: int) -> int:
    harbor = has(state, seat, data.HARBOR)
    if colour_index == COLOUR_INDEX[state.colours[seat]]:
        return data.SEAT_OWN_PRICE_HARBOR if harbor else data.SEAT_OWN_PRICE
    return data.SEAT_OTHER_PRICE_HARBOR if harbor else data.SEAT_OTHER_PRICE


def seat_options(state: MuranoState, seat: int) -> list[tuple[int, int, int]]:
    """(island index, colour index, price) of every free seat the player can afford."""
    if state.personal[seat] < 1:
        return []
    out = []
    gold = state.gold[seat]
    for i, occupant in enumerate(state.gondolas):
        if occupant < 0:
            price = seat_price(state, seat, i % N_COLOURS)
            if price <= gold:
                out.append((i // N_COLOURS, i % N_COLOURS, price))
    return out


def seated(state: MuranoState, seat: int) -> int:
    return sum(1 for occupant in state.gondolas if occupant == seat)


def seated_at(state: MuranoState, seat: int, island: int) -> int:
    base = island * N_COLOURS
    return sum(1 for occupant in state.gondolas[base : base + N_COLOURS] if occupant == seat)


def owned_gondoliers(state: MuranoState, seat: int) -> int:
    return state.personal[seat] + seated(state, seat)


def can_fire(state: MuranoState, seat: int) -> bool:
    return state.personal[seat] >= 1


def can_hire_gondolier(state: MuranoState, seat: int) -> bool:
    return (
        state.gold[seat] >= data.GONDOLIER_HIRE_PRICE
        and owned_gondoliers(state, seat) < data.MAX_OWNED_GONDOLIERS
        and state.general[seat] >= 1
    )


# ---- building (§8) ----------------------------------------------------------------------------------------------
def _touches_street(board: Sequence[Any], g: Geometry, space: int) -> bool:
    for nb in g.neighbours[space]:
        cell = board[nb]
        if cell is not None and cell[0] == STREET:
            return True
    return False


def _group_candidates(state: MuranoState, g: Geometry) -> set[int]:
    cand: set[int] = set()
    for s in state.build_spaces:
        cand.update(g.neighbours[s])
    return cand


def street_targets(state: MuranoState) -> list[int]:
    g = geo(state)
    board = state.board
    if state.build_spaces:
        return sorted(s for s in _group_candidates(state, g) if g.paved[s] and board[s] is None)
    return [s for s in g.paved_spaces if board[s] is None]


def building_targets(state: MuranoState, group: bool = True) -> list[int]:
    g = geo(state)
    board = state.board
    spaces: Sequence[int]
    if group and state.build_spaces:
        spaces = sorted(s for s in _group_candidates(state, g) if not g.paved[s])
    else:
        spaces = g.brown_spaces
    return [s for s in spaces if board[s] is None and _touches_street(board, g, s)]


def hand_faces(state: MuranoState, seat: int) -> list[tuple[str, object]]:
    """Distinct (kind, face) tiles in hand, in a stable order."""
    seen = []
    for tile in state.hand[seat]:
        if tile not in seen:
            seen.append(tile)
    return seen


def has_first_placement(state: MuranoState, seat: int) -> bool:
    g = geo(state)
    board = state.board
    if state.streets:
        for s in g.paved_spaces:
            if board[s] is None:
                return True
    if state.hand[seat]:
        for s in g.brown_spaces:
            if board[s] is None and _touches_street(board, g, s):
                return True
    return False


def can_draw_street(state: MuranoState) -> bool:
    return bool(state.streets) and bool(street_targets(state))


# ---- income (§9) ------------------------------------------------------------------------------------------------
def shop_income(state: MuranoState, space: int) -> int:
    g = geo(state)
    cell = state.board[space]
    colour = cell[1]
    total = 0
    for nb in g.neighbours[space]:
        other = state.board[nb]
        if other is not None and other[0] == STREET:
            total += data.STREET_FACES[other[1]].get(colour, 0)
    return total


def income_options(state: MuranoState, seat: int) -> list[tuple[int, tuple[int, ...]]]:
    """(island index, sorted shop spaces) with at most one own shop per colour on that island."""
    g = geo(state)
    out = []
    for ii, spaces in enumerate(g.island_spaces):
        by_colour: dict[str, list[int]] = {}
        for s in spaces:
            cell = state.board[s]
            if cell is not None and cell[0] == SHOP and cell[2] == seat:
                by_colour.setdefault(cell[1], []).append(s)
        groups = [[None, *v] for v in by_colour.values()]
        for combo in product(*groups):
            out.append((ii, tuple(sorted(s for s in combo if s is not None))))
    return out


def income_amount(state: MuranoState, seat: int, shops: tuple[int, ...]) -> int:
    total = 0
    market_hall = has(state, seat, data.MARKET_HALL)
    for s in shops:
        earned = shop_income(state, s)
        total += earned
        if market_hall and earned >= 1:
            total += 1
    return total


# ---- production and sale (§10) ----------------------------------------------------------------------------------
def own_factories(state: MuranoState, seat: int) -> int:
    return sum(1 for cell in state.board if cell is not None and cell[0] == GLASS_FACTORY and cell[2] == seat)


def production_loss(state: MuranoState, seat: int) -> int:
    return 1 if has(state, seat, data.LIGHTHOUSE) else data.PRODUCTION_VP_LOSS


def max_production(state: MuranoState, seat: int) -> int:
    return min(own_factories(state, seat), state.vp[seat] // production_loss(state, seat), sum(state.bag))


def sale_options(state: MuranoState, seat: int) -> list[dict[str, int]]:
    held = state.beads[seat]
    out: list[dict[str, int]] = []
    for ci, colour in enumerate(data.BEAD_COLOURS):
        for n in range(1, min(3, held[ci]) + 1):
            out.append({colour: n})
    for card, (x, y) in data.COLOUR_EXCHANGES.items():
        if not has(state, seat, card):
            continue
        hx, hy = held[BEAD_INDEX[x]], held[BEAD_INDEX[y]]
        for a in range(1, 3):
            for b in range(1, 4 - a):
                if a <= hx and b <= hy:
                    out.append({x: a, y: b})
    return out


def sale_is_legal(state: MuranoState, seat: int, beads: dict[str, int]) -> bool:
    held = state.beads[seat]
    total = sum(beads.values())
    if not 1 <= total <= 3 or any(n < 1 or n > held[BEAD_INDEX[c]] for c, n in beads.items()):
        return False
    if len(beads) == 1:
        return True
    if len(beads) != 2:
        return False
    pair = set(beads)
    return any(has(state, seat, card) and pair == set(cols) for card, cols in data.COLOUR_EXCHANGES.items())


def sale_gold(state: MuranoState, seat: int, count: int) -> int:
    return data.SALE[count] + (data.MINT_BONUS if has(state, seat, data.MINT) else 0)


# ---- end trigger (§14) ------------------------------------------------------------------------------------------
def empty_supplies(state: MuranoState) -> list[str]:
    out = []
    if not state.streets:
        out.append("streets")
    if not state.shops:
        out.append("shops")
    if not state.factories:
        out.append("glass_factories")
    if not state.special_tiles:
        out.append("special_buildings")
    if not state.palaces:
        out.append("palaces")
    return out
