// Shared helpers: start the real server on a free loopback port with a temporary database, launch
// Debian's headless Chromium through playwright-core, and drive the page.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const http = require("node:http");
const { chromium } = require("playwright-core");

const ROOT = path.resolve(__dirname, "..", "..");
const TARGET = process.env.CARGO_TARGET_DIR || path.join(ROOT, "target");
const PROFILE = process.env.SERVER_PROFILE || "debug";
const SERVER_BIN = process.env.REVERSI_SERVER_BIN || path.join(TARGET, PROFILE, "examples", "server");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const SHOTS = path.join(ROOT, "target", "screenshots");
const STATIC = path.join(ROOT, "examples", "server", "static");

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function get(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => { res.resume(); resolve(res.statusCode); });
    req.on("error", reject);
    req.setTimeout(1000, () => req.destroy(new Error("timeout")));
  });
}

/** Starts the server binary on 127.0.0.1 with a temp DB; returns {url, stop()}. */
async function startServer() {
  if (!fs.existsSync(SERVER_BIN)) throw new Error(`no server binary at ${SERVER_BIN}: build it with cargo build -p reversi-server --bin server`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reversi-web-"));
  const port = await freePort();
  const log = [];
  const child = spawn(SERVER_BIN, ["--addr", `127.0.0.1:${port}`, "--db", path.join(dir, "test.db"), "--test-endpoints"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || "warn", NO_COLOR: "1" },
  });
  child.stdout.on("data", (d) => log.push(String(d)));
  child.stderr.on("data", (d) => log.push(String(d)));
  let exited = null;
  child.on("exit", (code, sig) => { exited = { code, sig }; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20000;
  for (;;) {
    if (exited) throw new Error(`server exited early (${JSON.stringify(exited)}):\n${log.join("")}`);
    try { if ((await get(url + "/")) === 200) break; } catch (_) { /* not yet */ }
    if (Date.now() > deadline) { child.kill("SIGKILL"); throw new Error(`server did not start:\n${log.join("")}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    log,
    async stop() {
      if (!exited) {
        child.kill("SIGKILL");
        await new Promise((r) => (exited ? r() : child.once("exit", r)));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8", ".wasm": "application/wasm", ".svg": "image/svg+xml",
  ".png": "image/png", ".webmanifest": "application/manifest+json",
};

/** The Content-Security-Policy the server sends with every answer: the page must work under it. */
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
  + "img-src 'self' data:; style-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
  + "form-action 'self'; frame-ancestors 'none'";

/**
 * Serves the page's files as plain static files (no WebSocket, no server), with the CSP above on
 * every answer: returns {url, stop()}.
 */
async function startStatic(dir = STATIC) {
  const srv = http.createServer((req, res) => {
    res.setHeader("content-security-policy", CSP);
    let p = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (p === "/") p = "/index.html";
    const file = path.join(dir, path.normalize(p));
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      res.end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    res.end(fs.readFileSync(file));
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${srv.address().port}`,
    stop: () => new Promise((r) => { srv.closeAllConnections(); srv.close(r); }),
  };
}

async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** Starts a server and a browser for a test file; call the returned stop() in after(). */
async function setup() {
  const server = await startServer();
  let browser;
  try { browser = await launch(); } catch (e) { await server.stop(); throw e; }
  return {
    server,
    browser,
    async newPage(opts = {}) {
      const ctx = await browser.newContext({ viewport: { width: 900, height: 1000 }, ...opts });
      const page = await ctx.newPage();
      page.on("pageerror", (e) => { page.errors = (page.errors || []).concat(String(e)); });
      watchCsp(page);
      // Every WebSocket the page opens (local games must open none).
      page.sockets = [];
      page.on("websocket", (ws) => page.sockets.push(ws.url()));
      return page;
    },
    async stop() {
      try { await browser.close(); } finally { await server.stop(); }
    },
  };
}

/** Records what the Content-Security-Policy refused (console messages) in page.cspViolations. */
function watchCsp(page) {
  page.cspViolations = [];
  page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) page.cspViolations.push(m.text()); });
  return page;
}

/**
 * Whether the board, both clocks' sides and the turn line lie inside the window (no scrolling):
 * returns "" when they do, else what sticks out.
 */
async function boardInView(page) {
  return page.evaluate(() => {
    const W = window.innerWidth, H = window.innerHeight;
    const out = [];
    for (const id of ["board", "side-black", "side-white", "turn"]) {
      const r = document.getElementById(id).getBoundingClientRect();
      if (r.width === 0 || r.height === 0) out.push(`${id} not shown`);
      else if (r.left < 0 || r.top < 0 || r.right > W + 0.5 || r.bottom > H + 0.5) {
        out.push(`${id} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} in ${W}x${H}`);
      }
    }
    if (window.scrollY !== 0) out.push(`scrolled by ${window.scrollY}`);
    return out.join("; ");
  });
}

async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.locator("#game").screenshot({ path: path.join(SHOTS, name + ".png") });
}

