"""Webhooks against a real local HTTP receiver: signatures, order per game, retries across an outage."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from api.app import create_app
from eventstore.memory import MemoryStore
from tests.api.conftest import auth, create_secret_game
from workers import apikeys, jobs, webhook_targets, webhooks


class Receiver:
    """A webhook endpoint: verifies signatures, records what it accepted, can be taken down."""

    def __init__(self, secret: str | None = None):
        self.secret = secret
        self.down = False
        self.accepted: list[dict] = []
        self.refused = 0
        self.bad_signatures = 0
        self.delay = 0.0  # seconds each answer takes
        self.gate: threading.Event | None = None  # when set, each answer waits for it to open first
        self.journal: list | None = None  # a list shared by receivers: (this receiver, event type) as accepted
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                if receiver.down:
                    receiver.refused += 1
                    self.send_response(503)
                    self.end_headers()
                    return
                msg_id, ts = self.headers["webhook-id"], self.headers["webhook-timestamp"]
                if receiver.secret and not receiver.verify(msg_id, ts, body, self.headers["webhook-signature"]):
                    receiver.bad_signatures += 1
                    self.send_response(401)
                    self.end_headers()
                    return
                if receiver.gate is not None:
                    receiver.gate.wait(30)
                time.sleep(receiver.delay)
                receiver.accepted.append({"id": msg_id, **json.loads(body)})
                if receiver.journal is not None:
                    receiver.journal.append((receiver, json.loads(body)["type"]))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def verify(self, msg_id, timestamp, body, header):
        key = base64.b64decode(self.secret.removeprefix("whsec_"))
        expected = base64.b64encode(
            hmac.new(key, f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
        ).decode()
        return any(hmac.compare_digest(part.split(",", 1)[1], expected) for part in header.split() if "," in part)

    def close(self):
        self.server.shutdown()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def subscribe(client, key, url, events=("game.started", "game.turn", "game.finished")):
    response = client.post("/webhooks", json={"url": url, "events": list(events)}, headers=auth(key))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play_out(client, game):
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    while True:
        state = client.get(f"/games/{game['id']}").get_json()
        if state["status"] == "finished":
            return state
        seat = state["to_act"][0]
        client.post(
            f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(tokens[seat])
        )


def keyed_game(client, key, rounds=2):
    response = client.post(
        "/games",
        headers=auth(key),
        json={
            "game_type": "secret_numbers",
            "options": {"rounds": rounds},
            "seats": [
                {"kind": "human", "name": "a", "external_id": "p-1"},
                {"kind": "human", "name": "b", "external_id": "p-2"},
            ],
        },
    )
    return response.get_json()


def test_signed_deliveries_in_order(site, receiver):
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    receiver.secret = sub["secret"]
    game = keyed_game(client, key)
    final = play_out(client, game)
    kinds = [d["type"] for d in receiver.accepted]
    assert kinds[0] == "game.started" and kinds[-1] == "game.finished"
    assert kinds.count("game.turn") == 4  # after set-up and after each move but the last, which finishes
    versions = [d["data"]["version"] for d in receiver.accepted]
    assert versions == sorted(versions)
    assert receiver.accepted[-1]["data"]["result"]["ranks"] == final["result"]["ranks"]
    # the finished game's head hash, as its signed export and audit name it: a third party can anchor it
    assert (
        receiver.accepted[-1]["data"]["head_hash"] == client.get(f"/games/{game['id']}/audit").get_json()["head_hash"]
    )
    assert [d["data"]["to_act"][0]["external_id"] for d in receiver.accepted[1:3]] == ["p-1", "p-2"]
    assert receiver.bad_signatures == 0
    assert len({d["id"] for d in receiver.accepted}) == len(receiver.accepted)


def test_a_secret_the_signer_cannot_use_is_refused_when_subscribing(site, receiver):
    """The secret is checked when it is given, not at the first delivery (where it failed every one, unseen)."""
    runtime, client, key = site
    for secret in ("whsec_" + "a" * 33, "whsec_" + "a" * 34 + "=", "whsec_" + "a" * 400, "whsec_" + "QUJD" * 7 + "=="):
        response = client.post(
            "/webhooks", json={"url": receiver.url, "events": ["game.turn"], "secret": secret}, headers=auth(key)
        )
        assert response.status_code == 400 and response.get_json()["code"] == "invalid_request", secret
    good = "whsec_" + base64.b64encode(bytes(range(32))).decode()
    response = client.post(
        "/webhooks", json={"url": receiver.url, "events": ["game.turn"], "secret": good}, headers=auth(key)
    )
    assert response.status_code == 201 and response.get_json()["secret"] == good
    receiver.secret = good
    play_out(client, keyed_game(client, key))
    assert receiver.accepted and receiver.bad_signatures == 0


def test_a_receiver_that_was_down_gets_everything_in_order_once_back(site, receiver):
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    receiver.secret = sub["secret"]
    receiver.down = True
    games = [keyed_game(client, key), keyed_game(client, key)]
    for game in games:
        play_out(client, game)
    assert receiver.accepted == [] and receiver.refused >= 1
    log = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
    assert (
        log[0]["status"] == "retrying"
        and log[0]["attempts"][0]["outcome"] == "http_5xx"
        and log[0]["attempts"][0]["status"] == 503
    )
    [retry] = runtime.store.list_outbox(job="deliver_webhooks")
    assert retry.due_at > time.time(), "a retry was scheduled for later"
    receiver.down = False
    for _ in range(20):
        if not runtime.sweep(now=time.time() + 3600):  # the back-off has passed
            break
    for game in games:
        mine = [d for d in receiver.accepted if d["data"]["game_id"] == game["id"]]
        assert [d["type"] for d in mine][0] == "game.started" and mine[-1]["type"] == "game.finished"
        assert [d["data"]["version"] for d in mine] == sorted(d["data"]["version"] for d in mine)
    log = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
    assert all(entry["status"] == "delivered" for entry in log)
    assert len(receiver.accepted) == len(log) == len({d["id"] for d in receiver.accepted})


def test_back_off_grows_exponentially(site, receiver):
    runtime, client, key = site
    subscribe(client, key, receiver.url)
    receiver.down = True
    keyed_game(client, key)
    delays = []
    for _ in range(4):
        now = time.time()
        delays.extend(round(e.due_at - now) for e in runtime.store.list_outbox(job="deliver_webhooks"))
        runtime.sweep(now=now + 3600)
    assert delays[:4] == [webhooks.BACKOFF_BASE * 2**i for i in range(4)]


def test_redelivery_on_request(site, receiver):
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    keyed_game(client, key)
    first = receiver.accepted[0]
    again = client.post(f"/webhooks/{sub['id']}/deliveries/{first['id']}/redeliver", headers=auth(key))
    assert again.status_code == 202  # queued: the send happens in a webhook job, not in the request
    assert not any(a.get("redelivery") for a in again.get_json()["attempts"])
    log = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
    entry = next(d for d in log if d["id"] == first["id"])
    assert entry["attempts"][-1]["redelivery"] is True
    assert [d["id"] for d in receiver.accepted].count(first["id"]) == 2
    missing = client.post(f"/webhooks/{sub['id']}/deliveries/msg_nope/redeliver", headers=auth(key))
    assert missing.status_code == 404


def test_a_paused_subscription_sends_no_redelivery(site, receiver):
    """A paused subscription sends nothing: a redelivery asked for is refused (409 webhook_disabled), and one
    queued before the pause sends nothing when its job runs."""
    from workers import jobs

    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    keyed_game(client, key)
    first = receiver.accepted[0]
    assert client.patch(f"/webhooks/{sub['id']}", json={"active": False}, headers=auth(key)).status_code == 200
    sent = len(receiver.accepted)
    again = client.post(f"/webhooks/{sub['id']}/deliveries/{first['id']}/redeliver", headers=auth(key))
    assert again.status_code == 409 and again.get_json()["code"] == "webhook_disabled"
    assert jobs.redeliver_webhook(sub["id"], first["id"]) is False  # queued before the pause
    assert len(receiver.accepted) == sent
    assert client.patch(f"/webhooks/{sub['id']}", json={"active": True}, headers=auth(key)).status_code == 200
    resumed = client.post(f"/webhooks/{sub['id']}/deliveries/{first['id']}/redeliver", headers=auth(key))
    assert resumed.status_code == 202
    assert [d["id"] for d in receiver.accepted].count(first["id"]) == 2


def test_a_revoked_keys_subscriptions_send_nothing_more(site, receiver):
    """Revoking a key (``tradewinds apikey revoke``) disables its subscriptions: its games' later turns and their
    end (which names the seats' external ids) go to nobody."""
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    game = keyed_game(client, key)
    assert receiver.accepted
    key_id = next(k.key_id for k in apikeys.list_keys(runtime.store) if not k.revoked)
    assert apikeys.revoke(runtime.store, key_id)
    assert client.get("/webhooks", headers=auth(key)).status_code == 401
    sent = len(receiver.accepted)
    play_out(client, game)
    runtime.sweep(now=time.time() + 3600)
    assert receiver.accepted[sent:] == []
    assert webhooks.disabled(runtime.store, sub["id"])["reason"] == "revoked"


def test_a_key_revoked_before_revocations_disabled_webhooks_is_silenced_when_a_server_starts(tmp_path):
    """Before a revocation disabled the key's subscriptions, it only marked the key: a server or worker built on
    such a store disables them once (and a paused or failing one says ``revoked`` from then on)."""
    from workers.runtime import Runtime

    url = f"sqlite:///{tmp_path}/old.db"
    old = Runtime.build(url, None, "inline", str(tmp_path))
    revoked, _ = apikeys.create_key(old.store, "gone")
    kept, _ = apikeys.create_key(old.store, "kept")
    subs = [
        webhooks.create_subscription(old.store, k.key_id, "https://example.com/h", ["game.turn"])
        for k in (revoked, kept)
    ]
    webhooks.pause(old.store, subs[0]["id"])  # paused by its key, then the key revoked the old way
    digest, doc = next(
        (d, doc) for d, doc in old.store.list_documents(apikeys.COLLECTION) if doc["key_id"] == revoked.key_id
    )
    old.store.put_document(apikeys.COLLECTION, digest, {**doc, "revoked": True})
    old.store.delete_document(webhooks.INDEXES, "revoked_keys_silenced")  # a store from before the migration
    old.close()
    new = Runtime.build(url, None, "inline", str(tmp_path))
    try:
        assert webhooks.disabled(new.store, subs[0]["id"])["reason"] == "revoked"
        assert webhooks.disabled(new.store, subs[1]["id"]) is None
    finally:
        new.close()


def test_subscriptions_belong_to_their_key(site, receiver):
    runtime, client, key = site
    _, other = apikeys.create_key(runtime.store, "other")
    sub = subscribe(client, key, receiver.url)
    assert client.get(f"/webhooks/{sub['id']}", headers=auth(other)).status_code == 404
    assert client.get("/webhooks", headers=auth(other)).get_json()["webhooks"] == []
    assert "secret" not in client.get(f"/webhooks/{sub['id']}", headers=auth(key)).get_json()
    assert client.get("/webhooks").status_code == 401
    deleted = client.delete(f"/webhooks/{sub['id']}", headers=auth(key))
    assert deleted.status_code == 204 and deleted.data == b"" and "Content-Type" not in deleted.headers
    # games of other integrators or anonymous games never reach this receiver
    create_secret_game(client)
    assert receiver.accepted == []


def test_real_background_retries(receiver, monkeypatch):
    """With the in-process runner, a retry fires by itself after the back-off."""
    from eventstore.memory import MemoryStore
    from workers.dispatch import InProcessDispatcher
    from workers.runtime import Runtime, run_job

    monkeypatch.setattr(webhooks, "BACKOFF_BASE", 0.05)
    dispatcher = InProcessDispatcher(run_job)
    runtime = Runtime.signed(lambda signer: MemoryStore(signer=signer), dispatcher, sweep_interval=0.05)
    store = runtime.store
    jobs.set_runtime(runtime)
    try:
        client = create_app(runtime).test_client()
        _, key = apikeys.create_key(store, "site")
        subscribe(client, key, receiver.url, events=("game.started",))
        receiver.down = True
        keyed_game(client, key)
        time.sleep(0.3)
        receiver.down = False
        deadline = time.monotonic() + 10
        while not receiver.accepted and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [d["type"] for d in receiver.accepted] == ["game.started"]
        assert receiver.refused >= 2
        dispatcher.wait_idle()
    finally:
        runtime.sweeper.stop()
        jobs.set_runtime(None)


def place_of_the_other_keys_send(receivers: int, games: int, delay: float) -> tuple[int, int]:
    """On the in-process runner (two webhook threads): one key with ``receivers`` slow receivers (``delay`` s an
    answer) and ``games`` games queues its sends, then another key queues one; the slow receivers answer once all is
    queued (so the order does not depend on the machine's speed). Where the other key's send came among all the
    sends, and how many there were."""
    from workers.dispatch import InProcessDispatcher
    from workers.runtime import Runtime, run_job

    made = {}

    def new_store(signer):
        made["store"] = MemoryStore(signer=signer)
        return made["store"]

    dispatcher = InProcessDispatcher(
        run_job, group_of=lambda job, args: webhooks.delivery_group(made["store"], job, args)
    )
    runtime = Runtime.signed(new_store, dispatcher)
    jobs.set_runtime(runtime)
    journal: list = []
    slow = [Receiver() for _ in range(receivers)]
    fast = Receiver()
    try:
        client = create_app(runtime).test_client()
        _, busy_key = apikeys.create_key(runtime.store, "busy site")
        _, other_key = apikeys.create_key(runtime.store, "other site")
        gate = threading.Event()
        for r in slow:
            r.delay, r.journal, r.gate = delay, journal, gate
            subscribe(client, busy_key, r.url, events=("game.started",))
        fast.journal = journal
        subscribe(client, other_key, fast.url, events=("game.started",))
        for _ in range(games):
            keyed_game(client, busy_key)
        keyed_game(client, other_key)
        gate.set()
        assert dispatcher.wait_idle(60)
        return [r for r, _ in journal].index(fast), len(journal)
    finally:
        for r in [*slow, fast]:
            r.close()
        runtime.sweeper.stop()
        jobs.set_runtime(None)


def test_one_keys_slow_receivers_take_turns_with_another_keys():
    """Ten slow receivers of one key hold up another key's delivery by the sends under way, not by all ten: the keys'
    jobs take turns. Before, it came after nine of them."""
    place, sends = place_of_the_other_keys_send(receivers=10, games=1, delay=0.3)
    assert sends == 11 and place <= 5, f"the other key's send came {place + 1}th of {sends}"


def test_one_keys_slow_queues_take_turns_with_another_keys_send(monkeypatch):
    """Two slow receivers of one key with ten events each: a delivery job stops after a second of sending (here
    0.1 s), so the other key's send waits for a send or two of theirs, not for whole jobs of up to 20 (it came 19th
    of 21)."""
    monkeypatch.setattr(webhooks, "SECONDS_PER_JOB", 0.1)
    place, sends = place_of_the_other_keys_send(receivers=2, games=10, delay=0.2)
    assert sends == 21 and place <= 5, f"the other key's send came {place + 1}th of {sends}"


def test_new_events_do_not_cut_a_back_off_short(site, receiver, monkeypatch):
    runtime, client, key = site
    monkeypatch.setattr(webhooks, "BACKOFF_BASE", 60)  # long enough that the game below is played within it
    subscribe(client, key, receiver.url)
    receiver.down = True
    game = keyed_game(client, key, rounds=3)
    assert receiver.refused == 1  # the first send failed: the next waits BACKOFF_BASE seconds
    play_out(client, game)  # many new events, each synced and queued while the receiver is waiting out
    assert receiver.refused == 1, "a new event sent again before the back-off was over"
    [retry] = runtime.store.list_outbox(job="deliver_webhooks")
    assert retry.due_at > time.time()  # still waiting, not due now
    receiver.down = False
    runtime.sweep(now=time.time() + 3600)
    assert [d["type"] for d in receiver.accepted][-1] == "game.finished"


def test_a_successful_redelivery_sends_the_queue_behind_it(site, receiver):
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    receiver.down = True
    keyed_game(client, key)
    head = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"][0]
    receiver.down = False
    again = client.post(f"/webhooks/{sub['id']}/deliveries/{head['id']}/redeliver", headers=auth(key))
    assert again.status_code == 202
    log = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
    assert all(entry["status"] == "delivered" for entry in log), [e["status"] for e in log]
    assert client.get(f"/webhooks/{sub['id']}", headers=auth(key)).get_json()["failures"] == 0


def test_an_undo_the_webhooks_learn_late_sends_where_it_went_back_to_and_every_turn_after(site, receiver, monkeypatch):
    runtime, client, key = site
    subscribe(client, key, receiver.url, events=("game.turn", "game.truncated"))
    game = keyed_game(client, key, rounds=3)
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}

    def bank(seat):
        answer = client.post(
            f"/games/{game['id']}/commands", json={"command": {"type": "bank", "amount": 1}}, headers=auth(tokens[seat])
        )
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()["version"]

    start = client.get(f"/games/{game['id']}").get_json()["version"]
    for seat in (0, 1, 0, 1):
        bank(seat)
    synced = webhooks.sync_game
    monkeypatch.setattr(webhooks, "sync_game", lambda service, game_id: [])  # the webhook worker is away
    undone = client.post(f"/games/{game['id']}/undo", json={"to_version": start, "reason": "ruling"}, headers=auth(key))
    assert undone.status_code == 200
    after = [bank(0), bank(1), bank(0)]
    monkeypatch.setattr(webhooks, "sync_game", synced)  # back: it learns of the undo and the three moves at once
    jobs.sync_webhooks(game["id"])
    runtime.sweep(now=time.time() + 3600)
    late = receiver.accepted[[d["type"] for d in receiver.accepted].index("game.truncated") :]
    assert late[0]["data"]["version"] == start and late[0]["data"]["generation"] == 1
    turns = [(d["data"]["etag"], d["data"]["version"]) for d in late[1:] if d["type"] == "game.turn"]
    assert turns == [(f"1.{v}", v) for v in after]  # every turn of the new generation, none of the undone ones


