#!/usr/bin/env python3
"""The static bundle in headless Chromium, served by `python3 -m http.server` and nothing
else (no jiang-web process): the engine runs in the page as WebAssembly. Standard-library
Python over the DevTools protocol (the client of browser.py).

Checks, each printed with its figures:
  * a game of each of the six games played by clicking to its end (the user's seat
    moves at random, jiang answers in 100 ms);
  * an analysis of the Xiangqi start position showing three lines and their arrows;
  * `stop` during a 60 s analysis and during a 10 s move: the time from the click to the
    board's end of search (bar: 100 ms), the board unchanged (analysis) or a legal move
    played (game); and right after `go` (before any report): a legal move;
  * nodes per second of the library's bench positions in the browser against the native
    `jiang bench` at the same depth, single thread, interleaved on this machine (bar: 50 %),
    and the same node count (the bench signature);
  * memory: the search worker's WebAssembly memory after a search, against its hash;
  * a second visit starts without fetching the network (the server's log and the page);
  * the Chinese page, chosen from the browser's language, and the switch back;
  * game records: a PGN file (Chinese moves, a variation, comments) opened through the
    page's file input, the move list in Chinese notation, a variation entered by a click
    and left with the arrow keys, a damaged XQF file refused with the place named (the
    board unchanged); a review of the main line at 200 ms a position (progress, the
    score graph, the marks and each side's summary), the graph clicked and the board
    following; the game copied as PGN in Chinese notation and read back; the copied
    DhtmlXQ dropped on the page, a PGN of two games dropped and the second chosen; then
    the same on the English page with WXF moves, and a game set on the board reviewed. Screenshots records-zh.png, records-en.png.
Screenshots under OUTDIR: GAME-start.png, GAME-end.png, analysis.png, zh.png,
records-zh.png, records-en.png. STATIC_BROWSER_ONLY=records,chinese,... runs only the
named steps (first-visit is always run).

Usage: static_browser.py DEVTOOLS_PORT URL OUTDIR HTTP_LOG JIANG_BINARY [BENCH_DEPTH]
"""
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import DevTools, GAMES, play_by_clicking  # noqa: E402

STOP_BAR_MS = 100.0
NPS_BAR = 0.50


class Page(DevTools):
    """DevTools with the page's console errors and exceptions collected."""

    def __init__(self, ws_url):
        super().__init__(ws_url)
        self.problems = []

    def _recv_message(self):
        msg = super()._recv_message()
        method = msg.get("method")
        if method == "Runtime.exceptionThrown":
            d = msg["params"]["exceptionDetails"]
            self.problems.append("exception: " + str(d.get("exception", {}).get("description") or d.get("text")))
        elif method == "Runtime.consoleAPICalled" and msg["params"].get("type") == "error":
            self.problems.append("console.error: " + " ".join(str(a.get("value", a.get("description"))) for a in msg["params"]["args"]))
        return msg

    def open(self, url, ready="window.jiangApp && window.jiangApp.st && document.querySelector('#board .piece') !== null", timeout=60):
        self.js("window.__stale = true")  # the old page's state must not answer
        self.call("Page.navigate", url=url)
        self.wait_for(f"!window.__stale && ({ready})", timeout)


def nnue_fetches(log_path):
    with open(log_path, errors="replace") as f:
        return sum(1 for line in f if re.search(r'"GET /[^ "]*\.nnue', line))


def native_bench(binary, depth):
    out = subprocess.run([binary, "bench", str(depth)], capture_output=True, text=True, timeout=900)
    m = re.search(r"Bench: (\d+) nodes (\d+) nps", out.stdout + out.stderr)
    if not m:
        raise RuntimeError("no bench line from the native engine: " + (out.stdout + out.stderr)[-300:])
    return int(m.group(1)), int(m.group(2))


def check_games(page, url, out, rng):
    failures = 0
    for game in GAMES:
        try:
            page.open(f"{url}/?game={game}&mode=play&seat=0&movetime=100&lang=en")
            assert page.js("window.jiangApp.backend.kind") == "local", "not the in-browser engine"
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
            print(f"{game}: {len(st['moves'])} plies by clicking, {result}")
        except Exception as e:  # every game gets its screenshots
            failures += 1
            print(f"{game}: FAILED: {e}")
            try:
                page.screenshot(f"{out}/{game}-failed.png")
            except Exception:
                pass
    return failures


