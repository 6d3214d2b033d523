"""Waiting for a started app server: one loop for the tests that start one (the namespaced one imports it too)."""

from __future__ import annotations

import subprocess
import time
import urllib.request


def wait_until_healthy(url: str, process: subprocess.Popen, seconds: float = 60) -> None:
    """Return once ``url``'s health check answers 200; raise RuntimeError when the server exits or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the app did not start") from None
            time.sleep(0.3)
