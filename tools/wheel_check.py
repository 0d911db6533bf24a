"""Run by `nox -s wheel` inside a fresh virtual environment where only the built wheel is installed and no
Rust toolchain is on PATH: the README's first Python example runs and prints what its comments say, the
command line plays games, and the package is the installed wheel (not the source tree).

    python tools/wheel_check.py README.md
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile


def main(readme_path: str) -> int:
    for tool in ("cargo", "rustc"):
        if shutil.which(tool):
            print(f"wheel check: {tool} is on PATH ({shutil.which(tool)}): the check must run without Rust")
            return 1
    import brass

    installed = pathlib.Path(brass.__file__).resolve()
    if "site-packages" not in installed.parts:
        print(f"wheel check: brass was imported from {installed}, not from the installed wheel")
        return 1
    run_readme_example(readme_path)
    from brass import agents

    shipped = agents.Net.pretrained("birmingham-2p")  # the trained network is inside the wheel
    print(f"wheel check: the shipped network plays {shipped.game.name}, hidden layers {shipped.widths}")
    import importlib.resources

    page = importlib.resources.files("brass.serve").joinpath("serve.html")
    if not page.is_file() or "__DEFAULTS__" not in page.read_text(encoding="utf-8"):
        print("wheel check: the page of brass serve (brass/serve/serve.html) is not in the wheel")
        return 1
    done = subprocess.run(
        [sys.executable, "-m", "brass", "selfplay", "--players", "2", "--agents", "greedy", "random", "--games", "4"],
        capture_output=True,
        text=True,
        check=False,
    )
    print(done.stdout.strip())
    if done.returncode != 0 or "4 games of lancashire" not in done.stdout:
        print(f"wheel check: brass selfplay failed ({done.returncode}): {done.stderr.strip()}")
        return 1
    print(f"wheel check: brass {brass.__version__} from {installed.parent} plays without Rust")
    return 0


def run_readme_example(readme_path: str) -> None:
    """The README's first Python example, run in a temporary folder: it saves a picture, which must not be left
    in the folder the check was started from (the repository's root under `nox -s wheel`)."""
    readme = pathlib.Path(readme_path).read_text(encoding="utf-8")
    example = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)[0]
    started = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            exec(compile(example, "README.md (first Python example)", "exec"), {"__name__": "__readme__"})  # noqa: S102
        finally:
            os.chdir(started)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
