// The Reversi page. It holds no rules: it draws the states it is sent (the board, the legal moves
// and the discs each would flip in animation order, the squares' accessible descriptions) and
// sends intentions (PROTOCOL.md at the repository root).
//
// Local games (against the computer, two players on this device) are played by a Web Worker
// (worker.js, which runs the engine compiled to WebAssembly) and saved in this browser's
// localStorage: they never touch the server, and work with the server stopped. Online games go
// over a WebSocket to the server, opened only when the person chooses to play online or the page
// comes back to an online game.
"use strict";

const $ = (id) => document.getElementById(id);
const FILES = "abcdefgh";
const nameOf = (i) => FILES[i % 8] + (Math.floor(i / 8) + 1);
const indexOf = (sq) => (+sq.slice(1) - 1) * 8 + FILES.indexOf(sq[0]);
const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const params = new URLSearchParams(location.search);

// What tests (and curious people) may look at: sounds played, flips drawn.
// `state` is the last state message received, as received.
const debug = (window.reversiDebug = { sounds: 0, flips: [], state: null, engineReady: false });
const HERE = document.currentScript ? document.currentScript.src : location.href;

let ws = null;
let welcome = null;
let retry = 0;
let outbox = [];        // online messages waiting for the connection
let worker = null;      // the local games' worker
let loadingLocal = false; // a saved local game is being restored
let expectLocal = false;  // a local game was asked for (new or restored): follow its first state
let game = null;        // the id of the game or room shown
let kind = null;        // "local", "online" or "hosted"
let state = null;       // the last state of that game
let shownBoard = null;  // the board string drawn (after animations are scheduled)
let player = null;      // our online player id
let waitingQueue = false;
let pendingRoom = null; // settings of a hosted room being created
let rid = 0;
let timers = [];
let clockBase = null;   // {at: performance.now() at receipt, state}
let lastAnnounced = "";
let focusIdx = 19;      // the roving tabindex: d3
let hoverIdx = null;

// ---------------------------------------------------------------- the board

const board = $("board");
const cells = [];
for (let r = 0; r < 8; r++) {
  const row = document.createElement("div");
  row.setAttribute("role", "row");
  row.className = "brow";
  for (let c = 0; c < 8; c++) {
    const i = r * 8 + c;
    const cell = document.createElement("div");
    cell.className = "sq";
    cell.setAttribute("role", "gridcell");
    cell.dataset.sq = nameOf(i);
    cell.tabIndex = i === focusIdx ? 0 : -1;
    cell.setAttribute("aria-label", nameOf(i));
    cell.innerHTML = '<span class="dot"></span><span class="ghost"></span><span class="disc"></span><span class="mark"></span><span class="lastdot"></span>';
    cell.addEventListener("click", () => { setFocus(i, false); play(i); });
    cell.addEventListener("mouseenter", () => { hoverIdx = i; preview(); });
    cell.addEventListener("mouseleave", () => { if (hoverIdx === i) { hoverIdx = null; preview(); } });
    cell.addEventListener("focus", () => { focusIdx = i; preview(); });
    cells.push(cell);
    row.appendChild(cell);
  }
  board.appendChild(row);
}
board.addEventListener("focusout", () => setTimeout(preview, 0));

board.addEventListener("keydown", (e) => {
  let i = focusIdx;
  switch (e.key) {
    case "ArrowLeft": if (i % 8 > 0) i--; break;
    case "ArrowRight": if (i % 8 < 7) i++; break;
    case "ArrowUp": if (i >= 8) i -= 8; break;
    case "ArrowDown": if (i < 56) i += 8; break;
    case "Home": i = e.ctrlKey ? 0 : i - (i % 8); break;
    case "End": i = e.ctrlKey ? 63 : i - (i % 8) + 7; break;
    case "Enter": case " ": e.preventDefault(); play(focusIdx); return;
    default: return;
  }
  e.preventDefault();
  setFocus(i, true);
});

