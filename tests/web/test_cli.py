"""`hostcompat serve` as a command: it prints its address with the token, answers on loopback, and stops."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request


def test_serve_prints_the_page_address_with_a_token_and_answers() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "hostcompat", "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]{20,})", line)
        assert found, line
        with urllib.request.urlopen(f"http://127.0.0.1:{found[1]}/api/hosts", timeout=20) as response:
            assert json.load(response)["hosts"]
        with urllib.request.urlopen(f"http://127.0.0.1:{found[1]}/", timeout=20) as response:
            assert "script-src 'self'" in response.headers["content-security-policy"]
    finally:
        process.terminate()
        process.communicate(timeout=20)
