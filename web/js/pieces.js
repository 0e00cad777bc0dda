// The piece set of the Chaturanga client: every man of every ruleset drawn as SVG elements in
// a 0..100 box, for the owner at the bottom. All shapes are this project's own drawings.
//
// Styles: 'western' (chess family, fairy pieces included), 'shogi' (pentagons with kanji),
// 'xiangqi' (discs with characters), 'congo' (animals on discs), 'stones' (Gess).
// A man is looked up by its lower-case English name (synonyms accepted); an unknown name gets
// a generic token showing a diagram of its Betza moves, and `hasDrawing` is false for it.

/** @typedef {{symbol: string, name: string, key?: string, moves: string}} Kind */

/**
 * The name a man is drawn by: the legend's English `key` (the `name` is in the reader's
 * language), lower case.
 * @param {Kind} kind
 */
function drawnName(kind) {
  return (kind.key || kind.name || "").toLowerCase().trim();
}

/**
 * Colours of one side: body fill, outline, inner details (contrasting with the body), and the
 * outline width in the current drawing scale.
 * @typedef {{key: string, body: string, line: string, detail: string, sw: number}} Palette
 */

/** A drawing of one man: markup for a palette and the kind it stands for. @typedef {(p: Palette, kind: Kind) => string} Painter */

/** What a (style, kind) resolves to. @typedef {{paint: Painter, dedicated: boolean}} Resolved */

const SW = 3;

/** The giraffe's outline (head to the left, horns at the top) and its spots. */
const GIRAFFE =
  "M35,80 C40,66 43,52 44,38 L29,36 C24,35 21,31 22.5,27.5 C24,24 28,23 33,23 L43,19.5 L44.5,9 H47.5 L48.5,18 L51.5,17.5 L52,8.5 H55 L56.5,18 C59,18.5 62,16 65,16 C65,19 63,22 60,23 C62,29 62,36 60,42 C61,55 65,68 69,80 Z";
const GIRAFFE_SPOTS =
  "M47,42 L53,40 L55,46 L50,49 L46,47 Z M45,56 L51,53 L54,59 L49,63 L44,61 Z M55,62 L61,61 L63,68 L57,70 Z M47,69 L53,68 L54,75 L48,76 Z M54,29 L58,30 L57,35 L53,34 Z M56,50 L60,52 L59,57 L55,55 Z";

/** @type {Record<string, Palette>} */
const PALETTES = {
  white: { key: "white", body: "#f7f2e6", line: "#1c1a18", detail: "#1c1a18", sw: SW },
  black: { key: "black", body: "#2a2826", line: "#0b0a09", detail: "#efe9dc", sw: SW },
  red: { key: "red", body: "#c8362b", line: "#3a0c07", detail: "#fff0e2", sw: SW },
  neutral: { key: "neutral", body: "#9ba6b1", line: "#2c3238", detail: "#f5f7f9", sw: SW },
};

/**
 * The palette key of an owner's colour word ('A-white' and 'White' count as white).
 * @param {string} colour
 * @returns {string}
 */
function colourKey(colour) {
  const c = String(colour || "").toLowerCase();
  if (c.indexOf("white") >= 0) return "white";
  if (c.indexOf("black") >= 0) return "black";
  if (c.indexOf("red") >= 0) return "red";
  return "neutral";
}

/** @param {string} colour @returns {Palette} */
function paletteOf(colour) {
  return PALETTES[colourKey(colour)];
}

/** @param {Palette} p @param {number} scale @returns {Palette} */
function scaled(p, scale) {
  return { ...p, sw: p.sw / scale };
}

/** Escapes text for markup. @param {string} s */
function esc(s) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// ---------------------------------------------------------------------------------------------
// Shape helpers

/** Fill-and-outline attributes. @param {Palette} p @param {string} [fill] */
function solid(p, fill) {
  return `fill="${fill || p.body}" stroke="${p.line}" stroke-width="${p.sw}" stroke-linejoin="round" stroke-linecap="round"`;
}

/** A filled outlined path. @param {Palette} p @param {string} d @param {string} [fill] */
function shape(p, d, fill) {
  return `<path d="${d}" ${solid(p, fill)}/>`;
}

/** Detail strokes (light on dark men). @param {Palette} p @param {string} d @param {number} [w] */
function lines(p, d, w) {
  return `<path d="${d}" fill="none" stroke="${p.detail}" stroke-width="${(w || 0.8) * p.sw}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** A detail-coloured filled shape without outline. @param {Palette} p @param {string} d */
function mark(p, d) {
  return `<path d="${d}" fill="${p.detail}"/>`;
}

/** @param {Palette} p @param {number} cx @param {number} cy @param {number} r @param {string} [fill] */
function circle(p, cx, cy, r, fill) {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" ${solid(p, fill)}/>`;
}

/** @param {Palette} p @param {number} cx @param {number} cy @param {number} r */
function dot(p, cx, cy, r) {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${p.detail}"/>`;
}

/** The common plinth of the western men. @param {Palette} p */
function plinth(p) {
  return shape(p, "M24,80 H76 Q80,80 80,84 V87 Q80,91 76,91 H24 Q20,91 20,87 V84 Q20,80 24,80 Z");
}

/** A rounded bar (collar) from x0 to x1 between y0 and y1. @param {Palette} p @param {number} x0 @param {number} x1 @param {number} y0 @param {number} y1 */
function bar(p, x0, x1, y0, y1) {
  const r = (y1 - y0) / 2;
  return shape(
    p,
    `M${x0 + r},${y0} H${x1 - r} A${r},${r} 0 0 1 ${x1 - r},${y1} H${x0 + r} A${r},${r} 0 0 1 ${x0 + r},${y0} Z`,
  );
}

// ---------------------------------------------------------------------------------------------
// Western men. Each body is drawn in the full box standing on y = 80; `plinth` goes under it.