function setFocus(i, move) {
  cells[focusIdx].tabIndex = -1;
  focusIdx = i;
  cells[i].tabIndex = 0;
  if (move) cells[i].focus();
}

function myColor() {
  if (!state) return null;
  if (kind === "local") return state.mode === "two_players" ? state.to_move : state.human;
  const seat = (state.seats || []).find((s) => s.kind === "person" && s.player === player);
  return seat ? seat.color : null;
}

// Whether the person at this screen may play now.
function mayPlay() {
  if (!state || state.status !== "playing" || !state.to_move) return false;
  if (kind === "local") {
    if (state.mode === "two_players") return true;
    return state.to_move === state.human && !state.thinking;
  }
  return myColor() === state.to_move;
}

function legalOf(i) {
  if (!state || !state.legal) return null;
  const sq = nameOf(i);
  return state.legal.find((l) => l.square === sq) || null;
}

function preview() {
  for (const c of cells) c.classList.remove("preview", "will-flip");
  let i = hoverIdx;
  if (i === null && board.contains(document.activeElement)) i = focusIdx;
  if (i === null || !$("show").checked || !mayPlay()) return;
  const l = legalOf(i);
  if (!l) return;
  cells[i].classList.add("preview");
  cells[i].dataset.ghost = state.to_move;
  for (const f of l.flips) cells[indexOf(f)].classList.add("will-flip");
}

function setDisc(i, ch) {
  const d = cells[i].querySelector(".disc");
  d.classList.toggle("black", ch === "X");
  d.classList.toggle("white", ch === "O");
  cells[i].classList.toggle("filled", ch !== "-");
}

function clearTimers() {
  for (const t of timers) clearTimeout(t);
  timers = [];
}

