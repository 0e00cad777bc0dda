// The message catalogues (web/i18n/<language>.json): every language has every message, with
// the same placeholders, each well formed; every message is used by the client and every
// message the client asks for exists. (Literal words the client shows without a message
// are caught by the ESLint rule `chaturanga/catalogue-only` in eslint.config.mjs.)

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { LANGUAGES, parseMessage, placeholders } from "../../web/js/i18n.js";

const web = resolve(dirname(fileURLToPath(import.meta.url)), "../../web");

/** @param {string} code @returns {Record<string, string>} */
function catalogue(code) {
  return JSON.parse(readFileSync(join(web, "i18n", `${code}.json`), "utf8"));
}

/** The client's sources: its scripts and the page frame. */
function sources() {
  const js = readdirSync(join(web, "js"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => readFileSync(join(web, "js", f), "utf8"));
  return [...js, readFileSync(join(web, "index.html"), "utf8")].join("\n");
}

test("every language has a catalogue with exactly English's messages, same placeholders, well formed", () => {
  const english = catalogue("en");
  assert.ok(Object.keys(english).length > 0);
  for (const [code] of LANGUAGES) {
    const messages = catalogue(code);
    assert.deepEqual(Object.keys(messages).sort(), Object.keys(english).sort(), `${code}: the same keys as en`);
    for (const [key, text] of Object.entries(messages)) {
      assert.equal(typeof text, "string", `${code} ${key}`);
      assert.ok(text.trim().length > 0, `${code} ${key}: empty`);
      assert.doesNotThrow(() => parseMessage(text), `${code} ${key}: ${text}`);
      assert.deepEqual(
        [...placeholders(text)].sort(),
        [...placeholders(english[key])].sort(),
        `${code} ${key}: the placeholders of en`,
      );
    }
  }
  // The languages list names every catalogue there is, and no other.
  const files = readdirSync(join(web, "i18n"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.replace(/\.json$/, ""))
    .sort();
  assert.deepEqual(files, LANGUAGES.map(([code]) => code).sort());
});

test("every message is used by the client, and every message the client names exists", () => {
  const english = catalogue("en");
  const text = sources();
  // Keys named whole: t("key"…), data-i18n="key", or listed in a table ("key").
  const named = new Set([...text.matchAll(/["'`]([a-z0-9-]+(?:\.[a-z0-9-]+)+)["'`]/g)].map((m) => m[1]));
  // Keys made from a prefix and a code: t(`error.${code}`).
  const prefixes = [...text.matchAll(/\bt\(\s*`([a-z0-9.-]+\.)\$\{/g)].map((m) => m[1]);
  const unused = Object.keys(english).filter((key) => !named.has(key) && !prefixes.some((p) => key.startsWith(p)));
  assert.deepEqual(unused, [], "messages no code uses");
  const asked = [...text.matchAll(/\bt\(\s*["']([^"']+)["']/g)].map((m) => m[1]);
  const missing = asked.filter((key) => !(key in english));
  assert.deepEqual(missing, [], "messages the client asks for that en.json lacks");
});

test("the message reader: placeholders, numbers, plurals with exact cases, selects, nesting", async () => {
  const { render } = await readerFor("hu", {
    plies: "{count, plural, =0 {no moves} one {# ply} other {# plies}}",
    who: "{side, select, white {White} black {Black} other {{side}}} to move",
    both: "{side, select, white {{count, plural, one {White has # move} other {White has # moves}}} other {?}}",
  });
  assert.equal(render("plies", { count: 0 }), "no moves");
  assert.equal(render("plies", { count: 1 }), "1 ply");
  assert.equal(render("plies", { count: 1234 }), "1234 plies");
  assert.equal(render("who", { side: "white" }), "White to move");
  assert.equal(render("who", { side: "red" }), "red to move");
  assert.equal(render("both", { side: "white", count: 2 }), "White has 2 moves");
  assert.throws(() => parseMessage("{count, plural, one {# ply}}"), /other/);
  assert.throws(() => parseMessage("{count, plural, one {# ply} other {# plies}"), /expected/);
  assert.throws(() => parseMessage("a } b"), /unexpected/);
});

/**
 * The reader with a catalogue given here, in `code`, outside a browser.
 * @param {string} code
 * @param {Record<string, string>} messages
 */
async function readerFor(code, messages) {
  const stored = new Map();
  Object.assign(globalThis, {
    localStorage: { getItem: (/** @type {string} */ k) => stored.get(k) ?? null, setItem: () => {} },
    navigator: { languages: [code] },
    document: { documentElement: {}, querySelectorAll: () => [] },
    fetch: async () => ({ ok: true, json: async () => messages }),
  });
  const i18n = await import("../../web/js/i18n.js");
  await i18n.useLanguage(/** @type {"hu"} */ (code));
  return { render: i18n.t };
}
