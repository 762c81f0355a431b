// What a new player meets: the start choice (never an empty board), the favicon, the sound toggle,
// feedback on an illegal square, hints with their unit, Resign and mode changes that ask first,
// the result dialog with Play again, the phone layout, plain words for a used invite link, and
// axe-core on every screen.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

const START = "-".repeat(27) + "OX" + "-".repeat(6) + "XO" + "-".repeat(27);
const live = (p) => p.locator("#live").textContent();

test("first load, sound, illegal squares, hints, resign, play again, mode change", { timeout: 120000 }, async () => {
  const page = await env.newPage();
  const problems = [];
  await page.goto(env.server.url + "/");
  await page.waitForFunction(() => window.reversiDebug.engineReady);

  // The start choice over the starting position: the counts are right, nothing is empty.
  assert.ok(await page.getByRole("heading", { name: "Choose a game" }).isVisible());
  assert.equal(await h.discs(page), START);
  const v0 = await h.view(page);
  assert.equal(v0.black, 2);
  assert.equal(v0.white, 2);
  assert.deepEqual(v0.legal, []);
  problems.push(...await h.axe(page, "start"));

  // The favicon is served; the page names it.
  const icon = await page.request.get(env.server.url + "/favicon.svg");
  assert.equal(icon.status(), 200);
  assert.match(icon.headers()["content-type"], /image\/svg\+xml/);
  assert.equal(await page.locator('link[rel="icon"]').getAttribute("href"), "/favicon.svg");

  // The sound button: one name, its state in aria-pressed.
  const sound = page.getByRole("button", { name: "Sound", exact: true });
  assert.equal(await sound.getAttribute("aria-pressed"), "true");
  await sound.click();
  assert.equal(await sound.getAttribute("aria-pressed"), "false");
  assert.equal(await sound.textContent(), "Sound");
  await sound.click();
  assert.equal(await sound.getAttribute("aria-pressed"), "true");

  // Two players from the start choice.
  await page.getByRole("button", { name: "Two players here" }).click();
  await h.waitVersion(page, 0);
  assert.ok(await page.locator("#start").isHidden());
  assert.ok(await page.getByLabel("Two players on this device").isChecked());

  // Illegal squares, by click and by Enter, are explained in the live region; nothing is sent.
  const v1 = await h.view(page);
  await page.locator('[data-sq="a1"]').click();
  await page.waitForFunction(() => /a1: no discs to flip\./.test(document.getElementById("live").textContent));
  await page.locator('[data-sq="d4"]').focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /d4: the square is taken\./.test(document.getElementById("live").textContent));
  assert.equal((await h.view(page)).version, v1.version);

  // Hints: every legal move ranked, the unit said (estimated discs: the Expert level's weights,
  // which the worker fetches from the server, are in).
  // The weights are fetched when the hints first need them.
  assert.equal(await page.evaluate(() => window.reversiDebug.weights), "idle");
  await page.getByRole("button", { name: "Hints" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#hints li").length === 4, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.reversiDebug.weights), "ready");
  const hints = await page.locator("#hints li").allTextContents();
  assert.deepEqual(hints.map((t) => t.slice(0, 2)).sort(), ["c4", "d3", "e6", "f5"]);
  for (const t of hints) assert.match(t, /^[a-h][1-8]: [+-]?\d+ estimated discs$/);
  assert.match(await page.locator("#hints-unit").textContent(), /in estimated discs/);
  assert.match(await live(page), /Best move: [a-h][1-8]\./);
  problems.push(...await h.axe(page, "two players, hints"));
  // A move hides the hints of the position before it.
  await page.locator('[data-sq="d3"]').click();
  await h.waitVersion(page, v1.version);
  assert.ok(await page.locator("#hints-box").isHidden());

  // Changing mode mid-game asks; declining keeps the game.
  let asked = h.onDialog(page, false);
  await page.getByLabel("Against the computer").check({ force: true }).catch(() => {});
  assert.match(await asked, /Leave the game in progress/);
  assert.ok(await page.getByLabel("Two players on this device").isChecked());
  assert.equal((await h.lastState(page)).status, "playing");

  // Resign asks first; declining keeps the game; accepting ends it with the result dialog.
  asked = h.onDialog(page, false);
  await page.getByRole("button", { name: "Resign" }).click();
  assert.equal(await asked, "Resign this game?");
  await page.waitForTimeout(200);
  assert.equal((await h.lastState(page)).status, "playing");
  asked = h.onDialog(page, true);
  await page.getByRole("button", { name: "Resign" }).click();
  await asked;
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  assert.equal(await page.locator("#result-title").textContent(), "Black wins");
  assert.match(await page.locator("#result-text").textContent(), /^Black wins by resignation, \d+–\d+\.$/);
  assert.equal(await page.evaluate(() => document.activeElement.id), "again", "the dialog takes the focus");
  problems.push(...await h.axe(page, "result, two players"));
  await page.keyboard.press("Escape");
  assert.ok(await page.locator("#result").isHidden());

  // Against the computer: Play again swaps the colours, same level.
  await page.getByLabel("Against the computer").check();
  await page.locator("#level").selectOption("easy");
  await page.locator("#color").selectOption("black");
  await page.getByRole("button", { name: "New game" }).click();
  await page.waitForFunction(() => window.reversiDebug.state && window.reversiDebug.state.mode === "computer");
  await h.waitTurnOrOver(page);
  asked = h.onDialog(page, true);
  await page.getByRole("button", { name: "Resign" }).click();
  await asked;
  await dialog.waitFor();
  assert.equal(await page.locator("#result-title").textContent(), "The computer wins");
  await page.getByRole("button", { name: "Play again" }).click();
  await page.waitForFunction(() => window.reversiDebug.state.human === "white" && window.reversiDebug.state.status === "playing");
  const s = await h.lastState(page);
  assert.equal(s.level, "easy");
  assert.equal(s.mode, "computer");
  assert.ok(await page.locator("#result").isHidden());

  // Changing mode (accepted) really leaves: the game is closed and forgotten, the start choice is back.
  asked = h.onDialog(page, true);
  await page.getByLabel("Two players on this device").check();
  await asked;
  await page.getByRole("heading", { name: "Choose a game" }).waitFor();
  assert.equal(await h.savedLocal(page), null);
  await page.reload();
  await page.getByRole("heading", { name: "Choose a game" }).waitFor();

  assert.deepEqual(problems, []);
  assert.deepEqual(page.errors || [], []);
});

test("a phone: no sideways scrolling, the board as large as fits, the set-up folded", { timeout: 60000 }, async () => {
  const page = await env.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(env.server.url + "/");
  await page.waitForFunction(() => window.reversiDebug.engineReady);
  const width = () => page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(await width() <= 390, `start: ${await width()} px wide`);
  assert.deepEqual(await h.axe(page, "phone, start"), []);
  await page.getByRole("button", { name: "Play the computer" }).click();
  await h.waitVersion(page, 0);
  assert.equal(await page.locator("#setup-box").evaluate((d) => d.open), false, "the set-up is folded during a game");
  assert.ok(await width() <= 390, `game: ${await width()} px wide`);
  const boardBox = await page.locator("#board").boundingBox();
  assert.ok(boardBox.width >= 320 && boardBox.x + boardBox.width <= 390, `board ${JSON.stringify(boardBox)}`);
  const white = await page.locator("#side-white").boundingBox();
  assert.ok(white.x + white.width <= 390, `white's panel ends at ${white.x + white.width}`);
  // It opens again on demand.
  await page.locator("#setup-box > summary").click();
  assert.equal(await page.locator("#setup-box").evaluate((d) => d.open), true);
  assert.ok(await width() <= 390);
  await page.locator("#setup-box > summary").click();
  await page.waitForTimeout(300);
  await h.shotPage(page, "phone-layout");
  assert.deepEqual(await h.axe(page, "phone, game"), []);
  assert.deepEqual(page.errors || [], []);
});

test("online screens pass axe; a used invite link says so in plain words", { timeout: 60000 }, async () => {
  const a = await env.newPage();
  const b = await env.newPage();
  const c = await env.newPage();
  await a.goto(env.server.url + "/");
  await a.getByLabel("Online").check();
  await a.waitForFunction(() => document.getElementById("conn").dataset.state === "online");
  const problems = await h.axe(a, "online set-up");
  await a.getByRole("button", { name: "Create an invite" }).click();
  const url = await a.getByRole("textbox", { name: "Invite link" }).inputValue();
  problems.push(...await h.axe(a, "invite"));
  await b.goto(url);
  await Promise.all([h.waitVersion(a, 0), h.waitVersion(b, 0)]);
  problems.push(...await h.axe(b, "online game"));
  // A third person opens the same link: plain words, and the address no longer holds the code.
  await c.goto(url);
  await c.waitForFunction(() => /already been used/.test(document.getElementById("info").textContent));
  assert.match(await c.locator("#info").textContent(), /^This invite link has already been used: its game has both players\./);
  assert.equal(new URL(c.url()).pathname, "/");
  // A room id that does not exist.
  await c.locator("#code").fill("H0123456789ab");
  await c.getByRole("button", { name: "Join", exact: true }).click();
  await c.waitForFunction(() => /no such room/.test(document.getElementById("info").textContent));
  // Something that is neither.
  await c.locator("#code").fill("Hello there");
  await c.getByRole("button", { name: "Join", exact: true }).click();
  await c.waitForFunction(() => /is not a room id|neither an invite code nor a room id|not a valid|unknown/i.test(document.getElementById("info").textContent));
  problems.push(...await h.axe(c, "online, refused"));
  assert.deepEqual(problems, []);
  for (const p of [a, b, c]) assert.deepEqual(p.errors || [], []);
});
