// The settings panel: a dialog opened from the page header, each change kept at once.

import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { CHOICES, settings, update } from "./settings.js";

/**
 * The words of a choice of a setting with a list (`settings.choice.wood`: "Wood").
 * @param {string} value
 */
function choiceWords(value) {
  return has(`settings.choice.${value}`) ? t(`settings.choice.${value}`) : value;
}

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
    ...CHOICES[name].map((value) => h("option", { value, selected: value === now }, choiceWords(value))),
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
      h("h2", { id: "settings-title" }, t("settings.title")),
      h(
        "div",
        { class: "settings-list" },
        choice("shogiPieces", t("settings.shogi-pieces")),
        choice("xiangqiPieces", t("settings.xiangqi-pieces")),
        choice("theme", t("settings.theme")),
        toggle("coordinates", t("settings.coordinates"), t("settings.coordinates-help")),
        toggle("animation", t("settings.animation"), t("settings.animation-help")),
        toggle("sound", t("settings.sound"), t("settings.sound-help")),
        toggle("figurines", t("settings.figurines"), t("settings.figurines-help")),
      ),
      h(
        "form",
        { method: "dialog", class: "settings-close" },
        h("button", { type: "submit", class: "primary" }, t("settings.done")),
      ),
    )
  );
  document.body.append(dialog);
  dialog.showModal();
}
