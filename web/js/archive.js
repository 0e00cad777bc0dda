// The archive: finished games, the last to end first, filtered on the server by ruleset and
// opponent (kept in the address, so that a link shows the same list), a page at a time.

import { api, held, variants } from "./api.js";
import { h, plies, replace } from "./dom.js";

/** Games asked for at a time. */
const PAGE = 30;

/**
 * A seat of a listed game, as `GET /api/games` gives it.
 * @typedef {{seat: number, player: string | null, kind: string, level: number | null, joined: boolean}} Seat
 */
/**
 * A finished game, as `GET /api/games?status=finished` gives it.
 * @typedef {{id: string, variant: string, result: string | null, reason: string | null,
 *   scores: number[] | null, ply: number, created_ms: number, finished_ms: number | null,
 *   player_names: string[], seats: Seat[]}} Summary
 */
/** @typedef {{variant: string, opponent: string}} Filters */

/** Who played: the choices of the opponent filter, as the server reads them. */
const OPPONENTS = [
  ["", "anyone"],
  ["engine", "the engine"],
  ["people", "people only"],
];

/** Why games end, as a player says it after "won" or "Draw". */
const REASONS = /** @type {Record<string, string>} */ ({
  checkmate: "by checkmate",
  stalemate: "by stalemate",
  "no-legal-moves": "as no move was left",
  "all-pieces-lost": "as all the men were lost",
  "insufficient-material": "as neither side could mate",
  "threefold-repetition": "by threefold repetition",
  "fivefold-repetition": "by fivefold repetition",
  "fifty-move-rule": "by the fifty-move rule",
  "seventy-five-move-rule": "by the seventy-five-move rule",
  "no-capture-limit": "by the limit of moves without a capture",
  "no-progress": "as nobody made progress",
  "move-limit": "by the move limit",
  "perpetual-check": "by perpetual check",
  "perpetual-chase": "by perpetual chase",
  "royal-captured": "by capturing the king",
  "self-check": "as a king was left in check",
  "only-lions": "as only the lions were left",
  "bare-king": "by the bare king rule",
  sennichite: "by repetition (sennichite)",
  impasse: "by impasse",
  declaration: "by an impasse declaration",
  resignation: "by resignation",
  agreement: "by agreement",
  "time-forfeit": "on time",
  simultaneous: "as decisive events came at the same moment",
  abandonment: "as a player left the game",
});

/** @param {string} word */
function capital(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * The filters the address asks for, those the server would refuse left out.
 * @param {Map<string, any>} names
 * @returns {Filters}
 */
function filtersFromAddress(names) {
  const query = new URLSearchParams(location.search);
  const variant = query.get("variant") ?? "";
  const opponent = query.get("opponent") ?? "";
  return {
    variant: names.has(variant) ? variant : "",
    opponent: OPPONENTS.some(([value]) => value === opponent) ? opponent : "",
  };
}

/**
 * The query string of the filters (empty ones left out), with a cursor where given.
 * @param {Filters} filters
 * @param {string | null} [before]
 */
function queryOf(filters, before) {
  const query = new URLSearchParams();
  if (filters.variant) query.set("variant", filters.variant);
  if (filters.opponent) query.set("opponent", filters.opponent);
  if (before) query.set("before", before);
  return query.toString();
}

/**
 * What a seat's player was: the engine at its level, this browser's player, or a person.
 * @param {Summary} game
 * @param {Seat} seat
 */
function seatWho(game, seat) {
  if (seat.kind === "engine") return `engine level ${seat.level}`;
  return held.all(game.id).some((mine) => mine.seat === seat.seat) ? "you" : "player";
}

/**
 * The players by seat: "White: you · Black: engine level 3".
 * @param {Summary} game
 */
function playersLine(game) {
  return game.seats
    .map((seat) => `${capital(seat.player ?? `player ${seat.seat + 1}`)}: ${seatWho(game, seat)}`)
    .join(" · ");
}

/**
 * The result in words: who won, or a draw, and why.
 * @param {Summary} game
 */
function resultWords(game) {
  const why = game.reason ? (REASONS[game.reason] ?? `by ${game.reason.replaceAll("-", " ")}`) : "";
  const scores = game.scores ?? [];
  const best = Math.max(...scores);
  const winners = scores.flatMap((q, n) => (q === best && scores.some((o) => o < best) ? [n] : []));
  if (!winners.length) return `Draw ${why}`.trim();
  const names = winners.map((n) => capital(game.player_names[n] ?? `player ${n + 1}`));
  return `${names.join(" and ")} won ${why}`.trim();
}

/**
 * When the game ended, as the reader's locale writes dates.
 * @param {Summary} game
 */
function dateOf(game) {
  const at = new Date(game.finished_ms ?? game.created_ms);
  return h(
    "time",
    { datetime: at.toISOString() },
    at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
  );
}

/**
 * One game of the list.
 * @param {Summary} game
 * @param {Map<string, any>} names
 */
function gameItem(game, names) {
  return h(
    "li",
    { "data-game": game.id },
    h(
      "div",
      { class: "archive-head" },
      h("a", { href: `/games/${game.id}` }, names.get(game.variant)?.name ?? game.variant),
      h("span", { class: "meta" }, dateOf(game)),
    ),
    h("div", { class: "archive-players" }, playersLine(game)),
    h(
      "div",
      { class: "archive-result" },
      h("span", { title: game.result ?? "" }, resultWords(game)),
      h("span", { class: "meta" }, ` · ${plies(game.ply)}`),
    ),
  );
}

/**
 * A labelled choice.
 * @param {string} label
 * @param {string} name
 * @param {string[][]} choices pairs of value and words
 */
function choice(label, name, choices) {
  const select = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { name },
      choices.map(([value, words]) => h("option", { value }, words)),
    )
  );
  return { select, field: h("label", {}, h("span", {}, label), select) };
}

