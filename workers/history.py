"""Undo by truncation, replays, and self-contained exports that anyone can verify.

Undo policy (enforced here, whoever asks):

- a seat may take back its own most recent moves at once while no other seat has acted since and no
  event since then recorded a random outcome or revealed hidden information (``rules.reveals``);
- beyond that, an undo is a request that every other human seat must accept (bots do not vote); a
  request lapses when any move is stored before it is agreed;
- the integrator that created a game may truncate it anywhere, finished or not (``actor`` = its key);
- games created with ``undo: false`` refuse seat undos; finished games refuse seat undos.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import marshmallow as ma
from marshmallow import fields

from domain import registry
from eventstore.base import (
    StoredEvent,
    StreamInfo,
    TruncationCheck,
    WrongExpectedVersion,
    canonical_json,
    genesis_hash,
    head_message,
)
from eventstore.verify import verify_events
from workers import bot_tables, facts, ratings
from workers.game_model import GameError, LoadedGame, make_etag, public_seats
from workers.games import GameService
from workers.signing import ALGORITHM, key_id_of, signature_valid
from workers.sweeper import RetryLater, work_item

RESUME_AFTER = 30.0  # seconds after an undo: its work is written again (``jobs.resume_game``)
# Undos a game may have (its generation counts them): each keeps its archived moves and its record, which the
# history and the audit read whole, so a seat free to undo its own moves at once could grow them without end.
MOST_UNDOS = 100
EXPORT_FORMAT = "tradewinds-game/2"  # 2: the chain starts from the stream as created; signed head
# no external_id: an export is public; a seat's private ids are only committed to (workers.game_model.id_commitment)
EXPORT_SEAT_FIELDS = ("seat", "kind", "name", "level", "forfeited", "resigned")


class History:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store

    # ------------------------------------------------------------------------------------ undo
    def undo(
        self,
        game_id: str,
        to_version: int,
        seat: int | None,
        integrator: str | None,
        reason: str,
        admit: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        """Truncate now when the policy allows it, or open a request the other human seats must accept.

        The policy is decided on the game as loaded, then checked again inside the store's locked
        truncation against the events it archives: a move stored in between fails the undo with
        ``stale_version`` and archives nothing. ``admit``: called with the owner (``bot_tables.owner_of``) before an
        ended bot table is brought back into play where it counts against the caps again (``_revival``); it raises
        to refuse.
        """
        game = self.service.load(game_id)
        # who may undo is checked before the target: a caller who may not learns nothing of the game's versions
        if integrator is not None:
            if game.info.metadata.get("created_by") != integrator:
                raise GameError("forbidden", "only the integrator that created this game may truncate it")
            self._check_undos_left(game)
            self._check_target(game, to_version)
            # an ended tournament table: the tournament's advance (``jobs.advance_tournament``) records its result
            # and may end the tournament, releasing its reservation; the undo takes the tournament's turn from the
            # decision how the table counts to the retraction of its result, so neither overwrites the other
            tournament_id = game.info.metadata.get("tournament_id") if game.over else None
            with self._tournament_turn(tournament_id):
                revived = self._revival(game, integrator) if game.over else None
                if revived is not None and revived[2] and admit is not None:
                    admit(revived[0])
                done = self._truncate(
                    game,
                    to_version,
                    f"integrator:{integrator}",
                    reason,
                    self._same_history(game),
                    revived=revived,
                    settle=False,
                )
            return self._settle(game_id, done)
        assert seat is not None
        self._check_seat_may_undo(game)
        self._check_undos_left(game)
        if game.seats[seat]["kind"] != "human":  # resigned or out of time: the seat's moves are a bot's now
            raise GameError("forbidden", f"seat {seat} is played by a bot now (it resigned or ran out of time)")
        self._check_target(game, to_version)
        later = self.store.read(game_id, to_version + 1, game.version)
        if self._own_private_moves(game, later, seat):
            return self._truncate(game, to_version, f"seat:{seat}", reason, self._still_own_private_moves(game, seat))
        others = [s["seat"] for s in game.seats if s["kind"] == "human" and s["seat"] != seat]
        if not others:
            return self._truncate(
                game, to_version, f"seat:{seat}", reason or "no other human seat to ask", self._same_history(game)
            )
        event = {
            "type": facts.UNDO_REQUESTED,
            "request_id": uuid.uuid4().hex,
            "by": seat,
            "to_version": to_version,
            "reason": reason,
            "pending": others,
        }
        after = self.service.append_facts(game, [event], actor="human", seat=seat)
        return {"status": "requested", "request": after.facts.undo_request, "etag": after.etag}

    def answer(self, game_id: str, seat: int, accept: bool) -> dict[str, Any]:
        game = self.service.load(game_id)
        if game.over:  # its ending closed any request (workers.facts); a finished game is not undone
            raise GameError("game_over", "a finished game cannot be undone")
        request = current_request(game)
        if request is None:
            raise GameError("no_undo_request", "there is no open undo request on this game")
        if seat not in request["pending"]:
            raise GameError("forbidden", "this seat has no vote on the open undo request")
        vote = {
            "type": facts.UNDO_ACCEPTED if accept else facts.UNDO_DECLINED,
            "request_id": request["id"],
            "seat": seat,
        }
        if not accept:
            after = self.service.append_facts(game, [vote], actor="human", seat=seat)
            return {"status": "declined", "request": after.facts.last_undo_request, "etag": after.etag}
        request = {
            **request,
            "accepted": request["accepted"] + [seat],
            "pending": [s for s in request["pending"] if s != seat],
        }
        if request["pending"]:
            after = self.service.append_facts(game, [vote], actor="human", seat=seat)
            return {"status": "requested", "request": after.facts.undo_request, "etag": after.etag}
        # the last vote performs the undo: the truncation (expected version checked) archives the request
        # and its votes with the moves, and its record names the voters
        voters = ",".join(str(s) for s in [request["by"], *request["accepted"]])
        # the request was made at (at_generation, at_version); the truncation holds it to exactly that
        done = self._truncate(
            game,
            request["to_version"],
            f"seats:{voters}",
            request["reason"],
            self._same_history(game),
            closed_request=request,
        )
        return done

    def _same_history(self, game: LoadedGame) -> TruncationCheck:
        """A truncation check: the stream is still the history the decision was made on."""

        def check(info: StreamInfo, events: list[StoredEvent]) -> None:
            if info.generation != game.generation:
                raise GameError(
                    "stale_version",
                    f"the game was undone meanwhile (generation {info.generation}); reload it and decide again",
                    etag=make_etag(info.generation, info.version),
                )

        return check

    def _still_own_private_moves(self, game: LoadedGame, seat: int) -> TruncationCheck:
        """The instant-undo policy, re-evaluated on the events the truncation is about to archive."""
        same = self._same_history(game)

        def check(info: StreamInfo, events: list[StoredEvent]) -> None:
            same(info, events)
            if not self._own_private_moves(game, events, seat):
                raise GameError(
                    "stale_version",
                    "another move was stored meanwhile; this undo now needs the other seats' agreement",
                    etag=make_etag(info.generation, info.version),
                )

        return check

    def _check_target(self, game: LoadedGame, to_version: int) -> None:
        floor = game.info.metadata.get("setup_version", 1)
        if not floor <= to_version < game.version:
            raise GameError(
                "invalid_undo",
                f"to_version must be from {floor} (the end of set-up) to {game.version - 1}, not {to_version}",
            )
        boundary = self.store.read(game.info.stream, to_version, to_version + 1)
        if len(boundary) == 2 and boundary[0].meta.get("move") == boundary[1].meta.get("move"):
            raise GameError("invalid_undo", f"version {to_version} is inside a move; undo to a version between moves")

    @staticmethod
    def _check_undos_left(game: LoadedGame) -> None:
        if game.generation >= MOST_UNDOS:
            raise GameError("invalid_undo", f"this game has been undone {game.generation} times, the most a game may")

    def _check_seat_may_undo(self, game: LoadedGame) -> None:
        if not game.info.metadata.get("undo", True):
            raise GameError("forbidden", "undo is disabled for this game")
        if game.over:
            raise GameError("game_over", "a finished game cannot be undone")

    def _own_private_moves(self, game: LoadedGame, later: list[StoredEvent], seat: int) -> bool:
        """Every move since the target is this seat's own and revealed nothing (undo requests and votes in
        between are no moves; any other platform fact, such as a timeout, is another seat's business)."""
        return all(
            e.meta.get("seat") == seat
            and e.meta.get("actor") == "human"
            and not facts.is_platform(e.data)
            and not game.rules.reveals(e.data)
            for e in later
            if e.data["type"] not in facts.UNDO_FACTS
        )

    def _revival(self, game: LoadedGame, integrator: str) -> tuple[str, str | None, bool] | None:
        """How an ended game brought back into play is recorded as a bot table (None: it is none): its owner, its
        tournament, and whether it counts against the caps (it is admitted first) or its tournament's reservation
        holds its place (a table of the running tournament's current round)."""
        metadata = game.info.metadata
        if not bot_tables.is_bot_table(metadata):
            return None
        owner = bot_tables.owner_of(integrator, "")
        tournament_id = metadata.get("tournament_id")
        if tournament_id is None:
            return owner, None, True
        t = self.store.get_document("tournaments", tournament_id)
        current = (
            t is not None
            and t["status"] == "running"
            and any(table["game_id"] == game.info.stream for table in t["rounds"][-1]["tables"])
            and bot_tables.reserved(self.service.documents, tournament_id)
        )
        return owner, tournament_id, not current

    @contextmanager
    def _tournament_turn(self, tournament_id: str | None) -> Iterator[None]:
        """Hold the tournament's lock (the one its advance job takes) while the caller changes what it records;
        ``busy`` (409, retry) while the advance holds it. No lock without a tournament or a dispatcher."""
        dispatcher = self.service.dispatcher
        with ExitStack() as held:
            if tournament_id is not None and dispatcher is not None:
                try:
                    held.enter_context(dispatcher.try_lock(f"tournament:{tournament_id}"))
                except RetryLater:
                    raise GameError(
                        "busy", "the game's tournament is busy (a result may be being recorded); retry"
                    ) from None
            yield

    def _truncate(
        self,
        game: LoadedGame,
        to_version: int,
        actor: str,
        reason: str,
        check: TruncationCheck,
        closed_request: dict[str, Any] | None = None,
        revived: tuple[str, str | None, bool] | None = None,
        settle: bool = True,
    ) -> dict[str, Any]:
        """``revived``: how an ended bot table is recorded again when the truncation brings it back into play (its
        record went when it ended), from ``_revival``. ``settle``: schedule the work the change causes now (else
        the caller does, with ``_settle``)."""
        game_id = game.info.stream
        self._check_undos_left(game)
        status = self.service.load(game_id, at_version=to_version, use_snapshots=False).status
        # the truncation takes no outbox work with it: the work it causes (``after_change`` below) is written after
        # it, so a store that fails in between would leave a bot to act with no turn scheduled; a resume entry,
        # due a little later, writes that work again whatever happens in between
        self.store.put_outbox([work_item(f"resume:{game_id}", "resume_game", [game_id], RESUME_AFTER)])
        try:
            record = self.store.truncate(
                game_id, to_version, actor, reason or "undo", expected_version=game.version, check=check, status=status
            )
        except WrongExpectedVersion as exc:
            latest = self.service.load(game_id)
            raise GameError(
                "stale_version",
                f"another move was stored first (the game is at version {exc.actual} now, not {exc.expected});"
                " nothing was undone",
                etag=latest.etag,
            ) from None
        if game.over and status == facts.ACTIVE:
            self._retract_result(game)
            if revived is not None:
                owner, tournament, counted = revived
                seats = game.info.metadata.get("seats") or []
                bot_tables.register(self.service.documents, game_id, owner, seats, True, tournament, counted)
        done = {"status": "done", "truncation": truncation_body(record)}
        return self._settle(game_id, done) if settle else done

    def _settle(self, game_id: str, done: dict[str, Any]) -> dict[str, Any]:
        """After a truncation: the game as it is now, and the work its change causes (bot turns, webhooks)."""
        self.service.forget(game_id)
        after = self.service.load(game_id)
        self.service.after_change(after)
        return {**done, "etag": after.etag}

    def retract_taken_back(self, game: LoadedGame) -> None:
        """Retract a rated result an undo took back (its record is of an older generation and the game is no
        longer over) if the undo's own retraction was lost to a store that failed after the truncation."""
        if game.over:
            return
        recorded = self.store.get_document(f"rated:{game.info.game_type}", game.info.stream)
        if recorded is not None and recorded.get("generation") != game.generation:
            self._retract_result(game)

    def _retract_result(self, game: LoadedGame) -> None:
        """Read models built on the finished game forget it: its rating input and its tournament result."""
        self.store.delete_document(f"rated:{game.info.game_type}", game.info.stream)
        ratings.rated_changed(self.store, game.info.game_type)
        tournament_id = game.info.metadata.get("tournament_id")
        tournament = self.store.get_document("tournaments", tournament_id) if tournament_id else None
        if tournament is None or tournament_id is None:
            return
        for round_doc in tournament["rounds"]:
            for table in round_doc["tables"]:
                if table["game_id"] == game.info.stream:
                    table["result"] = None
                    round_doc["status"] = "running"
                    round_doc["finished_at"] = None  # it finishes again when the game does
        if tournament["status"] == "finished":
            tournament["status"] = "running"
            tournament["finished_at"] = None
        self.store.put_document("tournaments", tournament_id, tournament)

    # ------------------------------------------------------------------------------- replay
    def replay(self, game_id: str, seat: int | None, after: int, limit: int) -> dict[str, Any]:
        """Each step: the event (redacted for the caller until the end) and the state it led to. Read again when an
        undo lands meanwhile: what is revealed is decided on the game as first read (``in_one_history``)."""
        return self.service.in_one_history(game_id, lambda: self._replay(game_id, seat, after, limit))

    def _replay(self, game_id: str, seat: int | None, after: int, limit: int) -> tuple[dict[str, Any], int]:
        """``replay``'s page, and the generation of the game it decided what to reveal on."""
        game = self.service.load(game_id)
        rules = game.rules
        reveal = game.over
        steps = []
        last = min(game.version, after + limit)
        # a cursor at or past the head (the game undone below it meanwhile) has no steps left, as in the event list
        start = self.service.load(game_id, at_version=after) if 0 < after < last else None
        state = start.state if start else rules.initial_state()
        for event in self.store.read(game_id, after + 1, last) if after < last else []:
            state = facts.rules_evolve(rules, state, event.data)
            steps.append(
                {
                    "version": event.version,
                    "seat": event.meta.get("seat"),
                    "actor": event.meta.get("actor", "unknown"),
                    "event": facts.public_event(rules, event.data) if reveal else facts.redact(rules, event.data, seat),
                    "state": rules.reveal_all(state) if reveal else rules.view(state, seat),
                }
            )
        page = {
            "game_id": game_id,
            "version": game.version,
            "generation": game.generation,
            "public": reveal,
            "steps": steps,
            "next_after": last if last < game.version else None,
        }
        return page, game.generation

    # ---------------------------------------------------------------------------- history
    def truncations(self, game_id: str, seat: int | None) -> list[dict[str, Any]]:
        game = self.service.load(game_id)
        archived: dict[int, list[StoredEvent]] = {}
        for item in self.store.archived(game_id):
            archived.setdefault(item.truncation_generation, []).append(item.event)
        out = []
        for record in self.store.truncations(game_id):
            body = truncation_body(record)
            body["archived_events"] = [
                {
                    "version": e.version,
                    "generation": e.generation,
                    "type": e.type,
                    "seat": e.meta.get("seat"),
                    "actor": e.meta.get("actor", "unknown"),
                    "data": facts.public_event(game.rules, e.data)
                    if game.over
                    else facts.redact(game.rules, e.data, seat),
                    "recorded_at": e.recorded_at,
                }
                for e in archived.get(record.generation, [])
            ]
            out.append(body)
        return out

    def audit(self, game_id: str) -> dict[str, Any]:
        """Re-verify the stored chain from the stream as created, and the server's signature of its head."""
        self.service.info(game_id)
        report = self.store.verify(game_id)
        key = self.service.key
        message = head_message(game_id, report.generation, report.version, report.head_hash)
        signer = key.signer_of(message, report.head_signature) if report.head_signature else None
        signed = signer is not None
        detail = report.detail
        if report.ok:
            detail += (
                "; the head carries this server's signature"
                if signed
                else (
                    "; but the head does not carry this server's signature (the stored chain was rewritten, or"
                    " signed with another key)"
                )
            )
        return {
            "game_id": game_id,
            "ok": report.ok and signed,
            "checked": report.checked,
            "broken_version": report.broken_version,
            "detail": detail,
            "chain_ok": report.ok,
            "signed": signed,
            "head_hash": report.head_hash,
            "key_id": key_id_of(signer) if signer else key.key_id,
            "truncations": [truncation_body(t) for t in self.store.truncations(game_id)],
        }

    # ------------------------------------------------------------------------------ export
    def export_lines(self, game_id: str) -> list[str]:
        game = self.service.load(game_id)
        if not game.over:
            raise GameError(
                "game_not_over",
                "only a game that is over (finished, aborted or abandoned) can be exported: its hidden information is"
                " public then",
            )
        report = self.store.verify(game_id)
        events = self.store.read(game_id)
        # the events read are the head's that was verified, of the game as loaded (an undo in between, the game
        # back in play and its seats drawing anew, would export the new history's secrets)
        if (
            report.version != game.version
            or report.generation != game.generation
            or len(events) != report.version
            or (events and events[-1].hash != report.head_hash)
        ):
            raise GameError("stale_version", "the game changed while it was exported; try again")
        key = self.service.key
        # the trusted key that signed this head: the current one, or a retired one for a game finished before
        signer = key.signer_of(
            head_message(game_id, report.generation, report.version, report.head_hash), report.head_signature
        )
        public_key = signer or key.public_key
        # what the chain starts from: the stream as created (eventstore.base.genesis_hash)
        creation = {
            "stream": game_id,
            "game_type": game.info.game_type,
            "created_at": game.info.created_at,
            "metadata": game.info.creation,
        }
        head = (report.generation, report.version, report.head_hash)
        header = {
            "format": EXPORT_FORMAT,
            "game_type": game.info.game_type,
            "state_version": game.rules.state_version,
            # game id, options, seed, seats, status, set-up version, creation time, version and generation, as
            # verify_export reads them back from the chain
            **_chained_header(game_id, creation, head, game.facts, game.status),
            "result": game.result_dict(),
            "creation": creation,
            # the server's signature of the chain head (eventstore.base.head_message), as stored with it
            "signature": {
                "algorithm": ALGORITHM,
                "key_id": key_id_of(public_key),
                "public_key": public_key,
                "generation": report.generation,
                "version": report.version,
                "head_hash": report.head_hash,
                "signature": report.head_signature,
            },
        }
        lines = [canonical_json(header)]
        for event in events:
            lines.append(
                canonical_json(
                    {
                        "version": event.version,
                        "generation": event.generation,
                        "data": event.data,
                        "meta": event.meta,
                        "hash": event.hash,
                        "recorded_at": event.recorded_at,
                    }
                )
            )
        return lines


