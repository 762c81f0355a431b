// Visible feedback on the board: a wrong or out-of-turn click marks the square and says why under
// the board (not only to screen readers); a move made while the connection is down is shown as
// pending and played when it comes back; low time (10 s and less) is shown on the clock's side
// and, with the sound on, heard; hints are disc margins within -64..64.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

const msg = (p) => p.evaluate(() => {
  const m = document.getElementById("board-msg");
  const r = m.getBoundingClientRect();
  return { text: m.textContent, kind: m.dataset.kind, shown: r.height > 0 && r.bottom <= window.innerHeight };
});
const refused = (p) => p.evaluate(() => [...document.querySelectorAll(".sq.refused")].map((c) => c.dataset.sq));

test("wrong and out-of-turn clicks are shown on the board; low time is shown and heard", { timeout: 90000 }, async () => {
  const page = await env.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(env.server.url + "/");
  await page.waitForFunction(() => window.reversiDebug.engineReady);
  await page.getByLabel("Two players on this device").check();
  await page.locator("#time").selectOption("per_move");
  await page.locator("#secs").selectOption("15");
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  const v = await h.view(page);

  await page.locator('[data-sq="a1"]').click();
  assert.deepEqual(await refused(page), ["a1"]);
  assert.deepEqual(await msg(page), { text: "a1: no discs to flip.", kind: "refused", shown: true });
  await page.locator('[data-sq="d4"]').click();
  assert.deepEqual(await refused(page), ["d4"], "one square marked at a time");
  assert.equal((await msg(page)).text, "d4: the square is taken.");
  assert.equal((await h.view(page)).version, v.version, "nothing was played");
  // A legal move clears the mark and the message.
  await page.locator(`[data-sq="${v.legal[0]}"]`).click();
  await h.waitVersion(page, v.version);
  assert.deepEqual(await refused(page), []);
  assert.equal((await msg(page)).kind, "none");

  // Low time: the side to move, at 10 s and less, is marked, and each second ticks (sound on).
  assert.equal(await page.locator("#mute").getAttribute("aria-pressed"), "true");
  await page.waitForFunction(() => document.getElementById("side-white").classList.contains("low-time"), null, { timeout: 15000 });
  assert.ok(await page.locator("#clock-white.low").isVisible());
  assert.ok(!(await page.locator("#side-black").evaluate((e) => e.classList.contains("low-time"))), "only the running clock");
  await page.waitForFunction(() => window.reversiDebug.lowBeeps >= 2, null, { timeout: 10000 });
  assert.match(await page.locator("#live").textContent(), /White: 10 seconds left\./);
  // With the sound off, nothing more is heard.
  await page.getByRole("button", { name: "Sound", exact: true }).click();
  const beeps = await page.evaluate(() => window.reversiDebug.lowBeeps);
  const secs = await page.locator("#clock-white").textContent();
  await page.waitForFunction((s) => document.getElementById("clock-white").textContent !== s, secs);
  assert.equal(await page.evaluate(() => window.reversiDebug.lowBeeps), beeps);
  assert.deepEqual(await h.axe(page, "refused click, low time"), []);
  assert.deepEqual(page.errors || [], []);
});

test("hints are disc margins within -64..64", { timeout: 90000 }, async () => {
  const page = await env.newPage();
  // A lopsided midgame (24 empties): black has 39 discs, white one (e4), white to move (e6).
  const cells = Array(64).fill("-");
  for (let i = 0; i < 40; i++) cells[i] = "X";
  cells[28] = "O";
  await page.goto(`${env.server.url}/?board=${encodeURIComponent(cells.join("") + " O")}&mode=two_players`);
  await h.waitVersion(page, 0);
  await page.getByRole("button", { name: "Hints" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#hints li").length > 0 && !/Loading|Thinking/.test(document.getElementById("hints-unit").textContent), null, { timeout: 60000 });
  const hints = await page.locator("#hints li").allTextContents();
  for (const t of hints) {
    const m = t.match(/^[a-h][1-8]: ([+-]?\d+) (estimated )?discs/);
    assert.ok(m, t);
    assert.ok(Math.abs(+m[1]) <= 64, t);
  }
  assert.deepEqual(page.errors || [], []);
});

test("a move made while disconnected is shown as pending, then played", { timeout: 90000 }, async () => {
  const page = await env.newPage();
  await page.goto(env.server.url + "/");
  await page.getByLabel("Online").check();
  await page.waitForFunction(() => document.getElementById("conn").dataset.state === "online");
  await page.locator("#bot-level").selectOption("easy");
  await page.locator("#room-color").selectOption("black");
  await page.getByRole("button", { name: "Host a room with a bot" }).click();
  await page.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true", null, { timeout: 15000 });
  const v = await h.view(page);

  await page.evaluate(() => window.reversiDebug.holdConnection(true));
  await page.waitForFunction(() => document.getElementById("conn").dataset.state === "offline");
  const sq = v.legal[0];
  await page.locator(`[data-sq="${sq}"]`).click();
  assert.ok(await page.locator(`[data-sq="${sq}"].pending`).isVisible(), "the square shows the pending move");
  assert.deepEqual(await msg(page), { text: `${sq}: not sent yet: it will be played when the connection is back.`, kind: "pending", shown: true });
  // A second click waits for the first.
  await page.locator(`[data-sq="${v.legal[1] || v.legal[0]}"]`).click();
  assert.match((await msg(page)).text, new RegExp(`your move ${sq} is on its way`));
  assert.equal((await h.view(page)).history.length, 0);
  assert.deepEqual(await h.axe(page, "pending move"), []);

  await page.evaluate(() => window.reversiDebug.holdConnection(false));
  await page.waitForFunction((sq) => [...document.querySelectorAll("#history li")].some((li) => li.textContent === `Black ${sq}`), sq, { timeout: 15000 });
  await page.waitForFunction(() => !document.querySelector(".sq.pending"));
  assert.notEqual((await msg(page)).kind, "pending");
  assert.deepEqual(page.errors || [], []);
});