def test_an_event_queued_behind_the_sender_is_still_sent_before_the_game_s_later_ones(monkeypatch):
    """Queue keys are taken before the entry is stored, so an entry can land behind a sender already past its
    place (another game's entry, keyed later, stored first). The game's next entry must not overtake it."""
    store = MemoryStore()
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])

    def entry(key: str, game: str, version: int) -> None:
        webhooks.queue_entry(
            store,
            sub["id"],
            {
                "key": key,
                "id": f"msg_{key}",
                "type": "game.turn",
                "game_id": game,
                "timestamp": "2026-01-01T00:00:00.000000Z",
                "data": {"version": version},
                "status": "pending",
                "attempts": [],
            },
        )

    entry("10", "y", 1)
    entry("20", "y", 2)
    sent: list[tuple[str, int]] = []
    reads = 0
    real = webhooks.pending_keys

    def pending_keys(store_, sub_id, limit):
        nonlocal reads
        reads += 1
        if reads == 2:  # between two pages: g's version 13, keyed before y's entries, then its version 15
            entry("05", "g", 13)
            entry("30", "g", 15)
        return real(store_, sub_id, limit)

    def send(sub_, item, timeout=None):
        sent.append((item["game_id"], item["data"]["version"]))
        return webhook_targets.SendResult(True, "delivered", 200)

    monkeypatch.setattr(webhooks, "pending_keys", pending_keys)
    monkeypatch.setattr(webhooks, "send", send)
    webhooks.deliver(store, sub["id"], batch=1)
    assert sorted(sent) == [("g", 13), ("g", 15), ("y", 1), ("y", 2)]
    assert [v for g, v in sent if g == "g"] == [13, 15], sent


