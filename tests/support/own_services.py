"""A Redis server and a PostgreSQL cluster of a test's own, on free ports, that the test may stop and start.

Fault tests never touch the shared services: they start these (``redis-server``; ``initdb`` + ``pg_ctl``
from the PostgreSQL installation) and remove them afterwards.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.support.services import require_service


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, up: bool, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            if up:
                return
        except OSError:
            if not up:
                return
        time.sleep(0.05)
    raise TimeoutError(f"port {port} did not go {'up' if up else 'down'} within {timeout} s")


class OwnRedis:
    """``redis-server`` on a free port, without persistence: a restart loses every queued job (the worst case)."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            require_service("redis-server", "the binary is not installed")
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_port(self.port, up=True)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # as abrupt as a crash
            self.process.wait(timeout=10)
        wait_port(self.port, up=False)


class OwnPostgres:
    """A throw-away PostgreSQL cluster (initdb into a temporary folder, pg_ctl on a free port)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        binary = shutil.which("initdb") or (found[-1] if found else None)
        if binary is None or os.geteuid() == 0 and not _has_postgres_user():
            require_service("PostgreSQL binaries", "initdb is not installed")
        self.bin = Path(binary).parent
        self.folder = Path(tempfile.mkdtemp(prefix="tradewinds-pg-"))  # readable by the postgres user
        self.data = self.folder / "pgdata"
        self.port = free_port()
        self._as_root = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(a) for a in args]
        if self._as_root:  # PostgreSQL refuses to run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def init(self) -> OwnPostgres:
        if self._as_root:
            shutil.chown(self.folder, "postgres")
        self._run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        return self

    def start(self) -> OwnPostgres:
        self._run(
            self.bin / "pg_ctl",
            "-D",
            self.data,
            "-w",
            "-l",
            self.folder / "log",
            "-o",
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run(self.bin / "pg_ctl", "-D", self.data, "-w", "-m", mode, "stop")

    def restart(self) -> None:
        self.stop("immediate")
        self.start()

    def remove(self) -> None:
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass  # not running
        shutil.rmtree(self.folder, ignore_errors=True)


def _has_postgres_user() -> bool:
    import pwd

    try:
        pwd.getpwnam("postgres")
        return True
    except KeyError:
        return False
