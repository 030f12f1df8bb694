// Sound effects and background music, synthesized with Web Audio (no audio files).
// The AudioContext is made on the first user gesture, as browsers require.

import { prefs } from "./prefs.js";

let context = null;
let master = null;
let musicTimer = null;
// Browsers refuse (and warn about) audio started before the user has interacted.
let gestured = false;
for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, () => (gestured = true), { once: true, capture: true });

function audio() {
  if (!gestured) return null;
  if (!context) {
    // Safari before 14.1 named it webkitAudioContext.
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return null;
    context = new Context();
    master = context.createGain();
    master.gain.value = prefs.get("volume");
    master.connect(context.destination);
  }
  if (context.state === "suspended") context.resume();
  return context;
}

function tone(freq, start, length, { type = "sine", gain = 0.2, slide = null, out = null } = {}) {
  const ctx = audio();
  if (!ctx) return;
  out = out || master;
  const t = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, t + length);
  env.gain.setValueAtTime(0.0001, t);
  env.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(env).connect(out);
  osc.start(t);
  osc.stop(t + length + 0.05);
}

const EFFECTS = {
  x: () => tone(660, 0, 0.12, { type: "triangle", slide: 520 }),
  o: () => tone(440, 0, 0.14, { type: "triangle", slide: 560 }),
  select: () => tone(880, 0, 0.06, { type: "sine", gain: 0.1 }),
  error: () => tone(140, 0, 0.25, { type: "sawtooth", gain: 0.08 }),
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.11, 0.35, { type: "triangle" })),
  loss: () => [392, 330, 262].forEach((f, i) => tone(f, i * 0.16, 0.4, { type: "sine" })),
  draw: () => [440, 440].forEach((f, i) => tone(f, i * 0.2, 0.2, { type: "sine", gain: 0.12 })),
};

/** The effects' and the music's volume, 0 to 1 (the settings panel's slider), kept. */
export function setVolume(volume) {
  prefs.set("volume", volume);
  if (master) master.gain.value = volume;
}

/** Play an effect if sound is on. Call from a user gesture or after one. Sound is a
 * garnish: a failing audio stack must never stop a move. */
export function effect(name) {
  if (!prefs.get("sound") || !EFFECTS[name]) return;
  try {
    EFFECTS[name]();
  } catch (e) {
    console.warn("sound failed:", e);
  }
}

// A slow pentatonic tune: bass on the beat, a random walk on top, quiet.
const SCALE = [261.63, 293.66, 329.63, 392.0, 440.0, 523.25, 587.33, 659.25];
const BASS = [130.81, 110.0, 87.31, 98.0];

export function setMusic(on) {
  prefs.set("music", on);
  if (!on) {
    clearInterval(musicTimer);
    musicTimer = null;
    return;
  }
  const ctx = audio();
  if (!ctx || musicTimer) return;
  const bus = ctx.createBiquadFilter();
  bus.type = "lowpass";
  bus.frequency.value = 1800;
  bus.connect(master);
  let step = 0;
  let note = 4;
  const beat = 0.42;
  musicTimer = setInterval(() => {
    if (step % 4 === 0) tone(BASS[(step / 4) % BASS.length], 0, beat * 3.6, { type: "sine", gain: 0.07, out: bus });
    if (Math.random() < 0.8) {
      note = Math.max(0, Math.min(SCALE.length - 1, note + Math.floor(Math.random() * 5) - 2));
      tone(SCALE[note], 0, beat * 1.8, { type: "triangle", gain: 0.045, out: bus });
    }
    step += 1;
  }, beat * 1000);
}

/** Music stays off until a gesture: a remembered "on" starts with the first click. */
export function resumeMusicOnGesture() {
  if (!prefs.get("music")) return;
  const start = () => setMusic(true);
  window.addEventListener("pointerdown", start, { once: true });
  window.addEventListener("keydown", start, { once: true });
}