class CountingStore(MemoryStore):
    """Counts the delivery-log documents each call reads (the log of any subscription)."""

    def __init__(self):
        super().__init__()
        self.log_reads = 0

    def get_document(self, collection, key):
        found = super().get_document(collection, key)
        self.log_reads += collection.startswith("webhook_queue:") and found is not None
        return found

    def list_documents(self, collection, limit=100, offset=0):
        page = super().list_documents(collection, limit=limit, offset=offset)
        if collection.startswith("webhook_queue:"):
            self.log_reads += len(page)
        return page


def answered(sent: list[dict], result: webhook_targets.SendResult):
    """A stand-in for ``webhooks.send`` that records each item and answers ``result``."""

    def send(sub_, item, timeout=None):
        sent.append(item)
        return result

    return send


def succeed(sent: list[dict]):
    return answered(sent, webhook_targets.SendResult(True, "delivered", 200))


def test_a_delivery_pass_reads_what_is_pending_not_the_delivered_log(monkeypatch):
    store = CountingStore()
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    sent: list[dict] = []
    monkeypatch.setattr(webhooks, "send", succeed(sent))
    for version in range(600):
        webhooks.enqueue_event(store, sub, "game.turn", {"version": version}, "g")
    assert webhooks.deliver(store, sub["id"]) == (600, None)
    webhooks.enqueue_event(store, sub, "game.turn", {"version": 600}, "g")
    store.log_reads = 0
    assert webhooks.deliver(store, sub["id"]) == (1, None)
    assert [item["data"]["version"] for item in sent] == list(range(601))
    # the new entry, and the log's front that the retention check looks at (a page): not the 600 delivered
    assert store.log_reads <= 1 + webhooks.PRUNE_PAGE, store.log_reads
    store.log_reads = 0
    last = webhooks.deliveries(store, sub["id"], limit=1, offset=600)[0]
    store.log_reads = 0
    assert webhooks.find_delivery(store, sub["id"], last["id"]) == last and store.log_reads == 1


