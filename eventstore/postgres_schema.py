"""PostgreSQL schema migrations for ``PostgresStore`` (applied in order, recorded in ``schema_version``)."""

from __future__ import annotations

# Positions are derived from the appending transaction's id: position = xid8 * 65536 + index in the batch
# (a batch holds at most 65535 events). read_all only returns positions below tw_visible_limit(): the
# smallest id among the transactions still running in the snapshot (or the snapshot's xmax) * 65536.
# Every transaction with a smaller id has ended, and every transaction that may still commit has a larger
# id, hence larger positions. So a polling reader never skips a row that commits late, and appends on
# different streams never wait for each other. Running transactions known (from pg_stat_activity) to
# belong to another database are left out, because they cannot write our events: only a long write
# transaction in this database holds followers back. An unknown running xid always counts (safe side).
POSITION_SHIFT = 65536
MAX_BATCH = POSITION_SHIFT - 1
# Taken only when PostgresStore(serialize_appends=True): held until commit it serialises every append
# (the alternative strategy, kept so the benchmark can measure what it costs).
APPEND_LOCK_KEY = 1953980784  # "twap"
MIGRATION_LOCK_KEY = 1953980781
NOTIFY_CHANNEL = "tradewinds_events"
VISIBLE_LIMIT = "(SELECT tw_visible_limit())"  # an InitPlan: evaluated once per query

_APPEND_FUNCTION = f"""
CREATE OR REPLACE FUNCTION tw_append(
    p_stream text, p_expected integer, p_datas text[], p_meta text, p_idempotency_key text, p_request_hash text,
    p_serialize boolean, p_recorded text DEFAULT NULL, p_head text DEFAULT NULL, p_signature text DEFAULT NULL)
RETURNS TABLE (o_position bigint, o_generation integer, o_hash text, o_recorded_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
    v_version integer;
    v_generation integer;
    v_hash text;
    v_count integer := coalesce(array_length(p_datas, 1), 0);
    v_now timestamptz := coalesce(p_recorded::timestamptz, clock_timestamp());
    v_recorded text;
    v_data text;
    v_version_n integer := p_expected;
    v_hashes text[] := '{{}}';
    v_base bigint;
BEGIN
    SELECT s.version, s.generation, s.last_hash INTO v_version, v_generation, v_hash
      FROM event_streams s WHERE s.stream = p_stream FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no stream %', p_stream USING ERRCODE = 'TW404';
    END IF;
    -- a used key wins over a stale version: a retried request is recognised as a retry
    IF p_idempotency_key IS NOT NULL AND EXISTS (
        SELECT 1 FROM idempotency_keys k WHERE k.stream = p_stream AND k.key = p_idempotency_key
    ) THEN
        RAISE EXCEPTION 'idempotency key % was used on stream %', p_idempotency_key, p_stream USING ERRCODE = 'TW412';
    END IF;
    IF v_version <> p_expected THEN
        RAISE EXCEPTION 'stream % is at version %', p_stream, v_version USING ERRCODE = 'TW409', DETAIL = v_version::text;
    END IF;
    IF p_idempotency_key IS NOT NULL THEN
        INSERT INTO idempotency_keys (stream, key, request_hash, generation, from_version, to_version, created_at)
        VALUES (p_stream, p_idempotency_key, p_request_hash, v_generation, p_expected + 1, p_expected + v_count, v_now);
    END IF;
    IF p_serialize THEN
        PERFORM pg_advisory_xact_lock({APPEND_LOCK_KEY});
    END IF;
    IF v_count > {MAX_BATCH} THEN
        RAISE EXCEPTION 'at most {MAX_BATCH} events per append' USING ERRCODE = '22023';
    END IF;
    v_base := pg_current_xact_id()::text::bigint * {POSITION_SHIFT};
    -- the chain: hash_n = sha256(hash_n-1 || canonical_json({{"data", "generation", "meta", "recorded_at",
    -- "version"}})), where the data and meta texts arrive as canonical JSON and recorded_at is the ISO text
    -- eventstore._common.iso_utc writes (see eventstore._common.event_payload)
    -- a caller that signs before it writes (eventstore.postgres.append) sends the time it hashed, and the
    -- head hash it signed: another head (a truncation and new moves since it read) is a stale version
    v_recorded := coalesce(p_recorded, to_char(v_now AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'));
    FOREACH v_data IN ARRAY p_datas LOOP
        v_version_n := v_version_n + 1;
        v_hash := encode(sha256(convert_to(
            v_hash || '{{"data":' || v_data || ',"generation":' || v_generation::text || ',"meta":' || p_meta
            || ',"recorded_at":"' || v_recorded || '","version":' || v_version_n::text || '}}',
            'UTF8')), 'hex');
        v_hashes := array_append(v_hashes, v_hash);
    END LOOP;
    IF p_head IS NOT NULL AND v_hash <> p_head THEN
        RAISE EXCEPTION 'stream % has another head at version %', p_stream, v_version
            USING ERRCODE = 'TW409', DETAIL = v_version::text;
    END IF;
    RETURN QUERY
    WITH inserted AS (
        INSERT INTO events AS e (position, stream, version, generation, data, meta, hash, recorded_at)
        SELECT v_base + t.n, p_stream, p_expected + t.n::integer, v_generation, t.d::json, p_meta::json, t.h, v_now
          FROM unnest(p_datas, v_hashes) WITH ORDINALITY AS t(d, h, n)
        RETURNING e.position, e.generation, e.hash, e.recorded_at
    )
    SELECT * FROM inserted ORDER BY 1;
    UPDATE event_streams SET version = p_expected + v_count, last_hash = v_hash,
        head_signature = coalesce(p_signature, head_signature) WHERE stream = p_stream;
END
$$
"""

