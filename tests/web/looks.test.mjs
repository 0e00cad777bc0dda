/* global document, getComputedStyle -- read inside the page, in page.evaluate */
// The board a player of each game expects and the settings that change it (issue 44): every
// test fails without what it tests.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { api, cellOf, gameOfPeople, pageOfSeat, serverAndBrowser, until } from "./harness.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const setting = serverAndBrowser();

/**
 * A game of two people with `moves` played, and the page of `seat`.
 * @param {string} variant
 * @param {string[]} moves
 * @param {number} [seat]
 */
async function played(variant, moves, seat = 0) {
  const { players } = (await api(setting.server.base, "GET", "/api/variants")).variants.find(
    (/** @type {{id: string}} */ v) => v.id === variant,
  );
  const { id, tokens } = await gameOfPeople(setting.server.base, variant, undefined, players);
  for (const [i, move] of moves.entries()) {
    await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move }, tokens[i % players]);
  }
  const seen = await pageOfSeat(setting.browser, setting.server.base, id, tokens[seat]);
  await until(async () => (await seen.page.locator(".moves [data-ply]").count()) === moves.length, "the moves listed");
  return { id, tokens, ...seen };
}

/**
 * The texts of the move list.
 * @param {import("playwright-core").Page} page
 */
function listed(page) {
  return page.locator(".moves [data-ply]").allInnerTexts();
}

test("xiangqi is drawn on the points, with its river and palaces; Congo's river is water; shogi has star points", async () => {
  const xiangqi = await played("xiangqi", []);
  const svg = xiangqi.page.locator("svg[data-board]");
  assert.match((await svg.getAttribute("class")) ?? "", /on-points/);
  // Ten ranks, two whole edge files, seven inner files broken by the river, four diagonals.
  assert.equal(await svg.locator(".markings line").count(), 10 + 2 + 14 + 4);
  assert.deepEqual(await svg.locator(".river-words").allTextContents(), ["楚 河", "漢 界"]);
  // A highlight is a disc round the point, not a square between four points.
  assert.equal(await cellOf(xiangqi.page, 0, "e1").locator("circle.hl").count(), 1);
  assert.deepEqual(xiangqi.errors, []);
  await xiangqi.close();

  const congo = await played("congo", []);
  assert.equal(await congo.page.locator("svg[data-board] .base.water").count(), 7);
  const blue = await congo.page
    .locator("svg[data-board] .base.water")
    .first()
    .evaluate((p) => getComputedStyle(p).fill);
  assert.notEqual(
    blue,
    await congo.page
      .locator("svg[data-board] .base.c-light")
      .first()
      .evaluate((p) => getComputedStyle(p).fill),
  );
  await congo.close();

  const shogi = await played("shogi", []);
  assert.equal(await shogi.page.locator("svg[data-board] .markings .star").count(), 4);
  await shogi.close();
});

test("coordinates stand outside the cells, never under a man, and can be turned off", async () => {
  for (const [variant, count] of [
    ["threeplayer", 48],
    ["chushogi", 24],
  ]) {
    const { page, close } = await played(variant, []);
    const labels = await page.locator("svg[data-board] .coord").evaluateAll((texts) =>
      texts.map((t) => {
        const r = t.getBoundingClientRect();
        const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
        const cell = document.elementsFromPoint(x, y).find((e) => e.matches("[data-cell] *, [data-cell]"));
        return { text: t.textContent, x, y, cell: cell?.closest("[data-cell]")?.getAttribute("data-cell") ?? null };
      }),
    );
    assert.equal(labels.length, count, `${variant}: ${labels.map((l) => l.text).join(" ")}`);
    const men = await page
      .locator("svg[data-board] .man")
      .evaluateAll((all) => all.map((m) => m.getBoundingClientRect()));
    for (const label of labels) {
      const under = men.some((m) => label.x > m.left && label.x < m.right && label.y > m.top && label.y < m.bottom);
      assert.ok(!under, `${variant}: the label ${label.text} is clear of every man`);
      assert.equal(label.cell, null, `${variant}: the label ${label.text} is outside the cells`);
    }
    if (variant === "chushogi") {
      await page.locator(".settings-open").click();
      await page.locator('dialog.settings input[name="coordinates"]').uncheck();
      await page.locator("dialog.settings button[type=submit]").click();
      assert.equal(await page.locator("svg[data-board] .coord").first().isVisible(), false);
      await page.reload();
      await page.locator("svg[data-board] .man").first().waitFor();
      assert.equal(await page.locator("svg[data-board] .coord").first().isVisible(), false, "kept after a reload");
    }
    await close();
  }
});

