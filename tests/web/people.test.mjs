// People playing each other in Chromium, one browser context per person: chess to
// checkmate, three-player chess, bughouse (a capture arrives in the partner's pocket), a
// reload mid-game, a dropped connection that catches up, dark chess's fog in the DOM and in
// every frame the page receives, and a browser holding two seats of a game (a link to the
// other seat asks first).

import assert from "node:assert/strict";
import { join } from "node:path";
import { afterEach, test } from "node:test";
import {
  api,
  cellOf,
  clickMove,
  createInLobby,
  heldSeats,
  heldToken,
  outDir,
  serverAndBrowser,
  startServer,
  state,
  until,
  watchErrors,
} from "./harness.mjs";

const setting = serverAndBrowser();

/** @type {string[][]} the script errors of every page a test opened */
let errors = [];

afterEach(() => {
  assert.deepEqual(errors.flat(), [], "no script errors");
  errors = [];
});

/**
 * A game of people: the first makes it in the lobby (a friend by link, or every seat "a
 * person"), the others open the invitation link and press the page's join button; one
 * browser context per person.
 * @param {string} variant
 * @param {number} players
 */
async function gameOfPeople(variant, players) {
  /** @type {{page: import("playwright-core").Page, token: string, seat: number}[]} */
  const people = [];
  let id = "";
  for (let seat = 0; seat < players; seat++) {
    const context = await setting.browser.newContext({ viewport: { width: 1200, height: 850 } });
    const page = await context.newPage();
    // One test stops the server: the failed reconnections are expected.
    errors.push(watchErrors(page, /WebSocket connection to .* failed|net::ERR_CONNECTION_REFUSED/));
    if (seat === 0) {
      id = await createInLobby(
        page,
        setting.server.base,
        variant,
        players > 2 ? { seats: Array.from({ length: players }, () => "human") } : { opponent: "friend" },
      );
      const link = await page.locator("input.invite-link").inputValue();
      assert.equal(link, `${setting.server.base}/games/${id}`, "the page offers the game's link");
    } else {
      await page.goto(`${setting.server.base}/games/${id}`);
      await page.locator(`button[data-join="${seat}"]`).click();
      await page.locator("svg[data-board] [data-cell]").first().waitFor();
    }
    people.push({ page, token: await heldToken(page, id), seat });
  }
  return { id, people };
}
/**
 * Plays `text` by clicking on the page of the seat to move; waits for every page to show it.
 * @param {string} id
 * @param {{page: import("playwright-core").Page, token: string, seat: number}[]} people
 * @param {(legal: any[], s: any) => any} choose
 */
async function turn(id, people, choose) {
  const s = await state(setting.server.base, id, people[0].token);
  const mover = people.find((p) => s.to_move.includes(p.seat));
  assert.ok(mover, "someone is to move");
  const mine = await state(setting.server.base, id, mover.token);
  const move = choose(mine.legal, mine);
  assert.ok(move, "a move to play");
  await until(
    async () => (await mover.page.locator(".moves [data-ply]").count()) === mine.moves.length,
    "the mover's page is current",
  );
  await clickMove(mover.page, move, mover.seat);
  const ply = mine.moves.length + 1;
  for (const p of people) {
    await until(
      async () => (await p.page.locator(".moves [data-ply]").count()) >= ply,
      `every page to show move ${ply}`,
    );
  }
  const now = await state(setting.server.base, id, mover.token);
  assert.equal(now.moves[ply - 1], move.text);
  return { move, now };
}

/** @param {string} text */
const byText = (text) => (/** @type {any[]} */ legal) => legal.find((m) => m.text === text);