// Draws a state. `animate` names the placement to animate (the server's `last`) when the state
// follows the one shown by exactly that move.
function draw(s, animate) {
  clearTimers();
  const target = s.board || "-".repeat(64);
  const motion = animate && !reducedMotion();
  const flips = animate ? animate.flips.map(indexOf) : [];
  for (let i = 0; i < 64; i++) {
    if (!flips.includes(i)) setDisc(i, target[i]);
  }
  if (animate) {
    const placed = indexOf(animate.square);
    const disc = cells[placed].querySelector(".disc");
    if (motion) disc.animate([{ transform: "scale(0.3)", opacity: 0.4 }, { transform: "scale(1)", opacity: 1 }], { duration: 140, easing: "ease-out" });
    const at = performance.now();
    flips.forEach((i, k) => {
      const ch = target[i];
      if (!motion) {
        setDisc(i, ch);
        debug.flips.push({ square: nameOf(i), at, animated: false });
        return;
      }
      timers.push(setTimeout(() => {
        const d = cells[i].querySelector(".disc");
        const half = d.animate([{ transform: "scaleX(1)" }, { transform: "scaleX(0.05)" }], { duration: 90, easing: "ease-in" });
        half.onfinish = () => {
          setDisc(i, ch);
          d.animate([{ transform: "scaleX(0.05)" }, { transform: "scaleX(1)" }], { duration: 90, easing: "ease-out" });
        };
        debug.flips.push({ square: nameOf(i), at: performance.now(), animated: true });
      }, 120 + k * 80));
      // Whatever happens to the animation, the disc ends in its colour.
      timers.push(setTimeout(() => setDisc(i, ch), 120 + k * 80 + 200));
    });
  }
  shownBoard = target;

  const legal = new Map((s.legal || []).map((l) => [l.square, l.flips]));
  const canPlay = mayPlay();
  const show = $("show").checked;
  board.dataset.myTurn = String(canPlay);
  board.dataset.version = String(s.version);
  board.classList.toggle("hide-legal", !show);
  for (let i = 0; i < 64; i++) {
    const c = cells[i];
    const isLegal = canPlay && legal.has(nameOf(i));
    c.classList.toggle("legal", isLegal);
    c.classList.toggle("last", !!(s.last && s.last.square === nameOf(i) && target[i] !== "-"));
    c.setAttribute("aria-label", (s.squares && s.squares[i]) || nameOf(i));
  }
  preview();

  // Counts at once (not after the animation).
  const count = s.count || { black: 0, white: 0 };
  $("count-black").textContent = count.black;
  $("count-white").textContent = count.white;
  $("side-black").classList.toggle("to-move", s.to_move === "black" && s.status === "playing");
  $("side-white").classList.toggle("to-move", s.to_move === "white" && s.status === "playing");
  $("turn").textContent = turnText(s);

  // The pass notice, below the board.
  $("pass").textContent = s.passed && s.status !== "waiting" ? `${cap(s.passed)} has no legal move and passes.` : "";

  // History.
  const hist = $("history");
  hist.innerHTML = "";
  let n = 0;
  for (const h of s.history || []) {
    const li = document.createElement("li");
    if (h.move === "pass") { li.textContent = `${cap(h.color)} passed`; li.className = "passed"; }
    else { n++; li.textContent = `${cap(h.color)} ${h.move}`; }
    hist.appendChild(li);
  }
  hist.scrollTop = hist.scrollHeight;

  const over = s.status === "over" || s.status === "closed";
  $("undo").hidden = kind !== "local";
  $("undo").disabled = !(kind === "local" && s.can_undo && !over);
  $("resign").disabled = !(s.status === "playing" && (kind === "local" || myColor()));
  document.querySelectorAll(".hosted-only").forEach((e) => { e.hidden = kind !== "hosted"; });
  if (kind === "hosted") {
    $("room-id").textContent = `Room ${s.room}`;
    const host = s.host === player;
    $("room-start").disabled = !host || s.status === "playing" || s.status === "paused";
    $("room-pause").disabled = !host || s.status !== "playing";
    $("room-resume").disabled = !host || s.status !== "paused";
    $("room-end").disabled = !host || !(s.status === "playing" || s.status === "paused");
  }
  // Online: say when the opponent has lost the connection (they have a grace period).
  if (kind !== "local" && s.status === "playing") {
    const gone = (s.seats || []).find((x) => x.kind === "person" && x.player !== player && x.connected === false);
    const note = gone ? `The ${gone.color} player lost the connection and has a minute to come back.` : "";
    if (note || /lost the connection/.test($("info").textContent)) info(note);
  }
  clockBase = { at: performance.now(), s };
  tickClocks();
}

function resultText(s) {
  const r = s.result;
  if (!r) return "";
  const c = s.count || { black: 0, white: 0 };
  const score = `${c.black}–${c.white}`;
  const why = {
    board: "", timeout: " on time", resignation: " by resignation", resigned: " by resignation",
    abandoned: " (the game was abandoned)", disconnected: " (a player did not come back)",
    time_limit: " (time limit)", ended_by_host: " (ended by the host)", room_closed: " (room closed)",
  }[r.reason] || "";
  if (r.winner) return `Game over: ${cap(r.winner)} wins${why}, ${score}.`;
  return `Game over: no winner${why}, ${score}.`;
}

function turnText(s) {
  if (s.status === "over" || s.status === "closed") return resultText(s) || "Game over.";
  if (s.status === "waiting") return kind === "hosted" ? "Waiting for the game to start." : "Waiting.";
  if (s.status === "paused") return "Paused.";
  if (!s.to_move) return "";
  if (kind === "local" && s.mode === "computer") {
    return s.to_move === s.human ? `Your move (${s.to_move}).` : "The computer is thinking…";
  }
  if (kind !== "local") {
    const me = myColor();
    if (!me) return `${cap(s.to_move)} to move.`;
    return me === s.to_move ? `Your move (${me}).` : `Opponent's move (${s.to_move}).`;
  }
  return `${cap(s.to_move)} to move.`;
}

// ---------------------------------------------------------------- clocks

function fmt(ms) {
  if (ms == null) return "";
  const t = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}

