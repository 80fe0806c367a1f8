"""Murano game data: board, ring, tile mixes, cards and tunable constants.

Everything the rules file (docs/rules/murano.md) marks DESIGNED lives here, so it can be replaced without touching
the rules code: the island grids (§2.2), the ring order and anchors (§2.5), the street/shop/palace mixes (§3), the
special-building effects' ids and names (§12) and the character cards with their score formulas (§13.3). The real
facts (counts, prices) are kept next to them as named constants for the same reason.

Change log of the DESIGNED values:

* v1.1 income redesign (§2.2a). The v1.0 grids let 45 of 50 brown spaces touch a single paved space, so no shop
  could earn more than 3 from its colour and the seed's example (one Income paying 6: red shop 4, blue shop 2)
  could not be built. SACCA_MATTIA, SAN_PIETRO_MARTIRE, SANTO_STEFANO and SACCA_SERENELLA were redrawn (SAN_DONATO
  and NAVAGERO, which the acceptance examples of §16.1 use, are unchanged): SACCA_MATTIA r2c3 touches 4 paved
  spaces and r2c1 / r2c5 touch 2, and each redrawn island has brown spaces in the crooks of its streets. Brown
  spaces by paved neighbours, 4 players: 1 -> 38, 2 -> 7, 3 -> 4, 4 -> 1 (v1.0: 45 / 4 / 1 / 0). Per-island
  counts changed (SACCA_MATTIA 10 S / 10 B, SAN_PIETRO_MARTIRE 6 S / 9 B), totals did not (2-3 players 36 S / 43 B,
  4 players 42 S / 50 B); the street faces, their mix and the 2-3 player removal are unchanged. The §2.2
  properties are re-checked by tests/domain/murano/test_setup.py, the seed's example is built in
  tests/domain/murano/test_actions.py.
  Figures from bot games, ``python benchmarks/murano_income.py 300 1 builder`` (100 games each with 2, 3 and 4
  players; ``builder`` is the scripted policy of that script, because the ``greedy`` and ``mcts`` bots of
  ``domain.bots`` pass nearly every turn in Murano on this code: a 2-player greedy game passed 400 turns and was
  aborted, an ``mcts:60:8`` game took 1 action):
      v1.0 grids: Income is 10.7% of all actions (4081 Income actions), mean payout 0.85, largest 6, 4 or more
      in 1% of them; "take 2 gold" is 11.3% of actions and pays 2.04 on average.
      v1.1 grids: Income is 10.5% of all actions (3855), mean payout 1.02 (2p 1.35, 3p 0.97, 4p 0.80), largest
      6, 4 or more in 3% (2p 7%); "take 2 gold" 11.2%, mean 2.03.
  A denser street mix (6 of each face, 18 customers per colour) raised the mean only to 1.15 in the same run
  and was not adopted. Income stays below "take 2 gold" on average for this policy, which builds few shops.
  (The bots have since learnt Murano: with built shops valued by the Income they can pay, ``easy`` collects
  Income in 2.1-2.6% of its commands and in about 9 games of 10 at 2-4 players, ``benchmarks/bot_ladder.py``.)
"""

from __future__ import annotations

# ---- constants (§16) ----------------------------------------------------------------------------------------------
GONDOLA_SEATS = 1  # the rules code supports exactly one seat per gondola
RED_SHIP_MAY_PASS = False  # the rules code implements only the default (False)
MAX_OWNED_GONDOLIERS = 7
SALE = {1: 5, 2: 12, 3: 20}
PRODUCTION_VP_LOSS = 2
FINAL_SCORING_STRICT = True
START_GOLD = 5
START_VP = 5
START_PERSONAL_GONDOLIERS = 5
START_GENERAL_GONDOLIERS = 2
MAX_TURNS = 400
RING_SIZE = 18
REMOVED_CHARACTERS = 5  # removed unseen at setup, all player counts

PLAYER_COLOURS = ("white", "brown", "orange", "grey")
CUSTOMER_COLOURS = ("red", "grey", "blue")
BEAD_COLOURS = ("red", "green", "blue")
BEADS_PER_COLOUR = 10

# ---- prices (§7) --------------------------------------------------------------------------------------------------
TAKE_GOLD = 2
TAKE_GOLD_CUSTOMS = 3
FACTORY_PRICE = 1
TOP_PRICE = 2
CHOOSE_PRICE = 4
CHOOSE_PRICE_TOWN_HALL = 3
SPECIAL_TILE_PRICE = 2
SEAT_OWN_PRICE = 2
SEAT_OTHER_PRICE = 5
SEAT_OWN_PRICE_HARBOR = 1
SEAT_OTHER_PRICE_HARBOR = 3
GONDOLIER_FIRE_GOLD = 3
GONDOLIER_HIRE_PRICE = 3
PASS_GOLD = 1
MINT_BONUS = 2
GUILD_HALL_VP = 5
BUILD_VP = {"glass_factory": 1, "shop": 2, "palace": 3, "special_building": 0}
MAX_BUILD_TILES = 3
SPECIAL_CARDS_DRAWN = 3
CHARACTERS_DRAWN = 3

