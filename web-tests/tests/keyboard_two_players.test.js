// Two players on one device, by keyboard only: the mode, the new game and every move. The game is
// played by the page's worker: no WebSocket is opened.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

const idx = (sq) => (+sq[1] - 1) * 8 + "abcdefgh".indexOf(sq[0]);
const active = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return { role: a.getAttribute("role"), sq: a.dataset.sq || null, id: a.id, value: a.value, type: a.type };
});

async function tabUntil(page, pred, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const a = await active(page);
    if (pred(a)) return a;
  }
  throw new Error("Tab never reached the wanted element");
}

test("two players on one device, keyboard only", { timeout: 240000 }, async () => {
  const page = await env.newPage();
  await page.goto(env.server.url + "/");
  await page.waitForFunction(() => window.reversiDebug.engineReady);
  // The mode radio group: Tab reaches it, the arrow key picks "two players".
  await tabUntil(page, (a) => a.type === "radio");
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.querySelector('input[name="mode"]:checked').value), "two_players");
  await tabUntil(page, (a) => a.id === "new");
  await page.keyboard.press("Enter");
  await h.waitVersion(page, 0);

  // Tab reaches the board: one square in the tab order (roving tabindex).
  const first = await tabUntil(page, (a) => a.role === "gridcell");
  assert.equal(await page.locator('#board [tabindex="0"]').count(), 1);
  let at = idx(first.sq);

  let moves = 0;
  let key = 0;
  for (;;) {
    const v = await h.waitTurnOrOver(page);
    if (v.over) break;
    const target = idx(v.legal[0]);
    // Arrow keys to the target square.
    while (at % 8 < target % 8) { await page.keyboard.press("ArrowRight"); at++; }
    while (at % 8 > target % 8) { await page.keyboard.press("ArrowLeft"); at--; }
    while (at < target) { await page.keyboard.press("ArrowDown"); at += 8; }
    while (at > target) { await page.keyboard.press("ArrowUp"); at -= 8; }
    const a = await active(page);
    assert.equal(a.sq, v.legal[0], "focus follows the arrows");
    await page.keyboard.press(key++ % 2 ? "Space" : "Enter");
    await h.waitVersion(page, v.version);
    moves++;
    if (moves === 20) { await page.waitForTimeout(500); await h.shot(page, "two-players-keyboard-move20"); }
  }
  const v = await h.view(page);
  assert.ok(moves > 20, `${moves} moves by keyboard`);
  assert.equal(v.history.filter((x) => !/passed/.test(x)).length, moves);
  assert.match(v.turn, /Game over/);
  assert.match(await page.locator("#live").textContent(), /Game over/);
  // The focus stayed on the board all along, until the result dialog took it; Escape closes the
  // dialog and gives it back to the board.
  assert.equal((await active(page)).id, "again");
  await page.keyboard.press("Escape");
  assert.ok(await page.locator("#result").isHidden());
  assert.equal((await active(page)).role, "gridcell");
  assert.deepEqual(page.errors || [], []);
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});
