// Online: a hosted room with a bot, started, paused and resumed by its host.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

test("a hosted room with a bot", { timeout: 90000 }, async () => {
  const page = await env.newPage();
  await page.goto(env.server.url + "/");
  await page.getByLabel("Online").check();
  await page.waitForFunction(() => document.getElementById("conn").dataset.state === "online");
  await page.locator("#bot-level").selectOption("easy");
  await page.locator("#room-color").selectOption("black");
  await page.getByRole("button", { name: "Host a room with a bot" }).click();
  await page.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true", null, { timeout: 15000 });
  let v = await h.view(page);
  assert.match(v.turn, /Your move \(black\)/);
  assert.match(await page.locator("#room-id").textContent(), /^Room H/);

  // Two moves against the bot.
  for (let i = 0; i < 2; i++) {
    v = await h.waitTurnOrOver(page);
    await page.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(page, v.version);
    await h.waitTurnOrOver(page);
  }
  assert.equal((await h.view(page)).history.length, 4);

  // Pause and resume.
  await page.getByRole("button", { name: "Pause" }).click();
  await page.waitForFunction(() => /Paused/.test(document.getElementById("turn").textContent));
  assert.equal((await h.view(page)).myTurn, false);
  await page.getByRole("button", { name: "Resume" }).click();
  await page.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true");

  // Resign ends the game; the host may start another.
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Resign" }).click();
  await page.waitForFunction(() => /Game over/.test(document.getElementById("turn").textContent));
  assert.match((await h.view(page)).turn, /White wins by resignation/);
  await page.getByRole("button", { name: "Start a game" }).click();
  await page.waitForFunction(() => !/Game over/.test(document.getElementById("turn").textContent));
  await h.waitTurnOrOver(page);
  assert.equal((await h.view(page)).history.length, 0);
  assert.deepEqual(page.errors || [], []);
});
