// Picking a move from the server's `legal` list by clicks: the man (or a hand's piece),
// then each cell of its path (a lion's first step, a monkey's landings, or another route the
// server lists), then the end; a
// chooser where several moves share the path (promotions, Makarenko splits). It knows no
// rules: every choice offered is a legal move the server listed.

import { t } from "./i18n.js";

/**
 * @typedef {import("./board.js").Shape} Shape
 * @typedef {import("./board.js").Spot} Spot
 * @typedef {Shape & {text: string}} Legal
 * @typedef {{kind: "none"} | {kind: "select"} | {kind: "play", move: Legal} | {kind: "choose", moves: Legal[]}} Outcome
 */

/**
 * The cells a move visits after its start, in order: `via`, then `to`.
 * @param {Shape} move
 * @returns {string[]}
 */
export function steps(move) {
  return [...(move.via ?? []), ...(move.to !== undefined ? [move.to] : [])];
}

/**
 * Every way to click a move after its start: its own steps, then its other routes (a lion's
 * leap taken as two steps through an empty cell).
 * @param {Shape} move
 * @returns {string[][]}
 */
export function ways(move) {
  const end = move.to !== undefined ? [move.to] : [];
  return [steps(move), ...(move.routes ?? []).map((route) => [...route, ...end])];
}

/** The state of one move being picked. */
export class Picker {
  /**
   * @param {Legal[]} legal
   * @param {number | null} [mover] the player these moves are for: only his hand is his to pick from
   */
  constructor(legal, mover = null) {
    this.legal = legal;
    this.mover = mover;
    /** @type {{board: number, from?: string, drop?: string, owner?: number} | null} */
    this.origin = null;
    /** @type {string[]} cells picked after the origin */
    this.path = [];
  }

  /**
   * A picker for `legal` that keeps what `before` had picked while its moves are still legal:
   * a state that changes something else (a move on bughouse's other board) leaves a man
   * picked up in hand.
   * @param {Picker} before
   * @param {Legal[]} legal
   * @param {number | null} mover
   */
  static carrying(before, legal, mover) {
    const next = new Picker(legal, mover);
    if (before.origin && before.mover === mover) {
      next.origin = before.origin;
      next.path = [...before.path];
      if (!next.candidates().length) next.clear();
    }
    return next;
  }

  /** Moves that a person starts by clicking no man and no hand (Chex's draw, a pass). */
  buttons() {
    return this.legal.filter((m) => m.from === undefined && m.drop === undefined && m.to === undefined);
  }

  /**
   * The ways of `move` that begin with what has been picked.
   * @param {Shape} move
   */
  open(move) {
    return ways(move).filter((way) => way.length >= this.path.length && this.path.every((cell, i) => way[i] === cell));
  }

  /** @returns {Legal[]} the moves still possible with what has been picked */
  candidates() {
    const o = this.origin;
    if (!o) return [];
    return this.legal.filter(
      (m) => (m.board ?? 0) === o.board && m.from === o.from && m.drop === o.drop && this.open(m).length > 0,
    );
  }

  /** Forgets the move being picked. */
  clear() {
    this.origin = null;
    this.path = [];
  }

  /**
   * What the board should show: the origin, the path so far and the next cells.
   * @param {(spot: Spot) => boolean} occupied
   * @returns {import("./board.js").Marks}
   */
  marks(occupied) {
    const o = this.origin;
    if (!o) return {};
    const next = new Set();
    for (const m of this.candidates()) {
      for (const way of this.open(m)) if (way.length > this.path.length) next.add(way[this.path.length]);
    }
    // A path that may end here can be finished by clicking its last cell again.
    if (this.path.length && this.finishing().length) next.add(this.path[this.path.length - 1]);
    const area = new Set(this.candidates().flatMap((m) => m.area ?? []));
    return {
      area: [...area].map((cell) => ({ board: o.board, cell })),
      selected: o.from !== undefined ? { board: o.board, cell: o.from } : null,
      hand: o.drop !== undefined ? { board: o.board, owner: o.owner ?? 0, piece: o.drop } : null,
      path: this.path.map((cell) => ({ board: o.board, cell })),
      dests: [...next].map((cell) => ({ board: o.board, cell, capture: occupied({ board: o.board, cell }) })),
    };
  }

