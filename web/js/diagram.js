// A man's moves as a small picture, from the `diagram` of his legend entry: the cells he
// reaches from the centre of an empty board, each drawn by how he gets there.

import { escape } from "./dom.js";
import { t } from "./i18n.js";

/**
 * @typedef {{dx: number, dy: number, what: string, only?: "move" | "capture", initial?: boolean, continues?: boolean, zone?: string}} Mark
 * @typedef {{lattice: "square" | "hex", radius: number, marks: Mark[]}} Diagram
 */

const SQRT3 = Math.sqrt(3);

/** The kinds of mark, in the order the key under the pictures explains them. */
const MARKS = ["step", "move", "capture", "leap", "lame", "slide", "hop", "lion", "initial"];

/**
 * The symbol of one mark at (x, y) of size `r`.
 * @param {string} what the mark's kind, or `move` / `capture` for the key
 * @param {Mark["only"]} only
 * @param {number} x @param {number} y @param {number} r
 */
function symbol(what, only, x, y, r) {
  const cls = `mark ${what}${only ? ` only-${only}` : ""}`;
  const f = (/** @type {number} */ v) => v.toFixed(3);
  if (only === "capture" || what === "capture") {
    const d = r * 0.75;
    return `<path class="${cls}" d="M${f(x - d)},${f(y - d)} L${f(x + d)},${f(y + d)} M${f(x + d)},${f(y - d)} L${f(x - d)},${f(y + d)}"/>`;
  }
  switch (what) {
    case "leap":
      return `<path class="${cls}" d="M${f(x)},${f(y - r)} L${f(x + r)},${f(y)} L${f(x)},${f(y + r)} L${f(x - r)},${f(y)} Z"/>`;
    case "lame":
      return `<path class="${cls}" d="M${f(x)},${f(y - r)} L${f(x + r)},${f(y + r * 0.8)} L${f(x - r)},${f(y + r * 0.8)} Z"/>`;
    case "hop":
      return `<circle class="${cls}" cx="${f(x)}" cy="${f(y)}" r="${f(r)}"/><circle class="${cls} inner" cx="${f(x)}" cy="${f(y)}" r="${f(r * 0.35)}"/>`;
    case "lion": {
      const points = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const k = i % 2 ? r * 0.45 : r * 1.1;
        points.push(`${f(x + k * Math.cos(a))},${f(y + k * Math.sin(a))}`);
      }
      return `<polygon class="${cls}" points="${points.join(" ")}"/>`;
    }
    default:
      return `<circle class="${cls}" cx="${f(x)}" cy="${f(y)}" r="${f(r * 0.8)}"/>`;
  }
}

/**
 * The picture of a diagram, as an SVG element's markup.
 * @param {Diagram} diagram
 * @param {string} label what the picture shows, for screen readers
 */
export function diagramSvg(diagram, label) {
  const hex = diagram.lattice === "hex";
  const n = Math.max(1, diagram.radius);
  // Square cells of side 1; hexagons of side 0.6 (flat-topped: 1.2 wide, 1.04 high).
  const side = 0.6;
  /** @param {number} dx @param {number} dy @returns {[number, number]} */
  const at = (dx, dy) => (hex ? [dx * 1.5 * side, (-dy * SQRT3 * side) / 2] : [dx, -dy]);
  const cells = [];
  if (hex) {
    for (let dx = -n; dx <= n; dx++) {
      for (let dy = -3 * n; dy <= 3 * n; dy++) {
        if ((dx + dy) % 2 !== 0) continue;
        const x = Math.abs(dx);
        if (x + Math.max(0, Math.abs(dy) - x) / 2 > n) continue;
        const [cx, cy] = at(dx, dy);
        const corners = [0, 1, 2, 3, 4, 5].map((k) => {
          const a = (k * Math.PI) / 3;
          return `${(cx + side * Math.cos(a)).toFixed(3)},${(cy + side * Math.sin(a)).toFixed(3)}`;
        });
        cells.push(`<polygon class="cell${dx === 0 && dy === 0 ? " centre" : ""}" points="${corners.join(" ")}"/>`);
      }
    }
  } else {
    for (let dx = -n; dx <= n; dx++) {
      for (let dy = -n; dy <= n; dy++) {
        const dark = (dx + dy + 2 * n) % 2 === 1 ? " dark" : "";
        cells.push(
          `<rect class="cell${dark}${dx === 0 && dy === 0 ? " centre" : ""}" x="${dx - 0.5}" y="${-dy - 0.5}" width="1" height="1"/>`,
        );
      }
    }
  }
  const size = hex ? side * 0.45 : 0.3;
  const lines = [];
  const marks = [];
  for (const m of diagram.marks) {
    const [x, y] = at(m.dx, m.dy);
    const group = `<g class="${m.initial ? "initial" : ""}${m.zone ? " zone" : ""}">`;
    if (m.what !== "slide" && m.what !== "bent") {
      marks.push(`${group}${symbol(m.what, m.only, x, y, size)}</g>`);
      continue;
    }
    // A slide is a line from the centre through its cells (overlapping lines of one ride
    // draw as one), with an arrow where it goes on past the picture; a bent ride's cells
    // are not in line with the centre, so they are only dotted.
    const cls = `ride${m.only ? ` only-${m.only}` : ""}`;
    if (m.what === "slide")
      lines.push(`<line class="${cls}" x1="0" y1="0" x2="${x.toFixed(3)}" y2="${y.toFixed(3)}"/>`);
    if (m.continues) {
      const length = Math.hypot(x, y);
      const [ux, uy] = [x / length, y / length];
      const tip = [x + ux * size * 1.6, y + uy * size * 1.6];
      const wing = [-uy * size, ux * size];
      const points = [tip, [x + wing[0], y + wing[1]], [x - wing[0], y - wing[1]]];
      lines.push(
        `<polygon class="${cls} arrow" points="${points.map((p) => p.map((v) => v.toFixed(3)).join(",")).join(" ")}"/>`,
      );
    }
    marks.push(`${group}${symbol("step", m.only, x, y, size * 0.55)}</g>`);
  }
  const [w, h] = hex ? [(1.5 * n + 1) * side * 2, (n + 0.5) * SQRT3 * side * 2] : [2 * n + 1, 2 * n + 1];
  const centre = `<circle class="origin" cx="0" cy="0" r="${(size * 1.1).toFixed(3)}"/>`;
  return (
    `<svg class="move-diagram" viewBox="${(-w / 2).toFixed(3)} ${(-h / 2).toFixed(3)} ${w.toFixed(3)} ${h.toFixed(3)}" role="img" aria-label="${escape(label)}">` +
    `<g class="cells">${cells.join("")}</g><g class="rides">${lines.join("")}</g>${centre}<g class="marks">${marks.join("")}</g></svg>`
  );
}

/** The key to the marks, as one SVG-and-words list. */
export function diagramKey() {
  const items = MARKS.map((what) => {
    const picture =
      what === "slide"
        ? `<line class="ride" x1="-0.45" y1="0" x2="0.45" y2="0"/>`
        : what === "initial"
          ? `<g class="initial">${symbol("step", "move", 0, 0, 0.3)}</g>`
          : what === "move"
            ? symbol("step", "move", 0, 0, 0.3)
            : symbol(what, undefined, 0, 0, 0.3);
    return `<li><svg class="move-diagram key" viewBox="-0.5 -0.5 1 1" aria-hidden="true">${picture}</svg> ${escape(t(`diagram.${what}`))}</li>`;
  });
  return `<ul class="diagram-key">${items.join("")}</ul>`;
}
