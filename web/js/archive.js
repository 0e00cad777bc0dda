// The archive: finished games, the last to end first, filtered on the server by ruleset and
// opponent (kept in the address, so that a link shows the same list), a page at a time.

import { api, held, variants } from "./api.js";
import { sideName } from "./board.js";
import { h, plies, replace } from "./dom.js";
import { formatDate, formatList, has, t } from "./i18n.js";

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

/** Who played: the choices of the opponent filter, as the server reads them, with their words. */
const OPPONENTS = [
  ["", "archive.opponent-any"],
  ["engine", "archive.opponent-engine"],
  ["people", "archive.opponent-people"],
];

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
  if (seat.kind === "engine") return t("archive.seat-engine", { level: seat.level ?? 0 });
  return t(held.all(game.id).some((mine) => mine.seat === seat.seat) ? "archive.seat-you" : "archive.seat-player");
}

/**
 * The players by seat: "White: you · Black: engine level 3".
 * @param {Summary} game
 */
function playersLine(game) {
  return game.seats
    .map((seat) => t("archive.seat", { side: capital(sideName(seat.player, seat.seat)), who: seatWho(game, seat) }))
    .join(" · ");
}

/**
 * Why a game ended, as the result says it after "won" or "Draw" (`by checkmate`); a reason
 * newer than the page in the server's words.
 * @param {string} reason
 */
function reasonWords(reason) {
  return has(`archive.reason.${reason}`)
    ? t(`archive.reason.${reason}`)
    : t("archive.reason-other", { reason: reason.replaceAll("-", " ") });
}

/**
 * The result in words: who won, or a draw, and why.
 * @param {Summary} game
 */
function resultWords(game) {
  const reason = game.reason ? reasonWords(game.reason) : null;
  const scores = game.scores ?? [];
  const best = Math.max(...scores);
  const winners = scores.flatMap((q, n) => (q === best && scores.some((o) => o < best) ? [n] : []));
  if (!winners.length) return reason ? t("archive.draw-by", { reason }) : t("archive.draw");
  const names = formatList(winners.map((n) => capital(sideName(game.player_names[n], n))));
  return reason ? t("archive.won-by", { winners: names, reason }) : t("archive.won", { winners: names });
}

/**
 * When the game ended, as the reader's language writes dates.
 * @param {Summary} game
 */
function dateOf(game) {
  const at = new Date(game.finished_ms ?? game.created_ms);
  return h("time", { datetime: at.toISOString() }, formatDate(at));
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
  const ruleset = choice(t("archive.ruleset"), "variant", [
    ["", t("archive.ruleset-any")],
    ...[...names.values()].map((v) => [v.id, v.name]),
  ]);
  const opponent = choice(
    t("archive.opponent"),
    "opponent",
    OPPONENTS.map(([value, key]) => [value, t(key)]),
  );
  const list = h("ul", { class: "archive-list" });
  const note = h("p", { class: "meta archive-note", role: "status" });
  const more = h("button", { type: "button", class: "archive-more", hidden: true }, t("archive.more"));
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
    note.textContent = t("page.loading");
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
    note.textContent = list.childElementCount ? "" : t(filtered ? "archive.none-matching" : "archive.none");
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
      h("h1", {}, t("archive.title")),
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
