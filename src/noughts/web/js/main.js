// The page: a hash router over home, rules and the game, and the toolbar toggles.

import { api } from "./api.js";
import { h } from "./dom.js";
import { GamePage } from "./game.js";
import { homePage } from "./home.js";
import { applyTheme, prefs } from "./prefs.js";
import { rulesPage } from "./rules.js";
import { AnalysisPage } from "./study/analysis.js";
import { PuzzlePage } from "./study/puzzles.js";
import { resumeMusicOnGesture, setMusic } from "./sound.js";

const view = document.getElementById("view");
let catalogue = null;
let current = null;

function toolbar() {
  const sound = document.getElementById("sound-toggle");
  const music = document.getElementById("music-toggle");
  const theme = document.getElementById("theme-toggle");
  const show = () => {
    // The labels show on wide screens; on a phone the icons (aria-pressed tells the state).
    sound.setAttribute("aria-pressed", String(prefs.get("sound")));
    sound.querySelector(".tool-label").textContent = prefs.get("sound") ? "Sound on" : "Sound off";
    music.setAttribute("aria-pressed", String(prefs.get("music")));
    music.querySelector(".tool-label").textContent = prefs.get("music") ? "Music on" : "Music off";
    const dark = document.documentElement.dataset.theme === "dark";
    theme.querySelector(".tool-label").textContent = dark ? "Light" : "Dark";
    theme.setAttribute("aria-label", dark ? "switch to the light theme" : "switch to the dark theme");
  };
  sound.addEventListener("click", () => {
    prefs.set("sound", !prefs.get("sound"));
    show();
  });
  music.addEventListener("click", () => {
    setMusic(!prefs.get("music"));
    show();
  });
  theme.addEventListener("click", () => {
    prefs.set("theme", document.documentElement.dataset.theme === "dark" ? "light" : "dark");
    applyTheme();
    show();
    current?.redraw?.();
  });
  show();
}

export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.className = ""), 3500);
}

async function route() {
  current?.destroy?.();
  current = null;
  const [path, query] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query || "");
  try {
    catalogue = catalogue || (await api.catalogue());
  } catch (e) {
    view.replaceChildren(h("p", { class: "error" }, `Cannot load the games: ${e.message}`));
    return;
  }
  window.scrollTo(0, 0);
  if (path.startsWith("/play")) {
    current = new GamePage(view, catalogue, params, { toast });
    document.title = `${current.title} · Noughts`;
  } else if (path.startsWith("/analysis")) {
    current = new AnalysisPage(view, catalogue, params, { toast });
    document.title = `${current.title} · Noughts`;
  } else if (path.startsWith("/puzzles")) {
    current = new PuzzlePage(view, catalogue, params, { toast });
    document.title = `${current.title} · Noughts`;
  } else if (path.startsWith("/rules")) {
    rulesPage(view, catalogue, path.split("/")[2]);
    document.title = "Rules · Noughts";
  } else {
    homePage(view, catalogue);
    document.title = "Noughts";
  }
}

applyTheme();
toolbar();
resumeMusicOnGesture();
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
  applyTheme();
  current?.redraw?.();
});
window.addEventListener("hashchange", route);
route();
