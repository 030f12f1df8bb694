// Sound online: the offline page's effects (/static/js/sound.js), off until the player
// turns them on here, and remembered (prefs.js's localStorage) from visit to visit.

import { prefs } from "/static/js/prefs.js";
import { effect } from "/static/js/sound.js";

// Its own remembered choice: the offline page's "sound" is on by default, and a page that
// plays to the opponent's moves should not start making noise unasked.
const KEY = "onlineSound";

export const sound = {
  get on() {
    return prefs.get(KEY) === true;
  },
  set(on) {
    prefs.set(KEY, on);
    // The effects also obey the offline page's switch: turning sound on here turns it on.
    if (on) prefs.set("sound", true);
  },
  /** Sound is a garnish: a failing audio stack must never stop a move. */
  play(name) {
    if (!this.on) return;
    try {
      effect(name);
    } catch (e) {
      console.warn("sound failed:", e);
    }
  },
};

/** The header's switch: "Sound off" / "Sound on", aria-pressed as it stands. */
export function soundToggle(button) {
  const show = () => {
    button.setAttribute("aria-pressed", String(sound.on));
    // The icon says it on a phone, the label beside it elsewhere.
    button.querySelector(".tool-label").textContent = sound.on ? "Sound on" : "Sound off";
  };
  button.addEventListener("click", () => {
    sound.set(!sound.on);
    show();
  });
  show();
}