function tickClocks() {
  if (!clockBase) return;
  const { at, s } = clockBase;
  const c = s.clock;
  for (const side of ["black", "white"]) {
    const el = $("clock-" + side);
    if (!c || c[side + "_ms"] == null) { el.textContent = ""; continue; }
    let ms = c[side + "_ms"];
    if (c.running === side && !c.paused && s.status === "playing") ms -= performance.now() - at;
    el.textContent = fmt(ms);
    el.classList.toggle("low", ms < 10000 && c.running === side);
  }
}
setInterval(tickClocks, 250);

// ---------------------------------------------------------------- sound

let audio = null;
let voice = null;
let muted = localStorage.getItem("reversi.muted") === "1";

function unlockAudio() {
  if (muted) return;
  try {
    if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
  } catch (_) { audio = null; }
}

// One short, low disc sound per move, however many discs it flips: a new sound stops the last.
function discSound() {
  if (muted) return;
  debug.sounds++;
  if (!audio) return;
  try {
    const t = audio.currentTime;
    if (voice) { try { voice.stop(); } catch (_) { /* already stopped */ } }
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.type = "triangle";
    o.frequency.setValueAtTime(150, t);
    o.frequency.exponentialRampToValueAtTime(60, t + 0.1);
    g.gain.setValueAtTime(0.0001, t);
    g.gain.exponentialRampToValueAtTime(0.4, t + 0.006);
    g.gain.exponentialRampToValueAtTime(0.0001, t + 0.13);
    o.connect(g).connect(audio.destination);
    o.start(t);
    o.stop(t + 0.14);
    voice = o;
  } catch (_) { /* no sound then */ }
}

function drawMute() {
  $("mute").setAttribute("aria-pressed", String(muted));
  $("mute").textContent = muted ? "Sound off" : "Sound on";
}
$("mute").onclick = () => {
  muted = !muted;
  localStorage.setItem("reversi.muted", muted ? "1" : "0");
  drawMute();
  if (!muted) unlockAudio();
};
drawMute();
document.addEventListener("pointerdown", unlockAudio, { once: true });
document.addEventListener("keydown", unlockAudio, { once: true });

// ---------------------------------------------------------------- announcements

function announce(text) {
  if (!text) return;
  const p = document.createElement("p");
  p.textContent = text;
  $("live").appendChild(p);
  while ($("live").childNodes.length > 5) $("live").removeChild($("live").firstChild);
}

function info(text) { $("info").textContent = text || ""; }

// ---------------------------------------------------------------- local games: the worker

function startWorker() {
  try {
    worker = new Worker(new URL("worker.js", HERE), { type: "module" });
  } catch (e) {
    worker = null;
    info("Local games need a browser with module Web Workers.");
    return;
  }
  worker.onmessage = (ev) => {
    const m = ev.data;
    if (!m || typeof m !== "object") return;
    if (m.type === "ready") { debug.engineReady = true; return; }
    if (m.type === "saved") { store.local = m.data; return; }
    handle(m);
  };
  worker.onerror = (e) => { info(`The game engine stopped (${e.message || "error"}).`); };
}

function toWorker(m) {
  if (!worker) { info("Local games need a browser with module Web Workers."); return false; }
  worker.postMessage(m);
  return true;
}

// ---------------------------------------------------------------- online games: the connection

function connect() {
  if (ws) return;
  setConn("connecting", "Connecting…");
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { retry = 0; };
  ws.onclose = () => {
    ws = null;
    welcome = null;
    const wait = Math.min(5000, 500 * 2 ** retry++);
    setConn("offline", `Disconnected. Reconnecting in ${Math.round(wait / 1000) || 1} s…`);
    setTimeout(connect, wait);
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (_) { return; }
    handle(m);
  };
}

function setConn(st, text) {
  $("conn").hidden = !st;
  $("conn").dataset.state = st || "none";
  $("conn").textContent = text || "";
}

// Sends an online message, opening the connection first if need be (the message waits for it).
function send(m) {
  if (ws && ws.readyState === 1 && welcome) { ws.send(JSON.stringify(m)); return true; }
  outbox.push(m);
  connect();
  return true;
}

