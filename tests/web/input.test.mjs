// The move picker (web/js/input.js) on hand-made legal lists: what a click leads to, for
// every move shape the server sends.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { useLanguage } from "../../web/js/i18n.js";
import { Picker, choiceLabel, steps } from "../../web/js/input.js";

// The chooser's words come from the English catalogue, read from web/i18n as the page would.
Object.assign(globalThis, {
  document: { documentElement: {}, querySelectorAll: () => [] },
  fetch: async (/** @type {string} */ path) => {
    const file = new URL(`../../web/i18n/${path.split("/").pop()}`, import.meta.url);
    return { ok: true, json: async () => JSON.parse(readFileSync(file, "utf8")) };
  },
});
await useLanguage("en");

const at = (cell, board = 0) => ({ board, cell });

test("a plain move: the man, then its cell", () => {
  const p = new Picker([
    { text: "e2e4", from: "e2", to: "e4" },
    { text: "e2e3", from: "e2", to: "e3" },
  ]);
  assert.equal(p.cell(at("e4")).kind, "none", "an empty cell with no move starting there");
  assert.equal(p.cell(at("e2")).kind, "select");
  assert.deepEqual(
    p
      .marks(() => false)
      .dests?.map((d) => d.cell)
      .sort(),
    ["e3", "e4"],
  );
  assert.deepEqual(p.cell(at("e4")), { kind: "play", move: { text: "e2e4", from: "e2", to: "e4" } });
});

test("clicking the picked man again lets it go; another man is picked instead", () => {
  const p = new Picker([
    { text: "a", from: "e2", to: "e4" },
    { text: "b", from: "d2", to: "d4" },
  ]);
  p.cell(at("e2"));
  assert.equal(p.cell(at("e2")).kind, "none");
  assert.equal(p.origin, null);
  p.cell(at("e2"));
  assert.equal(p.cell(at("d2")).kind, "select");
  assert.equal(p.origin?.from, "d2");
});

test("promotions and splits share a path: a chooser of exactly those moves", () => {
  const legal = [
    { text: "a7a8q", from: "a7", to: "a8", promotion: "Q" },
    { text: "a7a8n", from: "a7", to: "a8", promotion: "N" },
    { text: "a7b8q", from: "a7", to: "b8", promotion: "Q" },
  ];
  const p = new Picker(legal);
  p.cell(at("a7"));
  const outcome = p.cell(at("a8"));
  assert.equal(outcome.kind, "choose");
  assert.deepEqual(outcome.kind === "choose" && outcome.moves.map((m) => m.text), ["a7a8q", "a7a8n"]);
  assert.deepEqual(choiceLabel(legal[1], legal), { piece: "N", label: "N" });
  const shogi = [
    { text: "2c2b+", from: "2c", to: "2b", promotion: "+" },
    { text: "2c2b", from: "2c", to: "2b" },
  ];
  assert.equal(choiceLabel(shogi[0], shogi).label, "promote");
  assert.equal(choiceLabel(shogi[1], shogi).label, "no promotion");
  assert.equal(choiceLabel({ text: "a1b2/2", from: "a1", to: "b2", split: 2 }, []).label, "2");
});

test("a lion: one step ends at the first click's cell only when clicked again; igui returns home", () => {
  const legal = [
    { text: "5e5d", from: "5e", to: "5d" },
    { text: "5e5d5c", from: "5e", via: ["5d"], to: "5c" },
    { text: "5e5d5e", from: "5e", via: ["5d"], to: "5e" },
  ];
  const p = new Picker(legal);
  p.cell(at("5e"));
  assert.equal(p.cell(at("5d")).kind, "select", "the path may go on");
  const marks = p.marks(() => false);
  assert.deepEqual(marks.dests?.map((d) => d.cell).sort(), ["5c", "5d", "5e"]);
  assert.equal(JSON.stringify(p.cell(at("5e"))), JSON.stringify({ kind: "play", move: legal[2] }), "igui");
  p.cell(at("5e"));
  p.cell(at("5d"));
  assert.deepEqual(p.cell(at("5d")), { kind: "play", move: legal[0] }, "the single step, by a second click");
});

test("a monkey's chain of jumps, landing by landing", () => {
  const legal = [
    { text: "c3e5", from: "c3", via: ["e5"], to: "c7" },
    { text: "c3e5g3", from: "c3", via: ["e5", "g7"], to: "e7" },
  ];
  assert.deepEqual(steps(legal[1]), ["e5", "g7", "e7"]);
  const p = new Picker(legal);
  p.cell(at("c3"));
  assert.equal(p.cell(at("e5")).kind, "select");
  assert.equal(p.cell(at("g7")).kind, "select");
  assert.deepEqual(p.cell(at("e7")), { kind: "play", move: legal[1] });
});

test("drops start at the hand; moves with no cells are buttons; placements are one click", () => {
  const legal = [
    { text: "P*5e", drop: "P", to: "5e" },
    { text: "P*5f", drop: "P", to: "5f" },
    { text: "draw", part: "draw" },
  ];
  const p = new Picker(legal);
  assert.deepEqual(
    p.buttons().map((m) => m.text),
    ["draw"],
  );
  assert.equal(p.hand(0, 0, "G").kind, "none", "no such drop");
  assert.equal(p.hand(0, 0, "P").kind, "select");
  assert.deepEqual(p.marks(() => false).hand, { board: 0, owner: 0, piece: "P" });
  assert.deepEqual(p.cell(at("5f")), { kind: "play", move: legal[1] });
  const place = new Picker([{ text: "Qb2", to: "b2", part: "place" }]);
  assert.equal(place.cell(at("b2")).kind, "play");
});