def click_stop_and_time(page):
    """Clicks Stop; returns the page's measured ms from the click to the search's end."""
    page.click("#stop")
    page.wait_for("window.jiangApp.stopTimes && window.jiangApp.stopTimes.done !== null", 10)
    page.wait_for("window.jiangApp.st && !window.jiangApp.st.searching", 10)
    t = page.js("window.jiangApp.stopTimes")
    return t["done"] - t["asked"]


def check_analysis_and_stop(page, url, out):
    page.open(f"{url}/?game=xiangqi&mode=analysis&lang=en")
    page.wait_for("window.jiangApp.lines.filter(Boolean).length >= 3"
                  " && document.querySelectorAll('#board .arrow').length >= 3", 60)
    page.wait_for("window.jiangApp.lines[0] && window.jiangApp.lines[0].depth >= 8", 60)
    time.sleep(1.0)
    lines = page.js("window.jiangApp.lines.filter(Boolean).map(l => [l.depth, l.pv[0], l.score])")
    page.screenshot(f"{out}/analysis.png")
    arrows = page.js("document.querySelectorAll('#board .arrow').length")
    print(f"analysis: {len(lines)} lines {lines}, {arrows} arrows")
    latencies = []
    for i in range(5):
        before = page.js("window.jiangApp.st.fen")
        ms = click_stop_and_time(page)
        latencies.append(ms)
        assert page.js("window.jiangApp.st.fen") == before, "analysis stop changed the board"
        assert page.js("window.jiangApp.st.moves.length") == 0
        assert page.js("document.getElementById('error').textContent") == "", page.js("document.getElementById('error').textContent")
        # "Go on": the analysis starts again; let it run a while before the next stop.
        page.click("#stop")
        page.wait_for("window.jiangApp.st.searching && window.jiangApp.lines.filter(Boolean).length >= 3", 30)
        time.sleep(1.0 + 0.7 * i)
    ms = click_stop_and_time(page)
    latencies.append(ms)
    print("stop during analysis: " + ", ".join(f"{x:.1f}" for x in latencies) + " ms")
    # A move played while analysing: the analysis goes on from the new position.
    page.click("#stop")  # go on
    page.wait_for("window.jiangApp.st.searching", 30)
    page.click('.spot[data-sq="h2"]')
    page.wait_for("window.jiangApp.picked === 'h2'", 10)
    page.click('.spot[data-sq="e2"]')
    page.wait_for("window.jiangApp.st.moves.length === 1 && window.jiangApp.st.searching"
                  " && window.jiangApp.lines.filter(Boolean).length >= 3", 60)
    assert page.js("window.jiangApp.st.last_move") == "h2e2"
    return latencies


def check_stop_in_game(page, url):
    """jiang to move with 10 s: Stop plays its best move so far at once."""
    page.open(f"{url}/?game=xiangqi&mode=play&seat=1&movetime=10000&lang=en",
              ready="window.jiangApp && window.jiangApp.st && window.jiangApp.st.searching")
    legal = page.js("window.jiangApp.st.legal")
    page.wait_for("window.jiangApp.lines[0] && window.jiangApp.lines[0].depth >= 6", 60)
    ms = click_stop_and_time(page)
    st = page.js("window.jiangApp.st")
    assert len(st["moves"]) == 1 and st["moves"][0] in legal, f"stop played {st['moves']}"
    print(f"stop during a 10 s move: {ms:.1f} ms, jiang played {st['moves'][0]}")
    # Stop right after go, before any iteration is reported: a quick answer, legal.
    quick = page.js("""(async () => {
      const a = window.jiangApp, b = a.backend;
      const s = await b.request('POST', 'sessions', {game: 'xiangqi'});
      const legal = s.legal;
      await b.request('POST', `sessions/${s.id}/go`, {movetime_ms: 10000, play: true});
      const t0 = performance.now();
      await b.request('POST', `sessions/${s.id}/stop`);
      for (let i = 0; i < 200; i++) {
        const st = await b.request('GET', `sessions/${s.id}`);
        if (!st.searching) {
          await b.request('DELETE', `sessions/${s.id}`);
          return {ms: performance.now() - t0, moves: st.moves, legal};
        }
        await new Promise(r => setTimeout(r, 5));
      }
      return {ms: -1};
    })()""")
    assert quick["ms"] >= 0, "the quick stop never ended"
    assert len(quick["moves"]) == 1 and quick["moves"][0] in quick["legal"], quick
    # Not the bar's case (a long search): it waits for the search's first iteration or
    # book move, and for the worker's start if it was still starting.
    print(f"stop right after go (before any report): {quick['ms']:.1f} ms, jiang played {quick['moves'][0]}")
    assert quick["ms"] < 2000, "a stop right after go took too long"
    return [ms]


