// A whole game against the computer (Easy) played by mouse clicks, in the page's worker: no
// WebSocket is opened.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

test("a whole game against Easy, by clicks", { timeout: 180000 }, async () => {
  const page = await env.newPage();
  await page.goto(env.server.url + "/");
  await page.getByLabel("Against the computer").check();
  await page.locator("#level").selectOption("easy");
  await page.locator("#color").selectOption("black");
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  let v = await h.view(page);
  assert.equal(v.black, 2);
  assert.equal(v.white, 2);
  assert.deepEqual(v.legal.sort(), ["c4", "d3", "e6", "f5"]);
  assert.match(v.turn, /Your move \(black\)/);

  // A refused click (an occupied square, then a square that flips nothing) sends nothing and
  // makes no sound.
  const sounds0 = await page.evaluate(() => window.reversiDebug.sounds);
  await page.locator('[data-sq="d4"]').click();
  await page.locator('[data-sq="a1"]').click();
  await page.waitForTimeout(300);
  assert.equal((await h.view(page)).version, v.version);
  assert.equal(await page.evaluate(() => window.reversiDebug.sounds), sounds0);

  // Hover preview: a translucent disc and marks on the discs that would flip.
  await page.locator('[data-sq="d3"]').hover();
  assert.ok(await page.locator('[data-sq="d3"]').evaluate((e) => e.classList.contains("preview")));
  assert.ok(await page.locator('[data-sq="d4"]').evaluate((e) => e.classList.contains("will-flip")));

  let moves = 0;
  let shotTaken = false;
  for (;;) {
    v = await h.waitTurnOrOver(page, 30000);
    if (v.over) break;
    const before = v.version;
    // Play the first legal square in reading order.
    const sq = v.legal[0];
    await page.locator(`[data-sq="${sq}"]`).click();
    await h.waitVersion(page, before);
    const after = await h.view(page);
    // The placed disc carries the red dot, and the counts moved at once.
    assert.ok(await page.locator(`[data-sq="${sq}"]`).evaluate((e) => e.classList.contains("last")), `last dot on ${sq}`);
    assert.ok(after.black > v.black, "black's count went up at once");
    moves++;
    if (moves === 12 && !shotTaken) {
      await page.waitForTimeout(600);
      await h.shot(page, "computer-easy-midgame");
      shotTaken = true;
    }
  }
  await page.waitForTimeout(700);
  v = await h.view(page);
  assert.ok(moves >= 5, `played ${moves} moves`);
  assert.equal(v.black + v.white <= 64, true);
  assert.match(v.turn, /Game over/);
  const live = await page.locator("#live").textContent();
  assert.match(live, /Game over/);
  // Every move of both sides is in the history.
  assert.ok(v.history.filter((x) => /^Black [a-h][1-8]$/.test(x)).length === moves, "every click is in the history");
  assert.ok(v.history.some((x) => /^White [a-h][1-8]$/.test(x)));
  // A sound per placement at most (one per move, none per flip).
  const sounds = await page.evaluate(() => window.reversiDebug.sounds);
  assert.ok(sounds > 0 && sounds <= v.history.length, `sounds ${sounds} for ${v.history.length} plies`);
  // The flips were animated one by one (not reduced motion here).
  assert.ok(await page.evaluate(() => window.reversiDebug.flips.some((f) => f.animated)));
  await h.shot(page, "computer-easy-end");
  assert.deepEqual(page.errors || [], []);
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});
