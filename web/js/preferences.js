// The settings panel: a dialog opened from the page header, each change kept at once.

import { h } from "./dom.js";
import { CHOICES, settings, update } from "./settings.js";

/** Words for each choice of the settings with a list. @type {Record<string, string>} */
const WORDS = {
  traditional: "As on a board (one kanji in shogi, two in the large games)",
  kanji1: "One kanji",
  kanji2: "Two kanji",
  international: "International (letters and move pictures)",
  chinese: "Chinese characters",
  wood: "Wood",
  green: "Green",
  blue: "Blue",
};

/**
 * A select of one setting.
 * @param {"shogiPieces" | "xiangqiPieces" | "theme"} name
 * @param {string} label
 */
function choice(name, label) {
  const now = settings()[name];
  const select = h(
    "select",
    {
      name,
      onchange: (/** @type {Event} */ e) => update({ [name]: /** @type {HTMLSelectElement} */ (e.target).value }),
    },
    ...CHOICES[name].map((value) => h("option", { value, selected: value === now }, WORDS[value] ?? value)),
  );
  return h("label", { class: "setting" }, h("span", {}, label), select);
}

/**
 * A switch of one setting.
 * @param {"coordinates" | "animation" | "sound" | "figurines"} name
 * @param {string} label
 * @param {string} help
 */
function toggle(name, label, help) {
  const box = h("input", {
    type: "checkbox",
    name,
    checked: settings()[name],
    onchange: (/** @type {Event} */ e) => update({ [name]: /** @type {HTMLInputElement} */ (e.target).checked }),
  });
  return h("label", { class: "setting switch" }, box, h("span", {}, label), h("small", {}, help));
}

/** Opens the settings panel (one at a time). */
export function openSettings() {
  const open = document.querySelector("dialog.settings");
  if (open instanceof HTMLDialogElement) {
    open.showModal();
    return;
  }
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "settings", "aria-labelledby": "settings-title" },
      h("h2", { id: "settings-title" }, "Settings"),
      h(
        "div",
        { class: "settings-list" },
        choice("shogiPieces", "Shogi pieces"),
        choice("xiangqiPieces", "Xiangqi pieces"),
        choice("theme", "Board"),
        toggle("coordinates", "Coordinates", "Letters and numbers round the board"),
        toggle("animation", "Animation", "Men slide to where they move"),
        toggle("sound", "Sound", "Moves, captures, checks and a warning when your time runs low"),
        toggle("figurines", "Figurines", "Chess moves written with piece pictures (♘f3)"),
      ),
      h(
        "form",
        { method: "dialog", class: "settings-close" },
        h("button", { type: "submit", class: "primary" }, "Done"),
      ),
    )
  );
  document.body.append(dialog);
  dialog.showModal();
}
