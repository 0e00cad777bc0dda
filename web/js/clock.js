// Clocks shown from the server's times: each state says how much time each seat had when
// it was sent; the page counts the running one down until the next state.

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
  if (main > 0) return `${formatTime(main)} + ${seat.periods}×${control.period} s`;
  if (left <= 0) return `${formatTime(0)} · 0×${control.period} s`;
  const whole = Math.ceil(left / period);
  return `${formatTime(left - period * (whole - 1))} · ${whole}×${control.period} s`;
}

/**
 * Time as people read it: `4:05`, `0:09.3` under ten seconds, `2d 3h` for days.
 * @param {number} ms
 */
export function formatTime(ms) {
  const t = Math.max(0, ms);
  if (t >= 86_400_000) {
    const d = Math.floor(t / 86_400_000);
    return `${d}d ${Math.floor((t % 86_400_000) / 3_600_000)}h`;
  }
  const total = Math.floor(t / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
  if (t < 10_000) return `${m}:${String(s).padStart(2, "0")}.${Math.floor((t % 1000) / 100)}`;
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
  if (!control) return "no clock";
  const min = (/** @type {number | undefined} */ s) => (s === undefined ? "?" : s >= 60 ? `${s / 60} min` : `${s} s`);
  switch (control.kind) {
    case "fischer":
      return `${min(control.base)} + ${control.increment ?? 0} s`;
    case "byoyomi":
      return `${min(control.base)} + ${control.periods ?? 1}×${control.period ?? 0} s`;
    case "move":
      return `${min(control.seconds)} a move`;
    case "days":
      return `${control.days} day${control.days === 1 ? "" : "s"} a move`;
    default:
      return control.kind;
  }
}