def test_delivered_events_leave_the_log_after_the_retention_and_undelivered_ones_stay(monkeypatch):
    store = MemoryStore()
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    sent: list[dict] = []
    monkeypatch.setattr(webhooks, "send", succeed(sent))
    old = [webhooks.enqueue_event(store, sub, "game.turn", {"version": v}, "g") for v in range(30)]
    webhooks.deliver(store, sub["id"])
    behind = webhooks.enqueue_event(store, sub, "game.turn", {"version": 30}, "g")  # not delivered yet
    later = time.time() + webhooks.LOG_SECONDS + 60
    assert webhooks.prune_log(store, sub["id"], now=later - 120) == 0  # not old enough yet
    assert webhooks.prune_log(store, sub["id"], now=later) == 30
    log = webhooks.deliveries(store, sub["id"])
    assert [entry["id"] for entry in log] == [behind["id"]]
    assert webhooks.find_delivery(store, sub["id"], old[0]["id"]) is None
    assert store.list_documents(webhooks.messages_name(sub["id"])) == [(behind["id"], {"key": behind["key"]})]
    assert webhooks.deliver(store, sub["id"]) == (1, None) and sent[-1]["id"] == behind["id"]


def test_a_subscription_stored_before_the_queue_index_still_gets_its_pending_events(monkeypatch):
    """A log written before pending marks and the message index existed: its pending entries are sent, in
    order, and its messages can be redelivered."""
    store = MemoryStore()
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    store.delete_document(webhooks.INDEXES, webhooks.queue_indexed(sub["id"]))  # as stored before queues were indexed
    for version, status in enumerate(("delivered", "delivered", "retrying", "pending")):
        key = f"{version:020d}-abcdef01"
        entry = {"key": key, "id": f"msg_{version:032x}", "type": "game.turn", "game_id": "g"}
        entry["timestamp"] = "2026-01-01T00:00:00.000000Z"
        store.put_document(
            webhooks.queue_name(sub["id"]),
            key,
            {**entry, "data": {"version": version}, "status": status, "attempts": []}
            | ({"delivered_at": "2026-01-01T00:00:00.000000Z"} if status == "delivered" else {}),
        )
    sent: list[dict] = []
    monkeypatch.setattr(webhooks, "send", succeed(sent))
    assert webhooks.find_delivery(store, sub["id"], f"msg_{0:032x}")["data"] == {"version": 0}
    assert webhooks.deliver(store, sub["id"]) == (2, None)
    assert [item["data"]["version"] for item in sent] == [2, 3]
    assert store.get_document(webhooks.INDEXES, webhooks.queue_indexed(sub["id"])) is not None