test("the kanji come from the font the server ships, which holds every character the sources use", async () => {
  const response = await fetch(`${setting.server.base}/static/fonts/chaturanga-cjk.woff2`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "font/woff2");
  const listed = new Set(readFileSync(join(root, "web/fonts/chaturanga-cjk.txt"), "utf8").trim());
  /** @type {string[]} */
  const sources = [];
  for (const file of readdirSync(join(root, "web/js"))) sources.push(join(root, "web/js", file));
  for (const file of readdirSync(join(root, "crates/variants/src"), { recursive: true })) {
    if (String(file).endsWith(".rs")) sources.push(join(root, "crates/variants/src", String(file)));
  }
  const missing = new Set();
  for (const path of sources) {
    for (const c of readFileSync(path, "utf8")) {
      const code = c.codePointAt(0) ?? 0;
      const cjk = (code >= 0x2e80 && code <= 0x9fff && code !== 0x3000) || (code >= 0xff01 && code <= 0xff5e);
      if (cjk && !listed.has(c)) missing.add(c);
    }
  }
  assert.deepEqual([...missing], [], "characters the font lacks: run scripts/subset-font");
  const { page, close } = await played("shogi", []);
  await until(
    () => page.evaluate(() => document.fonts.check('20px "Chaturanga CJK"', "飛角")),
    "the shipped font loaded",
  );
  await close();
});

test("settings: shogi and xiangqi piece sets, board theme; kept in the browser", async () => {
  const { page, close } = await played("shogi", []);
  const rook = () => cellOf(page, 0, "2h").locator(".man text").allTextContents();
  assert.deepEqual(await rook(), ["飛"]);
  await page.locator(".settings-open").click();
  const dialog = page.locator("dialog.settings");
  await dialog.locator('select[name="shogiPieces"]').selectOption("kanji2");
  assert.deepEqual(await rook(), ["飛", "車"], "two kanji");
  await dialog.locator('select[name="shogiPieces"]').selectOption("international");
  assert.deepEqual(await rook(), ["R"], "the letter over a picture of its moves");
  await dialog.locator('select[name="theme"]').selectOption("green");
  assert.match((await page.locator("html").getAttribute("class")) ?? "", /theme-green/);
  await page.reload();
  await page.locator("svg[data-board] .man").first().waitFor();
  assert.deepEqual(await rook(), ["R"], "the set is kept");
  await close();

  const xiangqi = await played("xiangqi", []);
  await xiangqi.page.evaluate(() => localStorage.removeItem("chaturanga.settings"));
  await xiangqi.page.reload();
  const chariot = () => cellOf(xiangqi.page, 0, "a1").locator(".man text").count();
  await xiangqi.page.locator("svg[data-board] .man").first().waitFor();
  assert.equal(await chariot(), 1, "a character");
  await xiangqi.page.locator(".settings-open").click();
  await xiangqi.page.locator('dialog.settings select[name="xiangqiPieces"]').selectOption("international");
  assert.equal(await chariot(), 0, "a picture, no character");
  await xiangqi.close();
});

