"""The ``tradewinds`` command: serve, worker, migrate, openapi, simulate."""

from __future__ import annotations

import argparse
import logging
import math
import os
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

from workers.runtime import ConfigError, Runtime
from workers.signing import KeyFileError, ServerKey


def _runtime(dispatcher: str | None = None, data_dir: str | None = None) -> Runtime:
    return Runtime.build(
        os.environ.get("TRADEWINDS_DATABASE_URL") or None,
        os.environ.get("TRADEWINDS_REDIS_URL") or None,
        dispatcher,
        data_dir,
    )


def _check_free(host: str, port: int) -> None:
    """Refuse at once, in one line, an address something else listens on (gunicorn would announce the server,
    then try for 5 s and exit with a log of retries)."""
    bare = host.strip("[]")  # an IPv6 address may come in brackets, as in a URL
    try:
        family = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM)[0][0]
        with socket.create_server((bare, port), family=family):
            pass
    except OSError as exc:
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def cmd_serve(args: argparse.Namespace) -> int:
    from api import serving

    _check_free(args.host, args.port)  # first: a refusal here has changed nothing (no metrics folder, no store)
    # Open once in the master to fail fast on bad configuration (Redis, the store), then again in each worker after
    # the fork. Without Redis the probe's dispatcher is inline: it runs no sweeper, so nothing is counted before the
    # metrics folder is set, and a refusal here leaves the folder as it was.
    probe = _runtime(dispatcher=None if os.environ.get("TRADEWINDS_REDIS_URL") else "inline", data_dir=args.data_dir)
    database_url, redis_url = probe.database_url, probe.redis_url
    probe.close()  # the served processes build their own after the fork
    metrics_dir = serving.prepare_metrics_dir(args.metrics_dir)  # before anything counts (workers.metrics)
    one_process = database_url.strip().lower().startswith("memory:")
    if redis_url:
        bots = "RQ workers (run `tradewinds worker`)"
    else:  # a memory store lives in the serving process, so its jobs do too
        bots = "threads of the serving process" if one_process else "a job runner process"
    size = serving.sizing(
        args.worker_class, args.workers, args.threads, args.connections, shared=bool(redis_url), one_process=one_process
    )
    control = args.control_socket or os.environ.get("TRADEWINDS_CONTROL_SOCKET") or None
    origin = f"http://{serving.address(args.host, args.port)}"
    print(f"Tradewinds serving on {origin}/ (store: {_describe(database_url)}; bot turns: {bots})")
    print(f"API document: {origin}/openapi.json")
    caps = serving.caps_for(size)
    print(f"{size.describe()}; at most {caps.per_address} followers per client address and {caps.per_game} per game")
    print(f"control socket: {control or 'none'}")
    print(f"metrics: /metrics (the processes' files in {metrics_dir})", flush=True)
    serving.run(args.host, args.port, size, database_url, redis_url, args.access_log, control, args.data_dir)
    return 0


def _describe(url: str) -> str:
    from workers.runtime import redact_url

    return redact_url(url)


def cmd_worker(args: argparse.Namespace) -> int:
    from workers import worker

    if not os.environ.get("TRADEWINDS_REDIS_URL"):
        raise ConfigError(
            "tradewinds worker needs TRADEWINDS_REDIS_URL (without it, serve runs bot turns in its job runner)"
        )
    from api import serving

    port = args.metrics_port if args.metrics_port is not None else serving.env_int("TRADEWINDS_WORKER_METRICS_PORT")
    runtime = _runtime(dispatcher="rq")  # refused (Redis, the store) before the metrics folder is touched
    if port is not None:
        serving.prepare_metrics_dir(args.metrics_dir)  # before anything counts: job processes of --fork add up
        worker.serve_metrics(args.metrics_host, port)
    return worker.run(
        runtime, queues=args.queues, burst=args.burst, fork=args.fork, say=lambda text: print(text, flush=True)
    )


