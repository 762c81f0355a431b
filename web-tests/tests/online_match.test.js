// Two browser contexts matched online through an invite link play a whole game to its end, then a
// rematch that both accept.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

test("two browser contexts matched online play to the end", { timeout: 240000 }, async () => {
  const a = await env.newPage();
  const b = await env.newPage();
  await a.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  const sent = [];
  a.on("websocket", (ws) => ws.on("framesent", (f) => sent.push(String(f.payload))));
  await a.goto(env.server.url + "/");
  assert.deepEqual(a.sockets, [], "no WebSocket before the person chooses to play online");
  await a.getByLabel("Online").check();
  await a.waitForFunction(() => document.getElementById("conn").dataset.state === "online");
  await a.getByRole("button", { name: "Create an invite" }).click();
  const link = a.getByRole("textbox", { name: "Invite link" });
  await link.waitFor();
  const url = await link.inputValue();
  const code = await a.locator("#invite-code").textContent();
  assert.equal(url, `${env.server.url}/join/${code}`);
  await a.getByRole("button", { name: "Copy link" }).click();
  await a.getByText("Invite link copied.").waitFor();

  // b opens the link and is matched.
  await b.goto(url);
  await Promise.all([h.waitVersion(a, 0), h.waitVersion(b, 0)]);
  const colors = await Promise.all([a, b].map((p) => p.locator("#info").textContent()));
  assert.ok(colors.some((c) => /you play black/.test(c)) && colors.some((c) => /you play white/.test(c)), colors.join(" / "));
  assert.ok(await b.getByLabel("Online").isChecked());

  let moves = 0;
  for (;;) {
    await Promise.race([a, b].map((p) => p.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true"
      || /Game over/.test(document.getElementById("turn").textContent), null, { timeout: 30000 })));
    const va = await h.view(a);
    const vb = await h.view(b);
    if (va.over || vb.over) break;
    const [p, v, other] = va.myTurn ? [a, va, vb] : [b, vb, va];
    assert.ok(!other.myTurn, "only one side may play");
    // The side not to move sees no legal dots.
    assert.equal(other.legal.length, 0);
    await p.locator(`[data-sq="${v.legal[0]}"]`).click();
    await Promise.all([a, b].map((q) => h.waitVersion(q, v.version)));
    moves++;
    if (moves === 30) { await a.waitForTimeout(500); await h.shot(a, "online-a-move30"); await h.shot(b, "online-b-move30"); }
  }
  await Promise.all([a, b].map((p) => p.waitForFunction(() => /Game over/.test(document.getElementById("turn").textContent))));
  const [fa, fb] = [await h.view(a), await h.view(b)];
  assert.ok(moves > 20, `${moves} moves`);
  assert.equal(fa.turn, fb.turn);
  assert.deepEqual(fa.history, fb.history);
  assert.equal(fa.black + fa.white > 20, true);
  assert.match(fa.turn, /Game over: (Black wins|White wins|no winner)/);
  // Each page shows its last state's board once the last move's flips have turned; both agree.
  assert.equal(await h.settledDiscs(a), await h.settledDiscs(b));
  for (const p of [a, b]) await p.waitForFunction(() => /Game over/.test(document.getElementById("live").textContent));
  await a.waitForTimeout(400);
  await h.shot(a, "online-end");

  for (const p of [a, b]) await p.getByRole("dialog").waitFor();
  // The status line of the match ("Matched: you play black.") went with the game.
  for (const p of [a, b]) assert.equal(await p.locator("#info").textContent(), "");

  // The review of an online game is made in the page's worker: nothing goes to the server.
  const before = sent.length;
  await a.getByRole("button", { name: "Review the game" }).click();
  await a.waitForFunction(() => window.reversiDebug.review && window.reversiDebug.review.finished, null, { timeout: 180000 });
  const r = await a.evaluate(() => window.reversiDebug.review);
  assert.equal(r.scores.length, fa.history.length + 1);
  assert.ok(r.scores.every((x) => typeof x === "number" && Math.abs(x) <= 64), r.scores.join(","));
  assert.deepEqual(sent.slice(before).filter((f) => !/"type":"ping"/.test(f)), [], "nothing sent for the review");
  await a.waitForTimeout(100);
  await h.shotPage(a, "review-online");
  assert.deepEqual(await h.axe(a, "online review"), []);
  await a.getByRole("button", { name: "Back to the game" }).click();

  // The result dialog offers a rematch; it starts only when both accept.
  const first = (await h.lastState(a)).game;
  for (const p of [a, b]) await p.getByRole("dialog").waitFor();
  assert.match(await a.locator("#result-title").textContent(), /^(You win|You lose|No winner)/);
  assert.ok(await a.getByRole("button", { name: "Play again" }).isHidden(), "no Play again online");
  await a.getByRole("button", { name: "Offer a rematch" }).click();
  await a.getByText("Rematch offered: waiting for your opponent to accept.").waitFor();
  await b.getByText("Your opponent offers a rematch.").first().waitFor();
  assert.equal((await h.lastState(b)).game, first, "nothing starts on one offer");
  await b.getByRole("button", { name: "Accept the rematch" }).click();
  await Promise.all([a, b].map((p) => p.waitForFunction((g) => window.reversiDebug.state
    && window.reversiDebug.state.game !== g && window.reversiDebug.state.status === "playing", first)));
  assert.equal((await h.lastState(a)).game, (await h.lastState(b)).game);
  for (const p of [a, b]) assert.ok(await p.locator("#result").isHidden());
  assert.equal((await h.view(a)).history.length, 0);
  assert.deepEqual(a.errors || [], []);
  assert.deepEqual(b.errors || [], []);
});
