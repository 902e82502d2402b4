"""Run the real command line (``python -m alphasearch``) in a subprocess."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def cli_env(data_dir: Path, env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a CLI subprocess: no key or endpoint of the developer's, our data dir."""
    full_env = {k: v for k, v in os.environ.items()
                if not k.startswith("ALPHASEARCH_") and k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    full_env["ALPHASEARCH_DATA_DIR"] = str(data_dir)
    full_env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    return full_env


def run_cli(*args: str, data_dir: Path, timeout: float = 120, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m alphasearch ARGS`` with ``ALPHASEARCH_DATA_DIR=data_dir``; no stdin, text output."""
    return subprocess.run([sys.executable, "-m", "alphasearch", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout, env=cli_env(data_dir, env),
                          cwd=cwd or REPO_ROOT)


@dataclass
class Measured:
    """A finished CLI run with its wall time (s) and peak resident memory (MB)."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float


def run_cli_measured(*args: str, data_dir: Path, timeout: float = 120,
                     env: dict[str, str] | None = None) -> Measured:
    """Like :func:`run_cli`, also measuring the child's own peak RSS (``wait4``); killed at ``timeout``."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "alphasearch", *args], stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, env=cli_env(data_dir, env), cwd=REPO_ROOT)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        return Measured(tuple(args), proc.returncode, out.read().decode("utf-8", "replace"),
                        err.read().decode("utf-8", "replace"), seconds, usage.ru_maxrss / 1024)


def assert_clean_failure(proc: subprocess.CompletedProcess | Measured, *must_contain: str) -> str:
    """Non-zero exit, nothing on stdout, exactly one ``error: …`` line on stderr, no traceback."""
    assert proc.returncode not in (0, None), (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: "), lines[0]
    for part in must_contain:
        assert part in lines[0], (part, lines[0])
    return lines[0]
