// A refresh in a game against the computer resumes it from localStorage, and does not reset the
// clock (it is a wall clock: it went on while the page was away).
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

const secs = (t) => { const [m, s] = t.split(":").map(Number); return m * 60 + s; };

test("a refresh resumes a local game without resetting its clock", { timeout: 60000 }, async () => {
  const page = await env.newPage();
  await page.goto(env.server.url + "/");
  await page.getByLabel("Against the computer").check();
  await page.locator("#time").selectOption("total");
  await page.locator("#total").fill("5.5");
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  await page.waitForTimeout(2200);
  await page.locator('[data-sq="d3"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  const before = await h.view(page);
  const blackBefore = secs(await page.locator("#clock-black").textContent());
  assert.ok(blackBefore <= 328, `black used its time: ${blackBefore}`);

  await page.reload();
  await h.waitVersion(page, 0);
  const v = await h.view(page);
  assert.deepEqual(v.history, before.history);
  assert.ok(await page.getByLabel("Against the computer").isChecked());
  const blackAfter = secs(await page.locator("#clock-black").textContent());
  assert.ok(blackAfter <= blackBefore, `the clock went on: ${blackAfter} <= ${blackBefore}`);
  assert.equal(await page.locator("#clock-white").textContent() !== "", true);
  assert.ok(v.myTurn);
  assert.ok(await h.savedLocal(page), "the game is saved in localStorage");
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});
