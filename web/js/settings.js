// The player's settings, kept in the browser: piece sets, board theme, coordinates, move
// animation, sounds, notation. One object in localStorage; pages read it and listen for
// changes made in the settings panel.

const KEY = "chaturanga.settings";

/**
 * @typedef {{
 *   shogiPieces: "traditional" | "kanji1" | "kanji2" | "international",
 *   xiangqiPieces: "chinese" | "international",
 *   theme: "wood" | "green" | "blue",
 *   coordinates: boolean,
 *   animation: boolean,
 *   sound: boolean,
 *   notation: Record<string, string>,
 *   figurines: boolean,
 * }} Settings
 */

/** @type {Settings} */
const DEFAULTS = {
  shogiPieces: "traditional",
  xiangqiPieces: "chinese",
  theme: "wood",
  coordinates: true,
  animation: true,
  sound: true,
  notation: {},
  figurines: false,
};

/** The choices of each setting with a fixed list, in the order the panel offers them. */
export const CHOICES = {
  shogiPieces: ["traditional", "kanji1", "kanji2", "international"],
  xiangqiPieces: ["chinese", "international"],
  theme: ["wood", "green", "blue"],
};

/** @type {Set<(s: Settings) => void>} */
const listeners = new Set();

/**
 * The settings now: the stored ones over the defaults, anything unknown dropped.
 * @returns {Settings}
 */
export function settings() {
  /** @type {Record<string, unknown>} */
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(KEY) ?? "{}") ?? {};
  } catch {
    stored = {};
  }
  // The sound switch of earlier versions of the page.
  if (stored.sound === undefined && localStorage.getItem("chaturanga.sound") === "off") stored.sound = false;
  /** @type {Settings} */
  const out = { ...DEFAULTS, notation: {} };
  for (const [name, list] of Object.entries(CHOICES)) {
    const value = stored[name];
    if (typeof value === "string" && list.includes(value)) Object.assign(out, { [name]: value });
  }
  for (const name of /** @type {const} */ (["coordinates", "animation", "sound", "figurines"])) {
    if (typeof stored[name] === "boolean") out[name] = stored[name];
  }
  if (stored.notation && typeof stored.notation === "object") {
    for (const [variant, choice] of Object.entries(stored.notation)) {
      if (typeof choice === "string" && choice.length < 20) out.notation[variant] = choice;
    }
  }
  return out;
}

/**
 * Changes some settings, keeps them and tells every listener.
 * @param {Partial<Settings>} change
 */
export function update(change) {
  const next = { ...settings(), ...change };
  localStorage.setItem(KEY, JSON.stringify(next));
  applyToPage(next);
  for (const listener of listeners) listener(next);
}

/**
 * Calls `listener` whenever the settings change; returns the function that stops it.
 * @param {(s: Settings) => void} listener
 */
export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Puts the settings that are pure looks on the page as classes of the root element.
 * @param {Settings} [s]
 */
export function applyToPage(s = settings()) {
  const root = document.documentElement;
  for (const theme of CHOICES.theme) root.classList.toggle(`theme-${theme}`, s.theme === theme);
  root.classList.toggle("no-coordinates", !s.coordinates);
}
