// Sounds of the game, on unless the player mutes them in the settings: short tones made on
// the spot (no files), one voice per event.

import { settings } from "./settings.js";

/** @type {AudioContext | null} */
let context = null;

/**
 * Tones of each sound: `[frequency Hz, start s, length s, volume]`.
 * @type {Record<string, [number, number, number, number][]>}
 */
const VOICES = {
  move: [[660, 0, 0.07, 0.14]],
  capture: [
    [520, 0, 0.06, 0.18],
    [330, 0.05, 0.1, 0.16],
  ],
  check: [
    [880, 0, 0.08, 0.14],
    [880, 0.12, 0.08, 0.14],
  ],
  low: [
    [1200, 0, 0.05, 0.1],
    [1200, 0.25, 0.05, 0.1],
  ],
  end: [
    [523, 0, 0.18, 0.14],
    [392, 0.18, 0.35, 0.14],
  ],
};

/** The sounds there are. @typedef {"move" | "capture" | "check" | "low" | "end"} SoundName */

/** The last sound played, for the browser tests (`document.documentElement.dataset.sound`). */
function note(/** @type {string} */ what) {
  document.documentElement.dataset.sound = what;
}

/**
 * Plays a sound, unless the player muted them.
 * @param {SoundName} what
 */
export function play(what) {
  if (!settings().sound) return;
  note(what);
  try {
    context ??= new AudioContext();
    const now = context.currentTime;
    for (const [frequency, start, length, volume] of VOICES[what] ?? []) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(volume, now + start);
      gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.05);
    }
  } catch {
    // No audio device: stay silent.
  }
}
