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
const debug = (window.reversiDebug = {
  sounds: 0, lowBeeps: 0, refused: 0, flips: [], state: null, engineReady: false, weights: "idle",
  review: null, sw: null,
  // Tests: drop the connection and keep it down until released (a move made meanwhile waits).
  holdConnection(hold) { holdConn = !!hold; if (hold && ws) ws.close(); else if (!hold) connect(); },
});
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
let holdConn = false;   // tests: no reconnection while set
let pendingMove = null; // {i, square, version}: a move sent and not yet answered
let reviewing = false;  // the board shows the review, not the game
const playedAs = new Map(); // "game:game_no" -> the colour this person played in it (null: watched)

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

// Stops the flips of the state drawn before: its timers, and its running half-turns, whose end
// would otherwise paint a disc in the colour of that older state after a newer one was drawn.
let flipAnims = [];
function clearTimers() {
  for (const t of timers) clearTimeout(t);
  timers = [];
  for (const a of flipAnims) { try { a.onfinish = null; a.cancel(); } catch (_) { /* gone */ } }
  flipAnims = [];
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
        flipAnims.push(half);
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
  // A spectator has nothing to resign.
  $("resign").hidden = kind !== "local" && !myColor() && s.status !== "none";
  $("hint").hidden = kind !== "local";
  $("hint").disabled = !(kind === "local" && canPlay && (s.legal || []).length > 0);
  if (hintsFor && hintsFor !== hintKey(s)) { hintsFor = null; $("hints-box").hidden = true; }
  $("start").hidden = true;
  drawRoom(s);
  foldSetup(s);
  // Online: say when the opponent has lost the connection (they have a grace period).
  if (kind !== "local" && s.status === "playing") {
    const gone = (s.seats || []).find((x) => x.kind === "person" && x.player !== player && x.connected === false);
    const note = gone ? `The ${gone.color} player lost the connection and has a minute to come back.` : "";
    if (note || /lost the connection/.test($("info").textContent)) info(note);
  }
  clockBase = { at: performance.now(), s };
  tickClocks();
  if (reviewing) drawReview(false);
}

// The set-up folds away when a game starts on a phone, and in an online game or a room on any
// screen, out of the way of the room's panel (it can be opened again).
let foldedFor = null;
function foldSetup(s) {
  if (!window.matchMedia("(max-width: 600px)").matches && kind === "local") return;
  const live = s.status === "playing" || s.status === "paused";
  const key = `${s.game}:${s.game_no || 0}`;
  if (live && foldedFor !== key) { foldedFor = key; $("setup-box").open = false; }
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
    if (s.to_move === s.human) return `Your move (${s.to_move}).`;
    if (s.level === "expert" && weights.status !== "ready") {
      const pct = weightsPercent();
      return weights.status === "failed" ? "Expert cannot play: its evaluation could not be loaded."
        : `Expert is loading its evaluation${pct === null ? "…" : ` (${pct} %)…`}`;
    }
    return "The computer is thinking…";
  }
  if (kind !== "local") {
    const me = myColor();
    if (!me) return `${cap(s.to_move)} to move.`;
    return me === s.to_move ? `Your move (${me}).` : `Opponent's move (${s.to_move}).`;
  }
  return `${cap(s.to_move)} to move.`;
}

// ---------------------------------------------------------------- hosted rooms

const isRoomId = (t) => /^H[0-9a-f]{12}$/i.test(t);