test("a Gess footprint: the area of the picked centre is marked", () => {
  const area = ["c2", "d2", "e2", "c3", "d3", "e3", "c4", "d4", "e4"];
  const p = new Picker([{ text: "d3d5", from: "d3", to: "d5", area }]);
  p.cell(at("d3"));
  assert.deepEqual(
    p.marks(() => false).area?.map((s) => s.cell),
    area,
  );
});

test("two boards: a cell is a cell of its board", () => {
  const legal = [{ text: "B:e2e4", board: 1, from: "e2", to: "e4" }];
  const p = new Picker(legal);
  assert.equal(p.cell(at("e2", 0)).kind, "none");
  assert.equal(p.cell(at("e2", 1)).kind, "select");
  assert.equal(p.cell(at("e4", 0)).kind, "none");
  p.cell(at("e2", 1));
  assert.equal(p.cell(at("e4", 1)).kind, "play");
});

test("a drag plays the shortest path to the cell dropped on", () => {
  const legal = [
    { text: "5e5d", from: "5e", to: "5d" },
    { text: "5e4d5d", from: "5e", via: ["4d"], to: "5d" },
  ];
  assert.deepEqual(new Picker(legal).drag(at("5e"), at("5d")), { kind: "play", move: legal[0] });
  assert.equal(new Picker(legal).drag(at("5e"), at("1a")).kind, "none");
});

test("a lion's leap clicked as two steps through an empty cell (a route the server lists)", () => {
  // The chu shogi case: the lion on 7j, 7i empty; 6h is a leap, or 7i then 6h.
  const legal = [
    { text: "7j7i", from: "7j", to: "7i", routes: [["6i"], ["8i"]] },
    { text: "7j6h", from: "7j", to: "6h", routes: [["7i"], ["6i"]] },
    { text: "7j7i7j", from: "7j", via: ["7i"], to: "7j", routes: [["6i"], ["8i"]] },
  ];
  const p = new Picker(legal);
  p.cell(at("7j"));
  assert.equal(p.cell(at("7i")).kind, "select", "the path may go on");
  assert.deepEqual(
    p
      .marks(() => false)
      .dests?.map((d) => d.cell)
      .sort(),
    ["6h", "7i", "7j"],
    "on to 6h, back home (the pass), or stop at 7i",
  );
  assert.deepEqual(p.cell(at("6h")), { kind: "play", move: legal[1] });
  // The pass through another empty neighbour; the plain leap still takes one click.
  p.cell(at("7j"));
  p.cell(at("6i"));
  assert.deepEqual(p.cell(at("7j")), { kind: "play", move: legal[2] });
  p.cell(at("7j"));
  assert.deepEqual(p.cell(at("6h")), { kind: "play", move: legal[1] });
});

test("only the mover's own hand is picked from, though the other holds the same piece", () => {
  const legal = [{ text: "B*5e", drop: "B", to: "5e" }];
  const p = new Picker(legal, 0);
  assert.equal(p.hand(0, 1, "B").kind, "none", "the opponent's bishop");
  assert.equal(p.origin, null);
  assert.equal(p.hand(0, 0, "B").kind, "select");
});

test("a man picked up stays in hand through a state that leaves its move legal", () => {
  const before = new Picker([{ text: "e2e4", from: "e2", to: "e4" }], 0);
  before.cell(at("e2"));
  // Bughouse: a move on the other board, and the same move is still there.
  const kept = Picker.carrying(
    before,
    [
      { text: "e2e4", from: "e2", to: "e4" },
      { text: "P@f3", drop: "P", to: "f3" },
    ],
    0,
  );
  assert.equal(kept.origin?.from, "e2");
  assert.deepEqual(kept.cell(at("e4")).kind, "play");
  // A state where it is gone lets it go.
  before.cell(at("e2"));
  before.cell(at("e2"));
  assert.equal(Picker.carrying(before, [{ text: "d2d4", from: "d2", to: "d4" }], 0).origin, null);
});

test("the move list numbers turns, not moves: a compound turn is one turn; bughouse's boards count apart", async () => {
  const { numberTurns } = await import("../../web/js/turns.js");
  const one = () => 0;
  const two = () => [0, 1];
  // Progressive chess: f3 | e5 Bc5 | a3 b4 Ra2.
  assert.deepEqual(numberTurns([0, 1, 1, 0, 0, 0], one, two, 1), [
    { label: "1.", seat: 0, plies: [1] },
    { label: "", seat: 1, plies: [2, 3] },
    { label: "2.", seat: 0, plies: [4, 5, 6] },
  ]);
  // Chex: a draw and its placement are one turn.
  assert.deepEqual(
    numberTurns([0, 0, 1, 1], one, two, 1).map((t) => t.label),
    ["1.", ""],
  );
  // Three players: a number for each round.
  assert.deepEqual(
    numberTurns([0, 1, 2, 0], one, () => [0, 1, 2], 1).map((t) => t.label),
    ["1.", "", "", "2."],
  );
  // Bughouse: players 0 and 1 on board A, 2 and 3 on board B, each board numbered apart.
  const board = (/** @type {number} */ seat) => (seat < 2 ? 0 : 1);
  const players = (/** @type {number} */ b) => (b === 0 ? [0, 1] : [2, 3]);
  assert.deepEqual(
    numberTurns([0, 2, 1, 3, 0], board, players, 2).map((t) => t.label),
    ["1A.", "1B.", "1a.", "1b.", "2A."],
  );
});
