#!/usr/bin/env python3
"""Drives headless Chromium over the DevTools protocol (standard library only): loads
each game's page from a running jiang-web, saves a screenshot of its start position,
then plays a whole game by clicking on the board (the user's seat moves at random, jiang
answers) and saves the final position; then a game record opened, stepped through,
reviewed with the server's search and copied (static_browser.check_records). Usage: browser.py DEVTOOLS_PORT SERVER_URL OUTDIR
"""
import base64, json, os, random, socket, struct, sys, time, urllib.request

GAMES = ["xiangqi", "microchess", "fairychess", "baroque", "threechess", "jieqi"]


class DevTools:
    """A minimal WebSocket client speaking the DevTools protocol to one page."""

    def __init__(self, ws_url):
        rest = ws_url.split("://", 1)[1]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("no websocket: " + head.decode(errors="replace"))
        self.next_id = 0

    def _recv_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise RuntimeError("devtools closed")
            data += chunk
        return data

    def _recv_message(self):
        message = b""
        while True:
            b1, b2 = self._recv_exact(2)
            n = b2 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            payload = self._recv_exact(n)
            if b1 & 0x0F == 8:
                raise RuntimeError("devtools closed")
            message += payload
            if b1 & 0x80:
                return json.loads(message.decode())

    def call(self, method, **params):
        self.next_id += 1
        data = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        header = bytes([0x81])
        n = len(data)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        while True:
            msg = self._recv_message()
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def js(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expression, timeout=30.0):
        end = time.time() + timeout
        while time.time() < end:
            if self.js(expression):
                return True
            time.sleep(0.1)
        raise RuntimeError(f"timed out waiting for {expression}")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def click(self, selector):
        box = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                      " if (!e) return null; const r = e.getBoundingClientRect();"
                      " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        if not box:
            raise RuntimeError(f"nothing to click at {selector}")
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)


def play_by_clicking(page, game, rng, max_plies=600):
    """The user's seat (the first player) moves at random by clicking; jiang answers."""
    for _ in range(max_plies):
        page.wait_for("window.jiangApp.st && (window.jiangApp.st.over ||"
                      " (!window.jiangApp.st.searching && window.jiangApp.st.to_move === 0))", 120)
        st = page.js("window.jiangApp.st")
        if st["over"]:
            return st
        move = rng.choice(st["legal"])
        frm, to = page.js(f"window.Boards.splitMove({json.dumps(game)}, {json.dumps(move)}).slice(0, 2)")
        before = len(st["moves"])
        page.click(f'.spot[data-sq="{frm}"]')
        page.wait_for(f'window.jiangApp.picked === {json.dumps(frm)}', 10)
        page.click(f'.spot[data-sq="{to}"]')
        if page.js("document.getElementById('promo').style.display === 'block'"):
            page.click(f'#promo button[data-mv="{move}"]')
        page.wait_for(f"window.jiangApp.st.moves.length > {before}", 30)
    raise RuntimeError(f"{game}: no end after {max_plies} plies")


def analysis_mode(page, url):
    """Analysis: several lines with arrows; a move clicked while analysing is played and
    the analysis goes on from the new position."""
    page.call("Page.navigate", url=f"{url}/?game=xiangqi&mode=analysis")
    page.wait_for("window.jiangApp && window.jiangApp.lines.filter(Boolean).length >= 3"
                  " && document.querySelectorAll('#board .arrow').length >= 3", 30)
    page.click('.spot[data-sq="h2"]')
    page.wait_for("window.jiangApp.picked === 'h2'", 10)
    page.click('.spot[data-sq="e2"]')
    page.wait_for("window.jiangApp.st.moves.length === 1 && window.jiangApp.st.searching"
                  " && window.jiangApp.lines.filter(Boolean).length >= 3", 30)
    assert page.js("window.jiangApp.st.last_move") == "h2e2"
    assert page.js("document.getElementById('error').textContent") == ""


def tablebase_line(page, url, out):
    """A KRK position set by FEN on a server started with --egtb: the line under the result
    names the table and the mate the table holds, in English and Chinese; the start
    position shows none."""
    for lang, expect in (("en", "Tablebase KRK: Red to move wins, mate in"), ("zh", "残局库 KRK：红方先行胜")):
        page.call("Page.navigate", url=f"{url}/?game=xiangqi&mode=analysis&lang={lang}")
        page.wait_for("window.jiangApp && window.jiangApp.st && document.querySelector('#board .piece') !== null", 30)
        assert page.js("document.getElementById('tablebase').textContent") == ""
        # Set and pressed at once: the analysis redraws the box with every report.
        page.js("document.getElementById('fen').value = '4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1';"
                " document.getElementById('setfen').click()")
        page.wait_for("document.getElementById('tablebase').textContent.length > 0", 15)
        text = page.js("document.getElementById('tablebase').textContent")
        assert text.startswith(expect), f"the tablebase line says {text!r}"
        page.screenshot(f"{out}/tablebase-{lang}.png")
        print(f"tablebase ({lang}): {text}")


def main():
    port, url, out = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
    os.makedirs(out, exist_ok=True)
    targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    page_target = next(t for t in targets if t.get("type") == "page")
    page = DevTools(page_target["webSocketDebuggerUrl"])
    page.call("Page.enable")
    page.call("Emulation.setDeviceMetricsOverride", width=1280, height=860, deviceScaleFactor=1, mobile=False)
    failures = 0
    rng = random.Random(2026)
    for game in GAMES:
        try:
            page.call("Page.navigate", url=f"{url}/?game={game}&mode=play&seat=0&movetime=100")
            page.wait_for("window.jiangApp && window.jiangApp.st && document.querySelector('#board .piece') !== null", 30)
            shown = page.js("window.jiangApp.st.game")
            assert shown == game, f"the page shows {shown}"
            page.screenshot(f"{out}/{game}-start.png")
            st = play_by_clicking(page, game, rng)
            time.sleep(0.3)
            status = page.js("document.getElementById('status').textContent")
            result = page.js("document.getElementById('result').textContent")
            expected = st["result"]["result"] if st["result"] else "no legal move"
            assert status == "Game over", f"status says {status!r}"
            assert expected in result, f"result shows {result!r}, the game says {expected!r}"
            page.screenshot(f"{out}/{game}-end.png")
            print(f"{game}: {len(st['moves'])} plies, {result}")
        except Exception as e:  # keep going: every game gets its screenshots
            failures += 1
            print(f"{game}: FAILED: {e}")
            try:
                page.screenshot(f"{out}/{game}-failed.png")
            except Exception:
                pass
    try:
        analysis_mode(page, url)
        print("analysis: lines, arrows and a move played while analysing")
    except Exception as e:
        failures += 1
        print(f"analysis: FAILED: {e}")
        page.screenshot(f"{out}/analysis-failed.png")
    try:
        tablebase_line(page, url, out)
    except Exception as e:
        failures += 1
        print(f"tablebase: FAILED: {e}")
        page.screenshot(f"{out}/tablebase-failed.png")
    # Game records through the server (POST api/record, the server's searches for the
    # review): the static bundle test's check, on this page.
    try:
        import types
        from static_browser import Page, check_records
        page.problems = []
        page.open = types.MethodType(Page.open, page)
        for lang in ("zh", "en"):
            check_records(page, url, out, lang)
    except Exception as e:
        failures += 1
        print(f"records: FAILED: {e}")
        page.screenshot(f"{out}/records-failed.png")
    print(f"{len(GAMES) + 3 - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