def check_position_tools(page, url):
    """A move list set from the text box, taken back, and a FEN set."""
    page.open(f"{url}/?game=xiangqi&mode=play&seat=0&movetime=100&lang=en")
    page.js("document.getElementById('fen').value = 'h2e2 h9g7'")
    page.click("#setmoves")
    page.wait_for("window.jiangApp.st.moves.join(' ') === 'h2e2 h9g7' && !window.jiangApp.st.searching", 20)
    shown = page.js("[...document.querySelectorAll('#moves span')].map(e => e.textContent)")
    assert shown == ["H2-E2", "H9-G7"], f"the move list shows {shown}"
    page.click("#undo")
    page.wait_for("window.jiangApp.st.moves.length === 0", 20)
    fen = "3k5/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 50"
    page.js(f"document.getElementById('fen').value = {json.dumps(fen)}")
    page.click("#setfen")
    page.wait_for(f"window.jiangApp.st.start_fen === {json.dumps(fen)}", 20)
    page.js("document.getElementById('fen').value = 'not a fen'")
    page.click("#setfen")
    page.wait_for("document.getElementById('error').textContent !== ''", 20)
    assert page.js("window.jiangApp.st.start_fen") == fen, "a bad FEN changed the board"
    print(f"position: move list set and shown in ICCS {shown}, taken back, FEN set, a bad FEN refused")


def check_memory(page, url):
    page.open(f"{url}/?game=xiangqi&mode=play&seat=1&movetime=2000&lang=en")
    page.wait_for("window.jiangApp.st.moves.length === 1 && !window.jiangApp.st.searching", 30)
    mb = page.js("window.jiangApp.backend.memory()") / 2**20
    hash_mb = page.js("window.jiangApp.backend.hashMb")
    print(f"memory: search worker {mb:.0f} MiB of WebAssembly memory with a {hash_mb} MiB hash")
    assert hash_mb == 32, f"default hash {hash_mb}"
    assert mb <= hash_mb + 24, "the worker's memory is not bounded by its hash"
    # Another size chosen on the page: the workers start again with it.
    page.js("(() => { const s = document.getElementById('hash'); s.value = '128'; s.dispatchEvent(new Event('change')); })()")
    page.wait_for("window.jiangApp.backend.report && window.jiangApp.backend.report.hash_mb === 128", 30)
    # Two searches (each empties the table first): the memory stays where it was.
    for _ in range(2):
        page.js("""(async () => { const a = window.jiangApp;
          await a.backend.request('POST', `sessions/${a.id}/go`, {movetime_ms: 700, play: false});
          for (;;) { const st = await a.backend.request('GET', `sessions/${a.id}`);
                     if (!st.searching) return; await new Promise(r => setTimeout(r, 20)); } })()""")
    mb128 = page.js("window.jiangApp.backend.memory()") / 2**20
    print(f"memory: {mb128:.0f} MiB after two searches with a 128 MiB hash chosen on the page")
    assert 128 <= mb128 <= 128 + 24, "the chosen hash is not what the worker holds"
    page.js("localStorage.removeItem('jiang-hash-mb')")


def check_speed(page, binary, depth):
    runs = []
    for _ in range(2):
        n_nodes, n_nps = native_bench(binary, depth)
        w = page.js(f"window.jiangApp.backend.bench({depth})")
        runs.append((n_nodes, n_nps, w["nodes"], w["nps"]))
        print(f"bench {depth}: native {n_nodes} nodes {n_nps} nps; browser {w['nodes']} nodes {w['nps']} nps")
        assert w["nodes"] == n_nodes, "the browser's bench signature differs from the native one"
        assert w["network"], "the browser's bench ran without the network"
    native = max(r[1] for r in runs)
    browser = max(r[3] for r in runs)
    ratio = browser / native
    print(f"speed: browser {browser} nps / native {native} nps (best of {len(runs)} each) = {100 * ratio:.0f} %")
    return ratio


