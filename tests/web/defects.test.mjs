/* global document -- read inside the page, in page.evaluate */
// The defects a player met (issue 44), each played in Chromium as he met it: every test
// fails without its fix.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { api, cellOf, gameOfPeople, outDir, pageOfSeat, serverAndBrowser, state, until } from "./harness.mjs";

const setting = serverAndBrowser();

/**
 * A game of two people made over the API; both seats' tokens.
 * @param {string} variant
 * @param {string} [fen]
 */
function twoPeople(variant, fen) {
  return gameOfPeople(setting.server.base, variant, fen);
}

/**
 * A page holding `token`'s seat of game `id`, its board drawn.
 * @param {string} id
 * @param {string} token
 * @param {{width: number, height: number}} [viewport]
 */
function seatPage(id, token, viewport) {
  return pageOfSeat(setting.browser, setting.server.base, id, token, viewport);
}

/**
 * The mean height on the screen of the men of `owner`.
 * @param {import("playwright-core").Page} page
 * @param {number} owner
 */
async function meanY(page, owner) {
  const boxes = await page
    .locator(`svg[data-board="0"] .man[data-owner="${owner}"]`)
    .evaluateAll((men) => men.map((m) => m.getBoundingClientRect().y));
  assert.ok(boxes.length > 0, `men of player ${owner}`);
  return boxes.reduce((a, b) => a + b, 0) / boxes.length;
}

test("gess: each player's own stones are at the bottom, by his own name", async () => {
  const { id, tokens } = await twoPeople("gess");
  for (const seat of [0, 1]) {
    const { page, errors, close } = await seatPage(id, tokens[seat]);
    const mine = await meanY(page, seat);
    const theirs = await meanY(page, 1 - seat);
    assert.ok(mine > theirs, `seat ${seat}: own stones at y ${mine}, the other's at ${theirs}`);
    await page.screenshot({ path: join(outDir, "screens", `gess-seat-${seat}.png`) });
    assert.deepEqual(errors, []);
    await close();
  }
});

test("shogi: the opponent's hand is not the player's to drop from", async () => {
  // A bishop in each hand, Black (sente) to move.
  const { id, tokens } = await twoPeople("shogi", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b Bb 1");
  const { page, errors, close } = await seatPage(id, tokens[0]);
  const theirs = page.locator('.hand-man[data-hand="1"]');
  await theirs.first().click();
  assert.equal(await page.locator(".cell.dest").count(), 0, "no drop cells for the opponent's bishop");
  assert.equal(await page.locator(".hand-man.selected").count(), 0);
  await page.locator('.hand-man[data-hand="0"]').first().click();
  assert.ok((await page.locator(".cell.dest").count()) > 40, "the own bishop's drops");
  assert.deepEqual(errors, []);
  await close();
});

test("chu shogi: the lion's leap clicked as two steps through an empty cell", async () => {
  // The position: after the pawn's 7i7h the lion on 7j has 7i empty before it, and
  // 7i then 6h is its leap to 6h.
  const { id, tokens } = await twoPeople("chushogi");
  const { page, errors, close } = await seatPage(id, tokens[0]);
  const open = await state(setting.server.base, id, tokens[0]);
  const opening = open.legal.find((/** @type {any} */ m) => m.from === "7i" && m.to === "7h");
  assert.ok(opening, "the pawn on 7i steps to 7h");
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: opening.text }, tokens[0]);
  const reply = (await state(setting.server.base, id, tokens[1])).legal[0];
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: reply.text }, tokens[1]);
  await until(async () => (await page.locator(".moves [data-ply]").count()) === 2, "both moves shown");
  await cellOf(page, 0, "7j").click();
  await cellOf(page, 0, "7i").click();
  assert.match((await cellOf(page, 0, "6h").getAttribute("class")) ?? "", /dest/, "6h is offered after 7i");
  await cellOf(page, 0, "6h").click();
  await until(async () => (await state(setting.server.base, id, null)).moves[2] === "7j6h", "the lion's leap to 6h");
  assert.deepEqual(errors, []);
  await close();
});

