// Undo against the computer takes back the person's move and the computer's reply, and the clock
// comes back too.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

const START = "---------------------------OX------XO---------------------------";

test("undo as a pair, restoring the clock", { timeout: 60000 }, async () => {
  const page = await env.newPage();
  await page.goto(env.server.url + "/");
  await page.getByLabel("Against the computer").check();
  await page.locator("#time").selectOption("total");
  await page.locator("#total").fill("5:30");
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  assert.equal(await page.locator("#clock-white").textContent(), "5:30");
  assert.ok(await page.locator("#undo").isDisabled());

  await page.locator('[data-sq="d3"]').click();
  // The computer answers.
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 2);
  await h.waitTurnOrOver(page);
  await page.waitForTimeout(1200); // black's clock runs meanwhile
  const before = await h.view(page);
  assert.deepEqual(before.history.slice(0, 1), ["Black d3"]);
  assert.notEqual(await page.locator("#clock-black").textContent(), "5:30");

  await page.getByRole("button", { name: "Undo" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#history li").length === 0);
  const v = await h.view(page);
  assert.equal(await h.discs(page), START);
  assert.equal(v.black, 2);
  assert.equal(v.white, 2);
  assert.deepEqual(v.legal.sort(), ["c4", "d3", "e6", "f5"]);
  assert.ok(v.myTurn);
  assert.ok(await page.locator("#undo").isDisabled());
  // Both clocks are back where they were before black's move (black had used well under a second).
  assert.equal(await page.locator("#clock-white").textContent(), "5:30");
  assert.match(await page.locator("#clock-black").textContent(), /^5:(30|29|28)$/);

  // And the game goes on.
  await page.locator('[data-sq="f5"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#history li").length >= 1);
  assert.equal((await h.view(page)).history[0], "Black f5");
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});
