// Every ruleset played in Chromium as a person plays it: a game made in the lobby (or by
// link, one browser context per seat, for three and four players), turns played by clicking
// cells, hands and choosers, the server's state checked after each move; positions with the
// special move shapes (drops, promotions, lion and monkey paths, splits, placements) from
// FENs. A screenshot of every board goes to target/web-tests/screens.

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  api,
  clickMove,
  createInLobby,
  heldToken,
  outDir,
  serverAndBrowser,
  state,
  until,
  watchErrors,
} from "./harness.mjs";

const setting = serverAndBrowser();
const screens = join(outDir, "screens");
mkdirSync(screens, { recursive: true });

/**
 * Ranks the legal moves so the special shapes are tried first.
 * @param {any} m
 */
function interest(m) {
  return (
    (m.via?.length ? 8 : 0) +
    (m.drop ? 6 : 0) +
    (m.promotion ? 5 : 0) +
    (m.split ? 4 : 0) +
    (m.part === "push" ? 4 : 0) +
    (m.part === "place" ? 4 : 0)
  );
}

/**
 * A move to click: a special one when there is one, else any, chosen by a seeded counter.
 * @param {any[]} legal
 * @param {number} n
 */
function pick(legal, n) {
  const best = Math.max(...legal.map(interest));
  const pool = best > 0 ? legal.filter((m) => interest(m) === best) : legal;
  return pool[(n * 7919) % pool.length];
}

/**
 * Plays one move of `seat` by clicking, and checks the server took exactly that move.
 * @param {import("playwright-core").Page} page
 * @param {string} id
 * @param {string} token
 * @param {number} seat
 * @param {number} n
 * @param {(m: any) => boolean} [want] a move shape to prefer
 * @returns {Promise<{move: any, turnOver: boolean} | null>} the move played and whether it ended
 *   the turn; `null` when the game ended before it was this seat's turn
 */
async function playOne(page, id, token, seat, n, want) {
  const before = await until(async () => {
    const s = await state(setting.server.base, id, token);
    return s.status !== "ongoing" || (s.to_move.includes(seat) && s.legal?.length) ? s : null;
  }, `seat ${seat} to move in ${id}`);
  // The engine's reply may have ended the game.
  if (before.status !== "ongoing") return null;
  const wanted = want ? before.legal.filter(want) : [];
  const move = wanted.length ? wanted[n % wanted.length] : pick(before.legal, n);
  // The page shows the same state before it is clicked.
  await until(
    async () => (await page.locator(".moves [data-ply]").count()) === before.moves.length,
    "the page to show the state",
  );
  await clickMove(page, move, seat);
  const afterMove = await until(
    async () => {
      const s = await state(setting.server.base, id, token);
      return s.moves.length > before.moves.length ? s : null;
    },
    `the server to take ${move.text} (${JSON.stringify(move)})`,
  );
  assert.equal(afterMove.moves[before.moves.length], move.text, "the server played the move clicked");
  // The turn is over unless the same seat is still to move and nobody else has moved.
  const turnOver = !(afterMove.to_move.includes(seat) && afterMove.moves.length === before.moves.length + 1);
  return { move, turnOver };
}

describe("every ruleset in the browser", () => {
  const many = new Set(["threeplayer", "bughouse"]);
  for (const id of [
    "avalanche",
    "capablanca",
    "chess",
    "chex",
    "chushogi",
    "congo",
    "daishogi",
    "darkchess",
    "doublechess",
    "doublemove",
    "gess",
    "grand",
    "hexchess",
    "losing",
    "maharajah",
    "makarenko",
    "minishogi",
    "omega",
    "outer",
    "progressive",
    "renaissance",
    "shogi",
    "speed",
    "taktika",
    "torishogi",
    "xiangqi",
    "yarishogi",
  ]) {
    test(`${id}: made in the lobby, three turns clicked against the engine`, async () => {
      assert.ok(!many.has(id));
      const context = await setting.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = watchErrors(page);
      const gameId = await createInLobby(page, setting.server.base, id);
      const token = await heldToken(page, gameId);
      let turns = 0;
      let moves = 0;
      for (let n = 0; turns < 3 && moves < 30; n++) {
        const s = await state(setting.server.base, gameId, token);
        if (s.status !== "ongoing") break;
        const played = await playOne(page, gameId, token, 0, n);
        if (!played) break;
        const { turnOver } = played;
        moves++;
        if (turnOver) turns++;
      }
      const end = await state(setting.server.base, gameId, token);
      assert.ok(turns >= 3 || end.status !== "ongoing", `three turns played in ${id} (${turns})`);
      // The page shows what the server holds: every man on its cell.
      await until(async () => {
        const seen = await state(setting.server.base, gameId, token);
        if ((await page.locator(".moves [data-ply]").count()) !== seen.moves.length) return false;
        for (const [b, board] of seen.boards.entries()) {
          const onPage = await page.locator(`svg[data-board="${b}"] [data-cell]:has(.man)`).count();
          if (onPage !== board.men.length) return false;
        }
        return true;
      }, "the page to show every man the server has");
      await page.screenshot({ path: join(screens, `${id}.png`) });
      assert.deepEqual(errors, [], "no script errors");
      await context.close();
    });
  }
});