test("bughouse: a man picked up stays in hand while the other board plays", async () => {
  const made = await api(setting.server.base, "POST", "/api/games", {
    variant: "bughouse",
    seats: [{ kind: "human" }, { kind: "human" }, { kind: "human" }, { kind: "human" }],
    me: 0,
  });
  const tokens = [made.token];
  for (const seat of [1, 2, 3]) {
    tokens.push((await api(setting.server.base, "POST", `/api/games/${made.id}/seats/${seat}/join`, {})).token);
  }
  // Everyone comes, so that the clocks and the boards go.
  for (const token of tokens.slice(1)) await state(setting.server.base, made.id, token);
  const { page, errors, close } = await seatPage(made.id, tokens[0]);
  await cellOf(page, 0, "g1").click();
  assert.match((await cellOf(page, 0, "g1").getAttribute("class")) ?? "", /selected/);
  // Board B's White (seat 1) moves.
  await api(setting.server.base, "POST", `/api/games/${made.id}/moves`, { move: "e2e4" }, tokens[1]);
  await until(async () => (await page.locator(".moves [data-ply]").count()) === 1, "board B's move shown");
  assert.match((await cellOf(page, 0, "g1").getAttribute("class")) ?? "", /selected/, "still in hand");
  await cellOf(page, 0, "f3").click();
  await until(async () => (await state(setting.server.base, made.id, null)).moves[1] === "g1f3", "the knight's move");
  // The move list names the board of each move.
  await until(async () => (await page.locator(".moves li").count()) === 2, "two turns listed");
  const labels = await page
    .locator(".moves li")
    .evaluateAll((items) => items.map((li) => li.getAttribute("data-number")));
  assert.deepEqual(labels, ["1B.", "1A."]);
  assert.deepEqual(errors, []);
  await close();
});

test("progressive chess: the move list numbers turns, each series one turn", async () => {
  const { id, tokens } = await twoPeople("progressive");
  const { page, errors, close } = await seatPage(id, tokens[0]);
  for (const [seat, move] of [
    [0, "f2f3"],
    [1, "e7e5"],
    [1, "f8c5"],
  ]) {
    await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move }, tokens[Number(seat)]);
  }
  await until(async () => (await page.locator(".moves [data-ply]").count()) === 3, "three moves shown");
  const turns = await page
    .locator(".moves li")
    .evaluateAll((items) =>
      items.map((li) => [li.getAttribute("data-number"), li.querySelectorAll("[data-ply]").length]),
    );
  assert.deepEqual(turns, [
    ["1.", 1],
    ["", 2],
  ]);
  assert.deepEqual(errors, []);
  await close();
});

test("an unknown address shows the site's page, not raw JSON", async () => {
  const context = await setting.browser.newContext();
  const page = await context.newPage();
  const answer = await page.goto(`${setting.server.base}/no/such/page`);
  assert.equal(answer?.status(), 404);
  await page.getByText("No such page.").waitFor();
  await page.getByRole("link", { name: "Go to the lobby" }).click();
  await page.waitForURL(`${setting.server.base}/`);
  // Programs still get JSON.
  const r = await fetch(`${setting.server.base}/api/nothing`);
  assert.equal(r.status, 404);
  assert.equal((await r.json()).error, "no such page");
  await context.close();
});

test("every ruleset: the player's own bar is under the own board and on the first screen at 1280x800, nothing overflows at 390 px", async () => {
  const { variants } = await api(setting.server.base, "GET", "/api/variants");
  /** @type {string[]} */
  const problems = [];
  for (const v of variants) {
    const made = await api(setting.server.base, "POST", "/api/games", {
      variant: v.id,
      seats: Array.from({ length: v.players }, (_, i) => (i === 0 ? { kind: "human" } : { kind: "engine", level: 1 })),
      me: 0,
    });
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const context = await setting.browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${setting.server.base}/games/${made.id}#seat=${made.token}`);
      await page.locator("svg[data-board] [data-cell]").first().waitFor();
      const seen = await page.evaluate(() => {
        const own = document.querySelector('.players.bottom .player[data-seat="0"]');
        // The board the player's own men stand on: the bar belongs right under it.
        const home =
          document.querySelector('.man[data-owner="0"]')?.closest("svg[data-board]") ??
          document.querySelector("svg[data-board]");
        const gap = own && home ? own.getBoundingClientRect().top - home.getBoundingClientRect().bottom : Infinity;
        const men = [...document.querySelectorAll("svg[data-board] .man")].map((m) => m.getBoundingClientRect());
        const boards = [...document.querySelectorAll("svg[data-board]")].map((b) => b.getBoundingClientRect());
        const clipped = men.filter(
          (m) =>
            !boards.some(
              (b) => m.left >= b.left - 1 && m.right <= b.right + 1 && m.top >= b.top - 1 && m.bottom <= b.bottom + 1,
            ),
        );
        return {
          ownBottom: own ? own.getBoundingClientRect().bottom : Infinity,
          width: document.scrollingElement?.scrollWidth ?? 0,
          clipped: clipped.length,
          gap,
        };
      });
      if (viewport.width === 1280 && seen.ownBottom > viewport.height)
        problems.push(`${v.id}: own bar ends at ${seen.ownBottom}`);
      // Under the own board, with at most the own hand between them.
      if (!(seen.gap >= 0 && seen.gap < 90))
        problems.push(`${v.id} at ${viewport.width}: own bar ${seen.gap} px under the board`);
      if (seen.width > viewport.width) problems.push(`${v.id} at ${viewport.width}: ${seen.width} px wide`);
      if (seen.clipped) problems.push(`${v.id} at ${viewport.width}: ${seen.clipped} men outside their board`);
      const size = viewport.width === 1280 ? "desktop" : "phone";
      await page.screenshot({ path: join(outDir, "screens", `${size}-${v.id}.png`) });
      await context.close();
    }
  }
  assert.deepEqual(problems, []);
});

