// Every word the page shows comes from a message catalogue: web/i18n/<language>.json, one flat
// object of key -> message per language. Messages are written in the ICU MessageFormat
// syntax translators' tools know, in the part of it the pages need: `{name}` placeholders,
// `{count, number}`, `{count, plural, one {# move} other {# moves}}` (with `=0`-style exact
// cases) and `{side, select, white {…} other {…}}`. A quote is an ordinary character (ICU's
// apostrophe escapes are not needed: no message writes a literal brace). English is the
// fallback for any message a catalogue lacks.

/** The languages the site speaks, each in its own words. */
export const LANGUAGES = /** @type {const} */ ([
  ["en", "English"],
  ["hu", "Magyar"],
]);

/** @typedef {typeof LANGUAGES[number][0]} Language */

/** @typedef {string | number} Arg */
/**
 * A parsed message: text, a placeholder, or a choice between sub-messages.
 * @typedef {{arg: string, kind: "plural" | "select", cases: Map<string, Part[]>}} Choice
 * @typedef {(string | {arg: string, kind: "plain"} | {arg: string, kind: "number"} | Choice | {kind: "hash"})} Part
 */

const KEY = "chaturanga.language";

/** @type {Language} */
let current = "en";
/** @type {Record<string, string>} */
let messages = {};
/** @type {Record<string, string>} */
let english = {};
/** @type {Map<string, Part[]>} */
const parsed = new Map();

/**
 * The language to speak: the one chosen on this site before, else the first of the
 * browser's languages the site speaks, else English.
 * @returns {Language}
 */
export function chosenLanguage() {
  const known = LANGUAGES.map(([code]) => code);
  const stored = localStorage.getItem(KEY);
  const wanted = [stored, ...(navigator.languages ?? [navigator.language])];
  for (const tag of wanted) {
    const code = String(tag ?? "")
      .toLowerCase()
      .split("-")[0];
    const found = known.find((k) => k === code);
    if (found) return found;
  }
  return "en";
}

/** The language the page speaks now. */
export function language() {
  return current;
}

/**
 * Loads the catalogues of `code` (and English under it) and speaks it from now on.
 * @param {Language} code
 */
export async function useLanguage(code) {
  const load = async (/** @type {string} */ name) => {
    const r = await fetch(`/static/i18n/${name}.json`);
    // For developers (the console): without a catalogue there are no words to say it in.
    // eslint-disable-next-line chaturanga/catalogue-only
    if (!r.ok) throw new Error(`no messages for ${name}`);
    return /** @type {Record<string, string>} */ (await r.json());
  };
  english = await load("en");
  messages = code === "en" ? english : await load(code);
  current = code;
  parsed.clear();
  document.documentElement.lang = code;
  translateStatic(document);
}

/**
 * Remembers `code` as the reader's choice and loads the page again in it.
 * @param {Language} code
 */
export function chooseLanguage(code) {
  localStorage.setItem(KEY, code);
  location.reload();
}

/**
 * Writes the message of every `data-i18n` element of `root` into it (the page's fixed
 * frame in index.html), and of `data-i18n-title` and `data-i18n-label` into those
 * attributes.
 * @param {ParentNode} root
 */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.getAttribute("data-i18n") ?? "");
  for (const el of root.querySelectorAll("[data-i18n-title]"))
    el.setAttribute("title", t(el.getAttribute("data-i18n-title") ?? ""));
  for (const el of root.querySelectorAll("[data-i18n-label]"))
    el.setAttribute("aria-label", t(el.getAttribute("data-i18n-label") ?? ""));
}

/**
 * The message `key` in the page's language with `args` put in; the English one where the
 * language lacks it; the key itself where no catalogue has it (a test keeps that from
 * happening).
 * @param {string} key
 * @param {Record<string, Arg>} [args]
 * @returns {string}
 */
export function t(key, args = {}) {
  const source = messages[key] ?? english[key];
  if (source === undefined) return key;
  let parts = parsed.get(key);
  if (!parts) {
    parts = parseMessage(source);
    parsed.set(key, parts);
  }
  return render(parts, args, null);
}

/**
 * Whether a catalogue holds `key` (for texts chosen by a code from the server, which may
 * be newer than the page).
 * @param {string} key
 */
export function has(key) {
  return key in messages || key in english;
}

/**
 * A number in the page's language (`1 234,5` in Hungarian).
 * @param {number} n
 * @param {Intl.NumberFormatOptions} [options]
 */