def cmd_migrate(args: argparse.Namespace) -> int:
    runtime = _runtime(dispatcher="inline", data_dir=args.data_dir)
    runtime.store.migrate()
    runtime.service.dispatcher = None  # the work is only written: workers (or serve) dispatch it
    backfilled = runtime.service.backfill_outbox()
    print(f"migrated {_describe(runtime.database_url)} ({backfilled} active game(s) given their pending work)")
    return 0


def openapi_document() -> dict:
    from api.app import create_app
    from eventstore.memory import MemoryStore
    from workers.dispatch import InlineDispatcher

    dispatcher = InlineDispatcher(lambda name, args: None)
    runtime = Runtime.signed(lambda signer: MemoryStore(signer=signer), dispatcher)
    app = create_app(runtime)
    return app.extensions["tradewinds_api"].spec.to_dict()


def openapi_yaml() -> str:
    import yaml

    return yaml.safe_dump(openapi_document(), sort_keys=True, allow_unicode=True)


def cmd_openapi(args: argparse.Namespace) -> int:
    text = openapi_yaml()
    target = Path(args.output)
    if args.check:
        if not target.is_file() or target.read_text(encoding="utf-8", errors="replace") != text:
            print(f"{target} is out of date: run `tradewinds openapi`", file=sys.stderr)
            return 1
        print(f"{target} is up to date")
        return 0
    target.write_text(text)
    print(f"wrote {target}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    import json

    from workers.history import verify_export
    from workers.signing import key_file_path, public_key_text

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read {args.file}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{args.file} is not an export: not UTF-8 text") from None
    keys = []
    for given in args.public_key or []:
        try:
            keys.append(public_key_text(given))
        except ValueError as exc:
            raise ConfigError(f"--public-key {given[:20]!r}: {exc}") from None
    if not keys:  # this machine's own server key, when it has one (never created here)
        path = key_file_path(args.data_dir)
        if path.exists():
            keys.extend(_server_key(path).trusted_keys)  # retired keys too: games signed before a rotation
    report = verify_export(text.splitlines(), keys)
    print(json.dumps(report, indent=2, sort_keys=True))
    return 0 if report["ok"] else 1


def _server_key(path: Path) -> ServerKey:
    """The server's key from its file (created now if this is the first start); ``ConfigError`` if it is unusable."""
    try:
        return ServerKey.load_or_create(path)
    except (OSError, KeyFileError) as exc:
        raise ConfigError(f"cannot use the signing key file {path}: {exc}") from None


def cmd_public_key(args: argparse.Namespace) -> int:
    from workers.signing import key_file_path

    path = key_file_path(args.data_dir)
    key = _server_key(path)  # the same file `serve` uses
    print(key.public_pem.strip() if args.pem else key.public_key)
    print(f"key id {key.key_id} ({path})", file=sys.stderr)
    return 0


def cmd_rotate_signing_key(args: argparse.Namespace) -> int:
    from workers.signing import KeyFileError, key_file_path, retired_path, rotate

    path = key_file_path(args.data_dir)
    try:
        old, new = rotate(path)
    except (OSError, KeyFileError) as exc:
        raise ConfigError(f"cannot rotate the signing key {path}: {exc}") from None
    print(f"retired key {old.key_id} (its public key is kept in {retired_path(path)}: heads it signed stay trusted)")
    print(f"now signing with key {new.key_id} ({path}); restart every server and worker to use it")
    return 0


def cmd_apikey(args: argparse.Namespace) -> int:
    from workers import apikeys

    runtime = _runtime(dispatcher="inline", data_dir=args.data_dir)
    if args.action == "create":
        if not args.name:
            raise ConfigError("apikey create needs --name SITE")
        key, token = apikeys.create_key(runtime.store, args.name)
        print(f"API key {key.key_id} for {key.name!r} (shown once; store it now):")
        print(token)
    elif args.action == "list":
        for key in apikeys.list_keys(runtime.store):
            print(f"{key.key_id}  {key.created_at}  {'revoked' if key.revoked else 'active '}  {key.name}")
    else:
        if not args.key_id:
            raise ConfigError("apikey revoke needs --key-id ID (see apikey list)")
        if not apikeys.revoke(runtime.store, args.key_id):
            raise ConfigError(f"no API key with id {args.key_id}")
        print(f"revoked {args.key_id}")
    return 0


def cmd_simulate(argv: list[str]) -> int:
    from workers.simulate import main as simulate

    return simulate(argv)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tradewinds", description="Tradewinds game server")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser(
        "serve", help="serve the REST API (SQLite and a job runner process for bots unless configured)"
    )
    serve.add_argument("--host", default=os.environ.get("TRADEWINDS_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=port, default=os.environ.get("TRADEWINDS_PORT", "8000").strip() or "8000")
    serve.add_argument(
        "--workers",
        type=int,
        default=None,
        help="request processes (TRADEWINDS_WORKERS; default: the machine's cores; 1 for a memory:// store)",
    )
    serve.add_argument(
        "--worker-class",
        choices=["gevent", "gthread"],
        default=None,
        help="TRADEWINDS_WORKER_CLASS; default gevent with Redis (bots run in RQ workers), else gthread",
    )
    serve.add_argument("--threads", type=int, default=None, help="threads per gthread worker (TRADEWINDS_THREADS; 32)")
    serve.add_argument(
        "--connections", type=int, default=None, help="connections per gevent worker (TRADEWINDS_CONNECTIONS; 1000)"
    )
    serve.add_argument(
        "--control-socket", default=None, help="gunicorn control socket path (TRADEWINDS_CONTROL_SOCKET; default: none)"
    )
    serve.add_argument("--data-dir", default=None, help="folder for the SQLite store (default ./tradewinds-data)")
    serve.add_argument(
        "--access-log",
        action="store_true",
        default=os.environ.get("TRADEWINDS_ACCESS_LOG", "") in ("1", "true", "yes"),
        help="log one JSON line per request (TRADEWINDS_ACCESS_LOG=1)",
    )
    serve.add_argument(
        "--metrics-dir",
        default=None,
        help="folder for this instance's metric files, emptied at start (TRADEWINDS_METRICS_DIR; default: a new"
        " temporary folder)",
    )
    serve.set_defaults(func=cmd_serve)

    worker = sub.add_parser("worker", help="run an RQ worker for bot turns and other jobs")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument(
        "--queues",
        choices=["all", "bots", "webhooks"],
        default="all",
        help="bots (bot turns, clocks, tournaments), webhooks (deliveries) or all (default)",
    )
    worker.add_argument("--fork", action="store_true", help="fork a process per job (RQ's default worker)")
    worker.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)  # the default now
    worker.add_argument(
        "--metrics-port",
        type=port,
        default=None,
        help="serve this worker's Prometheus metrics on this port (TRADEWINDS_WORKER_METRICS_PORT; default: none)",
    )
    worker.add_argument("--metrics-host", default="127.0.0.1", help="address for --metrics-port (127.0.0.1)")
    worker.add_argument("--metrics-dir", default=None, help="folder for the metric files (TRADEWINDS_METRICS_DIR)")
    worker.set_defaults(func=cmd_worker)

    migrate = sub.add_parser("migrate", help="create or upgrade the event store's tables")
    migrate.add_argument("--data-dir", default=None)
    migrate.set_defaults(func=cmd_migrate)

    openapi = sub.add_parser("openapi", help="write the OpenAPI document generated from the code")
    openapi.add_argument("--output", default="openapi.yaml")
    openapi.add_argument("--check", action="store_true", help="fail if the file differs from the code")
    openapi.set_defaults(func=cmd_openapi)

    verify = sub.add_parser(
        "verify", help="verify an exported game: hash chain, the server's signature, set-up and result by re-folding"
    )
    verify.add_argument("file")
    verify.add_argument(
        "--public-key",
        action="append",
        help="a trusted server key (base64 or PEM, from GET /signing-key or `tradewinds public-key`); repeatable;"
        " default: this machine's key file, if any",
    )
    verify.add_argument("--data-dir", default=None)
    verify.set_defaults(func=cmd_verify)

    public_key = sub.add_parser("public-key", help="print the public key this server signs game chains with")
    public_key.add_argument("--data-dir", default=None)
    public_key.add_argument("--pem", action="store_true", help="print it as PEM instead of base64")
    public_key.set_defaults(func=cmd_public_key)

    rotate = sub.add_parser(
        "rotate-signing-key", help="replace the signing key; the old public key stays trusted for what it signed"
    )
    rotate.add_argument("--data-dir", default=None)
    rotate.set_defaults(func=cmd_rotate_signing_key)

    apikey = sub.add_parser("apikey", help="create, list or revoke integrator API keys")
    apikey.add_argument("action", choices=["create", "list", "revoke"])
    apikey.add_argument("--name", help="the integrator's name (create)")
    apikey.add_argument("--key-id", help="the key's id (revoke)")
    apikey.add_argument("--data-dir", default=None)
    apikey.set_defaults(func=cmd_apikey)

    sub.add_parser("simulate", help="play bot-vs-bot games and report win rates (see simulate --help)", add_help=False)
    return parser


# Settings read as numbers (README's table): one that is not a number, or is negative, is a one-line error when any
# command starts, not a traceback in a request process that then fails to boot.
NUMBER_SETTINGS = (
    "TRADEWINDS_RATE_LIMIT",
    "TRADEWINDS_RATE_LIMIT_ANONYMOUS",
    "TRADEWINDS_RATE_LIMIT_SEAT",
    "TRADEWINDS_BOT_GAMES_PER_ADDRESS",
    "TRADEWINDS_BOT_GAMES_PER_KEY",
    "TRADEWINDS_BOT_GAMES_TOTAL",
    "TRADEWINDS_BOT_IDLE_SECONDS",
    "TRADEWINDS_GAME_EXPIRY_SECONDS",
    "TRADEWINDS_FOLLOWERS_PER_ADDRESS",
    "TRADEWINDS_FOLLOWERS_PER_GAME",
    "TRADEWINDS_FOLLOWERS_PER_PROCESS",
    "TRADEWINDS_STREAM_MAX_SECONDS",
    "TRADEWINDS_CONNECTIONS",
)
PORT_SETTINGS = ("TRADEWINDS_PORT", "TRADEWINDS_WORKER_METRICS_PORT")


def check_settings(environ: Mapping[str, str]) -> None:
    """Raise ``ConfigError`` for a numeric setting that is not a number of its kind."""
    for name in NUMBER_SETTINGS + PORT_SETTINGS:
        value = environ.get(name, "").strip()
        if not value:
            continue
        try:
            number = float(value) if name in NUMBER_SETTINGS else port(value)
        except (ValueError, argparse.ArgumentTypeError):
            kind = "a TCP port (1 to 65535)" if name in PORT_SETTINGS else "a number"
            raise ConfigError(f"{name} must be {kind}, not {value!r}") from None
        if not math.isfinite(number) or number < 0:
            raise ConfigError(f"{name} must be a number from 0 up, not {value!r}")


def port(text: str) -> int:
    """A TCP port number (argparse type)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 1 to 65535, not {number}")
    return number


def main(argv: list[str] | None = None) -> int:
    """Run a command; what goes wrong outside the command's own checks (a file it cannot read or write, a value
    it cannot take) is one line on stderr and exit status 2, never a traceback."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        check_settings(os.environ)
        from workers import logs

        if argv and argv[0] in ("serve", "worker"):
            logs.configure()  # JSON lines, request ids, no secrets (workers.logs)
        else:
            logging.basicConfig(level=logs.log_level())
        if argv and argv[0] == "simulate":
            return cmd_simulate(argv[1:])
        args = build_parser().parse_args(argv)
        return args.func(args)
    except ConfigError as exc:
        print(f"tradewinds: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``tradewinds apikey list | head -1``): nothing more to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (OSError, ValueError, KeyFileError) as exc:  # a UnicodeError is a ValueError
        where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"tradewinds: {detail}{where}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
