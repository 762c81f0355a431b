// The Web Worker of local games (against the computer, two players on one device): it loads the
// engine (reversi.wasm through engine.js) and drives it, so that a local game, its clock and the
// computer's thinking stay in this browser and never touch the server. It holds no rules.
//
// Page → worker: the client messages of local games (`local_new`, `move`, `undo`, `resign`,
// `sync`, `local_close`) and `{"type":"local_load","data":…}` with what the page saved.
// Worker → page: the server's messages of local games (`local_started`, `state`, `local_closed`,
// `error`), `{"type":"saved","data":…}` after every change (for localStorage), and
// `{"type":"ready"}` once the engine is loaded. See PROTOCOL.md.
// Hints: `{"type":"hints","board":"<board string>","rid":…}` is answered
// `{"type":"hints","rid":…,"moves":[{"square","score","exact"},…],"unit":"discs"|"points"}`
// (best first) or an `error`.
// The Expert level's weights (weights/expert.bin, 5 MB, not built into the module) are fetched
// when the page first asks (`{"type":"weights_load"}`: Expert chosen, hints, a review), kept in
// the browser's Cache API (so that they load offline afterwards) and handed to the engine; the
// worker says how it goes: `{"type":"weights","status":"loading","loaded":…,"total":…}` (again as
// bytes arrive), then `{"type":"weights","status":"ready"}` or
// `{"type":"weights","status":"failed","message":…}` (the message in plain words for the page).
// An Expert game waits (the module does not ask to think) until the weights are in.
// Review: `{"type":"review","rid":…,"moves":[…],"board"?:…}` is answered `review_boards`
// (`boards`: the position after each move, the start first), then one `review_eval` per
// position (`i`, `score`: Expert's evaluation in discs for black, or null without its weights,
// `exact`, `done`, `total`), then `review_done`; or `review_error`. A newer review stops an older.
import { loadEngine } from "./engine.js";

// The least time between the person's move and the computer's search, so that the person sees
// their move drawn before the reply comes.
const THINK_PAUSE_MS = 300;

let engine = null;
let failed = null;      // why the engine could not be loaded
const pending = [];     // page messages that arrived before the engine
let tickTimer = null;   // the timer for `local_tick` at the answer's `timeout`
let thinkTimer = null;  // the scheduled `local_think`

function post(m) { self.postMessage(m); }

function refuse(req, code, message) {
  const m = { type: "error", code, message };
  if (req && typeof req === "object") {
    if (typeof req.type === "string") m.request = req.type;
    if (req.rid !== undefined) m.rid = req.rid;
  }
  post(m);
}

// Calls the engine with the wall clock, then passes its answer on: every message for the page,
// then what to save, then arms the timer and the computer's move.
function run(request, pageMsg) {
  let answer;
  try {
    answer = engine.call({ ...request, now: Date.now() });
  } catch (e) {
    refuse(pageMsg, "engine_failed", `the engine failed: ${e && e.message ? e.message : e}`);
    return;
  }
  if (!answer || answer.type !== "local") {
    // A module without local games, or an unreadable request, answers an error of its own.
    const code = (answer && answer.code) || "engine_failed";
    const message = (answer && answer.message) || "the engine gave no answer";
    refuse(pageMsg, code, message);
    return;
  }
  for (const m of answer.out || []) post(m);
  if (answer.saved !== undefined) post({ type: "saved", data: answer.saved });
  if (answer.timeout !== undefined) {
    if (tickTimer !== null) { clearTimeout(tickTimer); tickTimer = null; }
    if (answer.timeout !== null) {
      const wait = Math.max(0, answer.timeout - Date.now());
      // setTimeout's delay is a 32-bit count of milliseconds: a far deadline is re-armed on the way.
      tickTimer = setTimeout(() => { tickTimer = null; run({ type: "local_tick" }, null); }, Math.min(wait + 1, 2 ** 31 - 1));
    }
  }
  if (answer.think && thinkTimer === null) {
    // Yield first, so the page has the state with "thinking": true before the search starts.
    thinkTimer = setTimeout(() => { thinkTimer = null; run({ type: "local_think" }, null); }, THINK_PAUSE_MS);
  }
}

// Scores every legal move of a position for the side to move (the module's `hints` request).
function hints(m) {
  let answer;
  try {
    answer = engine.call({ type: "hints", board: String(m.board) });
  } catch (e) {
    refuse(m, "engine_failed", `the engine failed: ${e && e.message ? e.message : e}`);
    return;
  }
  if (!answer || answer.type !== "hints") {
    refuse(m, (answer && answer.code) || "engine_failed", (answer && answer.message) || "no hints");
    return;
  }
  post({ type: "hints", rid: m.rid, board: m.board, moves: answer.moves, unit: answer.unit });
}

function onPageMessage(m) {
  if (failed) { refuse(m, "engine_unavailable", failed); return; }
  if (!engine) { pending.push(m); return; }
  if (!m || typeof m !== "object" || typeof m.type !== "string") {
    refuse(m, "bad_request", "a message is an object with a type");
    return;
  }
  if (m.type === "hints") { hints(m); return; }
  if (m.type === "weights_load") { loadWeights(); return; }
  if (m.type === "review") { review(m); return; }
  if (m.type === "local_load") run({ type: "local_load", data: m.data }, m);
  else run({ type: "local", msg: m }, m);
}

self.onmessage = (ev) => onPageMessage(ev.data);