# ---- islands (§2.1, §2.2 DESIGNED grids) -----------------------------------------------------------------------
# Order matters only for listing; SACCA_SERENELLA is buildable with 4 players only; SG_SM is never buildable.
ISLANDS = ("SACCA_MATTIA", "SAN_DONATO", "SAN_PIETRO_MARTIRE", "NAVAGERO", "SANTO_STEFANO", "SACCA_SERENELLA")
FOUR_PLAYER_ONLY_ISLANDS = ("SACCA_SERENELLA",)
ISLAND_NAMES = {
    "SACCA_MATTIA": "Sacca Mattia",
    "SAN_DONATO": "San Donato",
    "SAN_PIETRO_MARTIRE": "San Pietro Martire",
    "NAVAGERO": "Navagero",
    "SANTO_STEFANO": "Santo Stefano",
    "SACCA_SERENELLA": "Sacca Serenella",
    "SG_SM": "S. Giacomo e S. Maffio",
}
# v1.1 (§2.2a): SACCA_MATTIA, SAN_PIETRO_MARTIRE, SANTO_STEFANO and SACCA_SERENELLA redesigned (see the log above);
# SAN_DONATO and NAVAGERO are the v1.0 grids, which the acceptance examples of §16.1 use.
ISLAND_GRIDS = {
    "SACCA_MATTIA": [".BB.BB.", ".SSSSS.", ".BSBSB.", ".BSSSB.", "..B...."],
    "SAN_DONATO": [".B.BB.", "SSSSSB", "B.BSB.", ".BSSB.", "..B..."],
    "SAN_PIETRO_MARTIRE": [".B.B.", "BSBSB", "BSSSB", ".BSB."],
    "NAVAGERO": ["BSB..", "BSSSB", ".B.SB", "..BS."],
    "SANTO_STEFANO": ["BBB.", "SSS.", "BBSB", "BSS."],
    "SACCA_SERENELLA": [".B.BB", "BSBSS", "BSSSB"],
}

# ---- the action ring (§2.5 DESIGNED order and anchors) ----------------------------------------------------------
RING = (
    "BUILD",
    "BUY_GLASS_FACTORY",
    "BUY_SHOP",
    "INCOME",
    "PLACE_GONDOLIER",
    "BUY_PALACE",
    "PRODUCTION",
    "BUILD",
    "BUY_SPECIAL_BUILDING",
    "GONDOLIERS",
    "HIRE_CHARACTER",
    "BUY_SHOP",
    "BUILD",
    "TAKE_2_GOLD",
    "BUY_GLASS_FACTORY",
    "PLACE_GONDOLIER",
    "BUY_PALACE",
    "HIRE_CHARACTER",
)
ANCHORS = (0, 3, 6, 7, 9, 12, 13, 17)
SHIPS = 8  # ship 0 is red, 1-7 are black
RED_SHIP = 0

# ---- tile mixes (§3 DESIGNED) ----------------------------------------------------------------------------------
# face id -> customers on the tile
STREET_FACES = {
    "ST_NONE": {},
    "ST_R": {"red": 1},
    "ST_G": {"grey": 1},
    "ST_B": {"blue": 1},
    "ST_RG": {"red": 1, "grey": 1},
    "ST_RB": {"red": 1, "blue": 1},
    "ST_GB": {"grey": 1, "blue": 1},
}
STREET_COUNTS = {"ST_NONE": 12, "ST_R": 6, "ST_G": 6, "ST_B": 6, "ST_RG": 4, "ST_RB": 4, "ST_GB": 4}
SHOP_COUNTS = {"red": 4, "grey": 4, "blue": 4}
PALACE_COUNTS = {1: 4, 2: 4, 3: 4}  # crests -> tiles
GLASS_FACTORY_COUNT = 12
SPECIAL_TILE_COUNT = 12

# 2-3 player removals (§4): by face, except the one palace removed at random.
SMALL_GAME_REMOVED_STREETS = {"ST_R": 1, "ST_G": 1, "ST_B": 1, "ST_NONE": 4}
SMALL_GAME_REMOVED_SHOPS = {"red": 1, "grey": 1, "blue": 1}
SMALL_GAME_REMOVED_FACTORIES = 1
SMALL_GAME_REMOVED_SPECIAL_TILES = 3
SMALL_GAME_REMOVED_PALACES = 1  # at random, unseen

# ---- special-building cards (§12; SB08-SB15 effects DESIGNED) -------------------------------------------------
SPECIAL_CARDS = {
    "SB01": "Harbor",
    "SB02": "Basilica",
    "SB03": "Guild Hall",
    "SB04": "Colour Exchange red/green",
    "SB05": "Colour Exchange green/blue",
    "SB06": "Colour Exchange blue/red",
    "SB07": "Arsenale",
    "SB08": "Customs House",
    "SB09": "Shipyard",
    "SB10": "Glassblowers' School",
    "SB11": "Market Hall",
    "SB12": "Mint",
    "SB13": "Town Hall",
    "SB14": "Scuola Grande",
    "SB15": "Lighthouse",
}
HARBOR, BASILICA, GUILD_HALL = "SB01", "SB02", "SB03"
COLOUR_EXCHANGES = {"SB04": ("red", "green"), "SB05": ("green", "blue"), "SB06": ("blue", "red")}
ARSENALE, CUSTOMS_HOUSE, SHIPYARD, GLASSBLOWERS_SCHOOL = "SB07", "SB08", "SB09", "SB10"
MARKET_HALL, MINT, TOWN_HALL, SCUOLA_GRANDE, LIGHTHOUSE = "SB11", "SB12", "SB13", "SB14", "SB15"
IMMEDIATE_SPECIAL_CARDS = (GUILD_HALL,)

