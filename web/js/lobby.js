// The lobby: every ruleset with its summary, a form to start a game (against the engine, a
// friend by link, or an open seek), and the games open, live and just finished.

import { api, held, rulesPage, variants } from "./api.js";
import { lookOf, previewSvg } from "./board.js";
import { h, plies, replace, toast } from "./dom.js";

/** Clock choices offered, as the server takes them. */
const CLOCKS = [
  { label: "No clock", control: null },
  { label: "3 + 2", control: { kind: "fischer", base: 180, increment: 2 } },
  { label: "5 + 3", control: { kind: "fischer", base: 300, increment: 3 } },
  { label: "10 + 5", control: { kind: "fischer", base: 600, increment: 5 } },
  { label: "15 + 10", control: { kind: "fischer", base: 900, increment: 10 } },
  { label: "30 + 20", control: { kind: "fischer", base: 1800, increment: 20 } },
  { label: "10 min + 3×30 s byo-yomi", control: { kind: "byoyomi", base: 600, period: 30, periods: 3 } },
  { label: "30 s a move", control: { kind: "move", seconds: 30 } },
  { label: "1 day a move", control: { kind: "days", days: 1 } },
  { label: "3 days a move", control: { kind: "days", days: 3 } },
];

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
  const all = [...(await variants()).values()];
  const form = h("form", { class: "new-game", id: "new-game" });
  const cards = h("div", { class: "variant-cards" });
  const lists = h("div", { class: "game-lists" });
  replace(
    app,
    h(
      "div",
      { class: "lobby" },
      h("section", { class: "start" }, h("h1", {}, "Start a game"), form),
      h("section", { class: "games" }, lists),
      h("section", { class: "catalogue" }, h("h2", {}, `${all.length} games`), cards),
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
        `${v.players} players · ${v.boards.length > 1 ? "two boards" : boardSize(v.boards[0])}`,
      ),
      summary,
      h(
        "div",
        { class: "card-actions" },
        h("button", { type: "button", class: "pick", "data-pick": v.id, onclick: () => choose(v.id) }, "Play"),
        h("a", { href: `/rules/${v.id}` }, "Rules"),
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
  if (drawing.lattice === "hex") return `${drawing.cells.length} hexagons`;
  if (drawing.lattice === "linked") return `${drawing.cells.length} cells`;
  return `${drawing.width}×${drawing.height}`;
}

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

/**
 * The new-game form; answers a function that selects a ruleset in it.
 * @param {HTMLElement} form
 * @param {any[]} all
 * @returns {(id: string) => void}
 */
function buildForm(form, all) {
  const variantSelect = h(
    "select",
    { name: "variant", "aria-label": "game" },
    all.map((v) => h("option", { value: v.id }, v.name)),
  );
  const options = h("div", { class: "options" });
  const clock = h(
    "select",
    { name: "clock", "aria-label": "clock" },
    CLOCKS.map((c, i) => h("option", { value: i }, c.label)),
  );
  const opponent = h(
    "select",
    { name: "opponent", "aria-label": "opponent" },
    h("option", { value: "engine" }, "The engine"),
    h("option", { value: "friend" }, "A friend (send a link)"),
    h("option", { value: "seek" }, "Anyone (open seek in the lobby)"),
  );
  const level = h(
    "select",
    { name: "level", "aria-label": "engine level" },
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h("option", { value: n, selected: n === 3 }, `level ${n}`)),
  );
  const side = h("select", { name: "side", "aria-label": "your side" });
  const seats = h("div", { class: "seats" });
  const create = h("button", { type: "submit", class: "create" }, "Create game");
  form.append(
    h("label", {}, "Game ", variantSelect),
    options,
    h("label", {}, "Clock ", clock),
    h("label", { class: "two-only" }, "Opponent ", opponent),
    h("label", { class: "two-only engine-only" }, "Strength ", level),
    h("label", {}, "You play ", side),
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
              o.values.map((/** @type {string} */ w) => h("option", { value: w, selected: w === o.default }, w)),
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
      v.player_names.map((/** @type {string} */ n, /** @type {number} */ i) => h("option", { value: i }, n)),
      v.players === 2 ? h("option", { value: "random" }, "either (random)") : null,
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
              `${n} `,
              h(
                "select",
                { "data-seat": i },
                h("option", { value: "human" }, "a person"),
                [1, 2, 3, 4, 5, 6, 7, 8].map((l) => h("option", { value: `engine-${l}` }, `engine level ${l}`)),
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
    const control = CLOCKS[Number(/** @type {HTMLSelectElement} */ (clock).value)]?.control ?? undefined;
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
                    : `${plies(g.ply)} · ${g.seats.map((/** @type {any} */ s) => (s.kind === "engine" ? `engine ${s.level}` : s.joined ? "player" : "open")).join(" – ")}`,
                ),
                held.get(g.id) ? h("span", { class: "yours" }, " (yours)") : null,
              ),
            ),
          )
        : h("p", { class: "meta" }, empty),
    );
  const plural = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) =>
    `${n} ${n === 1 ? one : many}`;
  replace(
    box,
    counts
      ? h(
          "p",
          { class: "counts" },
          `${plural(counts.games, "game", "games")} being played · ${plural(counts.players, "player", "players")} at the board · ${plural(counts.spectators, "spectator", "spectators")}`,
        )
      : null,
    table("Open games", open, "No one is waiting for an opponent."),
    table("Playing now", live, "No games are being played."),
    table("Just finished", finished, "No finished games yet."),
    h("p", {}, h("a", { href: "/archive" }, "All finished games →")),
  );
}