test("moves in the notation each game's players read: Western or Japanese shogi, WXF or Chinese xiangqi, figurines", async () => {
  const shogi = await played("shogi", ["7g7f", "3c3d", "8h2b+"]);
  assert.deepEqual(await listed(shogi.page), ["P-7f", "P-3d", "Bx2b+"], "Western by default");
  await shogi.page.locator("select.notation-choice").selectOption("kif");
  assert.deepEqual(await listed(shogi.page), ["７六歩(77)", "３四歩(33)", "２二角成(88)"]);
  await shogi.close();

  const xiangqi = await played("xiangqi", ["h3e3", "h10g8"]);
  assert.deepEqual(await listed(xiangqi.page), ["C2=5", "H8+7"], "WXF by default");
  await xiangqi.page.locator("select.notation-choice").selectOption("chinese");
  assert.deepEqual(await listed(xiangqi.page), ["炮二平五", "馬８進７"]);
  await xiangqi.close();

  const chess = await played("chess", ["g1f3", "e7e5"]);
  assert.equal(await chess.page.locator("select.notation-choice").isVisible(), false, "chess has SAN only");
  await chess.page.locator(".settings-open").click();
  await chess.page.locator('dialog.settings input[name="figurines"]').check();
  assert.deepEqual(await listed(chess.page), ["♘f3", "e5"]);
  await chess.close();
});

test("a man's moves as a picture: on tap, on hover and in the legend", async () => {
  const { page, close } = await played("chess", []);
  await cellOf(page, 0, "g1").click();
  const info = page.locator(".piece-info");
  assert.match(await info.innerText(), /White knight on g1/);
  assert.equal(await info.locator(".move-diagram .mark.leap").count(), 8, "the knight's eight leaps");
  await cellOf(page, 0, "g1").click();
  await cellOf(page, 0, "a1").locator(".man").hover();
  await until(async () => /White rook on a1/.test(await info.innerText()), "the rook named on hover");
  assert.ok((await info.locator(".move-diagram .ride.arrow").count()) >= 2, "the rook's slides go on");
  await page.locator(".legend-box summary").click();
  const pawn = page.locator('.legend dt[data-kind="P"] + dd .move-diagram');
  assert.equal((await pawn.locator(".mark.only-move").count()) >= 1, true, "the pawn moves forward only");
  assert.equal(await pawn.locator(".mark.only-capture").count(), 2, "and captures diagonally");
  assert.ok(!/fmW/.test(await page.locator(".legend").innerText()), "no Betza for players");
  await close();
});

test("arrows and circles with the right button; sounds of capture and check; the man slides", async () => {
  const { page, id, tokens, close } = await played("chess", ["e2e4", "d7d5"]);
  const box = async (/** @type {string} */ cell) => {
    const r = await cellOf(page, 0, cell).boundingBox();
    assert.ok(r);
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  };
  const [from, to] = [await box("g1"), await box("f3")];
  await page.mouse.move(from.x, from.y);
  await page.mouse.down({ button: "right" });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up({ button: "right" });
  assert.equal(await page.locator("svg .drawn line").count(), 1, "an arrow");
  await page.mouse.click(to.x, to.y, { button: "right" });
  assert.equal(await page.locator("svg .drawn circle").count(), 1, "a circle");
  await page.mouse.click(from.x, from.y);
  assert.equal(await page.locator("svg .drawn > *").count(), 0, "a left click clears them");
  await page.mouse.click(from.x, from.y);

  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: "e4d5" }, tokens[0]);
  await until(
    async () => (await page.evaluate(() => document.documentElement.dataset.sound)) === "capture",
    "the capture heard",
  );
  await until(async () => (await page.locator(".moves [data-ply]").count()) === 3, "the capture listed");
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: "d8d5" }, tokens[1]);
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: "b1c3" }, tokens[0]);
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: "d5e5" }, tokens[1]);
  await until(
    async () => (await page.evaluate(() => document.documentElement.dataset.sound)) === "check",
    "the check heard",
  );
  // The queen slid from d5 to e5.
  assert.equal(await cellOf(page, 0, "e5").locator('g[data-slid="d5"] > .man').count(), 1);
  await page.locator(".settings-open").click();
  await page.locator('dialog.settings input[name="animation"]').uncheck();
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: "f1e2" }, tokens[0]);
  await until(async () => (await page.locator(".moves [data-ply]").count()) === 7, "the bishop's move listed");
  assert.equal(await cellOf(page, 0, "e2").locator("g[data-slid]").count(), 0, "no slide when animation is off");
  await close();
});

