// The game page: `/games/{id}`, and `/games/{id}#seat=TOKEN` to play a seat. The board,
// the clocks, the moves, the actions; every state comes from the server's socket. The browser
// keeps every seat it holds in a game (api.js `held`): a link to another seat asks before the
// page plays it, and the page switches between the seats held.

import { api, ApiError, explainOption, held, variants } from "./api.js";
import { BoardView, kindOf, legendList, lookOf, manSvg, movesInWords, sideName } from "./board.js";
import { diagramSvg } from "./diagram.js";
import { ClockView, describeControl } from "./clock.js";
import { h, replace, toast } from "./dom.js";
import { formatList, has, t } from "./i18n.js";
import { choiceLabel, Picker } from "./input.js";
import { GameSocket } from "./socket.js";
import { onChange as onSettings, settings, update } from "./settings.js";
import { play as playSound } from "./sound.js";
import { numberTurns } from "./turns.js";

/**
 * @typedef {import("./board.js").Shape} Shape
 * @typedef {import("./board.js").SceneBoard} SceneBoard
 * @typedef {import("./board.js").Spot} Spot
 * @typedef {import("./input.js").Legal} Legal
 * @typedef {import("./input.js").Outcome} Outcome
 * @typedef {{seat: number, kind: string, level?: number, joined: boolean, arrived?: boolean, gone?: boolean}} Seat
 * @typedef {{
 *   id: string, variant: string, options: string[], version: number, status: string,
 *   options_in_words?: {name: string, label: string, value: string, words: string}[],
 *   result?: string, reason?: string, scores?: number[], started: boolean, ply: number,
 *   players: number, player_names: string[], teams: number[], side_to_move: number,
 *   to_move: number[], fen?: string, boards: SceneBoard[], check: string[], note?: string,
 *   last_move: Shape | null, moves: (string | null)[], notation?: (string | null)[], notations?: Record<string, (string | null)[]>, movers?: number[], clocks: import("./clock.js").Clocks | null,
 *   seats: Seat[], offers: {draw: number[], takeback: number | null, action: {by: number, action: string, consent: number} | null, rematch?: number[]},
 *   you: number | null, legal?: Legal[], actions?: string[], claims?: string[],
 *   first_move?: {seats: number[], ms: number}, rematch?: string
 * }} State
 * @typedef {{ply: number, boards: SceneBoard[], check: string[], note?: string, last_move: Shape | null}} Past
 */

/**
 * The game as `token` may see it; null where the server knows no such seat.
 * @param {string} id
 * @param {string | null} token
 * @returns {Promise<State | null>}
 */
async function look(id, token) {
  try {
    const s = await api("GET", `/api/games/${encodeURIComponent(id)}`, undefined, token);
    return token && s.you === null ? null : s;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && token) return null;
    throw e;
  }
}

/**
 * What a `#seat=TOKEN` link does in a browser that plays `playing` (null: watches): it plays
 * the link's seat where nothing is lost by it (no seat played, or one the browser holds), and
 * asks first where the browser plays another seat of the game.
 * @param {string} id
 * @param {string} token
 * @param {number | null} playing
 * @returns {Promise<{play: State} | {ask: import("./api.js").Held} | null>} null: no seat's link
 */
async function followLink(id, token, playing) {
  const linked = await look(id, token);
  if (!linked || linked.you === null) return null;
  const kept = held.all(id);
  if (playing === null || kept.some((seat) => seat.seat === linked.you || seat.token === token)) {
    return { play: linked };
  }
  return { ask: { seat: linked.you, token } };
}

/**
 * The token of a `#seat=TOKEN` address, taken out of the address bar (it is a password).
 * @returns {string | null}
 */
function linkToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  return token;
}

/**
 * The player a resignation in favour of one names (`resign red`, three-player chess), if
 * `action` is one.
 * @param {string} action
 */
function favouredBy(action) {
  return action.match(/^resign[ -](.+)$/)?.[1] ?? null;
}

/**
 * The words of a ruleset's action button: `resign red` is a resignation that gives the win to
 * Red (three-player chess).
 * @param {string} action
 */
function actionLabel(action) {
  const favoured = favouredBy(action);
  if (favoured) return t("game.action.resign-to", { player: capital(sideName(favoured)) });
  if (has(`game.action.${action}`)) return t(`game.action.${action}`);
  return capital(action.replaceAll("-", " "));
}

/**
 * A move that is a word rather than a cell (Chex's `draw`) in the page's language; other
 * move texts as they are.
 * @param {string} text
 */
function moveButtonWords(text) {
  return has(`game.move-word.${text}`) ? t(`game.move-word.${text}`) : text;
}

/**
 * Why a game ended, in words (`time-forfeit`); a reason without a message as the server
 * writes it, dashes for spaces.
 * @param {string} reason
 */
function reasonWords(reason) {
  return has(`result.reason.${reason}`) ? t(`result.reason.${reason}`) : reason.replaceAll("-", " ");
}

/**
 * A region of the board in words (`promotion-zone`); one without a message as the ruleset
 * names it, dashes for spaces.
 * @param {string} region
 */
function regionWords(region) {
  return has(`game.region.${region}`) ? t(`game.region.${region}`) : region.replaceAll("-", " ");
}

/**
 * Opens the game page as the seat this browser played last in the game, or as a link's seat
 * (see `followLink`).
 * @param {HTMLElement} app
 * @param {string} id
 */
export async function gamePage(app, id) {
  const fromAddress = linkToken();
  /** @type {State | null} */
  let state = null;
  let token = null;
  /** @type {import("./api.js").Held | null} a link's seat to ask about */
  let offered = null;
  try {
    const kept = held.all(id);
    for (const seat of kept) {
      state = await look(id, seat.token);
      if (state) {
        token = seat.token;
        break;
      }
    }
    if (kept.length && !state) toast(t("seat.lost"), "error");
    if (fromAddress && fromAddress !== token) {
      const link = await followLink(id, fromAddress, state?.you ?? null);
      if (!link) {
        toast(t(state ? "seat.link-invalid" : "seat.link-invalid-watching"), "error");
      } else if ("play" in link) {
        state = link.play;
        token = fromAddress;
      } else {
        offered = link.ask;
      }
    }
    state ??= /** @type {State} */ (await look(id, null));
  } catch (e) {
    replace(app, h("p", { class: "error" }, e instanceof Error ? e.message : String(e)));
    return;
  }
  if (token && state.you !== null) held.set(id, state.you, token);
  const variant = (await variants()).get(state.variant);
  if (!variant) {
    replace(app, h("p", { class: "error" }, t("game.unknown-ruleset", { id: state.variant })));
    return;
  }
  new GamePage(app, variant, state, token, offered).start();
}