/** @type {Record<string, (p: Palette) => string>} */
const BODIES = {
  pawn: (p) =>
    shape(p, "M35,80 C35,68 41,62 45,56 H55 C59,62 65,68 65,80 Z") + bar(p, 37, 63, 50, 57) + circle(p, 50, 36, 13),

  rook: (p) =>
    shape(p, "M30,68 H70 V80 H30 Z") +
    shape(p, "M34,36 H66 L63,68 H37 Z") +
    shape(p, "M28,14 H38 V21 H45 V14 H55 V21 H62 V14 H72 V36 H28 Z") +
    lines(p, "M37,41 H63 M38,63 H62"),

  bishop: (p) =>
    shape(p, "M40,62 C41,70 36,76 31,80 H69 C64,76 59,70 60,62 Z") +
    bar(p, 36, 64, 56, 63) +
    shape(p, "M50,19 C60,27 67,37 64,47 C62,53 57,56 50,56 C43,56 38,53 36,47 C33,37 40,27 50,19 Z") +
    circle(p, 50, 14, 5.5) +
    lines(p, "M56,31 L45,44", 1.1),

  knight: (p) =>
    shape(
      p,
      "M33,80 C32,70 37,62 45,56 C41,54.5 37,55.5 33.5,58.5 C29.5,62 24,62 21,58.5 C17.5,55 17.5,50 20.5,46 L37,25 C39.5,21 43.5,18 48,17 L51,8 L57,16.5 C70,20 79,34 78,52 C77,63 74.5,72 72.5,80 Z",
    ) +
    dot(p, 42, 30, 2.8) +
    dot(p, 25.5, 51.5, 1.8) +
    lines(p, "M59,21 C68,28 72.5,40 72,56 M46,56 C52,53 55,47 55,41"),

  queen: (p) =>
    shape(p, "M31,70 C31,74 30,77 28,80 H72 C70,77 69,74 69,70 Z") +
    shape(p, "M31,70 L20,30 L34,49 L35,22 L44,46 L50,18 L56,46 L65,22 L66,49 L80,30 L69,70 Z") +
    circle(p, 20, 29, 4.2) +
    circle(p, 35, 21, 4.2) +
    circle(p, 50, 16, 4.2) +
    circle(p, 65, 21, 4.2) +
    circle(p, 80, 29, 4.2) +
    lines(p, "M32,62 Q50,57 68,62"),

  king: (p) =>
    shape(p, "M31,73 L29,80 H71 L69,73 Z") +
    shape(p, "M46.5,6 H53.5 V12 H60 V19 H53.5 V44 H46.5 V19 H40 V12 H46.5 Z") +
    shape(p, "M31,73 C24,62 21,50 29,43 C37,36 46,40 50,50 C54,40 63,36 71,43 C79,50 76,62 69,73 Z") +
    lines(p, "M33,65 Q50,60 67,65 M50,52 V62"),

  // K as a plain (non-royal) man: a soldier's kettle helmet.
  guard: (p) =>
    shape(p, "M37,50 C37,62 33,73 28,80 H72 C67,73 63,62 63,50 Z") +
    shape(p, "M30,44 C30,27 39,18 50,18 C61,18 70,27 70,44 Z") +
    bar(p, 20, 80, 43, 51) +
    lines(p, "M50,22 V41"),

  camel: (p) =>
    shape(
      p,
      "M32,80 C28,70 24,60 26,50 C27,43 30,38 31,35 L20,36 C15,36 12,33 12,29 C12,25 15,22 20,21 L30,18 C31,14 33,11 35,10 L38,17 C41,20 42,26 42,32 C42,40 44,47 50,51 C53,41 59,31 67,31 C76,31 81,41 81,53 C81,64 79,72 77,80 Z",
    ) +
    dot(p, 26, 24, 2.4) +
    lines(p, "M13,31 H19 M36,48 C37,56 40,62 44,66 M58,40 C62,37 67,37 71,40", 0.7),

  fox: (p) =>
    shape(p, "M40,68 H60 L67,80 H33 Z") +
    shape(
      p,
      "M50,76 L31,58 C25,52 23,44 24.5,36 L21,12 L38,25 C46,22.5 54,22.5 62,25 L79,12 L75.5,36 C77,44 75,52 69,58 Z",
    ) +
    mark(p, "M27,21 L35,27 L28,33 Z M73,21 L65,27 L72,33 Z") +
    lines(p, "M35,42 L44,46 M65,42 L56,46 M41,60 L50,69 L59,60", 0.7) +
    dot(p, 50, 72, 3),

  // The jumper (Big Outer Chess): a hare.
  jumper: (p) =>
    shape(p, "M38,64 C38,72 34,77 30,80 H70 C66,77 62,72 62,64 Z") +
    shape(p, "M41,46 C34,32 33,14 39,8 C46,12 49,30 48,44 Z") +
    shape(p, "M52,44 C51,30 54,12 61,8 C67,14 66,32 59,46 Z") +
    `<ellipse cx="50" cy="54" rx="18" ry="15" ${solid(p)}/>` +
    dot(p, 43, 51, 2.4) +
    dot(p, 57, 51, 2.4) +
    lines(p, "M47,59 L50,61 L53,59 M41,18 C43,26 44.5,34 44.5,42 M59,18 C57,26 55.5,34 55.5,42", 0.7),

  // The champion (Omega Chess): a shield with its moves on it.
  champion: (p) =>
    shape(p, "M50,70 L40,80 H60 Z") +
    shape(p, "M50,12 C59,18 68,19 77,16 C80,44 73,63 50,77 C27,63 20,44 23,16 C32,19 41,18 50,12 Z") +
    lines(p, "M50,20 C57,24 64,25 70,24 C71,46 65,58 50,68 C35,58 29,46 30,24 C36,25 43,24 50,20 Z", 0.6),

  // The wizard (Omega Chess): a pointed hat with a star.
  wizard: (p) =>
    shape(p, "M37,66 C37,72 33,77 29,80 H71 C67,77 63,72 63,66 Z") +
    shape(p, "M58,6 C52,8 49,14 47,22 C43,36 38,50 32,62 H68 C63,48 58,34 56,22 C56,16 57,11 58,6 Z") +
    `<ellipse cx="50" cy="63" rx="29" ry="6" ${solid(p)}/>` +
    mark(p, star(50, 40, 7, 2.6, 4)),

  // The duke (Renaissance): a ducal coronet over a cap.
  duke: (p) => {
    /** @param {number} x @param {number} k */
    const leaf = (x, k) =>
      `<path transform="translate(${x},60) scale(${k})" d="M0,0 C-6,-8 -9,-14 -4.5,-18 C-9,-22 -7.5,-29 -2,-28.5 C-7,-33 -5,-41 0,-41 C5,-41 7,-33 2,-28.5 C7.5,-29 9,-22 4.5,-18 C9,-14 6,-8 0,0 Z" ${solid(scaled(p, k))}/>`;
    return (
      shape(p, "M32,64 C32,71 30,77 28,80 H72 C70,77 68,71 68,64 Z") +
      shape(p, "M33,58 C33,42 40,33 50,33 C60,33 67,42 67,58 Z") +
      leaf(30, 0.78) +
      leaf(70, 0.78) +
      leaf(50, 1.08) +
      bar(p, 25, 75, 56, 65) +
      dot(p, 38, 60.5, 2) +
      dot(p, 50, 60.5, 2) +
      dot(p, 62, 60.5, 2)
    );
  },

  // The cavalier (Renaissance): a plumed broad-brimmed hat.
  cavalier: (p) =>
    shape(p, "M38,56 C38,67 33,75 29,80 H71 C67,75 62,67 62,56 Z") +
    shape(p, "M58,34 C62,18 76,10 86,13 C86,18 80,20 76,22 C79,24 82,26 82,30 C76,30 71,30 66,36 Z") +
    shape(p, "M35,49 C34,33 41,25 51,25 C61,25 66,32 66,49 Z") +
    shape(p, "M15,52 C26,43 74,42 85,48 C81,55 70,58 50,58 C32,58 21,57 15,52 Z") +
    lines(p, "M36,45 C46,42 56,42 65,44"),

  // The castle (Renaissance): a keep with two towers and a gate.
  castle: (p) =>
    shape(p, "M39,80 V38 H45 V43 H55 V38 H61 V80 Z") +
    shape(p, "M21,80 V20 H27.5 V27 H33.5 V20 H40 V80 Z") +
    shape(p, "M60,80 V20 H66.5 V27 H72.5 V20 H79 V80 Z") +
    mark(p, "M44,80 V68 A6,6 0 0 1 56,68 V80 Z") +
    lines(p, "M30.5,38 V48 M69.5,38 V48"),

  // The squire (Renaissance): a lance with a pennant.
  squire: (p) =>
    shape(p, "M38,68 C37,74 34,78 31,80 H69 C66,78 63,74 62,68 Z") +
    bar(p, 35, 65, 62, 69) +
    shape(p, "M46.5,14 H53.5 V62 H46.5 Z") +
    shape(p, "M53.5,16 L85,22 L73,29 L85,36 L53.5,40 Z") +
    circle(p, 50, 11, 5),

  // The matriarch (Big Outer Chess): a queen's crown in a veil.
  matriarch: (p) =>
    shape(p, "M31,70 C31,74 30,77 28,80 H72 C70,77 69,74 69,70 Z") +
    shape(p, "M31,70 C24,58 24,40 30,30 C36,22 43,18 50,18 C57,18 64,22 70,30 C76,40 76,58 69,70 Z") +
    shape(p, "M35,44 L33,28 L41,36 L45,24 L50,34 L55,24 L59,36 L67,28 L65,44 Z") +
    circle(p, 50, 15, 4.5) +
    lines(p, "M32,62 Q50,57 68,62 M35,50 Q50,46 65,50"),

  // The giraffe (a (4,1) leaper): a long neck with horns and spots.
  giraffe: (p) =>
    shape(p, GIRAFFE) +
    circle(p, 45.5, 8.5, 3) +
    circle(p, 53.5, 7.5, 3) +
    dot(p, 37, 25, 2.4) +
    mark(p, GIRAFFE_SPOTS),

  // The zebra (a (3,2) leaper): a striped horse head.
  zebra: (p) =>
    BODIES.knight(p) +
    lines(
      p,
      "M52,28 C58,32 60,38 60,44 M62,24 C67,30 69,38 68,46 M57,54 C62,58 64,66 63,74 M67,52 C70,60 71,68 70,76",
      1.3,
    ),

  // A ferz (F), a wazir (W) and others small leapers, for compounds.
  ferz: (p) =>
    shape(p, "M38,62 C38,70 34,76 30,80 H70 C66,76 62,70 62,62 Z") +
    bar(p, 35, 65, 56, 63) +
    shape(p, "M50,16 L68,36 L50,56 L32,36 Z") +
    lines(p, "M50,24 L61,36 L50,48 L39,36 Z", 0.6),
  wazir: (p) =>
    shape(p, "M38,62 C38,70 34,76 30,80 H70 C66,76 62,70 62,62 Z") +
    bar(p, 35, 65, 56, 63) +
    shape(p, "M34,20 H66 V56 H34 Z") +
    lines(p, "M50,26 V50 M40,38 H60", 0.7),
};

