// Offline play after one visit, and installation: the page registers a service worker and names a
// web manifest (Chromium finds nothing against installing it); Expert's 5 MB weights are not
// fetched until Expert is chosen, then with progress shown; after that visit, with the server
// stopped and the browser offline, the page loads and a game against Expert is played (its
// weights from the cache).
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers");

let server;
let browser;
before(async () => { server = await h.startServer(); browser = await h.launch(); });
after(async () => {
  try { if (browser) await browser.close(); } finally { if (server) await server.stop(); }
});

test("one visit, then offline: the page, all levels and Expert's weights from the cache", { timeout: 180000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  let page = await ctx.newPage();
  h.watchCsp(page);
  page.on("pageerror", (e) => { page.errors = (page.errors || []).concat(String(e)); });
  const asked = [];
  ctx.on("request", (r) => asked.push(new URL(r.url()).pathname));
  await page.goto(server.url + "/");
  await page.waitForFunction(() => window.reversiDebug.engineReady);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  assert.equal(asked.filter((p) => p === "/weights/expert.bin").length, 0, "no weights before Expert is wanted");

  // Installable: a manifest with PNG icons and a service worker; Chromium lists no errors.
  const cdp = await ctx.newCDPSession(page);
  const inst = await cdp.send("Page.getInstallabilityErrors");
  // A test's browser context is incognito, which alone forbids installing: any other reason
  // (no manifest, no suitable icon, no service worker, ...) is the page's fault.
  assert.deepEqual(inst.installabilityErrors.filter((e) => e.errorId !== "in-incognito"), []);
  const manifest = await (await page.request.get(server.url + "/manifest.webmanifest")).json();
  assert.equal(manifest.start_url, "/");
  for (const icon of manifest.icons.filter((i) => i.type === "image/png")) {
    const res = await page.request.get(server.url + icon.src);
    assert.equal(res.status(), 200, icon.src);
    assert.equal(res.headers()["content-type"], "image/png");
  }

  // Expert is chosen: its weights download, with progress, then it is offered.
  await page.getByLabel("Against the computer").check();
  await page.locator("#level").selectOption("expert");
  await page.waitForFunction(() => window.reversiDebug.weights === "ready", null, { timeout: 60000 });
  assert.ok(await page.evaluate(() => window.reversiDebug.weightsProgress > 0), "progress was reported");
  assert.equal(asked.filter((p) => p === "/weights/expert.bin").length, 1);

  // Offline: the server stops and the browser loses the network.
  await server.stop();
  await ctx.setOffline(true);
  await page.close();
  page = await ctx.newPage();
  h.watchCsp(page);
  page.on("pageerror", (e) => { page.errors = (page.errors || []).concat(String(e)); });
  await page.goto(server.url + "/");
  await page.waitForFunction(() => window.reversiDebug.engineReady, null, { timeout: 30000 });
  for (const level of ["easy", "normal", "hard", "expert"]) {
    assert.equal(await page.locator(`#level option[value="${level}"]`).evaluate((o) => o.disabled), false, level);
  }
  await page.getByLabel("Against the computer").check();
  await page.locator("#level").selectOption("expert");
  await page.locator("#color").selectOption("black");
  await page.getByRole("button", { name: "New game" }).click();
  await h.waitVersion(page, 0);
  const v = await h.waitTurnOrOver(page);
  await page.locator(`[data-sq="${v.legal[0]}"]`).click();
  await h.waitVersion(page, v.version);
  await page.waitForFunction(() => window.reversiDebug.weights === "ready", null, { timeout: 30000 });
  await h.waitTurnOrOver(page, 30000);
  const s = await h.lastState(page);
  assert.equal(s.level, "expert");
  assert.equal(s.last.color, "white", "Expert answered offline");
  assert.deepEqual(page.errors || [], []);
  assert.deepEqual(page.cspViolations, []);
  await ctx.close();
});