# ---- character cards (§13.3; most DESIGNED) -------------------------------------------------------------------
# id -> (name, island or "ANY", minimum player count, formula in the grammar of §13.2)
CHARACTERS = {
    "C01": ("Red Shop Patron", "ANY", 2, "4 * SH[red]"),
    "C02": ("Grey Shop Patron", "ANY", 2, "4 * SH[grey]"),
    "C03": ("Blue Shop Patron", "ANY", 2, "4 * SH[blue]"),
    "C04": ("Glass Monopolist", "ANY", 2, "IF(GF_own >= 1 and GF_opp == 0, 12)"),
    "C05": ("Herald of Glass", "ANY", 2, "IF(GF >= 1 and GF == CR, 12)"),
    "C06": ("Balanced Quarter", "ANY", 2, "IF(GF >= 1 and GF == PA and PA == SH, 16)"),
    "C07": ("Local Developer", "ANY", 2, "2 * OWN + 1 * OPP"),
    "C08": ("Red Crowd", "ANY", 2, "2 * CU[red]"),
    "C09": ("Grey Crowd", "ANY", 2, "2 * CU[grey]"),
    "C10": ("Blue Crowd", "ANY", 2, "2 * CU[blue]"),
    "C11": ("Herald", "ANY", 2, "2 * CR"),
    "C12": ("Palace Architect", "ANY", 2, "4 * PA"),
    "C13": ("Glass Collector", "ANY", 2, "3 * GF"),
    "C14": ("Patron of Works", "ANY", 2, "5 * SB"),
    "C15": ("Full Assortment", "ANY", 2, "IF(SH[red] >= 1 and SH[grey] >= 1 and SH[blue] >= 1, 10)"),
    "C16": ("Completed Quarter", "ANY", 2, "IF(FREE_S == 0 and FREE_B == 0, 12)"),
    "C17": ("Paver", "ANY", 2, "IF(FREE_S == 0, 8)"),
    "C18": ("Quiet Lanes", "ANY", 2, "3 * ST_NONE"),
    "C19": ("Shopkeeper", "ANY", 2, "3 * SH_own"),
    "C20": ("Glassmaster", "ANY", 2, "3 * GF_own"),
    "C21": ("Market Leader", "ANY", 2, "IF(SH_own >= 1 and ALL(q in OPPONENTS: SH_own > SH_of(q)), 10)"),
    "C22": ("Equal Partner", "ANY", 2, "IF(SH_own >= 1 and ANY(q in OPPONENTS: SH_of(q) == SH_own), 10)"),
    "C23": ("Twin Furnaces", "ANY", 2, "IF(GF_own >= 1 and ANY(q in OPPONENTS: GF_of(q) == GF_own), 10)"),
    "C24": ("Clean Air", "ANY", 2, "IF(GF == 0 and PA >= 2, 10)"),
    "C25": ("Quiet Harbour", "ANY", 2, "IF(CU[blue] + CU[red] <= 3, 10)"),
    "C26": ("Variety", "ANY", 2, "2 * TYPES"),
    "C27": ("Builder", "ANY", 2, "1 * (BLD + ST)"),
    "C28": ("Shop Street", "ANY", 2, "2 * SH"),
    "C29": ("Furnace Baron", "SACCA_MATTIA", 2, "4 * GF"),
    "C30": ("Land Reclaimer", "SACCA_MATTIA", 2, "2 * BLD"),
    "C31": ("Canon of San Donato", "SAN_DONATO", 2, "3 * CR"),
    "C32": ("Market Warden", "SAN_DONATO", 2, "3 * SH"),
    "C33": ("Prior of San Pietro", "SAN_PIETRO_MARTIRE", 2, "5 * PA"),
    "C34": ("Pilgrim Host", "SAN_PIETRO_MARTIRE", 2, "2 * CU"),
    "C35": ("Navagero Patron", "NAVAGERO", 2, "6 * SB"),
    "C36": ("Navagero Paver", "NAVAGERO", 2, "3 * ST"),
    "C37": ("Stefano Planner", "SANTO_STEFANO", 2, "IF(FREE_B == 0, 14)"),
    "C38": ("Stefano Noble", "SANTO_STEFANO", 2, "3 * (GF + PA)"),
    "C39": ("Serenella Glassblower", "SACCA_SERENELLA", 4, "4 * GF"),
    "C40": ("Serenella Heraldist", "SACCA_SERENELLA", 4, "3 * CR"),
}
