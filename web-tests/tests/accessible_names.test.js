// Every square has an accessible name: its name, its disc, whether it is legal and how many discs
// it would flip, exactly as the engine describes it.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

test("the accessible names of squares", { timeout: 60000 }, async () => {
  const page = await env.newPage();
  await page.goto(env.server.url + "/");
  await page.getByLabel("Two players on this device").check();
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);

  const grid = page.getByRole("grid", { name: "Board" });
  assert.equal(await grid.getByRole("row").count(), 8);
  assert.equal(await grid.getByRole("gridcell").count(), 64);
  for (const [sq, name] of [["d3", "d3, empty, legal, flips 1"], ["d4", "d4, white"], ["e4", "e4, black"],
    ["a1", "a1, empty, not legal"], ["h8", "h8, empty, not legal"], ["f5", "f5, empty, legal, flips 1"]]) {
    const cell = grid.getByRole("gridcell", { name, exact: true });
    assert.equal(await cell.count(), 1, name);
    assert.equal(await cell.getAttribute("data-sq"), sq);
  }
  // The page shows the engine's descriptions one for one, a1 first.
  const labels = async () => page.$$eval('[role="gridcell"]', (cs) => cs.map((c) => c.getAttribute("aria-label")));
  assert.deepEqual(await labels(), (await h.lastState(page)).squares);

  // After a move the names follow.
  await grid.getByRole("gridcell", { name: "d3, empty, legal, flips 1" }).click();
  await h.waitVersion(page, 1);
  assert.equal(await grid.getByRole("gridcell", { name: "d3, black", exact: true }).count(), 1);
  assert.equal(await grid.getByRole("gridcell", { name: "d4, black", exact: true }).count(), 1);
  assert.equal(await grid.getByRole("gridcell", { name: "c3, empty, legal, flips 1", exact: true }).count(), 1);
  assert.deepEqual(await labels(), (await h.lastState(page)).squares);
  // A square that would flip several discs says so (play on until one appears).
  let several = [];
  for (let i = 0; i < 20 && several.length === 0; i++) {
    const v = await h.view(page);
    await page.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(page, v.version);
    several = (await labels()).filter((n) => /, empty, legal, flips [2-9]$/.test(n));
  }
  assert.ok(several.length > 0, "some square flips more than one disc");
  assert.deepEqual(await labels(), (await h.lastState(page)).squares);
  // The live region and the board's help are present.
  assert.equal(await page.locator('[aria-live="polite"]#live').count(), 1);
  assert.match(await grid.getAttribute("aria-describedby"), /board-help/);
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
});
