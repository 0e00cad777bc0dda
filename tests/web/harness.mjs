// What the browser tests share: the real server binary on a free port with a fresh
// database, Debian's Chromium through playwright-core, and the moves of a person: clicks on
// the cells, hands and choosers of the page (never calls into the page's scripts).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** Where screenshots and other test output go. */
export const outDir = process.env.CHATURANGA_WEB_OUT ?? join(root, "target/web-tests");
mkdirSync(outDir, { recursive: true });

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => ok(port));
    });
  });
}

/**
 * Starts `chaturanga serve` (the release build, or CHATURANGA_BIN) on a fresh database, or
 * again on the port and database of an earlier start, with generous limits per client (every
 * browser of the tests comes from one address).
 * @param {{port: number, dir: string}} [again]
 * @returns {Promise<{base: string, port: number, dir: string, stop: () => Promise<void>}>}
 */
export async function startServer(again) {
  const bin = process.env.CHATURANGA_BIN ?? join(root, "target/release/chaturanga");
  const port = again?.port ?? (await freePort());
  const dir = again?.dir ?? mkdtempSync(join(tmpdir(), "chaturanga-web-"));
  const child = spawn(
    bin,
    ["serve", "--generous-limits", "--listen", `127.0.0.1:${port}`, "--db", join(dir, "games.db")],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`${base}/api/variants`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    await sleep(50);
  }
  return {
    base,
    port,
    dir,
    stop: () =>
      new Promise((ok) => {
        if (child.exitCode !== null) return ok();
        child.once("exit", () => ok());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * @typedef {Awaited<ReturnType<typeof startServer>>} Server
 * @typedef {{server: Server, browser: import("playwright-core").Browser}} Setting
 */

/**
 * A test file's server and browser: started before its first test and stopped after its
 * last (a test may put another server in `server`, which is the one stopped).
 * @returns {Setting}
 */
export function serverAndBrowser() {
  const setting = /** @type {Setting} */ ({});
  before(async () => {
    setting.server = await startServer();
    setting.browser = await launch();
  });
  after(async () => {
    await setting.browser?.close();
    await setting.server?.stop();
  });
  return setting;
}

/** @param {number} ms */
export function sleep(ms) {
  return new Promise((ok) => setTimeout(ok, ms));
}

/** Chromium as the machine has it, headless, with no calls to the outside. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * Calls the server's API.
 * @param {string} base
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 */
export async function api(base, method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return JSON.parse(text);
}

/**
 * Waits until `test` answers something truthy, polling; fails after `ms`.
 * @template T
 * @param {() => Promise<T>} test
 * @param {string} what
 * @param {number} [ms]
 * @returns {Promise<T>}
 */
export async function until(test, what, ms = 20_000) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      last = await test();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    await sleep(40);
  }
  throw new Error(
    `timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)?.slice(0, 300)})`,
  );
}

/**
 * The cell element of a board on the page.
 * @param {import("playwright-core").Page} page
 * @param {number} board
 * @param {string} cell
 */
export function cellOf(page, board, cell) {
  return page.locator(`svg[data-board="${board}"] [data-cell="${cell}"]`);
}

/**
 * Plays a legal move on the page as a person would: the man or the hand's piece, every cell
 * of the path, a second click where a path may end or go on, the chooser's button.
 * @param {import("playwright-core").Page} page
 * @param {{text: string, board?: number, from?: string, to?: string, via?: string[], drop?: string}} move
 * @param {number} seat the player the page plays
 */
export async function clickMove(page, move, seat) {
  const board = move.board ?? 0;
  if (move.from === undefined && move.drop === undefined && move.to === undefined) {
    await page.locator(`.move-button[data-move="${move.text}"]`).click();
    return;
  }
  if (move.drop !== undefined) {
    await page.locator(`.hand-man[data-board="${board}"][data-hand="${seat}"][data-piece="${move.drop}"]`).click();
  } else if (move.from !== undefined) {
    await cellOf(page, board, move.from).click();
  }
  const path = [...(move.via ?? []), ...(move.to !== undefined ? [move.to] : [])];
  for (const cell of path) await cellOf(page, board, cell).click();
  const choice = page.locator(`.chooser:not([hidden]) .choice[data-move="${move.text}"]`);
  const last = path[path.length - 1];
  if (
    !(await choice.count()) &&
    last !== undefined &&
    (await cellOf(page, board, last).getAttribute("class"))?.includes("path")
  ) {
    // The path may go on from here; clicking its end again finishes it.
    await cellOf(page, board, last).click();
  }
  if (await choice.count()) await choice.click();
}

/**
 * A seat's state from the server.
 * @param {string} base
 * @param {string} id
 * @param {string | null} token
 */
export function state(base, id, token) {
  return api(base, "GET", `/api/games/${id}`, undefined, token);
}

/**
 * Creates a game in the lobby as a person would (no clock, playing the first side); answers
 * its id once the game page shows its board.
 * @param {import("playwright-core").Page} page
 * @param {string} base
 * @param {string} variant
 * @param {{opponent?: "engine" | "friend" | "seek", seats?: string[]}} [how] the two-player
 *   opponent (the engine at level 1 unless told), or each seat's kind with more players
 */
export async function createInLobby(page, base, variant, how = {}) {
  await page.goto(base + "/");
  await page.locator(`[data-pick="${variant}"]`).click();
  await page.locator('select[name="clock"]').selectOption({ index: 0 });
  if (how.seats) {
    for (const [i, kind] of how.seats.entries()) {
      await page.locator(`.seats select[data-seat="${i}"]`).selectOption(kind);
    }
  } else {
    await page.locator('select[name="opponent"]').selectOption(how.opponent ?? "engine");
    if ((how.opponent ?? "engine") === "engine") await page.locator('select[name="level"]').selectOption("1");
  }
  await page.locator('select[name="side"]').selectOption("0");
  await page.locator("button.create").click();
  await page.waitForURL(/\/games\/[^/#]+$/);
  const id = new URL(page.url()).pathname.split("/").pop() ?? "";
  await page.locator("svg[data-board] [data-cell]").first().waitFor();
  return id;
}

/**
 * The seats a page's browser holds in a game, the one it plays first, read from its local
 * storage (what the page keeps, not its scripts).
 * @param {import("playwright-core").Page} page
 * @param {string} id
 * @returns {Promise<{seat: number, token: string}[]>}
 */
export async function heldSeats(page, id) {
  const raw = await page.evaluate((key) => localStorage.getItem(key), `chaturanga.seats.${id}`);
  return raw ? JSON.parse(raw) : [];
}

/**
 * The token of the seat a page plays, from what its browser keeps.
 * @param {import("playwright-core").Page} page
 * @param {string} id
 * @returns {Promise<string>}
 */
export async function heldToken(page, id) {
  const seats = await until(async () => {
    const list = await heldSeats(page, id);
    return list.length ? list : null;
  }, "the page to keep its seat");
  const token = seats[0].token;
  if (typeof token !== "string") throw new Error(`no token kept for ${id}: ${JSON.stringify(seats)}`);
  return token;
}

/**
 * Collects the page's script errors and console errors, for a test to assert there are none.
 * @param {import("playwright-core").Page} page
 * @param {RegExp} [expected] console errors a test causes on purpose (a server it stops)
 */
export function watchErrors(page, expected) {
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !expected?.test(m.text())) errors.push(m.text());
  });
  return errors;
}

/**
 * A game of people made over the API (two, or `players`); every seat's token.
 * @param {string} base
 * @param {string} variant
 * @param {string} [fen]
 * @param {number} [players]
 */
export async function gameOfPeople(base, variant, fen, players = 2) {
  const made = await api(base, "POST", "/api/games", {
    variant,
    fen,
    seats: Array.from({ length: players }, () => ({ kind: "human" })),
    me: 0,
  });
  const tokens = [made.token];
  for (let seat = 1; seat < players; seat++) {
    tokens.push((await api(base, "POST", `/api/games/${made.id}/seats/${seat}/join`, {})).token);
  }
  return { id: made.id, tokens };
}

/**
 * A page of its own browser context holding `token`'s seat of game `id`, its board drawn.
 * @param {import("playwright-core").Browser} browser
 * @param {string} base
 * @param {string} id
 * @param {string} token
 * @param {{width: number, height: number}} [viewport]
 */
export async function pageOfSeat(browser, base, id, token, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${base}/games/${id}#seat=${token}`);
  await page.locator("svg[data-board] [data-cell]").first().waitFor();
  await page.locator(".connection:not(.offline)").waitFor();
  assert.equal(await heldToken(page, id), token);
  return { page, errors, close: () => context.close() };
}
