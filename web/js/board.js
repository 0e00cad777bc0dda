// One board renderer for every geometry: cells are polygons from the server's drawing
// (square, hexagonal, the three-player board's quadrilaterals, Chex's growing board), men
// are drawn by pieces.js, and nothing here knows a rule.

import { diagramKey, diagramSvg } from "./diagram.js";
import { escape, h } from "./dom.js";
import { has, t } from "./i18n.js";
import { manMarkup, pointsAtOpponent } from "./pieces.js";
import { settings } from "./settings.js";

/**
 * @typedef {{label: string, x: number, y: number, colour: string, centre: number[], polygon: number[][]}} Cell
 * @typedef {{name: string, cells: string[][]}} Region
 * @typedef {{box: number[], words?: string[]}} River
 * @typedef {{lattice: string, width: number, height: number, colours: string[], cells: Cell[], regions: Region[], points?: boolean, lines?: number[][], rivers?: River[], water?: string[], stars?: number[][]}} Drawing
 * @typedef {{cell: string, piece: string, owner: number, height?: number}} Man
 * @typedef {{owner: number, piece: string, count: number}} HandEntry
 * @typedef {{men: Man[], hands: HandEntry[], fog?: string[], check: string[], bottom?: number, has_hands?: boolean, drawing?: Drawing}} SceneBoard
 * @typedef {{board?: number, from?: string, to?: string, via?: string[], drop?: string, promotion?: string, part?: string, split?: number, area?: string[], routes?: string[][], text?: string}} Shape
 * @typedef {{symbol: string, name: string, key?: string, moves: string, moves_in_words?: boolean, diagram?: import("./diagram.js").Diagram | null}} Kind
 * @typedef {{style: string, set: string, kinds: Map<string, Kind>, colours: string[], players: number, teams: number[]}} Look
 * @typedef {{board: number, cell: string}} Spot
 * @typedef {{selected?: Spot | null, dests?: (Spot & {capture?: boolean})[], path?: Spot[], area?: Spot[], hand?: {board: number, owner: number, piece: string} | null, region?: string | null}} Marks
 * @typedef {{cell?: (spot: Spot) => void, hand?: (board: number, owner: number, piece: string) => void, drag?: (from: Spot, to: Spot) => void, hover?: (spot: Spot) => void}} Handlers
 */

const SVG = "http://www.w3.org/2000/svg";

/**
 * The colour word of a player's name: `A-white` is white, `red` is red.
 * @param {string} name
 */
export function colourOf(name) {
  const word = name.split("-").pop() ?? name;
  return ["white", "black", "red"].includes(word) ? word : "white";
}

/**
 * A player's name as the page's language says it (`white` is `világos` in Hungarian), from
 * the server's English name (`white`, `A-black`); a name the catalogue lacks as it is, and
 * a seat without a name as `player 3`.
 * @param {string | null | undefined} name
 * @param {number} [seat]
 */
export function sideName(name, seat = 0) {
  if (!name) return t("seat.player-n", { n: seat + 1 });
  if (has(`seat.name.${name}`)) return t(`seat.name.${name}`);
  // Bughouse's seats: a board's letter and a colour (`A-white`).
  const onBoard = name.match(/^([A-Z])-(.+)$/);
  if (onBoard && has(`seat.name.${onBoard[2]}`)) {
    return t("seat.on-board", { board: onBoard[1], colour: t(`seat.name.${onBoard[2]}`) });
  }
  return name;
}

/**
 * How a ruleset's men are drawn, from its entry in `GET /api/variants`.
 * @param {{style?: string, pieces?: Kind[], player_names: string[], players: number, teams: number[]}} variant
 * @returns {Look}
 */
export function lookOf(variant) {
  const style = variant.style ?? "western";
  const chosen = settings();
  return {
    style,
    set: style === "shogi" ? chosen.shogiPieces : style === "xiangqi" ? chosen.xiangqiPieces : "",
    kinds: new Map((variant.pieces ?? []).map((k) => [k.symbol, k])),
    colours: variant.player_names.map(colourOf),
    players: variant.players,
    teams: variant.teams,
  };
}

/**
 * The legend as a list: each kind drawn, named, and how it moves.
 * @param {Look} look
 * @returns {HTMLElement}
 */
export function legendList(look) {
  const holder = h("div", { class: "legend-list" });
  const list = document.createElement("dl");
  list.className = "legend";
  holder.append(list);
  holder.insertAdjacentHTML("beforeend", diagramKey());
  for (const kind of look.kinds.values()) {
    const dt = document.createElement("dt");
    dt.dataset.kind = kind.symbol;
    dt.innerHTML = `<span class="legend-man"><svg viewBox="0 0 100 100">${manSvg(look, kind.symbol, 0, false)}</svg></span> `;
    dt.append(kind.name);
    const dd = document.createElement("dd");
    if (kind.diagram) dd.innerHTML = diagramSvg(kind.diagram, t("diagram.how-it-moves", { piece: kind.name }));
    const words = movesInWords(kind);
    if (words) dd.append(h("p", { class: "moves-words" }, words));
    list.append(h("div", { class: "kind" }, dt, dd));
  }
  return holder;
}