/**
 * Points of a star polygon as a closed path.
 * @param {number} cx @param {number} cy @param {number} r outer radius @param {number} ri inner radius @param {number} n points
 */
function star(cx, cy, r, ri, n) {
  let d = "";
  for (let i = 0; i < 2 * n; i++) {
    const a = (Math.PI * i) / n - Math.PI / 2;
    const rr = i % 2 ? ri : r;
    d += `${i ? "L" : "M"}${(cx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`;
  }
  return d + "Z";
}

/** A single western man: body and plinth. @param {string} body @returns {Painter} */
function single(body) {
  return (p) => BODIES[body](p) + plinth(p);
}

/**
 * Two bodies side by side on one plinth: the compound of their moves. The second stands in front.
 * @param {string} back @param {string} front @returns {Painter}
 */
function pair(back, front) {
  return (p) => {
    const s = 0.74;
    const q = scaled(p, s);
    const ty = 81 - 80 * s;
    return (
      `<g transform="translate(${(31 - 50 * s).toFixed(2)},${ty.toFixed(2)}) scale(${s})">${BODIES[back](q)}</g>` +
      `<g transform="translate(${(67 - 50 * s).toFixed(2)},${ty.toFixed(2)}) scale(${s})">${BODIES[front](q)}</g>` +
      plinth(p)
    );
  };
}

/**
 * A body with a medallion in front showing its leaps (for pieces whose shape alone does not).
 * @param {string} body @param {number} cx @param {number} cy @param {number} r @returns {Painter}
 */
function withMedallion(body, cx, cy, r) {
  return (p, kind) => BODIES[body](p) + plinth(p) + medallion(p, kind.moves, cx, cy, r);
}

/** A small round badge at the upper right holding `content` (a path in a 0..20 box). @param {Palette} p @param {string} content @param {number} [cx] @param {number} [cy] @param {number} [r] */
function badge(p, content, cx = 80, cy = 80, r = 13) {
  const k = r / 13;
  return (
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${p.detail}" stroke="${p.body}" stroke-width="${p.sw * 0.8}"/>` +
    `<g transform="translate(${cx - 10 * k},${cy - 10 * k}) scale(${k})">${content.replace(/currentColor/g, p.body)}</g>`
  );
}

/** A snowflake on a badge: the frozen men of Taktika. */
const SNOWFLAKE =
  '<path d="M10,2 V18 M3.1,6 L16.9,14 M3.1,14 L16.9,6 M10,2 L8,4.5 M10,2 L12,4.5 M10,18 L8,15.5 M10,18 L12,15.5" stroke="currentColor" stroke-width="2" stroke-linecap="round" fill="none"/>';

/** A frozen man: the piece in icy colours with a snowflake. @param {string} body @returns {Painter} */
function frozen(body) {
  return (p) => {
    /** @type {Record<string, string>} */
    const ice = { white: "#dcecf7", black: "#2f4a5e", red: "#d98d88", neutral: "#b6c7d3" };
    const q = { ...p, body: ice[p.key] || p.body };
    return BODIES[body](q) + plinth(q) + badge(q, SNOWFLAKE, 78, 24);
  };
}

/** A promoted man (bughouse): the piece with a small pawn on a badge. @param {string} body @returns {Painter} */
function promotedMan(body) {
  const pawn =
    '<path d="M10,3.2 A3.2,3.2 0 1 1 9.99,3.2 Z M6.5,9.5 H13.5 V11 H6.5 Z M7.6,11 C7.6,13.5 6,15.2 5,16.6 H15 C14,15.2 12.4,13.5 12.4,11 Z" fill="currentColor"/>';
  return (p) => BODIES[body](p) + plinth(p) + badge(p, pawn, 80, 22);
}

/** Makarenko's reserve disk: one flat disk. @type {Painter} */
function disk(p) {
  return (
    shape(p, "M16,52 V62 A34,13 0 0 0 84,62 V52 Z") +
    `<ellipse cx="50" cy="52" rx="34" ry="13" ${solid(p)}/>` +
    `<ellipse cx="50" cy="52" rx="22" ry="7.5" fill="none" stroke="${p.detail}" stroke-width="${p.sw * 0.6}"/>`
  );
}

/** A Makarenko tower: the piece its height makes, with the height on a badge. @param {string} body @param {string} height @returns {Painter} */
function tower(body, height) {
  return (p) => {
    const text = `<text x="10" y="10.5" text-anchor="middle" dominant-baseline="central" font-family="'DejaVu Sans','Noto Sans',Arial,sans-serif" font-weight="700" font-size="${height.length > 1 ? 13 : 16}" fill="currentColor">${esc(height)}</text>`;
    return BODIES[body](p) + plinth(p) + badge(p, text, 80, 19, 17);
  };
}

// ---------------------------------------------------------------------------------------------
// Betza: the leaps and slides of a move string, for medallions and the generic fallback.

/** @type {Record<string, [number, number]>} */
const LEAPERS = {
  W: [1, 0],
  F: [1, 1],
  D: [2, 0],
  N: [2, 1],
  A: [2, 2],
  H: [3, 0],
  C: [3, 1],
  L: [3, 1],
  Z: [3, 2],
  J: [3, 2],
  G: [3, 3],
};

/**
 * The 8 (or 4) symmetric images of an offset.
 * @param {number} a @param {number} b @returns {Array<[number, number]>}
 */
function images(a, b) {
  /** @type {Array<[number, number]>} */
  const out = [];
  /** @type {Record<string, boolean>} */
  const seen = {};
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    for (const sx of [1, -1]) {
      for (const sy of [1, -1]) {
        const v = /** @type {[number, number]} */ ([x * sx, y * sy]);
        const k = v.join();
        if (!seen[k]) {
          seen[k] = true;
          out.push(v);
        }
      }
    }
  }
  return out;
}

/**
 * Whether an offset lies in the directions a Betza modifier string allows.
 * @param {string} mods direction letters only (f b l r s v)
 * @param {number} dx @param {number} dy
 */
