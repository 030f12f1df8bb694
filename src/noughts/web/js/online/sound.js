// Sound online: the offline page's effects (/static/js/sound.js) and its switch, one
// remembered choice for both pages (prefs.js: off until the player turns it on).

import { prefs } from "/static/js/prefs.js";
import { effect } from "/static/js/sound.js";

export const sound = {
  get on() {
    return prefs.get("sound") === true;
  },
  set(on) {
    prefs.set("sound", on);
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