/**
 * A kind's `moves` where the server says they are words for players (`placed as a turn…`);
 * `null` where they are Betza (`fmWfcF`), which the picture says for players.
 * @param {Kind} kind
 */
export function movesInWords(kind) {
  return kind.moves_in_words ? kind.moves : null;
}

/**
 * The kind of a piece letter, with a plain fallback for letters the legend lacks.
 * @param {Look} look
 * @param {string} piece
 * @returns {Kind}
 */
export function kindOf(look, piece) {
  return look.kinds.get(piece) ?? { symbol: piece, name: piece.toLowerCase(), moves: "" };
}

/**
 * Markup of one man drawn in the box 0..100.
 * @param {Look} look
 * @param {string} piece
 * @param {number} owner
 * @param {boolean} turned drawn upside down (shogi men of the far side)
 */
export function manSvg(look, piece, owner, turned) {
  const body = manMarkup(look.style, kindOf(look, piece), look.colours[owner] ?? "white", look.set);
  return turned ? `<g transform="rotate(180 50 50)">${body}</g>` : body;
}

/**
 * A rotation about a centre, applied to picture points.
 * @param {number} degrees
 * @param {number} cx
 * @param {number} cy
 * @returns {(p: number[]) => number[]}
 */
function rotation(degrees, cx, cy) {
  const a = (degrees * Math.PI) / 180;
  const cos = Math.round(Math.cos(a) * 1e9) / 1e9;
  const sin = Math.round(Math.sin(a) * 1e9) / 1e9;
  return ([x, y]) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
}

/**
 * The part of each label that changes along a line of cells (`e` of `e1` along the first
 * rank, `1` up the a-file): the coordinates written on the board's edges.
 * @param {string} label
 * @returns {string[]}
 */
function labelParts(label) {
  return label.match(/[A-Za-z]+|\d+|[^A-Za-z\d]+/g) ?? [label];
}

/**
 * @param {{cell: Cell}[]} line cells along one edge
 * @returns {Map<string, string>} label -> its changing part
 */
function edgeNames(line) {
  /** @type {Map<string, string>} */
  const names = new Map();
  const split = line.map((c) => labelParts(c.cell.label));
  const width = Math.max(...split.map((p) => p.length));
  for (let i = 0; i < line.length; i++) {
    const parts = split[i];
    const changing = parts.filter((part, k) => split.some((other) => other.length === width && other[k] !== part));
    const label = line[i].cell.label;
    names.set(label, changing.length ? changing.join("") : label);
  }
  return names;
}

/**
 * @typedef {{text: string, x: number, y: number, anchor: string, where: string}} EdgeLabel
 */

/**
 * Whether a point lies inside a polygon (even-odd rule).
 * @param {number[]} point
 * @param {number[][]} polygon
 */
function inside([x, y], polygon) {
  let within = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) within = !within;
  }
  return within;
}