// Sends a message about the game shown: to the worker for a local game, else to the server.
function sendGame(m) {
  return kind === "local" ? toWorker(m) : send(m);
}

const store = {
  get local() {
    try { return JSON.parse(localStorage.getItem("reversi.local") || "null"); } catch (_) { return null; }
  },
  set local(v) {
    try {
      if (v == null) localStorage.removeItem("reversi.local");
      else localStorage.setItem("reversi.local", JSON.stringify(v));
    } catch (_) { /* storage full or disabled: the game goes on unsaved */ }
  },
  get token() { return sessionStorage.getItem("reversi.token"); },
  set token(v) { v ? sessionStorage.setItem("reversi.token", v) : sessionStorage.removeItem("reversi.token"); },
  get view() { return sessionStorage.getItem("reversi.view"); },
  set view(v) { v ? sessionStorage.setItem("reversi.view", v) : sessionStorage.removeItem("reversi.view"); },
};

function joinCode() {
  const m = location.pathname.match(/^\/join\/([^/]+)/);
  return (m && decodeURIComponent(m[1])) || params.get("invite");
}

function onWelcome() {
  setConn("online", "Connected");
  // Recover the online identity first (it rejoins a game in progress), then the game shown.
  if (store.token) send({ type: "reconnect", token: store.token });
  if (game && kind !== "local") send({ type: "sync", game });
  const code = joinCode();
  if (code && (!game || kind === "local")) { selectMode("online"); send({ type: "invite_join", code }); }
  const queued = outbox;
  outbox = [];
  for (const m of queued) send(m);
}

function follow(id, k) {
  if (game !== id) { state = null; clearTimers(); }
  game = id;
  kind = k;
  store.view = k === "local" ? "local" : id;
  if (k === "local") { loadingLocal = false; expectLocal = false; }
}

function placements(s) { return (s.history || []).filter((h) => h.move !== "pass").length; }

function onState(m) {
  debug.state = m;
  // A restored game may come as its state alone (no local_started first).
  if (m.kind === "local" && expectLocal && m.game !== game) follow(m.game, "local");
  if (m.game !== game) return;
  if (state && m.version < state.version) return;
  const prev = state;
  if (!prev && m.kind === "local") selectMode(m.mode);
  kind = m.kind;
  state = m;
  // Animate and sound a placement that follows the state shown by one move.
  let animate = null;
  if (prev && m.last && prev.board && placements(m) === placements(prev) + 1) animate = m.last;
  draw(m, animate);
  if (animate) discSound();
  // Announcements: passes and results (and the opponent's moves, briefly).
  const key = `${m.game}:${(m.history || []).length}:${m.status}`;
  if (key !== lastAnnounced) {
    lastAnnounced = key;
    const parts = [];
    if (animate && (kind !== "local" || m.mode === "computer") && animate.color !== myColor()) {
      parts.push(`${cap(animate.color)} played ${animate.square}, flipping ${animate.flips.length}.`);
    }
    if (m.passed && m.status !== "waiting") parts.push(`${cap(m.passed)} passes: no legal move.`);
    if ((m.status === "over" || m.status === "closed") && m.result && (!prev || prev.status !== m.status || !prev.result)) {
      parts.push(resultText(m));
    }
    if (parts.length) announce(parts.join(" "));
  }
}