/** Positions where the special shapes are on the board, found by random play on this server. */
const SPECIAL = [
  ["shogi", "1nk3b2/lr2sg3/p3p1+Ppl/1ppp1p1P1/s2P3np/P1P3R1P/1PN1PP1KN/L1SGGS2L/2B6 b GP 65", "a drop", (m) => m.drop],
  [
    "shogi",
    "1nk3b2/lr2sg3/p3p1+Ppl/1ppp1p1P1/s2P3np/P1P3R1P/1PN1PP1KN/L1SGGS2L/2B6 b GP 65",
    "a promotion",
    (m) => m.promotion,
  ],
  ["minishogi", "2sgk/r3p/P4/4R/KGSB1 b B 5", "a drop", (m) => m.drop],
  ["torishogi", "1pck1pl/r2f1c1/ss2Sss/S1ss3/1S1SSSS/3FK2/LPC1CPR b 2Ss 9", "a drop", (m) => m.drop],
  ["yarishogi", "1r1k1br/2n2b1/npp1ppp/p2p3/7/P1P1P1N/1PBP1PP/3K3/RB2N1R b - 15", "a promotion", (m) => m.promotion],
  [
    "chushogi",
    "l1csgekgscfl/afb1txothb1a/mvrhdq1d1rvm/p1ppp1pppppp/1p1inp2i3/3N8/12/PP1I4I3/2PPPPPPPPPP/MVRHD1QDHRVM/A1BCTOXT1B1A/LF1SGKEGSCFL b - 13",
    "a lion double move",
    (m) => m.via?.length,
  ],
  [
    "daishogi",
    "lc'u1cstk1t1c'1nl/a5h1gscua'1a/nx'1a'iwgxewoi2x'/rmv1bd2dhbfm+Hr/1+D1ppp1f1ppv1pp/p2f'3p2p'4/8p2p3/2p1p'7p2/1P5P2P'4/P2PP'5P3P/F'1P1PP2Q2PPP1/2MVB1q1C1BVMF'R/R1UCA'S2S1HA'NC'X'/AX'C'1F1ETX2U2A/LN1I1TGKGF1I2L b - 161",
    "a lion double move",
    (m) => m.via?.length,
  ],
  ["congo", "2ele2/2m4/1p1p1np/4c2/2g2NP/P1MP2C/1G1L2E w 0 21", "a monkey jump", (m) => m.via?.length],
  [
    "grand",
    "8b1/c6k2/5p1ar1/1ppp2P3/1NP5pp/4p3n1/r5R3/3PPP1PAP/3KR1CB2/6N3 w - - 1 48",
    "a promotion to a captured piece",
    (m) => m.promotion,
  ],
  [
    "renaissance",
    "t2e4n1kg/q5sa4/ppbG1p1u1Pp1/b1P1pfpp4/P5f2pPp/6d1p3/N3F3t3/R4Pv1PK1G/5U1E1R2/T1S1B2V1BT1 w - - 1 105",
    "a promotion",
    (m) => m.promotion,
  ],
  ["chess", "2kr4/P7/2b3p1/pB1p1pPp/P2qNP1P/3p3K/2R1P3/b7 w - - 1 48", "a promotion", (m) => m.promotion],
  ["capablanca", "8k1/pP8/10/6P2K/4p4P/3p6/9r/5A4 w - - 0 89", "a promotion", (m) => m.promotion],
  ["makarenko", null, "a tower split", (m) => m.split],
  ["avalanche", null, "a push", (m) => m.part === "push"],
  ["chex", null, "a placement", (m) => m.part === "place"],
  ["progressive", null, "a series of two", (_m, parts) => parts >= 1],
  ["gess", null, "a footprint move", (m) => m.from],
];

describe("special move shapes, clicked from a seat's link", () => {
  for (const [variant, fen, what, want] of SPECIAL) {
    test(`${variant}: ${what}`, async () => {
      const first = 0;
      const made = await api(setting.server.base, "POST", "/api/games", {
        variant,
        fen: fen ?? undefined,
        seats: [{ kind: "human" }, { kind: "engine", level: 1 }],
        me: first,
      });
      const context = await setting.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${setting.server.base}/games/${made.id}#seat=${made.token}`);
      await page.locator("svg[data-board] [data-cell]").first().waitFor();
      assert.equal(new URL(page.url()).hash, "", "the token is taken out of the address bar");
      assert.equal(await heldToken(page, made.id), made.token);
      const ourTurn = () =>
        until(async () => {
          const s = await state(setting.server.base, made.id, made.token);
          return s.status !== "ongoing" || s.to_move.includes(first) ? s : null;
        }, "our turn");
      let played = false;
      // The parts of the turn in progress already clicked (progressive chess's series).
      let parts = 0;
      for (let n = 0; n < 12 && !played; n++) {
        const s = await ourTurn();
        if (s.status !== "ongoing") break;
        const wanted = (/** @type {any} */ m) => want(m, parts);
        const special = s.legal.filter(wanted);
        const one = await playOne(page, made.id, made.token, first, n, special.length ? wanted : undefined);
        if (!one) break;
        const { move, turnOver } = one;
        played = special.length > 0 && wanted(move);
        parts = turnOver ? 0 : parts + 1;
      }
      assert.ok(played, `${what} clicked in ${variant}`);
      if (variant === "gess") {
        // Picking a centre marks its footprint.
        const move = (await ourTurn()).legal[0];
        await page.locator(`svg[data-board="0"] [data-cell="${move.from}"]`).click();
        assert.equal(move.area.length, 9);
        assert.equal(await page.locator(".cell.area").count(), move.area.length);
      }
      await page.screenshot({ path: join(screens, `${variant}-${what.replaceAll(" ", "-")}.png`) });
      assert.deepEqual(errors, [], "no script errors");
      await context.close();
    });
  }
});