function allowed(mods, dx, dy) {
  const dirs = mods.replace(/[^fblrsv]/g, "");
  if (!dirs) return true;
  const ortho = dx === 0 || dy === 0;
  const diag = Math.abs(dx) === Math.abs(dy);
  /** @param {string} c */
  const one = (c) => {
    switch (c) {
      case "f":
        return dy > 0;
      case "b":
        return dy < 0;
      case "l":
        return dx < 0;
      case "r":
        return dx > 0;
      case "s":
        return ortho ? dy === 0 : Math.abs(dx) > Math.abs(dy);
      case "v":
        return ortho ? dx === 0 : Math.abs(dy) > Math.abs(dx);
      default:
        return true;
    }
  };
  if (diag) {
    // Diagonal atoms: a pair like "fr" names one direction; single letters a half-plane.
    const pairs = dirs.match(/[fb][lr]|[lr][fb]/g) || [];
    const rest = dirs.replace(/[fb][lr]|[lr][fb]/g, "");
    if (pairs.some((pr) => one(pr[0]) && one(pr[1]))) return true;
    return rest.split("").some((c) => (c === "s" || c === "v" ? true : one(c)));
  }
  if (ortho) return dirs.split("").some(one);
  // Oblique atoms: doubled letters (ff, fs) narrow further, singles take a half-plane.
  const groups = dirs.match(/(.)\1?|./g) || [];
  return groups.some((g) => {
    if (g.length === 2 && g[0] === g[1]) {
      if (g[0] === "f") return dy > 0 && Math.abs(dy) > Math.abs(dx);
      if (g[0] === "b") return dy < 0 && Math.abs(dy) > Math.abs(dx);
      if (g[0] === "l") return dx < 0 && Math.abs(dx) > Math.abs(dy);
      if (g[0] === "r") return dx > 0 && Math.abs(dx) > Math.abs(dy);
    }
    return g.split("").every(one);
  });
}

/**
 * The leaps (offsets) and slides (direction and range, 0 = unlimited) of a Betza string.
 * @param {string} moves
 * @returns {{leaps: Array<[number, number]>, slides: Array<[number, number, number]>}}
 */
function parseBetza(moves) {
  /** @type {Array<[number, number]>} */
  const leaps = [];
  /** @type {Array<[number, number, number]>} */
  const slides = [];
  const re = /([a-z]*)(?:\((\d+),(\d+)\)|([A-Z]))(\d*)/g;
  let m;
  while ((m = re.exec(moves || ""))) {
    const mods = m[1];
    const atom = m[4] || "";
    /** @type {Array<[number, number, number]>} */
    const parts = [];
    const count = m[5] ? Number(m[5]) : -1;
    if (m[2] !== undefined) {
      parts.push([Number(m[2]), Number(m[3]), count > 0 ? count : 1]);
    } else if (atom === "K") {
      parts.push([1, 0, 1], [1, 1, 1]);
    } else if (atom === "Q") {
      parts.push([1, 0, count > 0 ? count : 0], [1, 1, count > 0 ? count : 0]);
    } else if (atom === "R") {
      parts.push([1, 0, count > 0 ? count : 0]);
    } else if (atom === "B") {
      parts.push([1, 1, count > 0 ? count : 0]);
    } else if (LEAPERS[atom]) {
      // A doubled atom (NN) rides; a count (W2) rides that far.
      let range = count > 0 ? count : 1;
      if (moves[re.lastIndex] === atom) {
        range = 0;
        re.lastIndex++;
      }
      parts.push([LEAPERS[atom][0], LEAPERS[atom][1], range]);
    }
    for (const [a, b, range] of parts) {
      for (const [dx, dy] of images(a, b)) {
        if (!allowed(mods, dx, dy)) continue;
        if (range === 1) leaps.push([dx, dy]);
        else slides.push([dx, dy, range]);
      }
    }
  }
  return { leaps, slides };
}

/**
 * A medallion: a disc with a diagram of the moves (dots for leaps, rays for slides).
 * @param {Palette} p @param {string} moves @param {number} cx @param {number} cy @param {number} r
 */
function medallion(p, moves, cx, cy, r) {
  const { leaps, slides } = parseBetza(betzaOf(moves));
  // Grid extent n (cells from the centre) and the farthest point, which sets the unit u.
  let n = 1;
  let far = 1;
  for (const [dx, dy] of leaps) {
    n = Math.max(n, Math.abs(dx), Math.abs(dy));
    far = Math.max(far, Math.sqrt(dx * dx + dy * dy));
  }
  for (const [dx, dy, range] of slides) n = Math.max(n, (range || 3) * Math.max(Math.abs(dx), Math.abs(dy)));
  n = Math.min(n, 4);
  far = Math.min(Math.max(far, n), 5);
  const u = (r * 0.8) / far;
  let out = `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${p.detail}" stroke="${p.line}" stroke-width="${p.sw * 0.7}"/>`;
  for (const [dx, dy, range] of slides) {
    const len = range
      ? Math.min(range, n / Math.max(Math.abs(dx), Math.abs(dy)))
      : (r * 0.86) / (u * Math.sqrt(dx * dx + dy * dy));
    out += `<path d="M${cx},${cy} L${(cx + dx * u * len).toFixed(2)},${(cy - dy * u * len).toFixed(2)}" stroke="${p.body}" stroke-width="${Math.max(1.4, u * 0.34).toFixed(2)}" stroke-linecap="round"/>`;
  }
  const dr = Math.max(1.25, Math.min(u * 0.4, r * 0.14));
  for (const [dx, dy] of leaps) {
    out += `<circle cx="${(cx + dx * u).toFixed(2)}" cy="${(cy - dy * u).toFixed(2)}" r="${dr.toFixed(2)}" fill="${p.body}"/>`;
  }
  out += `<rect x="${(cx - dr).toFixed(2)}" y="${(cy - dr).toFixed(2)}" width="${(2 * dr).toFixed(2)}" height="${(2 * dr).toFixed(2)}" fill="none" stroke="${p.body}" stroke-width="${(dr * 0.7).toFixed(2)}"/>`;
  return out;
}

/** The generic man: an octagonal token with the move diagram. @type {Painter} */
function genericWestern(p, kind) {
  return shape(p, "M36,12 H64 L86,34 V62 L64,84 H36 L14,62 V34 Z") + medallion(p, kind.moves, 50, 48, 30);
}

// The names of the western men and the bodies they are drawn with.
/** @type {Record<string, string>} */
const WESTERN_SINGLE = {
  king: "king",
  queen: "queen",
  rook: "rook",
  bishop: "bishop",
  knight: "knight",
  horse: "knight",
  pawn: "pawn",
  sepoy: "pawn",
  camel: "camel",
  general: "camel",
  fox: "fox",
  duke: "duke",
  cavalier: "cavalier",
  matriarch: "matriarch",
  giraffe: "giraffe",
  zebra: "zebra",
  ferz: "ferz",
  wazir: "wazir",
  man: "guard",
  mann: "guard",
  commoner: "guard",
  guard: "guard",
};
/** @type {Record<string, [string, string]>} */
const WESTERN_PAIRS = {
  archbishop: ["bishop", "knight"],
  cardinal: ["bishop", "knight"],
  princess: ["bishop", "knight"],
  janus: ["bishop", "knight"],
  paladin: ["bishop", "knight"],
  hawk: ["bishop", "knight"],
  chancellor: ["rook", "knight"],
  marshal: ["rook", "knight"],
  empress: ["rook", "knight"],
  nobleman: ["rook", "knight"],
  elephant: ["rook", "knight"],
  amazon: ["queen", "knight"],
  prince: ["queen", "knight"],
  maharajah: ["queen", "knight"],
  page: ["guard", "knight"],
  centaur: ["guard", "knight"],
};
/** Bodies whose moves a medallion shows, and where. @type {Record<string, [string, number, number, number]>} */
const WESTERN_MEDALLION = {
  champion: ["champion", 50, 43, 17],
  wizard: ["wizard", 74, 70, 14],
  squire: ["squire", 74, 70, 14],
  castle: ["castle", 76, 72, 14],
  jumper: ["jumper", 76, 72, 14],
};