function handle(m) {
  switch (m.type) {
    case "welcome":
      welcome = m;
      onWelcome();
      break;
    case "local_started":
      follow(m.game, "local");
      selectMode(null);
      info("");
      break;
    case "local_closed":
      break;
    case "guest":
      player = m.player;
      store.token = m.token;
      break;
    case "queued":
      waitingQueue = true;
      $("waiting").hidden = false;
      $("queue").disabled = true;
      info("");
      break;
    case "queue_expired":
    case "queue_cancelled":
      waitingQueue = false;
      $("waiting").hidden = true;
      $("queue").disabled = false;
      info(m.type === "queue_expired" ? "Nobody came: the wait ran out." : "Wait cancelled.");
      break;
    case "invite": {
      const link = location.origin + m.link;
      $("invite-box").hidden = false;
      $("invite-code").textContent = m.code;
      $("invite-link").value = link;
      info("Send the link or the code to your opponent.");
      break;
    }
    case "invite_expired":
    case "invite_cancelled":
      $("invite-box").hidden = true;
      info(m.type === "invite_expired" ? "The invite expired." : "Invite cancelled.");
      break;
    case "matched":
      waitingQueue = false;
      $("waiting").hidden = true;
      $("queue").disabled = false;
      $("invite-box").hidden = true;
      if (kind === "local" && game && state && state.status === "playing") toWorker({ type: "local_close", game });
      follow(m.room, "online");
      selectMode("online");
      info(`Matched: you play ${m.color}.`);
      announce(`Game found. You play ${m.color}.`);
      if (location.pathname.startsWith("/join/")) history.replaceState(null, "", "/");
      break;
    case "room_created":
      follow(m.room, "hosted");
      if (pendingRoom) {
        const seat = pendingRoom.color === "black" ? 0 : 1;
        send({ type: "sit", room: m.room, seat });
        send({ type: "add_bot", room: m.room, seat: 1 - seat, level: pendingRoom.level });
        send({ type: "start", room: m.room });
        pendingRoom = null;
      }
      break;
    case "state":
      onState(m);
      break;
    case "error":
      onError(m);
      break;
    default:
      break;
  }
}

function onError(m) {
  if (m.code === "stale_version") { if (game) sendGame({ type: "sync", game }); return; }
  if (m.code === "engine_unavailable") { info(m.message || m.code); return; } // the saved game is kept
  if (m.request === "local_load" || (loadingLocal && m.request === undefined)) {
    // The saved game could not be restored: forget it and show the start choice.
    loadingLocal = false;
    store.local = null;
    if (store.view === "local") store.view = null;
    selectMode(null);
    return;
  }
  if (m.request === "reconnect") { store.token = null; return; }
  if (m.request === "sync" && m.code === "no_such_game") { store.view = null; game = null; return; }
  info(m.message || m.code);
}

// ---------------------------------------------------------------- intentions

function play(i) {
  if (!mayPlay() || !legalOf(i)) return; // a refused click: nothing is sent, nothing sounds
  unlockAudio();
  sendGame({ type: "move", game, square: nameOf(i), version: state.version, rid: ++rid });
}

function timeSpec() {
  const k = $("time").value;
  const secs = +$("secs").value;
  const input = $("total").value.trim();
  if (k === "per_move") return { kind: k, secs };
  if (k === "total") return { kind: k, input };
  if (k === "combined") return { kind: k, secs, input };
  return { kind: "unlimited" };
}

function currentMode() { return document.querySelector('input[name="mode"]:checked').value; }

function inOnlineGame() {
  return state && kind !== "local" && state.status === "playing" && !!myColor();
}

// Online, a game in progress must be resigned before anything else.
function leaveOnline() {
  if (!inOnlineGame()) return true;
  if (!window.confirm("You are in an online game. Resign it?")) return false;
  send({ type: "resign", game });
  return true;
}

function newLocal(boardStr) {
  if (!leaveOnline()) return;
  const mode = boardStr ? (params.get("mode") || "two_players") : currentMode();
  const m = { type: "local_new", mode: mode === "computer" ? "computer" : "two_players", time: timeSpec(), rid: ++rid };
  if (m.mode === "computer") { m.color = $("color").value; m.level = $("level").value; }
  if (boardStr) m.board = boardStr;
  if (state && kind === "local" && state.status === "playing") toWorker({ type: "local_close", game });
  if (kind === "hosted" && game) send({ type: "leave", room: game });
  expectLocal = true;
  toWorker(m);
}

