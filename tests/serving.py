"""Waiting for a started app server: one loop for the tests that start one (the namespaced one imports it too); and
the Document page's upload, as the browser tests each do it."""

from __future__ import annotations

import subprocess
import time
import urllib.request
from pathlib import Path


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


def upload_document(page, path: Path, timeout: float = 60000) -> None:
    """Upload ``path`` with the Document page's file box (the page open) and wait until the page says what it read."""
    from playwright.sync_api import expect

    page.locator("input[type=file]").first.set_input_files(str(path))
    expect(page.get_by_text(f"What was read from {path.name}")).to_be_visible(timeout=timeout)


def open_and_upload(page, url: str, path: Path) -> None:
    """Open the Document page by its address, wait for it, and upload ``path`` there (``upload_document``)."""
    from playwright.sync_api import expect

    page.goto(f"{url}/document")
    expect(page.get_by_text("Your document", exact=True)).to_be_visible(timeout=60000)
    upload_document(page, path)
