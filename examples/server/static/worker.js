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
// from the server once the engine is loaded and handed to it; the worker says how it went:
// `{"type":"weights","status":"loading"}`, then `{"type":"weights","status":"ready"}` or
// `{"type":"weights","status":"failed","message":…}` (the message in plain words for the page).
// An Expert game waits (the module does not ask to think) until the weights are in.
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
  if (m.type === "local_load") run({ type: "local_load", data: m.data }, m);
  else run({ type: "local", msg: m }, m);
}

self.onmessage = (ev) => onPageMessage(ev.data);

// Fetches the Expert level's weights and installs them in the engine; a game against Expert
// that was waiting for them then gets its move.
async function loadWeights() {
  post({ type: "weights", status: "loading" });
  let why = null;
  try {
    const res = await fetch(new URL("weights/expert.bin", import.meta.url));
    if (!res.ok) {
      why = `the server answered HTTP ${res.status} for its file`;
    } else {
      const answer = engine.installWeights(await res.arrayBuffer());
      if (!answer || answer.type !== "weights") {
        why = `its file is damaged: ${(answer && answer.message) || "the engine refused it"}`;
      }
    }
  } catch (e) {
    why = `its file could not be downloaded (${e && e.message ? e.message : e})`;
  }
  if (why) {
    post({ type: "weights", status: "failed", message: `The Expert level is not available: ${why}. Easy, Normal and Hard still work.` });
    return;
  }
  post({ type: "weights", status: "ready" });
  if (thinkTimer === null) run({ type: "local_think" }, null);
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
  if (engine) await loadWeights();
})();
