// Hosted rooms for everyone in them, in three browser contexts: the host plays the bot; a guest
// opens the room's link, reserves the bot's seat, takes it at the result and plays the next game,
// survives a refresh; a visitor types the room id and watches. The host's pause freezes every
// clock; the guest leaving mid-game loses by abandonment; a closed tab shows as disconnected.
// Every screen passes axe-core.
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
async function playOne(pages, all) {
  await Promise.race(pages.map((p) => p.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true")));
  for (const p of pages) {
    const v = await h.view(p);
    if (v.myTurn) {
      await p.locator(`[data-sq="${v.legal[0]}"]`).click();
      await Promise.all((all || pages).map((q) => h.waitVersion(q, v.version)));
      return p;
    }
  }
  throw new Error("nobody to move");
}

const clocks = (p) => p.evaluate(() => [document.getElementById("clock-black").textContent, document.getElementById("clock-white").textContent]);

test("a hosted room for the host, a guest who takes the bot's seat, and a visitor", { timeout: 180000 }, async () => {
  const host = await env.newPage();
  const guest = await env.newPage();
  const visitor = await env.newPage();
  await host.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  const problems = [];

  // The host makes a room with an Easy bot and plays black.
  await goOnline(host);
  await host.locator("#bot-level").selectOption("easy");
  await host.locator("#room-color").selectOption("black");
  await host.locator("#room-secs").selectOption("60");
  await host.getByRole("button", { name: "Host a room with a bot" }).click();
  await host.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true", null, { timeout: 15000 });
  let r = await h.room(host);
  assert.match(r.id, /^Room H[0-9a-f]{12}$/);
  const id = r.id.slice(5);
  assert.match(r.facts, /^60 s per move\. Game 1 in progress\./);
  assert.deepEqual(r.seats, ["Black: You (host), connected", "White: Bot (Easy)"]);
  const link = await host.getByRole("textbox", { name: "Room link" }).inputValue();
  assert.equal(link, `${env.server.url}/join/${id}`);
  await host.getByRole("button", { name: "Copy room link" }).click();
  await host.getByText("Room link copied").waitFor();
  assert.equal(await host.evaluate(() => navigator.clipboard.readText()), link);

  // The guest opens the link; the visitor types the room id.
  await guest.goto(link);
  await guest.waitForFunction(() => !document.getElementById("room-panel").hidden && document.querySelectorAll("#room-seats li").length === 2);
  await goOnline(visitor);
  await visitor.locator("#code").fill(id);
  await visitor.getByRole("button", { name: "Join", exact: true }).click();
  await visitor.waitForFunction(() => !document.getElementById("room-panel").hidden && document.querySelectorAll("#room-seats li").length === 2);
  r = await h.room(guest);
  assert.equal(r.id, `Room ${id}`);
  assert.match(r.seats[0], /^Black: Player \d+ \(host\), connected$/);
  assert.equal(r.seats[1], "White: Bot (Easy)");
  assert.match(r.hostNote, /Only the host \(Player \d+\) can start, pause, resume or end a game/);
  // The host's "Room created" line went once someone joined.
  await host.waitForFunction(() => !/Room created/.test(document.getElementById("info").textContent));
  assert.match(r.people, /^In the room: Player \d+ \(host\), You\b/);
  // The room's link is in the address bar of everyone in it (the visitor typed the id).
  assert.equal(new URL(guest.url()).pathname, `/join/${id}`);
  assert.equal(new URL(visitor.url()).pathname, `/join/${id}`);
  assert.equal(new URL(host.url()).pathname, `/join/${id}`);
  // What the guest may not do is out of the way: hidden, with a short why on demand; host
  // buttons are absent; what they can do is shown.
  assert.ok(await guest.locator("#sit-black").isHidden());
  assert.ok(await guest.getByRole("button", { name: "Reserve the bot's seat" }).isVisible());
  assert.ok(await guest.getByRole("button", { name: "Leave room" }).isVisible());
  assert.ok(await guest.locator("#why-list").isHidden(), "the reasons are folded away");
  await guest.locator("#why-box > summary").click();
  assert.match(await guest.locator("#why-sit-black").textContent(), /^Sit as black: .*sits there\.$/);
  assert.match(await guest.locator("#why-stand").textContent(), /not seated/);
  await guest.locator("#why-box > summary").click();
  assert.ok(await guest.locator("#host-actions").isHidden());
  assert.equal(await guest.getByRole("button", { name: "Pause" }).count(), 0, "no host buttons for a guest");
  assert.equal((await h.view(guest)).myTurn, false);
  // A click on the board by someone not seated is explained.
  await guest.locator('[data-sq="d3"]').click();
  await guest.waitForFunction(() => /sit down to play/.test(document.getElementById("live").textContent));

  // The guest reserves the bot's seat: it changes at the result, and everyone sees it.
  await guest.getByRole("button", { name: "Reserve the bot's seat" }).click();
  await guest.waitForFunction(() => /you take this seat at the result/.test(document.getElementById("room-seats").textContent));
  await host.waitForFunction(() => /Player \d+ takes this seat at the result/.test(document.getElementById("room-seats").textContent));
  assert.ok(await guest.locator("#reserve").isHidden());
  assert.match(await guest.locator("#why-reserve").textContent(), /reserved: you take the bot's seat at the result/);
  await visitor.waitForFunction(() => /takes this seat at the result/.test(document.getElementById("room-seats").textContent));
  await host.waitForTimeout(300);
  await h.shotPage(host, "room-host");
  await h.shotPage(guest, "room-guest");
  problems.push(...await h.axe(host, "room, host"), ...await h.axe(guest, "room, guest"), ...await h.axe(visitor, "room, visitor"));

  // Two moves against the bot, then the host resigns: the guest takes the bot's seat.
  for (let i = 0; i < 2; i++) {
    const v = await h.waitTurnOrOver(host);
    await host.locator(`[data-sq="${v.legal[0]}"]`).click();
    await h.waitVersion(host, v.version);
  }
  await h.waitTurnOrOver(host);
  const asked = h.onDialog(host, true);
  await host.getByRole("button", { name: "Resign" }).click();
  assert.equal(await asked, "Resign this game?");
  await host.getByRole("dialog").waitFor();
  assert.equal(await host.locator("#result-title").textContent(), "You lose: White wins");
  assert.match(await host.locator("#result-text").textContent(), /^White wins by resignation, \d+–\d+\.$/);
  // The guest, who reserved the bot's seat and only watched, and the visitor are told the truth:
  // white (the bot) won; the guest sits for the next game.
  for (const p of [guest, visitor]) await p.locator("#result").waitFor();
  assert.equal(await guest.locator("#result-title").textContent(), "White wins");
  assert.equal(await guest.locator("#result-note").textContent(), "You watched this game; you now sit as white for the next one.");
  assert.equal(await visitor.locator("#result-title").textContent(), "White wins");
  assert.equal(await visitor.locator("#result-note").textContent(), "You watched this game.");
  await guest.waitForFunction(() => /^White: You, connected$/.test(document.querySelectorAll("#room-seats li")[1].textContent));
  r = await h.room(host);
  assert.match(r.seats[1], /^White: Player \d+, connected$/, "the bot left, the guest sits");
  assert.match(r.facts, /Last game: White wins by resignation/);
  await host.waitForTimeout(300);
  await h.shotPage(host, "result-dialog");
  problems.push(...await h.axe(host, "result dialog"));

  // The next game: host black, guest white.
  await host.getByRole("button", { name: "Start the next game" }).click();
  await Promise.all([host, guest, visitor].map((p) => p.waitForFunction(() => /Game 2 in progress/.test(document.getElementById("room-facts").textContent))));
  assert.ok(await host.locator("#result").isHidden());
  const movers = new Set();
  for (let i = 0; i < 4; i++) movers.add(await playOne([host, guest], [host, guest, visitor]));
  assert.equal(movers.size, 2, "both people played");
  const before = await h.view(guest);
  assert.equal(before.history.length, 4);

  // A refresh rejoins the room with the token, in the same seat.
  await guest.reload();
  await guest.waitForFunction(() => document.querySelectorAll("#history li").length === 4, null, { timeout: 15000 });
  r = await h.room(guest);
  assert.equal(r.id, `Room ${id}`);
  assert.equal(r.seats[1], "White: You, connected");
  assert.deepEqual((await h.view(guest)).history, before.history);
  await playOne([host, guest], [host, guest, visitor]);

  // The host pauses: every clock stops, on every screen.
  await host.getByRole("button", { name: "Pause" }).click();
  await Promise.all([host, guest, visitor].map((p) => p.waitForFunction(() => document.getElementById("turn").textContent === "Paused.")));
  const frozen = await Promise.all([host, guest, visitor].map(clocks));
  for (const c of frozen) assert.match(c.join(" "), /^\d:\d\d \d:\d\d$/);
  await host.waitForTimeout(2200);
  assert.deepEqual(await Promise.all([host, guest, visitor].map(clocks)), frozen, "the clocks stand still while paused");
  for (const p of [host, guest, visitor]) {
    const s = await h.lastState(p);
    assert.equal(s.clock.paused, true);
    assert.equal((await h.view(p)).myTurn, false);
  }
  assert.match((await h.room(visitor)).facts, /Paused by the host/);
  problems.push(...await h.axe(visitor, "paused room, visitor"));
  await host.getByRole("button", { name: "Resume" }).click();
  await Promise.all([host, guest].map((p) => p.waitForFunction(() => document.getElementById("turn").textContent !== "Paused.")));

  // The guest leaves mid-game, warned first: they lose by abandonment.
  const warned = h.onDialog(guest, true);
  await guest.getByRole("button", { name: "Leave room" }).click();
  assert.match(await warned, /abandons your game: you lose it/);
  for (const p of [host, visitor]) {
    await p.waitForFunction(() => /Game over: Black wins \(the game was abandoned\)/.test(document.getElementById("turn").textContent));
  }
  assert.equal(await host.locator("#result-title").textContent(), "You win (black)");
  // The seat and the people list may arrive in a later update than the result: wait for them.
  await host.waitForFunction(() => document.querySelectorAll("#room-seats li")[1].textContent === "White: empty"
    && /^In the room: You \(host\), Player \d+\.$/.test(document.getElementById("room-people").textContent));
  await guest.waitForFunction(() => document.getElementById("room-panel").hidden);
  // The person who left is told they lost, and the address bar leaves the room.
  assert.equal(await guest.locator("#info").textContent(), "You left the room during your game: you lost it by abandonment.");
  assert.equal(new URL(guest.url()).pathname, "/");
  r = await h.room(host);
  assert.equal(r.seats[1], "White: empty");
  assert.match(r.people, /^In the room: You \(host\), Player \d+\.$/, "the guest left, the visitor stays");
  assert.ok(await guest.locator("#room-panel").isHidden(), "the guest is out of the room");
  assert.ok(await guest.locator("#start").isVisible(), "the guest sees the start choice");

  assert.deepEqual(problems, []);
  for (const p of [host, guest, visitor]) assert.deepEqual(p.errors || [], []);

  // The visitor closes the tab: the host sees the disconnection and its grace.
  await visitor.close();
  await host.waitForFunction(() => /Player \d+, disconnected \(may return until \d/.test(document.getElementById("room-people").textContent));
});

test("the host ends a game, changes the bot's level, removes and adds it; a guest sits and stands", { timeout: 90000 }, async () => {
  const host = await env.newPage();
  const guest = await env.newPage();
  await goOnline(host);
  await host.locator("#bot-level").selectOption("easy");
  await host.locator("#room-color").selectOption("black");
  await host.getByRole("button", { name: "Host a room with a bot" }).click();
  await host.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true", null, { timeout: 15000 });
  const link = await host.getByRole("textbox", { name: "Room link" }).inputValue();
  await guest.goto(link);
  await guest.waitForFunction(() => document.querySelectorAll("#room-seats li").length === 2);

  // Mid-game the level cannot change (and says why); the host ends the game without a winner.
  assert.ok(await host.locator("#bot-level-set").isHidden());
  assert.equal(await host.locator("#why-bot-level-set").textContent(), "Change its level: between games only.");
  await host.getByRole("button", { name: "End game" }).click();
  await host.waitForFunction(() => /Game over: no winner \(ended by the host\)/.test(document.getElementById("turn").textContent));
  await guest.waitForFunction(() => /Last game: no winner \(ended by the host\)/.test(document.getElementById("room-facts").textContent));

  // Between games: the level changes.
  assert.match(await host.locator("#why-bot-level-set").textContent(), /it plays Easy: choose another level/);
  await host.locator("#room-bot-level").selectOption("normal");
  await host.getByRole("button", { name: "Change its level" }).click();
  await guest.waitForFunction(() => document.querySelectorAll("#room-seats li")[1].textContent === "White: Bot (Normal)");

  // The bot goes; the guest sits as white; the host starts; the guest stands up mid-game, warned.
  await host.getByRole("button", { name: "Remove the bot" }).click();
  // Each page renders the room when its own update arrives: wait on both before asserting on the host's.
  for (const p of [host, guest]) {
    await p.waitForFunction(() => document.querySelectorAll("#room-seats li")[1].textContent === "White: empty");
  }
  assert.ok(await host.locator("#room-start").isHidden());
  assert.equal(await host.locator("#why-room-start").textContent(), "Start a game: both seats must be filled.");
  await guest.getByRole("button", { name: "Sit as white" }).click();
  await host.waitForFunction(() => /^White: Player \d+, connected$/.test(document.querySelectorAll("#room-seats li")[1].textContent));
  await host.getByRole("button", { name: "Start a game" }).click();
  // Both pages still show the ended game's "Game over" until the new game arrives: wait for the
  // turn itself (black, the host, opens; white, the guest, always has a reply to the first move).
  await host.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true", null, { timeout: 15000 });
  const v = await h.view(host);
  await host.locator(`[data-sq="${v.legal[0]}"]`).click();
  await guest.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true", null, { timeout: 15000 });
  const warned = h.onDialog(guest, true);
  await guest.getByRole("button", { name: "Stand up" }).click();
  assert.match(await warned, /Standing up now abandons your game: you lose it/);
  await host.waitForFunction(() => /Game over: Black wins \(the game was abandoned\)/.test(document.getElementById("turn").textContent));
  await guest.waitForFunction(() => document.querySelectorAll("#room-seats li")[1].textContent === "White: empty");
  assert.ok(await guest.locator("#room-panel").isVisible(), "standing up keeps the guest in the room");

  // The host seats a bot again, in the empty seat.
  await host.getByRole("button", { name: "Add the bot" }).click();
  await guest.waitForFunction(() => document.querySelectorAll("#room-seats li")[1].textContent === "White: Bot (Normal)");
  assert.deepEqual(await h.axe(host, "room between games, host"), []);
  for (const p of [host, guest]) assert.deepEqual(p.errors || [], []);
});