/** The Betza of a compound of two bodies (to tell a pair from its parts). @type {Record<string, string>} */
const PARTS_BY_MOVES = {
  BN: "bishop,knight",
  NB: "bishop,knight",
  RN: "rook,knight",
  NR: "rook,knight",
  QN: "queen,knight",
  NQ: "queen,knight",
  KN: "guard,knight",
  NK: "guard,knight",
  CF: "camel,ferz",
  FC: "camel,ferz",
};

/** The Betza at the head of a moves text ('' where the moves are said in words). @param {string} moves */
function betzaOf(moves) {
  const first = ((moves || "").trim().split(/[\s;]+/)[0] || "").replace(/[,.:]+$/, "");
  return /^(?:[a-z]*(?:[A-Z]|\(\d+,\d+\))\d*)+$/.test(first) ? first : "";
}

/** The atoms of a moves text's Betza, modifiers dropped. @param {string} moves */
function bare(moves) {
  return betzaOf(moves).replace(/[^A-Z]/g, "");
}

/** @param {Kind} kind @returns {Resolved} */
function resolveWestern(kind) {
  let name = drawnName(kind);
  const sym = kind.symbol || "";
  // Makarenko: "tower of N" (or a symbol with its height in braces).
  const towerName = name.match(/^tower of (\d+)$/);
  const braces = sym.match(/^([A-Za-z])\{(\d+)\}$/);
  if (towerName || braces) {
    const letter = (braces ? braces[1] : sym.charAt(0)).toUpperCase();
    /** @type {Record<string, string>} */
    const byLetter = { P: "pawn", R: "rook", N: "knight", B: "bishop", Q: "queen", K: "king" };
    const body = byLetter[letter];
    if (body) return { paint: tower(body, towerName ? towerName[1] : braces ? braces[2] : ""), dedicated: true };
  }
  // Makarenko as the legend names towers: "rook (3 disks)"; and the reserve disk.
  const disks = name.match(/^(\w+) \((\d+) disks?\)$/);
  if (disks && WESTERN_SINGLE[disks[1]]) return { paint: tower(WESTERN_SINGLE[disks[1]], disks[2]), dedicated: true };
  if (/^disks?( \(.*\))?$/.test(name)) return { paint: disk, dedicated: true };
  // Bughouse: a promoted man (a pawn again when captured) wears a pawn badge.
  const prom = name.match(/^promoted (.+)$/);
  if (prom && WESTERN_SINGLE[prom[1]]) return { paint: promotedMan(WESTERN_SINGLE[prom[1]]), dedicated: true };
  // Taktika: frozen men.
  const fro = name.match(/^frozen (.+)$/);
  if (fro && WESTERN_SINGLE[fro[1]]) return { paint: frozen(WESTERN_SINGLE[fro[1]]), dedicated: true };
  if (name === "outer knight") name = "knight";
  const atoms = bare(kind.moves);
  if (name === "guard" && atoms && atoms !== "K" && atoms !== "WF") {
    // Big Outer Chess's guard (ferz + camel).
    return { paint: withMedallion("guard", 76, 70, 14), dedicated: true };
  }
  if (name === "general" && bare(kind.moves) && !/C|L/.test(bare(kind.moves))) {
    return { paint: single("guard"), dedicated: true };
  }
  if (WESTERN_MEDALLION[name]) {
    const [body, cx, cy, r] = WESTERN_MEDALLION[name];
    return { paint: withMedallion(body, cx, cy, r), dedicated: true };
  }
  if (WESTERN_PAIRS[name]) {
    const [a, b] = WESTERN_PAIRS[name];
    if (name === "maharajah") {
      return {
        paint: (p, k) =>
          pair(a, b)(p, k) +
          badge(
            p,
            '<path d="M7.6,3 H12.4 V7.6 H17 V12.4 H12.4 V17 H7.6 V12.4 H3 V7.6 H7.6 Z" fill="currentColor"/>',
            50,
            16,
          ),
        dedicated: true,
      };
    }
    return { paint: pair(a, b), dedicated: true };
  }
  if (WESTERN_SINGLE[name]) return { paint: single(WESTERN_SINGLE[name]), dedicated: true };
  // Unknown name: a plain compound of known parts, else the generic token; neither is dedicated.
  const parts = PARTS_BY_MOVES[bare(kind.moves)];
  if (parts && /^[A-Z]+$/.test(betzaOf(kind.moves))) {
    const [a, b] = parts.split(",");
    return { paint: pair(a, b), dedicated: false };
  }
  /** @type {Record<string, string>} */
  const simple = {
    K: "guard",
    Q: "queen",
    R: "rook",
    B: "bishop",
    N: "knight",
    C: "camel",
    F: "ferz",
    W: "wazir",
    Z: "zebra",
  };
  const atom = betzaOf(kind.moves);
  if (simple[atom]) return { paint: single(simple[atom]), dedicated: false };
  return { paint: genericWestern, dedicated: false };
}

// ---------------------------------------------------------------------------------------------
// Shogi: wedge-shaped wooden pieces with kanji, pointing up.

// The font the server ships (web/fonts), so the men look alike on every machine.
const CJK_FONT = "'Chaturanga CJK','Noto Serif CJK JP','Noto Sans CJK JP','Hiragino Mincho ProN','Yu Mincho',serif";
const SHOGI_INK = "#17130f";
const SHOGI_RED = "#c0161b";

// Faces by name. One kanji for the pieces of standard shogi (as on a shogi board); two for the
// pieces of the large variants; a leading "K:" entry is the king, chosen by colour.
/** @type {Record<string, string>} */
const SHOGI_FACES = {
  // shogi and minishogi
  rook: "飛",
  bishop: "角",
  "gold general": "金",
  gold: "金",
  "silver general": "銀",
  silver: "銀",
  knight: "桂",
  lance: "香",
  pawn: "歩",
  dragon: "龍",
  horse: "馬",
  "promoted silver": "全",
  "promoted knight": "圭",
  "promoted lance": "杏",
  tokin: "と",
  "promoted pawn": "と",
  // chu shogi
  "crown prince": "太子",
  prince: "太子",
  "drunk elephant": "酔象",
  "copper general": "銅将",
  "ferocious leopard": "猛豹",
  "blind tiger": "盲虎",
  "go-between": "仲人",
  "reverse chariot": "反車",
  kirin: "麒麟",
  phoenix: "鳳凰",
  "side mover": "横行",
  "vertical mover": "竪行",
  "dragon horse": "龍馬",
  "dragon king": "龍王",
  lion: "獅子",
  "free king": "奔王",
  "flying stag": "飛鹿",
  "white horse": "白駒",
  whale: "鯨鯢",
  "free boar": "奔猪",
  "flying ox": "飛牛",
  "horned falcon": "角鷹",
  "soaring eagle": "飛鷲",
  // dai shogi
  "iron general": "鉄将",
  "stone general": "石将",
  "angry boar": "嗔猪",
  "cat sword": "猫刄",
  "evil wolf": "悪狼",
  "violent ox": "猛牛",
  "flying dragon": "飛龍",
  // tori shogi
  falcon: "鷹",
  crane: "鶴",
  pheasant: "雉",
  "left quail": "左鶉",
  "right quail": "右鶉",
  swallow: "燕",
  goose: "鴈",
  eagle: "鵰",
  // yari shogi
  "yari rook": "飛槍",
  "yari bishop": "角槍",
  "yari knight": "桂槍",
  "yari gold": "金槍",
  "yari silver": "銀槍",
};

