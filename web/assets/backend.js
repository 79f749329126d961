// Where the page's engine lives: a jiang-web server (its /api/..., when it answers) or the
// engine in this browser (local.js: WebAssembly in Web Workers). Both take the same
// requests and give the same JSON; the page sees one interface:
//   request(method, path, body) -> Promise of the answer's JSON (an Error with .status
//                                   when refused)
//   listen(id, {info, note, answer, done, failed}) -> {close()}: the board's latest
//                                   search, every event from its start, each as {data}
//   readRecord(name, bytes, index) -> Promise of a game record file's game as JSON
//                                   (web/src/records.rs), an ApiError when refused
//   kind: "server" | "local"
(() => {
"use strict";

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// The jiang-web server: plain HTTP and server-sent events, paths relative to the page.
class ServerBackend {
  constructor() {
    this.kind = "server";
  }

  async request(method, path, body) {
    const r = await fetch("api/" + path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await r.json().catch(() => ({ error: window.I18n.t("bad_answer") }));
    if (!r.ok) throw new ApiError(data.error || r.statusText, r.status);
    return data;
  }

  // A game record file's bytes to the server (POST api/record?name=...&game=N).
  async readRecord(name, bytes, index) {
    const r = await fetch(`api/record?name=${encodeURIComponent(name || "")}&game=${(index || 0) >>> 0}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: bytes,
    });
    const data = await r.json().catch(() => ({ error: window.I18n.t("bad_answer") }));
    if (!r.ok) throw new ApiError(data.error || r.statusText, r.status);
    return data;
  }

  listen(id, handlers) {
    const es = new EventSource(`api/sessions/${id}/events`);
    let closed = false;
    const close = () => { closed = true; es.close(); };
    for (const name of ["info", "note", "answer"]) {
      es.addEventListener(name, (e) => !closed && handlers[name] && handlers[name](e));
    }
    for (const name of ["done", "failed"]) {
      es.addEventListener(name, (e) => {
        if (closed) return;
        close();
        if (handlers[name]) handlers[name](e);
      });
    }
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED && !closed) {
        close();
        if (handlers.failed) handlers.failed({});
      }
    };
    return { close };
  }
}

// Whether a jiang-web server answers beside the page: its game list, as JSON, soon.
async function serverAnswers() {
  const ctl = typeof AbortController !== "undefined" ? new AbortController() : null;
  const timer = setTimeout(() => ctl && ctl.abort(), 4000);
  try {
    const r = await fetch("api/games", { cache: "no-store", signal: ctl ? ctl.signal : undefined });
    if (!r.ok) return false;
    const data = await r.json();
    return Array.isArray(data.games);
  } catch (e) {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

// The backend for this page: `?engine=server` or `?engine=local` forces one; otherwise
// the server when it answers, else the engine in this browser. `progress(text)` hears
// what is being loaded.
async function connect(options) {
  const want = new URLSearchParams(location.search).get("engine");
  if (want !== "local" && (want === "server" || (await serverAnswers()))) return new ServerBackend();
  if (!window.LocalBackend) throw new Error("the in-browser engine (local.js) is missing");
  return window.LocalBackend.start(options);
}

window.Backends = { connect, ServerBackend, ApiError };
})();