test("rule options in words: in the lobby as they are chosen, and on the game page", async () => {
  const context = await setting.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${setting.server.base}/`);
  await page.locator('.new-game select[name="variant"]').waitFor();
  const option = page.locator('.new-game label.option[data-name="fide-claims"]');
  await until(async () => (await option.count()) === 1, "chess's draw-claims option");
  assert.match(await option.innerText(), /Draw claims/);
  assert.match(
    await option.locator(".option-words").innerText(),
    /^Draws by threefold repetition and the fifty-move rule are automatic$/,
  );
  await option.locator("select").selectOption("on");
  assert.match(await option.locator(".option-words").innerText(), /a player claims/);
  await context.close();

  const { page: game, close } = await played("xiangqi", []);
  const rules = game.locator('.rule-options li[data-option="no-capture-limit"]');
  assert.equal(await rules.innerText(), "No-capture limit: Drawn after 100 plies without a capture");
  await close();
});

test("the lobby lives: seeks appear and vanish without a reload; each game's picture; who plays and watches", async () => {
  const context = await setting.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${setting.server.base}/`);
  await page.locator(".variant-card").first().waitFor();
  assert.equal(await page.locator('.variant-card[data-variant="chess"] .preview svg .man').count(), 32);
  assert.equal(await page.locator('.variant-card[data-variant="xiangqi"] .preview svg.on-points').count(), 1);
  const made = await api(setting.server.base, "POST", "/api/games", {
    variant: "congo",
    seats: [{ kind: "human" }, { kind: "human" }],
    me: 0,
  });
  const seek = page.locator(`.game-list li[data-game="${made.id}"]`);
  await until(async () => (await seek.count()) === 1, "the seek shown without a reload", 10_000);
  await api(setting.server.base, "POST", `/api/games/${made.id}/seats/1/join`, {});
  await until(
    async () => (await page.locator(".game-list").first().locator(`li[data-game="${made.id}"]`).count()) === 0,
    "the seek gone from the open games once taken",
    10_000,
  );
  const watcher = await pageOfSeat(setting.browser, setting.server.base, made.id, made.token);
  await until(
    async () => /[1-9]\d* players? at the board/.test(await page.locator(".counts").innerText()),
    "a player counted",
    10_000,
  );
  await watcher.close();
  await context.close();
});

test("a rules page for players: how to win and how a turn goes first, the men with their pictures, the specification folded; Play it", async () => {
  const context = await setting.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${setting.server.base}/rules/xiangqi`);
  await page.locator(".rules-text .summary").waitFor();
  const headings = await page.locator(".rules-text > section > h2").allInnerTexts();
  assert.deepEqual(headings.slice(0, 3), ["How to win", "How a turn goes", "The men"]);
  const xiangqi = (await api(setting.server.base, "GET", "/api/variants")).variants.find(
    (/** @type {any} */ v) => v.id === "xiangqi",
  );
  assert.equal(await page.locator('[data-section="men"] .legend dd .move-diagram').count(), xiangqi.pieces.length);
  assert.equal(await page.locator("details.specification").getAttribute("open"), null, "folded");
  assert.equal(await page.locator('details.specification [data-section="Decisions"]').count(), 1);
  await page.locator("a.play-this").click();
  await page.locator('.new-game select[name="variant"]').waitFor();
  assert.equal(await page.locator('.new-game select[name="variant"]').inputValue(), "xiangqi");
  await context.close();
});
