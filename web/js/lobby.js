// The lobby: every ruleset with its summary, a form to start a game (against the engine, a
// friend by link, or an open seek), and the games open, live and just finished.

import { api, explainOption, held, rulesPage, variants } from "./api.js";
import { lookOf, previewSvg, sideName } from "./board.js";
import { h, plies, replace, toast } from "./dom.js";
import { has, language, t } from "./i18n.js";

/**
 * A time control, as the server takes it.
 * @typedef {{kind: "fischer", base: number, increment: number}
 *   | {kind: "byoyomi", base: number, period: number, periods: number}
 *   | {kind: "move", seconds: number}
 *   | {kind: "days", days: number}} Control
 */

/** Clock choices offered, as the server takes them (`null`: no clock). @type {(Control | null)[]} */
const CLOCKS = [
  null,
  { kind: "fischer", base: 180, increment: 2 },
  { kind: "fischer", base: 300, increment: 3 },
  { kind: "fischer", base: 600, increment: 5 },
  { kind: "fischer", base: 900, increment: 10 },
  { kind: "fischer", base: 1800, increment: 20 },
  { kind: "byoyomi", base: 600, period: 30, periods: 3 },
  { kind: "move", seconds: 30 },
  { kind: "days", days: 1 },
  { kind: "days", days: 3 },
];

/**
 * A time control in words: `3 + 2` (minutes and seconds added a move), `10 min + 3×30 s
 * byo-yomi`, `30 s a move`, `1 day a move`, `No clock`.
 * @param {Control | null} control
 */
function clockWords(control) {
  if (!control) return t("time.none");
  switch (control.kind) {
    case "fischer":
      return t("time.fischer", { minutes: control.base / 60, increment: control.increment });
    case "byoyomi":
      return t("time.byoyomi", { minutes: control.base / 60, periods: control.periods, seconds: control.period });
    case "move":
      return t("time.move", { seconds: control.seconds });
    case "days":
      return t("time.days", { days: control.days });
  }
}

/**
 * The first paragraph of a rules page: the lobby's summary of a ruleset.
 * @param {string} html
 */
export function summaryOf(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return doc.querySelector(".summary")?.textContent?.trim() ?? "";
}

/** @param {HTMLElement} app */
export async function lobbyPage(app) {
  // In the order of their names in the reader's language (Lavinasakk is no longer first).
  const collator = new Intl.Collator(language());
  const all = [...(await variants()).values()].sort((a, b) => collator.compare(a.name, b.name));
  const form = h("form", { class: "new-game", id: "new-game" });
  const cards = h("div", { class: "variant-cards" });
  const lists = h("div", { class: "game-lists" });
  replace(
    app,
    h(
      "div",
      { class: "lobby" },
      h("section", { class: "start" }, h("h1", {}, t("lobby.start")), form),
      h("section", { class: "games" }, lists),
      h("section", { class: "catalogue" }, h("h2", {}, t("lobby.rulesets", { count: all.length })), cards),
    ),
  );
  const choose = buildForm(form, all);
  for (const v of all) {
    const summary = h("p", { class: "summary" });
    const card = h(
      "article",
      { class: "variant-card", "data-variant": v.id },
      h("h3", {}, v.name),
      preview(v),
      h(
        "div",
        { class: "meta" },
        t("lobby.card-meta", {
          players: v.players,
          board: v.boards.length > 1 ? t("lobby.two-boards") : boardSize(v.boards[0]),
        }),
      ),
      summary,
      h(
        "div",
        { class: "card-actions" },
        h("button", { type: "button", class: "pick", "data-pick": v.id, onclick: () => choose(v.id) }, t("lobby.play")),
        h("a", { href: `/rules/${v.id}` }, t("lobby.rules")),
      ),
    );
    cards.append(card);
    rulesPage(v.id).then((html) => (summary.textContent = summaryOf(html)));
  }
  await showLists(lists, all);
}

/**
 * The picture of a ruleset's start position (its first board), as its games draw it.
 * @param {any} variant its entry in `GET /api/variants`
 */