/**
 * A notation a player may choose, in words with an example (`""`: SAN); one without a
 * message by its name.
 * @param {string} name
 */
function notationWords(name) {
  const known = name || "san";
  return has(`notation.${known}`) ? t(`notation.${known}`) : name;
}

/** Figurines of the chess men, by SAN letter (one shape for both colours, as books print). */
const FIGURINES = /** @type {Record<string, string>} */ ({ K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘" });

/**
 * A SAN move with figurines for the men's letters: `Nf3` → `♘f3`, `e8=Q` → `e8=♕`.
 * @param {string} san
 */
export function figurines(san) {
  return san.replace(/(^|[=@\s])([KQRBN])(?=[a-z@x]|$)/g, (_, before, letter) => before + FIGURINES[letter]);
}

/**
 * How many men stand on the boards: one fewer after a capture (a drop adds one).
 * @param {State} s
 */
function menOnBoards(s) {
  return s.boards.reduce((n, b) => n + b.men.length, 0);
}

class GamePage {
  /**
   * @param {HTMLElement} app
   * @param {any} variant
   * @param {State} state
   * @param {string | null} token
   * @param {import("./api.js").Held | null} offered a link's seat the page asks about
   */
  constructor(app, variant, state, token, offered) {
    this.app = app;
    this.variant = variant;
    this.state = state;
    this.token = token;
    this.offered = offered;
    /** @type {number | null} the ply shown when looking back; null: the game now */
    this.viewPly = null;
    /** @type {Map<number, Past>} */
    this.past = new Map();
    this.flipped = false;
    /** @type {Spot | null} the cell whose man the piece info names */
    this.described = null;
    this.picker = new Picker([]);
    /** @type {Legal[] | null} */
    this.choosing = null;
    /** @type {{board: number, from: string, to: string} | null} */
    this.premove = null;
    /** @type {Spot | null} */
    this.premoveFrom = null;
    /** @type {string | null} */
    this.region = null;
    this.clocks = new ClockView();
    this.clocks.onLow = () => playSound("low");
    /** @type {ReturnType<typeof setInterval> | undefined} counts the first-move window down */
    this.countdown = undefined;
    /** when the state with the first-move window came */
    this.received = performance.now();
    this.ack = 0;
    /** @type {number | null} */
    this.turnSince = null;
    /** @type {import("./board.js").Look} */
    this.look = lookOf(variant);
    this.el = this.layout();
    this.board = new BoardView(this.el.boards, this.look, {
      cell: (spot) => this.onCell(spot),
      hand: (board, owner, piece) => this.onOutcome(this.picker.hand(board, owner, piece)),
      drag: (from, to) => this.onDrag(from, to),
      hover: (spot) => this.describeMan(spot),
    });
    // A new piece set or notation is drawn at once.
    onSettings(() => {
      this.look = lookOf(variant);
      this.board.look = this.look;
      this.render();
    });
    this.socket = new GameSocket(state.id, token, {
      state: (s) => this.onState(s),
      event: (t, d) => this.onEvent(t, d),
      ack: () => {},
      error: (message) => this.onRefused(message),
      status: (connected) => this.el.connection.classList.toggle("offline", !connected),
    });
  }

  layout() {
    const v = this.variant;
    const el = {
      boards: h("div", { class: "boards", id: "boards" }),
      top: h("div", { class: "players top" }),
      bottom: h("div", { class: "players bottom" }),
      chooser: h("div", { class: "chooser", hidden: true }),
      question: h("div", {
        class: "seat-question",
        role: "dialog",
        "aria-labelledby": "seat-question-title",
        hidden: true,
      }),
      seats: h("div", { class: "seat-switch", role: "group", "aria-label": t("seat.switch-label"), hidden: true }),
      banner: h("div", { class: "banner", hidden: true }),
      status: h("div", { class: "status", role: "status" }),
      note: h("div", { class: "note" }),
      pieceInfo: h("div", { class: "piece-info", "aria-live": "polite" }),
      buttons: h("div", { class: "move-buttons" }),
      moves: h("ol", { class: "moves" }),
      nav: h("div", { class: "nav" }),
      writing: h("select", {
        class: "notation-choice",
        "aria-label": t("notation.label"),
        hidden: true,
        onchange: (/** @type {Event} */ e) => {
          const value = /** @type {HTMLSelectElement} */ (e.target).value;
          update({ notation: { ...settings().notation, [this.state.variant]: value } });
        },
      }),
      keyboard: h("input", {
        class: "keyboard",
        placeholder: t("game.keyboard-placeholder"),
        "aria-label": t("game.keyboard-label"),
        autocomplete: "off",
        spellcheck: "false",
      }),
      keyboardForm: h("form", { class: "keyboard-form" }),
      actions: h("div", { class: "actions" }),
      offers: h("div", { class: "offers" }),
      invite: h("div", { class: "invite" }),
      legend: h("div", { class: "legend-holder" }),
      connection: h("span", {
        class: "connection",
        title: t("game.connection"),
        "data-offline": t("game.reconnecting"),
      }),
      info: h("div", { class: "info" }),
    };
    const form = el.keyboardForm;
    form.append(el.keyboard);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.typed();
    });
    /** @type {[string, string, () => void][]} */
    const nav = [
      ["«", "game.nav.first", () => this.view(0)],
      ["‹", "game.nav.back", () => this.step(-1)],
      ["›", "game.nav.forward", () => this.step(1)],
      ["»", "game.nav.now", () => this.view(null)],
    ];
    for (const [text, key, act] of nav) {
      const label = t(key);
      el.nav.append(h("button", { type: "button", "aria-label": label, title: label, onclick: act }, text));
    }
    replace(
      this.app,
      h(
        "div",
        { class: "game-page", "data-variant": v.id },
        h(
          "section",
          { class: "play-area" },
          el.top,
          h("div", { class: "board-area" }, el.boards, el.chooser, el.question),
          el.bottom,
        ),
        h(
          "aside",
          { class: "side" },
          h(
            "div",
            { class: "title" },
            h("a", { href: `/rules/${v.id}`, class: "rules-link" }, v.name),
            " ",
            el.connection,
          ),
          el.info,
          el.seats,
          el.banner,
          el.status,
          el.note,
          el.pieceInfo,
          el.offers,
          el.buttons,
          h("div", { class: "moves-box" }, el.moves),
          el.nav,
          el.writing,
          form,
          el.actions,
          el.invite,
          h("details", { class: "legend-box" }, h("summary", {}, t("game.pieces")), el.legend),
        ),
      ),
    );
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement) return;
      if (e.key === "ArrowLeft") this.step(-1);
      else if (e.key === "ArrowRight") this.step(1);
      else if (e.key === "Escape") this.cancel();
      else if (e.key === "f") this.flip();
    });
    el.boards.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      this.cancel();
    });
    return el;
  }

  start() {
    this.legend();
    this.onState(this.state);
    this.socket.connect(this.state.version);
    this.renderQuestion();
    // A seat's link opened over this page changes only what follows `#`: no new page.
    window.addEventListener("hashchange", () => {
      const token = linkToken();
      if (token) void this.onLink(token);
    });
  }

  /**
   * A seat's link opened while the page is open.
   * @param {string} token
   */
  async onLink(token) {
    if (token === this.token) return;
    try {
      const link = await followLink(this.state.id, token, this.state.you);
      if (!link) toast(t("seat.link-invalid"), "error");
      else if ("play" in link) await this.playSeat(token);
      else {
        this.offered = link.ask;
        this.renderQuestion();
      }
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e), "error");
    }
  }

  /** The seat looked from: the viewer's, or the first player's. */
  viewer() {
    return this.state.you ?? 0;
  }

  /** @param {State} s */
  onState(s) {
    const before = this.state;
    const takenBack = s.moves.length < before.moves.length;
    if (takenBack || s.id !== before.id) this.past.clear();
    this.state = s;
    // A chooser stays open while its moves are still to be had (bughouse: a move on the other
    // board).
    if (this.choosing && s.moves.length !== before.moves.length) {
      const still = new Set(this.myLegal().map((m) => m.text));
      if (!this.choosing.every((m) => still.has(m.text))) this.cancelChoice();
    }
    this.received = performance.now();
    // When this page's turn began, for the thinking time its move reports: the server
    // forgives the rest of the turn's time as network lag, up to a quota.
    const mine = s.you !== null && s.to_move.includes(s.you);
    if (!mine) this.turnSince = null;
    else if (this.turnSince === null) this.turnSince = performance.now();
    // A state that leaves the turn as it was (an offer, a join, the socket's first state after
    // the page's own) keeps a half-made move: a man picked up stays in hand.
    const sameTurn =
      s !== before &&
      s.id === before.id &&
      s.moves.length === before.moves.length &&
      s.you === before.you &&
      legalTexts(s) === legalTexts(before);
    if (!sameTurn) this.picker = Picker.carrying(this.picker, this.myLegal(), s.you);
    if (this.viewPly !== null && this.viewPly > s.moves.length) this.viewPly = null;
    if (s.id === before.id && s.moves.length === before.moves.length + 1) {
      playSound(s.check.length ? "check" : menOnBoards(s) < menOnBoards(before) ? "capture" : "move");
      this.board.slide(s.last_move);
    }
    this.render();
    this.tryPremove();
  }

  /** The moves this page may play now. */
  myLegal() {
    const s = this.state;
    if (this.viewPly !== null || s.you === null || !s.to_move.includes(s.you)) return [];
    return s.legal ?? [];
  }

  /**
   * @param {string} type
   * @param {any} data
   */
  onEvent(type, data) {
    const me = this.state.you;
    const fromOther = me !== null && data?.seat !== me;
    if (type === "end") playSound("end");
    else if (type === "draw-offer" && fromOther) toast(t("offer.draw-offered"));
    else if (type === "takeback-offer" && fromOther) toast(t("offer.takeback-asked"));
    else if (type === "rematch-offer" && fromOther) toast(t("offer.rematch-offered"));
    else if (type === "gone" && fromOther) toast(t("game.player-left"));
    else if (type === "abort" && has(`result.abort.${data?.reason}`)) toast(t(`result.abort.${data.reason}`));
    else if (type === "rematch" && me !== null && this.token) {
      // Everyone goes on to the new game, the same token on the other colour: every seat
      // this browser holds, the one it plays last so that it is played there too.
      const seats = /** @type {unknown[]} */ (data.seats ?? []);
      const mine = held.all(this.state.id).reverse();
      for (const kept of mine) {
        const seat = seats[kept.seat];
        if (typeof seat === "number") held.set(data.game, seat, kept.token);
      }
      if (typeof seats[me] === "number") {
        this.socket.close();
        location.assign(`/games/${encodeURIComponent(data.game)}`);
      }
    }
  }

  /** @param {string} message */
  onRefused(message) {
    toast(message, "error");
    this.picker.clear();
    this.render();
  }

  render() {
    const s = this.state;
    const ply = this.viewPly;
    const past = ply !== null ? this.past.get(ply) : null;
    const boards = past ? past.boards : s.boards;
    const last = past ? past.last_move : s.last_move;
    this.board.show(this.variant.boards, boards, last, this.viewer(), this.flipped);
    this.board.mark(this.marks());
    this.renderPlayers();
    this.renderStatus();
    this.renderMoves();
    this.renderActions();
    this.renderOffers();
    this.renderInvite();
    this.renderSeats();
    this.renderChooser();
    // The man named by a tap is followed to where he moved; a cell he left is not named.
    const named = this.described;
    if (named) {
      const here = last && (last.board ?? 0) === named.board;
      const moved = here && last.from === named.cell && last.to;
      if (moved) this.describeMan({ board: named.board, cell: moved });
      else if (here && last.to === named.cell) {
        // Taken: another man stands there now.
        this.described = null;
        this.clearPieceInfo();
      } else this.describeMan(named);
    }
    // Only a player types moves.
    this.el.keyboardForm.hidden = s.you === null || s.status !== "ongoing";
    const note = past ? past.note : s.note;
    this.el.note.textContent = note ? t("game.note", { note }) : "";
  }

  marks() {
    const marks = this.picker.marks((spot) => this.occupied(spot));
    marks.region = this.region;
    if (this.premove) {
      marks.path = [
        ...(marks.path ?? []),
        { board: this.premove.board, cell: this.premove.from },
        { board: this.premove.board, cell: this.premove.to },
      ];
    }
    if (this.premoveFrom) marks.selected = this.premoveFrom;
    return marks;
  }

  /**
   * Names the man on a clicked or tapped cell and says how it moves (the legend, from the
   * server), so a phone without hover can ask too.
   * @param {Spot} spot
   */
  describeMan(spot) {
    this.described = spot;
    const boards = this.viewPly !== null ? this.past.get(this.viewPly)?.boards : this.state.boards;
    const man = boards?.[spot.board]?.men.find((m) => m.cell === spot.cell);
    if (!man) {
      this.clearPieceInfo();
      return;
    }
    const kind = kindOf(this.look, man.piece);
    const named = {
      owner: this.seatName(man.owner),
      piece: kind.name,
      cell: spot.cell,
    };
    const words = movesInWords(kind);
    const text = words ? t("game.piece-info-moves", { ...named, moves: words }) : t("game.piece-info", named);
    // Said again only when it changes: the line is read out to those who listen.
    const info = this.el.pieceInfo;
    if (info.dataset.said === text) return;
    info.dataset.said = text;
    info.innerHTML = "";
    info.append(h("span", { class: "said" }, text));
    if (kind.diagram)
      info.insertAdjacentHTML("beforeend", diagramSvg(kind.diagram, t("game.piece-diagram", { piece: kind.name })));
  }

  /** Names no man. */
  clearPieceInfo() {
    this.el.pieceInfo.textContent = "";
    this.el.pieceInfo.dataset.said = "";
  }

  /** @param {Spot} spot */
  occupied(spot) {
    return (this.state.boards[spot.board]?.men ?? []).some((m) => m.cell === spot.cell);
  }

  /** @param {Spot} spot */
  onCell(spot) {
    if (this.viewPly !== null) {
      this.describeMan(spot);
      return;
    }
    if (this.choosing) this.cancelChoice();
    const s = this.state;
    if (s.status === "ongoing" && s.you !== null && s.started && !s.to_move.includes(s.you)) {
      this.premoveClick(spot);
      return;
    }
    const outcome = this.picker.cell(spot);
    // A click that ends a move is not a question about the man it captures.
    if (outcome.kind !== "play" && outcome.kind !== "choose") this.describeMan(spot);
    this.onOutcome(outcome);
  }

  /**
   * @param {Spot} from
   * @param {Spot} to
   */
  onDrag(from, to) {
    if (this.viewPly !== null) return;
    const s = this.state;
    if (s.status === "ongoing" && s.you !== null && !s.to_move.includes(s.you)) {
      this.premoveFrom = from;
      this.premoveClick(to);
      return;
    }
    this.onOutcome(this.picker.drag(from, to));
  }

  /**
   * A premove: a man of the viewer's and a cell, played when the turn comes if it is then
   * legal (the server decides; the page knows no rules).
   * @param {Spot} spot
   */
  premoveClick(spot) {
    const own = (this.state.boards[spot.board]?.men ?? []).find(
      (m) => m.cell === spot.cell && m.owner === this.state.you,
    );
    if (this.premoveFrom && this.premoveFrom.board === spot.board && this.premoveFrom.cell !== spot.cell) {
      this.premove = { board: spot.board, from: this.premoveFrom.cell, to: spot.cell };
      this.premoveFrom = null;
    } else if (own) {
      this.premove = null;
      this.premoveFrom = this.premoveFrom?.cell === spot.cell ? null : spot;
    } else {
      this.premove = null;
      this.premoveFrom = null;
    }
    this.board.mark(this.marks());
  }

  tryPremove() {
    const p = this.premove;
    const legal = this.myLegal();
    if (!p || !legal.length) return;
    this.premove = null;
    const moves = legal.filter(
      (m) => (m.board ?? 0) === p.board && m.from === p.from && m.to === p.to && !(m.via ?? []).length,
    );
    // Several moves (promotions): the first the server lists, as lichess premoves a queen.
    if (moves.length) this.send(moves[0]);
    else this.board.mark(this.marks());
  }

  /** @param {Outcome} outcome */
  onOutcome(outcome) {
    if (outcome.kind === "play") this.send(outcome.move);
    else if (outcome.kind === "choose") {
      this.choosing = outcome.moves;
      this.renderChooser();
    }
    this.board.mark(this.marks());
  }

  cancelChoice() {
    this.choosing = null;
    this.el.chooser.hidden = true;
  }

  cancel() {
    this.cancelChoice();
    this.picker.clear();
    this.premove = null;
    this.premoveFrom = null;
    this.board.mark(this.marks());
  }

  renderChooser() {
    const moves = this.choosing;
    const box = this.el.chooser;
    if (!moves) {
      box.hidden = true;
      return;
    }
    const you = this.state.you ?? 0;
    const buttons = moves.map((m) => {
      const { piece, label } = choiceLabel(m, moves);
      const content = piece
        ? h("span", { class: "choice-man" })
        : h(
            "span",
            {},
            m.split !== undefined ? t("game.choice.split", { count: label, height: this.heightAt(m) }) : label,
          );
      if (piece) content.innerHTML = `<svg viewBox="0 0 100 100">${manSvg(this.look, piece, you, false)}</svg>`;
      return h(
        "button",
        {
          type: "button",
          class: "choice",
          "data-move": m.text,
          "data-piece": piece ?? null,
          title: piece ? kindOf(this.look, piece).name : label,
          onclick: () => {
            this.cancelChoice();
            this.picker.clear();
            this.send(m);
          },
        },
        content,
      );
    });
    const title = t(moves.some((m) => m.split !== undefined) ? "game.choice.split-title" : "game.choice.promote-title");
    replace(
      box,
      h("div", { class: "chooser-title" }, title),
      h("div", { class: "choices" }, buttons),
      h("button", { type: "button", class: "cancel", onclick: () => this.cancel() }, t("game.choice.cancel")),
    );
    box.hidden = false;
  }

  /** @param {Legal} m */
  heightAt(m) {
    const man = (this.state.boards[m.board ?? 0]?.men ?? []).find((x) => x.cell === m.from);
    return man?.height ?? 1;
  }

  /** @param {Legal} move */
  send(move) {
    const k = ++this.ack;
    const thinkMs = this.turnSince === null ? undefined : Math.round(performance.now() - this.turnSince);
    this.socket
      .move(move.text, this.state.ply, k, thinkMs)
      .catch((e) => this.onRefused(e instanceof Error ? e.message : String(e)));
    this.picker = new Picker([]);
    this.board.mark({});
  }

  typed() {
    const text = /** @type {HTMLInputElement} */ (this.el.keyboard).value.trim();
    if (!text) return;
    /** @type {HTMLInputElement} */ (this.el.keyboard).value = "";
    const legal = this.myLegal();
    if (!legal.length) {
      toast(t("game.not-your-move"), "error");
      return;
    }
    const exact = legal.find((m) => m.text === text);
    // Other notations (SAN, KIF-style drops) are read by the server.
    this.send(exact ?? { text });
  }

  renderPlayers() {
    const s = this.state;
    const mine = [this.viewer()];
    const others = s.seats.map((seat) => seat.seat).filter((n) => n !== mine[0]);
    // Flipped, the others sit at the bottom of the board, and so do their bars.
    const [top, bottom] = this.flipped ? [mine, others] : [others, mine];
    const row = (/** @type {number} */ n) => {
      const seat = s.seats[n];
      const clock = h("span", { class: "clock", "data-seat": n });
      // A clock stands until its player's first move: it waits, it does not run.
      if (s.status === "ongoing" && !(s.movers ?? []).includes(n) && !s.clocks?.seats[n]?.running) {
        clock.classList.add("waiting");
        clock.title = t("clock.waiting-title");
      }
      this.clocks.attach(n, clock);
      return h(
        "div",
        { class: `player${s.to_move.includes(n) ? " to-move" : ""}`, "data-seat": n },
        h("span", { class: `swatch colour-${this.look.colours[n]}` }),
        h("span", { class: "name" }, this.playerWord(n)),
        h("span", { class: "who" }, this.who(seat)),
        s.clocks ? clock : null,
      );
    };
    const perBoard = s.boards.length > 1 ? this.seatsByBoard() : null;
    if (perBoard) {
      // Each board's players at its own edges, so that a phone, where the boards stand one
      // under the other, shows a player's bar next to the board the player plays on.
      replace(this.el.top);
      replace(this.el.bottom);
      for (const [b, seats] of perBoard) {
        const bottomSeat = this.board.shownBottomOf(b);
        const slot = (/** @type {string} */ side) =>
          this.el.boards.querySelector(`.players.${side}[data-board="${b}"]`);
        slot("top")?.replaceChildren(...seats.filter((n) => n !== bottomSeat).map(row));
        slot("bottom")?.replaceChildren(...seats.filter((n) => n === bottomSeat).map(row));
      }
    } else {
      replace(this.el.top, top.map(row));
      replace(this.el.bottom, bottom.map(row));
    }
    this.clocks.watched = s.you;
    this.clocks.update(s.clocks, s.status === "ongoing");
  }

  /**
   * Who sits at a seat, for its player's bar: the engine, nobody yet, you, someone gone...
   * @param {Seat} seat
   */
  who(seat) {
    if (seat.kind === "engine") return t("game.who.engine", { level: seat.level ?? 0 });
    if (!seat.joined) return t("game.who.waiting");
    if (seat.seat === this.state.you) return t("game.who.you");
    if (seat.gone) return t("game.who.gone");
    if (seat.arrived === false) return t("game.who.away");
    return t("game.who.player");
  }

  /**
   * The seats on each board of a game of several boards, each seat on the first board it has
   * men or a hand on; a seat on none (a board not drawn) goes with the first board.
   * @returns {Map<number, number[]>}
   */
  seatsByBoard() {
    const s = this.state;
    /** @type {Map<number, number[]>} */
    const byBoard = new Map(s.boards.map((_, b) => [b, []]));
    for (const seat of s.seats) {
      const b = s.boards.findIndex((_, i) => this.board.ownersOn(i).includes(seat.seat));
      byBoard.get(Math.max(b, 0))?.push(seat.seat);
    }
    return byBoard;
  }

  renderStatus() {
    const s = this.state;
    const banner = this.el.banner;
    if (s.status !== "ongoing") {
      const result = s.result ?? "*";
      banner.hidden = false;
      banner.setAttribute("data-result", result);
      replace(
        banner,
        h("strong", {}, s.status === "aborted" ? t("result.aborted") : result),
        s.reason ? h("span", {}, ` · ${reasonWords(s.reason)}`) : null,
        this.winnerText(),
      );
      this.el.status.textContent = "";
    } else {
      banner.hidden = true;
      banner.removeAttribute("data-result");
      this.el.status.textContent = this.statusLine();
    }
    // The first-move window counts down on the page between states.
    clearInterval(this.countdown);
    this.countdown = undefined;
    if (s.status === "ongoing" && s.first_move && this.viewPly === null) {
      this.countdown = setInterval(() => this.renderStatus(), 1000);
    }
    if (this.viewPly !== null) {
      this.el.status.textContent =
        this.viewPly === 0
          ? t("game.status.start-position")
          : t("game.status.after-move", { ply: this.viewPly, plies: s.moves.length });
    }
    replace(
      this.el.info,
      h("span", { class: "control" }, describeControl(s.clocks?.control)),
      (s.options_in_words ?? []).length
        ? h(
            "ul",
            { class: "rule-options" },
            (s.options_in_words ?? []).map((o) => {
              // In the reader's language from the listing; the state's English where it lacks the option.
              const spec = (this.variant.options ?? []).find((/** @type {{name: string}} */ x) => x.name === o.name);
              const label = spec?.label ?? o.label;
              const words = spec ? explainOption(spec, o.value) || o.words : o.words;
              return h(
                "li",
                { "data-option": o.name, title: `${o.name}=${o.value}` },
                h("b", {}, t("game.option-label", { label })),
                words,
              );
            }),
          )
        : null,
    );
    replace(
      this.el.buttons,
      this.picker
        .buttons()
        .map((m) =>
          h(
            "button",
            { type: "button", class: "move-button", "data-move": m.text, onclick: () => this.send(m) },
            moveButtonWords(m.part ?? m.text),
          ),
        ),
    );
  }

  /** The status line of a game going on: who moves, check, the first move's countdown. */
  statusLine() {
    const s = this.state;
    const parts = [];
    if (!s.started) parts.push(t("game.status.waiting-for-seats"));
    else if (s.to_move.length) parts.push(t("game.status.to-move", this.withYou(s.to_move)));
    if (s.check.length) parts.push(t("game.status.check"));
    const first = s.first_move;
    if (first) {
      const seconds = Math.max(0, Math.ceil((first.ms - (performance.now() - this.received)) / 1000));
      parts.push(t("game.status.first-move", { ...this.withYou(first.seats), seconds }));
    }
    return parts.join(" · ");
  }

  /**
   * Seats named for a message that speaks to the reader apart: `you` is `only` (the reader
   * alone), `with` (the reader and `players`) or `without`; `players` names the others.
   * @param {number[]} seats
   * @returns {{you: string, players: string}}
   */
  withYou(seats) {
    const others = seats.filter((n) => n !== this.state.you);
    const you = others.length === seats.length ? "without" : others.length ? "with" : "only";
    return { you, players: others.map((n) => this.seatName(n)).join(", ") };
  }

  winnerText() {
    const s = this.state;
    if (!s.scores) return null;
    const best = Math.max(...s.scores);
    const winners = s.scores
      .map((q, n) => (q === best && best > 0 && s.scores?.some((o) => o < best) ? n : -1))
      .filter((n) => n >= 0);
    if (!winners.length) return h("div", {}, t("result.draw"));
    const players = formatList(winners.map((n) => this.seatName(n)));
    return h("div", {}, t("result.won", { players, count: winners.length }));
  }

  renderMoves() {
    const s = this.state;
    const list = this.el.moves;
    // Each board's players, once: the list may be hundreds of moves long.
    const players = s.boards.map((_, b) => this.board.ownersOn(b));
    const turns = numberTurns(
      s.moves.map((_, i) => s.movers?.[i] ?? i % s.players),
      (seat) =>
        Math.max(
          players.findIndex((owners) => owners.includes(seat)),
          0,
        ),
      (b) => players[b] ?? [],
      s.boards.length,
    );
    const now = this.viewPly ?? s.moves.length;
    const written = this.writtenMoves();
    const items = turns.map((turn) =>
      h(
        "li",
        { class: "turn", "data-number": turn.label, "data-seat": turn.seat },
        ...turn.plies.map((ply) => {
          const coordinate = s.moves[ply - 1];
          const text = written[ply - 1] ?? coordinate;
          const item = h(
            "span",
            {
              class: `move${now === ply ? " current" : ""}${text === null ? " hidden-move" : ""}`,
              "data-ply": ply,
              "data-move": coordinate,
              onclick: () => this.view(ply),
            },
            text ?? "?",
          );
          if (text !== coordinate && coordinate) item.title = coordinate;
          return item;
        }),
      ),
    );
    replace(list, items);
    this.renderWriting();
    list.classList.toggle("two-columns", s.players === 2 && s.boards.length === 1);
    const current = list.querySelector(".current");
    if (current && this.viewPly === null) list.parentElement?.scrollTo({ top: list.scrollHeight });
  }

  /**
   * The moves in the notation the player chose for this ruleset (`notations` of the state),
   * else as people read them (`notation`), chess men as figurines if he wants.
   * @returns {(string | null)[]}
   */
  writtenMoves() {
    const s = this.state;
    const chosen = this.notationName();
    const own = chosen ? s.notations?.[chosen] : undefined;
    const texts = own ?? s.notation ?? s.moves;
    if (own || !settings().figurines || this.look.style !== "western") return texts;
    return texts.map((t) => (t === null ? t : figurines(t)));
  }

  /**
   * The notation the moves are written in: the player's choice for this ruleset, else the
   * one its players read most (Western for the shogi family, WXF for xiangqi), else SAN
   * (`""`).
   */
  notationName() {
    const names = Object.keys(this.state.notations ?? {});
    const chosen = settings().notation[this.state.variant];
    if (chosen !== undefined && (chosen === "" || names.includes(chosen))) return chosen;
    return names.find((n) => n === "western") ?? names.find((n) => n === "wxf") ?? "";
  }

  /** The choice of notations, where the ruleset has its own. */
  renderWriting() {
    const select = /** @type {HTMLSelectElement} */ (this.el.writing);
    const names = Object.keys(this.state.notations ?? {});
    select.hidden = names.length === 0;
    const chosen = this.notationName();
    const options = ["", ...names];
    if (select.dataset.names !== options.join(",")) {
      select.dataset.names = options.join(",");
      replace(select, ...options.map((n) => h("option", { value: n }, notationWords(n))));
    }
    select.value = chosen;
  }

  /** @param {number | null} ply */
  async view(ply) {
    const s = this.state;
    if (ply !== null && (ply < 0 || ply >= s.moves.length)) ply = null;
    this.viewPly = ply;
    this.cancel();
    if (ply !== null && !this.past.has(ply)) {
      try {
        const past = await api("GET", `/api/games/${encodeURIComponent(s.id)}/positions/${ply}`, undefined, this.token);
        this.past.set(ply, past);
      } catch (e) {
        toast(e instanceof Error ? e.message : String(e), "error");
        this.viewPly = null;
      }
    }
    if (this.viewPly !== ply) return;
    this.picker = new Picker(this.myLegal(), s.you);
    this.render();
  }

  /** @param {number} delta */
  step(delta) {
    const end = this.state.moves.length;
    const now = this.viewPly ?? end;
    const next = Math.min(end, Math.max(0, now + delta));
    void this.view(next === end ? null : next);
  }

  flip() {
    this.flipped = !this.flipped;
    this.render();
  }

  renderActions() {
    const s = this.state;
    const me = s.you;
    const live = s.status === "ongoing";
    /** @type {HTMLElement[]} */
    const buttons = [];
    /**
     * @param {string} label
     * @param {string} action
     * @param {string} [title]
     */
    const act = (label, action, title) => {
      const button = h(
        "button",
        { type: "button", class: "action", "data-action": action, title: title ?? label },
        label,
      );
      // A click that loses the game asks once more, on the button itself (as lichess does).
      const losing = /^resign\b/.test(action);
      let armed = false;
      button.addEventListener("click", () => {
        if (losing && !armed) {
          armed = true;
          button.classList.add("confirm");
          button.textContent = t("game.confirm-again");
          setTimeout(() => {
            armed = false;
            button.classList.remove("confirm");
            button.textContent = label;
          }, 4000);
          return;
        }
        void this.act(action);
      });
      buttons.push(button);
    };
    if (me !== null && live && s.started) {
      const everyoneMoved = s.moves.length >= s.players;
      if (!everyoneMoved) act(t("game.abort"), "abort");
      // A plain resignation needs two sides; with more, the ruleset lists whom it favours.
      if (new Set(s.teams).size === 2) act(t("game.resign"), "resign");
      // An engine never takes a draw: only people are offered one.
      const people = s.seats.some(
        (seat) => seat.seat !== me && seat.kind === "human" && s.teams[seat.seat] !== s.teams[me],
      );
      if (people && !s.offers.draw.includes(me)) act(t("game.offer-draw"), "draw-offer");
      if (s.moves.length && s.offers.takeback === null)
        act(t("game.takeback"), "takeback-offer", t("game.takeback-title"));
      for (const a of s.actions ?? []) act(actionLabel(a), a);
    }
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: "action",
          "data-action": "flip",
          title: t("game.flip-title"),
          onclick: () => this.flip(),
        },
        t("game.flip"),
      ),
    );
    const regions = [
      ...new Set(
        this.variant.boards.flatMap((/** @type {any} */ b) => b.regions.map((/** @type {any} */ r) => r.name)),
      ),
    ];
    if (regions.length) {
      const select = h(
        "select",
        {
          class: "region",
          "aria-label": t("game.regions-label"),
          title: t("game.regions-title"),
        },
        h("option", { value: "" }, t("game.regions")),
        regions.map((r) => h("option", { value: r, selected: r === this.region }, regionWords(r))),
      );
      select.addEventListener("change", () => {
        this.region = /** @type {HTMLSelectElement} */ (select).value || null;
        this.board.mark(this.marks());
      });
      buttons.push(select);
    }
    if (!live) {
      for (const format of this.variant.records) {
        buttons.push(
          h(
            "button",
            {
              type: "button",
              class: "action",
              "data-action": `record-${format}`,
              onclick: () => this.download(format),
            },
            `${format.toUpperCase()}`,
          ),
        );
      }
      if (s.rematch) {
        buttons.push(
          h(
            "a",
            {
              class: "action",
              "data-action": "to-rematch",
              href: `/games/${encodeURIComponent(s.rematch)}`,
              onclick: (/** @type {Event} */ e) => this.toRematch(e),
            },
            t("game.to-rematch"),
          ),
        );
      } else if (me !== null && !(s.offers.rematch ?? []).includes(me)) {
        act(t("game.rematch"), "rematch-offer", t("game.rematch-title"));
      }
    }
    replace(this.el.actions, buttons);
  }

  renderOffers() {
    const s = this.state;
    const me = s.you;
    const box = this.el.offers;
    /** @type {HTMLElement[]} */
    const rows = [];
    if (s.status === "ongoing" && me !== null) {
      if (s.offers.draw.length && !s.offers.draw.includes(me)) {
        rows.push(this.offer(t("offer.draw-offered"), "draw-accept", "draw-decline"));
      } else if (s.offers.draw.includes(me)) rows.push(h("div", { class: "offer" }, t("offer.draw-yours")));
      if (s.offers.takeback !== null && s.offers.takeback !== me) {
        rows.push(this.offer(t("offer.takeback-asked"), "takeback-accept", "takeback-decline"));
      } else if (s.offers.takeback === me) rows.push(h("div", { class: "offer" }, t("offer.takeback-yours")));
      const a = s.offers.action;
      if (a && a.consent === me)
        rows.push(this.offer(this.proposal(a.by, a.action), "action-accept", "action-decline"));
      if (s.claims?.length) {
        rows.push(
          h(
            "div",
            { class: "offer" },
            t("offer.opponent-left"),
            " ",
            h(
              "button",
              { type: "button", "data-action": "claim-victory", onclick: () => this.act("claim-victory") },
              t("offer.claim-victory"),
            ),
            h(
              "button",
              { type: "button", "data-action": "call-draw", onclick: () => this.act("call-draw") },
              t("offer.call-draw"),
            ),
          ),
        );
      }
    }
    const rematch = s.offers.rematch ?? [];
    if (s.status !== "ongoing" && me !== null && !s.rematch && rematch.length) {
      if (rematch.includes(me)) rows.push(h("div", { class: "offer" }, t("offer.rematch-yours")));
      else rows.push(this.offer(t("offer.rematch-offered"), "rematch-accept", "rematch-decline"));
    }
    replace(box, rows);
  }

  /**
   * What a player asks the reader to consent to (three-player chess: a resignation in favour
   * of one player).
   * @param {number} by
   * @param {string} action
   */
  proposal(by, action) {
    const player = this.seatName(by);
    const favoured = favouredBy(action);
    if (favoured) return t("offer.proposes-resign", { player, favoured: sideName(favoured) });
    return t("offer.proposes", { player, action });
  }

  /**
   * @param {string} text
   * @param {string} accept
   * @param {string | null} decline
   */
  offer(text, accept, decline) {
    return h(
      "div",
      { class: "offer" },
      text,
      " ",
      h("button", { type: "button", "data-action": accept, onclick: () => this.act(accept) }, t("offer.accept")),
      decline
        ? h("button", { type: "button", "data-action": decline, onclick: () => this.act(decline) }, t("offer.decline"))
        : null,
    );
  }

  renderInvite() {
    const s = this.state;
    const open = s.seats.filter((seat) => seat.kind === "human" && !seat.joined);
    if (!open.length || s.status !== "ongoing") {
      replace(this.el.invite);
      return;
    }
    const link = `${location.origin}/games/${s.id}`;
    const rows = [];
    if (s.you !== null) {
      rows.push(h("p", {}, t("game.invite.send")));
      const input = h("input", {
        class: "invite-link",
        readonly: true,
        value: link,
        "aria-label": t("game.invite.link"),
      });
      input.addEventListener("focus", () => /** @type {HTMLInputElement} */ (input).select());
      rows.push(input);
    }
    if (s.you === null) {
      for (const seat of open) {
        rows.push(
          h(
            "button",
            { type: "button", class: "join", "data-join": seat.seat, onclick: () => this.join(seat.seat) },
            t("game.invite.join", { player: this.playerWord(seat.seat) }),
          ),
        );
      }
    }
    replace(this.el.invite, rows);
  }

  /** @param {number} seat */
  async join(seat) {
    try {
      const answer = await api("POST", `/api/games/${encodeURIComponent(this.state.id)}/seats/${seat}/join`);
      held.set(this.state.id, answer.seat, answer.token);
      await this.playSeat(answer.token);
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e), "error");
    }
  }

  /**
   * Plays the seat of `token` from now on, keeping every other seat the browser holds here:
   * its state, its socket, and positions looked back at as it sees them.
   * @param {string} token
   */
  async playSeat(token) {
    const id = this.state.id;
    try {
      /** @type {State} */
      const state = await api("GET", `/api/games/${encodeURIComponent(id)}`, undefined, token);
      if (state.you === null) throw new Error(t("seat.link-invalid"));
      held.set(id, state.you, token);
      this.token = token;
      this.socket.close();
      this.socket.token = token;
      // What was seen from the other seat (a hidden-information game shows each its own).
      this.past.clear();
      this.viewPly = null;
      this.cancel();
      this.onState(state);
      this.socket.connect(state.version);
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e), "error");
    }
  }

  /**
   * A seat's player by name, as its bar shows it: `white`, `világos`.
   * @param {number} seat
   */
  playerWord(seat) {
    const name = this.state.player_names[seat];
    return sideName(name, seat);
  }

  /**
   * A seat's player by name, as a sentence or a button names him: `White`.
   * @param {number} seat
   */
  seatName(seat) {
    return capital(this.playerWord(seat));
  }

  /** The seats this browser holds in the game, to switch between when there are several. */
  renderSeats() {
    const s = this.state;
    const mine = held.all(s.id).sort((a, b) => a.seat - b.seat);
    const box = this.el.seats;
    if (mine.length < 2) {
      box.hidden = true;
      replace(box);
      return;
    }
    replace(
      box,
      h("span", { class: "seat-switch-label" }, t("seat.switch-title")),
      mine.map((seat) =>
        h(
          "button",
          {
            type: "button",
            class: "seat-choice",
            "data-seat": seat.seat,
            "aria-pressed": String(seat.seat === s.you),
            title: seat.seat === s.you ? t("seat.current") : t("seat.play-as", { player: this.seatName(seat.seat) }),
            onclick: () => {
              if (seat.seat !== this.state.you) void this.playSeat(seat.token);
            },
          },
          this.seatName(seat.seat),
        ),
      ),
    );
    box.hidden = false;
  }

  /**
   * The question a link to another seat than the browser's asks, over the board: the page
   * plays the browser's seat until the player chooses the link's.
   */
  renderQuestion() {
    const box = this.el.question;
    const offered = this.offered;
    if (!offered) {
      box.hidden = true;
      replace(box);
      return;
    }
    const s = this.state;
    const theirs = this.seatName(offered.seat);
    const mine = this.seatName(s.you ?? 0);
    const answer = (/** @type {boolean} */ yes) => {
      this.offered = null;
      this.renderQuestion();
      if (yes) void this.playSeat(offered.token);
      else toast(t("seat.still-playing", { player: mine }));
    };
    replace(
      box,
      h(
        "div",
        { class: "seat-question-box" },
        h(
          "p",
          { class: "seat-question-title", id: "seat-question-title" },
          t("seat.question-title", { player: theirs }),
        ),
        h("p", {}, t("seat.question", { mine, theirs })),
        h("p", { class: "seat-question-note" }, t("seat.question-note", { player: mine })),
        h(
          "div",
          { class: "seat-question-buttons" },
          h(
            "button",
            { type: "button", class: "primary", "data-answer": "switch", onclick: () => answer(true) },
            t("seat.switch", { player: theirs }),
          ),
          h(
            "button",
            { type: "button", "data-answer": "stay", onclick: () => answer(false) },
            t("seat.stay", { player: mine }),
          ),
        ),
      ),
    );
    box.hidden = false;
    box.querySelector("button")?.focus();
  }

  /** @param {string} action */
  async act(action) {
    this.socket.action(action).catch((e) => toast(e instanceof Error ? e.message : String(e), "error"));
  }

  /** @param {string} format */
  async download(format) {
    try {
      const text = await api(
        "GET",
        `/api/games/${encodeURIComponent(this.state.id)}/record?format=${format}`,
        undefined,
        this.token,
      );
      const url = URL.createObjectURL(new Blob([String(text)], { type: "text/plain" }));
      const a = h("a", { href: url, download: `${this.state.id}.${format}` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      toast(e instanceof Error ? e.message : String(e), "error");
    }
  }

  /**
   * Opens the rematch this game's players went on to, playing this page's seat there (the
   * same token, on the other colour: the game's task finds the seat).
   * @param {Event} e
   */
  async toRematch(e) {
    const next = this.state.rematch;
    if (!next || !this.token) return;
    e.preventDefault();
    // Every seat held here, the one played last so that it is played there too.
    for (const kept of held.all(this.state.id).reverse()) {
      try {
        const state = await api("GET", `/api/games/${encodeURIComponent(next)}`, undefined, kept.token);
        if (state.you !== null) held.set(next, state.you, kept.token);
      } catch {
        // Not a seat there: watch it, then.
      }
    }
    location.assign(`/games/${encodeURIComponent(next)}`);
  }

  legend() {
    replace(this.el.legend, legendList(this.look));
    // Hovering over a man names it (a tap does too: describeMan).
    this.el.boards.addEventListener("pointerover", (e) => {
      const man = /** @type {Element} */ (e.target).closest("[data-piece]");
      if (man && !man.querySelector("title")) {
        const kind = kindOf(this.look, man.getAttribute("data-piece") ?? "");
        const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
        const words = movesInWords(kind);
        title.textContent = words ? `${kind.name}: ${words}` : kind.name;
        man.prepend(title);
      }
    });
  }
}

/**
 * The legal moves of a state as one string, to tell whether a state changed them.
 * @param {State} s
 */
function legalTexts(s) {
  return (s.legal ?? []).map((m) => m.text).join(" ");
}

/** @param {string} text */
function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
