// Online: a random match (after a cancelled wait), a refresh in the middle of the game that
// rejoins it, and a change of mode that asks to resign first.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

async function goOnline(page) {
  await page.goto(env.server.url + "/");
  await page.getByLabel("Online").check();
  await page.waitForFunction(() => document.getElementById("conn").dataset.state === "online");
}

/** Plays one move on whichever page is to move; returns that page. */
async function playOne(pages) {
  await Promise.race(pages.map((p) => p.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true")));
  for (const p of pages) {
    const v = await h.view(p);
    if (v.myTurn) {
      await p.locator(`[data-sq="${v.legal[0]}"]`).click();
      await Promise.all(pages.map((q) => h.waitVersion(q, v.version)));
      return p;
    }
  }
  throw new Error("nobody to move");
}

test("a refresh in the middle of an online game rejoins it", { timeout: 120000 }, async () => {
  const a = await env.newPage();
  const b = await env.newPage();
  await goOnline(a);
  await goOnline(b);

  // A wait can be cancelled.
  await a.getByRole("button", { name: "Play a random opponent" }).click();
  await a.getByText("Waiting for an opponent").waitFor();
  await a.getByRole("button", { name: "Cancel wait" }).click();
  await a.getByText("Wait cancelled.").waitFor();
  assert.ok(await a.locator("#waiting").isHidden());

  // Both queue and are matched.
  await a.getByRole("button", { name: "Play a random opponent" }).click();
  await a.getByText("Waiting for an opponent").waitFor();
  await b.getByRole("button", { name: "Play a random opponent" }).click();
  await Promise.all([h.waitVersion(a, 0), h.waitVersion(b, 0)]);
  assert.match(await a.locator("#info").textContent(), /Matched: you play (black|white)/);
  assert.ok(await a.getByRole("button", { name: "Undo" }).isHidden(), "no undo online");
  assert.ok(await a.evaluate(() => !!sessionStorage.getItem("reversi.token")));

  for (let i = 0; i < 4; i++) await playOne([a, b]);
  const before = await h.view(a);
  const discsBefore = await h.settledDiscs(a);
  assert.equal(before.history.length, 4);
  assert.match(await a.locator("#clock-black").textContent(), /^0:[0-3]\d$/, "30 s per move");

  // Refresh a: the page rejoins the same game, same board, same seat.
  await a.reload();
  await h.waitVersion(a, 0);
  await a.waitForFunction(() => document.getElementById("conn").dataset.state === "online");
  const v = await h.view(a);
  assert.deepEqual(v.history, before.history);
  assert.equal(await h.settledDiscs(a), discsBefore);
  assert.equal(v.myTurn, before.myTurn);
  assert.equal(v.turn, before.turn);
  assert.ok(await a.getByLabel("Online").isChecked(), "the online mode is shown again");
  await h.shot(a, "online-after-refresh");

  // The game goes on from both sides.
  for (let i = 0; i < 4; i++) await playOne([a, b]);
  assert.equal((await h.view(a)).history.length, 8);
  assert.equal((await h.view(b)).history.length, 8);

  // Changing mode mid-game asks to resign first; declining keeps the game. (The set-up folds away
  // during an online game: it is opened first.)
  assert.equal(await a.locator("#setup-box").evaluate((d) => d.open), false);
  await a.locator("#setup-box > summary").click();
  let asked = 0;
  a.once("dialog", (d) => { asked++; d.dismiss(); });
  await a.getByLabel("Against the computer").check({ force: true }).catch(() => {});
  assert.equal(asked, 1);
  assert.ok(await a.getByLabel("Online").isChecked());
  a.once("dialog", (d) => { asked++; d.accept(); });
  await a.getByLabel("Two players on this device").check();
  assert.equal(asked, 2);
  await b.waitForFunction(() => /by resignation/.test(document.getElementById("turn").textContent));
  await b.waitForFunction(() => /Game over/.test(document.getElementById("live").textContent));
  assert.deepEqual(a.errors || [], []);
  assert.deepEqual(b.errors || [], []);
});
