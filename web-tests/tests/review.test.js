// The review after a game: step through the moves (buttons, arrow keys, the position in words),
// and a graph of Expert's evaluation after each move, in discs within -64..64 and exact for the
// last 14 empties, computed in the worker with its progress shown, the three biggest swings of
// each side marked, a click on the graph or on a swing going to that move. A local game's review
// never reaches the server (no WebSocket at all). axe finds nothing on the review.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

// A naive board for making a test position: 64 cells, "X" black, "O" white, "-" empty.
const DIRS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
function flipsOf(b, i, me) {
  if (b[i] !== "-") return [];
  const them = me === "X" ? "O" : "X";
  const r0 = Math.floor(i / 8), c0 = i % 8;
  const out = [];
  for (const [dr, dc] of DIRS) {
    const line = [];
    let r = r0 + dr, c = c0 + dc;
    while (r >= 0 && r < 8 && c >= 0 && c < 8 && b[r * 8 + c] === them) { line.push(r * 8 + c); r += dr; c += dc; }
    if (line.length && r >= 0 && r < 8 && c >= 0 && c < 8 && b[r * 8 + c] === me) out.push(...line);
  }
  return out;
}
/** The position after `n` placements picked by a small seeded generator from the start. */
function position(n, seed) {
  const b = ("-".repeat(27) + "OX" + "-".repeat(6) + "XO" + "-".repeat(27)).split("");
  let me = "X";
  let x = seed;
  for (let k = 0; k < n;) {
    const moves = [];
    for (let i = 0; i < 64; i++) if (flipsOf(b, i, me).length) moves.push(i);
    if (!moves.length) { me = me === "X" ? "O" : "X"; continue; }
    x = (x * 1103515245 + 12345) % 2147483648;
    const i = moves[x % moves.length];
    for (const f of flipsOf(b, i, me)) b[f] = me;
    b[i] = me;
    me = me === "X" ? "O" : "X";
    k++;
  }
  return b.join("") + " " + me;
}