def test_a_key_holds_at_most_twenty_subscriptions_and_a_deleted_one_s_log_goes(site, receiver):
    runtime, client, key = site
    _, other = apikeys.create_key(runtime.store, "other")
    subs = [subscribe(client, key, receiver.url) for _ in range(webhooks.MAX_PER_KEY)]
    refused = client.post("/webhooks", json={"url": receiver.url, "events": ["game.turn"]}, headers=auth(key))
    assert refused.status_code == 409 and refused.get_json()["code"] == "too_many_webhooks", refused.get_json()
    assert "20" in refused.get_json()["detail"]
    subscribe(client, other, receiver.url)  # another key's count is its own
    listed = client.get("/webhooks", headers=auth(key)).get_json()["webhooks"]
    assert sorted(s["id"] for s in listed) == sorted(s["id"] for s in subs)
    keyed_game(client, key)
    gone = subs[0]["id"]
    assert client.get(f"/webhooks/{gone}/deliveries", headers=auth(key)).get_json()["deliveries"]
    assert client.delete(f"/webhooks/{gone}", headers=auth(key)).status_code == 204
    runtime.sweep(now=time.time() + 60)
    for collection in (webhooks.queue_name(gone), webhooks.pending_name(gone), webhooks.messages_name(gone)):
        assert runtime.store.list_documents(collection) == [], collection
    assert subscribe(client, key, receiver.url)["id"] not in {s["id"] for s in subs}  # room for one again


def test_subscriptions_stored_before_the_per_key_index_are_still_listed_and_sent_to():
    store = MemoryStore()
    old = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    store.delete_document(webhooks.by_key_name("key"), old["id"])  # as stored before the index existed
    assert [s["id"] for s in webhooks.subscriptions_for(store, "key")] == [old["id"]]
    assert webhooks.subscriptions_for(store, "other") == []
    assert store.get_document(webhooks.INDEXES, "webhooks_by_key") is not None


def test_deleting_a_subscription_with_a_long_log_drops_it_a_page_a_job(monkeypatch):
    store = MemoryStore()
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    for version in range(700):
        webhooks.enqueue_event(store, sub, "game.turn", {"version": version}, "g")
    webhooks.delete_subscription(store, sub)
    assert webhooks.deliver(store, sub["id"]) == (0, 0.0)  # more to drop: the job runs again
    assert webhooks.deliver(store, sub["id"]) == (0, 0.0)
    passes = 2
    while webhooks.deliver(store, sub["id"]) != (0, None):
        passes += 1
    assert passes <= 6
    assert not store.list_documents(webhooks.queue_name(sub["id"]))