function preview(variant) {
  const box = h("div", { class: `preview style-${variant.style ?? "western"}`, "aria-hidden": "true" });
  const drawing = variant.boards?.[0];
  const start = variant.start?.[0];
  if (drawing && start) box.innerHTML = previewSvg(drawing, start, lookOf(variant));
  return box;
}

/** @param {any} drawing */
function boardSize(drawing) {
  if (!drawing) return "";
  if (drawing.lattice === "hex") return t("lobby.hexagons", { count: drawing.cells.length });
  if (drawing.lattice === "linked") return t("lobby.cells", { count: drawing.cells.length });
  return `${drawing.width}×${drawing.height}`;
}

/** The engine's levels of play. */
const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];

/** Where the browser keeps the lobby's last choices. */
const CHOICES_KEY = "chaturanga.lobby";

/**
 * The choices of the last game created here.
 * @returns {{variant?: string, clock?: string, opponent?: string, level?: string, side?: string}}
 */
function remembered() {
  try {
    const kept = JSON.parse(localStorage.getItem(CHOICES_KEY) ?? "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** @param {{variant: string, clock: string, opponent: string, level: string, side: string}} choices */
function remember(choices) {
  try {
    localStorage.setItem(CHOICES_KEY, JSON.stringify(choices));
  } catch {
    // A browser that keeps nothing starts on chess again.
  }
}

/**
 * The new-game form; answers a function that selects a ruleset in it.
 * @param {HTMLElement} form
 * @param {any[]} all
 * @returns {(id: string) => void}
 */
function buildForm(form, all) {
  const variantSelect = h(
    "select",
    { name: "variant", "aria-label": t("lobby.game-label") },
    all.map((v) => h("option", { value: v.id }, v.name)),
  );
  const options = h("div", { class: "options" });
  const clock = h(
    "select",
    { name: "clock", "aria-label": t("lobby.clock-label") },
    CLOCKS.map((c, i) => h("option", { value: i }, clockWords(c))),
  );
  const opponent = h(
    "select",
    { name: "opponent", "aria-label": t("lobby.opponent-label") },
    h("option", { value: "engine" }, t("lobby.opponent-engine")),
    h("option", { value: "friend" }, t("lobby.opponent-friend")),
    h("option", { value: "seek" }, t("lobby.opponent-seek")),
  );
  const level = h(
    "select",
    { name: "level", "aria-label": t("lobby.level-label") },
    LEVELS.map((n) => h("option", { value: n, selected: n === 3 }, t("lobby.level", { level: n }))),
  );
  const side = h("select", { name: "side", "aria-label": t("lobby.side-label") });
  const seats = h("div", { class: "seats" });
  const create = h("button", { type: "submit", class: "create" }, t("lobby.create"));
  form.append(
    h("label", {}, t("lobby.game"), " ", variantSelect),
    options,
    h("label", {}, t("lobby.clock"), " ", clock),
    h("label", { class: "two-only" }, t("lobby.opponent"), " ", opponent),
    h("label", { class: "two-only engine-only" }, t("lobby.strength"), " ", level),
    h("label", {}, t("lobby.side"), " ", side),
    seats,
    create,
  );
  const current = () => all.find((v) => v.id === /** @type {HTMLSelectElement} */ (variantSelect).value) ?? all[0];
  const refresh = () => {
    const v = current();
    replace(
      options,
      v.options.map((/** @type {any} */ o) => {
        const input = Array.isArray(o.values)
          ? h(
              "select",
              { name: `option-${o.name}`, "data-option": o.name },
              o.values.map((/** @type {string} */ w) =>
                // Switches read as words (be/ki); other values are names the words below explain.
                h(
                  "option",
                  { value: w, selected: w === o.default },
                  has(`lobby.value.${w}`) ? t(`lobby.value.${w}`) : w,
                ),
              ),
            )
          : h("input", { name: `option-${o.name}`, "data-option": o.name, value: o.default, size: 6 });
        // What the chosen value means, said again whenever it changes.
        const said = h("small", { class: "option-words" });
        const say = () => (said.textContent = explainOption(o, /** @type {HTMLInputElement} */ (input).value));
        input.addEventListener("input", say);
        input.addEventListener("change", say);
        say();
        return h(
          "label",
          { class: "option", "data-name": o.name },
          h("span", {}, `${o.label || o.name} `),
          input,
          said,
        );
      }),
    );
    replace(
      side,
      v.player_names.map((/** @type {string} */ n, /** @type {number} */ i) =>
        h("option", { value: i }, sideName(n, i)),
      ),
      v.players === 2 ? h("option", { value: "random" }, t("lobby.side-random")) : null,
    );
    const many = v.players > 2;
    form.classList.toggle("many-players", many);
    replace(
      seats,
      many
        ? v.player_names.map((/** @type {string} */ n, /** @type {number} */ i) =>
            h(
              "label",
              { class: "seat-kind" },
              sideName(n, i),
              " ",
              h(
                "select",
                { "data-seat": i },
                h("option", { value: "human" }, t("lobby.seat-person")),
                LEVELS.map((l) => h("option", { value: `engine-${l}` }, t("lobby.seat-engine", { level: l }))),
              ),
            ),
          )
        : [],
    );
  };
  const showEngine = () =>
    form.classList.toggle("engine", /** @type {HTMLSelectElement} */ (opponent).value === "engine");
  variantSelect.addEventListener("change", refresh);
  opponent.addEventListener("change", showEngine);
  // The game a rules page's "Play it" names, else the last game's choices, else chess: what
  // a visitor most likely plays next.
  const last = remembered();
  const asked = new URLSearchParams(location.search).get("variant");
  const start = all.some((v) => v.id === asked)
    ? asked
    : all.some((v) => v.id === last.variant)
      ? last.variant
      : all.some((v) => v.id === "chess")
        ? "chess"
        : all[0]?.id;
  if (start) /** @type {HTMLSelectElement} */ (variantSelect).value = start;
  refresh();
  for (const [select, value] of /** @type {[HTMLElement, string | undefined][]} */ ([
    [clock, last.clock],
    [opponent, last.opponent],
    [level, last.level],
    [side, last.side],
  ])) {
    const choice = /** @type {HTMLSelectElement} */ (select);
    if (value !== undefined && [...choice.options].some((o) => o.value === value)) choice.value = value;
  }
  showEngine();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const v = current();
    const sideValue = /** @type {HTMLSelectElement} */ (side).value;
    const me = sideValue === "random" ? Math.floor(Math.random() * v.players) : Number(sideValue);
    /** @type {any[]} */
    let seatList;
    if (v.players > 2) {
      seatList = [...seats.querySelectorAll("select")].map((s) => {
        const value = /** @type {HTMLSelectElement} */ (s).value;
        return value.startsWith("engine") ? { kind: "engine", level: Number(value.split("-")[1]) } : { kind: "human" };
      });
      seatList[me] = { kind: "human" };
    } else {
      const engine = /** @type {HTMLSelectElement} */ (opponent).value === "engine";
      seatList = [0, 1].map((i) =>
        i === me || !engine
          ? { kind: "human" }
          : { kind: "engine", level: Number(/** @type {HTMLSelectElement} */ (level).value) },
      );
    }
    const chosen = [...options.querySelectorAll("[data-option]")].map(
      (el) => `${el.getAttribute("data-option")}=${/** @type {HTMLInputElement} */ (el).value}`,
    );
    const control = CLOCKS[Number(/** @type {HTMLSelectElement} */ (clock).value)] ?? undefined;
    remember({
      variant: v.id,
      clock: /** @type {HTMLSelectElement} */ (clock).value,
      opponent: /** @type {HTMLSelectElement} */ (opponent).value,
      level: /** @type {HTMLSelectElement} */ (level).value,
      side: sideValue,
    });
    create.setAttribute("disabled", "");
    try {
      const listed = v.players > 2 || /** @type {HTMLSelectElement} */ (opponent).value !== "friend";
      const answer = await api("POST", "/api/games", {
        listed,
        variant: v.id,
        options: chosen,
        clock: control ?? undefined,
        seats: seatList,
        me,
      });
      held.set(answer.id, me, answer.token);
      location.assign(`/games/${answer.id}`);
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), "error");
      create.removeAttribute("disabled");
    }
  });
  return (id) => {
    /** @type {HTMLSelectElement} */ (variantSelect).value = id;
    refresh();
    form.scrollIntoView({ behavior: "smooth", block: "start" });
  };
}