/** One board of the page: its drawing turned for the viewer, and its SVG. */
class OneBoard {
  /**
   * @param {number} index
   * @param {Drawing} drawing
   * @param {number} degrees the rotation putting the viewer's side at the bottom
   * @param {boolean} [labelled] whether the coordinates are written round it
   */
  constructor(index, drawing, degrees, labelled = true) {
    this.index = index;
    this.drawing = drawing;
    this.degrees = degrees;
    const turn = rotation(degrees, drawing.width / 2, drawing.height / 2);
    this.turn = turn;
    /** @type {Map<string, {cell: Cell, centre: number[], polygon: number[][]}>} */
    this.cells = new Map();
    /** @type {number[]} */
    const sizes = [];
    for (const cell of drawing.cells) {
      const polygon = cell.polygon.map(turn);
      const xs = polygon.map((p) => p[0]);
      const ys = polygon.map((p) => p[1]);
      sizes.push(Math.min(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)));
      this.cells.set(cell.label, { cell, centre: turn(cell.centre), polygon });
    }
    sizes.sort((a, b) => a - b);
    /** The side of a man's box, in picture units. */
    this.manSize = (sizes[Math.floor(sizes.length / 2)] ?? 1) * 0.9;
    /** The size of the coordinates' letters. */
    this.labelSize = this.manSize * 0.26;
    this.edges = labelled ? this.edgeLabels() : [];
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    /** @param {number} x @param {number} y */
    const hold = (x, y) => {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    };
    // A man is as large on a small cell (three-player chess's corners) as on any: the picture
    // holds his box too, and the coordinates written outside the cells.
    const half = this.manSize / 2;
    for (const { centre, polygon } of this.cells.values()) {
      for (const [x, y] of polygon) hold(x, y);
      hold(centre[0] - half, centre[1] - half);
      hold(centre[0] + half, centre[1] + half);
    }
    const t = this.labelSize;
    for (const label of this.edges) {
      if (label.where === "inside") continue;
      const width = label.text.length * t * 0.62;
      const left = label.anchor === "end" ? label.x - width : label.anchor === "middle" ? label.x - width / 2 : label.x;
      hold(left, label.y - t * 0.5);
      hold(left + width, label.y + t * 0.5);
    }
    const pad = 0.02 * Math.max(maxX - minX, maxY - minY);
    this.viewBox = [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad];
  }

  /**
   * The coordinates written round the board: under the lowest cell of each column the part
   * of its label that names the file, left of the first cell of each row the part that names
   * the rank, as the board is turned. A linked board (three-player chess), whose rows bend,
   * is labelled along each straight side of its outline instead ([`boundaryLabels`]).
   * @returns {EdgeLabel[]}
   */
  edgeLabels() {
    const entries = [...this.cells.values()];
    const t = this.labelSize;
    if (this.drawing.lattice === "linked") return this.boundaryLabels();
    const round = (/** @type {number} */ v) => Math.round(v * 100) / 100;
    /** @type {Map<number, typeof entries>} */
    const columns = new Map();
    /** @type {Map<string, typeof entries>} */
    const rows = new Map();
    for (const e of entries) {
      const x = round(e.centre[0]);
      columns.set(x, [...(columns.get(x) ?? []), e]);
      // Square rows are lines across the picture; hexagonal ranks bend, so a rank is the
      // cells whose labels share it.
      const key = this.drawing.lattice === "hex" ? (labelParts(e.cell.label).at(-1) ?? "") : String(round(e.centre[1]));
      rows.set(key, [...(rows.get(key) ?? []), e]);
    }
    const lowest = [...columns.values()].map((col) => col.reduce((a, b) => (a.centre[1] > b.centre[1] ? a : b)));
    const leftmost = [...rows.values()].map((row) => row.reduce((a, b) => (a.centre[0] < b.centre[0] ? a : b)));
    // Hexagonal labels are a file's letters and a rank's number; elsewhere the part that
    // changes along the edge is the name (Omega's wizard cells break the pattern).
    const hex = this.drawing.lattice === "hex";
    /** @param {typeof entries} line @param {number} part */
    const own = (line, part) => new Map(line.map((e) => [e.cell.label, labelParts(e.cell.label).at(part) ?? ""]));
    const files = hex ? own(lowest, 0) : edgeNames(lowest);
    const ranks = hex ? own(leftmost, -1) : edgeNames(leftmost.sort((a, b) => a.centre[1] - b.centre[1]));
    /** @type {EdgeLabel[]} */
    const labels = [];
    for (const e of lowest) {
      const bottom = Math.max(...e.polygon.map((p) => p[1]));
      const text = files.get(e.cell.label);
      if (text) labels.push({ text, x: e.centre[0], y: bottom + t * 0.75, anchor: "middle", where: "bottom" });
    }
    for (const e of leftmost) {
      const text = ranks.get(e.cell.label);
      if (!text) continue;
      const xs = e.polygon.map((p) => p[0]);
      const ys = e.polygon.map((p) => p[1]);
      const [left, top, bottom] = [Math.min(...xs), Math.min(...ys), Math.max(...ys)];
      // Left of the cell, or where a bent rank's first cell has a neighbour to its left
      // (Gliński's upper ranks), beyond its upper or lower left corner instead.
      const places = [
        [left - t * 0.3, e.centre[1]],
        [left, top - t * 0.2],
        [left, bottom + t * 0.2],
      ];
      const [x, y] =
        places.find(([px, py]) => !entries.some((o) => inside([px - t * 0.3, py], o.polygon))) ?? places[0];
      labels.push({ text, x, y, anchor: "end", where: "left" });
    }
    return labels;
  }

  /**
   * The coordinates of a board whose rows bend (three-player chess): outside each straight
   * side of its outline, by each cell on it, the part of the cell's name that changes along
   * that side (the file letters along a home side, the rank numbers up a flank).
   * @returns {EdgeLabel[]}
   */
  boundaryLabels() {
    const t = this.labelSize;
    const key = (/** @type {number[]} */ p) => `${Math.round(p[0] * 50)},${Math.round(p[1] * 50)}`;
    /** @type {Map<string, number>} how many cells share each edge */
    const shared = new Map();
    const edgesOf = (/** @type {number[][]} */ polygon) =>
      polygon.map((a, i) => {
        const b = polygon[(i + 1) % polygon.length];
        return { a, b, id: [key(a), key(b)].sort().join(" ") };
      });
    const entries = [...this.cells.values()];
    for (const e of entries) for (const { id } of edgesOf(e.polygon)) shared.set(id, (shared.get(id) ?? 0) + 1);
    /** @type {Map<string, {e: typeof entries[number], mid: number[], normal: number[], along: number}[]>} */
    const sides = new Map();
    for (const e of entries) {
      for (const { a, b, id } of edgesOf(e.polygon)) {
        if (shared.get(id) !== 1) continue;
        const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
        const length = Math.hypot(dx, dy) || 1;
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        // The normal pointing away from the cell: out of the board.
        let normal = [-dy / length, dx / length];
        if ((mid[0] - e.centre[0]) * normal[0] + (mid[1] - e.centre[1]) * normal[1] < 0)
          normal = [-normal[0], -normal[1]];
        // A side is the boundary edges on one line: the same outward direction and distance.
        const side = `${Math.round(Math.atan2(normal[1], normal[0]) * 20)},${Math.round((mid[0] * normal[0] + mid[1] * normal[1]) / (t * 0.5))}`;
        const along = mid[0] * -normal[1] + mid[1] * normal[0];
        sides.set(side, [...(sides.get(side) ?? []), { e, mid, normal, along }]);
      }
    }
    /** @type {EdgeLabel[]} */
    const labels = [];
    for (const side of sides.values()) {
      side.sort((p, q) => p.along - q.along);
      const names = edgeNames(side.map((p) => p.e));
      for (const { e, mid, normal } of side) {
        const text = names.get(e.cell.label);
        if (!text) continue;
        labels.push({
          text,
          x: mid[0] + normal[0] * t * 0.8,
          y: mid[1] + normal[1] * t * 0.8,
          anchor: "middle",
          where: "outside",
        });
      }
    }
    return labels;
  }

  /**
   * What the picture shows besides the cells (lines, rivers, star points), turned.
   * @returns {string}
   */
  markingsMarkup() {
    const d = this.drawing;
    const parts = [];
    const turn = this.turn;
    const f = (/** @type {number} */ v) => v.toFixed(4);
    for (const river of d.rivers ?? []) {
      const [x, y, w, h] = river.box;
      const corners = [
        [x, y],
        [x + w, y],
        [x + w, y + h],
        [x, y + h],
      ].map(turn);
      parts.push(`<polygon class="river" points="${corners.map((p) => `${f(p[0])},${f(p[1])}`).join(" ")}"/>`);
      const words = river.words ?? [];
      words.forEach((word, i) => {
        const [cx, cy] = turn([x + (w * (2 * i + 1)) / (2 * words.length), y + h / 2]);
        // Words read upright for the viewer whichever way the board is turned.
        parts.push(
          `<text class="river-words" x="${f(cx)}" y="${f(cy)}" text-anchor="middle" dominant-baseline="central" font-size="${f(h * 0.5)}">${escape(word)}</text>`,
        );
      });
    }
    for (const [x1, y1, x2, y2] of d.lines ?? []) {
      const [a, b] = [turn([x1, y1]), turn([x2, y2])];
      parts.push(`<line x1="${f(a[0])}" y1="${f(a[1])}" x2="${f(b[0])}" y2="${f(b[1])}"/>`);
    }
    for (const star of d.stars ?? []) {
      const [cx, cy] = turn(star);
      parts.push(`<circle class="star" cx="${f(cx)}" cy="${f(cy)}" r="${f(this.manSize * 0.06)}"/>`);
    }
    return parts.length ? `<g class="markings">${parts.join("")}</g>` : "";
  }

  /**
   * The SVG of the board with its men: the ground (every cell's colour), the markings, then
   * each cell's highlight, man and move marks.
   * @param {SceneBoard} scene
   * @param {Look} look
   * @param {Shape | null} last
   * @param {number} bottomOwner the player whose men point up
   */
  markup(scene, look, last, bottomOwner) {
    const [vx, vy, vw, vh] = this.viewBox;
    const men = new Map(scene.men.map((m) => [m.cell, m]));
    const fog = new Set(scene.fog ?? []);
    const check = new Set(scene.check);
    const water = new Set(this.drawing.water ?? []);
    const onPoints = this.drawing.points === true;
    const lastCells = new Set();
    if (last && (last.board ?? 0) === this.index) {
      for (const label of [last.from, ...(last.via ?? []), last.to]) if (label) lastCells.add(label);
    }
    const turnsMen = pointsAtOpponent(look.style);
    const size = this.manSize;
    const ground = [];
    const parts = [];
    for (const [label, { cell, centre, polygon }] of this.cells) {
      const points = polygon.map((p) => `${p[0].toFixed(4)},${p[1].toFixed(4)}`).join(" ");
      const kinds = [`c-${cell.colour}`];
      if (fog.has(label)) kinds.push("fog");
      if (water.has(label)) kinds.push("water");
      ground.push(`<polygon class="base ${kinds.join(" ")}" points="${points}"/>`);
      const classes = ["cell", `c-${cell.colour}`];
      if (lastCells.has(label)) classes.push("last");
      if (check.has(label)) classes.push("check");
      if (fog.has(label)) classes.push("fog");
      const man = men.get(label);
      if (man) classes.push("occupied");
      const [cx, cy] = centre;
      // On a board on points the highlight is a disc round the point, not the square
      // between four points.
      const hl = onPoints
        ? `<circle class="hl" cx="${cx.toFixed(4)}" cy="${cy.toFixed(4)}" r="${(size * 0.5).toFixed(4)}"/>`
        : `<polygon class="hl" points="${points}"/>`;
      let inner = `<polygon class="hit" points="${points}"/>${hl}`;
      if (man) {
        const turned = turnsMen && man.owner !== bottomOwner;
        const scale = size / 100;
        const x = cx - size / 2;
        const y = cy - size / 2;
        let badge = "";
        if (man.height !== undefined && man.height > 1) {
          badge = `<g class="height"><circle cx="84" cy="16" r="15"/><text x="84" y="22" text-anchor="middle" font-size="20">${man.height}</text></g>`;
        }
        inner +=
          `<g class="man" data-piece="${escape(man.piece)}" data-owner="${man.owner}"` +
          (man.height !== undefined ? ` data-height="${man.height}"` : "") +
          ` transform="translate(${x.toFixed(4)} ${y.toFixed(4)}) scale(${scale.toFixed(5)})">` +
          `${manSvg(look, man.piece, man.owner, turned)}${badge}</g>`;
      }
      inner += `<circle class="dot" cx="${cx.toFixed(4)}" cy="${cy.toFixed(4)}" r="${(size * 0.17).toFixed(4)}"/>`;
      inner += `<circle class="ring" cx="${cx.toFixed(4)}" cy="${cy.toFixed(4)}" r="${(size * 0.5).toFixed(4)}"/>`;
      parts.push(`<g class="${classes.join(" ")}" data-cell="${escape(label)}">${inner}</g>`);
    }
    const coords = this.edges
      .map(
        (e) =>
          `<text class="coord ${e.where}" x="${e.x.toFixed(3)}" y="${e.y.toFixed(3)}" text-anchor="${e.anchor}" dominant-baseline="central" font-size="${(e.where === "inside" ? this.labelSize * 0.8 : this.labelSize).toFixed(3)}">${escape(e.text)}</text>`,
      )
      .join("");
    const groundLayer = `<g class="ground">${ground.join("")}</g>`;
    return (
      `<svg xmlns="${SVG}" class="board-svg lattice-${this.drawing.lattice}${onPoints ? " on-points" : ""}" viewBox="${vx} ${vy} ${vw} ${vh}" ` +
      `data-board="${this.index}" role="img" aria-label="${escape(t("board.label"))}">` +
      `${groundLayer}${this.markingsMarkup()}<g class="coords">${coords}</g>` +
      `<g class="cells">${parts.join("")}</g><g class="drag-layer"></g></svg>`
    );
  }
}