def check_second_visit(page, url, log_path):
    before = nnue_fetches(log_path)
    page.open(f"{url}/?game=xiangqi&mode=analysis&lang=en")
    src = page.js("window.jiangApp.backend.networkFrom")
    after = nnue_fetches(log_path)
    print(f"second visit: network from {src}; network fetched {after} time(s) in all, {after - before} on this visit")
    assert src == "cache", f"the network came from {src}"
    assert after == before == 1, "the network was fetched again"


def check_chinese(page, url, out):
    ua = page.js("navigator.userAgent")
    page.call("Emulation.setUserAgentOverride", userAgent=ua, acceptLanguage="zh-CN,zh")
    page.js("localStorage.removeItem('jiang-lang')")
    page.open(f"{url}/?game=xiangqi&mode=play&seat=0&movetime=100")
    assert page.js("navigator.language").lower().startswith("zh")
    assert page.js("document.documentElement.lang") == "zh-CN"
    status = page.js("document.getElementById('status').textContent")
    game = page.js("document.getElementById('game').selectedOptions[0].textContent")
    assert "走棋" in status and game == "中国象棋", (status, game)
    # A few moves, so that the move list shows.
    for mv in (("h2", "e2"),):
        page.click(f'.spot[data-sq="{mv[0]}"]')
        page.wait_for(f"window.jiangApp.picked === '{mv[0]}'", 10)
        page.click(f'.spot[data-sq="{mv[1]}"]')
    page.wait_for("window.jiangApp.st.moves.length >= 2 && !window.jiangApp.st.searching", 30)
    time.sleep(0.3)
    page.screenshot(f"{out}/zh.png")
    labels = page.js("[...document.querySelectorAll('header label > span, header button')].map(e => e.textContent)")
    print(f"Chinese page: status {status!r}, game {game!r}, labels {labels}")
    # The switch: English, kept for the next visit.
    page.js("(() => { const s = document.getElementById('lang'); s.value = 'en'; s.dispatchEvent(new Event('change')); })()")
    assert page.js("document.getElementById('new').textContent") == "New game"
    page.open(f"{url}/?game=xiangqi")
    assert page.js("document.getElementById('new').textContent") == "New game", "the choice was not kept"
    page.call("Emulation.setUserAgentOverride", userAgent=ua, acceptLanguage="en-US,en")
    print("language switch: English chosen on the page, kept on the next visit")


RECORD_PGN = """[Game "Chinese Chess"]
[Event "jiang test"]
[Red "红方甲"]
[Black "黑方乙"]
[Result "*"]
{开局}
1. 炮二平五 马８进７ 2. 马二进三 (2. 兵七进一 {仙人指路} 卒７进１) 2... 车９平８ 3. 炮五进四 马７进５ *
"""
# The main line; its fifth move gives a cannon for a soldier (a blunder at any depth).
RECORD_MAIN = ["h2e2", "h9g7", "h0g2", "i9h9", "e2e6", "g7e6"]
BLUNDER = 4


def open_through_input(page, path):
    """Sets the page's file input to `path` (DevTools), as a user choosing the file."""
    doc = page.call("DOM.getDocument", depth=1)
    node = page.call("DOM.querySelector", nodeId=doc["root"]["nodeId"], selector="#file")
    page.call("DOM.setFileInputFiles", files=[os.path.abspath(path)], nodeId=node["nodeId"])


def click_seen(page, selector):
    """Scrolls the element into view, then clicks it with the mouse."""
    page.js(f"document.querySelector({json.dumps(selector)}).scrollIntoView({{block: 'center'}})")
    time.sleep(0.1)
    page.click(selector)


