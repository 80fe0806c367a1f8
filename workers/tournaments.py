"""Tournaments run by the server: rounds of games created for an integrator, advanced as games finish.

A tournament is a document (collection ``tournaments``). Each round's games are ordinary games created
for the integrator's API key (undo disabled, rated), with ``tournament_id``, ``round`` and ``table`` in
their metadata; when the last game of a round finishes, the ``advance_tournament`` job pairs the next
round (swiss) or takes the next one of the schedule (round robin), or closes the tournament. Pairing,
seat rotation, byes and standings are ``workers.tournaments_logic``; ratings are ``workers.ratings``.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any

from domain import registry
from eventstore import utc_now_iso
from workers import bot_tables, webhooks
from workers import tournaments_logic as logic
from workers.game_model import GameError
from workers.games import GameService

COLLECTION = "tournaments"
FORMATS = ("round_robin", "swiss")
# A round robin's schedule at tables of more than 2 seats is searched within the creating request (a partition of
# the players each round, with restarts and swaps): at 64 participants that costs about 0.25 s of CPU, growing with
# the cube of the number (``tests/workers/test_tournaments_logic.py``); swiss pairs one round at a time.
ROUND_ROBIN_MAX_PARTICIPANTS = 64
INDEXES = "tournament_indexes"  # which index builds are done (the per-key index of tournaments stored before it)
# an order key of a tournament in its key's index: newest first (microseconds until this far-off instant)
_NEWEST_FIRST_FROM = datetime(9999, 1, 1, tzinfo=UTC)


def by_key_name(key_id: str) -> str:
    """An API key's tournaments (an empty document each, keyed by ``index_key``): its list, a page at a time,
    without reading every tournament."""
    return f"tournaments_of:{key_id}"


def index_key(t: dict[str, Any]) -> str:
    """The tournament's key in its API key's index: newest first by creation, then by id."""
    created = datetime.fromisoformat(t["created_at"].replace("Z", "+00:00"))
    before = (_NEWEST_FIRST_FROM - created) // timedelta(microseconds=1)
    return f"{before:020d}:{t['id']}"


class Tournaments:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store

    # ------------------------------------------------------------------------------- create
    def create(
        self, key_id: str, body: dict[str, Any], admit: Callable[[int], None] | None = None
    ) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
        """The new tournament, and its first round's seat tokens by game id (shown once: only their
        hashes are kept; ``reissue_tokens`` replaces them). ``admit``: called before anything is written with the most
        bot tables (``bot_tables``) a round of it can have, the places the tournament holds while it runs; it raises
        to refuse them."""
        try:
            rules = registry.get(body["game_type"])
        except registry.UnknownGameType:
            raise GameError("unknown_game_type", f"unknown game type {body['game_type']!r}") from None
        size = body.get("table_size") or {}
        low = size.get("min", rules.min_players if rules.min_players > 2 or rules.max_players == 2 else 3)
        high = size.get("max", min(rules.max_players, max(low, 4)))
        low = max(low, rules.min_players)
        if not rules.min_players <= low <= high <= rules.max_players:
            raise GameError(
                "invalid_seats",
                f"{rules.name} tables take {rules.min_players} to {rules.max_players} seats; asked for {low} to {high}",
            )
        options = body.get("options") or {}  # as sent: each table's game fills in the defaults for its size
        for seats in range(low, high + 1):  # a table of any size in the range must take them
            try:
                rules.validate_options(options, seats)
            except ValueError as exc:
                raise GameError(
                    "invalid_options", f"invalid options for {rules.name} at {seats} seats: {exc}"
                ) from None
        participants = self._participants(body["participants"])
        ids = [p["id"] for p in participants]
        if len(ids) < low:
            raise GameError("invalid_seats", f"{len(ids)} participants cannot fill one table of {low}")
        if body["format"] == "round_robin" and high > 2 and len(ids) > ROUND_ROBIN_MAX_PARTICIPANTS:
            raise GameError(
                "invalid_seats",
                f"a round robin at tables of more than 2 seats takes at most {ROUND_ROBIN_MAX_PARTICIPANTS}"
                f" participants, not {len(ids)} (its schedule is searched when the tournament is created); use swiss",
            )
        seed = body.get("seed", random.SystemRandom().getrandbits(32))
        if body["format"] == "round_robin":
            schedule = [
                r.to_dict() for r in logic.round_robin(ids, low, high, seed=seed, max_rounds=body.get("rounds"))
            ]
            planned = len(schedule)
        else:
            schedule = []
            planned = body.get("rounds") or logic.swiss_rounds(len(ids), high)
        tournament = {
            "id": "t_" + uuid.uuid4().hex[:20],
            "name": body["name"],
            "key_id": key_id,
            "game_type": rules.name,
            "options": options,
            "format": body["format"],
            "table_min": low,
            "table_max": high,
            "rounds_planned": planned,
            "seed": seed,
            "clock": body.get("clock"),
            "participants": participants,
            "schedule": schedule,
            "rounds": [],
            "status": "running",
            "created_at": utc_now_iso(),
            "finished_at": None,
        }
        most = self._most_bot_tables(tournament)
        if admit is not None and most:
            admit(most)
        # the key's index first: an index entry whose tournament is missing is skipped, never the other way round
        self.store.put_document(by_key_name(key_id), index_key(tournament), {})
        try:
            self.save(tournament)  # before its reservation, which lasts while the tournament is stored as running
            bot_tables.reserve(self.service.documents, tournament["id"], bot_tables.owner_of(key_id, ""), most)
            issued = self._start_round(tournament)
        except BaseException:
            # not left listed as running with a round that never got its tables (the games already made count
            # for the key below, and expire when nobody plays them)
            self.store.delete_document(COLLECTION, tournament["id"])
            self.store.delete_document(by_key_name(key_id), index_key(tournament))
            bot_tables.release(self.service.documents, tournament["id"])
            for made in (table for r in tournament["rounds"] for table in r["tables"]):
                # a table already made may be playing: it counts for the key like any game of its own
                with suppress(Exception):  # the store failing again: the first failure is the one to report
                    game = self.service.load(made["game_id"])
                    bot_tables.register(
                        self.service.documents,
                        made["game_id"],
                        bot_tables.owner_of(key_id, ""),
                        game.info.metadata.get("seats") or [],
                        hands_over=bot_tables.is_bot_table(game.info.metadata),
                    )
            raise
        return tournament, issued

    def _participants(self, raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out, seen, bots = [], set(), 0
        for p in raw:
            if p.get("bot_level"):
                bots += 1
                pid = f"bot:{p['bot_level']}:{bots}"
                out.append(
                    {
                        "id": pid,
                        "name": p.get("name") or f"{p['bot_level']} bot {bots}",
                        "kind": "bot",
                        "level": p["bot_level"],
                        "external_id": None,
                    }
                )
            else:
                if not p.get("external_id"):
                    raise GameError("invalid_seats", "a human participant needs the site's external_id")
                pid = p["external_id"]
                if pid.startswith("bot:"):  # the bot entrants' ids (above): a player's id is never one of them
                    raise GameError("invalid_seats", f"participant {pid!r}: ids starting with 'bot:' name bot entrants")
                if pid in seen:
                    raise GameError("invalid_seats", f"participant {pid!r} is listed twice")
                # a default name is never the id: a tournament's names are public, and are its games' seat names
                name = p.get("name") or f"Player {len(out) + 1}"
                out.append({"id": pid, "name": name, "kind": "human", "level": None, "external_id": pid})
            seen.add(out[-1]["id"])
        return out

    # ------------------------------------------------------------------------------- rounds
    def _round_tables(self, t: dict[str, Any]) -> tuple[list[list[str]], list[str]]:
        """The next round's tables (participant ids) and byes."""
        number = len(t["rounds"]) + 1
        ids = [p["id"] for p in t["participants"]]
        if t["format"] == "round_robin":
            planned = t["schedule"][number - 1]
            tables, byes = planned["tables"], planned["byes"]
        else:
            sizes, _ = logic.table_sizes(len(ids), t["table_min"], t["table_max"])
            order = [row["player"] for row in self.standings(t)]
            history = [table["players"] for r in t["rounds"] for table in r["tables"]]
            bye_counts: dict[str, int] = {}
            for r in t["rounds"]:
                for b in r["byes"]:
                    bye_counts[b] = bye_counts.get(b, 0) + 1
            paired = logic.pair_swiss_round(
                ids, order, history, sizes, random.Random(t["seed"] + number), bye_counts=bye_counts
            )
            tables, byes = paired.tables, paired.byes
        return tables, byes

    @staticmethod
    def _most_bot_tables(t: dict[str, Any]) -> int:
        """The most bot tables a round of ``t`` can have: tables with a bot entrant, or every table under a clock
        (its seats may pass to bots, as in a game created with one). A round robin's rounds are known; a swiss
        round has the same number of tables every round, at most one with each bot entrant."""
        clocked = t.get("clock") is not None
        bots = {p["id"] for p in t["participants"] if p["kind"] == "bot"}
        if t["format"] == "round_robin":
            counts = (sum(1 for table in r["tables"] if clocked or bots & set(table)) for r in t["schedule"])
            return max(counts, default=0)
        sizes, _ = logic.table_sizes(len(t["participants"]), t["table_min"], t["table_max"])
        return len(sizes) if clocked else min(len(sizes), len(bots))

    def _start_round(self, t: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        number = len(t["rounds"]) + 1
        tables, byes = self._round_tables(t)
        seat_history = logic.seats_from_games(
            {"players": table["players"]} for r in t["rounds"] for table in r["tables"]
        )
        by_id = {p["id"]: p for p in t["participants"]}
        round_doc: dict[str, Any] = {
            "number": number,
            "status": "running",
            "tables": [],
            "byes": list(byes),
            "started_at": utc_now_iso(),
        }
        t["rounds"].append(round_doc)
        self.save(t)
        issued: dict[str, list[dict[str, Any]]] = {}
        for index, table in enumerate(tables):
            seated = logic.assign_seats(table, seat_history)
            seats = [
                {"kind": "bot", "level": by_id[pid]["level"], "name": by_id[pid]["name"], "player_id": pid}
                if by_id[pid]["kind"] == "bot"
                else {"kind": "human", "name": by_id[pid]["name"], "external_id": pid, "player_id": pid}
                for pid in seated
            ]
            game, tokens = self.service.create_game(
                t["game_type"],
                seats,
                t["options"],
                seed=None,
                undo=False,
                created_by=t["key_id"],
                clock=t["clock"],
                extra_metadata={"tournament_id": t["id"], "round": number, "table": index + 1, "rated": True},
                start_bots=False,
            )
            # a bot table of the key whose place the tournament's reservation holds; it never pauses
            bot_tables.register(
                self.service.documents,
                game.info.stream,
                bot_tables.owner_of(t["key_id"], ""),
                seats,
                hands_over=t.get("clock") is not None,
                tournament=t["id"],
                counted=False,
            )
            round_doc["tables"].append(
                {
                    "table": index + 1,
                    "game_id": game.info.stream,
                    "players": seated,
                    "result": None,
                }
            )
            issued[game.info.stream] = [{**tok, "player": seated[tok["seat"]]} for tok in tokens]
            self.save(t)
        touched = webhooks.emit(
            self.store,
            t["key_id"],
            "tournament.round_started",
            {
                "tournament_id": t["id"],
                "round": number,
                "tables": [
                    {"table": x["table"], "game_id": x["game_id"], "players": x["players"]} for x in round_doc["tables"]
                ],
                "byes": round_doc["byes"],
            },
        )
        self.service.schedule_deliveries(touched)
        for table in round_doc["tables"]:
            self.service.after_change(self.service.load(table["game_id"]))
        return issued

    def reissue_tokens(self, t: dict[str, Any], game_id: str) -> list[dict[str, Any]]:
        """New seat tokens for the human seats of one of the tournament's games; the old ones stop working."""
        table = next((x for r in t["rounds"] for x in r["tables"] if x["game_id"] == game_id), None)
        if table is None:
            raise GameError("unknown_game", f"game {game_id!r} is not a table of tournament {t['id']!r}")
        return [{**tok, "player": table["players"][tok["seat"]]} for tok in self.service.reissue_tokens(game_id)]

    def advance(self, tournament_id: str) -> str:
        """Record finished games; start the next round or finish when the current one is complete."""
        t = self.get(tournament_id)
        if t is None or t["status"] != "running":
            bot_tables.release(self.service.documents, tournament_id)
            return "not running"
        for round_doc in t["rounds"]:  # earlier rounds too: a director may have undone and replayed a game
            for table in round_doc["tables"]:
                if table["result"] is not None:
                    continue
                game = self.service.load(table["game_id"])
                result = game.result_dict()
                if game.status == "finished" and result is not None:
                    table["result"] = {
                        "ranks": result["ranks"],
                        "scores": result["scores"],
                        "no_winner": result.get("no_winner", False),
                    }
                elif game.status in ("aborted", "abandoned"):
                    # a void table: the round goes on, and the game counts for nobody's standings
                    table["result"] = {"status": game.status}
            if all(table["result"] is not None for table in round_doc["tables"]):
                round_doc["status"] = "finished"
        current = t["rounds"][-1]
        if any(table["result"] is None for r in t["rounds"] for table in r["tables"]):
            self.save(t)
            return "waiting"
        current["finished_at"] = current.get("finished_at") or utc_now_iso()
        if len(t["rounds"]) < t["rounds_planned"]:
            self._start_round(t)
            return "next round"
        bot_tables.release(self.service.documents, t["id"])  # first: a failure after it leaves nothing held
        t["status"] = "finished"
        t["finished_at"] = utc_now_iso()
        self.save(t)
        finished = {"tournament_id": t["id"], "standings": self.standings(t)}
        self.service.schedule_deliveries(webhooks.emit(self.store, t["key_id"], "tournament.finished", finished))
        return "finished"

    # ------------------------------------------------------------------------------ reading
    def results(self, t: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"players": table["players"], **table["result"]}
            for r in t["rounds"]
            for table in r["tables"]
            if table["result"] is not None and "ranks" in table["result"]
        ]

    def standings(self, t: dict[str, Any]) -> list[dict[str, Any]]:
        ids = [p["id"] for p in t["participants"]]
        byes = [b for r in t["rounds"] for b in r["byes"]]
        return [row.to_dict() for row in logic.standings(ids, self.results(t), byes)]

    def get(self, tournament_id: str) -> dict[str, Any] | None:
        return self.store.get_document(COLLECTION, tournament_id)

    def save(self, t: dict[str, Any]) -> None:
        for round_doc in t["rounds"]:  # documents written before tokens were kept hashed lose them
            for table in round_doc["tables"]:
                table.pop("seat_tokens", None)
        self.store.put_document(COLLECTION, t["id"], t)

    def list_for(self, key_id: str, limit: int, cursor: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """A page of the key's tournaments, newest first, after the tournament ``cursor`` (one of the key's: else
        ``GameError("invalid_cursor")``); and the cursor of the next page (``None`` on the last)."""
        self._keys_indexed()
        after = None
        if cursor is not None:
            start = self.get(cursor)
            if start is None or start["key_id"] != key_id:
                raise GameError(
                    "invalid_cursor", "cursor names no tournament of this key; start again without a cursor"
                )
            after = index_key(start)
        found: list[dict[str, Any]] = []
        while len(found) <= limit:
            batch = self.store.list_documents(by_key_name(key_id), limit=limit + 1 - len(found), after=after)
            if not batch:
                break
            after = batch[-1][0]
            for key, _ in batch:
                t = self.get(key.partition(":")[2])
                if t is not None and t["key_id"] == key_id:  # a creation that failed left its entry a moment
                    found.append(t)
        more = len(found) > limit
        return found[:limit], found[limit - 1]["id"] if more else None

    def _keys_indexed(self) -> None:
        """Tournaments stored before the per-key index get their entries once, from a scan of all, page after
        key (a tournament deleted meanwhile, a creation that failed, shifts nothing; one created meanwhile indexes
        itself)."""
        if self.store.get_document(INDEXES, "tournaments_by_key") is not None:
            return
        after = None
        while page := self.store.list_documents(COLLECTION, limit=500, after=after):
            for _, t in page:
                self.store.put_document(by_key_name(t["key_id"]), index_key(t), {})
            after = page[-1][0]
        self.store.put_document(INDEXES, "tournaments_by_key", {"built_at": utc_now_iso()})


def stand_in(number: int) -> str:
    """How a human participant (``number`` from 1, in the participants' order) is named to anyone but the
    tournament's key: stable for the tournament, and not derived from the external id (which a digest of a
    guessable id, such as an e-mail address, would give away)."""
    return f"~p{number}"


def public_view(body: dict[str, Any]) -> dict[str, Any]:
    """A served tournament (``api.tournaments.body_for``) with each human participant's external id replaced by
    its stand-in wherever it names a player: participants, tables, byes and standings."""
    shown: dict[str, str] = {}
    participants = []
    for number, p in enumerate(body["participants"], start=1):
        if p["kind"] != "human":
            participants.append(p)
            continue
        shown[p["id"]] = stand_in(number)
        name = p["name"] if p["name"] != p["id"] else stand_in(number)  # older tournaments named players by id
        participants.append({**p, "id": shown[p["id"]], "name": name, "external_id": None})

    def player(pid: str) -> str:
        return shown.get(pid, pid)

    return {
        **body,
        "participants": participants,
        "rounds": [
            {
                **r,
                "byes": [player(b) for b in r["byes"]],
                "tables": [{**x, "players": [player(pid) for pid in x["players"]]} for x in r["tables"]],
            }
            for r in body["rounds"]
        ],
        "standings": [{**row, "player": player(row["player"])} for row in body["standings"]],
    }
