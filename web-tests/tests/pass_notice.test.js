// A pass notice from a prepared position (through ?board=, passed to the worker's `local_new`).
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

test("a pass notice below the board, announced", { timeout: 60000 }, async () => {
  const page = await env.newPage();
  // a1, b1 white, c1 black, black to move: black has no move and passes; white can take d1.
  const board = "OOX" + "-".repeat(61) + " X";
  await page.goto(env.server.url + "/?board=" + encodeURIComponent(board));
  await h.waitVersion(page, 0);
  const v = await h.view(page);
  assert.equal(v.pass, "Black has no legal move and passes.");
  assert.deepEqual(v.history, ["Black passed"]);
  assert.match(v.turn, /White to move/);
  assert.deepEqual(v.legal, ["d1"]);
  // Yellow text below the board.
  const color = await page.locator("#pass").evaluate((e) => getComputedStyle(e).color);
  const [r, g, b] = color.match(/\d+/g).map(Number);
  assert.ok(r > 150 && g > 100 && b < 60, `yellow-ish, got ${color}`);
  const boardBox = await page.locator("#board").boundingBox();
  const passBox = await page.locator("#pass").boundingBox();
  assert.ok(passBox.y > boardBox.y + boardBox.height, "below the board");
  await page.waitForFunction(() => /Black passes/.test(document.getElementById("live").textContent));
  await h.shot(page, "pass-notice");

  // White plays d1: black has no disc left, the game is over and the result is announced.
  await page.locator('[data-sq="d1"]').click();
  await page.waitForFunction(() => /Game over/.test(document.getElementById("live").textContent));
  const end = await h.view(page);
  assert.equal(end.white, 4);
  assert.equal(end.black, 0);
  assert.match(end.turn, /White wins/);
  assert.equal(end.pass, "");
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});