def test_a_subscription_deleted_while_its_queue_is_being_sent_stays_deleted_and_its_queue_goes(monkeypatch):
    """The delivery job writes only the delivery state, never the subscription: a DELETE in the middle of a pass
    is not undone by the pass, no send follows the next page, and the next job drops everything."""
    store = MemoryStore()
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    for version in range(5):
        webhooks.enqueue_event(store, sub, "game.turn", {"version": version}, "g")
    sent: list[int] = []

    def send(sub_, item, timeout=None):
        sent.append(item["data"]["version"])
        if len(sent) == 2:
            webhooks.delete_subscription(store, sub)  # DELETE /webhooks/{id}, from another process
        return webhook_targets.SendResult(len(sent) != 3, "delivered", 200)

    monkeypatch.setattr(webhooks, "send", send)
    assert webhooks.deliver(store, sub["id"], batch=1) == (2, 0.0)
    assert sent == [0, 1]
    assert webhooks.get_subscription(store, sub["id"]) is None and webhooks.subscriptions_for(store, "key") == []
    while webhooks.deliver(store, sub["id"]) != (0, None):  # the job the DELETE scheduled
        pass
    for collection in (webhooks.queue_name, webhooks.pending_name, webhooks.messages_name):
        assert store.list_documents(collection(sub["id"])) == []
    assert store.get_document(webhooks.STATE, sub["id"]) is None
    assert store.get_document(webhooks.INDEXES, webhooks.queue_indexed(sub["id"])) is None


def test_subscriptions_racing_past_the_first_count_are_taken_back_over_the_cap(site, receiver, monkeypatch):
    runtime, client, key = site
    for _ in range(webhooks.MAX_PER_KEY - 1):
        subscribe(client, key, receiver.url)
    real = webhook_targets.resolve
    raced = []

    key_id = apikeys.lookup(runtime.store, key).key_id

    def resolve(url):  # a slow resolution, during which another request of the same key subscribes
        if not raced:
            raced.append(webhooks.create_subscription(runtime.store, key_id, receiver.url, ["game.turn"]))
        return real(url)

    monkeypatch.setattr(webhook_targets, "resolve", resolve)
    refused = client.post("/webhooks", json={"url": receiver.url, "events": ["game.turn"]}, headers=auth(key))
    assert refused.status_code == 409 and refused.get_json()["code"] == "too_many_webhooks"
    listed = client.get("/webhooks", headers=auth(key)).get_json()["webhooks"]
    assert len(listed) == webhooks.MAX_PER_KEY and raced[0]["id"] in {s["id"] for s in listed}


def test_an_old_entry_queued_without_its_pending_mark_is_pruned_and_does_not_hold_the_log(monkeypatch):
    """A process that stopped between storing an entry and marking it leaves an entry never sent (its event was
    queued again): retention drops it with the old delivered ones, and keeps an old entry still waiting."""
    store = MemoryStore()
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    orphan = webhooks.enqueue_event(store, sub, "game.turn", {"version": 0}, "g")
    store.delete_document(webhooks.pending_name(sub["id"]), orphan["key"])
    monkeypatch.setattr(webhooks, "send", succeed([]))
    for version in range(1, 30):
        webhooks.enqueue_event(store, sub, "game.turn", {"version": version}, "g")
    assert webhooks.deliver(store, sub["id"]) == (29, None)
    waiting = webhooks.enqueue_event(store, sub, "game.turn", {"version": 30}, "g")  # sent once the receiver is up
    later = time.time() + webhooks.LOG_SECONDS + 60
    assert webhooks.prune_log(store, sub["id"], now=later) == 30
    assert [e["id"] for e in webhooks.deliveries(store, sub["id"])] == [waiting["id"]]


def test_a_key_with_more_subscriptions_than_the_cap_from_before_it_reaches_them_all(monkeypatch):
    store = MemoryStore()
    subs = [webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"]) for _ in range(150)]
    for sub in subs:  # stored before the per-key index
        store.delete_document(webhooks.by_key_name("key"), sub["id"])
    assert len(webhooks.subscriptions_for(store, "key")) == 150
    assert len(webhooks.emit(store, "key", "game.turn", {"version": 1}, "g")) == 150


class Clock:
    """Stands for the time module in ``workers.webhooks``: a wall clock moved by hand."""

    def __init__(self, start: float) -> None:
        self.now = start

    def time(self) -> float:
        return self.now

    def time_ns(self) -> int:
        return int(self.now * 1e9)


def fail(sent: list[dict]):
    return answered(sent, webhook_targets.SendResult(False, "http_5xx", 503))


def test_a_receiver_failing_for_days_is_disabled_and_its_key_s_new_events_are_not_queued(monkeypatch):
    store = MemoryStore()
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(webhooks, "time", clock)
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    other = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/other", ["game.turn"])
    sent: list[dict] = []
    monkeypatch.setattr(webhooks, "send", fail(sent))
    webhooks.emit(store, "key", "game.turn", {"version": 1}, "g")
    assert webhooks.deliver(store, sub["id"]) == (0, webhooks.BACKOFF_BASE)
    clock.now += webhooks.DISABLE_AFTER_SECONDS - 1
    webhooks.deliver(store, sub["id"])
    assert webhooks.describe(store, webhooks.get_subscription(store, sub["id"]))["active"] is True, "not yet"
    clock.now += 2
    assert webhooks.deliver(store, sub["id"]) == (0, None), "no retry is scheduled for a disabled subscription"
    shown = webhooks.describe(store, webhooks.get_subscription(store, sub["id"]))
    assert shown["active"] is False and shown["disabled_reason"] == "failing", shown
    assert shown["disabled_at"] is not None and shown["failures"] == 3
    tries = len(sent)
    assert webhooks.emit(store, "key", "game.turn", {"version": 2}, "g") == [other["id"]]
    assert [entry["data"]["version"] for entry in webhooks.deliveries(store, sub["id"])] == [1], "kept, not added to"
    assert webhooks.deliver(store, sub["id"]) == (0, None) and len(sent) == tries, "a disabled queue is not sent"


def test_a_success_between_failures_starts_the_count_of_days_again(monkeypatch):
    store = MemoryStore()
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(webhooks, "time", clock)
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    sent: list[dict] = []
    monkeypatch.setattr(webhooks, "send", fail(sent))
    webhooks.emit(store, "key", "game.turn", {"version": 1}, "g")
    webhooks.deliver(store, sub["id"])
    clock.now += webhooks.DISABLE_AFTER_SECONDS - 60
    monkeypatch.setattr(webhooks, "send", succeed(sent))
    assert webhooks.deliver(store, sub["id"]) == (1, None)
    monkeypatch.setattr(webhooks, "send", fail(sent))
    webhooks.emit(store, "key", "game.turn", {"version": 2}, "g")
    clock.now += 120
    assert webhooks.deliver(store, sub["id"]) == (0, webhooks.BACKOFF_BASE)
    assert webhooks.describe(store, webhooks.get_subscription(store, sub["id"]))["active"] is True


def test_an_integrator_pauses_and_resumes_a_subscription_and_the_held_queue_goes_out_in_order(site, receiver):
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    receiver.down = True
    game = keyed_game(client, key)
    state = webhooks.delivery_state(runtime.store, sub)
    runtime.store.put_document(webhooks.STATE, sub["id"], {**state, "failing_since": time.time() - 6 * 24 * 3600})
    runtime.sweep(now=time.time() + 3600)
    shown = client.get(f"/webhooks/{sub['id']}", headers=auth(key)).get_json()
    assert shown["active"] is False and shown["disabled_reason"] == "failing", shown
    held = [
        d["id"] for d in client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
    ]
    assert held and receiver.accepted == []
    receiver.down = False
    resumed = client.patch(f"/webhooks/{sub['id']}", json={"active": True}, headers=auth(key))
    assert resumed.status_code == 200, resumed.get_json()
    assert resumed.get_json()["active"] is True and resumed.get_json()["disabled_at"] is None
    assert resumed.get_json()["failures"] == 0
    for _ in range(5):
        runtime.sweep(now=time.time() + 60)
    assert [d["id"] for d in receiver.accepted] == held, "the held queue, in order, once"
    paused = client.patch(f"/webhooks/{sub['id']}", json={"active": False}, headers=auth(key)).get_json()
    assert paused["active"] is False and paused["disabled_reason"] == "paused"
    play_out(client, game)
    runtime.sweep(now=time.time() + 60)
    assert [d["id"] for d in receiver.accepted] == held, "nothing sent or queued while paused"
    assert len(client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]) == len(held)