// A code, a room id, or a link to either: the part after "/join/" (or the text itself).
function codeOf(text) {
  const t = String(text || "").trim();
  const m = t.match(/\/join\/([^/?#\s]+)/);
  return m ? decodeURIComponent(m[1]) : t;
}

function personName(id, s) {
  if (id == null) return "nobody";
  const you = id === player ? "You" : `Player ${id}`;
  return s && s.host === id ? `${you} (host)` : you;
}

// "disconnected (may return until 14:21:33)": the disconnection grace of a member.
function away(id, s) {
  const m = (s.members || []).find((x) => x.player === id);
  const until = m && m.grace_until ? ` (may return until ${new Date(m.grace_until).toLocaleTimeString()})` : "";
  return `disconnected${until}`;
}

function seatText(seat, i, s) {
  const color = cap(seat.color || (i === 0 ? "black" : "white"));
  let who;
  if (seat.kind === "person") who = `${personName(seat.player, s)}, ${seat.connected === false ? away(seat.player, s) : "connected"}`;
  else if (seat.kind === "bot") {
    who = `Bot (${cap(seat.level)})`;
    if (s.bot_leaving) who += ", leaves at the result";
    if (s.reservation != null) who += `; ${s.reservation === player ? "you take" : personName(s.reservation, s) + " takes"} this seat at the result`;
  } else who = "empty";
  return `${color}: ${who}`;
}

function actionLimitSecs(s) {
  const ms = s.action_limit_ms != null ? s.action_limit_ms
    : (s.clock && s.clock.control && s.clock.control.limit) || (pendingRoom && pendingRoom.secs * 1000) || null;
  return ms ? Math.round(ms / 1000) : null;
}

function roomStatusText(s) {
  if (s.status === "closed") return "The room has closed.";
  if (s.status === "paused") return s.paused === "nobody_connected" ? "Paused: nobody is connected." : "Paused by the host.";
  if (s.status === "playing") return `Game ${s.game_no} in progress.`;
  if (s.status === "over") return resultText(s).replace(/^Game over: /, "Last game: ");
  return "No game yet: the host starts one when both seats are filled.";
}

// Shows a room button when the person can use it now; otherwise hides it and says why in the
// "Why not other actions?" list (out of the way, opened on demand).
function setAct(id, enabled, why) {
  const b = $(id);
  const w = $("why-" + id);
  b.disabled = !enabled;
  b.hidden = !enabled;
  w.hidden = enabled || !why;
  w.textContent = enabled ? "" : `${b.textContent}: ${why}.`;
}

function drawRoom(s) {
  const panel = $("room-panel");
  panel.hidden = kind !== "hosted";
  if (kind !== "hosted") return;
  const seats = s.seats || [];
  const mySeat = seats.findIndex((x) => x.kind === "person" && x.player === player);
  const seated = mySeat >= 0;
  const inGame = s.status === "playing" || s.status === "paused";
  const botSeat = seats.findIndex((x) => x.kind === "bot");
  const host = s.host != null && s.host === player;
  $("room-id").textContent = `Room ${s.room}`;
  $("room-link").value = `${location.origin}/join/${s.room}`;
  const secs = actionLimitSecs(s);
  $("room-facts").textContent = `${secs ? secs + " s per move. " : ""}${roomStatusText(s)}`;
  const list = $("room-seats");
  list.innerHTML = "";
  seats.forEach((seat, i) => {
    const li = document.createElement("li");
    li.textContent = seatText(seat, i, s);
    list.appendChild(li);
  });
  const people = (s.members || []).map((m) => `${personName(m.player, s)}${m.connected ? "" : `, ${away(m.player, s)}`}`);
  $("room-people").textContent = people.length ? `In the room: ${people.join(", ")}.` : "";

  const seatWhy = (i) => {
    const x = seats[i];
    if (seated) return `you sit as ${seats[mySeat].color}`;
    if (!x) return "no such seat";
    if (x.kind === "bot") return "the bot sits there";
    if (x.kind === "person") return `${personName(x.player, s)} sits there`;
    return "";
  };
  setAct("sit-black", !seated && seats[0] && seats[0].kind === "empty", seatWhy(0));
  setAct("sit-white", !seated && seats[1] && seats[1].kind === "empty", seatWhy(1));
  setAct("stand", seated, "you are not seated");
  let reserveWhy = "";
  if (seated) reserveWhy = "you are seated already";
  else if (botSeat < 0) reserveWhy = "there is no bot";
  else if (!inGame) reserveWhy = "only during a game: between games, sit down instead";
  else if (s.reservation === player) reserveWhy = "reserved: you take the bot's seat at the result";
  else if (s.reservation != null) reserveWhy = `${personName(s.reservation, s)} reserved it`;
  else if (s.bot_leaving) reserveWhy = "the bot leaves at the result: sit down then";
  setAct("reserve", !reserveWhy, reserveWhy);
  setAct("room-leave", s.status !== "closed", "the room has closed");

  $("host-actions").hidden = !host;
  $("bot-actions").hidden = !host;
  $("host-note").hidden = host;
  $("host-note").textContent = host ? "" : `Only the host (${personName(s.host, null)}) can start, pause, resume or end a game and choose the bot.`;
  if (!host) {
    for (const id of ["room-start", "room-pause", "room-resume", "room-end", "bot-add", "bot-level-set", "bot-remove"]) $("why-" + id).hidden = true;
    $("why-box").hidden = !$("why-list").querySelector("li:not([hidden])");
    return;
  }
  const hostSeatWhy = seated ? "" : "sit down first: the host plays in the games";
  let startWhy = hostSeatWhy;
  if (!startWhy && inGame) startWhy = "a game is in progress";
  if (!startWhy && seats.some((x) => x.kind === "empty")) startWhy = "both seats must be filled";
  setAct("room-start", !startWhy, startWhy);
  setAct("room-pause", seated && s.status === "playing", hostSeatWhy || (s.status === "paused" ? "already paused" : "no game in progress"));
  setAct("room-resume", seated && s.status === "paused", hostSeatWhy || "the game is not paused");
  setAct("room-end", seated && inGame, hostSeatWhy || "no game in progress");
  const empty = seats.findIndex((x) => x.kind === "empty");
  setAct("bot-add", botSeat < 0 && empty >= 0, botSeat >= 0 ? "there is a bot already" : "no empty seat");
  const level = botSeat >= 0 ? seats[botSeat].level : null;
  let levelWhy = "";
  if (botSeat < 0) levelWhy = "there is no bot";
  else if (inGame) levelWhy = "between games only";
  else if ($("room-bot-level").value === level) levelWhy = `it plays ${cap(level)}: choose another level`;
  setAct("bot-level-set", !levelWhy, levelWhy);
  let removeWhy = "";
  if (botSeat < 0) removeWhy = "there is no bot";
  else if (s.bot_leaving) removeWhy = "it leaves at the result";
  setAct("bot-remove", !removeWhy, removeWhy);
  // The level choice goes with a bot to add or to change.
  $("room-bot-level").closest("label").hidden = $("bot-add").hidden && $("bot-level-set").hidden && (botSeat < 0 || inGame);
  $("why-box").hidden = !$("why-list").querySelector("li:not([hidden])");
}

function leftText(inGame) {
  return inGame ? "You left the room during your game: you lost it by abandonment." : "You left the room.";
}

function roomSend(type, extra = {}) {
  if (kind !== "hosted" || !game) return;
  send({ type, room: game, ...extra, rid: ++rid });
}

// Whether this person's leaving now abandons a game (they are seated in one).
function seatedInGame() {
  return kind === "hosted" && state && (state.status === "playing" || state.status === "paused") && !!myColor();
}

function joinRoom(id) {
  if (!(kind === "hosted" && game === id) && !leaveCurrent()) return;
  closeLocal();
  follow(id, "hosted");
  selectMode("online");
  info(`Joining room ${id}…`);
  send({ type: "room_join", room: id, rid: ++rid });
}

// Stops showing the game (after leaving it): the start choice comes back.
function forget() {
  if (location.pathname.startsWith("/join/")) history.replaceState(null, "", "/");
  clearPending();
  if (reviewing) closeReview(false);
  $("review-again").hidden = true;
  store.view = null;
  game = null;
  state = null;
  kind = null;
  clockBase = null;
  $("room-panel").hidden = true;
  hideResult();
  showStart();
}

// ---------------------------------------------------------------- the start choice, the result

// With no game, the board shows the starting position under the start choice, never an empty
// board with wrong counts.
function showStart() {
  const start = "-".repeat(27) + "OX" + "-".repeat(6) + "XO" + "-".repeat(27);
  draw({ board: start, legal: [], squares: null, count: { black: 2, white: 2 }, status: "none", version: 0, history: [] }, null);
  $("turn").textContent = "";
  $("start").hidden = false;
  $("undo").disabled = true;
  $("hint").disabled = true;
  $("resign").disabled = true;
  $("setup-box").open = true;
}

let resultShownFor = null;
function showResult(s) {
  const r = s.result;
  const key = `${s.game}:${s.game_no || 0}`;
  // The colour played in this game (not the seat held now: a reservation seats its holder at the
  // result).
  const me = kind === "local" ? myColor() : playedAs.has(key) ? playedAs.get(key) : myColor();
  const seatedNow = kind !== "local" ? myColor() : null;
  let title;
  if (!r || !r.winner) title = "No winner";
  else if (kind === "local" && s.mode === "computer") title = r.winner === s.human ? "You win" : "The computer wins";
  else if (kind !== "local" && me) title = r.winner === me ? `You win (${r.winner})` : `You lose: ${cap(r.winner)} wins`;
  else title = `${cap(r.winner)} wins`;
  $("result-title").textContent = title;
  $("result-text").textContent = resultText(s).replace(/^Game over: /, "");
  let note = "";
  if (kind !== "local" && !me) {
    note = seatedNow ? `You watched this game; you now sit as ${seatedNow} for the next one.` : "You watched this game.";
  }
  $("result-note").textContent = note;
  const hostSeated = kind === "hosted" && s.host === player && !!seatedNow;
  $("again").hidden = !(kind === "local" || hostSeated);
  $("again").textContent = kind === "local" ? "Play again" : "Start the next game";
  $("rematch").hidden = !(kind === "online" && me);
  $("rematch").disabled = false;
  $("rematch").textContent = "Offer a rematch";
  $("rematch-note").textContent = "";
  $("review-open").hidden = !(s.history || []).length;
  $("review-again").hidden = true;
  $("result").hidden = false;
  resultShownFor = key;
  const first = [...$("result").querySelectorAll("button")].find((b) => !b.hidden);
  if (first) first.focus();
}

function focusBoard() {
  const a = document.activeElement;
  if (a && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName) && a.offsetParent !== null) return;
  // The board is at the top of the page: bring it all into view, then focus its square.
  window.scrollTo(0, 0);
  cells[focusIdx].focus({ preventScroll: true });
}

function hideResult() {
  $("result").hidden = true;
  // The review stays one click away once the result is closed.
  $("review-again").hidden = !(state && (state.status === "over" || state.status === "closed")) || reviewing;
}

// A finished local game again, same settings, colours swapped against the computer.
function playAgain() {
  if (!state) return;
  if (kind === "hosted") { roomSend("start"); hideResult(); return; }
  if (kind !== "local") return;
  hideResult();
  if (state.mode === "computer") {
    $("color").value = state.human === "black" ? "white" : "black";
    if (state.level) $("level").value = state.level;
  }
  newLocal(null, state.mode);
}

// ---------------------------------------------------------------- hints (local games)

let hintsFor = null;
const hintKey = (s) => `${s.game}:${s.version}`;

function askHints() {
  if (!state || kind !== "local" || !mayPlay()) return;
  hintsFor = hintKey(state);
  $("hints").innerHTML = "";
  $("hints-unit").textContent = "Thinking…";
  $("hints-box").hidden = false;
  // Hints are in discs with Expert's evaluation: fetched first if need be.
  needWeights();
  if (weights.status === "loading") {
    const key = hintsFor;
    afterWeights.push(() => { if (hintsFor === key && state && hintKey(state) === key) askHints(); });
    drawWeights();
    return;
  }
  toWorker({ type: "hints", board: `${state.board} ${state.to_move === "black" ? "X" : "O"}`, rid: hintsFor });
}

function onHints(m) {
  if (!state || m.rid !== hintsFor || hintsFor !== hintKey(state)) return;
  const list = $("hints");
  list.innerHTML = "";
  const exact = m.moves.length > 0 && m.moves.every((x) => x.exact);
  const discs = m.unit === "discs";
  for (const h of m.moves) {
    const li = document.createElement("li");
    // Without Expert's evaluation a midgame score is not in discs: the order alone is shown.
    li.textContent = h.exact ? `${h.square}: ${signed(h.score)} discs (exact)`
      : discs ? `${h.square}: ${signed(h.score)} estimated discs` : h.square;
    list.appendChild(li);
  }
  $("hints-unit").textContent = exact
    ? "Scores for the side to move: the final disc difference with perfect play."
    : discs
      ? "Scores for the side to move, in estimated discs: the final disc difference the engine expects (higher is better)."
      : "Best first, by the Hard level's evaluation (Expert's evaluation, which scores in discs, is not available).";
  announce(m.moves.length ? `Best move: ${m.moves[0].square}.` : "No move to score.");
}

// A disc margin, signed, never beyond 64 either way.
function discs(n) { return Math.max(-64, Math.min(64, Math.round(n))); }
function signed(n) { const d = discs(n); return d > 0 ? `+${d}` : String(d); }

// ---------------------------------------------------------------- the review of a finished game

// Steps through a finished game's positions (buttons, arrow keys; the position said in words)
// beside a graph of Expert's evaluation after each move, in discs for black (exact from 14
// empties), which the worker computes (never the server).
let review = null;
const SVG = "http://www.w3.org/2000/svg";
const reviewKey = (s) => `${s.game}:${s.game_no || 0}:${(s.history || []).length}`;

function openReview() {
  if (!state || !(state.status === "over" || state.status === "closed") || !(state.history || []).length) return;
  const key = reviewKey(state);
  if (!review || review.key !== key) {
    const moves = state.history.map((x) => x.move);
    review = {
      key, game: state.game, history: state.history.slice(), boards: null, scores: [], exact: [],
      idx: null, rid: ++rid, done: 0, total: moves.length + 1, finished: false, error: "", swings: [],
    };
    const m = { type: "review", rid: review.rid, moves };
    const start = localStart(state.game);
    if (kind === "local" && start) m.board = start;
    needWeights();
    toWorker(m);
  }
  reviewing = true;
  debug.review = { open: true, done: review.done, total: review.total, finished: review.finished };
  hideResult();
  $("review").hidden = false;
  $("review-again").hidden = true;
  drawReview();
  $("rv-prev").focus();
}

function closeReview(redraw = true) {
  reviewing = false;
  clearRefused();
  if (debug.review) debug.review.open = false;
  $("review").hidden = true;
  board.classList.remove("reviewing");
  delete board.dataset.review;
  if (redraw && state) {
    draw(state, null);
    const over = state.status === "over" || state.status === "closed";
    $("review-again").hidden = !over;
    // Back to the result (a rematch, the next game), or to the board.
    if (over && state.result) showResult(state);
    else focusBoard();
  }
}

function onReview(m) {
  if (!review || m.rid !== review.rid) return;
  if (m.type === "review_boards") {
    review.boards = m.boards;
    review.total = m.boards.length;
    if (review.idx === null) review.idx = m.boards.length - 1;
  } else if (m.type === "review_eval") {
    review.scores[m.i] = m.score == null ? null : discs(m.score);
    review.exact[m.i] = !!m.exact;
    review.done = m.done;
    if (m.note) review.note = m.note;
  } else if (m.type === "review_done") {
    review.finished = true;
    review.swings = swings();
  } else {
    review.error = m.message || "The review could not be made.";
    review.finished = true;
  }
  debug.review = { open: reviewing, done: review.done, total: review.total, finished: review.finished, scores: review.scores.slice(), exact: review.exact.slice(), swings: review.swings, idx: review.idx };
  if (reviewing) drawReview(m.type !== "review_eval");
}

// The three biggest swings of each side: the moves after which the evaluation moved most against
// (or for) the side that played them.
function swings() {
  const out = [];
  for (const color of ["black", "white"]) {
    const list = [];
    review.history.forEach((h, k) => {
      const a = review.scores[k];
      const b = review.scores[k + 1];
      if (h.color !== color || h.move === "pass" || a == null || b == null) return;
      const d = (b - a) * (color === "black" ? 1 : -1);
      if (d !== 0) list.push({ color, move: k + 1, square: h.move, delta: d });
    });
    list.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.move - y.move);
    out.push(...list.slice(0, 3));
  }
  return out;
}

function goReview(i) {
  if (!review || !review.boards) return;
  review.idx = Math.max(0, Math.min(review.boards.length - 1, i));
  if (debug.review) debug.review.idx = review.idx;
  drawReview(false);
}

function colorName(ch) { return ch === "X" ? "black" : ch === "O" ? "white" : "empty"; }

function positionText(i) {
  const b = review.boards[i];
  const n = review.boards.length - 1;
  const black = [...b.slice(0, 64)].filter((c) => c === "X").length;
  const white = [...b.slice(0, 64)].filter((c) => c === "O").length;
  const head = i === 0 ? `Start of the game (${n} moves).` : (() => {
    const h = review.history[i - 1];
    return `Move ${i} of ${n}: ${h.color} ${h.move === "pass" ? "passed" : `played ${h.move}`}.`;
  })();
  const sc = review.scores[i];
  const ev = sc == null ? "" : ` Evaluation: ${sc === 0 ? "even" : `${sc > 0 ? "black" : "white"} ahead by ${Math.abs(sc)}`}${review.exact[i] ? " (exact)" : ""}.`;
  return `${head} Black ${black}, white ${white}.${ev}`;
}

function drawReviewProgress() {
  const busy = !review.finished;
  $("rv-progress").hidden = !busy;
  if (!busy) return;
  debug.reviewProgressShown = true;
  if (weights.status === "loading" && review.done === 0) {
    const pct = weightsPercent();
    $("rv-bar-label").textContent = `Loading Expert's evaluation${pct === null ? "…" : `: ${pct} %`}`;
    if (pct === null) $("rv-bar").removeAttribute("value"); else $("rv-bar").value = pct / 100;
  } else {
    $("rv-bar-label").textContent = `Analysing the game: ${review.done} of ${review.total} positions`;
    $("rv-bar").value = review.total ? review.done / review.total : 0;
  }
}

function drawReview(full = true) {
  if (!review) return;
  drawReviewProgress();
  const ready = !!review.boards;
  for (const id of ["rv-first", "rv-prev", "rv-next", "rv-last"]) $(id).disabled = !ready;
  if (!ready) { $("rv-pos").textContent = review.error || "Replaying the game…"; return; }
  const i = review.idx;
  const last = review.boards.length - 1;
  $("rv-first").disabled = $("rv-prev").disabled = i === 0;
  $("rv-next").disabled = $("rv-last").disabled = i === last;
  // The board shows the position.
  clearTimers();
  const b = review.boards[i];
  board.classList.add("reviewing");
  board.dataset.review = String(i);
  const h = i > 0 ? review.history[i - 1] : null;
  for (let k = 0; k < 64; k++) {
    setDisc(k, b[k]);
    const c = cells[k];
    c.classList.remove("legal", "preview", "will-flip", "pending", "refused");
    c.classList.toggle("last", !!(h && h.move === nameOf(k)));
    c.setAttribute("aria-label", `${nameOf(k)}, ${colorName(b[k])}${h && h.move === nameOf(k) ? ", last move" : ""}`);
  }
  shownBoard = b.slice(0, 64);
  $("count-black").textContent = [...shownBoard].filter((c) => c === "X").length;
  $("count-white").textContent = [...shownBoard].filter((c) => c === "O").length;
  $("side-black").classList.toggle("to-move", false);
  $("side-white").classList.toggle("to-move", false);
  $("turn").textContent = i === 0 ? "Review: the start" : `Review: move ${i} of ${last}`;
  $("rv-pos").textContent = review.error ? `${positionText(i)} ${review.error}` : positionText(i);
  drawGraph();
  if (full) drawSwings();
}

function drawGraph() {
  const svg = $("rv-graph");
  [...svg.querySelectorAll("g")].forEach((g) => g.remove());
  const W = 600, H = 200, L = 34, R = 8, T = 10, B = 18;
  const n = review.boards ? review.boards.length - 1 : review.total - 1;
  const known = review.scores.filter((x) => x != null);
  const top = Math.min(64, Math.max(8, Math.ceil(Math.max(0, ...known.map(Math.abs)) / 8) * 8));
  const x = (i) => L + (n ? (i * (W - L - R)) / n : 0);
  const y = (v) => T + ((top - v) * (H - T - B)) / (2 * top);
  const g = document.createElementNS(SVG, "g");
  const el = (name, attrs, text) => {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text != null) e.textContent = text;
    g.appendChild(e);
    return e;
  };
  el("rect", { x: L, y: T, width: W - L - R, height: (H - T - B) / 2, fill: "#f1f1f1" });
  el("rect", { x: L, y: y(0), width: W - L - R, height: (H - T - B) / 2, fill: "#dcdcdc" });
  el("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#555", "stroke-width": 1 });
  el("text", { x: L - 4, y: y(top) + 10, "text-anchor": "end", "font-size": 12, fill: "#222" }, `+${top}`);
  el("text", { x: L - 4, y: y(0) + 4, "text-anchor": "end", "font-size": 12, fill: "#222" }, "0");
  el("text", { x: L - 4, y: y(-top), "text-anchor": "end", "font-size": 12, fill: "#222" }, `−${top}`);
  el("text", { x: L + 4, y: T + 12, "font-size": 11, fill: "#333" }, "black ahead");
  el("text", { x: L + 4, y: H - B - 4, "font-size": 11, fill: "#333" }, "white ahead");
  el("text", { x: W - R, y: H - 4, "text-anchor": "end", "font-size": 11, fill: "#333" }, `move ${n}`);
  el("text", { x: L, y: H - 4, "font-size": 11, fill: "#333" }, "start");
  // The evaluation: a line through the known points (a gap where one is missing).
  let path = "";
  let pen = false;
  for (let i = 0; i <= n; i++) {
    const v = review.scores[i];
    if (v == null) { pen = false; continue; }
    path += `${pen ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)} `;
    pen = true;
  }
  if (path) el("path", { d: path, fill: "none", stroke: "#3d3a8a", "stroke-width": 2.5 });
  // Exact scores drawn as small squares.
  for (let i = 0; i <= n; i++) {
    if (review.scores[i] != null && review.exact[i]) el("rect", { x: x(i) - 2, y: y(review.scores[i]) - 2, width: 4, height: 4, fill: "#3d3a8a" });
  }
  // The swings: a ring in the colour of the side that played.
  for (const sw of review.swings) {
    const v = review.scores[sw.move];
    if (v == null) continue;
    const c = el("circle", { cx: x(sw.move), cy: y(v), r: 7, fill: sw.color === "black" ? "#111" : "#fff", stroke: sw.color === "black" ? "#fff" : "#111", "stroke-width": 2, class: "swing", "data-move": sw.move });
    const t = document.createElementNS(SVG, "title");
    t.textContent = `${cap(sw.color)}'s move ${sw.move} (${sw.square}): ${signed(sw.delta)} for ${sw.color}`;
    c.appendChild(t);
  }
  // Where the board is.
  if (review.idx != null) el("line", { x1: x(review.idx), x2: x(review.idx), y1: T, y2: H - B, stroke: "#c0392b", "stroke-width": 2, "stroke-dasharray": "4 3" });
  svg.appendChild(g);
  const fin = review.scores[n];
  $("rv-graph-desc").textContent = known.length
    ? `Expert's evaluation for black after each move, from ${signed(Math.min(...known))} to ${signed(Math.max(...known))} discs${fin != null ? `; final ${signed(fin)}` : ""}. Click a point to see that position.`
    : "Not computed yet.";
}