def current_request(game: LoadedGame) -> dict[str, Any] | None:
    """The open undo request, or None (a request lapses when a move is stored after it: workers.facts)."""
    return game.facts.undo_request


def truncation_body(record: Any) -> dict[str, Any]:
    return {
        "from_version": record.from_version,
        "to_version": record.to_version,
        "generation": record.generation,
        "actor": record.actor,
        "reason": record.reason,
        "truncated_at": record.truncated_at,
    }


MOST_NESTED = 64  # levels of arrays and objects in an export's line: ours nest a handful; the checks recurse


def _unfit_values(rows: list[Any]) -> str | None:
    """Why the parsed lines cannot be checked, or None: nesting deeper than ``MOST_NESTED`` (the hashes and the
    answer re-encode every value, recursively), or text that is no Unicode (a lone surrogate, which JSON's escapes
    can write and UTF-8 cannot encode). Walked without recursion."""
    waiting: list[tuple[Any, int]] = [(row, 1) for row in rows]
    while waiting:
        value, depth = waiting.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "a text holds a lone surrogate (no Unicode character)"
        elif isinstance(value, dict | list):
            if depth > MOST_NESTED:
                return f"a line nests arrays and objects more than {MOST_NESTED} deep"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                waiting.append((key, depth))
                waiting.append((item, depth + 1))
    return None


