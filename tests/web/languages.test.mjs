/* global document, location -- read inside the page, in page.evaluate */
// The site in its readers' languages: a browser set to Hungarian gets every page in
// Hungarian (the lobby, a game played to its end with its result, the archive, a rules page,
// an error), with no message of the English catalogue left on it; one set to English gets
// English; the header's choice switches and is remembered.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { api, gameOfPeople, outDir, serverAndBrowser, watchErrors } from "./harness.mjs";

const setting = serverAndBrowser();
const web = resolve(dirname(fileURLToPath(import.meta.url)), "../../web");

/** @param {string} code @returns {Record<string, string>} */
function catalogue(code) {
  return JSON.parse(readFileSync(join(web, "i18n", `${code}.json`), "utf8"));
}

/**
 * The messages of `code` that would betray it on a page in `other`: whole messages without
 * placeholders that the other language words differently, long enough not to be a name or
 * a symbol both share.
 * @param {string} code
 * @param {string} other
 */
function telltales(code, other) {
  const mine = catalogue(code);
  const theirs = catalogue(other);
  return Object.entries(mine)
    .filter(([key, text]) => !text.includes("{") && text !== theirs[key] && /\p{L}{3,}.*\s.*\p{L}{3,}/u.test(text))
    .map(([key, text]) => ({ key, text }));
}

/**
 * The page's visible text, buttons' and fields' words included.
 * @param {import("playwright-core").Page} page
 */
async function shownText(page) {
  return page.evaluate(() => {
    const words = [document.body.innerText];
    for (const el of document.querySelectorAll("[title], [placeholder], [aria-label]")) {
      for (const name of ["title", "placeholder", "aria-label"]) words.push(el.getAttribute(name) ?? "");
    }
    return words.join("\n");
  });
}

/**
 * Fails with the messages of language `code` found on the page.
 * @param {import("playwright-core").Page} page
 * @param {string} code the language that must not show
 * @param {string} other the page's language
 * @param {string} where
 */
async function noneOf(page, code, other, where) {
  const text = await shownText(page);
  const found = telltales(code, other).filter(({ text: message }) => text.includes(message));
  assert.deepEqual(
    found.map(({ key, text: message }) => `${key}: ${message}`),
    [],
    `${where}: no ${code} left`,
  );
}

/**
 * A browser context whose languages are `locale`'s.
 * @param {string} locale
 * @param {{width: number, height: number}} [viewport]
 */
async function browserIn(locale, viewport = { width: 1280, height: 800 }) {
  const context = await setting.browser.newContext({ locale, viewport });
  const page = await context.newPage();
  const errors = watchErrors(page, /\b400\b|\b409\b|\b422\b/);
  return { context, page, errors };
}

/** A chess game between two people ended by Black's mate, and White's token. */
async function mated() {
  const { id, tokens } = await gameOfPeople(setting.server.base, "chess");
  for (const [ply, move] of ["f3", "e5", "g4", "Qh4#"].entries()) {
    await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move, ply }, tokens[ply % 2]);
  }
  return { id, token: tokens[0] };
}

for (const [locale, code, other] of [
  ["hu-HU", "hu", "en"],
  ["en-US", "en", "hu"],
]) {
  test(`a browser in ${locale}: every page in its language, nothing of the other's catalogue`, async () => {
    const own = catalogue(code);
    const { context, page, errors } = await browserIn(locale);
    const base = setting.server.base;

    await page.goto(`${base}/`);
    await page.locator("button.create").waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), code);
    assert.equal(await page.locator("header nav a[href='/rules']").innerText(), own["nav.rules"]);
    const listing = await api(base, "GET", `/api/variants?lang=${code}`);
    const chess = listing.variants.find((/** @type {{id: string}} */ v) => v.id === "chess");
    assert.equal(chess.name, code === "hu" ? "Sakk" : "Chess");
    const gess = listing.variants.find((/** @type {{id: string}} */ v) => v.id === "gess");
    assert.equal(gess.names.hu, "Általános sakk");
    assert.ok((await shownText(page)).includes(chess.name), "the games under their names");
    await noneOf(page, other, code, "lobby");
    if (code === "hu") await page.screenshot({ path: join(outDir, "screens", "hu-lobby.png") });

    // A game played to its end: the result in words.
    const game = await mated();
    await page.goto(`${base}/games/${game.id}#seat=${game.token}`);
    await page.locator(".banner:not([hidden])").waitFor();
    const banner = await page.locator(".banner").innerText();
    assert.ok(banner.trim().length > 0);
    await noneOf(page, other, code, "the game page");
    if (code === "hu") await page.screenshot({ path: join(outDir, "screens", "hu-game.png") });

    // An error, worded in the reader's language: a move typed in a game that is over.
    const live = await gameOfPeople(base, "chess");
    await page.goto(`${base}/games/${live.id}#seat=${live.tokens[0]}`);
    await page.locator("svg[data-board] [data-cell]").first().waitFor();
    await page.locator("input.keyboard").fill("Ke5");
    await page.locator("input.keyboard").press("Enter");
    const refusal = await page.locator(".toast.error").first().innerText();
    const errorWords = Object.entries(own)
      .filter(([key]) => key.startsWith("error."))
      .map(([, text]) => text.split("{")[0].trim());
    assert.ok(
      errorWords.some((words) => words && refusal.includes(words)),
      `the refusal is a message of the catalogue: ${refusal}`,
    );
    await noneOf(page, other, code, "an error");

    await page.goto(`${base}/archive`);
    await page.locator(".archive-note, .archive-list").first().waitFor();
    await noneOf(page, other, code, "the archive");

    await page.goto(`${base}/rules/chess`);
    await page.locator("section[data-section='End of game'] h2").waitFor();
    const summary = await page.locator(".summary").first().innerText();
    assert.ok(summary.includes(code === "hu" ? "Világos kezd" : "White moves first"), summary);
    await noneOf(page, other, code, "the rules page");
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("the header's language choice switches the page and is remembered", async () => {
  const { context, page } = await browserIn("en-US");
  await page.goto(`${setting.server.base}/archive`);
  await page.locator(".archive-note, .archive-list").first().waitFor();
  await page.locator("select.language-choice").selectOption("hu");
  await page.waitForFunction(() => document.documentElement.lang === "hu");
  assert.equal(await page.locator("header nav a[href='/archive']").innerText(), catalogue("hu")["nav.archive"]);
  await page.reload();
  await page.waitForFunction(() => document.documentElement.lang === "hu");
  assert.equal(await page.evaluate(() => location.pathname), "/archive");
  await context.close();
});

test("the pages in Hungarian fit a phone: longer words break no layout at 390 px", async () => {
  const { context, page, errors } = await browserIn("hu-HU", { width: 390, height: 844 });
  const base = setting.server.base;
  const game = await mated();
  /** @type {string[]} */
  const wide = [];
  for (const [path, ready] of [
    ["/", "button.create"],
    ["/archive", ".archive-note, .archive-list"],
    ["/rules", ".rules-index a"],
    ["/rules/shogi", "section[data-section='End of game'] h2"],
    [`/games/${game.id}#seat=${game.token}`, ".banner:not([hidden])"],
  ]) {
    await page.goto(`${base}${path}`);
    await page.locator(ready).first().waitFor();
    await page.waitForFunction(() => document.documentElement.lang === "hu");
    const width = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
    if (width > 390) wide.push(`${path}: ${width} px`);
  }
  await page.screenshot({ path: join(outDir, "screens", "hu-phone-game.png") });
  assert.deepEqual(wide, []);
  assert.deepEqual(errors, []);
  await context.close();
});
