"""The pages' scripts below the browser: the phones' tap outbox (static/bunco/outbox.js) and its
state machine run under Node's own test runner (tests/js/, no npm packages), and no script
grows past what a reader can hold."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "static" / "bunco"
MAX_LINES = 450


def test_outbox_state_machine_under_node():
    node = shutil.which("node")
    if node is None:
        pytest.fail("The outbox's tests (tests/js/) need Node 18 or later: "
                    "sudo apt-get install -y nodejs")
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.js"))
    assert files, "no tests in tests/js/"
    result = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    output = f"{result.stdout}\n{result.stderr}"
    assert result.returncode == 0, f"node --test tests/js/ failed:\n{output}"
    assert "# pass 0\n" not in result.stdout, f"node ran no tests in tests/js/:\n{output}"


def test_no_script_over_450_lines():
    sizes = {path.name: len(path.read_text().splitlines()) for path in SCRIPTS.glob("*.js")}
    assert "outbox.js" in sizes
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