/**
 * The open, live and recent games.
 * @param {HTMLElement} box
 * @param {any[]} all
 */
async function showLists(box, all) {
  const [open, live, finished] = await Promise.all(
    ["open", "live", "finished"].map((status) =>
      api("GET", `/api/games?status=${status}&limit=20`)
        .then((d) => d.games)
        .catch(() => []),
    ),
  );
  drawLists(box, all, {
    open,
    live: live.filter((/** @type {any} */ g) => !open.some((/** @type {any} */ o) => o.id === g.id)),
    finished: finished.slice(0, 8),
  });
  followLobby(box, all);
}

/**
 * Keeps the lists as the server's lobby socket tells them, reconnecting after a while when
 * the connection drops, as long as the lists are on the page.
 * @param {HTMLElement} box
 * @param {any[]} all
 */
function followLobby(box, all) {
  let wait = 1000;
  const connect = () => {
    if (!box.isConnected) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/api/lobby/socket`);
    socket.addEventListener("message", (e) => {
      wait = 1000;
      if (!box.isConnected) return socket.close();
      try {
        const message = JSON.parse(String(e.data));
        if (message.t === "lobby") drawLists(box, all, message.d);
      } catch {
        // A message this page cannot read changes nothing.
      }
    });
    socket.addEventListener("close", () => {
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 30_000);
    });
  };
  connect();
}

/**
 * Who sits in a seat of a listed game: the engine at its level, a player, or nobody yet.
 * @param {{kind: string, level: number | null, joined: boolean}} seat
 */
function seatWords(seat) {
  if (seat.kind === "engine") return t("lobby.list-engine", { level: seat.level ?? 0 });
  return t(seat.joined ? "lobby.list-player" : "lobby.list-open");
}

/**
 * Draws the lobby's lists and counts.
 * @param {HTMLElement} box
 * @param {any[]} all
 * @param {{open: any[], live: any[], finished: any[], counts?: {games: number, players: number, spectators: number}}} lobby
 */
function drawLists(box, all, { open, live, finished, counts }) {
  const names = new Map(all.map((v) => [v.id, v]));
  /**
   * @param {string} title
   * @param {any[]} games
   * @param {string} empty
   */
  const table = (title, games, empty) =>
    h(
      "div",
      { class: "game-list" },
      h("h2", {}, title),
      games.length
        ? h(
            "ul",
            {},
            games.map((g) =>
              h(
                "li",
                { "data-game": g.id },
                h("a", { href: `/games/${g.id}` }, names.get(g.variant)?.name ?? g.variant),
                " ",
                h(
                  "span",
                  { class: "meta" },
                  g.result
                    ? `${g.result} · ${plies(g.ply)}`
                    : `${plies(g.ply)} · ${g.seats.map(seatWords).join(" – ")}`,
                ),
                held.get(g.id) ? h("span", { class: "yours" }, " ", t("lobby.yours")) : null,
              ),
            ),
          )
        : h("p", { class: "meta" }, empty),
    );
  replace(
    box,
    counts ? h("p", { class: "counts" }, t("lobby.counts", counts)) : null,
    table(t("lobby.open"), open, t("lobby.open-none")),
    table(t("lobby.live"), live, t("lobby.live-none")),
    table(t("lobby.finished"), finished, t("lobby.finished-none")),
    h("p", {}, h("a", { href: "/archive" }, t("lobby.archive"))),
  );
}
