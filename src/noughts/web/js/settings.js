// The settings panel (the gear in the header), as lichess's display and sound settings:
// the boards' coordinates and colours, the effects' volume, zen mode and the confirmation
// of correspondence moves. Each is kept in the browser (prefs.js) and applied to the
// page's root as a data attribute the style sheets read, so every board follows at once.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { effect, setVolume } from "./sound.js";

/** The boards' colours, each named in the page's language when drawn: each has a light
 * and a dark variant (css/app.css, `data-board`). */
export const BOARD_THEMES = { classic: () => t("Classic"), wood: () => t("Wood"), ocean: () => t("Ocean"), meadow: () => t("Meadow") };

/** Puts the kept settings on the page's root: `data-coords`, `data-board`, `data-zen`. */
export function applySettings() {
  const root = document.documentElement.dataset;
  root.coords = prefs.get("coords") ? "on" : "off";
  root.board = BOARD_THEMES[prefs.get("boardTheme")] ? prefs.get("boardTheme") : "classic";
  root.zen = prefs.get("zen") ? "on" : "off";
}

/** Zen mode on or off: a game page shows nothing but its board and clocks. */
export function setZen(on) {
  prefs.set("zen", on);
  applySettings();
  document.getElementById("zen-exit")?.toggleAttribute("hidden", !on);
}

/** Wires the header's gear, the button that leaves zen mode, and its key (z, as lichess). */
export function setUpSettings() {
  applySettings();
  document.getElementById("settings-toggle")?.addEventListener("click", openSettings);
  const exit = h("button", { class: "button zen-exit", type: "button", id: "zen-exit", hidden: !prefs.get("zen"), title: t("Leave zen mode (z)"), onclick: () => setZen(false) }, t("Leave zen mode"));
  document.body.append(exit);
  document.addEventListener("keydown", (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (e.key !== "z" || e.ctrlKey || e.metaKey || e.altKey || target.closest?.("input, textarea, select, [contenteditable], dialog")) return;
    setZen(!prefs.get("zen"));
  });
}

/** The panel, a modal dialog: each change is applied and kept at once. */
export function openSettings() {
  document.getElementById("settings")?.remove();
  /** @type {(id: string, name: string, label: string, onchange?: (on: boolean) => void) => HTMLElement} */
  const check = (id, name, label, onchange = () => applySettings()) =>
    h("label", { class: "check", for: id },
      h("input", { type: "checkbox", id, checked: Boolean(prefs.get(name)), onchange: (e) => { prefs.set(name, e.target.checked); onchange(e.target.checked); } }),
      label);
  const theme = h("select", { id: "board-theme", onchange: (e) => { prefs.set("boardTheme", e.target.value); applySettings(); } },
    Object.entries(BOARD_THEMES).map(([key, title]) => h("option", { value: key, selected: key === (prefs.get("boardTheme") || "classic") }, title())));
  const volume = h("input", { type: "range", id: "volume", min: 0, max: 100, step: 5, value: Math.round(prefs.get("volume") * 100),
    oninput: (e) => setVolume(Number(e.target.value) / 100), onchange: () => effect("select") });
  const dialog = h("dialog", { class: "settings-dialog", id: "settings", "aria-labelledby": "settings-title" },
    h("form", { class: "form", method: "dialog" },
      h("h2", { id: "settings-title" }, t("Settings")),
      h("fieldset", {}, h("legend", {}, t("Board")),
        check("show-coords", "coords", t("Show coordinates (cell names on the board)")),
        h("label", { for: "board-theme" }, t("Board colours"), theme)),
      h("fieldset", {}, h("legend", {}, t("Sound")),
        check("sound-on", "sound", t("Sound effects"), () => document.getElementById("sound-toggle")?.dispatchEvent(new Event("prefs"))),
        h("label", { for: "volume" }, t("Volume"), volume)),
      h("fieldset", {}, h("legend", {}, t("Game")),
        check("zen-on", "zen", t("Zen mode: only the board and clocks on a game page (z)"), (on) => setZen(on)),
        check("confirm-correspondence", "confirmCorrespondence", t("Confirm correspondence moves before sending them"))),
      h("div", { class: "challenge-actions" }, h("button", { class: "button primary", type: "submit", id: "settings-close" }, t("Done")))));
  document.body.append(dialog);
  dialog.addEventListener("close", () => dialog.remove());
  dialog.showModal();
  return dialog;
}
