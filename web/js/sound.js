// Sounds, off unless the player turns them on: short tones made on the spot, no files.

/** @type {AudioContext | null} */
let context = null;

/**
 * Plays the sound of a move or of the game's end, if sound is on.
 * @param {"move" | "end"} what
 */
export function play(what) {
  if (localStorage.getItem("chaturanga.sound") !== "on") return;
  try {
    context ??= new AudioContext();
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = what === "move" ? 660 : 440;
    gain.gain.setValueAtTime(0.15, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + (what === "move" ? 0.08 : 0.4));
    osc.connect(gain).connect(context.destination);
    osc.start();
    osc.stop(context.currentTime + 0.5);
  } catch {
    // No audio device: stay silent.
  }
}
