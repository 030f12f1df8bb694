// Choices the page remembers in localStorage: theme, sound, music, the last setup.

const KEY = "noughts.prefs";
const DEFAULTS = { theme: null, sound: true, music: false, setup: null };

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
