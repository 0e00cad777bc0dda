// The server's HTTP API (docs/server.md) and the seats this browser holds.

import { has, language, t } from "./i18n.js";

/**
 * An answer with an error status: `status`, the server's stable `code` where it gave one,
 * and the `message` a reader is shown (the catalogue's words for the code, else the
 * server's own line).
 */
export class ApiError extends Error {
  /** @param {number} status @param {string} message @param {string | null} [code] */
  constructor(status, message, code = null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * What a refusal of the server says to a reader: the catalogue's message for its code
 * (`error.not-your-turn`), else the server's English line (a code newer than the page).
 * @param {unknown} code
 * @param {string} line
 */
export function errorWords(code, line) {
  return typeof code === "string" && has(`error.${code}`) ? t(`error.${code}`) : line;
}

/**
 * Calls the API; answers the parsed JSON (or text for non-JSON answers).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function api(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("error.unreachable"));
  }
  const type = response.headers.get("content-type") ?? "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const refusal = typeof data === "object" && data ? data : {};
    const line = "error" in refusal ? String(refusal.error) : String(data);
    const code = "code" in refusal && typeof refusal.code === "string" ? refusal.code : null;
    throw new ApiError(response.status, errorWords(code, line), code);
  }
  return data;
}

/** @type {Promise<Map<string, any>> | null} */
let variantList = null;

/**
 * Every ruleset by id, as `GET /api/variants` gives it in the page's language (fetched once).
 * @returns {Promise<Map<string, any>>}
 */
export function variants() {
  variantList ??= api("GET", `/api/variants?lang=${language()}`).then(
    (/** @type {{variants: any[]}} */ data) => new Map(data.variants.map((v) => [v.id, v])),
  );
  return variantList;
}

/** @type {Map<string, Promise<string>>} */
const rulesPages = new Map();

/**
 * The rules page of a ruleset as an HTML fragment, in the page's language where it has one
 * (docs/rules/<lang>/<id>.md, served as /static/rules/<lang>/<id>.html), else in English
 * (docs/rules/<id>.md); converted at build time. Empty where neither is found.
 * @param {string} id
 * @returns {Promise<string>}
 */
export function rulesPage(id) {
  let page = rulesPages.get(id);
  if (!page) {
    const file = `${encodeURIComponent(id)}.html`;
    const english = () => fetch(`/static/rules/${file}`).then((r) => (r.ok ? r.text() : ""));
    page =
      language() === "en"
        ? english()
        : fetch(`/static/rules/${language()}/${file}`).then((r) => (r.ok ? r.text() : english()));
    rulesPages.set(id, page);
  }
  return page;
}

/** @typedef {{seat: number, token: string}} Held */

/** Every seat this browser holds in a game, the one it plays first: `chaturanga.seats.<game>`. */
const PREFIX = "chaturanga.seats.";
/** One seat per game, as browsers kept them before: read until the game's list is written. */
const OLD_PREFIX = "chaturanga.seat.";

/**
 * @param {string} key
 * @returns {unknown}
 */
function stored(key) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

/**
 * @param {any} value
 * @returns {value is Held}
 */
function isHeld(value) {
  return typeof value?.token === "string" && Number.isInteger(value?.seat) && value.seat >= 0;
}

/** The seats this browser plays, by game and seat, kept in local storage. */
export const held = {
  /**
   * Every seat held in `game`, the one played last first.
   * @param {string} game
   * @returns {Held[]}
   */
  all(game) {
    const list = stored(PREFIX + game);
    const old = stored(OLD_PREFIX + game);
    const found = Array.isArray(list) ? list.filter(isHeld) : isHeld(old) ? [old] : [];
    return found
      .filter((h, i) => found.findIndex((o) => o.seat === h.seat) === i)
      .map(({ seat, token }) => ({ seat, token }));
  },
  /**
   * The seat played in `game`, if any.
   * @param {string} game
   * @returns {Held | null}
   */
  get(game) {
    return held.all(game)[0] ?? null;
  },
  /**
   * Keeps a seat's token and plays that seat from now on; the other seats held stay (a seat
   * has one token at a time, so a new one for a seat replaces only its old one).
   * @param {string} game
   * @param {number} seat
   * @param {string} token
   */
  set(game, seat, token) {
    const list = [{ seat, token }, ...held.all(game).filter((h) => h.seat !== seat)];
    try {
      localStorage.setItem(PREFIX + game, JSON.stringify(list));
      localStorage.removeItem(OLD_PREFIX + game);
    } catch {
      // Private windows may refuse storage: the seat then lasts as long as the page.
    }
  },
};

/**
 * What a value of a rule option means to a player, from the option's `words`.
 * @param {{words?: [string, string][], help?: string}} option
 * @param {string} value
 */
export function explainOption(option, value) {
  const words = option.words ?? [];
  const own = words.find(([v]) => v === value);
  if (own) return own[1];
  const any = words.find(([v]) => v === "*");
  return any ? any[1].replace("{}", value) : (option.help ?? "");
}