def verify_export(lines: Iterable[str], trusted_keys: Iterable[str] = ()) -> dict[str, Any]:
    """Re-check an export: the hash chain from the stream as created, the server's signature of its head
    (by one of ``trusted_keys``, base64 Ed25519 public keys), the set-up from the seed, and the result by
    re-folding. A forger who edits anything and recomputes the hashes cannot sign the new head."""
    trusted = set(trusted_keys)
    report: dict[str, Any] = {
        "ok": False,
        "game_type": None,
        "events": 0,
        "chain_ok": False,
        "broken_version": None,
        "signature_ok": False,
        "key_trusted": False,
        "key_id": None,
        "head_hash": None,
        "setup_reproduced": None,  # None: not checked, since an earlier check failed (``detail`` says which)
        "result_reproduced": None,
        "recorded_result": None,
        "replayed_result": None,
        "detail": "",
    }
    try:
        rows = [json.loads(line, object_pairs_hook=_once_each) for line in lines if line.strip()]
    except json.JSONDecodeError as exc:
        report["detail"] = f"line is not JSON: {exc}"
        return report
    except RepeatedKey as exc:
        report["detail"] = f"malformed export: a line {exc}"
        return report
    except (ValueError, RecursionError):  # an integer too long to read, or nesting too deep for the parser
        report["detail"] = (
            f"a line is nested too deeply or holds an integer longer than {sys.get_int_max_str_digits()} digits"
        )
        return report
    unfit = _unfit_values(rows)
    if unfit:
        report["detail"] = f"malformed export: {unfit}"
        return report
    if not rows or not isinstance(rows[0], dict) or rows[0].get("format") != EXPORT_FORMAT:
        found = rows[0].get("format") if rows and isinstance(rows[0], dict) else None
        report["detail"] = f"the first line must be the header with format {EXPORT_FORMAT!r}" + (
            f", not {found!r} (exports of an earlier format carry no signature: export the game again)" if found else ""
        )
        return report
    problem = _shape_problem(rows[0], rows[1:])
    if problem:
        report["detail"] = f"malformed export: {problem}"
        return report
    header, rows = rows[0], rows[1:]
    report["game_type"] = header["game_type"]
    report["recorded_result"] = header.get("result")
    report["events"] = len(rows)
    try:
        rules = registry.get(header["game_type"])
        creation, signature = header["creation"], header["signature"]
        stream = creation["stream"]
        events = [
            StoredEvent(stream, r["version"], 0, r["generation"], r["data"], r["meta"], r["hash"], r["recorded_at"])
            for r in rows
        ]
        genesis = genesis_hash(stream, creation["game_type"], creation["created_at"], creation["metadata"])
        metadata = creation["metadata"]
        head = (int(signature["generation"]), int(signature["version"]), str(signature["head_hash"]))
        public_key, signed = str(signature["public_key"]), str(signature["signature"])
    except (KeyError, TypeError, ValueError, AttributeError, registry.UnknownGameType) as exc:
        report["detail"] = f"malformed export: {exc!r}"
        return report
    report["key_id"], report["head_hash"] = signature.get("key_id"), head[2]
    chain = verify_events(stream, events, head[1], head[2], genesis, head[0])
    report["chain_ok"] = chain.ok and creation["game_type"] == header["game_type"]
    report["broken_version"] = chain.broken_version
    # the key id and algorithm a reader is shown must be those of the key that signed, not words beside it
    report["signature_ok"] = (
        signature_valid(public_key, head_message(stream, *head), signed)
        and signature.get("algorithm") == ALGORITHM
        and signature.get("key_id") == key_id_of(public_key)
    )
    report["key_trusted"] = public_key in trusted
    if not chain.ok or not report["signature_ok"] or not report["key_trusted"]:
        report["detail"] = (
            chain.detail
            if not chain.ok
            else "the chain head's signature is not valid"
            if not report["signature_ok"]
            else "the chain is signed by a key this verifier does not trust"
        )
        return report
    data = [e.data for e in events]
    try:
        setup = rules.setup(metadata["seed"], len(metadata["seats"]), metadata["options"])
        report["setup_reproduced"] = data[: len(setup)] == setup
        state = facts.rules_fold(rules, data)
        known = facts.fold(facts.initial(metadata["seats"]), events)
        # the result the chain records (platform.GameFinished) must be the one its moves lead to
        replayed = facts.ranked_result(rules.result(state).as_dict(), known) if rules.is_over(state) else None
        if known.status == facts.FINISHED_STATUS and replayed is None and known.result is not None:
            ended_by = known.result.get("details", {}).get("ended_by")
            if ended_by in facts.ENDED_BY:
                replayed = facts.result_by_resignation(known, ended_by)
        if known.result is not None and known.result != replayed:
            replayed = {"recorded_in_chain": known.result, "replayed": replayed}
        report["replayed_result"] = replayed
        report["status"] = known.status
        status = known.status if known.status != facts.ACTIVE or not rules.is_over(state) else facts.FINISHED_STATUS
        chained = _chained_header(stream, creation, head, known, status)
    except Exception as exc:  # a log this code's rules cannot fold is a failed verification, not a crash
        report["detail"] = f"the current rules cannot replay this log: {exc!r}"
        return report
    # JSON's values compared as written (in Python True == 1 == 1.0, which a forger could swap)
    report["result_reproduced"] = canonical_json(report["replayed_result"]) == canonical_json(header.get("result"))
    differing = _header_differences(header, chained, list(known.seats))
    report["ok"] = bool(report["setup_reproduced"] and report["result_reproduced"] and not differing)
    report["detail"] = (
        f"{len(events)} events verified; head signed by key {report['key_id']}; result reproduced"
        if report["ok"]
        else "hash chain and signature intact, but "
        + (
            "the set-up does not follow from the seed"
            if not report["setup_reproduced"]
            else "the result differs"
            if not report["result_reproduced"]
            else f"the header's {', '.join(differing)} {'differs' if len(differing) == 1 else 'differ'} from what"
            " the signed chain holds"
        )
    )
    return report