test("two people play chess to checkmate", async () => {
  const { id, people } = await gameOfPeople("chess", 2);
  for (const text of ["f2f3", "e7e5", "g2g4", "d8h4"]) await turn(id, people, byText(text));
  for (const p of people) {
    await p.page.locator('.banner[data-result="0-1"]').waitFor();
    assert.match(await p.page.locator(".banner").innerText(), /checkmate/);
  }
  assert.equal(await people[0].page.locator('.moves [data-ply="4"]').innerText(), "Qh4#", "moves in SAN");
  const s = await state(setting.server.base, id, null);
  assert.equal(s.status, "finished");
  assert.equal(s.result, "0-1");
  await people[1].page.screenshot({ path: join(outDir, "screens", "chess-checkmate.png") });
  // The archive lists it; its page steps back through the game.
  // Flipping turns the board and the player bars: black's at the bottom for white.
  const whitePage = people[0].page;
  assert.equal(await whitePage.locator('.players.bottom .player[data-seat="0"]').count(), 1);
  const a1 = await cellOf(whitePage, 0, "a1").boundingBox();
  await whitePage.locator('button[data-action="flip"]').click();
  await whitePage.locator('.players.bottom .player[data-seat="1"]').waitFor();
  assert.equal(await whitePage.locator('.players.top .player[data-seat="0"]').count(), 1);
  const flippedA1 = await cellOf(whitePage, 0, "a1").boundingBox();
  assert.ok(a1 && flippedA1 && flippedA1.y < a1.y, "a1 moved to the top");
  await whitePage.locator('button[data-action="flip"]').click();
  // Tapping a man names it and says how it moves.
  await cellOf(people[0].page, 0, "h4").click();
  assert.match(await people[0].page.locator(".piece-info").innerText(), /^Black queen on h4/);
  // A game for a friend stays out of the archive; its page steps back through the game.
  const page = people[0].page;
  await page.goto(`${setting.server.base}/archive`);
  // The list may be empty (the game of this test is not in it): the note says when it came.
  await page.locator(".archive-note").waitFor({ state: "attached" });
  await until(async () => !/Loading/.test(await page.locator(".archive-note").innerText()), "the archive loaded");
  assert.equal(await page.locator(`.archive-list li[data-game="${id}"]`).count(), 0, "unlisted");
  await page.goto(`${setting.server.base}/games/${id}`);
  await page.locator('.banner[data-result="0-1"]').waitFor();
  await page.locator('.moves [data-ply="2"]').click();
  // After 1... e5 the queen is still at home and the page says which move it shows.
  await until(
    async () => (await cellOf(page, 0, "d8").locator(".man").getAttribute("data-piece")) === "Q",
    "the position after 1... e5",
  );
  assert.equal(await cellOf(page, 0, "h4").locator(".man").count(), 0, "the queen is not yet on h4");
  assert.equal(await cellOf(page, 0, "e5").locator(".man").getAttribute("data-piece"), "P");
  assert.match(await page.locator(".status").innerText(), /move 2 of 4/);
  await page.locator('button[aria-label="first"]').click();
  await until(async () => (await cellOf(page, 0, "f2").locator(".man").count()) === 1, "the start position");
  await page.keyboard.press("ArrowRight");
  await until(async () => (await cellOf(page, 0, "f3").locator(".man").count()) === 1, "the position after 1. f3");
  await page.locator('button[aria-label="now"]').click();
  await until(async () => (await cellOf(page, 0, "h4").locator(".man").getAttribute("data-piece")) === "Q", "the end");
  const pgn = await (await fetch(`${setting.server.base}/api/games/${id}/record`)).text();
  assert.match(pgn, /Qh4#/);
  // A rematch is an offer the other player answers; then both pages go on to the new game,
  // each player on the other colour.
  await page.locator('button[data-action="rematch-offer"]').click();
  const black = people[1].page;
  await black.locator('button[data-action="rematch-accept"]').click();
  await until(async () => !page.url().endsWith(id) && !black.url().endsWith(id), "both pages to move on");
  const next = black.url().split("/games/")[1];
  assert.equal(page.url(), `${setting.server.base}/games/${next}`);
  await black.locator("svg[data-board] [data-cell]").first().waitFor();
  const asWhite = await state(setting.server.base, next, people[1].token);
  assert.equal(asWhite.you, 0, "Black of the first game is White now");
  assert.equal((await state(setting.server.base, next, people[0].token)).you, 1);
  await clickMove(black, { text: "e2e4", from: "e2", to: "e4" }, 0);
  await until(async () => (await state(setting.server.base, next, null)).ply === 1, "the rematch's first move");
});

test("the rules page names and draws every piece of the ruleset", async () => {
  const context = await setting.browser.newContext();
  const page = await context.newPage();
  errors.push(watchErrors(page));
  await page.goto(`${setting.server.base}/rules/chushogi`);
  await page.locator(".rules-text .summary").waitFor();
  const variants = (await api(setting.server.base, "GET", "/api/variants")).variants;
  const chu = variants.find((/** @type {any} */ v) => v.id === "chushogi");
  assert.equal(await page.locator(".rules-page .legend dt").count(), chu.pieces.length);
  await context.close();
});

test("three people play three-player chess until one resigns in favour of another", async () => {
  const { id, people } = await gameOfPeople("threeplayer", 3);
  for (let n = 0; n < 6; n++) await turn(id, people, (legal) => legal[(n * 31) % legal.length]);
  // A resignation names whom it favours: the ruleset lists those actions.
  const s = await state(setting.server.base, id, people[0].token);
  const mover = people.find((p) => s.to_move.includes(p.seat));
  assert.ok(mover);
  const mine = await state(setting.server.base, id, mover.token);
  assert.ok(mine.actions.length, "resignations in favour of a player are offered");
  const resign = mover.page.locator(`button[data-action="${mine.actions[0]}"]`);
  const favoured = mine.actions[0].replace(/^resign[ -]/, "");
  assert.equal(
    await resign.innerText(),
    `Resign, giving the win to ${favoured[0].toUpperCase()}${favoured.slice(1)}`,
    "the button says whom the resignation favours",
  );
  // A click that loses asks once more on the button.
  await resign.click();
  await resign.click();
  await until(async () => {
    const t = await state(setting.server.base, id, null);
    return t.status !== "ongoing" || t.offers.action || t.version > s.version;
  }, "the resignation to be taken");
  const after = await state(setting.server.base, id, null);
  if (after.offers.action) {
    const consent = people.find((p) => p.seat === after.offers.action.consent);
    assert.ok(consent);
    await consent.page.locator('button[data-action="action-accept"]').click();
  }
  for (const p of people) await p.page.locator(".banner[data-result]").waitFor();
  await people[0].page.screenshot({ path: join(outDir, "screens", "threeplayer-people.png") });
});

test("four people play bughouse; a capture arrives in the partner's pocket", async () => {
  const { id, people } = await gameOfPeople("bughouse", 4);
  let captured = null;
  for (let n = 0; n < 60 && !captured; n++) {
    const { move, now } = await turn(id, people, (legal, s) => {
      const occupied = (/** @type {any} */ m) => s.boards[m.board ?? 0].men.some((x) => x.cell === m.to);
      return legal.find(occupied) ?? legal[(n * 17) % legal.length];
    });
    const board = move.board ?? 0;
    const pockets = now.boards[1 - board].hands.filter((h) => h.count > 0);
    if (pockets.length) captured = { board: 1 - board, pockets };
  }
  assert.ok(captured, "a capture happened within 60 moves");
  // Every page draws the pocket on the other board.
  for (const p of people) {
    for (const h of captured.pockets) {
      await p.page
        .locator(`.hand-man[data-board="${captured.board}"][data-hand="${h.owner}"][data-piece="${h.piece}"]`)
        .waitFor();
    }
  }
  await people[0].page.screenshot({ path: join(outDir, "screens", "bughouse-people.png") });
});

test("a reload keeps the seat and the position; a dropped connection catches up", async () => {
  const { id, people } = await gameOfPeople("chess", 2);
  await turn(id, people, byText("e2e4"));
  await turn(id, people, byText("e7e5"));
  const [white, black] = people;
  await white.page.reload();
  await white.page.locator('.moves [data-ply="2"]').waitFor();
  assert.equal(await cellOf(white.page, 0, "e4").locator(".man").getAttribute("data-piece"), "P");
  await turn(id, people, byText("g1f3"));
  // The server goes away and comes back on the same database; black moves before the
  // white page has reconnected, and the page catches up from the version it had.
  await setting.server.stop();
  await white.page.locator(".connection.offline").waitFor();
  setting.server = await startServer({ port: setting.server.port, dir: setting.server.dir });
  const s = await state(setting.server.base, id, black.token);
  await api(setting.server.base, "POST", `/api/games/${id}/moves`, { move: "b8c6", ply: s.ply }, black.token);
  await white.page.locator('.moves [data-ply="4"]').waitFor({ timeout: 20_000 });
  assert.equal(await cellOf(white.page, 0, "c6").locator(".man").getAttribute("data-piece"), "N");
  await white.page.locator(".connection:not(.offline)").waitFor();
  // A move typed in the ruleset's notation (SAN here) is read by the server.
  await until(async () => (await white.page.locator(".moves [data-ply]").count()) === 4, "white's page is current");
  await white.page.locator("input.keyboard").fill("Bc4");
  await white.page.locator("input.keyboard").press("Enter");
  await until(async () => (await state(setting.server.base, id, white.token)).moves[4] === "f1c4", "the typed move");
});

test("a premove is played when its turn comes", async () => {
  const { id, people } = await gameOfPeople("chess", 2);
  const black = people[1].page;
  // The page knows the game has started (its second player came) before it premoves.
  await black.locator(".connection:not(.offline)").waitFor();
  await until(
    async () => /white to move/i.test(await black.locator(".status").innerText()),
    "Black's page to see the start",
  );
  await cellOf(black, 0, "e7").click();
  await cellOf(black, 0, "e5").click();
  await until(
    async () => /path/.test((await cellOf(black, 0, "e5").getAttribute("class")) ?? ""),
    "the premove marked on the board",
  );
  await turn(id, people, byText("d2d4"));
  await until(
    async () => (await state(setting.server.base, id, people[0].token)).moves[1] === "e7e5",
    "the premove played",
  );
});

test("a man picked up stays in hand when a state arrives that leaves the turn as it was", async () => {
  const { id, people } = await gameOfPeople("chess", 2);
  const white = people[0].page;
  await white.locator(".connection:not(.offline)").waitFor();
  await cellOf(white, 0, "g1").click();
  assert.match((await cellOf(white, 0, "g1").getAttribute("class")) ?? "", /selected/, "the knight is picked up");
  // The other player offers a draw: a new state reaches the page between the two clicks.
  await api(setting.server.base, "POST", `/api/games/${id}/actions`, { action: "draw-offer" }, people[1].token);
  await white.locator('button[data-action="draw-accept"]').waitFor();
  await cellOf(white, 0, "f3").click();
  await until(
    async () => (await state(setting.server.base, id, people[0].token)).moves[0] === "g1f3",
    "the knight's move",
  );
});

test("a link to another seat asks first, keeps the seat held, and the page switches between both", async () => {
  const made = await api(setting.server.base, "POST", "/api/games", {
    variant: "chess",
    seats: [{ kind: "human" }, { kind: "human" }],
    me: 0,
    listed: false,
  });
  const black = await api(setting.server.base, "POST", `/api/games/${made.id}/seats/1/join`);
  const context = await setting.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  errors.push(watchErrors(page));
  // White's seat as browsers kept one seat per game before: it is still this browser's.
  await page.goto(`${setting.server.base}/archive`);
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key, value),
    [`chaturanga.seat.${made.id}`, JSON.stringify({ seat: 0, token: made.token })],
  );
  const gameUrl = `${setting.server.base}/games/${made.id}`;
  /** @param {import("playwright-core").Page} p @param {number} seat */
  const plays = async (p, seat) => {
    await p.locator(`.players.bottom .player[data-seat="${seat}"] .who`).filter({ hasText: /^you$/ }).waitFor();
    assert.equal(await p.locator(".player .who", { hasText: /^you$/ }).count(), 1, "one seat played");
  };
  /**
   * Plays `text` by clicking as `seat`'s page and waits for the server to have it.
   * @param {import("playwright-core").Page} p
   * @param {number} seat
   * @param {string} text
   */
  const clickAs = async (p, seat, text) => {
    const token = seat === 0 ? made.token : black.token;
    const before = await state(setting.server.base, made.id, token);
    const move = before.legal.find((/** @type {any} */ m) => m.text === text);
    assert.ok(move, `${text} is legal for seat ${seat}`);
    await until(
      async () => (await p.locator(".moves [data-ply]").count()) === before.moves.length,
      "the page is current",
    );
    await clickMove(p, move, seat);
    await until(async () => (await state(setting.server.base, made.id, null)).moves.length > before.moves.length, text);
  };

  // The link to Black's seat: asked over White's game, declined.
  await page.goto(`${gameUrl}#seat=${black.token}`);
  const question = page.locator(".seat-question:not([hidden])");
  await question.waitFor();
  assert.match(await question.innerText(), /This link is for Black's seat\./);
  assert.match(await question.innerText(), /you play White/);
  await plays(page, 0);
  await question.locator('[data-answer="stay"]').click();
  await page.locator(".seat-question").waitFor({ state: "hidden" });
  await plays(page, 0);
  await clickAs(page, 0, "e2e4");
  assert.deepEqual(await heldSeats(page, made.id), [{ seat: 0, token: made.token }], "White's seat, alone");
  assert.equal(await page.evaluate((key) => localStorage.getItem(key), `chaturanga.seat.${made.id}`), null);
  assert.equal(await page.locator(".seat-switch").isHidden(), true, "nothing to switch between");

  // The link again, in another tab: accepted, the page plays Black and White's seat stays.
  const tab = await context.newPage();
  errors.push(watchErrors(tab));
  await tab.goto(`${gameUrl}#seat=${black.token}`);
  await tab.locator('.seat-question:not([hidden]) [data-answer="switch"]').click();
  await plays(tab, 1);
  assert.equal(await tab.locator(".seat-question").isHidden(), true);
  await clickAs(tab, 1, "e7e5");
  assert.deepEqual(await heldSeats(tab, made.id), [
    { seat: 1, token: black.token },
    { seat: 0, token: made.token },
  ]);
  const switcher = tab.locator(".seat-switch:not([hidden])");
  assert.equal(await switcher.locator('.seat-choice[data-seat="1"]').getAttribute("aria-pressed"), "true");

  // Back to White on the same page, then a reload keeps the seat played last.
  await switcher.locator('.seat-choice[data-seat="0"]').click();
  await plays(tab, 0);
  assert.equal(await switcher.locator('.seat-choice[data-seat="0"]').getAttribute("aria-pressed"), "true");
  await clickAs(tab, 0, "g1f3");
  await tab.reload();
  await plays(tab, 0);
  assert.equal(await tab.locator(".seat-switch .seat-choice").count(), 2);
  assert.deepEqual(
    (await heldSeats(tab, made.id)).map((seat) => seat.seat),
    [0, 1],
  );
  // A link to a seat the browser holds plays it without asking.
  await tab.goto(`${gameUrl}#seat=${black.token}`);
  await plays(tab, 1);
  assert.equal(await tab.locator(".seat-question").isHidden(), true);
  await context.close();
});

