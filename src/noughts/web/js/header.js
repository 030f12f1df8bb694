// The header on every page: the site's links, the account, sound, music and the theme.
// On a phone the links and switches fold into a menu, so that the bar keeps one row.

import { online } from "./api.js";
import { h } from "./dom.js";
import { currentLanguage, languages, t } from "./i18n.js";
import { applyTheme, prefs } from "./prefs.js";
import { resumeMusicOnGesture, setMusic } from "./sound.js";
import { setUpSettings } from "./settings.js";

/** Draws the switches' labels and states (set by `setUpHeader`). */
let drawSwitches = () => {};

/** The header's texts in the page's language, once its catalogue is loaded: the
 * switches' states are set before (the page's first moment), their words now. */
export function translateHeader() {
  translateStatic();
  setUpLanguages();
  drawSwitches();
}

/** The switches, the menu and the skip link; `redraw` after the theme changes. */
export function setUpHeader(redraw) {
  const sound = document.getElementById("sound-toggle");
  const music = document.getElementById("music-toggle");
  const theme = document.getElementById("theme-toggle");
  const show = () => {
    // The labels show on wide screens; on a phone the icons (aria-pressed tells the state).
    sound.setAttribute("aria-pressed", String(prefs.get("sound")));
    sound.querySelector(".tool-label").textContent = prefs.get("sound") ? t("Sound on") : t("Sound off");
    music.setAttribute("aria-pressed", String(prefs.get("music")));
    music.querySelector(".tool-label").textContent = prefs.get("music") ? t("Music on") : t("Music off");
    const dark = document.documentElement.dataset.theme === "dark";
    theme.querySelector(".tool-label").textContent = dark ? t("Light") : t("Dark");
    theme.setAttribute("aria-label", dark ? t("switch to the light theme") : t("switch to the dark theme"));
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
    redraw();
  });
  drawSwitches = show;
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    applyTheme();
    show();
    redraw();
  });
  // The settings panel's sound switch is the same preference: the header follows it.
  sound.addEventListener("prefs", show);
  show();
  resumeMusicOnGesture();
  setUpSettings();
  setUpMenu();
  // The skip link moves the focus without touching the address (the router's).
  document.getElementById("skip-link").addEventListener("click", (event) => {
    event.preventDefault();
    document.getElementById("view").focus();
  });
}

/** The texts index.html is written with, in the page's language. */
function translateStatic() {
  const texts = {
    "nav-online": t("Play online"),
    "nav-puzzles": t("Puzzles"),
    "nav-analysis": t("Analysis"),
    "nav-rules": t("Rules"),
    "nav-leaderboard": t("Leaderboard"),
    "nav-tournaments": t("Tournaments"),
    "skip-link": t("Skip to content"),
    "lang-label": t("Language"),
  };
  for (const [id, text] of Object.entries(texts)) document.getElementById(id).textContent = text;
  const labels = {
    "menu-toggle": t("menu"),
    "site-menu": t("site"),
    "sound-toggle": t("sound effects"),
    "music-toggle": t("background music"),
  };
  for (const [id, label] of Object.entries(labels)) document.getElementById(id).setAttribute("aria-label", label);
  document.getElementById("sound-toggle").title = t("sound effects");
  document.getElementById("music-toggle").title = t("background music");
  document.getElementById("theme-toggle").title = t("light or dark");
  document.querySelector(".brand").setAttribute("aria-label", t("Noughts: home"));
}

/** Whether a player is signed in, whose account keeps the language they choose. */
let signedIn = false;

/** The language menu: the choice is kept in the browser and, signed in, on the account;
 * the page loads again in it (every text of it, the header's too). */
function setUpLanguages() {
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("lang-select"));
  // The pseudo-language, never offered, is named by its code while it is spoken.
  const named = { ...languages(), ...(currentLanguage() in languages() ? {} : { [currentLanguage()]: currentLanguage() }) };
  select.replaceChildren(
    ...Object.entries(named).map(([code, name]) => h("option", { value: code, lang: code, selected: code === currentLanguage() }, name)),
  );
  select.value = currentLanguage();
  select.addEventListener("change", async () => {
    prefs.set("lang", select.value);
    if (signedIn) await online.setLanguage(select.value).catch(() => null);
    location.reload();
  });
}

function setUpMenu() {
  const button = document.getElementById("menu-toggle");
  const menu = document.getElementById("site-menu");
  const open = (yes) => {
    button.setAttribute("aria-expanded", String(yes));
    menu.classList.toggle("open", yes);
  };
  button.addEventListener("click", () => open(button.getAttribute("aria-expanded") !== "true"));
  // A link followed, the settings opened, Escape or a click elsewhere closes it.
  menu.addEventListener("click", (event) => /** @type {Element} */ (event.target).closest("a, #settings-toggle") && open(false));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.classList.contains("open")) {
      open(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!(/** @type {Element} */ (event.target).closest("#site-menu, #menu-toggle"))) open(false);
  });
  window.addEventListener("hashchange", () => open(false));
}

/** The header link of each page's section, marked as the current one. */
const SECTIONS = { lobby: "nav-online", game: "nav-online", puzzles: "nav-puzzles", analysis: "nav-analysis", rules: "nav-rules", leaderboard: "nav-leaderboard", tournaments: "nav-tournaments", tournament: "nav-tournaments" };

export function markSection(page) {
  for (const link of document.querySelectorAll("#site-menu > a")) {
    if (link.id === SECTIONS[page]) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

/** The signed-in player (or null), drawn in the header: their name and log out, or log
 * in and sign up. */
export async function showAccount(session, onLogOut) {
  session.user = (await online.me()).user;
  signedIn = Boolean(session.user);
  // The account's language (chosen on another browser, say) before this browser's.
  const chosen = session.user?.language;
  if (chosen && chosen !== currentLanguage() && chosen in languages()) {
    prefs.set("lang", chosen);
    location.reload();
  }
  const box = document.getElementById("account");
  if (session.user) {
    const name = session.user.name;
    box.replaceChildren(
      h("a", { class: "tool me", href: `#/u/${encodeURIComponent(name)}`, id: "me", title: name }, name, session.user.guest ? h("span", { class: "wide-only" }, t(" (guest)")) : null),
      h(
        "button",
        { class: "tool icon-tool", type: "button", id: "logout", onclick: onLogOut, "aria-label": t("log out"), title: t("log out") },
        h("svg", { class: "tool-icon", viewBox: "0 0 24 24", "aria-hidden": "true" }, h("path", { d: "M10 4H5v16h5M14 8l4 4-4 4M18 12H9" })),
        h("span", { class: "tool-label" }, t("Log out")),
      ),
    );
  } else {
    box.replaceChildren(
      h("a", { class: "tool", href: "#/login", id: "login-link" }, t("Log in")),
      // On a phone the header keeps one row: signing up is a click away on the lobby and the log-in page.
      h("a", { class: "tool wide-only", href: "#/signup", id: "signup-link" }, t("Sign up")),
    );
  }
  return session.user;
}