# Header fields verified otherwise, or no fact of the game: the format, the exporting server's state format, what
# the chain is checked from (creation, signature), the game type (the chain's) and the result (replayed).
_HEADER_CHECKED_ELSEWHERE = frozenset({"format", "state_version", "creation", "signature", "game_type", "result"})


def _header_differences(header: dict[str, Any], chained: dict[str, Any], seats: list[dict[str, Any]]) -> list[str]:
    """The header's fields that say other than the signed chain (compared as JSON: ``true`` is not ``1``). A field
    exports do not write is one: it would be believed unchecked. A field the header leaves out says nothing (an
    export from before ``status`` was written has none). ``seats``: the seat records the chain folds to."""
    out = []
    for key, value in header.items():
        if key in _HEADER_CHECKED_ELSEWHERE:
            continue
        if key == "seats":
            agree = _seats_agree(value, chained["seats"], seats)
        else:
            agree = key in chained and canonical_json(value) == canonical_json(chained[key])
        if not agree:
            out.append(key)
    return out


_ABSENT = object()


def _seats_agree(shown: Any, chained: list[dict[str, Any]], seats: list[dict[str, Any]]) -> bool:
    """Whether every field of every seat the header shows is the chain's: the export's fields as ``chained`` gives
    them, any other as the seat's record in the chain holds it (an older export's ``external_id``, written in the
    clear then, or null for a seat without one); a field the chain's seat does not hold fails, null included (a
    forged "no id" for a seat that has one)."""
    if not isinstance(shown, list) or len(shown) != len(chained) or len(seats) != len(chained):
        return False
    for seat, fact, record in zip(shown, chained, seats, strict=True):
        if not isinstance(seat, dict):
            return False
        for key, value in seat.items():
            expected = fact[key] if key in fact else record.get(key, _ABSENT)
            if expected is _ABSENT and key == "external_id" and value is None and "id_commitment" not in record:
                continue  # an older export wrote every seat's external_id, null for a seat without one
            if expected is _ABSENT or canonical_json(value) != canonical_json(expected):
                return False
    return True


