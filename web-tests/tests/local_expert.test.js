// The Expert level in the page: the worker fetches its weights from the server
// (/weights/expert.bin) and hands them to the engine; Expert then plays local games in the
// worker, and hints are in estimated discs. When the weights cannot be fetched or are damaged,
// the page says so in plain words, does not offer Expert, and the other levels still play.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const http = require("node:http");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

function fetchBytes(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      const parts = [];
      res.on("data", (d) => parts.push(d));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(parts) }));
    }).on("error", reject);
  });
}

const weightsStatus = (page) => page.evaluate(() => window.reversiDebug.weights);
const expertOption = (page) => page.locator('#level option[value="expert"]').evaluate((o) => ({ disabled: o.disabled, text: o.textContent }));

test("a local game against Expert: legal moves in time, hints in estimated discs", { timeout: 180000 }, async () => {
  const page = await env.newPage();
  await page.goto(env.server.url + "/");
  await page.waitForFunction(() => window.reversiDebug.engineReady);
  // Nothing is downloaded until Expert is chosen.
  assert.equal(await weightsStatus(page), "idle");
  assert.deepEqual(await expertOption(page), { disabled: false, text: "Expert (downloads 5 MB once)" });
  await page.getByLabel("Against the computer").check();
  await page.locator("#level").selectOption("expert");
  await page.waitForFunction(() => window.reversiDebug.weights === "ready", null, { timeout: 60000 });
  assert.deepEqual(await expertOption(page), { disabled: false, text: "Expert" });
  assert.equal(await page.locator("#expert-note").textContent(), "");
  await page.locator("#color").selectOption("black");
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  for (let i = 0; i < 4; i++) {
    const v = await h.waitTurnOrOver(page, 30000);
    assert.ok(!v.over);
    await page.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(page, v.version);
    const asked = await h.lastState(page);
    assert.equal(asked.level, "expert");
    if (asked.to_move !== "white") continue; // white had to pass
    assert.equal(asked.thinking, true);
    const t0 = Date.now();
    await h.waitTurnOrOver(page, 30000);
    const took = Date.now() - t0;
    const s = await h.lastState(page);
    assert.equal(s.last.color, "white", JSON.stringify(s.last));
    assert.ok(asked.legal.some((m) => m.square === s.last.square), `${s.last.square} is one of white's legal moves`);
    // About a second a move (plus the worker's pause before it thinks): never unbounded.
    assert.ok(took < 10000, `Expert took ${took} ms`);
  }

  // Hints, with the weights in: estimated discs for the side to move, one per legal move.
  const v = await h.waitTurnOrOver(page, 30000);
  await page.getByRole("button", { name: "Hints" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#hints li").length > 0, null, { timeout: 30000 });
  const items = await page.locator("#hints li").allTextContents();
  assert.equal(items.length, v.legal.length);
  for (const it of items) assert.match(it, /^[a-h][1-8]: (\+\d+|-\d+|0) (estimated discs|discs \(exact\))$/);
  assert.ok(items.some((it) => it.endsWith("estimated discs")), items.join(", "));
  assert.match(await page.locator("#hints-unit").textContent(), /in estimated discs/);
  assert.deepEqual(await h.axe(page, "Expert game, hints"), []);
  await h.shot(page, "computer-expert-hints");
  assert.deepEqual(page.errors || [], []);
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});

/** Plays one move against Easy and checks the computer answers. */
async function easyStillPlays(page) {
  await page.getByLabel("Against the computer").check();
  await page.locator("#level").selectOption("easy");
  await page.locator("#color").selectOption("black");
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  const v = await h.waitTurnOrOver(page, 30000);
  await page.locator(`[data-sq="${v.legal[0]}"]`).click();
  await h.waitVersion(page, v.version);
  await h.waitTurnOrOver(page, 30000);
  const after = await h.view(page);
  assert.ok(after.history.some((x) => /^White [a-h][1-8]$/.test(x)), `Easy moved: ${after.history}`);
  // Hints still work, best first (no trained weights to estimate discs with: no numbers).
  await page.getByRole("button", { name: "Hints" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#hints li").length > 0, null, { timeout: 30000 });
  for (const t of await page.locator("#hints li").allTextContents()) assert.match(t, /^[a-h][1-8]$/);
  assert.match(await page.locator("#hints-unit").textContent(), /Best first, by the Hard level's evaluation/);
}

for (const [name, respond, why] of [
  ["is missing (HTTP 404)", async () => ({ status: 404, body: "not found" }), /the server answered HTTP 404/],
  ["is damaged (one byte changed)", async () => {
    const real = await fetchBytes(env.server.url + "/weights/expert.bin");
    assert.equal(real.status, 200);
    real.body[1000] ^= 0x01;
    return { status: 200, body: real.body };
  }, /its file is damaged: the weights file is corrupt/],
]) {
  test(`when the weights file ${name}, the page says so and Easy still plays`, { timeout: 120000 }, async () => {
    const page = await env.newPage();
    const reply = await respond();
    await page.context().route("**/weights/expert.bin", (route) =>
      route.fulfill({ status: reply.status, contentType: "application/octet-stream", body: reply.body }));
    await page.goto(env.server.url + "/");
    await page.getByLabel("Against the computer").check();
    await page.locator("#level").selectOption("expert");
    await page.waitForFunction(() => window.reversiDebug.weights === "failed", null, { timeout: 60000 });
    const note = await page.locator("#expert-note").textContent();
    assert.match(note, /^The Expert level is not available: /);
    assert.match(note, why);
    assert.match(note, /Easy, Normal and Hard still work\.$/);
    assert.deepEqual(await expertOption(page), { disabled: true, text: "Expert (unavailable)" });
    assert.equal(await weightsStatus(page), "failed");
    await easyStillPlays(page);
    assert.deepEqual(await h.axe(page, `weights ${name}`), []);
    assert.deepEqual(page.errors || [], []);
  });
}

// Records the weights' requests of the browser context `ctx` (status, the tag asked with, the
// tag answered) in `seen`; `loadExpert()` opens the page in it, chooses Expert and returns the
// weights' status ("ready" or "failed") and the page's note about them.
function weightsLoader(ctx) {
  const seen = [];
  ctx.on("response", (r) => {
    if (new URL(r.url()).pathname === "/weights/expert.bin") {
      seen.push({ status: r.status(), ifNoneMatch: r.request().headers()["if-none-match"] || null, etag: r.headers().etag || null });
    }
  });
  const loadExpert = async () => {
    const page = await ctx.newPage();
    await page.goto(env.server.url + "/");
    await page.waitForFunction(() => window.reversiDebug.engineReady);
    await page.getByLabel("Against the computer").check();
    await page.locator("#level").selectOption("expert");
    await page.waitForFunction(() => ["ready", "failed"].includes(window.reversiDebug.weights), null, { timeout: 60000 });
    const status = await weightsStatus(page);
    const note = await page.locator("#expert-note").textContent();
    await page.close();
    return { status, note };
  };
  return { seen, loadExpert };
}

test("cached weights are revalidated: unchanged ones are not downloaded again, changed ones are", { timeout: 180000 }, async () => {
  const first = await env.newPage();
  const ctx = first.context();
  const { seen, loadExpert: load } = weightsLoader(ctx);
  const loadExpert = async () => assert.deepEqual(await load(), { status: "ready", note: "" });
  await first.close();
  // First visit: the whole file, with the server's entity tag.
  await loadExpert();
  assert.equal(seen.length, 1, JSON.stringify(seen));
  assert.equal(seen[0].status, 200);
  assert.equal(seen[0].ifNoneMatch, null);
  const tag = seen[0].etag;
  assert.match(tag, /^"[0-9a-f]{16}"$/);
  // Again: the cached file is revalidated and the server answers that it is unchanged.
  await loadExpert();
  assert.equal(seen.length, 2, JSON.stringify(seen));
  assert.deepEqual([seen[1].status, seen[1].ifNoneMatch], [304, tag]);
  // The server has a new file (another entity tag): it is downloaded and replaces the cached one.
  const real = await fetchBytes(env.server.url + "/weights/expert.bin");
  const other = '"00000000000000aa"';
  await ctx.route("**/weights/expert.bin", (route) =>
    route.fulfill({ status: 200, contentType: "application/octet-stream", headers: { etag: other }, body: real.body }));
  await loadExpert();
  await ctx.unroute("**/weights/expert.bin");
  assert.equal(seen.length, 3, JSON.stringify(seen));
  assert.deepEqual([seen[2].status, seen[2].ifNoneMatch], [200, tag]);
  // The next visit revalidates the replacement, which the server does not have: a full download.
  await loadExpert();
  assert.equal(seen.length, 4, JSON.stringify(seen));
  assert.deepEqual([seen[3].status, seen[3].ifNoneMatch], [200, other]);
  await ctx.close();
});

test("a damaged new file from the server leaves the cached weights in use", { timeout: 180000 }, async () => {
  const first = await env.newPage();
  const ctx = first.context();
  const { seen, loadExpert } = weightsLoader(ctx);
  await first.close();
  // First visit: the server's file, cached with its entity tag.
  assert.deepEqual(await loadExpert(), { status: "ready", note: "" });
  const tag = seen[0].etag;
  assert.match(tag, /^"[0-9a-f]{16}"$/);
  // The server now has a damaged file under another tag: the engine refuses it, and the copy
  // cached before is used instead.
  const damaged = await fetchBytes(env.server.url + "/weights/expert.bin");
  damaged.body[1000] ^= 0x01;
  await ctx.route("**/weights/expert.bin", (route) =>
    route.fulfill({ status: 200, contentType: "application/octet-stream", headers: { etag: '"00000000000000bb"' }, body: damaged.body }));
  assert.deepEqual(await loadExpert(), { status: "ready", note: "" });
  await ctx.unroute("**/weights/expert.bin");
  assert.deepEqual([seen[1].status, seen[1].ifNoneMatch], [200, tag]);
  // The cached copy was kept: the next visit revalidates it under its own tag.
  assert.deepEqual(await loadExpert(), { status: "ready", note: "" });
  assert.equal(seen.length, 3, JSON.stringify(seen));
  assert.deepEqual([seen[2].status, seen[2].ifNoneMatch], [304, tag]);
  await ctx.close();
});
