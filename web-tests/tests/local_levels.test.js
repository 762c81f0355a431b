// Whole local games against Normal and Hard, played in the page's worker: no WebSocket is opened,
// and the page stays responsive while the computer thinks. Screenshots of a local game on a phone
// and on a desktop.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

// Counts, in the page, the interval ticks and animation frames seen while each computer move was
// being thought (keyed by the state that said `thinking`).
function watchThinking() {
  const periods = (window.thinkingPeriods = {});
  const key = () => {
    const s = window.reversiDebug.state;
    return s && s.thinking ? `${s.game}:${s.version}` : null;
  };
  const at = (k) => (periods[k] = periods[k] || { ticks: 0, frames: 0 });
  setInterval(() => { const k = key(); if (k) at(k).ticks++; }, 20);
  const frame = () => { const k = key(); if (k) at(k).frames++; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}

async function wholeGame(page, level, color) {
  await page.goto(env.server.url + "/");
  await page.evaluate(watchThinking);
  await page.getByLabel("Against the computer").check();
  await page.locator("#level").selectOption(level);
  await page.locator("#color").selectOption(color);
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  let moves = 0;
  for (;;) {
    const v = await h.waitTurnOrOver(page, 120000);
    if (v.over) break;
    await page.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(page, v.version);
    moves++;
  }
  const v = await h.view(page);
  const s = await h.lastState(page);
  assert.equal(s.kind, "local");
  assert.equal(s.level, level);
  assert.equal(s.human, color);
  assert.equal(s.status, "over");
  assert.match(v.turn, /Game over/);
  const mine = new RegExp(`^${color === "black" ? "Black" : "White"} [a-h][1-8]$`);
  const theirs = new RegExp(`^${color === "black" ? "White" : "Black"} [a-h][1-8]$`);
  assert.equal(v.history.filter((x) => mine.test(x)).length, moves, "every click is in the history");
  assert.ok(v.history.some((x) => theirs.test(x)), "the computer played");
  assert.equal(v.black + v.white, s.count.black + s.count.white);
  assert.deepEqual(page.errors || [], []);
  assert.deepEqual(page.sockets, [], "a local game opens no WebSocket");
  return page.evaluate(() => window.thinkingPeriods);
}

test("a whole game against Normal, no WebSocket", { timeout: 300000 }, async () => {
  const page = await env.newPage();
  await wholeGame(page, "normal", "black");
});

test("a whole game against Hard, the page responsive while it thinks", { timeout: 600000 }, async () => {
  const page = await env.newPage();
  const periods = Object.values(await wholeGame(page, "hard", "white"));
  // The computer played white's opponent (black) about thirty times, each time thinking in the
  // worker while the page's timers and frames went on.
  assert.ok(periods.length >= 10, `${periods.length} computer moves seen thinking`);
  for (const p of periods) {
    assert.ok(p.ticks >= 3, `the page's timer kept ticking while the computer thought: ${JSON.stringify(p)}`);
  }
  assert.ok(periods.some((p) => p.frames > 0), "animation frames went on");
  await h.shot(page, "computer-hard-end");
});

for (const [width, height] of [[390, 844], [1280, 800]]) {
  test(`a local game at ${width}x${height}`, { timeout: 60000 }, async () => {
    const page = await env.newPage({ viewport: { width, height } });
    await page.goto(env.server.url + "/");
    await page.getByLabel("Against the computer").check();
    await page.locator("#time").selectOption("total");
    await page.locator("#total").fill("10");
    await page.getByRole("button", { name: "New game" }).click();
    await h.waitVersion(page, 0);
    for (let i = 0; i < 4; i++) {
      const v = await h.waitTurnOrOver(page);
      await page.locator(`[data-sq="${v.legal[v.legal.length - 1]}"]`).click();
      await h.waitVersion(page, v.version);
    }
    await h.waitTurnOrOver(page);
    await page.waitForTimeout(600); // the flips' animation
    // The whole board is on screen, the last square too.
    const box = await page.locator('[data-sq="h8"]').boundingBox();
    assert.ok(box && box.x + box.width <= width, "the board fits the width");
    const clock = await page.locator("#clock-white").boundingBox();
    assert.ok(clock && clock.x + clock.width <= width, "both clocks fit the width");
    await h.shotPage(page, `local-${width}x${height}`);
    assert.deepEqual(page.sockets, []);
    assert.deepEqual(page.errors || [], []);
  });
}