// The two-kanji names of the men that are written with one kanji on a shogi board, for
// the two-kanji set.
/** @type {Record<string, string>} */
const SHOGI_TWO = {
  rook: "飛車",
  bishop: "角行",
  "gold general": "金将",
  gold: "金将",
  "silver general": "銀将",
  silver: "銀将",
  knight: "桂馬",
  lance: "香車",
  pawn: "歩兵",
  dragon: "龍王",
  horse: "龍馬",
  "promoted silver": "成銀",
  "promoted knight": "成桂",
  "promoted lance": "成香",
  tokin: "と金",
  "promoted pawn": "と金",
};

// One kanji for the men of the large variants, for the one-kanji set, where the first of
// the two would be taken by another man.
/** @type {Record<string, string>} */
const SHOGI_ONE = {
  "drunk elephant": "象",
  "dragon horse": "馬",
  "dragon king": "龍",
  whale: "鯨",
  "free boar": "猪",
  "flying ox": "牛",
  "horned falcon": "鷹",
  "soaring eagle": "鷲",
  "flying stag": "鹿",
  "white horse": "駒",
  "angry boar": "嗔",
  "violent ox": "猛",
  "iron general": "鉄",
  "stone general": "石",
  "copper general": "銅",
  "ferocious leopard": "豹",
  "blind tiger": "虎",
  "cat sword": "猫",
  "evil wolf": "狼",
};

/**
 * The face of a shogi man in a piece set: `traditional` as on a board (one kanji for
 * shogi's men, two for the large variants'), `kanji1`, `kanji2`.
 * @param {string} name @param {string} face @param {string} set
 */
function shogiFace(name, face, set) {
  if (set === "kanji2") return SHOGI_TWO[name] ?? face;
  if (set === "kanji1" && face.length > 1)
    return SHOGI_ONE[name] ?? (/^(飛|角|金|銀|桂|香|歩)/.test(face) ? face : face.charAt(0));
  return face;
}

/** Relative size of a shogi piece by its rank (kings largest). @param {string} name @param {string} face */
function shogiSize(name, face) {
  if (/^(king|crown prince|prince)$/.test(name) || face === "鵬") return 1;
  if (/^(pawn|tokin|promoted pawn|go-between|swallow|goose)$/.test(name)) return 0.88;
  if (
    /(general|gold|silver|knight|lance|quail|pheasant|crane|leopard|tiger|elephant|boar|cat sword|wolf|violent ox|flying dragon|promoted)/.test(
      name,
    ) &&
    !/\(promoted/.test(name)
  )
    return 0.92;
  return 0.96;
}

/**
 * A shogi piece with `face` (one or two characters) in ink or red.
 * @param {string} face @param {boolean} promoted @param {number} size
 */
function shogiPiece(face, promoted, size) {
  const ink = promoted ? SHOGI_RED : SHOGI_INK;
  const chars = face.split("");
  let text;
  if (chars.length >= 2) {
    text = chars
      .slice(0, 2)
      .map(
        (c, i) =>
          `<text transform="translate(50,${i ? 75.5 : 43}) scale(1,0.86)" font-size="39" text-anchor="middle" dominant-baseline="central" font-family="${CJK_FONT}" font-weight="700" fill="${ink}">${esc(c)}</text>`,
      )
      .join("");
  } else {
    text = `<text x="50" y="60" font-size="${/[a-z]/i.test(face) ? 44 : 52}" text-anchor="middle" dominant-baseline="central" font-family="${CJK_FONT}" font-weight="700" fill="${ink}">${esc(face)}</text>`;
  }
  const t = `translate(${(50 - 50 * size).toFixed(2)},${(96 - 96 * size).toFixed(2)}) scale(${size})`;
  return (
    `<g transform="${t}">` +
    `<path d="M50,4 L77,16 L86,95 H14 L23,16 Z" fill="#edcf8f" stroke="#6e4b1f" stroke-width="${(2.4 / size).toFixed(2)}" stroke-linejoin="round"/>` +
    `<path d="M50,9 L73,19.5 L80.5,90" fill="none" stroke="#f8e6bd" stroke-width="${(1.6 / size).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round" opacity="0.9"/>` +
    text +
    "</g>"
  );
}

/**
 * A shogi piece in the international set: the man's letters over a picture of its moves.
 * @param {Palette} p @param {Kind} kind @param {boolean} promoted @param {number} size
 */
function shogiInternational(p, kind, promoted, size) {
  const ink = promoted ? SHOGI_RED : SHOGI_INK;
  const letters = kind.symbol.replace(/[^A-Za-z]/g, "").slice(0, 2) || "?";
  const face = { ...p, detail: "#f7e7c0", body: ink, line: "#6e4b1f", sw: 1.6 };
  const t = `translate(${(50 - 50 * size).toFixed(2)},${(96 - 96 * size).toFixed(2)}) scale(${size})`;
  return (
    `<g transform="${t}">` +
    `<path d="M50,4 L77,16 L86,95 H14 L23,16 Z" fill="#edcf8f" stroke="#6e4b1f" stroke-width="${(2.4 / size).toFixed(2)}" stroke-linejoin="round"/>` +
    `<text x="50" y="33" font-size="${letters.length > 1 ? 24 : 28}" text-anchor="middle" dominant-baseline="central" font-family="'DejaVu Sans','Noto Sans',Arial,sans-serif" font-weight="700" fill="${ink}">${esc(letters)}</text>` +
    medallion(face, kind.moves, 50, 68, 21) +
    "</g>"
  );
}

/** @param {Kind} kind @param {string} set @returns {Resolved} */
function resolveShogi(kind, set) {
  const name = drawnName(kind);
  const sym = kind.symbol || "";
  // "rook (promoted gold)": the face of what it moves as, in red.
  const paren = name.match(/^(.+?)\s*\(promoted [^)]*\)$/);
  const base = paren ? paren[1] : name;
  const promoted = sym.charAt(0) === "+" || !!paren || /^promoted /.test(name);
  if (base === "king" || base === "jade" || base === "jewel" || (base === "phoenix" && bare(kind.moves) === "K")) {
    return {
      paint: (p, k) =>
        set === "international"
          ? shogiInternational(p, k, promoted, 1)
          : shogiPiece(
              base === "phoenix" ? "鵬" : (p.key === "white" ? "王" : "玉") + (set === "kanji2" ? "将" : ""),
              promoted,
              1,
            ),
      dedicated: true,
    };
  }
  const face = SHOGI_FACES[base];
  if (face && set === "international") {
    return { paint: (p, k) => shogiInternational(p, k, promoted, shogiSize(base, face)), dedicated: true };
  }
  if (face) {
    return { paint: () => shogiPiece(shogiFace(base, face, set), promoted, shogiSize(base, face)), dedicated: true };
  }
  const letters = sym.replace(/[^A-Za-z]/g, "").toUpperCase() || "?";
  return { paint: () => shogiPiece(letters.slice(0, 2), promoted, 0.92), dedicated: false };
}

// ---------------------------------------------------------------------------------------------
// Xiangqi: discs with the traditional characters.

/** Characters by name: [red, black]. @type {Record<string, [string, string]>} */
const XIANGQI_FACES = {
  general: ["帥", "將"],
  king: ["帥", "將"],
  marshal: ["帥", "將"],
  advisor: ["仕", "士"],
  adviser: ["仕", "士"],
  guard: ["仕", "士"],
  mandarin: ["仕", "士"],
  counsellor: ["仕", "士"],
  elephant: ["相", "象"],
  minister: ["相", "象"],
  bishop: ["相", "象"],
  chariot: ["俥", "車"],
  rook: ["俥", "車"],
  car: ["俥", "車"],
  horse: ["傌", "馬"],
  knight: ["傌", "馬"],
  cannon: ["炮", "砲"],
  catapult: ["炮", "砲"],
  soldier: ["兵", "卒"],
  pawn: ["兵", "卒"],
};