test("dark chess: the page never holds a man its seat cannot see", async () => {
  const made = await api(setting.server.base, "POST", "/api/games", {
    variant: "darkchess",
    seats: [{ kind: "human" }, { kind: "human" }],
    me: 0,
  });
  const other = await api(setting.server.base, "POST", `/api/games/${made.id}/seats/1/join`);
  const context = await setting.browser.newContext();
  const page = await context.newPage();
  errors.push(watchErrors(page));
  /** @type {string[]} */
  const frames = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => frames.push(String(f.payload))));
  await page.goto(`${setting.server.base}/games/${made.id}#seat=${made.token}`);
  await page.locator("svg[data-board] [data-cell]").first().waitFor();
  for (let n = 0; n < 8; n++) {
    const s = await state(setting.server.base, made.id, made.token);
    if (s.status !== "ongoing") break;
    if (s.to_move.includes(0)) {
      await clickMove(page, s.legal[(n * 13) % s.legal.length], 0);
    } else {
      const b = await state(setting.server.base, made.id, other.token);
      await api(
        setting.server.base,
        "POST",
        `/api/games/${made.id}/moves`,
        { move: b.legal[(n * 7) % b.legal.length].text, ply: b.ply },
        other.token,
      );
    }
    const white = await until(async () => {
      const w = await state(setting.server.base, made.id, made.token);
      return w.ply > s.ply ? w : null;
    }, "the move");
    await until(
      async () => (await page.locator(".moves [data-ply]").count()) === white.moves.length,
      "the page to show it",
    );
    // Black's men that White cannot see, from black's own view.
    const black = await state(setting.server.base, made.id, other.token);
    const fog = new Set(white.boards[0].fog ?? []);
    assert.ok(fog.size > 0, "white sees only part of the board");
    const hidden = black.boards[0].men.filter((m) => m.owner === 1 && fog.has(m.cell));
    assert.ok(hidden.length > 0, "some of black's men are in white's fog");
    for (const m of hidden) {
      assert.equal(await cellOf(page, 0, m.cell).locator(".man").count(), 0, `no man drawn on fogged ${m.cell}`);
    }
    assert.equal(await page.locator(".cell.fog .man").count(), 0, "no man on any fogged cell");
    const seen = white.boards[0].men.filter((m) => m.owner === 1).length;
    assert.equal(await page.locator('.man[data-owner="1"]').count(), seen, "the page draws just the men white sees");
    const states = frames.map((text) => JSON.parse(text)).filter((m) => m.t === "state");
    assert.ok(states.length > 0, "the page was sent states");
    for (const m of states) {
      const frameFog = new Set(m.d.boards[0].fog ?? []);
      assert.ok(frameFog.size > 0, "every state sent to white has its fog");
      for (const man of m.d.boards[0].men) {
        assert.ok(!frameFog.has(man.cell), `a frame shows a man in the fog on ${man.cell}`);
      }
      assert.equal(m.d.fen, undefined, "no FEN sent to a seat in the fog");
    }
  }
  await page.screenshot({ path: join(outDir, "screens", "darkchess-fog.png") });
  await context.close();
});
