// Small helpers for building the page without a framework.

import { t } from "./i18n.js";

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Props
 */

/**
 * An HTML element: `h('button', {class: 'x', onclick: f}, 'Text')`. Props starting with
 * `on` become listeners; `false`, `null` and `undefined` props and children are left out.
 * @param {string} tag
 * @param {Props} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} parent
 * @param {(Child | Child[])[]} children
 */
function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
}

/**
 * Text made safe for markup (attributes and content).
 * @param {string | number} text
 */
export function escape(text) {
  return String(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * Replaces the children of `parent`.
 * @param {Element} parent
 * @param {...(Child | Child[])} children
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * A short message at the bottom of the screen.
 * @param {string} text
 * @param {"error" | "info"} [kind]
 */
export function toast(text, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", "aria-live": "polite" });
    document.body.append(box);
  }
  const note = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(note);
  setTimeout(() => note.remove(), kind === "error" ? 6000 : 3000);
}

/**
 * A count of plies in words: `1 ply`, `12 plies`.
 * @param {number} n
 */
export function plies(n) {
  return t("archive.plies", { count: n });
}