function drawSwings() {
  const box = $("rv-swings");
  box.innerHTML = "";
  const note = review.error || review.note || "";
  $("rv-note").textContent = note || (review.finished ? "Evaluation in discs for black (positive: black ahead); exact from 14 empties, marked by squares." : "");
  if (!review.finished || !review.swings.length) return;
  for (const color of ["black", "white"]) {
    const list = review.swings.filter((x) => x.color === color);
    if (!list.length) continue;
    const h = document.createElement("h3");
    h.textContent = `${cap(color)}'s biggest swings`;
    const ul = document.createElement("ul");
    for (const sw of list) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.textContent = `Move ${sw.move}, ${sw.square}: ${signed(sw.delta)}`;
      b.addEventListener("click", () => goReview(sw.move));
      li.appendChild(b);
      ul.appendChild(li);
    }
    box.append(h, ul);
  }
}

$("rv-first").onclick = () => goReview(0);
$("rv-prev").onclick = () => goReview(review.idx - 1);
$("rv-next").onclick = () => goReview(review.idx + 1);
$("rv-last").onclick = () => goReview(Infinity);
$("rv-close").onclick = () => closeReview(true);
$("review-open").onclick = openReview;
$("review-again").onclick = openReview;
// Arrow keys step through the review from its panel (or with the focus nowhere in particular: a
// button at an end of the game goes disabled and drops the focus).
document.addEventListener("keydown", (e) => {
  if (!reviewing || !review || !review.boards || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  if (!(t === document.body || $("review").contains(t))) return;
  if (/^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) return;
  const to = { ArrowLeft: review.idx - 1, ArrowRight: review.idx + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goReview(to);
});
$("rv-graph").addEventListener("click", (e) => {
  if (!review || !review.boards) return;
  const r = $("rv-graph").getBoundingClientRect();
  const vx = ((e.clientX - r.left) / r.width) * 600;
  const n = review.boards.length - 1;
  goReview(Math.round(((vx - 34) / (600 - 34 - 8)) * n));
});

// The board a local game started from, when not the usual start (tests, `?board=`).
function localStart(id) {
  try {
    const v = JSON.parse(localStorage.getItem("reversi.start") || "null");
    return v && v.game === id ? v.board : null;
  } catch (_) { return null; }
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
    // Low time: 10 s and less on the running clock, shown on its side and, with the sound on,
    // heard once a second on the clock of the person at this screen.
    const low = ms <= 10000 && c.running === side && !c.paused && s.status === "playing";
    el.classList.toggle("low", low);
    $("side-" + side).classList.toggle("low-time", low);
    if (low && !reviewing && isMine(side, s)) {
      const left = Math.max(0, Math.ceil(ms / 1000));
      const k = `${s.game}:${s.version}:${side}:${left}`;
      if (k !== lastLowTick) {
        if (!lastLowTick || !lastLowTick.startsWith(`${s.game}:${s.version}:${side}:`)) announce(`${cap(side)}: ${left} seconds left.`);
        lastLowTick = k;
        lowSound(left);
      }
    }
  }
}

let lastLowTick = null;
// Whether `side` is played by the person at this screen.
function isMine(side, s) {
  if (kind === "local") return s.mode === "two_players" || s.human === side;
  return myColor() === side;
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

// A short high tick for each of the last ten seconds (higher for the last three).
function lowSound(left) {
  if (muted) return;
  debug.lowBeeps++;
  if (!audio) return;
  try {
    const t = audio.currentTime;
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.type = "sine";
    o.frequency.setValueAtTime(left <= 3 ? 1320 : 880, t);
    g.gain.setValueAtTime(0.0001, t);
    g.gain.exponentialRampToValueAtTime(0.25, t + 0.005);
    g.gain.exponentialRampToValueAtTime(0.0001, t + 0.08);
    o.connect(g).connect(audio.destination);
    o.start(t);
    o.stop(t + 0.09);
  } catch (_) { /* no sound then */ }
}

// A toggle button: its name stays "Sound", pressed while the sound is on.
function drawMute() {
  $("mute").setAttribute("aria-pressed", String(!muted));
  $("mute").textContent = "Sound";
  $("mute").title = muted ? "Sound is off" : "Sound is on";
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

// The status line. It holds while it is true: a line about a game goes when that game ends or
// another is shown, or when `until(state, prev)` says so.
let infoFor = null;
function info(text, until) {
  $("info").textContent = text || "";
  infoFor = text ? { game, until: until || null } : null;
}
function expireInfo(s, prev) {
  if (!infoFor) return;
  const ended = (s.status === "over" || s.status === "closed") && !(prev && (prev.status === "over" || prev.status === "closed"));
  if ((infoFor.game && s.game !== infoFor.game) || ended || (infoFor.until && infoFor.until(s, prev))) info("");
}

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
    if (m.type === "weights") { showWeights(m); return; }
    if (m.type === "saved") { store.local = m.data; return; }
    if (m.type === "review_boards" || m.type === "review_eval" || m.type === "review_done" || m.type === "review_error") { onReview(m); return; }
    handle(m);
  };
  worker.onerror = (e) => { info(`The game engine stopped (${e.message || "error"}).`); };
}

// The Expert level's weights (5 MB), which the worker fetches when Expert, hints or a review
// first need them ("idle" until then), with progress, and keeps in the browser's cache: "idle",
// "loading", "ready" or "failed" (with the worker's message in plain words).
let weights = { status: "idle", message: "", loaded: 0, total: null };
let afterWeights = [];  // what waits for them (hints)

function needWeights() {
  if (weights.status !== "idle") return;
  weights.status = "loading";
  debug.weights = "loading";
  toWorker({ type: "weights_load" });
  drawWeights();
}

function weightsPercent() {
  return weights.total ? Math.min(100, Math.floor((100 * weights.loaded) / weights.total)) : null;
}

function showWeights(m) {
  if (m.status === "loading" && m.loaded > 0) debug.weightsProgress = (debug.weightsProgress || 0) + 1;
  weights = { status: m.status, message: m.message || "", loaded: m.loaded || 0, total: m.total || null };
  debug.weights = m.status;
  drawWeights();
  if (m.status === "ready" || m.status === "failed") for (const f of afterWeights.splice(0)) f();
}

function drawWeights() {
  const opt = $("level").querySelector('option[value="expert"]');
  opt.disabled = weights.status === "failed";
  opt.textContent = { idle: "Expert (downloads 5 MB once)", loading: "Expert (loading…)", ready: "Expert" }[weights.status] || "Expert (unavailable)";
  const loading = weights.status === "loading";
  $("expert-load").hidden = !loading;
  const pct = weightsPercent();
  if (loading) {
    if (pct === null) $("expert-bar").removeAttribute("value");
    else $("expert-bar").value = pct / 100;
  }
  $("expert-note").textContent = weights.status === "failed" ? weights.message
    : loading ? `Downloading Expert's evaluation${pct === null ? "…" : `: ${pct} %`}` : "";
  if (weights.status === "failed" && $("level").value === "expert") $("level").value = "hard";
  if (state && kind === "local" && !reviewing) $("turn").textContent = turnText(state);
  if (!$("hints-box").hidden && hintsFor && loading) $("hints-unit").textContent = `Loading Expert's evaluation for the hints${pct === null ? "…" : `: ${pct} %`}`;
  if (review && !review.done && loading) drawReviewProgress();
}
$("level").addEventListener("change", () => { if ($("level").value === "expert") needWeights(); });

// Why a game against Expert cannot start now ("" when it can: while the weights load, the game
// starts and Expert moves once they are in).
function expertWhy() {
  return weights.status === "failed" ? weights.message : "";
}

function toWorker(m) {
  if (!worker) { info("Local games need a browser with module Web Workers."); return false; }
  worker.postMessage(m);
  return true;
}

// ---------------------------------------------------------------- online games: the connection

function connect() {
  if (ws || holdConn) return;
  setConn("connecting", "Connecting…");
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { retry = 0; };
  ws.onclose = () => {
    ws = null;
    welcome = null;
    const wait = Math.min(5000, 500 * 2 ** retry++);
    if (holdConn) { setConn("offline", "Disconnected."); return; }
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
  drawPending();
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
  if (code && isRoomId(code) && game !== code) joinRoom(code);
  else if (code && isRoomId(code)) send({ type: "room_join", room: code, rid: ++rid });
  else if (code && (!game || kind === "local")) { selectMode("online"); send({ type: "invite_join", code }); }
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
  const live = m.status === "playing" || m.status === "paused";
  const wasLiveGame = prev && (prev.status === "playing" || prev.status === "paused") && (prev.game_no || 0) === (m.game_no || 0);
  const started = m.status === "playing" && !wasLiveGame;
  // Who this person is in the game: fixed while it is played, so that a seat taken at the result
  // (a reservation) does not make a spectator its winner.
  if (live) playedAs.set(`${m.game}:${m.game_no || 0}`, myColor());
  if (pendingMove && pendingMove.queued) sendQueuedMove(m);
  else if (pendingMove && (!prev || m.version !== prev.version)) clearPending();
  if (!prev || m.version !== prev.version) clearRefused();
  if (reviewing && (live || (review && review.game !== m.game))) closeReview(false);
  expireInfo(m, prev);
  if (m.kind === "local" && m.level === "expert") needWeights();
  // A hosted room's link stays in the address bar while the person is in it.
  if (m.kind === "hosted" && m.room && location.pathname !== `/join/${m.room}`) history.replaceState(null, "", `/join/${m.room}`);
  // Animate and sound a placement that follows the state shown by one move.
  let animate = null;
  if (prev && m.last && prev.board && placements(m) === placements(prev) + 1) animate = m.last;
  draw(m, animate);
  if (animate) discSound();
  // The result dialog, when the end is seen happening.
  const over = (m.status === "over" || m.status === "closed") && m.result;
  const wasLive = prev && (prev.status === "playing" || prev.status === "paused");
  if (over && wasLive && resultShownFor !== `${m.game}:${m.game_no || 0}`) showResult(m);
  if (m.status === "playing") hideResult();
  $("review-again").hidden = !(m.status === "over" || m.status === "closed") || reviewing || !$("result").hidden;
  // A game this person plays starts: the focus goes to the board (not a button that went away).
  if (started && (kind === "local" || myColor())) focusBoard();
  if (m.kind === "hosted" && !prev && /^Joining room/.test($("info").textContent)) info("");
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
      try {
        if (pendingStart) localStorage.setItem("reversi.start", JSON.stringify({ game: m.game, board: pendingStart }));
        else localStorage.removeItem("reversi.start");
      } catch (_) { /* not kept */ }
      pendingStart = null;
      follow(m.game, "local");
      selectMode(null);
      info("");
      break;
    case "local_closed":
      break;
    case "hints":
      onHints(m);
      break;
    case "rematch_waiting":
      if (m.room === game) {
        $("rematch").disabled = true;
        $("rematch-note").textContent = "Rematch offered: waiting for your opponent to accept.";
      }
      break;
    case "rematch_offered":
      if (m.room === game && state) {
        if ($("result").hidden) showResult(state);
        $("rematch").textContent = "Accept the rematch";
        $("rematch").disabled = false;
        $("rematch-note").textContent = "Your opponent offers a rematch.";
        announce("Your opponent offers a rematch.");
      }
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
      hideResult();
      selectMode("online");
      info(`Matched: you play ${m.color}.`);
      announce(`Game found. You play ${m.color}.`);
      if (location.pathname.startsWith("/join/")) history.replaceState(null, "", "/");
      break;
    case "room_created":
      follow(m.room, "hosted");
      selectMode("online");
      info("Room created: share its link (also in the address bar).", (s) => (s.members || []).length > 1);
      if (pendingRoom) {
        const seat = pendingRoom.color === "black" ? 0 : 1;
        send({ type: "sit", room: m.room, seat });
        send({ type: "add_bot", room: m.room, seat: 1 - seat, level: pendingRoom.level });
        send({ type: "start", room: m.room });
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
  if (m.code === "stale_version") { clearPending(); if (game) sendGame({ type: "sync", game }); return; }
  if (m.code === "engine_unavailable") { info(m.message || m.code); return; } // the saved game is kept
  if (m.request === "local_load" || (loadingLocal && m.request === undefined)) {
    // The saved game could not be restored: forget it and show the start choice.
    loadingLocal = false;
    store.local = null;
    if (store.view === "local") store.view = null;
    selectMode(null);
    showStart();
    return;
  }
  if (m.request === "reconnect") { store.token = null; return; }
  if (m.request === "room_join" && m.code === "already_in_room") { if (game) send({ type: "sync", game }); info(""); return; }
  if ((m.request === "sync" || m.request === "room_join") && (m.code === "no_such_game" || m.code === "room_closed")) {
    forget();
    info(PLAIN[m.code] || m.message);
    return;
  }
  if (m.request === "invite_join" && location.pathname.startsWith("/join/")) history.replaceState(null, "", "/");
  if (m.request === "move" || m.request === "undo") {
    const i = pendingMove ? pendingMove.i : null;
    clearPending();
    if (m.request === "move") { refuse(i, PLAIN[m.code] || m.message || m.code); return; }
  }
  if (m.request === "rematch" && !$("result").hidden) {
    $("rematch").disabled = true;
    $("rematch-note").textContent = PLAIN[m.code] || m.message;
    return;
  }
  info(PLAIN[m.code] || m.message || m.code);
}

// Refusals said in plain words (the server's messages are precise but technical).
const PLAIN = {
  invite_full: "This invite link has already been used: its game has both players. Ask your opponent for a new link.",
  unknown_invite: "This invite link is not known here: it may be mistyped, or from another server.",
  invite_expired: "This invite link has expired (an invite lasts 10 minutes). Ask for a new one.",
  invite_cancelled: "This invite was cancelled by the person who made it.",
  own_invite: "This is your own invite: send the link to your opponent.",
  bad_invite_code: "That is neither an invite code nor a room id.",
  no_such_game: "There is no such room: it may have closed.",
  room_closed: "This room has closed.",
  illegal_move: "That move is not legal.",
  illegal_action: "That move is not legal.",
  not_your_turn: "It is not your turn.",
  not_host: "Only the host can do that.",
  host_not_seated: "The host must sit down first.",
  seat_taken: "That seat is taken.",
  empty_seat: "Both seats must be filled to start.",
  already_reserved: "Someone reserved the bot's seat already.",
  game_in_progress: "A game is in progress.",
  no_game_in_progress: "There is no game in progress.",
  must_resign_first: "Resign the game in progress first.",
  no_rematch: "A rematch is no longer possible: your opponent has gone or is playing another game.",
};

// ---------------------------------------------------------------- intentions

function play(i) {
  // A refused click sends nothing and makes no sound; it is shown on the board (the square and a
  // short message under it) and said in the live region.
  if (!state) return;
  const sq = nameOf(i);
  if (reviewing) { refuse(i, `${sq}: this is the review. Choose “Back to the game” to play.`); return; }
  if (pendingMove) { refuse(i, `Wait: your move ${pendingMove.square} is on its way.`); return; }
  if (!mayPlay()) {
    if (state.status === "playing" && state.to_move) {
      if (kind === "local" && state.thinking) refuse(i, "Wait: the computer is thinking.");
      else if (kind === "local" || myColor()) refuse(i, `It is ${state.to_move}'s turn.`);
      else refuse(i, "You are watching: sit down to play.");
    } else if (state.status === "paused") refuse(i, "The game is paused.");
    else if (state.status === "over" || state.status === "closed") refuse(i, "The game is over.");
    else refuse(i, "No game in progress.");
    return;
  }
  if (!legalOf(i)) {
    const taken = shownBoard && shownBoard[i] !== "-";
    refuse(i, taken ? `${sq}: the square is taken.` : `${sq}: no discs to flip.`);
    return;
  }
  unlockAudio();
  clearRefused();
  // Online without a connection, the move waits here (drawn pending) and goes once the page has
  // the game's state again and the move is still legal.
  const queued = kind !== "local" && !connected();
  pendingMove = { i, square: sq, version: state.version, color: state.to_move, queued };
  cells[i].classList.add("pending");
  cells[i].dataset.ghost = state.to_move;
  drawPending();
  if (!queued) sendGame({ type: "move", game, square: sq, version: state.version, rid: ++rid });
}

// A state after a reconnection: the waiting move goes now, or is given up with a reason.
function sendQueuedMove(m) {
  const p = pendingMove;
  if (!p || !p.queued || !connected()) return;
  if (m.status === "paused" || m.status === "waiting") return;
  if (m.status === "playing" && mayPlay() && legalOf(p.i)) {
    p.queued = false;
    p.version = m.version;
    drawPending();
    send({ type: "move", game, square: p.square, version: m.version, rid: ++rid });
    return;
  }
  clearPending();
  refuse(p.i, `${p.square} was not played: the game moved on while the connection was down.`);
}

// The message under the board: "refused", "pending" or "none".
function boardMsg(text, k) {
  const el = $("board-msg");
  el.textContent = text || "";
  el.dataset.kind = text ? k : "none";
}

function clearRefused() {
  for (const c of cells) c.classList.remove("refused");
  if ($("board-msg").dataset.kind === "refused") boardMsg("", "none");
}

function refuse(i, text) {
  clearRefused();
  if (i != null) {
    void cells[i].offsetWidth; // restart the shake
    cells[i].classList.add("refused");
  }
  boardMsg(text, "refused");
  announce(text);
  debug.refused++;
}

function connected() { return !!(ws && ws.readyState === 1 && welcome); }

// A move waiting for its answer: said under the board (online only: locally it is instant).
function drawPending() {
  if (!pendingMove) return;
  if (kind === "local") return;
  boardMsg(connected()
    ? `${pendingMove.square}: sent, waiting for the server…`
    : `${pendingMove.square}: not sent yet: it will be played when the connection is back.`, "pending");
}

function clearPending() {
  if (!pendingMove) return;
  const c = cells[pendingMove.i];
  c.classList.remove("pending");
  pendingMove = null;
  if ($("board-msg").dataset.kind === "pending") boardMsg("", "none");
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

function closeLocal() {
  if (state && kind === "local" && game) toWorker({ type: "local_close", game });
}

// Before another game: leaves the online game or hosted room shown, asking first when that loses
// a game (an online game is resigned, a hosted room left).
function leaveCurrent() {
  if (kind === "hosted" && game) {
    const inGame = seatedInGame();
    if (inGame && !window.confirm("Leaving the room now abandons your game: you lose it. Leave the room?")) return false;
    send({ type: "leave", room: game, rid: ++rid });
    $("room-panel").hidden = true;
    if (location.pathname.startsWith("/join/")) history.replaceState(null, "", "/");
    info(leftText(inGame));
    return true;
  }
  return leaveOnline();
}

function newLocal(boardStr, modeOverride) {
  const mode = boardStr ? (params.get("mode") || "two_players") : (modeOverride || currentMode());
  if (mode === "computer" && $("level").value === "expert" && expertWhy()) { info(expertWhy()); return; }
  if (!leaveCurrent()) return;
  const m = { type: "local_new", mode: mode === "computer" ? "computer" : "two_players", time: timeSpec(), rid: ++rid };
  if (m.mode === "computer") { m.color = $("color").value; m.level = $("level").value; }
  if (boardStr) m.board = boardStr;
  pendingStart = boardStr || null;
  if (state && kind === "local" && state.status === "playing") toWorker({ type: "local_close", game });
  hideResult();
  expectLocal = true;
  toWorker(m);
}

let pendingStart = null; // the board a local game was asked to start from
let modeShown = "computer";
function selectMode(mode) {
  if (mode) document.querySelector(`input[name="mode"][value="${mode}"]`).checked = true;
  modeShown = currentMode();
  $("local-setup").hidden = modeShown === "online";
  $("online-setup").hidden = modeShown !== "online";
  document.querySelectorAll(".computer-only").forEach((e) => { e.hidden = modeShown !== "computer"; });
}

// Switching mode during a game asks first, then really leaves it: an online game is resigned, a
// hosted room left, a local game closed; the start choice comes back.
document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", () => {
  const to = currentMode();
  const back = modeShown;
  if (kind === "hosted" && game && to !== "online") {
    const inGame = seatedInGame();
    const warn = inGame ? "Leaving the room now abandons your game: you lose it. Leave the room?" : "Leave the room?";
    if (!window.confirm(warn)) { selectMode(back); return; }
    send({ type: "leave", room: game, rid: ++rid });
    forget();
    info(leftText(inGame));
  } else if (modeShown === "online" && to !== "online" && inOnlineGame()) {
    if (!leaveOnline()) { selectMode(back); return; }
    forget();
  } else if (kind === "local" && state && state.status === "playing" && to !== state.mode) {
    if (!window.confirm("Leave the game in progress? It will be lost.")) { selectMode(back); return; }
    closeLocal();
    store.local = null;
    forget();
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
$("hint").onclick = askHints;
$("again").onclick = playAgain;
$("rematch").onclick = () => { if (kind === "online" && game) send({ type: "rematch", room: game, rid: ++rid }); };
$("result-close").onclick = () => { hideResult(); board.querySelector('[tabindex="0"]').focus(); };
$("result").addEventListener("keydown", (e) => { if (e.key === "Escape") $("result-close").click(); });
$("start-computer").onclick = () => { selectMode("computer"); newLocal(null, "computer"); };
$("start-two").onclick = () => { selectMode("two_players"); newLocal(null, "two_players"); };
$("start-online").onclick = () => {
  selectMode("online");
  connect();
  $("setup-box").open = true;
  $("queue").focus();
};
$("undo").onclick = () => { if (state && kind === "local") toWorker({ type: "undo", game, version: state.version, rid: ++rid }); };
$("resign").onclick = () => {
  if (!state || state.status !== "playing") return;
  if (!window.confirm("Resign this game?")) return;
  sendGame({ type: "resign", game, rid: ++rid });
};
$("show").onchange = () => { localStorage.setItem("reversi.show", $("show").checked ? "1" : "0"); if (state) draw(state, null); };
$("show").checked = localStorage.getItem("reversi.show") !== "0";

$("queue").onclick = () => { if (leaveCurrent()) send({ type: "queue", rid: ++rid }); };
$("cancel").onclick = () => send({ type: "cancel_queue", rid: ++rid });
$("invite").onclick = () => { if (leaveCurrent()) send({ type: "invite_create", rid: ++rid }); };
$("invite-cancel").onclick = () => send({ type: "invite_cancel", rid: ++rid });
$("join").onclick = () => {
  const code = codeOf($("code").value);
  if (!code) { info("Type an invite code or a room id first."); return; }
  if (isRoomId(code)) { joinRoom(code); return; }
  if (/^H/i.test(code) && code.length > 6) { info(`"${code}" is not a room id: a room id is H followed by 12 letters and digits.`); return; }
  if (leaveCurrent()) send({ type: "invite_join", code, rid: ++rid });
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
  if (!leaveCurrent()) return;
  closeLocal();
  const secs = +$("room-secs").value;
  pendingRoom = { level: $("bot-level").value, color: $("room-color").value, secs };
  send({ type: "room_create", action_secs: secs, rid: ++rid });
};
$("room-copy").onclick = async () => {
  const link = $("room-link").value;
  try {
    await navigator.clipboard.writeText(link);
  } catch (_) {
    $("room-link").select();
    document.execCommand("copy");
  }
  info("Room link copied: whoever opens it joins the room.");
};
$("sit-black").onclick = () => roomSend("sit", { seat: 0 });
$("sit-white").onclick = () => roomSend("sit", { seat: 1 });
$("stand").onclick = () => {
  if (seatedInGame() && !window.confirm("Standing up now abandons your game: you lose it. Stand up?")) return;
  roomSend("stand");
};
$("reserve").onclick = () => roomSend("reserve");
$("room-start").onclick = () => roomSend("start");
$("room-pause").onclick = () => roomSend("pause");
$("room-resume").onclick = () => roomSend("resume");
$("room-end").onclick = () => roomSend("end");
$("bot-add").onclick = () => {
  const seats = (state && state.seats) || [];
  const white = seats[1] && seats[1].kind === "empty";
  roomSend("add_bot", { seat: white ? 1 : 0, level: $("room-bot-level").value });
};
$("bot-level-set").onclick = () => {
  const seat = ((state && state.seats) || []).findIndex((x) => x.kind === "bot");
  if (seat < 0) return;
  roomSend("remove_bot");
  roomSend("add_bot", { seat, level: $("room-bot-level").value });
};
$("room-bot-level").onchange = () => { if (state) drawRoom(state); };
$("bot-remove").onclick = () => roomSend("remove_bot");
$("room-leave").onclick = () => {
  if (!game) return;
  const inGame = seatedInGame();
  const warn = inGame ? "Leaving now abandons your game: you lose it. Leave the room?" : "Leave the room?";
  if (!window.confirm(warn)) return;
  send({ type: "leave", room: game, rid: ++rid });
  forget();
  info(leftText(inGame));
};

// Offline: a service worker keeps the page, the engine and (once fetched) Expert's weights, so
// that local games work with no network after one visit; the manifest makes the page installable.
if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
  navigator.serviceWorker.register("/sw.js").then(
    () => { debug.sw = "registered"; },
    (e) => { debug.sw = `failed: ${e && e.message ? e.message : e}`; },
  );
}

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
  showStart();
}
setInterval(() => { if (ws && ws.readyState === 1) ws.send('{"type":"ping"}'); }, 25000);
