/* global document -- read inside the page, in page.evaluate */
// The archive page: finished games with their players and results, filtered on the server
// by ruleset and opponent (the filters kept in the address), a page at a time, on a wide
// screen and a phone.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { api, gameOfPeople, outDir, serverAndBrowser, startServer, until, watchErrors } from "./harness.mjs";

const setting = serverAndBrowser();

/**
 * Plays `moves` in game `id`, the seats in turn from the first.
 * @param {string} id
 * @param {string[]} tokens
 * @param {string[]} moves
 */
async function play(id, tokens, moves) {
  for (const [ply, move] of moves.entries()) {
    await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move, ply }, tokens[ply % 2]);
  }
}

/**
 * An action of a seat.
 * @param {string} id
 * @param {string} token
 * @param {string} action
 */
function act(id, token, action) {
  return api(setting.server.base, "POST", `/api/games/${id}/actions`, { action }, token);
}

/**
 * A game of `variant` against the engine at `level`, the person on the first seat: its id
 * and the person's token.
 * @param {string} variant
 * @param {number} level
 */
async function againstEngine(variant, level) {
  const made = await api(setting.server.base, "POST", "/api/games", {
    variant,
    seats: [{ kind: "human" }, { kind: "engine", level }],
    me: 0,
  });
  return { id: made.id, token: made.token };
}

/**
 * The games the archive page lists, each as its text.
 * @param {import("playwright-core").Page} page
 */
function listed(page) {
  return page.locator(".archive-list li").allInnerTexts();
}

test("the archive shows players and results, filters on the server from the address, and pages", async () => {
  // Enough games for a second page, before those the first page shows on top.
  for (let n = 0; n < 30; n++) {
    const game = await gameOfPeople(setting.server.base, n % 2 ? "xiangqi" : "chess");
    await act(game.id, game.tokens[n % 2], "resign");
  }
  // One move, then Black gives up.
  const opening = await gameOfPeople(setting.server.base, "chess");
  await play(opening.id, opening.tokens, ["e2e4"]);
  await act(opening.id, opening.tokens[1], "resign");
  // Drawn after two moves.
  const drawn = await gameOfPeople(setting.server.base, "chess");
  await play(drawn.id, drawn.tokens, ["d2d4", "d7d5"]);
  await act(drawn.id, drawn.tokens[0], "draw-offer");
  await act(drawn.id, drawn.tokens[1], "draw-accept");
  // Shogi against the engine, given up at once by the person, who is this browser.
  const shogi = await againstEngine("shogi", 3);
  await act(shogi.id, shogi.token, "resign");

  const context = await setting.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  // This browser played the shogi game: its seat is kept as the game page keeps it.
  await page.goto(`${setting.server.base}/archive`);
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key, value),
    [`chaturanga.seats.${shogi.id}`, JSON.stringify([{ seat: 0, token: shogi.token }])],
  );
  await page.reload();
  await until(async () => (await listed(page)).length === 30, "the first page");
  const more = page.locator("button.archive-more");
  assert.ok(await more.isVisible(), "more games to show");
  await page.screenshot({ path: join(outDir, "archive-1280.png"), fullPage: false });
  await more.click();
  await until(async () => (await listed(page)).length === 33, "the second page");
  assert.ok(await more.isHidden(), "no more games");

  const item = (/** @type {string} */ id) => page.locator(`.archive-list li[data-game="${id}"]`);
  const one = await item(opening.id).innerText();
  assert.match(one, /Chess/);
  assert.match(one, /White: player · Black: player/);
  assert.match(one, /White won by resignation/);
  assert.match(one, /\b1 ply\b/);
  assert.doesNotMatch(one, /plies/);
  assert.match(await item(drawn.id).innerText(), /Draw by agreement · 2 plies/);
  const engine = await item(shogi.id).innerText();
  assert.match(engine, /Black: you · White: engine level 3/);
  assert.match(engine, /White won by resignation · 0 plies/);
  await item(opening.id).locator("a").click();
  await page.waitForURL(`${setting.server.base}/games/${opening.id}`);
  await page.goBack();

  // Filters: on the server, in the address.
  await page.locator('select[name="variant"]').selectOption("shogi");
  await page.waitForURL(`${setting.server.base}/archive?variant=shogi`);
  await until(async () => (await listed(page)).length === 1, "the shogi game alone");
  await page.locator('select[name="opponent"]').selectOption("people");
  await page.waitForURL(`${setting.server.base}/archive?variant=shogi&opponent=people`);
  await page.locator(".archive-note", { hasText: "No finished games match these choices." }).waitFor();
  assert.equal((await listed(page)).length, 0);
  // Back goes to the choice before.
  await page.goBack();
  await until(async () => (await listed(page)).length === 1, "the shogi game again");
  assert.equal(await page.locator('select[name="opponent"]').inputValue(), "");

  // A link shows the same list: the filters are read from the address.
  const linked = await context.newPage();
  const linkedErrors = watchErrors(linked);
  await linked.goto(`${setting.server.base}/archive?variant=chess&opponent=people`);
  await until(async () => (await listed(linked)).length === 17, "the games of chess between people");
  assert.equal(await linked.locator('select[name="variant"]').inputValue(), "chess");
  assert.equal(await linked.locator('select[name="opponent"]').inputValue(), "people");
  assert.ok((await listed(linked)).every((text) => text.startsWith("Chess")));
  // An address asking for what no list has shows every game, and says so in the address.
  await linked.goto(`${setting.server.base}/archive?variant=tictactoe&opponent=robots`);
  await until(async () => (await listed(linked)).length === 30, "every game");
  assert.equal(new URL(linked.url()).search, "");

  // A phone: nothing wider than the screen.
  const phone = await setting.browser.newContext({ viewport: { width: 390, height: 844 } });
  const small = await phone.newPage();
  const smallErrors = watchErrors(small);
  await small.goto(`${setting.server.base}/archive?opponent=engine`);
  await until(async () => (await listed(small)).length === 1, "the engine's game");
  await small.goto(`${setting.server.base}/archive`);
  await until(async () => (await listed(small)).length === 30, "the first page on a phone");
  const width = await small.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
  assert.ok(width <= 390, `the page is ${width} px wide`);
  await small.screenshot({ path: join(outDir, "archive-390.png"), fullPage: false });
  await phone.close();
  await context.close();
  assert.deepEqual([...errors, ...linkedErrors, ...smallErrors], []);
});

test("an empty archive says so", async () => {
  const fresh = await startServer();
  const context = await setting.browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    await page.goto(`${fresh.base}/archive`);
    await page.locator(".archive-note", { hasText: "No finished games yet." }).waitFor();
    assert.ok(await page.locator("button.archive-more").isHidden());
  } finally {
    await context.close();
    await fresh.stop();
  }
});
