"""Round trips to PostgreSQL per move: counted on the wire, by a proxy between the store and the server.

A round trip is a burst of bytes from the client after an answer from the server (pipelined statements
sent together count once). The store's connections all go through the proxy.
"""

from __future__ import annotations

import socket
import threading
from urllib.parse import urlsplit, urlunsplit

import pytest

from api.app import create_app
from eventstore.postgres import PostgresStore
from tests.api.conftest import auth
from tests.eventstore.conftest import empty_postgres
from workers import jobs
from workers.dispatch import InlineDispatcher
from workers.runtime import Runtime, run_job

pytestmark = pytest.mark.postgres


class RoundTripProxy:
    """A TCP proxy that counts the client's round trips over all its connections: its ``Sync`` and ``Query``
    messages, each of which the server answers with one ``ReadyForQuery`` that the client waits for
    (pipelined statements share one ``Sync``)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.turns = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, from_client: bool) -> None:
        buffer, started = b"", not from_client
        try:
            while data := source.recv(65536):
                if from_client:
                    buffer += data
                    while True:
                        if not started:  # the startup message: a length, no type byte
                            if len(buffer) < 4 or len(buffer) < int.from_bytes(buffer[:4], "big"):
                                break
                            buffer, started = buffer[int.from_bytes(buffer[:4], "big") :], True
                            continue
                        if len(buffer) < 5 or len(buffer) < 1 + int.from_bytes(buffer[1:5], "big"):
                            break
                        if buffer[:1] in (b"S", b"Q"):
                            with self._lock:
                                self.turns += 1
                        buffer = buffer[1 + int.from_bytes(buffer[1:5], "big") :]
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def count(self) -> int:
        with self._lock:
            return self.turns


def through(url: str, port: int) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{port}"
    query = "&".join(q for q in [parts.query, "sslmode=disable"] if q)  # plain protocol, to be read on the wire
    return urlunsplit(parts._replace(netloc=f"{netloc[0]}@{host}" if len(netloc) == 2 else host, query=query))


@pytest.fixture
def counted(postgres_url):
    empty_postgres(postgres_url)
    parts = urlsplit(postgres_url)
    proxy = RoundTripProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
    url = through(postgres_url, proxy.port)
    runtime = Runtime.signed(lambda signer: PostgresStore(url, signer=signer), InlineDispatcher(run_job), url)
    jobs.set_runtime(runtime)
    yield create_app(runtime).test_client(), proxy
    jobs.set_runtime(None)
    runtime.store.close()
    proxy.listener.close()


def play(client, game, moves: int, proxy, headers=None) -> list[int]:
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    costs = []
    for _ in range(moves):
        seat = client.get(f"/games/{game['id']}").get_json()["to_act"][0]
        command = client.get(f"/games/{game['id']}/legal-commands", headers=auth(tokens[seat])).get_json()["commands"][
            0
        ]
        before = proxy.count()
        answer = client.post(
            f"/games/{game['id']}/commands",
            json={"command": command},
            headers={**auth(tokens[seat]), **(headers() if headers else {})},
        )
        assert answer.status_code == 200
        costs.append(proxy.count() - before)
    return costs


def test_a_move_costs_two_round_trips(counted):
    client, proxy = counted
    created = client.post("/games", json={"game_type": "puerto_rico", "seed": 3, "seats": [{"kind": "human"}] * 3})
    costs = play(client, created.get_json(), 10, proxy)
    # the stream row read once (with the seat tokens), then tw_append with the head hashed and signed in
    # advance, the status and the NOTIFY in one implicit transaction; psycopg prepares a statement on its
    # fifth use, one extra round trip once per connection
    assert sorted(costs)[-2] <= 2 and max(costs) <= 3, costs


def test_a_move_with_an_idempotency_key_costs_no_more(counted):
    import uuid

    client, proxy = counted
    created = client.post("/games", json={"game_type": "puerto_rico", "seed": 4, "seats": [{"kind": "human"}] * 3})
    costs = play(client, created.get_json(), 10, proxy, headers=lambda: {"Idempotency-Key": uuid.uuid4().hex})
    assert sorted(costs)[-2] <= 3 and max(costs) <= 4, costs


def test_the_game_a_move_returns_builds_the_next_move_on_the_stored_head(counted):
    """A bot plays on from the game its last move returned: that game carries the head the move stored, so the
    next append is signed in advance and stored at the first attempt, not refused as stale and retried."""
    client, _ = counted
    service = client.application.extensions["tradewinds"].service
    created = client.post("/games", json={"game_type": "puerto_rico", "seed": 5, "seats": [{"kind": "human"}] * 3})
    game_id = created.get_json()["id"]
    game = service.load(game_id)
    appends = []
    original = service.store.append
    service.store.append = lambda *a, **k: appends.append(k.get("head")) or original(*a, **k)
    for _ in range(5):
        seat = min(game.rules.to_act(game.state))
        command = game.rules.legal_commands(game.state, seat)[0]
        outcome = service.submit(game_id, seat, [command], if_match=[game.etag], loaded=game)
        game = outcome.game
        assert game.head is not None and game.head.head_hash == service.store.stream_info(game_id).head_hash
    assert len(appends) == 5 and all(head is not None for head in appends)