/** A xiangqi disc. @param {string} face @param {string} key palette key */
function xiangqiDisc(face, key) {
  /** @type {Record<string, string>} */
  const inks = { red: "#b8141a", white: "#b8141a", black: "#1b1a19", neutral: "#44505c" };
  const ink = inks[key] || inks.neutral;
  const latin = /[A-Za-z?]/.test(face);
  return (
    `<circle cx="50" cy="50" r="45" fill="#f1dfb8" stroke="#5b4322" stroke-width="2.6"/>` +
    `<circle cx="50" cy="50" r="45" fill="none" stroke="#c9ab74" stroke-width="1.2" transform="translate(0,1.5)" opacity="0.6"/>` +
    `<circle cx="50" cy="50" r="37" fill="none" stroke="${ink}" stroke-width="2.6"/>` +
    `<text x="50" y="51" font-size="${latin ? 34 : 48}" text-anchor="middle" dominant-baseline="central" font-family="${CJK_FONT}" font-weight="700" fill="${ink}">${esc(face)}</text>`
  );
}

// The international xiangqi set: chess-like pictures on the discs, by the man's name.
/** @type {Record<string, string>} */
const XIANGQI_BODIES = {
  general: "king",
  king: "king",
  advisor: "ferz",
  guard: "ferz",
  elephant: "bishop",
  horse: "knight",
  chariot: "rook",
  soldier: "pawn",
  pawn: "pawn",
};

/** A cannon for the international xiangqi set. @param {Palette} p */
function cannonPicture(p) {
  return (
    `<path d="M24,60 L66,34 L72,44 L30,70 Z" fill="${p.body}" stroke="${p.line}" stroke-width="${p.sw}" stroke-linejoin="round"/>` +
    `<circle cx="36" cy="70" r="12" fill="${p.body}" stroke="${p.line}" stroke-width="${p.sw}"/>` +
    `<circle cx="36" cy="70" r="3.5" fill="${p.line}"/>` +
    `<path d="M22,84 H60" stroke="${p.line}" stroke-width="${p.sw}" stroke-linecap="round"/>`
  );
}

/** A disc of the international xiangqi set. @param {Palette} p @param {Kind} kind */
function xiangqiPicture(p, kind) {
  const ring = p.key === "black" ? "#1b1a19" : "#b8141a";
  const body = XIANGQI_BODIES[drawnName(kind)];
  const inner = body ? single(body)(scaled(p, 0.74), kind) : cannonPicture(scaled(p, 0.74));
  return (
    `<circle cx="50" cy="50" r="45" fill="#f1dfb8" stroke="#5b4322" stroke-width="2.6"/>` +
    `<circle cx="50" cy="50" r="38" fill="none" stroke="${ring}" stroke-width="3"/>` +
    `<g transform="translate(13,11) scale(0.74)">${inner}</g>`
  );
}

/** @param {Kind} kind @param {string} set @returns {Resolved} */
function resolveXiangqi(kind, set) {
  const name = drawnName(kind);
  if (set === "international" && (XIANGQI_BODIES[name] || name === "cannon")) {
    return { paint: xiangqiPicture, dedicated: true };
  }
  const faces = XIANGQI_FACES[name];
  if (faces) return { paint: (p) => xiangqiDisc(p.key === "black" ? faces[1] : faces[0], p.key), dedicated: true };
  const letter =
    (kind.symbol || "?")
      .replace(/[^A-Za-z]/g, "")
      .toUpperCase()
      .slice(0, 2) || "?";
  return { paint: (p) => xiangqiDisc(letter, p.key), dedicated: false };
}

// ---------------------------------------------------------------------------------------------
// Congo: animals on discs, in the detail colour on the body colour.

/** Animal drawings: paths filled with `fg`, details cut out in `bg`. @type {Record<string, (fg: string, bg: string) => string>} */
const ANIMALS = {
  lion: (fg, bg) => {
    let mane = "";
    const n = 14;
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      const x = 50 + 24 * Math.cos(a);
      const y = 50 + 24 * Math.sin(a);
      mane += `<circle cx="${x.toFixed(2)}" cy="${y.toFixed(2)}" r="10" fill="${fg}"/>`;
    }
    return (
      mane +
      `<circle cx="50" cy="50" r="26" fill="${fg}"/>` +
      `<path d="M50,31 C62,31 69,39 68,51 C67,62 59,70 50,70 C41,70 33,62 32,51 C31,39 38,31 50,31 Z" fill="${bg}"/>` +
      `<circle cx="34" cy="35" r="4.5" fill="${bg}"/><circle cx="66" cy="35" r="4.5" fill="${bg}"/>` +
      `<circle cx="43" cy="47" r="3" fill="${fg}"/><circle cx="57" cy="47" r="3" fill="${fg}"/>` +
      `<path d="M45,55 H55 L50,61 Z" fill="${fg}"/>` +
      `<path d="M50,61 V64 M50,64 C47,67 43,66 42,64 M50,64 C53,67 57,66 58,64" stroke="${fg}" stroke-width="2.2" fill="none" stroke-linecap="round"/>`
    );
  },
  giraffe: (fg, bg) =>
    `<g transform="translate(2,4)"><path d="${GIRAFFE}" fill="${fg}"/>` +
    `<circle cx="46" cy="8.5" r="3" fill="${fg}"/><circle cx="53.5" cy="7.5" r="3" fill="${fg}"/>` +
    `<circle cx="37" cy="25" r="2.4" fill="${bg}"/><path d="${GIRAFFE_SPOTS}" fill="${bg}"/></g>`,
  elephant: (fg, bg) =>
    `<path d="M36,30 C22,20 8,30 10,46 C11,58 22,66 34,60 Z M64,30 C78,20 92,30 90,46 C89,58 78,66 66,60 Z" fill="${fg}"/>` +
    `<path d="M33,34 C24,28 15,34 16,45 C17,53 24,57 31,54 Z M67,34 C76,28 85,34 84,45 C83,53 76,57 69,54 Z" fill="${bg}" opacity="0.45"/>` +
    `<path d="M32,32 C32,20 68,20 68,32 C70,44 64,52 58,56 C56,64 57,72 61,77 C63,80 61,84 57,83 C51,80 47,72 46,64 L44,58 C36,52 30,44 32,32 Z" fill="${fg}"/>` +
    `<circle cx="41" cy="38" r="3" fill="${bg}"/><circle cx="59" cy="38" r="3" fill="${bg}"/>` +
    `<path d="M42,55 C41,61 38,65 34,67 M60,54 C62,60 65,63 69,64" stroke="${bg}" stroke-width="3.2" fill="none" stroke-linecap="round"/>`,
  crocodile: (fg, bg) =>
    `<path d="M14,52 C14,46 20,43 30,42 L52,40 C55,35 60,33 65,35 C70,37 74,40 80,44 C85,47 88,52 86,57 C84,62 76,63 66,62 L30,61 C20,60 14,58 14,52 Z" fill="${fg}"/>` +
    `<path d="M18,51 H56" stroke="${bg}" stroke-width="2.6" stroke-linecap="round"/>` +
    `<path d="M24,51 l2,-4 l2,4 M32,51 l2,-4 l2,4 M40,51 l2,-4 l2,4 M28,51 l2,4 l2,-4 M36,51 l2,4 l2,-4 M44,51 l2,4 l2,-4" stroke="${bg}" stroke-width="1.6" fill="${bg}" stroke-linejoin="round"/>` +
    `<circle cx="61" cy="41" r="3" fill="${bg}"/>` +
    `<path d="M66,62 L64,70 L70,70 L72,62 M78,61 L78,68 L84,67 L83,59" fill="${fg}"/>` +
    `<path d="M70,48 l4,-3 M76,50 l4,-3" stroke="${bg}" stroke-width="2" stroke-linecap="round"/>`,
  zebra: (fg, bg) =>
    `<path d="M34,84 C33,74 38,66 46,60 C42,58.5 38,59.5 34.5,62.5 C30.5,66 25,66 22,62.5 C18.5,59 18.5,54 21.5,50 L38,29 C40.5,25 44.5,22 49,21 L52,12 L58,20.5 C71,24 80,38 79,56 C78,67 75.5,76 73.5,84 Z" fill="${fg}"/>` +
    `<path d="M52,31 C58,35 60,41 60,47 M62,27 C67,33 69,41 68,49 M57,58 C62,62 64,70 63,78 M68,56 C71,64 72,72 71,80 M44,38 C48,42 49,46 48,52 M36,46 C40,50 41,54 40,58" stroke="${bg}" stroke-width="3.4" fill="none" stroke-linecap="round"/>` +
    `<circle cx="43" cy="34" r="2.8" fill="${bg}"/><circle cx="26" cy="55" r="1.8" fill="${bg}"/>`,
  monkey: (fg, bg) =>
    `<circle cx="24" cy="48" r="10" fill="${fg}"/><circle cx="76" cy="48" r="10" fill="${fg}"/>` +
    `<circle cx="24" cy="48" r="5" fill="${bg}"/><circle cx="76" cy="48" r="5" fill="${bg}"/>` +
    `<circle cx="50" cy="50" r="28" fill="${fg}"/>` +
    `<path d="M50,36 C54,31 62,31 64,37 C67,44 66,50 64,54 C68,60 64,72 50,72 C36,72 32,60 36,54 C34,50 33,44 36,37 C38,31 46,31 50,36 Z" fill="${bg}"/>` +
    `<circle cx="43" cy="45" r="3.2" fill="${fg}"/><circle cx="57" cy="45" r="3.2" fill="${fg}"/>` +
    `<circle cx="47" cy="56" r="1.6" fill="${fg}"/><circle cx="53" cy="56" r="1.6" fill="${fg}"/>` +
    `<path d="M42,63 Q50,68 58,63" stroke="${fg}" stroke-width="2.4" fill="none" stroke-linecap="round"/>`,
  pawn: (fg) =>
    `<circle cx="50" cy="31" r="14" fill="${fg}"/>` +
    `<path d="M36,48 H64 A4,4 0 0 1 64,56 H36 A4,4 0 0 1 36,48 Z" fill="${fg}"/>` +
    `<path d="M42,54 C41,64 34,72 27,79 H73 C66,72 59,64 58,54 Z" fill="${fg}"/>`,
  superpawn: (fg) =>
    `<path d="M36,28 L33,9 L43,17 L50,6 L57,17 L67,9 L64,28 Z" fill="${fg}"/>` +
    `<circle cx="50" cy="40" r="11" fill="${fg}"/>` +
    `<path d="M36,53 H64 A4,4 0 0 1 64,61 H36 A4,4 0 0 1 36,53 Z" fill="${fg}"/>` +
    `<path d="M42,59 C41,67 34,74 27,80 H73 C66,74 59,67 58,59 Z" fill="${fg}"/>`,
};

