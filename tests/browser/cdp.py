"""A small Chrome DevTools Protocol client for the browser tests, standard library only.

Chromium is started with `--remote-debugging-pipe`: it reads CDP commands from its file descriptor 3 and writes
replies and events to its file descriptor 4, each message a JSON text ended by a NUL byte. The process is
spawned with `os.posix_spawn`, whose file actions put our two pipe ends on the child's descriptors 3 and 4
(`subprocess` can only pass descriptors under the numbers they already have). Every wait has a deadline: a
reply, an event, or a condition the page evaluates itself (`Page.wait_for`); nothing sleeps for a fixed time.

    with Browser(shutil.which("chromium")) as browser:
        page = browser.new_page(1400, 1000)
        page.navigate("file:///tmp/game.html")
        page.press("ArrowRight")
        page.wait_for("document.body.dataset.position === '1'")
        png = page.screenshot()
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import tempfile
import time
from typing import Any

# Key names -> (code, Windows virtual key code) for Input.dispatchKeyEvent.
KEYS = {
    "ArrowLeft": ("ArrowLeft", 37),
    "ArrowUp": ("ArrowUp", 38),
    "ArrowRight": ("ArrowRight", 39),
    "ArrowDown": ("ArrowDown", 40),
    "Home": ("Home", 36),
    "End": ("End", 35),
    "Enter": ("Enter", 13),
    "Escape": ("Escape", 27),
    "Tab": ("Tab", 9),
}
# The text a key types: sent with its key-down, as a keyboard does (Enter activates a focused button through it).
KEY_TEXT = {"Enter": "\r"}


class CDPError(RuntimeError):
    """An error reply to a command, or Chromium gone."""


def _high_fd(fd: int) -> int:
    """The same pipe end moved to a descriptor >= 10 (close-on-exec), so that the child's dup2 onto 3 and 4
    can neither be a no-op nor overwrite another source."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Browser:
    """A headless Chromium driven over the DevTools pipe; use as a context manager (closes and reaps it)."""

    def __init__(self, executable: str, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="brass-chromium-")
        self.log_path = os.path.join(self.profile, "chromium.log")
        self.events: list[dict] = []
        self._buffer = b""
        self._next_id = 0
        commands_read, commands_write = (_high_fd(fd) for fd in os.pipe())
        replies_read, replies_write = (_high_fd(fd) for fd in os.pipe())
        log = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        log = _high_fd(log)
        args = [
            executable,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--mute-audio",
            "about:blank",
        ]
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, log, 1),
            (os.POSIX_SPAWN_DUP2, log, 2),
            (os.POSIX_SPAWN_DUP2, commands_read, 3),
            (os.POSIX_SPAWN_DUP2, replies_write, 4),
        ]
        try:
            # Its own process group, so that closing can reach the helper processes it starts.
            self.pid = os.posix_spawn(executable, args, os.environ, file_actions=actions, setpgroup=0)
        finally:
            for fd in (commands_read, replies_write, log):
                os.close(fd)
        self._write_fd, self._read_fd = commands_write, replies_read
        self._closed = False

    # --- messages ---------------------------------------------------------------------------------------------

    def log(self) -> str:
        """The tail of Chromium's output, for failure messages."""
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def _message(self, deadline: float) -> dict:
        """The next message from Chromium, waiting until `deadline` (time.monotonic)."""
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from Chromium before the deadline")
            ready, _, _ = select.select([self._read_fd], [], [], left)
            if ready:
                chunk = os.read(self._read_fd, 1 << 20)
                if not chunk:
                    raise CDPError(f"Chromium closed the DevTools pipe (exited?); its output:\n{self.log()}")
                self._buffer += chunk
        text, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(text)

    def send(
        self, method: str, params: dict | None = None, session: str | None = None, timeout: float | None = None
    ) -> dict:
        """Send a command and return its result; events read meanwhile are kept in `events`."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._write_fd, data) :]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error'].get('message')} {reply['error'].get('data', '')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method: str, session: str | None = None, timeout: float | None = None) -> dict:
        """The first event `method` (of `session`) not yet consumed, waiting for it if needed."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, event in enumerate(self.events):
                if event["method"] == method and (session is None or event.get("sessionId") == session):
                    return self.events.pop(i)
            message = self._message(deadline)
            if "method" in message:
                self.events.append(message)

    def new_page(self, width: int, height: int) -> Page:
        """A new tab of `width` x `height` CSS pixels, attached in flat mode (commands carry its session id)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})
        attached = self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
        return Page(self, attached["sessionId"], width, height)

    # --- closing ----------------------------------------------------------------------------------------------

    def _exited(self, timeout: float) -> bool:
        """Whether the browser process exits within `timeout` seconds (waited for on a pidfd); reaps it."""
        pidfd = os.pidfd_open(self.pid)
        try:
            ready, _, _ = select.select([pidfd], [], [], timeout)
        finally:
            os.close(pidfd)
        if ready:
            os.waitpid(self.pid, 0)
        return bool(ready)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(CDPError, TimeoutError, OSError):
            self.send("Browser.close", timeout=5)
        if not self._exited(10):
            os.killpg(self.pid, signal.SIGKILL)  # our own child's process group
            os.waitpid(self.pid, 0)
        for fd in (self._write_fd, self._read_fd):
            os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Page:
    """One tab: navigation, script evaluation, key presses, mouse clicks and screenshots."""

    def __init__(self, browser: Browser, session: str, width: int, height: int) -> None:
        self.browser, self.session = browser, session
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send("Network.enable")
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.send("Emulation.setFocusEmulationEnabled", enabled=True)

    def send(self, method: str, timeout: float | None = None, **params: Any) -> dict:
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def events(self, method: str) -> list[dict]:
        """The events `method` of this tab received so far (not consumed)."""
        return [e for e in self.browser.events if e["method"] == method and e.get("sessionId") == self.session]

    def navigate(self, url: str) -> None:
        """Open `url` and wait for its load event."""
        result = self.send("Page.navigate", url=url)
        if result.get("errorText"):
            raise CDPError(f"navigating to {url}: {result['errorText']}")
        self.browser.wait_event("Page.loadEventFired", self.session)

    def evaluate(self, expression: str, timeout: float | None = None) -> Any:
        """The value of a JavaScript expression (promises awaited); a script exception raises CDPError."""
        result = self.send(
            "Runtime.evaluate", timeout=timeout, expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CDPError(f"script error: {text}")
        return result["result"].get("value")

    def wait_for(self, condition: str, timeout: float = 10.0) -> Any:
        """Wait until the JavaScript expression `condition` is truthy and return its value. The page checks it
        at every animation frame; after `timeout` seconds it gives up and this raises TimeoutError."""
        script = f"""new Promise(function (resolve) {{
            var end = performance.now() + {timeout * 1000};
            (function check() {{
                var value;
                try {{ value = ({condition}); }} catch (e) {{ value = undefined; }}
                if (value) {{ resolve({{done: true, value: value}}); }}
                else if (performance.now() > end) {{ resolve({{done: false, value: value === undefined ? null : value}}); }}
                else {{ requestAnimationFrame(check); }}
            }})();
        }})"""
        outcome = self.evaluate(script, timeout=timeout + 10)
        if not outcome["done"]:
            raise TimeoutError(f"{condition!r} still false after {timeout} s (last value {outcome['value']!r})")
        return outcome["value"]

    def press(self, key: str) -> None:
        """Press and release a key (a name of KEYS) as the keyboard would."""
        code, vk = KEYS[key]
        text = KEY_TEXT.get(key)
        for kind in ("keyDown" if text else "rawKeyDown", "keyUp"):
            extra = {"text": text} if text and kind == "keyDown" else {}
            self.send(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=code,
                windowsVirtualKeyCode=vk,
                nativeVirtualKeyCode=vk,
                **extra,
            )

    def click(self, selector: str, index: int = 0) -> None:
        """A real mouse click on the `index`-th element matching a CSS selector (scrolled into view): at its
        centre, or, for a line of the board's picture (an SVG group of `line`s), at a point of the line that the
        element itself receives (the centre of a slanting line's box is often off it)."""
        point = self.evaluate(f"""(function () {{
            var el = document.querySelectorAll({json.dumps(selector)})[{index}];
            if (!el) {{ return null; }}
            el.scrollIntoView({{block: "center"}});
            var line = el.querySelector && el.querySelector("line");
            if (!line) {{
                var r = el.getBoundingClientRect();
                return {{x: r.left + r.width / 2, y: r.top + r.height / 2}};
            }}
            var m = line.getScreenCTM();
            var x1 = line.x1.baseVal.value, y1 = line.y1.baseVal.value;
            var x2 = line.x2.baseVal.value, y2 = line.y2.baseVal.value;
            var tries = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8];
            for (var i = 0; i < tries.length; i++) {{
                var p = new DOMPoint(x1 + (x2 - x1) * tries[i], y1 + (y2 - y1) * tries[i]).matrixTransform(m);
                var hit = document.elementFromPoint(p.x, p.y);
                if (hit && (hit === el || el.contains(hit))) {{ return {{x: p.x, y: p.y}}; }}
            }}
            return {{missed: true}};
        }})()""")
        if point is None:
            raise CDPError(f"no element matches {selector} (index {index})")
        if point.get("missed"):
            raise CDPError(f"{selector} (index {index}) has no point a click reaches")
        self.click_at(point["x"], point["y"])

    def click_at(self, x: float, y: float) -> None:
        """A real mouse click at a point of the viewport (CSS pixels)."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                type=kind,
                x=x,
                y=y,
                button="left",
                clickCount=0 if kind == "mouseMoved" else 1,
            )

    def screenshot(self) -> bytes:
        """A PNG of the viewport."""
        return base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"])