test("the lobby fits a phone", async () => {
  const context = await setting.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${setting.server.base}/`);
  await page.locator("button.create").waitFor();
  const width = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
  assert.ok(width <= 390, `the lobby is ${width} px wide`);
  const create = await page.locator("button.create").boundingBox();
  assert.ok(create && create.x + create.width <= 390, "Create game is on the screen");
  await page.screenshot({ path: join(outDir, "screens", "lobby-phone.png"), fullPage: true });
  await context.close();
});

test("the buttons mean something: resigning asks twice, no draw offer to an engine, no move box for spectators", async () => {
  const made = await api(setting.server.base, "POST", "/api/games", {
    variant: "chess",
    seats: [{ kind: "human" }, { kind: "engine", level: 1 }],
    me: 0,
  });
  const { page, errors, close } = await seatPage(made.id, made.token);
  await page.locator('button[data-action="resign"]').waitFor();
  assert.equal(await page.locator('button[data-action="draw-offer"]').count(), 0, "no draw offer to the engine");
  assert.ok(await page.locator(".keyboard").isVisible(), "a player may type his move");
  const resign = page.locator('button[data-action="resign"]');
  await resign.click();
  assert.match(await resign.innerText(), /again/);
  assert.equal((await state(setting.server.base, made.id, null)).status, "ongoing", "one click resigns nothing");
  await resign.click();
  await page.locator(".banner[data-result]").waitFor();
  assert.equal((await state(setting.server.base, made.id, null)).reason, "resignation");
  assert.deepEqual(errors, []);
  await close();
  // Between people the draw offer is there; a spectator has no move box.
  const { id, tokens } = await twoPeople("chess");
  const player = await seatPage(id, tokens[0]);
  await player.page.locator('button[data-action="draw-offer"]').waitFor();
  await player.close();
  const context = await setting.browser.newContext();
  const spectator = await context.newPage();
  await spectator.goto(`${setting.server.base}/games/${id}`);
  await spectator.locator("svg[data-board] [data-cell]").first().waitFor();
  assert.equal(await spectator.locator(".keyboard").isVisible(), false, "a spectator types no moves");
  await context.close();
});

test("the words about a tapped man follow him when he moves", async () => {
  const { id, tokens } = await twoPeople("chess");
  const { page, errors, close } = await seatPage(id, tokens[0]);
  await cellOf(page, 0, "e2").click();
  assert.match(await page.locator(".piece-info").innerText(), /White pawn on e2/);
  await cellOf(page, 0, "e4").click();
  await until(
    async () => /White pawn on e4/.test(await page.locator(".piece-info").innerText()),
    "the pawn named on e4",
  );
  // A man named, then taken: nothing is said of his taker.
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: "d7d5" }, tokens[1]);
  await until(async () => (await page.locator(".moves [data-ply]").count()) === 2, "Black's move shown");
  await cellOf(page, 0, "d5").click();
  assert.match(await page.locator(".piece-info").innerText(), /Black pawn on d5/);
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: "e4d5" }, tokens[0]);
  await until(async () => (await page.locator(".piece-info").innerText()) === "", "the taken pawn no longer named");
  assert.deepEqual(errors, []);
  await close();
});

test("the lobby starts on chess, then on the last game's choices", async () => {
  const context = await setting.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${setting.server.base}/`);
  const variant = page.locator('select[name="variant"]');
  await variant.waitFor();
  assert.equal(await variant.inputValue(), "chess");
  await page.locator('[data-pick="xiangqi"]').click();
  await page.locator('select[name="opponent"]').selectOption("engine");
  await page.locator('select[name="level"]').selectOption("5");
  await page.locator("button.create").click();
  await page.waitForURL(/\/games\/[^/#]+$/);
  await page.goto(`${setting.server.base}/`);
  await variant.waitFor();
  assert.equal(await variant.inputValue(), "xiangqi");
  assert.equal(await page.locator('select[name="level"]').inputValue(), "5");
  await context.close();
});