test("a local game's review: steps, words, the graph and its swings", { timeout: 180000 }, async () => {
  const page = await env.newPage({ viewport: { width: 1366, height: 768 } });
  // 20 empties: the review has midgame evaluations and exact ones (14 empties and fewer).
  const start = position(40, 7);
  await page.goto(`${env.server.url}/?board=${encodeURIComponent(start)}&mode=two_players`);
  await h.waitVersion(page, 0);
  for (;;) {
    const v = await h.waitTurnOrOver(page);
    if (v.over) break;
    await page.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(page, v.version);
  }
  const final = await h.lastState(page);
  const n = final.history.length;
  assert.ok(n >= 15, `${n} moves`);
  await page.getByRole("dialog").waitFor();
  // The result leaves the final position in view (it is under the board, not over it).
  const overlap = await page.evaluate(() => {
    const a = document.getElementById("board").getBoundingClientRect();
    const b = document.getElementById("result").getBoundingClientRect();
    return !(b.top >= a.bottom || b.bottom <= a.top || b.left >= a.right || b.right <= a.left);
  });
  assert.equal(overlap, false, "the result does not cover the board");
  assert.equal(await h.boardInView(page), "");

  await page.getByRole("button", { name: "Review the game" }).click();
  await page.locator("#review").waitFor();
  // Progress is shown while the worker analyses (the weights first, then each position).
  await page.waitForFunction(() => window.reversiDebug.review && window.reversiDebug.review.total > 0);
  await page.waitForFunction(() => window.reversiDebug.review.finished, null, { timeout: 120000 });
  assert.equal(await page.evaluate(() => window.reversiDebug.reviewProgressShown), true, "progress was shown");
  assert.ok(await page.locator("#rv-progress").isHidden(), "the progress goes when done");
  const r = await page.evaluate(() => window.reversiDebug.review);
  assert.equal(r.total, n + 1);
  assert.equal(r.scores.length, n + 1);
  // Every score is a disc margin for black within -64..64; exact from 14 empties.
  const empties0 = start.slice(0, 64).split("").filter((c) => c === "-").length;
  let placed = 0;
  for (let i = 0; i <= n; i++) {
    if (i > 0 && final.history[i - 1].move !== "pass") placed++;
    assert.equal(typeof r.scores[i], "number", `score ${i}`);
    assert.ok(Math.abs(r.scores[i]) <= 64, `score ${i}: ${r.scores[i]}`);
    if (empties0 - placed <= 14) assert.equal(r.exact[i], true, `position ${i} (${empties0 - placed} empties) is exact`);
  }
  // The final score is the game's: black's discs minus white's.
  assert.equal(r.scores[n], final.count.black - final.count.white);
  // Swings: at most three per side, each marked on the graph.
  assert.ok(r.swings.length > 0);
  for (const c of ["black", "white"]) assert.ok(r.swings.filter((s) => s.color === c).length <= 3);
  assert.equal(await page.locator("#rv-graph circle.swing").count(), r.swings.length);

  // Steps: the last position first; buttons and arrow keys; the position said in words.
  assert.match(await page.locator("#rv-pos").textContent(), new RegExp(`^Move ${n} of ${n}: `));
  await page.getByRole("button", { name: "Previous move" }).click();
  assert.match(await page.locator("#rv-pos").textContent(), new RegExp(`^Move ${n - 1} of ${n}: (black|white) (played [a-h][1-8]|passed)\\. Black \\d+, white \\d+\\. Evaluation: `));
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.evaluate(() => window.reversiDebug.review.idx), n - 2);
  await page.keyboard.press("Home");
  assert.match(await page.locator("#rv-pos").textContent(), /^Start of the game/);
  assert.equal(await h.discs(page), start.slice(0, 64), "the board shows the start");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => window.reversiDebug.review.idx), 1);
  assert.match(await page.locator('[data-sq="a1"]').getAttribute("aria-label"), /^a1, (black|white|empty)/);
  // A click on the graph goes to that move (its right end: the last).
  const box = await page.locator("#rv-graph").boundingBox();
  await page.mouse.click(box.x + box.width - 3, box.y + box.height / 2);
  assert.equal(await page.evaluate(() => window.reversiDebug.review.idx), n);
  // A swing's button goes to its move.
  const sw = r.swings[0];
  await page.locator("#rv-swings button").first().click();
  assert.equal(await page.evaluate(() => window.reversiDebug.review.idx), sw.move);
  // A click on the board while reviewing is refused, visibly.
  await page.locator('[data-sq="a1"]').click();
  assert.match(await page.locator("#board-msg").textContent(), /this is the review/);
  assert.equal(await h.boardInView(page), "");
  await page.waitForTimeout(100);
  await h.shotPage(page, "review-desktop");
  assert.deepEqual(await h.axe(page, "review"), []);

  // Back to the game: the final position and the result again.
  await page.getByRole("button", { name: "Back to the game" }).click();
  assert.equal(await h.discs(page), final.board);
  await page.getByRole("dialog").waitFor();
  assert.deepEqual(page.sockets, [], "the review never reached the server");
  assert.deepEqual(page.errors || [], []);

  // On a phone the result stays off the final position; the review keeps the board in view too.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const covered = await page.evaluate(() => {
    const a = document.getElementById("board").getBoundingClientRect();
    const b = document.getElementById("result").getBoundingClientRect();
    return !(b.top >= a.bottom || b.bottom <= a.top || b.left >= a.right || b.right <= a.left);
  });
  assert.equal(covered, false, "on a phone the result does not cover the board");
  await h.shotPage(page, "result-phone");
  await page.getByRole("button", { name: "Review the game" }).click();
  await page.waitForFunction(() => window.reversiDebug.review.open);
  await page.evaluate(() => window.scrollTo(0, 0));
  assert.equal(await h.boardInView(page), "");
  await h.shotPage(page, "review-phone-board");
  await page.locator("#review").scrollIntoViewIfNeeded();
  await h.shotPage(page, "review-phone-graph");
});