def test_only_the_owner_may_pause_a_subscription_and_the_body_is_checked(site, receiver):
    runtime, client, key = site
    _, other = apikeys.create_key(runtime.store, "other")
    sub = subscribe(client, key, receiver.url)
    assert client.patch(f"/webhooks/{sub['id']}", json={"active": False}, headers=auth(other)).status_code == 404
    assert client.patch(f"/webhooks/{sub['id']}", json={"active": False}).status_code == 401
    for body in ({}, {"active": "no"}, {"active": True, "url": "http://example.com/"}, [True]):
        bad = client.patch(f"/webhooks/{sub['id']}", json=body, headers=auth(key))
        assert bad.status_code == 400 and bad.get_json()["code"] == "invalid_request", (body, bad.get_json())
    assert client.get(f"/webhooks/{sub['id']}", headers=auth(key)).get_json()["active"] is True


def test_a_game_s_events_keep_their_order_when_the_syncing_clock_goes_back(site, receiver, monkeypatch):
    """Two syncs of one game may run on two machines whose clocks differ: the second's events still queue after
    the first's (queue keys sort in emission order, and a game's keys never go back)."""
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    receiver.down = True  # everything stays in the queue, in its order
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(webhooks, "time", clock)
    game = keyed_game(client, key, rounds=2)
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    for _ in range(3):
        clock.now -= 60  # the next sync runs where the clock reads a minute earlier
        state = client.get(f"/games/{game['id']}").get_json()
        bank = client.post(
            f"/games/{game['id']}/commands",
            json={"command": {"type": "bank", "amount": 1}},
            headers=auth(tokens[state["to_act"][0]]),
        )
        assert bank.status_code == 200, bank.get_json()
    log = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(key)).get_json()["deliveries"]
    versions = [d["data"]["version"] for d in log]
    assert len(versions) == 5 and versions == sorted(versions) and log[0]["type"] == "game.started", versions


def test_a_receiver_back_during_a_long_drain_has_its_failures_forgotten_at_once(monkeypatch):
    """A job sends at most ``SENDS_PER_JOB``: the first success after failures clears them in the stored state,
    so one failure later in the drain is not taken for the old outage going on (nor disables it)."""
    store = MemoryStore()
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(webhooks, "time", clock)
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    for version in range(50):
        webhooks.enqueue_event(store, sub, "game.turn", {"version": version}, "g")
    sent: list[dict] = []
    monkeypatch.setattr(webhooks, "send", fail(sent))
    webhooks.deliver(store, sub["id"])
    clock.now += webhooks.DISABLE_AFTER_SECONDS - 3600
    webhooks.deliver(store, sub["id"])
    monkeypatch.setattr(webhooks, "send", succeed(sent))
    assert webhooks.deliver(store, sub["id"], max_sends=webhooks.SENDS_PER_JOB) == (webhooks.SENDS_PER_JOB, 0.0)
    assert webhooks.describe(store, sub)["failures"] == 0
    clock.now += 7200
    monkeypatch.setattr(webhooks, "send", fail(sent))
    assert webhooks.deliver(store, sub["id"]) == (0, webhooks.BACKOFF_BASE), "a first failure: retried in 1 s"
    assert webhooks.describe(store, sub)["active"] is True