# STABLE matters: the function then sees the snapshot of the query that calls it. PL/pgSQL caches its
# plans (a SQL function re-plans the pg_stat_activity query on every call: ten times slower).
_VISIBLE_LIMIT_FUNCTION = f"""
CREATE OR REPLACE FUNCTION tw_visible_limit() RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_snap pg_snapshot := pg_current_snapshot();
    v_oldest bigint;
BEGIN
    IF pg_snapshot_xmin(v_snap) = pg_snapshot_xmax(v_snap) THEN  -- nothing running
        RETURN pg_snapshot_xmax(v_snap)::text::bigint * {POSITION_SHIFT};
    END IF;
    SELECT min(x::text::bigint) INTO v_oldest
      FROM pg_snapshot_xip(v_snap) AS x
     WHERE x::text::bigint % 4294967296 NOT IN (
        SELECT a.backend_xid::text::bigint FROM pg_stat_activity a
         WHERE a.backend_xid IS NOT NULL AND a.datname IS DISTINCT FROM current_database());
    RETURN coalesce(v_oldest, pg_snapshot_xmax(v_snap)::text::bigint) * {POSITION_SHIFT};
END
$$
"""

# Event data and meta are ``json``, not ``jsonb``: json keeps the canonical text exactly as hashed
# (jsonb would turn 1e+16 into 10000000000000000, which reads back as an int and breaks verify).
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE event_streams (
            seq bigserial UNIQUE, stream text PRIMARY KEY, game_type text NOT NULL, created_at timestamptz NOT NULL,
            status text NOT NULL, version integer NOT NULL DEFAULT 0, generation integer NOT NULL DEFAULT 0,
            last_hash text NOT NULL, metadata jsonb NOT NULL)""",
        "CREATE INDEX event_streams_game_type ON event_streams (game_type, status, seq)",
        """CREATE TABLE events (
            position bigint PRIMARY KEY, stream text NOT NULL REFERENCES event_streams (stream),
            version integer NOT NULL, generation integer NOT NULL, data json NOT NULL, meta json NOT NULL,
            hash text NOT NULL, recorded_at timestamptz NOT NULL,
            CONSTRAINT events_stream_version UNIQUE (stream, version))""",
        """CREATE TABLE archived_events (
            position bigint PRIMARY KEY, stream text NOT NULL, version integer NOT NULL, generation integer NOT NULL,
            data json NOT NULL, meta json NOT NULL, hash text NOT NULL, recorded_at timestamptz NOT NULL,
            truncation_generation integer NOT NULL)""",
        "CREATE INDEX archived_events_stream ON archived_events (stream, truncation_generation, version)",
        """CREATE TABLE stream_truncations (
            id bigserial PRIMARY KEY, stream text NOT NULL, from_version integer NOT NULL, to_version integer NOT NULL,
            generation integer NOT NULL, actor text NOT NULL, reason text NOT NULL, truncated_at timestamptz NOT NULL)""",
        "CREATE INDEX stream_truncations_stream ON stream_truncations (stream, id)",
        """CREATE TABLE idempotency_keys (
            stream text NOT NULL, key text NOT NULL, request_hash text NOT NULL, generation integer NOT NULL,
            from_version integer NOT NULL, to_version integer NOT NULL, created_at timestamptz NOT NULL,
            PRIMARY KEY (stream, key))""",
        """CREATE TABLE snapshots (
            stream text NOT NULL, generation integer NOT NULL, key text NOT NULL, version integer NOT NULL,
            blob bytea NOT NULL, PRIMARY KEY (stream, generation, key, version))""",
        "CREATE TABLE schema_functions (digest text NOT NULL)",
        """CREATE TABLE documents (
            collection text NOT NULL, key text NOT NULL, doc jsonb NOT NULL, updated_at timestamptz NOT NULL,
            PRIMARY KEY (collection, key))""",
    ],
    # "signed chain": the hash covers every stored field and starts from the stream as created (json, not
    # jsonb: the creation text is hashed); heads are signed; snapshots are JSON (pickled ones dropped)
    [
        "ALTER TABLE event_streams ADD COLUMN creation json",
        "ALTER TABLE event_streams ADD COLUMN head_signature text NOT NULL DEFAULT ''",
        "DELETE FROM snapshots",
        "rehash",  # PostgresStore._rehash_streams, with the store's signer
    ],
]

# Named migrations, applied once each (recorded by name in schema_migrations) after the numbered ones.
NAMED_MIGRATIONS: dict[str, list[str]] = {
    "outbox": [
        """CREATE TABLE outbox (
            key text PRIMARY KEY, token text NOT NULL, job text NOT NULL, args jsonb NOT NULL,
            due_at double precision NOT NULL, attempts integer NOT NULL DEFAULT 0)""",
        "CREATE INDEX outbox_due ON outbox (due_at)",
        "CREATE INDEX outbox_job ON outbox (job, due_at)",
    ],
}

# Functions hold no data: migrate() (re)installs them when these definitions change (digest in
# schema_functions).
FUNCTIONS: list[str] = [
    "DROP FUNCTION IF EXISTS tw_append(text, integer, text[], text, text, boolean)",  # earlier signatures
    "DROP FUNCTION IF EXISTS tw_append(text, integer, text[], text, text, text, boolean)",
    _APPEND_FUNCTION,
    _VISIBLE_LIMIT_FUNCTION,
]

ALL_TABLES = (
    "events",
    "archived_events",
    "stream_truncations",
    "idempotency_keys",
    "snapshots",
    "documents",
    "outbox",
    "event_streams",
)
