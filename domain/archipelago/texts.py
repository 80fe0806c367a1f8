"""English texts of Archipelago's cards, metrics and end conditions, from docs of the rules (§6.4, §9, §10.4, §13).

Section numbers refer to the rules file. Command parameters are named in {...}.

Section (§) and ruling (D, Q) numbers are those of docs/rules/archipelago.md.
"""

from __future__ import annotations

# §10.4: the effect of every evolution card (characters C.., progress P.., wonders W..)
CARD_EFFECTS = {
    "C01": "Reveal the top 5 cards of the deck (all if fewer) to everyone. research_pick{card or none}: you may buy one PROGRESS card among them (a wonder counts) for its minimal cost p2, paid to the bank, and add it to your track (track limit, §5.6). Discard the rest, in deck order. Then run the red trigger on the new top (§6.5). Pre: the deck is not empty.",
    "C02": "As RESEARCHER, but the card you may buy must be a CHARACTER.",
    "C03": "{op, resource}: make 1 transaction (BUY or SELL) on the domestic market (§3.6). Pre: the transaction is possible.",
    "C04": "{op, resource}: make 1 transaction on the export market. Pre: the transaction is possible.",
    "C05": "If at least 2 of your units are assigned in this harvest, gain +1 cube of the harvested resource.",
    "C06": "REB -= 1; then a further REB -= 1 if you control at least 1 temple. Pre: REB ≥ 1.",
    "C07": "This Tax pays +2ƒ.",
    "C08": "{ship, to}: move one of your available ships one step across an S link (leaving its port if housed). No passengers; the ship is not engaged.",
    "C09": "The first hire of this Recruit costs 2ƒ less (minimum 0).",
    "C10": "Open a birth step as REPRODUCE (§8.3, birth … reproduce_done) without an AD, even if you have already reproduced this round. It does not set reproduced. Pre: at least one birth is possible.",
    "C11": "Open a step: stand{citizen} for up to 2 lying citizens (any owners), then card_done. Pre: at least 1 citizen is lying.",
    "C12": "In step 1 of the Explore, privately look at the top 3 tiles (both faces) and take any one of them (cartographer_pick{index}). Put the others back on top in their original order.",
    "C13": "{pick, with}: open an EXPLORE step (§8.6) that uses no explore slot (your AD goes on this card); with may name CARTOGRAPHER. Pre: the stack holds a tile (2 for SECOND).",
    "C14": "This Build costs 1 cube fewer: the waive field names which cube of the cost. Not for SHIP.",
    "C15": "Gain min(5, floor(S / 2))ƒ, where S is the number of your standing citizens on the map. Pre: S ≥ 2.",
    "C16": "{resource}: sell 1 cube of that resource to the export market and receive 1ƒ more than its price. Pre: you hold such a cube and the row has room.",
    "C17": "Your citizens treat M links as P for walks, exploration movers and entering buildings.",
    "C18": "{ship, victim}: ship is an available ship of yours on a tile where victim, another player, has a ship. Your ship becomes engaged. The victim pays you min(2, their money)ƒ. REB += 1.",
    "C19": "When you activate a temple in a domestic demand, you may also stand up to 2 lying citizens on tiles adjacent to that temple's tile.",
    "C20": "Your TAX actions do not raise REB while you control at least 1 town.",
    "P01": "Open a MIGRATE step (§8.7) without an AD.",
    "P02": "When harvesting FRUIT or CATTLE: +1 cube of that resource.",
    "P03": "When harvesting FISH: +1 FISH.",
    "P04": "When harvesting STONE or IRON: +1 cube of that resource.",
    "P05": "When harvesting WOOD: +1 WOOD.",
    "P06": "SUR -= 2 (minimum 0). Pre: SUR ≥ 1. [REV] mentions education lowering the surplus.",
    "P07": "SUR -= 1 and gain 1ƒ. Pre: SUR ≥ 1. [REV] mentions emigration.",
    "P08": "Your MARKET ability allows 3 transactions.",
    "P09": "Your PORT ability allows 3 transactions.",
    "P10": "Your SHIP builds cost no ƒ.",
    "P11": "Your citizens may make up to 2 walks per MIGRATE.",
    "P12": "Your first TAX action each round does not raise REB.",
    "P13": "{tokens}: pay 1 FRUIT + 1 CATTLE + 1 FISH to the bank (tokens may replace cubes): REB -= 2. Pre: REB ≥ 1 and the cost is payable.",
    "P14": "{cubes}: move 1 or 2 of your cubes (not tokens; one resource or two) into domestic rows that have room, for no payment. If 2 were moved: REB -= 1. Pre: you hold a cube whose row has room.",
    "P15": "Each of your ships may make up to 2 sea steps per MIGRATE.",
    "P16": "Your per-tile citizen limit is 4. If you lose the card (trade or discard), a fourth citizen already on a tile stays, but no step may add one of your citizens to a tile holding 3 or more of them.",
    "W01": "REB -= 3",
    "W02": "Take 1 explorer token (stack rules apply, §8.6)",
    "W03": "SUR -= 2 (minimum 0)",
    "W04": "Gain 4ƒ",
}

