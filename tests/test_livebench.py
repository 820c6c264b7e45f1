"""python manage.py livebench at its smallest: it really starts the server, taps, and prints a
figures row and the ping baseline."""

import re
import subprocess
import sys

from django.conf import settings

ROW = re.compile(r"^\s*1\s+6\s+10\s+(\d+)\s+(\d+\.\d+)\s+(\d+)\s", re.MULTILINE)


def test_livebench_prints_figures_for_one_table():
    done = subprocess.run(
        [sys.executable, "manage.py", "livebench", "--tables", "1", "--taps", "10",
         "--rate", "10", "--idle", "0.5"],
        cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=90, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "cpu_ms/tap" in done.stdout
    row = ROW.search(done.stdout)
    assert row, done.stdout  # 1 table, 6 screens (device, 3 phones, TV, host), 10 taps
    failed, cpu_ms, pushed = int(row[1]), float(row[2]), int(row[3])
    assert failed == 0, done.stdout
    assert cpu_ms > 0 and pushed > 0, done.stdout
    assert re.search(r"baseline @1 tables: 10 websocket pings .* (\d+\.\d+) cpu ms/ping",
                     done.stdout), done.stdout