def test_a_pause_stops_a_delivery_pass_under_way_before_its_next_send(monkeypatch):
    store = MemoryStore()
    sub = webhooks.create_subscription(store, "key", "http://127.0.0.1:9/hook", ["game.turn"])
    for version in range(10):
        webhooks.enqueue_event(store, sub, "game.turn", {"version": version}, "g")
    sent: list[dict] = []

    def send_then_pause(sub_, item, timeout=None):
        sent.append(item)
        webhooks.pause(store, sub["id"])  # the integrator's PATCH arrives while this send is out
        return webhook_targets.SendResult(True, "delivered", 200)

    monkeypatch.setattr(webhooks, "send", send_then_pause)
    assert webhooks.deliver(store, sub["id"]) == (1, None)
    assert len(sent) == 1


def test_resuming_clears_the_failures_and_an_active_subscription_is_left_as_it_is(site, receiver):
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    receiver.down = True
    keyed_game(client, key)
    state = webhooks.delivery_state(runtime.store, sub)
    assert state["failures"] >= 1 and state["next_attempt_at"]
    again = client.patch(f"/webhooks/{sub['id']}", json={"active": True}, headers=auth(key)).get_json()
    assert again["failures"] == state["failures"], "resuming an active subscription changes nothing"
    assert webhooks.delivery_state(runtime.store, sub) == state
    runtime.store.put_document(webhooks.STATE, sub["id"], {**state, "failing_since": time.time() - 6 * 24 * 3600})
    runtime.sweep(now=time.time() + 3600)
    assert client.get(f"/webhooks/{sub['id']}", headers=auth(key)).get_json()["disabled_reason"] == "failing"
    client.patch(f"/webhooks/{sub['id']}", json={"active": True}, headers=auth(key))
    runtime.sweep(now=time.time() + 60)  # the receiver is still down: failures of a new count
    shown = client.get(f"/webhooks/{sub['id']}", headers=auth(key)).get_json()
    assert shown["active"] is True and 1 <= shown["failures"] <= 2, shown
    assert webhooks.delivery_state(runtime.store, sub)["failing_since"] > time.time() - 60


def test_a_pause_that_loses_the_race_to_a_delete_leaves_nothing_behind(site, receiver, monkeypatch):
    runtime, client, key = site
    sub = subscribe(client, key, receiver.url)
    real_pause = webhooks.pause

    def deleted_first(store, sub_id, reason="paused"):
        webhooks.delete_subscription(store, webhooks.get_subscription(store, sub_id))
        real_pause(store, sub_id, reason)

    monkeypatch.setattr(webhooks, "pause", deleted_first)
    gone = client.patch(f"/webhooks/{sub['id']}", json={"active": False}, headers=auth(key))
    assert gone.status_code == 404, gone.get_json()
    assert runtime.store.get_document(webhooks.DISABLED, sub["id"]) is None


def test_on_rq_one_keys_slow_receivers_take_turns_with_another_keys(tmp_path, redis_url):
    """With RQ, a webhook job waits in the queue its key hashes to, and a worker takes the webhook queues in turn:
    ten slow receivers of one key hold up another key's send (its key in a queue listed after theirs, so that taking
    the queues in their listed order would send all ten first) by one send. When every webhook job waited in one
    queue, it came 11th of 11."""
    from workers.dispatch import WEBHOOK_QUEUE_NAMES, webhook_queue_for
    from workers.runtime import Runtime
    from workers.worker import run as run_worker

    runtime = Runtime.build(f"sqlite:///{tmp_path}/games.db", redis_url, dispatcher="rq")
    jobs.set_runtime(runtime)
    journal: list = []
    slow = [Receiver() for _ in range(10)]
    fast = Receiver()
    try:
        client = create_app(runtime).test_client()

        def place(key: apikeys.ApiKey) -> int:
            return WEBHOOK_QUEUE_NAMES.index(webhook_queue_for(f"key:{key.key_id}"))

        busy, busy_token = apikeys.create_key(runtime.store, "busy site")
        other, other_token = apikeys.create_key(runtime.store, "other site")
        while place(busy) >= place(other):  # about one chance in two
            busy, busy_token = apikeys.create_key(runtime.store, "busy site")
            other, other_token = apikeys.create_key(runtime.store, "other site")
        for r in slow:
            r.delay, r.journal = 0.2, journal
            subscribe(client, busy_token, r.url, events=("game.started",))
        fast.journal = journal
        subscribe(client, other_token, fast.url, events=("game.started",))
        keyed_game(client, busy_token)
        keyed_game(client, other_token)
        assert run_worker(runtime, queues="webhooks", burst=True, say=lambda _: None) == 0
        came = [r for r, _ in journal].index(fast)
        assert len(journal) == 11 and came == 1, f"the other key's send came {came + 1}th of {len(journal)}"
    finally:
        for r in [*slow, fast]:
            r.close()
        jobs.set_runtime(None)
        runtime.close()


def test_a_worker_takes_bot_turns_first_and_the_webhook_queues_in_turn():
    from workers.dispatch import QUEUE_NAME, WEBHOOK_QUEUE_NAMES
    from workers.worker import QUEUES, in_turn

    class Queue:
        def __init__(self, name):
            self.name = name

    queues = [Queue(name) for name in QUEUES["all"]]
    hooks = queues[1:]
    assert [q.name for q in queues] == [QUEUE_NAME, *WEBHOOK_QUEUE_NAMES]
    after_hook = in_turn(queues, hooks[3])
    assert after_hook == [queues[0], *hooks[4:], *hooks[:4]]
    assert in_turn(after_hook, queues[0]) == after_hook  # a bot turn taken changes nothing
    assert in_turn(in_turn(after_hook, hooks[-1]), hooks[0]) == [queues[0], *hooks[1:], hooks[0]]
