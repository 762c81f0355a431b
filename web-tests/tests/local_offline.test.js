// With no game server at all (the page's files served by a plain static server), local games work
// fully: a game against the computer is played, survives a refresh and a closed tab with its clock
// (a wall clock: it went on while the page was away), and ends; two players play on one device.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let web;
let browser;
before(async () => { web = await h.startStatic(); browser = await h.launch(); });
after(async () => {
  try { if (browser) await browser.close(); } finally { if (web) await web.stop(); }
});

const secs = (t) => { const [m, s] = t.split(":").map(Number); return m * 60 + s; };

async function newPage(ctx) {
  const page = await ctx.newPage();
  page.on("pageerror", (e) => { page.errors = (page.errors || []).concat(String(e)); });
  h.watchCsp(page);
  page.sockets = [];
  page.on("websocket", (ws) => page.sockets.push(ws.url()));
  return page;
}

test("against the computer with no server: play, refresh, close and come back, finish", { timeout: 240000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 1000 } });
  let page = await newPage(ctx);
  await page.goto(web.url + "/");
  assert.ok(await page.locator("#conn").isHidden(), "no connection shown");
  await page.getByLabel("Against the computer").check();
  await page.locator("#level").selectOption("easy");
  await page.locator("#time").selectOption("total");
  await page.locator("#total").fill("5:30");
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  for (let i = 0; i < 3; i++) {
    const v = await h.waitTurnOrOver(page);
    await page.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(page, v.version);
  }
  await h.waitTurnOrOver(page);
  const before = await h.view(page);
  assert.equal(before.history.length, 6);
  assert.ok(await h.savedLocal(page), "saved in localStorage");

  // A refresh restores the game, its settings and its clock.
  await page.reload();
  await h.waitVersion(page, 0);
  let v = await h.view(page);
  assert.deepEqual(v.history, before.history);
  assert.ok(await page.getByLabel("Against the computer").isChecked());
  assert.ok(v.myTurn);
  const blackAtRefresh = secs(await page.locator("#clock-black").textContent());
  assert.ok(blackAtRefresh <= 330);
  assert.equal(await page.locator("#clock-white").textContent() !== "", true);

  // The tab is closed; black's clock goes on while nobody looks.
  await page.close();
  await new Promise((r) => setTimeout(r, 2500));
  page = await newPage(ctx);
  await page.goto(web.url + "/");
  await h.waitVersion(page, 0);
  v = await h.view(page);
  assert.deepEqual(v.history, before.history);
  const blackBack = secs(await page.locator("#clock-black").textContent());
  assert.ok(blackBack <= blackAtRefresh - 2, `the clock went on while the page was away: ${blackBack} after ${blackAtRefresh}`);

  // And the game is played to its end.
  for (;;) {
    v = await h.waitTurnOrOver(page, 30000);
    if (v.over) break;
    await page.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(page, v.version);
  }
  assert.match(v.turn, /Game over/);
  assert.deepEqual(page.sockets, [], "no WebSocket");
  assert.deepEqual(page.errors || [], []);
  await ctx.close();
});

test("opened from a file, the page says how to serve it; served, it does not", { timeout: 60000 }, async () => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("file://" + require("node:path").join(h.STATIC, "index.html"));
  assert.ok(await page.locator("#file-note").isVisible());
  assert.match(await page.locator("#file-note").textContent(), /must be served by a web server/);
  await page.goto(web.url + "/");
  await page.waitForFunction(() => window.reversiDebug && window.reversiDebug.engineReady);
  assert.ok(await page.locator("#file-note").isHidden());
  await ctx.close();
});

test("two players on one device with no server, to the end", { timeout: 240000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 1000 } });
  const page = await newPage(ctx);
  await page.goto(web.url + "/");
  await page.getByLabel("Two players on this device").check();
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  let moves = 0;
  for (;;) {
    const v = await h.waitTurnOrOver(page);
    if (v.over) break;
    await page.locator(`[data-sq="${v.legal[v.legal.length - 1]}"]`).click();
    await h.waitVersion(page, v.version);
    moves++;
  }
  const v = await h.view(page);
  assert.ok(moves > 20);
  assert.equal(v.history.filter((x) => !/passed/.test(x)).length, moves);
  assert.match(await page.locator("#live").textContent(), /Game over/);

  // The review works without the server too: without Expert's weights (a static server has
  // none) the last 14 empties are still scored, exactly.
  await page.getByRole("button", { name: "Review the game" }).click();
  await page.waitForFunction(() => window.reversiDebug.review && window.reversiDebug.review.finished, null, { timeout: 120000 });
  const r = await page.evaluate(() => window.reversiDebug.review);
  const n = r.scores.length - 1;
  for (let i = n - 10; i <= n; i++) {
    assert.equal(typeof r.scores[i], "number", `position ${i}`);
    assert.equal(r.exact[i], true);
  }
  assert.match(await page.locator("#rv-note").textContent(), /could not be loaded/);
  assert.deepEqual(await h.axe(page, "review without weights"), []);
  assert.deepEqual(page.sockets, [], "no WebSocket");
  assert.deepEqual(page.errors || [], []);
  assert.deepEqual(page.cspViolations, [], "the page works under the server's CSP");
  await ctx.close();
});
