// Board first: in every mode, on a 1366x768 window and a 390x844 phone, the board, both sides
// (counts and clocks) and whose move it is lie inside the window without scrolling: the start
// choice, a game against the computer, two players, a hosted room seen by its host and by a
// spectator who opened its link, and an online game between two people. The focus goes to the
// board when a game starts. Screenshots of each screen go to target/screenshots.
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let env;
before(async () => { env = await h.setup(); });
after(async () => { if (env) await env.stop(); });

const SIZES = [
  { name: "desktop", viewport: { width: 1366, height: 768 } },
  { name: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
];

async function inView(page, what) {
  assert.equal(await h.boardInView(page), "", what);
}

const focusOnBoard = (page) => page.evaluate(() => !!document.activeElement && document.activeElement.classList.contains("sq"));

for (const size of SIZES) {
  test(`board first on a ${size.name} (${size.viewport.width}x${size.viewport.height})`, { timeout: 120000 }, async () => {
    const opts = { viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.hasTouch, deviceScaleFactor: size.deviceScaleFactor };
    const page = await env.newPage(opts);
    await page.goto(env.server.url + "/");
    await page.waitForFunction(() => window.reversiDebug.engineReady);
    await inView(page, "start choice");

    // Against the computer: the focus goes to the board.
    await page.getByRole("button", { name: "Play the computer" }).click();
    await h.waitVersion(page, 0);
    await page.waitForFunction(() => document.activeElement && document.activeElement.classList.contains("sq"));
    await inView(page, "computer");
    await h.shotPage(page, `local-${size.name}`);

    // Two players, from the set-up.
    await page.evaluate(() => { document.getElementById("setup-box").open = true; });
    const asked = h.onDialog(page, true);
    await page.getByLabel("Two players on this device").check();
    assert.match(await asked, /Leave the game in progress/);
    await page.getByRole("button", { name: "New game" }).click();
    await page.waitForFunction(() => window.reversiDebug.state && window.reversiDebug.state.mode === "two_players");
    await page.waitForFunction(() => document.activeElement && document.activeElement.classList.contains("sq"));
    await inView(page, "two players");

    // A hosted room: its host, and a spectator who opens its link.
    const host = await env.newPage(opts);
    await host.goto(env.server.url + "/");
    await host.getByLabel("Online").check();
    await host.waitForFunction(() => document.getElementById("conn").dataset.state === "online");
    await host.locator("#bot-level").selectOption("easy");
    await host.getByRole("button", { name: "Host a room with a bot" }).click();
    await host.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true", null, { timeout: 15000 });
    assert.ok(await focusOnBoard(host), "the host's focus is on the board");
    await inView(host, "room, host");
    const link = await host.getByRole("textbox", { name: "Room link" }).inputValue();
    const spectator = await env.newPage(opts);
    await spectator.goto(link);
    await spectator.waitForFunction(() => document.querySelectorAll("#room-seats li").length === 2);
    await inView(spectator, "room, spectator");
    await host.waitForTimeout(200);
    await h.shotPage(host, `room-host-${size.name}`);
    await h.shotPage(spectator, `room-spectator-${size.name}`);

    // An online game between two people (an invite).
    const a = await env.newPage(opts);
    const b = await env.newPage(opts);
    await a.goto(env.server.url + "/");
    await a.getByLabel("Online").check();
    await a.waitForFunction(() => document.getElementById("conn").dataset.state === "online");
    await a.getByRole("button", { name: "Create an invite" }).click();
    const invite = await a.getByRole("textbox", { name: "Invite link" }).inputValue();
    await b.goto(invite);
    await Promise.all([h.waitVersion(a, 0), h.waitVersion(b, 0)]);
    await inView(a, "online, inviter");
    await inView(b, "online, invited");
    for (const p of [page, host, spectator, a, b]) {
      assert.deepEqual(p.errors || [], []);
      assert.deepEqual(p.cspViolations, []);
      await p.context().close();
    }
  });
}