let modeShown = "computer";
function selectMode(mode) {
  if (mode) document.querySelector(`input[name="mode"][value="${mode}"]`).checked = true;
  modeShown = currentMode();
  $("local-setup").hidden = modeShown === "online";
  $("online-setup").hidden = modeShown !== "online";
  document.querySelectorAll(".computer-only").forEach((e) => { e.hidden = modeShown !== "computer"; });
}

document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", () => {
  if (modeShown === "online" && currentMode() !== "online" && inOnlineGame()) {
    if (!leaveOnline()) { selectMode("online"); return; }
  }
  selectMode(null);
  if (currentMode() === "online") connect();
}));

function drawTimeFields() {
  const k = $("time").value;
  document.querySelectorAll(".t-per").forEach((e) => { e.hidden = !(k === "per_move" || k === "combined"); });
  document.querySelectorAll(".t-total").forEach((e) => { e.hidden = !(k === "total" || k === "combined"); });
}
$("time").onchange = drawTimeFields;
drawTimeFields();

$("new").onclick = () => newLocal(null);
$("undo").onclick = () => { if (state && kind === "local") toWorker({ type: "undo", game, version: state.version, rid: ++rid }); };
$("resign").onclick = () => {
  if (!state || state.status !== "playing") return;
  if (kind !== "local" && !window.confirm("Resign this game?")) return;
  sendGame({ type: "resign", game, rid: ++rid });
};
$("show").onchange = () => { localStorage.setItem("reversi.show", $("show").checked ? "1" : "0"); if (state) draw(state, null); };
$("show").checked = localStorage.getItem("reversi.show") !== "0";

$("queue").onclick = () => { if (leaveOnline()) send({ type: "queue", rid: ++rid }); };
$("cancel").onclick = () => send({ type: "cancel_queue", rid: ++rid });
$("invite").onclick = () => { if (leaveOnline()) send({ type: "invite_create", rid: ++rid }); };
$("invite-cancel").onclick = () => send({ type: "invite_cancel", rid: ++rid });
$("join").onclick = () => {
  const code = $("code").value.trim();
  if (code && leaveOnline()) send({ type: "invite_join", code, rid: ++rid });
};
$("copy").onclick = async () => {
  const link = $("invite-link").value;
  try {
    await navigator.clipboard.writeText(link);
  } catch (_) {
    $("invite-link").select();
    document.execCommand("copy");
  }
  info("Invite link copied.");
};
$("room").onclick = () => {
  if (!leaveOnline()) return;
  pendingRoom = { level: $("bot-level").value, color: $("room-color").value };
  send({ type: "room_create", action_secs: 30, rid: ++rid });
};
$("room-start").onclick = () => send({ type: "start", room: game });
$("room-pause").onclick = () => send({ type: "pause", room: game });
$("room-resume").onclick = () => send({ type: "resume", room: game });
$("room-end").onclick = () => send({ type: "end", room: game });
$("room-leave").onclick = () => {
  send({ type: "leave", room: game });
  store.view = null; game = null; state = null; kind = null;
  document.querySelectorAll(".hosted-only").forEach((e) => { e.hidden = true; });
};

// Start: come back to the game shown before a refresh. An online game (or an invite link) opens
// the connection; otherwise the page stays offline and a saved local game is restored.
setConn(null);
startWorker();
const savedLocal = store.local;
if (store.view && store.view !== "local") {
  game = store.view;
  kind = store.view.startsWith("H") ? "hosted" : "online";
  selectMode("online");
  connect();
} else if (joinCode()) {
  selectMode("online");
  connect();
} else if (params.get("board")) {
  selectMode(null);
  newLocal(params.get("board"));
} else if (savedLocal != null) {
  selectMode(null);
  loadingLocal = true;
  expectLocal = true;
  toWorker({ type: "local_load", data: savedLocal, rid: ++rid });
} else {
  selectMode(null);
}
setInterval(() => { if (ws && ws.readyState === 1) ws.send('{"type":"ping"}'); }, 25000);