def _chained_header(
    stream: str, creation: dict[str, Any], head: tuple[int, int, str], known: facts.Facts, status: str
) -> dict[str, Any]:
    """The header fields of an export (``History.export_lines``) as the signed chain gives them: the stream as
    created, the signed head and the facts its events fold to. Not among them: ``state_version`` (the exporting
    server's state format, no fact of the game) and ``result`` (checked by replaying the moves)."""
    metadata = creation["metadata"]
    return {
        "game_id": stream,
        "options": metadata.get("options"),
        "seed": metadata.get("seed"),
        "seats": public_seats({"seats": list(known.seats)}, EXPORT_SEAT_FIELDS),
        "status": status,
        "setup_version": metadata.get("setup_version", 1),
        "created_at": creation["created_at"],
        "version": head[1],
        "generation": head[0],
    }


# ``POST /verify`` reads at most this many event lines (413 beyond): ten times the longest game seen (random play of
# every game at its most players stores under 2,000 events), so a request's cost stays bounded.
VERIFY_MAX_EVENTS = 20_000


class RepeatedKey(ValueError):
    """A JSON object that names a key twice (a reader sees one value, a parser keeps another)."""


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s object hook: the object, or ``RepeatedKey``."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RepeatedKey(f"repeats the key {key[:40]!r}")
        out[key] = value
    return out