# §13.1: scoring criteria of objectives and trends
METRICS = {
    "PORTS": "number of buildings of that type on the map that the player controls (§3.5: occupied by the player's unit, or empty on a tile the player controls)",
    "MARKETS": "number of buildings of that type on the map that the player controls (§3.5: occupied by the player's unit, or empty on a tile the player controls)",
    "TOWNS": "number of buildings of that type on the map that the player controls (§3.5: occupied by the player's unit, or empty on a tile the player controls)",
    "TEMPLES": "number of buildings of that type on the map that the player controls (§3.5: occupied by the player's unit, or empty on a tile the player controls)",
    "BUILDINGS": "PORTS + MARKETS + TOWNS + TEMPLES",
    "CITIZENS": "own citizens on the map, any posture (sacrificed ones are not on the map)",
    "SHIPS": "own ships on the map",
    "MONEY": "coins held",
    "EXPLORER": "explorer tokens held",
    "CUBES": "total cubes held (tokens are not cubes)",
    "RES(R)": "cubes of R held",
    "CARDS": "evolution cards owned plus wonders built",
    "REGIONS": "tiles where the player has at least 1 unit (citizen or ship, any place on the tile)",
    "CONTRIB": "the contrib counter (§3.9)",
}

# §13.2: end conditions of objectives
PREDICATES = {
    "BANK_EMPTY": "BANK_EMPTY(x): at least x resource types have 0 cubes in the bank",
    "TILES": "TILES(x): placed tiles (start tile included) ≥ min(x, 25)",
    "STACKS": "STACKS(x): at least x explorer stacks are empty",
    "FLEET": "FLEET(x): ships on the map (all players) ≥ x",
    "POP": "POP(p%): POP ≥ ⌈p × CIT_TOTAL / 100⌉",
    "DECK": "DECK(x): cards left in the evolution deck ≤ x",
    "BUILDINGS": "BUILDINGS(x): buildings on the map ≥ x",
    "ROUNDS": "ROUNDS(x): completed rounds ≥ x (so it is first true after Phase 6 of round x)",
    "EXPORT": "EXPORT(x): cubes in the export market ≥ x",
    "WONDERS": "WONDERS(x): wonders built (all players) ≥ x",
    "PEACE": "PEACE(p%): REB ≤ floor(POP/5) and POP ≥ ⌈p × CIT_TOTAL / 100⌉",
}

# §6.4: beige events on card backs
BEIGE_EVENTS = {
    "FAIR_WEATHER": "Rebellion -1.",
    "PEACE_TREATY": "Rebellion -1; every player gains 1 coin.",
    "RELIGIOUS_HOLIDAY": "Rebellion falls by the number of temples on the map, at most 2.",
    "BUMPER_HARVEST": "For fruit, cattle and fish in that order: 1 cube from the bank to the domestic market row.",
    "IMMIGRANTS": "Surplus +2.",
    "TRADE_WINDS": "Every player who controls at least 1 port gains 2 coins.",
}

# §9: building abilities
BUILDING_ABILITIES = {
    "MARKET": "Once per round, without an action disc: pay 1 coin and make up to 2 transactions on the domestic "
    "market (3 with GUILDS).",
    "PORT": "Once per round, without an action disc: pay 1 coin and make up to 2 transactions on the export market "
    "(3 with TRADING COMPANY).",
    "TEMPLE": "During a domestic demand, stand up the lying citizens on its tile; worth +2 coins in tax.",
    "TOWN": "Controls its tile; worth +2 coins in tax.",
    "SHIP": "A ship: carries citizens between linked tiles and counts for port anchors.",
}

ACTIONS = {
    "harvest": "Harvest: your standing citizens, and your ships on fish, take cubes of one resource from the icons "
    "of their tiles.",
    "recruit": "Recruit: hire citizens onto tiles where you have a citizen or a ship (price from the surplus track).",
    "reproduce": "Reproduce: place new citizens on tiles with two or more of your citizens.",
    "tax": "Tax: collect coins for your citizens, ships, towns and temples.",
    "trade": "Trade: buy or sell on the domestic or export market.",
    "explore": "Explore: draw an exploration tile and place it next to one of your units.",
    "migrate": "Migrate: move ships and walk citizens to linked tiles, enter or leave buildings.",
    "build": "Build: pay cubes and coins to build a ship, town, temple, market or port.",
}
