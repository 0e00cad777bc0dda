// The game's websocket (docs/server.md, "The socket"): states and events in, moves and
// actions out; reconnects by itself and catches up from the last version it saw.

import { errorWords } from "./api.js";

/**
 * What the socket hands the page; `error` gets a refusal in the reader's words.
 * @typedef {{
 *   state: (state: any) => void,
 *   event: (type: string, data: any) => void,
 *   ack: (k: number) => void,
 *   error: (message: string, k: number | undefined) => void,
 *   status: (connected: boolean) => void,
 * }} SocketHandlers
 */

export class GameSocket {
  /**
   * @param {string} game
   * @param {string | null} token
   * @param {SocketHandlers} handlers
   */
  constructor(game, token, handlers) {
    this.game = game;
    this.token = token;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.version = 0;
    this.retry = 0;
    this.closed = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pinger = undefined;
  }

  /** @param {number} [version] the version the page already shows */
  connect(version) {
    this.closed = false;
    if (version !== undefined) this.version = version;
    const params = new URLSearchParams();
    if (this.token) params.set("token", this.token);
    if (this.version) params.set("v", String(this.version));
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(
      `${scheme}://${location.host}/api/games/${encodeURIComponent(this.game)}/socket?${params}`,
    );
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.handlers.status(true);
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.sendRaw({ t: "ping" }), 20_000);
    });
    // A socket being closed (the page took another seat) may still deliver its seat's view.
    ws.addEventListener("message", (e) => {
      if (this.ws === ws) this.message(String(e.data));
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.handlers.status(false);
      this.ws = null;
      if (this.closed) return;
      // Back off to at most eight seconds; each attempt asks for what it missed.
      const wait = Math.min(8000, 500 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), wait);
    });
  }

  /** Stops and does not reconnect. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  /** @param {string} text */
  message(text) {
    let m;
    try {
      m = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof m.v === "number" && m.t !== "state") this.version = Math.max(this.version, m.v);
    switch (m.t) {
      case "state":
        this.version = Math.max(this.version, m.v);
        this.handlers.state(m.d);
        break;
      case "ack":
        this.handlers.ack(m.d);
        break;
      case "error":
        this.handlers.error(errorWords(m.code, String(m.d)), m.ack);
        break;
      case "pong":
      case undefined:
        break;
      default:
        this.handlers.event(m.t, m.d);
    }
  }

  /** @param {unknown} message */
  sendRaw(message) {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /**
   * Sends a move; over HTTP when the socket is down, so a move is never lost silently.
   * @param {string} move
   * @param {number} ply
   * @param {number} ack
   * @param {number} [think_ms] how long the player thought (the rest of the turn was lag)
   */
  async move(move, ply, ack, think_ms) {
    if (this.sendRaw({ t: "move", d: { move, ply, ack, think_ms } })) return;
    const { api } = await import("./api.js");
    const state = await api(
      "POST",
      `/api/games/${encodeURIComponent(this.game)}/moves`,
      { move, ply, think_ms },
      this.token,
    );
    this.handlers.ack(ack);
    this.handlers.state(state);
  }

  /** @param {string} action */
  async action(action) {
    if (this.sendRaw({ t: "action", d: { action } })) return;
    const { api } = await import("./api.js");
    const state = await api("POST", `/api/games/${encodeURIComponent(this.game)}/actions`, { action }, this.token);
    this.handlers.state(state);
  }
}