def check_records(page, url, out, lang):
    files = os.path.join(out, "files")
    os.makedirs(files, exist_ok=True)
    good = os.path.join(files, "game.pgn")
    with open(good, "w", encoding="utf-8") as f:
        f.write(RECORD_PGN)
    bad = os.path.join(files, "damaged.xqf")
    with open(bad, "wb") as f:
        f.write(b"XQ\x0a\x00garbage")
    page.js("localStorage.setItem('jiang-notation', 'wxf')")
    page.open(f"{url}/?game=xiangqi&mode=play&seat=0&movetime=100&lang={lang}")
    open_through_input(page, good)
    page.wait_for("window.jiangApp.record && window.jiangApp.record.current === 0"
                  " && document.querySelectorAll('#tree .mv').length === 8", 30)
    rec = page.js("(() => { const r = window.jiangApp.record; return {format: r.format, fen: r.start_fen,"
                  " tags: r.tags, n: r.nodes.length}; })()")
    assert rec["format"] == "pgn" and rec["n"] == 9, rec
    shown = page.js("[...document.querySelectorAll('#tree .mv')].map(e => e.textContent)")
    if lang == "zh":
        assert shown[:3] == ["炮二平五", "马８进７", "马二进三"], shown
        assert "兵七进一" in shown, shown
    else:
        assert shown[:3] == ["C2.5", "H8+7", "H2+3"], shown
        assert "P7+1" in shown, shown
    comments = page.js("[...document.querySelectorAll('#tree .comment')].map(e => e.textContent)")
    assert "仙人指路" in comments and "开局" in comments, comments
    assert page.js("document.querySelectorAll('#tree .var .mv').length") == 2
    # Into the variation: its first move, clicked.
    click_seen(page, "#tree .var .mv")
    page.wait_for("window.jiangApp.st.moves.join(' ') === 'h2e2 h9g7 c3c4' && !window.jiangApp.st.searching", 20)
    assert page.js("document.querySelector('#tree .mv.cur').textContent") == ("兵七进一" if lang == "zh" else "P7+1")
    # On in it with the arrow key, back to the main line's move with two lefts and a right.
    for key, moves in (("ArrowRight", "h2e2 h9g7 c3c4 g6g5"), ("ArrowLeft", "h2e2 h9g7 c3c4"),
                       ("ArrowLeft", "h2e2 h9g7"), ("ArrowRight", "h2e2 h9g7 h0g2")):
        page.js("document.activeElement && document.activeElement.blur()")
        page.call("Input.dispatchKeyEvent", type="keyDown", key=key, code=key,
                  windowsVirtualKeyCode={"ArrowRight": 39, "ArrowLeft": 37}[key])
        page.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=key,
                  windowsVirtualKeyCode={"ArrowRight": 39, "ArrowLeft": 37}[key])
        page.wait_for(f"window.jiangApp.st.moves.join(' ') === {json.dumps(moves)}", 20)
    print(f"records ({lang}): a PGN opened by the file input, {len(shown)} moves shown {shown},"
          " the variation entered by a click, stepped with the arrow keys")
    # A damaged file: one message naming the place; the record and board as they were.
    fen = page.js("window.jiangApp.st.fen")
    open_through_input(page, bad)
    page.wait_for("document.getElementById('error').textContent !== ''", 20)
    err = page.js("document.getElementById('error').textContent")
    assert "damaged.xqf" in err and "byte 11" in err, err
    assert page.js("window.jiangApp.st.fen") == fen and page.js("window.jiangApp.record.format") == "pgn"
    print(f"records ({lang}): a damaged XQF refused: {err!r}")
    # The review: 200 ms a position, progress shown while it runs.
    page.js("(() => { const s = document.getElementById('review-time'); s.value = '200'; })()")
    click_seen(page, "#review")
    page.wait_for("window.jiangApp.review && window.jiangApp.review.running", 10)
    page.wait_for("document.getElementById('review-progress').style.display === 'block'"
                  " && document.getElementById('review-bar').value >= 1", 30)
    page.wait_for("window.jiangApp.review && !window.jiangApp.review.running", 120)
    r = page.js("window.jiangApp.review.result")
    assert r and len(r["moves"]) == len(RECORD_MAIN), r
    assert all(0 <= m["loss"] <= 1 and m["score"] for m in r["moves"]), r["moves"]
    for m in r["moves"]:
        want = "??" if m["loss"] >= 0.3 else "?" if m["loss"] >= 0.2 else "?!" if m["loss"] >= 0.1 else None
        assert m["nag"] == want, m
    assert r["moves"][BLUNDER]["nag"] == "??" and BLUNDER in r["deciding"], r
    assert r["summary"]["red"]["blunders"] >= 1 and r["summary"]["red"]["accuracy"] < 95, r["summary"]
    assert page.js("document.querySelectorAll('#graph .mark-blunder').length") >= 1
    assert page.js("document.querySelectorAll('#graph .deciding').length") >= 1
    assert page.js("document.querySelectorAll('#tree .nag-blunder').length") >= 1
    summary = page.js("document.getElementById('review-summary').textContent")
    assert ("准确率" if lang == "zh" else "accuracy") in summary, summary
    assert page.js("document.querySelectorAll('#graph rect.gcol').length") == len(RECORD_MAIN) + 1
    assert page.js("document.querySelectorAll('#tree .sc').length") == len(RECORD_MAIN)
    assert page.js("document.getElementById('error').textContent") == ""
    # The graph clicked: the board goes to that move.
    for ply in (2, 0, BLUNDER + 1):
        click_seen(page, f'#graph rect.gcol[data-ply="{ply}"]')
        want = " ".join(RECORD_MAIN[:ply])
        page.wait_for(f"window.jiangApp.st.moves.join(' ') === {json.dumps(want)}", 20)
    node_fen = page.js("window.jiangApp.record.nodes[window.jiangApp.record.current].fen")
    assert page.js("window.jiangApp.st.fen") == node_fen
    page.js("window.scrollTo(0, 0)")
    time.sleep(0.3)
    page.screenshot(f"{out}/records-{lang}.png")
    print(f"records ({lang}): reviewed {len(r['moves'])} moves: "
          + ", ".join(f"{m['score']}{m['nag'] or ''}" for m in r["moves"])
          + f"; summary {summary!r}; the graph clicked at plies 2, 0, {BLUNDER + 1} and the board followed")
    # Copied as PGN in Chinese notation, with the review's marks; read back by the page's engine.
    page.js("(() => { const s = document.getElementById('copy-format'); s.value = 'pgn-chinese'; })()")
    click_seen(page, "#copy")
    page.wait_for("window.jiangApp.lastCopy && window.jiangApp.lastCopy.text.includes('炮二平五')", 20)
    text = page.js("window.jiangApp.lastCopy.text")
    assert "兵七进一" in text and "jiang review" in text, text
    back = page.js(f"""(async () => {{ const r = await window.jiangApp.backend.readRecord('copy.pgn',
        new TextEncoder().encode(window.jiangApp.lastCopy.text), 0);
        const line = []; let at = r.nodes[0];
        while (at.children.length) {{ at = r.nodes[at.children[0]]; line.push(at.move); }}
        return line; }})()""")
    assert back == RECORD_MAIN, back
    page.js("(() => { const s = document.getElementById('copy-format'); s.value = 'fen'; })()")
    click_seen(page, "#copy")
    page.wait_for(f"window.jiangApp.lastCopy.text === {json.dumps(node_fen)}", 20)
    print(f"records ({lang}): copied as Chinese PGN ({len(text)} characters, read back the same) and as FEN")
    # Dropped on the page: the game as DhtmlXQ (copied from the page), then a PGN of two
    # games, the second chosen from the list.
    page.js("(() => { const s = document.getElementById('copy-format'); s.value = 'dhtmlxq'; })()")
    click_seen(page, "#copy")
    page.wait_for("window.jiangApp.lastCopy.text.includes('[DhtmlXQ')", 20)
    two = RECORD_PGN + "\n[Event \"second\"]\n\n1. 兵七进一 炮８平５ *\n"
    for name, text, ready in (
            ("dropped.ubb", None, "window.jiangApp.record.format === 'dhtmlxq'"),
            ("two.pgn", two, "window.jiangApp.record.games === 2")):
        source = "window.jiangApp.lastCopy.text" if text is None else json.dumps(text)
        page.js(f"""(() => {{ const dt = new DataTransfer();
            dt.items.add(new File([{source}], {json.dumps(name)}));
            for (const type of ['dragenter', 'dragover', 'drop'])
              document.body.dispatchEvent(new DragEvent(type, {{dataTransfer: dt, bubbles: true, cancelable: true}})); }})()""")
        page.wait_for(f"window.jiangApp.record.name === {json.dumps(name)} && {ready}", 20)
    assert not page.js("document.body.classList.contains('dropping')")
    assert page.js("document.getElementById('record-game').options.length") == 2
    page.js("(() => { const s = document.getElementById('record-game'); s.value = '1';"
            " s.dispatchEvent(new Event('change')); })()")
    page.wait_for("window.jiangApp.record.index === 1 && window.jiangApp.st.start_fen === window.jiangApp.record.start_fen", 20)
    assert page.js("window.jiangApp.record.nodes.filter(n => n.move).map(n => n.move)") == ["c3c4", "h7e7"]
    print(f"records ({lang}): the copied DhtmlXQ dropped on the page and read back; a PGN of two games dropped, the second chosen")
    if lang == "en":
        # A game played on the board (here set as a move list) is reviewed the same way.
        page.js("document.getElementById('mode').value = 'analysis'; document.getElementById('mode').dispatchEvent(new Event('change'))")
        click_seen(page, "#new")
        # The record is gone from the page with the new game.
        page.wait_for("!window.jiangApp.record && window.jiangApp.st.moves.length === 0"
                      " && document.getElementById('record-info').textContent === ''"
                      " && document.getElementById('tree').style.display === 'none'", 20)
        # Set and pressed at once: the analysis redraws the box with each report.
        page.js("document.getElementById('fen').value = 'h2e2 h9g7 h0g2';"
                " document.getElementById('setmoves').click()")
        page.wait_for("window.jiangApp.st.moves.length === 3", 20)
        click_seen(page, "#review")
        page.wait_for("window.jiangApp.review && !window.jiangApp.review.running && window.jiangApp.review.result", 60)
        assert page.js("window.jiangApp.record.name") == "board", "not the board's game"
        assert page.js("window.jiangApp.review.result.moves.length") == 3, "not 3 moves judged"
        assert page.js("document.getElementById('mode').value") == "record", "not in record mode"
        print("records (en): a game set on the board reviewed (3 moves)")
    page.js("localStorage.removeItem('jiang-notation')")


