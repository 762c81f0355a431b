// A minimal client: it holds no rules, it draws the server's states and sends intentions.
"use strict";
const $ = (id) => document.getElementById(id);
let ws, state = null, game = null, online = false;
const params = new URLSearchParams(location.search);

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { $("conn").textContent = "Connected"; resume(); };
  ws.onclose = () => { $("conn").textContent = "Disconnected, retrying…"; setTimeout(connect, 1000); };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
}
function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }

function resume() {
  const online_token = sessionStorage.getItem("online_token");
  const local = JSON.parse(sessionStorage.getItem("local") || "null");
  if (online_token) send({ type: "reconnect", token: online_token });
  else if (local) send({ type: "local_resume", game: local.game, token: local.token });
  else if (params.get("board")) newLocal(params.get("board"));
  else if (params.get("invite")) send({ type: "invite_join", code: params.get("invite") });
}

function timeSpec() {
  const kind = $("time").value, secs = +$("secs").value, input = $("total").value;
  if (kind === "per_move") return { kind, secs };
  if (kind === "total") return { kind, input };
  if (kind === "combined") return { kind, secs, input };
  return { kind: "unlimited" };
}
function newLocal(board) {
  const m = { type: "local_new", mode: $("mode").value === "two_players" ? "two_players" : "computer",
    color: $("color").value, level: $("level").value, time: timeSpec() };
  if (board) m.board = board;
  send(m);
}

function handle(m) {
  switch (m.type) {
    case "local_started":
      sessionStorage.setItem("local", JSON.stringify({ game: m.game, token: m.token }));
      sessionStorage.removeItem("online_token"); online = false; game = m.game; break;
    case "joined":
      sessionStorage.setItem("online_token", m.token); sessionStorage.removeItem("local");
      online = true; game = m.room; $("info").textContent = "You play " + (m.color || ""); break;
    case "invite":
      $("info").textContent = "Invite code " + m.code + " — link: " + location.origin + "/?invite=" + m.code; break;
    case "queued": $("info").textContent = "Waiting for an opponent…"; break;
    case "state": if (m.game === game || m.room === game) { state = m; draw(); } break;
    case "error":
      if (m.code === "bad_token" || m.code === "no_such_game") { sessionStorage.clear(); }
      $("info").textContent = "Error: " + m.message; break;
  }
}

function draw() {
  const s = state, board = $("board"), show = $("show").checked;
  const legal = new Map((s.legal || []).map((l) => [l.square, l.flips]));
  board.innerHTML = "";
  for (let i = 0; i < 64; i++) {
    const name = "abcdefgh"[i % 8] + (Math.floor(i / 8) + 1);
    const b = document.createElement("button");
    b.className = "sq"; b.setAttribute("aria-label", s.squares[i]); b.dataset.sq = name;
    const c = s.board[i];
    if (c !== "-") { const d = document.createElement("span"); d.className = "disc " + (c === "X" ? "black" : "white"); b.appendChild(d); }
    else if (show && legal.has(name)) { const d = document.createElement("span"); d.className = "dot"; b.appendChild(d); }
    if (s.last && s.last.square === name) b.classList.add("last");
    b.onclick = () => play(name);
    board.appendChild(b);
  }
  $("counts").textContent = `Black ${s.count.black} — White ${s.count.white}` + (s.to_move ? `, ${s.to_move} to move` : "");
  $("pass").textContent = s.passed ? `${s.passed} has no move and passes` : "";
  if (s.result) $("pass").textContent += ` Game over (${s.result.reason}): ` + (s.result.winner ? s.result.winner + " wins" : "no winner");
  const c = s.clock || {};
  const fmt = (ms) => ms == null ? "∞" : (ms / 1000).toFixed(1) + " s";
  $("clocks").textContent = `Clocks: black ${fmt(c.black_ms)}, white ${fmt(c.white_ms)}`;
  $("history").innerHTML = (s.history || []).map((h) => `<li>${h.color} ${h.move}</li>`).join("");
  $("undo").disabled = !s.can_undo;
}

function play(sq) {
  if (!state || !state.legal.some((l) => l.square === sq)) return;
  send({ type: "move", game, square: sq, version: state.version });
}

$("new").onclick = () => newLocal();
$("undo").onclick = () => state && send({ type: "undo", game, version: state.version });
$("show").onchange = () => state && draw();
$("mode").onchange = () => {
  const o = $("mode").value === "online";
  document.querySelector(".local-only").hidden = o; document.querySelector(".online-only").hidden = !o;
};
$("queue").onclick = () => send({ type: "queue" });
$("cancel").onclick = () => send({ type: "cancel_queue" });
$("invite").onclick = () => send({ type: "invite_create" });
$("join").onclick = () => send({ type: "invite_join", code: $("code").value });
$("resign").onclick = () => game && send({ type: "resign", game });
connect();