/**
 * A small picture of a board with its men, drawn as a game's board is (the lobby's picture
 * of each game's start position): no hands, no coordinates, no clicks.
 * @param {Drawing} drawing
 * @param {SceneBoard} scene
 * @param {Look} look
 */
export function previewSvg(drawing, scene, look) {
  const board = new OneBoard(0, drawing, 0, false);
  return board.markup({ ...scene, hands: [] }, look, null, 0);
}

/**
 * The boards of a game (bughouse has two), their hands and the marks of a move being
 * picked; reports clicks, drags and hand picks to its handlers.
 */
export class BoardView {
  /**
   * @param {HTMLElement} host
   * @param {Look} look
   * @param {Handlers} handlers
   */
  constructor(host, look, handlers) {
    this.host = host;
    this.look = look;
    this.handlers = handlers;
    /** @type {OneBoard[]} */
    this.boards = [];
    /** @type {number[]} the rotation each fixed drawing was turned by */
    this.turnedBy = [];
    /** @type {SceneBoard[]} */
    this.scene = [];
    /** @type {Marks} */
    this.marks = {};
    this.viewer = 0;
    this.flipped = false;
    /** @type {{from: Spot, x: number, y: number, moved: boolean, ghost: SVGGElement | null, board: SVGSVGElement} | null} */
    this.drag = null;
    /** Set for the click that ends a drag, which is not a click on a cell. */
    this.suppressClick = false;
    /** @type {{board: number, from: string, to: string} | null} the move to slide into place at the next drawing */
    this.sliding = null;
    /** @type {{board: number, from: string, to: string} | null} the last move dragged here (not slid again) */
    this.dragged = null;
    /** @type {{board: number, from: string, to: string}[]} arrows (from ≠ to) and circles drawn with the right button */
    this.drawn = [];
    /** @type {Spot | null} where a right-button drag began */
    this.drawFrom = null;
    host.classList.add("boards", `style-${look.style}`);
    host.addEventListener("pointerdown", (e) => this.pointerDown(e));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.pointerUp(e));
    host.addEventListener("click", (e) => this.click(e));
    // A mouse resting on a man asks what he is, as a tap does.
    host.addEventListener("pointerover", (e) => {
      if (e.pointerType !== "mouse" || this.drag) return;
      const target = /** @type {Element} */ (e.target);
      const spot = target.closest(".man") ? this.spotAt(target) : null;
      if (spot) this.handlers.hover?.(spot);
    });
    // The right button draws arrows and circles, as on lichess; the menu it would open is
    // not wanted over a board.
    host.addEventListener("contextmenu", (e) => {
      if (/** @type {Element} */ (e.target).closest("svg[data-board]")) e.preventDefault();
    });
  }

  /**
   * Slides the man of `last` from its start at the next drawing, if the player wants moves
   * animated and did not drag it there himself.
   * @param {Shape | null} last
   */
  slide(last) {
    const move = last?.from && last.to ? { board: last.board ?? 0, from: last.from, to: last.to } : null;
    const dragged = this.dragged;
    this.dragged = null;
    const same =
      dragged && move && dragged.board === move.board && dragged.from === move.from && dragged.to === move.to;
    this.sliding = settings().animation && move && !same ? move : null;
  }

  /** Starts the slide asked for by `slide`, once the board is drawn. */
  startSlide() {
    const move = this.sliding;
    this.sliding = null;
    const one = move && this.boards[move.board];
    if (!move || !one) return;
    const from = one.cells.get(move.from)?.centre;
    const to = one.cells.get(move.to)?.centre;
    const man = this.host.querySelector(`svg[data-board="${move.board}"] [data-cell="${CSS.escape(move.to)}"] .man`);
    if (!from || !to || !man || typeof man.animate !== "function") return;
    const wrap = document.createElementNS(SVG, "g");
    wrap.dataset.slid = move.from;
    man.replaceWith(wrap);
    wrap.append(man);
    wrap.animate(
      [{ transform: `translate(${from[0] - to[0]}px, ${from[1] - to[1]}px)` }, { transform: "translate(0px, 0px)" }],
      { duration: 180, easing: "ease-out" },
    );
  }

  /** Draws the arrows and circles the player made on each board. */
  paintDrawn() {
    for (const svg of this.host.querySelectorAll("svg[data-board]")) {
      const b = Number(svg.getAttribute("data-board"));
      const one = this.boards[b];
      let layer = svg.querySelector(".drawn");
      if (!layer) {
        layer = document.createElementNS(SVG, "g");
        layer.setAttribute("class", "drawn");
        svg.querySelector(".drag-layer")?.before(layer);
      }
      if (!one) continue;
      const w = one.manSize;
      const parts = [];
      for (const d of this.drawn.filter((d) => d.board === b)) {
        const a = one.cells.get(d.from)?.centre;
        const z = one.cells.get(d.to)?.centre;
        if (!a || !z) continue;
        if (d.from === d.to) {
          parts.push(`<circle cx="${a[0]}" cy="${a[1]}" r="${w * 0.5}" stroke-width="${w * 0.07}"/>`);
          continue;
        }
        const length = Math.hypot(z[0] - a[0], z[1] - a[1]);
        const [ux, uy] = [(z[0] - a[0]) / length, (z[1] - a[1]) / length];
        const head = w * 0.34;
        const end = [z[0] - ux * head, z[1] - uy * head];
        const side = [-uy * head * 0.6, ux * head * 0.6];
        parts.push(
          `<line x1="${a[0]}" y1="${a[1]}" x2="${end[0]}" y2="${end[1]}" stroke-width="${w * 0.14}"/>` +
            `<polygon points="${z[0]},${z[1]} ${end[0] + side[0]},${end[1] + side[1]} ${end[0] - side[0]},${end[1] - side[1]}"/>`,
        );
      }
      layer.innerHTML = parts.join("");
    }
  }

  /**
   * Draws a position.
   * @param {Drawing[]} drawings the fixed drawings (a board's own drawing in the scene wins)
   * @param {SceneBoard[]} scene
   * @param {Shape | null} last
   * @param {number} viewer the player at the bottom
   * @param {boolean} flipped
   */
  show(drawings, scene, last, viewer, flipped) {
    this.scene = scene;
    this.viewer = viewer;
    this.flipped = flipped;
    const wraps = [];
    for (let b = 0; b < scene.length; b++) {
      const drawing = scene[b].drawing ?? drawings[b];
      if (!drawing) continue;
      const bottom = this.bottomOf(b);
      const degrees = this.degreesFor(b, bottom) + (flipped ? 180 : 0);
      // A drawing that comes with the scene (Chex's growing board) may change every move.
      if (scene[b].drawing || this.turnedBy[b] !== degrees || !this.boards[b]) {
        this.boards[b] = new OneBoard(b, drawing, degrees);
        this.turnedBy[b] = degrees;
      }
      const one = this.boards[b];
      const shownBottom = flipped ? this.opposite(b, bottom) : bottom;
      const [, , width, height] = one.viewBox;
      const hands = scene[b].hands?.length || scene[b].has_hands ? " with-hands" : "";
      // With several boards, each board's players sit at its own edges (game.js fills these).
      const slot = (/** @type {string} */ side) =>
        scene.length > 1 ? `<div class="players ${side}" data-board="${b}"></div>` : "";
      wraps.push(
        `<div class="board-wrap${hands}" data-board="${b}" style="--aspect: ${(width / height).toFixed(4)}">` +
          slot("top") +
          this.handsMarkup(b, shownBottom, false) +
          `<div class="board-box">${one.markup(scene[b], this.look, last, shownBottom)}</div>` +
          this.handsMarkup(b, shownBottom, true) +
          slot("bottom") +
          `</div>`,
      );
    }
    this.host.innerHTML = wraps.join("");
    this.applyMarks();
    this.paintDrawn();
    this.startSlide();
  }

  /**
   * The players with men or hands on board `b`, in order.
   * @param {number} b
   */
  ownersOn(b) {
    const owners = new Set();
    for (const m of this.scene[b]?.men ?? []) owners.add(m.owner);
    for (const h of this.scene[b]?.hands ?? []) owners.add(h.owner);
    if (owners.size === 0) for (let p = 0; p < this.look.players; p++) owners.add(p);
    return [...owners].sort((a, b) => a - b);
  }

  /**
   * Who sits at the bottom of board `b`: the viewer, or on a board the viewer does not play,
   * the viewer's partner (bughouse), or the board's first player.
   * @param {number} b
   */
  bottomOf(b) {
    const owners = this.ownersOn(b);
    if (owners.includes(this.viewer)) return this.viewer;
    const teams = this.look.teams;
    const mate = owners.find((o) => teams && teams[o] === teams[this.viewer]);
    return mate ?? owners[0] ?? 0;
  }

  /**
   * Who is shown at the bottom of board `b` as last drawn, flipping taken into account.
   * @param {number} b
   */
  shownBottomOf(b) {
    const bottom = this.bottomOf(b);
    return this.flipped ? this.opposite(b, bottom) : bottom;
  }

  /**
   * The player facing `player` on board `b` (for flipping a two-sided board).
   * @param {number} b
   * @param {number} player
   */
  opposite(b, player) {
    const owners = this.ownersOn(b);
    if (owners.length !== 2) return player;
    return owners[0] === player ? owners[1] : owners[0];
  }

  /**
   * Drawings have the first player at the bottom (or the one the scene names: Gess's White)
   * and the others at equal turns around the board, so the n-th of k players from there
   * looks from n/k of a full turn.
   * @param {number} b
   * @param {number} player
   */
  degreesFor(b, player) {
    const owners = this.ownersOn(b);
    const k = owners.length > 1 ? owners.length : 2;
    const first = Math.max(owners.indexOf(this.scene[b]?.bottom ?? owners[0]), 0);
    const n = (Math.max(owners.indexOf(player), 0) - first + k) % k;
    return (360 * n) / k;
  }

  /**
   * The hands of a board: the bottom player's below it, the others above.
   * @param {number} b
   * @param {number} bottom
   * @param {boolean} below
   */
  handsMarkup(b, bottom, below) {
    const hands = (this.scene[b]?.hands ?? []).filter((h) => (h.owner === bottom) === below);
    if (!this.scene[b]?.hands?.length && !this.scene[b]?.has_hands) return "";
    const turns = pointsAtOpponent(this.look.style);
    const items = hands
      .filter((h) => h.count > 0)
      .map(
        (h) =>
          `<button type="button" class="hand-man" data-hand="${h.owner}" data-piece="${escape(h.piece)}" data-board="${b}" title="${escape(
            kindOf(this.look, h.piece).name,
          )}"><svg viewBox="0 0 100 100" aria-hidden="true">${manSvg(this.look, h.piece, h.owner, turns && h.owner !== bottom)}</svg>` +
          (h.count > 1 ? `<span class="count">${h.count}</span>` : "") +
          `</button>`,
      )
      .join("");
    return `<div class="hand ${below ? "below" : "above"}">${items}</div>`;
  }

  /**
   * Marks the cells of a move being picked.
   * @param {Marks} marks
   */
  mark(marks) {
    this.marks = marks;
    this.applyMarks();
  }

  applyMarks() {
    for (const g of this.host.querySelectorAll(
      ".cell.selected, .cell.dest, .cell.capture, .cell.path, .cell.region, .cell.area",
    )) {
      g.classList.remove("selected", "dest", "capture", "path", "region", "area");
    }
    for (const b of this.host.querySelectorAll(".hand-man.selected")) b.classList.remove("selected");
    const m = this.marks;
    /** @param {Spot} spot */
    const cellOf = (spot) =>
      this.host.querySelector(`svg[data-board="${spot.board}"] [data-cell="${CSS.escape(spot.cell)}"]`);
    for (const spot of m.area ?? []) cellOf(spot)?.classList.add("area");
    if (m.selected) cellOf(m.selected)?.classList.add("selected");
    for (const spot of m.path ?? []) cellOf(spot)?.classList.add("path");
    for (const d of m.dests ?? []) cellOf(d)?.classList.add(d.capture ? "capture" : "dest");
    if (m.hand) {
      this.host
        .querySelector(
          `.hand-man[data-board="${m.hand.board}"][data-hand="${m.hand.owner}"][data-piece="${CSS.escape(m.hand.piece)}"]`,
        )
        ?.classList.add("selected");
    }
    if (m.region) {
      this.boards.forEach((one, b) => {
        const region = one.drawing.regions.find((r) => r.name === m.region);
        const cells = region?.cells[this.viewer] ?? [];
        for (const cell of cells) cellOf({ board: b, cell })?.classList.add("region");
      });
    }
  }

  /**
   * The cell under a pointer event, if any.
   * @param {Element | null} target
   * @returns {Spot | null}
   */
  spotAt(target) {
    const g = target?.closest("[data-cell]");
    const svg = target?.closest("svg[data-board]");
    if (!g || !svg) return null;
    return { board: Number(svg.getAttribute("data-board")), cell: g.getAttribute("data-cell") ?? "" };
  }

  /** @param {PointerEvent} e */
  pointerDown(e) {
    const target = /** @type {Element} */ (e.target);
    if (e.button === 2) {
      this.drawFrom = this.spotAt(target);
      return;
    }
    if (e.button !== 0) return;
    if (this.drawn.length) {
      this.drawn = [];
      this.paintDrawn();
    }
    const spot = this.spotAt(target);
    const svg = /** @type {SVGSVGElement | null} */ (target.closest("svg[data-board]"));
    const man = target.closest(".man");
    if (!spot || !svg || !man) return;
    this.drag = { from: spot, x: e.clientX, y: e.clientY, moved: false, ghost: null, board: svg };
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      this.handlers.cell?.(drag.from);
      const g = drag.board.querySelector(`[data-cell="${CSS.escape(drag.from.cell)}"] .man`);
      const layer = drag.board.querySelector(".drag-layer");
      if (g && layer) {
        const ghost = /** @type {SVGGElement} */ (g.cloneNode(true));
        ghost.classList.add("ghost");
        layer.append(ghost);
        drag.ghost = ghost;
        g.classList.add("lifted");
      }
    }
    const ctm = drag.board.getScreenCTM();
    const one = this.boards[drag.from.board];
    if (drag.ghost && ctm && one) {
      const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
      const s = one.manSize;
      drag.ghost.setAttribute("transform", `translate(${p.x - s / 2} ${p.y - s / 2}) scale(${s / 100})`);
    }
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    if (e.button === 2 && this.drawFrom) {
      const from = this.drawFrom;
      this.drawFrom = null;
      const to = this.spotAt(document.elementFromPoint(e.clientX, e.clientY));
      if (!to || to.board !== from.board) return;
      const known = this.drawn.findIndex((d) => d.board === from.board && d.from === from.cell && d.to === to.cell);
      if (known >= 0) this.drawn.splice(known, 1);
      else this.drawn.push({ board: from.board, from: from.cell, to: to.cell });
      this.paintDrawn();
      return;
    }
    const drag = this.drag;
    this.drag = null;
    if (!drag || !drag.moved) return;
    drag.ghost?.remove();
    this.host.querySelector(".man.lifted")?.classList.remove("lifted");
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const spot = this.spotAt(under);
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    if (spot && (spot.board !== drag.from.board || spot.cell !== drag.from.cell)) {
      this.dragged = { board: spot.board, from: drag.from.cell, to: spot.cell };
      this.handlers.drag?.(drag.from, spot);
    }
  }

  /** @param {MouseEvent} e */
  click(e) {
    if (this.suppressClick) return;
    const target = /** @type {Element} */ (e.target);
    const hand = target.closest(".hand-man");
    if (hand) {
      this.handlers.hand?.(
        Number(hand.getAttribute("data-board")),
        Number(hand.getAttribute("data-hand")),
        hand.getAttribute("data-piece") ?? "",
      );
      return;
    }
    const spot = this.spotAt(target);
    if (spot) this.handlers.cell?.(spot);
  }
}