/** Congo synonyms. @type {Record<string, string>} */
const CONGO_NAMES = { "super pawn": "superpawn", "super-pawn": "superpawn", king: "lion" };

/** A Congo disc with an animal. @param {Palette} p @param {string} inner */
function congoDisc(p, inner) {
  return (
    `<circle cx="50" cy="50" r="45" fill="${p.body}" stroke="${p.line}" stroke-width="3"/>` +
    `<circle cx="50" cy="50" r="39.5" fill="none" stroke="${p.detail}" stroke-width="1.4" opacity="0.55"/>` +
    inner
  );
}

/** @param {Kind} kind @returns {Resolved} */
function resolveCongo(kind) {
  let name = drawnName(kind);
  name = CONGO_NAMES[name] || name;
  const animal = ANIMALS[name];
  if (animal) {
    return {
      paint: (p) => congoDisc(p, `<g transform="translate(6,6) scale(0.88)">${animal(p.detail, p.body)}</g>`),
      dedicated: true,
    };
  }
  return { paint: (p, k) => congoDisc(p, medallion(p, k.moves, 50, 50, 32)), dedicated: false };
}

// ---------------------------------------------------------------------------------------------
// Stones (Gess).

/** @param {Palette} p */
function stone(p) {
  if (p.key === "black") {
    return (
      '<circle cx="50" cy="50" r="44" fill="#1e1e1f" stroke="#050505" stroke-width="2"/>' +
      '<path d="M26,36 C31,25 41,19 52,18" fill="none" stroke="#6d6d70" stroke-width="5" stroke-linecap="round" opacity="0.8"/>'
    );
  }
  const fill = p.key === "white" ? "#f4f2ec" : p.key === "red" ? "#c8362b" : "#9ba6b1";
  return (
    `<circle cx="50" cy="50" r="44" fill="${fill}" stroke="#55524c" stroke-width="2.4"/>` +
    '<path d="M28,72 C38,82 58,84 72,72" fill="none" stroke="#000" stroke-width="4" stroke-linecap="round" opacity="0.12"/>' +
    '<path d="M27,36 C32,26 41,20 51,19" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity="0.9"/>'
  );
}

// ---------------------------------------------------------------------------------------------

/** @param {string} style @param {Kind} kind @param {string} set @returns {Resolved} */
function resolve(style, kind, set) {
  switch (style) {
    case "shogi":
      return resolveShogi(kind, set);
    case "xiangqi":
      return resolveXiangqi(kind, set);
    case "congo":
      return resolveCongo(kind);
    case "stones":
      return { paint: stone, dedicated: true };
    default:
      return resolveWestern(kind);
  }
}

/**
 * SVG markup (elements only, no outer <svg>) of one man in the box 0..100 x 0..100, drawn for
 * the owner at the bottom (facing up).
 * @param {string} style 'western' | 'shogi' | 'xiangqi' | 'congo' | 'stones' (unknown: treat as western)
 * @param {Kind} kind  symbol as in the game's data, lower-case English name, moves in words/Betza
 * @param {string} colour the owner's colour word: 'white' | 'black' | 'red' (anything else: a neutral fallback)
 * @param {string} [set] the piece set: shogi's `traditional`, `kanji1`, `kanji2`,
 *   `international`; xiangqi's `chinese`, `international`
 * @returns {string}
 */
export function manMarkup(style, kind, colour, set = "") {
  const k = {
    symbol: String(kind.symbol || ""),
    name: String(kind.name || ""),
    key: String(kind.key || kind.name || ""),
    moves: String(kind.moves || ""),
  };
  return resolve(style, k, set).paint(paletteOf(colour), k);
}

/** Whether men of this style are told apart by pointing at the opponent (shogi) rather than by colour: the board turns the far side's men 180 degrees. @param {string} style */
export function pointsAtOpponent(style) {
  return style === "shogi";
}

/** Whether `manMarkup` has a dedicated drawing for this kind (false = the generic fallback was used); tests assert every man of every ruleset has one. @param {string} style @param {Kind} kind */
export function hasDrawing(style, kind) {
  const k = {
    symbol: String(kind.symbol || ""),
    name: String(kind.name || ""),
    key: String(kind.key || kind.name || ""),
    moves: String(kind.moves || ""),
  };
  return resolve(style, k, "").dedicated;
}