/** A screenshot of the whole viewport. */
async function shotPage(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name + ".png") });
}

/** The last state message the page received (from the worker or the server), as received. */
function lastState(page) {
  return page.evaluate(() => window.reversiDebug.state);
}

/** What the page saved of its local game in localStorage (parsed), or null. */
function savedLocal(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem("reversi.local") || "null"));
}

/** The page's current state as the page shows it. */
function view(page) {
  return page.evaluate(() => {
    const b = document.getElementById("board");
    return {
      myTurn: b.dataset.myTurn === "true",
      version: +b.dataset.version || 0,
      legal: [...document.querySelectorAll(".sq.legal")].map((c) => c.dataset.sq),
      black: +document.getElementById("count-black").textContent,
      white: +document.getElementById("count-white").textContent,
      turn: document.getElementById("turn").textContent,
      history: [...document.querySelectorAll("#history li")].map((li) => li.textContent),
      pass: document.getElementById("pass").textContent,
      over: /Game over/.test(document.getElementById("turn").textContent),
    };
  });
}

/** Waits until the page shows a version above `v` (or any state if v is 0). */
async function waitVersion(page, v, timeout = 15000) {
  await page.waitForFunction((v) => +document.getElementById("board").dataset.version > v, v, { timeout });
}

/** Waits until it is this page's turn or the game is over; returns the view. */
async function waitTurnOrOver(page, timeout = 20000) {
  await page.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true"
    || /Game over/.test(document.getElementById("turn").textContent), null, { timeout });
  return view(page);
}

async function discs(page) {
  return page.evaluate(() => [...document.querySelectorAll(".sq")].map((c) => {
    const d = c.querySelector(".disc");
    return d.classList.contains("black") ? "X" : d.classList.contains("white") ? "O" : "-";
  }).join(""));
}

/**
 * The discs once the page has drawn its last state: flips turn one by one after a move (about
 * 120 ms + 80 ms a disc), so this waits until the board shows the state's board: up to 20 s,
 * because a page that is not in front (two browser contexts at once) and a loaded machine slow
 * the animation's timers down (5 s was once too short in CI).
 */
async function settledDiscs(page, timeout = 20000) {
  await page.waitForFunction(() => {
    const want = window.reversiDebug.state && window.reversiDebug.state.board;
    const shown = [...document.querySelectorAll(".sq")].map((c) => {
      const d = c.querySelector(".disc");
      return d.classList.contains("black") ? "X" : d.classList.contains("white") ? "O" : "-";
    }).join("");
    return typeof want === "string" && shown === want;
  }, null, { timeout });
  return discs(page);
}

const AXE = require.resolve("axe-core/axe.min.js");

/**
 * Runs axe-core (WCAG 2.x A and AA rules, and best practices) on the page as it is now; returns
 * one line per violation and element ("" when there are none), labelled with `label`.
 */
async function axe(page, label) {
  // Evaluated through the DevTools protocol (not a <script> tag, which the page's CSP refuses).
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(fs.readFileSync(AXE, "utf8"));
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary}`) }));
  });
  return violations.flatMap((v) => v.nodes.map((n) => `${label}: ${v.id} (${v.impact}) ${n}`));
}

/** Accepts (or dismisses) the next dialog and returns a promise of its message. */
function onDialog(page, accept = true) {
  return new Promise((resolve) => page.once("dialog", async (d) => {
    const text = d.message();
    if (accept) await d.accept(); else await d.dismiss();
    resolve(text);
  }));
}

/** The room panel as the page shows it. */
function room(page) {
  return page.evaluate(() => ({
    id: document.getElementById("room-id").textContent,
    hidden: document.getElementById("room-panel").hidden,
    facts: document.getElementById("room-facts").textContent,
    seats: [...document.querySelectorAll("#room-seats li")].map((li) => li.textContent),
    people: document.getElementById("room-people").textContent,
    hostNote: document.getElementById("host-note").hidden ? "" : document.getElementById("host-note").textContent,
  }));
}

module.exports = {
  axe, onDialog, room, CSP, watchCsp, boardInView,
  setup, startServer, startStatic, launch, shot, shotPage, view, lastState, savedLocal, waitVersion, waitTurnOrOver,
  discs, settledDiscs, SHOTS, SERVER_BIN, STATIC,
};