export function formatNumber(n, options) {
  return new Intl.NumberFormat(current, options).format(n);
}

/**
 * A moment as the reader's language writes a date and time.
 * @param {Date | number} when
 * @param {Intl.DateTimeFormatOptions} [options]
 */
export function formatDate(when, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(current, options).format(when);
}

/**
 * A list joined as the language does (`a, b and c`, `a, b és c`).
 * @param {string[]} items
 */
export function formatList(items) {
  return new Intl.ListFormat(current, { style: "long", type: "conjunction" }).format(items);
}

/**
 * @param {Part[]} parts
 * @param {Record<string, Arg>} args
 * @param {number | null} hash the number `#` stands for inside a plural case
 * @returns {string}
 */
function render(parts, args, hash) {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") out += part;
    else if (part.kind === "hash") out += hash === null ? "#" : formatNumber(hash);
    else if (part.kind === "plain") out += String(args[part.arg] ?? `{${part.arg}}`);
    else if (part.kind === "number") out += formatNumber(Number(args[part.arg] ?? 0));
    else if (part.kind === "plural") {
      const n = Number(args[part.arg] ?? 0);
      const chosen =
        part.cases.get(`=${n}`) ?? part.cases.get(new Intl.PluralRules(current).select(n)) ?? part.cases.get("other");
      out += render(chosen ?? [], args, n);
    } else {
      const value = String(args[part.arg] ?? "");
      out += render(part.cases.get(value) ?? part.cases.get("other") ?? [], args, hash);
    }
  }
  return out;
}

/**
 * Reads a message into its parts. Throws on a message that is not well formed, which the
 * catalogue test finds before a reader does.
 * @param {string} text
 * @returns {Part[]}
 */
export function parseMessage(text) {
  let at = 0;
  /** @param {boolean} nested @returns {Part[]} */
  const message = (nested) => {
    /** @type {Part[]} */
    const parts = [];
    let plain = "";
    while (at < text.length) {
      const c = text[at];
      if (c === "}") {
        if (nested) break;
        throw new Error(`"${text}": unexpected "}" at ${at}`);
      }
      if (c === "{") {
        if (plain) parts.push(plain);
        plain = "";
        parts.push(argument());
      } else if (c === "#" && nested) {
        if (plain) parts.push(plain);
        plain = "";
        parts.push({ kind: "hash" });
        at++;
      } else {
        plain += c;
        at++;
      }
    }
    if (plain) parts.push(plain);
    return parts;
  };
  const word = () => {
    const start = at;
    while (at < text.length && !/[\s,{}]/.test(text[at])) at++;
    return text.slice(start, at);
  };
  const space = () => {
    while (at < text.length && /\s/.test(text[at])) at++;
  };
  const expect = (/** @type {string} */ c) => {
    space();
    if (text[at] !== c) throw new Error(`"${text}": "${c}" expected at ${at}`);
    at++;
  };
  /** @returns {Part} */
  const argument = () => {
    expect("{");
    space();
    const arg = word();
    if (!arg) throw new Error(`"${text}": a name expected at ${at}`);
    space();
    if (text[at] === "}") {
      at++;
      return { arg, kind: "plain" };
    }
    expect(",");
    space();
    const kind = word();
    space();
    if (kind === "number") {
      expect("}");
      return { arg, kind: "number" };
    }
    if (kind !== "plural" && kind !== "select") throw new Error(`"${text}": unknown kind ${kind}`);
    expect(",");
    /** @type {Map<string, Part[]>} */
    const cases = new Map();
    for (;;) {
      space();
      if (text[at] === "}") {
        at++;
        break;
      }
      const name = word();
      if (!name) throw new Error(`"${text}": a case expected at ${at}`);
      expect("{");
      cases.set(name, message(true));
      expect("}");
    }
    if (!cases.has("other")) throw new Error(`"${text}": no "other" case`);
    return { arg, kind, cases };
  };
  return message(false);
}

/**
 * The placeholders a message uses, for the catalogue test: every argument name.
 * @param {string} text
 * @returns {Set<string>}
 */
export function placeholders(text) {
  /** @type {Set<string>} */
  const names = new Set();
  /** @param {Part[]} parts */
  const walk = (parts) => {
    for (const p of parts) {
      if (typeof p === "string" || p.kind === "hash") continue;
      names.add(p.arg);
      if ("cases" in p) for (const sub of p.cases.values()) walk(sub);
    }
  };
  walk(parseMessage(text));
  return names;
}