/** @param {HTMLElement} app */
export async function archivePage(app) {
  const names = await variants();
  const ruleset = choice("Ruleset", "variant", [
    ["", "every ruleset"],
    ...[...names.values()].map((v) => [v.id, v.name]),
  ]);
  const opponent = choice("Played against", "opponent", OPPONENTS);
  const list = h("ul", { class: "archive-list" });
  const note = h("p", { class: "meta archive-note", role: "status" });
  const more = h("button", { type: "button", class: "archive-more", hidden: true }, "More games");
  /** @type {string | null} */
  let next = null;
  // Answers to an earlier choice that come late are dropped.
  let asked = 0;

  /** @returns {Filters} */
  const chosen = () => ({ variant: ruleset.select.value, opponent: opponent.select.value });

  /** @param {boolean} fresh whether the list starts again (else the next page is added) */
  const load = async (fresh) => {
    const ask = ++asked;
    const filters = chosen();
    more.setAttribute("disabled", "");
    note.textContent = "Loading…";
    let data;
    try {
      data = await api("GET", `/api/games?status=finished&limit=${PAGE}&${queryOf(filters, fresh ? null : next)}`);
    } catch (e) {
      if (ask !== asked) return;
      note.textContent = e instanceof Error ? e.message : String(e);
      more.removeAttribute("disabled");
      return;
    }
    if (ask !== asked) return;
    /** @type {Summary[]} */
    const games = data.games;
    if (fresh) replace(list);
    list.append(...games.map((g) => gameItem(g, names)));
    next = data.next ?? null;
    more.hidden = !next;
    more.removeAttribute("disabled");
    const filtered = filters.variant || filters.opponent;
    note.textContent = list.childElementCount
      ? ""
      : filtered
        ? "No finished games match these choices."
        : "No finished games yet.";
  };

  /** Shows the filters the address asks for; an address asking for what no list has is
   * written as what is shown. */
  const fromAddress = () => {
    const filters = filtersFromAddress(names);
    ruleset.select.value = filters.variant;
    opponent.select.value = filters.opponent;
    const query = queryOf(filters);
    if (query !== location.search.replace(/^\?/, "")) {
      history.replaceState(null, "", query ? `/archive?${query}` : "/archive");
    }
    return load(true);
  };

  const onChoice = () => {
    const query = queryOf(chosen());
    history.pushState(null, "", query ? `/archive?${query}` : "/archive");
    void load(true);
  };
  ruleset.select.addEventListener("change", onChoice);
  opponent.select.addEventListener("change", onChoice);
  more.addEventListener("click", () => void load(false));
  window.addEventListener("popstate", () => void fromAddress());

  replace(
    app,
    h(
      "div",
      { class: "archive" },
      h("h1", {}, "Finished games"),
      h(
        "form",
        { class: "archive-filters", role: "search", onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
        ruleset.field,
        opponent.field,
      ),
      list,
      note,
      more,
    ),
  );
  await fromAddress();
}
