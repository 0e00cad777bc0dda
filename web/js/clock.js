// Clocks shown from the server's times: each state says how much time each seat had when
// it was sent; the page counts the running one down until the next state.

import { t } from "./i18n.js";

/**
 * @typedef {{ms: number, main_ms?: number, periods: number, period_ms?: number, running: boolean}} SeatTime
 * @typedef {{control: {kind: string, base?: number, increment?: number, period?: number, periods?: number, seconds?: number, days?: number}, seats: SeatTime[]}} Clocks
 */

/**
 * A clock's text `elapsed` ms after the state that gave `seat`: byo-yomi shows its main time
 * and periods apart (`4:05 + 3×30 s`, then `0:12 · 2×30 s` counting the period down).
 * @param {Clocks} clocks
 * @param {SeatTime} seat
 * @param {number} elapsed
 */
export function clockText(clocks, seat, elapsed) {
  const left = seat.ms - elapsed;
  const control = clocks.control;
  if (control.kind !== "byoyomi" || !control.period) return formatTime(left);
  const period = control.period * 1000;
  const main = (seat.main_ms ?? 0) - elapsed;
  if (main > 0)
    return t("clock.byoyomi-main", { main: formatTime(main), periods: seat.periods, period: control.period });
  if (left <= 0) return t("clock.byoyomi-period", { left: formatTime(0), periods: 0, period: control.period });
  const whole = Math.ceil(left / period);
  const inPeriod = formatTime(left - period * (whole - 1));
  return t("clock.byoyomi-period", { left: inPeriod, periods: whole, period: control.period });
}

/**
 * Time as people read it: `4:05`, `0:09.3` under ten seconds, `2d 3h` for days.
 * @param {number} ms
 */
export function formatTime(ms) {
  const left = Math.max(0, ms);
  if (left >= 86_400_000) {
    const hours = Math.floor((left % 86_400_000) / 3_600_000);
    return t("clock.days", { days: Math.floor(left / 86_400_000), hours });
  }
  const total = Math.floor(left / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
  if (left < 10_000) return `${m}:${String(s).padStart(2, "0")}.${Math.floor((left % 1000) / 100)}`;
  return `${m}:${String(s).padStart(2, "0")}`;
}

/** Counts down the running clock between states. */
export class ClockView {
  constructor() {
    /** @type {Clocks | null} */
    this.clocks = null;
    this.received = 0;
    /** @type {Map<number, HTMLElement>} */
    this.elements = new Map();
    this.frame = 0;
    this.stopped = false;
    /** @type {number | null} the seat whose running clock calls `onLow` when it runs low */
    this.watched = null;
    /** @type {() => void} */
    this.onLow = () => {};
    /** whether the watched clock was low at the last tick (the warning sounds once a turn) */
    this.wasLow = false;
  }

  /**
   * New times from a state.
   * @param {Clocks | null} clocks
   * @param {boolean} live whether the game goes on (a finished game's clocks stand)
   */
  update(clocks, live) {
    this.clocks = clocks;
    this.received = performance.now();
    this.stopped = !live;
    this.tick();
  }

  /**
   * Where seat `seat`'s time is shown.
   * @param {number} seat
   * @param {HTMLElement} element
   */
  attach(seat, element) {
    this.elements.set(seat, element);
  }

  tick() {
    cancelAnimationFrame(this.frame);
    const clocks = this.clocks;
    if (!clocks) return;
    const elapsed = performance.now() - this.received;
    let running = false;
    clocks.seats.forEach((seat, n) => {
      const element = this.elements.get(n);
      if (!element) return;
      const live = seat.running && !this.stopped;
      running ||= live;
      const left = seat.ms - (live ? elapsed : 0);
      const text = clockText(clocks, seat, live ? elapsed : 0);
      if (element.textContent !== text) element.textContent = text;
      element.classList.toggle("running", live);
      const low = left < 10_000 && clocks.control.kind !== "days";
      element.classList.toggle("low", low);
      if (n === this.watched && live) {
        if (low && !this.wasLow) this.onLow();
        this.wasLow = low;
      }
    });
    if (running) this.frame = requestAnimationFrame(() => this.tick());
  }
}

/**
 * A time control in words: `5+3`, `10 min + 30 s ×3`, `1 day a move`.
 * @param {Clocks["control"] | null | undefined} control
 */
export function describeControl(control) {
  if (!control) return t("clock.none");
  switch (control.kind) {
    case "fischer":
      return t("clock.fischer", { base: duration(control.base), increment: control.increment ?? 0 });
    case "byoyomi":
      return t("clock.byoyomi", {
        base: duration(control.base),
        periods: control.periods ?? 1,
        period: control.period ?? 0,
      });
    case "move":
      return t("clock.per-move", { time: duration(control.seconds) });
    case "days":
      return t("clock.days-per-move", { days: control.days ?? 0 });
    default:
      return control.kind;
  }
}

/**
 * A time control's length in words: `5 min`, `30 s`.
 * @param {number | undefined} seconds
 */
function duration(seconds) {
  if (seconds === undefined) return "?";
  return seconds >= 60 ? t("clock.minutes", { n: seconds / 60 }) : t("clock.seconds", { n: seconds });
}