def main():
    port, url, out, log_path, binary = sys.argv[1:6]
    depth = int(sys.argv[6]) if len(sys.argv) > 6 else 13
    url = url.rstrip("/")
    os.makedirs(out, exist_ok=True)
    targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    page = Page(next(t for t in targets if t.get("type") == "page")["webSocketDebuggerUrl"])
    page.call("Page.enable")
    page.call("Runtime.enable")
    page.call("Emulation.setDeviceMetricsOverride", width=1280, height=860, deviceScaleFactor=1, mobile=False)
    failures = 0
    bars = []
    only = [x for x in os.environ.get("STATIC_BROWSER_ONLY", "").split(",") if x]

    def step(name, work):
        nonlocal failures
        if only and name not in only and name != "first-visit":
            return None
        try:
            return work()
        except Exception as e:
            failures += 1
            print(f"{name}: FAILED: {e}")
            try:
                page.screenshot(f"{out}/{name}-failed.png")
            except Exception:
                pass
            return None

    # First visit: the network is downloaded (once).
    step("first-visit", lambda: (page.open(f"{url}/?game=xiangqi&lang=en"),
                                 print(f"first visit: network from {page.js('window.jiangApp.backend.networkFrom')},"
                                       f" engine {page.js('JSON.stringify(window.jiangApp.backend.report)')}")))
    failures += step("games", lambda: check_games(page, url, out, random.Random(2026))) or 0
    lat = step("analysis", lambda: check_analysis_and_stop(page, url, out)) or []
    lat += step("stop-in-game", lambda: check_stop_in_game(page, url)) or []
    if lat:
        worst = max(lat)
        ok = worst <= STOP_BAR_MS
        bars.append(f"stop latency: worst {worst:.1f} ms of {len(lat)} (bar {STOP_BAR_MS:.0f} ms) {'ok' if ok else 'FAILED'}")
        failures += 0 if ok else 1
    step("position", lambda: check_position_tools(page, url))
    step("memory", lambda: check_memory(page, url))
    ratio = step("speed", lambda: check_speed(page, binary, depth))
    if ratio is not None:
        ok = ratio >= NPS_BAR
        bars.append(f"speed: {100 * ratio:.0f} % of native (bar {100 * NPS_BAR:.0f} %) {'ok' if ok else 'FAILED'}")
        failures += 0 if ok else 1
    step("second-visit", lambda: check_second_visit(page, url, log_path))
    step("chinese", lambda: check_chinese(page, url, out))
    step("records", lambda: check_records(page, url, out, "zh"))
    step("records", lambda: check_records(page, url, out, "en"))
    if page.problems:
        print("page problems:\n  " + "\n  ".join(page.problems[:20]))
        failures += 1
    for b in bars:
        print(b)
    print(f"static browser test: {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