const WEIGHTS_URL = new URL("weights/expert.bin", import.meta.url).href;
// Named after the weights' file format: a new format (v2 added the Multi-ProbCut parameters, v3
// the pairing of their depths) gets a new cache, older caches are deleted. Within a format, a
// cached file is revalidated against the server's entity tag whenever the weights are loaded.
const WEIGHTS_CACHE = "reversi-weights-v3";
let weightsJob = null;   // the promise of the weights' loading, once asked

// Reads a response's body, posting the progress about every 5 %.
async function readBody(res) {
  const total = Number(res.headers.get("content-length")) || null;
  if (!res.body || !res.body.getReader) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const parts = [];
  let loaded = 0;
  let told = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    if (!total || loaded - told >= total / 20) {
      told = loaded;
      post({ type: "weights", status: "loading", loaded, total });
    }
  }
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

// Fetches the Expert level's weights (from the cache when they were fetched before) and
// installs them in the engine; a game against Expert that was waiting for them then gets its
// move. Resolves to whether they are in.
function loadWeights() {
  if (!weightsJob) weightsJob = fetchWeights();
  return weightsJob;
}

async function fetchWeights() {
  post({ type: "weights", status: "loading", loaded: 0, total: null });
  let why = null;
  let cache = null;
  try { cache = self.caches ? await self.caches.open(WEIGHTS_CACHE) : null; } catch (_) { cache = null; }
  try {
    if (self.caches) {
      for (const name of await self.caches.keys()) {
        if (name.startsWith("reversi-weights-") && name !== WEIGHTS_CACHE) await self.caches.delete(name);
      }
    }
  } catch (_) { /* an old cache left behind only costs space */ }
  try {
    let res = cache ? await cache.match(WEIGHTS_URL) : undefined;
    let cached = !!res;
    // The cached copy, while a new file from the server is tried instead.
    let older = null;
    if (res) {
      // Revalidated: the server answers 304 while its file is the one cached (its entity tag),
      // else the new file, which replaces the cached one. Offline, the cached copy.
      const tag = res.headers.get("etag");
      try {
        const fresh = await fetch(WEIGHTS_URL, { cache: "no-store", headers: tag ? { "If-None-Match": tag } : {} });
        if (fresh.ok) { older = res; res = fresh; cached = false; }
      } catch (_) { /* no network: the cached copy */ }
    } else {
      res = await fetch(WEIGHTS_URL, { cache: "no-store" });
    }
    if (!res.ok) {
      why = `the server answered HTTP ${res.status} for its file`;
    } else {
      const bytes = await readBody(res);
      const answer = engine.installWeights(bytes);
      if (!answer || answer.type !== "weights") {
        why = `its file is damaged: ${(answer && answer.message) || "the engine refused it"}`;
        if (cached) await cache.delete(WEIGHTS_URL).catch(() => {});
        if (older) {
          // The server's new file is refused: the copy cached before still serves, and stays
          // cached (the next load asks for the new file again).
          const again = engine.installWeights(await readBody(older));
          if (again && again.type === "weights") why = null;
        }
      } else if (cache && !cached) {
        const headers = { "content-type": "application/octet-stream" };
        const tag = res.headers.get("etag");
        if (tag) headers.etag = tag;
        await cache.put(WEIGHTS_URL, new Response(bytes, { headers })).catch(() => {});
      }
    }
  } catch (e) {
    why = `its file could not be downloaded (${e && e.message ? e.message : e})`;
  }
  if (why) {
    post({ type: "weights", status: "failed", message: `The Expert level is not available: ${why}. Easy, Normal and Hard still work.` });
    return false;
  }
  post({ type: "weights", status: "ready" });
  if (thinkTimer === null) run({ type: "local_think" }, null);
  return true;
}

// ---------------------------------------------------------------- review

let reviewRid = null;
const yieldNow = () => new Promise((r) => setTimeout(r, 0));

async function review(m) {
  const rid = m.rid;
  reviewRid = rid;
  let rp;
  try {
    rp = engine.call(m.board ? { type: "replay", moves: m.moves, board: m.board } : { type: "replay", moves: m.moves });
  } catch (e) {
    rp = { type: "error", message: String(e && e.message ? e.message : e) };
  }
  if (!rp || rp.type !== "replay") {
    post({ type: "review_error", rid, message: `The game could not be replayed (${(rp && rp.message) || "no answer"}).` });
    return;
  }
  const boards = rp.boards;
  post({ type: "review_boards", rid, boards });
  const have = await loadWeights();
  // The end first would be quicker to see, but the graph fills from the start.
  let missing = 0;
  for (let i = 0; i < boards.length; i++) {
    await yieldNow();
    if (reviewRid !== rid) return;
    let a;
    try { a = engine.call({ type: "eval", board: boards[i] }); } catch (e) { a = { type: "error" }; }
    const black = boards[i].trim().endsWith("X") ? 1 : -1;
    const ok = a && a.type === "eval";
    if (!ok) missing++;
    post({
      type: "review_eval", rid, i, score: ok ? black * a.score : null, exact: ok && !!a.exact,
      done: i + 1, total: boards.length,
      note: !ok && !have ? "Expert's evaluation could not be loaded: only the last 14 empties are scored (exactly)." : undefined,
    });
  }
  post({ type: "review_done", rid, missing });
}

(async () => {
  try {
    const res = await fetch(new URL("reversi.wasm", import.meta.url));
    if (!res.ok) throw new Error(`reversi.wasm: HTTP ${res.status}`);
    engine = await loadEngine(await res.arrayBuffer(), () => performance.now());
  } catch (e) {
    failed = `the game engine could not be loaded (${e && e.message ? e.message : e})`;
  }
  if (failed) post({ type: "error", code: "engine_unavailable", message: failed });
  else post({ type: "ready" });
  for (const m of pending.splice(0)) onPageMessage(m);
})();
