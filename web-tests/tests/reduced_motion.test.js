// With prefers-reduced-motion, flipped discs change colour at once, without animation; without
// it, they turn one by one, nearest first.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

async function newTwoPlayers(page) {
  await page.goto(env.server.url + "/");
  await page.getByLabel("Two players on this device").check();
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
}

// Plays first legal moves until some legal move flips several discs; returns that square.
async function playUntilMultiFlip(page) {
  for (let i = 0; i < 30; i++) {
    const names = await page.$$eval('[role="gridcell"].legal', (cs) => cs.map((c) => [c.dataset.sq, c.getAttribute("aria-label")]));
    const multi = names.find(([, n]) => /flips [2-9]/.test(n));
    if (multi) return multi[0];
    const v = await h.view(page);
    await page.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(page, v.version);
  }
  throw new Error("no move flipping several discs");
}

test("reduced motion: discs change colour without animation", { timeout: 60000 }, async () => {
  const page = await env.newPage();
  await page.emulateMedia({ reducedMotion: "reduce" });
  await newTwoPlayers(page);
  assert.ok(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches));
  const sq = await playUntilMultiFlip(page);
  const v = await h.view(page);
  await page.locator(`[data-sq="${sq}"]`).click();
  await h.waitVersion(page, v.version);
  // At once: the board drawn equals the state, and nothing is animating.
  const anims = await page.evaluate(() => document.getAnimations().length);
  assert.equal(anims, 0);
  const after = await h.view(page);
  const disc = await h.discs(page);
  const count = (c) => [...disc].filter((x) => x === c).length;
  assert.equal(count("X"), after.black);
  assert.equal(count("O"), after.white);
  const log = await page.evaluate(() => window.reversiDebug.flips);
  assert.ok(log.length > 0 && log.every((f) => !f.animated));
  await h.shot(page, "reduced-motion");
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});

test("full motion: flips turn one by one, nearest first", { timeout: 60000 }, async () => {
  const page = await env.newPage();
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await newTwoPlayers(page);
  const sq = await playUntilMultiFlip(page);
  // The previous move's discs still turn, each logged when it starts: wait until the board
  // shows its state, so that none of them lands in this move's log.
  await h.settledDiscs(page);
  const v = await h.view(page);
  const n0 = await page.evaluate(() => window.reversiDebug.flips.length);
  await page.locator(`[data-sq="${sq}"]`).click();
  await h.waitVersion(page, v.version);
  // The counts are already updated while the discs still turn.
  const shown = await h.view(page);
  const last = await h.lastState(page);
  assert.equal(shown.black, last.count.black);
  await page.waitForTimeout(800);
  const log = (await page.evaluate(() => window.reversiDebug.flips)).slice(n0);
  assert.deepEqual(log.map((f) => f.square), last.last.flips, "in the engine's order, nearest first");
  assert.ok(log.every((f) => f.animated));
  for (let i = 1; i < log.length; i++) assert.ok(log[i].at > log[i - 1].at + 30, "one by one");
  assert.equal(await h.discs(page), last.board);
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});