  /** Moves one of whose ways is exactly what has been picked. */
  finishing() {
    return this.candidates().filter((m) => this.open(m).some((way) => way.length === this.path.length));
  }

  /**
   * A click on a cell.
   * @param {Spot} spot
   * @returns {Outcome}
   */
  cell(spot) {
    if (this.origin && this.origin.board === spot.board) {
      const last = this.path[this.path.length - 1];
      if (this.path.length && spot.cell === last) {
        const done = this.finishing();
        if (done.length) return this.finish(done);
      }
      const at = this.path.length;
      const next = this.candidates().filter((m) => this.open(m).some((way) => way[at] === spot.cell));
      if (next.length) {
        this.path.push(spot.cell);
        const longer = next.filter((m) => this.open(m).some((way) => way.length > this.path.length));
        if (!longer.length) return this.finish(next);
        return { kind: "select" };
      }
      if (spot.cell === this.origin.from && !this.path.length) {
        this.clear();
        return { kind: "none" };
      }
    }
    // Placements with neither a man nor a hand to pick first (a cell-only move).
    const placed = this.legal.filter(
      (m) => (m.board ?? 0) === spot.board && m.from === undefined && m.drop === undefined && m.to === spot.cell,
    );
    if (placed.length) {
      this.clear();
      return this.finish(placed);
    }
    const starting = this.legal.filter((m) => (m.board ?? 0) === spot.board && m.from === spot.cell);
    this.clear();
    if (starting.length) {
      this.origin = { board: spot.board, from: spot.cell };
      return { kind: "select" };
    }
    return { kind: "none" };
  }

  /**
   * A click on a piece in a hand or pocket.
   * @param {number} board
   * @param {number} owner
   * @param {string} piece
   * @returns {Outcome}
   */
  hand(board, owner, piece) {
    this.clear();
    // The other side's hand holds the same pieces, and is not the mover's to drop from.
    if (this.mover !== null && owner !== this.mover) return { kind: "none" };
    const drops = this.legal.filter((m) => (m.board ?? 0) === board && m.drop === piece && m.from === undefined);
    if (!drops.length) return { kind: "none" };
    this.origin = { board, drop: piece, owner };
    const anywhere = drops.filter((m) => m.to === undefined);
    if (anywhere.length === drops.length) return this.finish(drops);
    return { kind: "select" };
  }

  /**
   * The end of a path: one move is played, several are offered to choose from.
   * @param {Legal[]} moves
   * @returns {Outcome}
   */
  finish(moves) {
    if (moves.length === 1) {
      this.clear();
      return { kind: "play", move: moves[0] };
    }
    return { kind: "choose", moves };
  }

  /**
   * A drag from one cell to another: the move whose path ends there, shortest first.
   * @param {Spot} from
   * @param {Spot} to
   * @returns {Outcome}
   */
  drag(from, to) {
    const moves = this.legal.filter(
      (m) => (m.board ?? 0) === from.board && from.board === to.board && m.from === from.cell && m.to === to.cell,
    );
    if (!moves.length) {
      this.clear();
      return { kind: "none" };
    }
    const shortest = Math.min(...moves.map((m) => steps(m).length));
    this.origin = { board: from.board, from: from.cell };
    this.path = [];
    return this.finish(moves.filter((m) => steps(m).length === shortest));
  }
}

/**
 * What tells the moves of a chooser apart: the promotion piece, the number of men split
 * off, or else the move's text.
 * @param {Legal} move
 * @param {Legal[]} all the moves offered together
 * @returns {{piece?: string, label: string}}
 */
export function choiceLabel(move, all) {
  if (move.split !== undefined) return { label: `${move.split}` };
  if (move.promotion === "+") return { label: t("game.choice.promote") };
  if (move.promotion !== undefined) return { piece: move.promotion, label: move.promotion };
  if (all.some((m) => m.promotion !== undefined)) return { label: t("game.choice.no-promotion") };
  return { label: move.text };
}