# What verify_export reads of an export, by its shape: anything else is a malformed export, reported as such.
# Integers are JSON integers (not 1.0, not Infinity); what the chain covers (events' data and meta, the stream's
# metadata as created) may be any JSON object, its contents are checked by the hashes and the signature. The header
# may hold fields these do not list (``_header_differences`` compares them with the chain); an event line, the
# stream as created and the signature hold only what exports write: a field beside them no hash covers.
class _Lenient(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE


class _Exact(ma.Schema):
    class Meta:
        unknown = ma.RAISE


class _Signature(_Exact):
    algorithm = fields.String()
    generation = fields.Integer(required=True, strict=True)
    version = fields.Integer(required=True, strict=True)
    head_hash = fields.String(required=True)
    public_key = fields.String(required=True)
    signature = fields.String(required=True)
    key_id = fields.String(allow_none=True)


class _Creation(_Exact):
    stream = fields.String(required=True)
    game_type = fields.String(required=True)
    created_at = fields.String(required=True)
    metadata = fields.Dict(required=True)


class _Header(_Lenient):
    game_type = fields.String(required=True)
    creation = fields.Nested(_Creation, required=True)
    signature = fields.Nested(_Signature, required=True)
    seats = fields.List(fields.Dict(), required=True)
    result = fields.Dict(allow_none=True)


class _Row(_Exact):
    version = fields.Integer(required=True, strict=True)
    generation = fields.Integer(required=True, strict=True)
    data = fields.Dict(required=True)
    meta = fields.Dict(required=True)
    hash = fields.String(required=True)
    recorded_at = fields.String(required=True)


_HEADER, _ROW = _Header(), _Row()


def _shape_problem(header: dict[str, Any], rows: list[Any]) -> str:
    """What is wrong with the shape of an export's header and event lines ("" when nothing is): the first line
    found wrong, with its first few problems."""
    for schema, value, where in (
        (_HEADER, header, "header"),
        *((_ROW, row, f"event line {i}") for i, row in enumerate(rows, start=2)),
    ):
        try:
            errors = schema.validate(value)
        except (TypeError, ValueError) as exc:  # a value marshmallow cannot even look at
            return f"{where}: {str(exc)[:200]}"
        if errors:
            first = dict(list(errors.items())[:5])
            return f"{where}: {json.dumps(first, default=str)[:300]}"
    return ""
