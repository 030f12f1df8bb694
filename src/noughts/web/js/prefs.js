// Choices the site remembers in localStorage: the language, theme, sound, music, the last setup, the
// quick games' level, when a bot may fill in for a missing opponent online. Sound is off
// until the player turns it on, as on lichess: a page that makes noise unasked is
// closed, not played.

const KEY = "noughts.prefs";
const DEFAULTS = {
  lang: null, theme: null, sound: false, music: false, setup: null, quickLevel: null, botAfter: null,
  // The settings panel's (settings.js): coordinates on the boards' edges, the boards'
  // colours, the effects' volume (0-1), zen mode, and correspondence moves confirmed.
  coords: true, boardTheme: "classic", volume: 0.5, zen: false, confirmCorrespondence: true,
};

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

const values = load();

export const prefs = {
  get: (name) => values[name],
  set(name, value) {
    values[name] = value;
    try {
      localStorage.setItem(KEY, JSON.stringify(values));
    } catch {
      // Private mode or a full storage: the choice lasts for this visit only.
    }
  },
};

export function applyTheme() {
  const theme = prefs.get("theme") || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  document.documentElement.dataset.theme = theme;
  return theme;
}
