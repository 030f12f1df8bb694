// Online play: a hash router over the lobby, the account forms, a game (waiting room,
// live board, spectators), profiles with replays, the leaderboard and tournaments.

import { h } from "/static/js/dom.js";
import { applyTheme } from "/static/js/prefs.js";
import { accountForm } from "./account.js";
import { online } from "./api.js";
import { LivePage } from "./live.js";
import { leaderboardPage } from "./leaderboard.js";
import { LobbyPage } from "./lobby.js";
import { profilePage, replayPage } from "./profile.js";
import { soundToggle } from "./sound.js";
import { TournamentPage, tournamentsPage } from "./tournaments.js";

const view = document.getElementById("view");
const session = { user: null, catalogue: null };
let current = null;

export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.className = ""), 3500);
}

export async function refreshAccount() {
  session.user = (await online.me()).user;
  const box = document.getElementById("account");
  if (session.user) {
    const name = session.user.name;
    box.replaceChildren(
      h("a", { class: "tool me", href: `#/u/${encodeURIComponent(name)}`, id: "me", title: name }, name, session.user.guest ? h("span", { class: "wide-only" }, " (guest)") : null),
      h(
        "button",
        { class: "tool icon-tool", type: "button", id: "logout", onclick: logOut, "aria-label": "log out", title: "log out" },
        h("svg", { class: "tool-icon", viewBox: "0 0 24 24", "aria-hidden": "true" }, h("path", { d: "M10 4H5v16h5M14 8l4 4-4 4M18 12H9" })),
        h("span", { class: "tool-label" }, "Log out"),
      ),
    );
  } else {
    box.replaceChildren(
      h("a", { class: "tool", href: "#/login", id: "login-link" }, "Log in"),
      // On a phone the header keeps one row: signing up is a click away on the lobby and the log-in page.
      h("a", { class: "tool wide-only", href: "#/signup", id: "signup-link" }, "Sign up"),
    );
  }
  return session.user;
}

async function logOut() {
  await online.logOut();
  await refreshAccount();
  location.hash = "#/";
  route();
}

async function route() {
  current?.destroy?.();
  current = null;
  const [path, query] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const context = { session, toast, refreshAccount, navigate: (hash) => (location.hash = hash) };
  try {
    session.catalogue = session.catalogue || (await online.catalogue());
    if (session.user === null) await refreshAccount();
  } catch (e) {
    view.replaceChildren(h("p", { class: "error" }, `Cannot reach the server: ${e.message}`));
    return;
  }
  window.scrollTo(0, 0);
  if (parts[0] === "login" || parts[0] === "signup") {
    accountForm(view, parts[0], context, params.get("next"));
    document.title = `${parts[0] === "login" ? "Log in" : "Sign up"} · Noughts`;
  } else if (parts[0] === "game" && parts[1]) {
    current = new LivePage(view, parts[1], context);
  } else if (parts[0] === "u" && parts[1]) {
    await profilePage(view, parts[1], context);
  } else if (parts[0] === "replay" && parts[1]) {
    current = await replayPage(view, parts[1], context);
  } else if (parts[0] === "tournaments") {
    await tournamentsPage(view, context);
  } else if (parts[0] === "tournament" && parts[1]) {
    current = new TournamentPage(view, parts[1], context);
  } else if (parts[0] === "leaderboard") {
    await leaderboardPage(view, params.get("game") || "classic", context);
  } else {
    current = new LobbyPage(view, context);
    document.title = "Online · Noughts";
  }
}

applyTheme();
soundToggle(document.getElementById("sound-toggle"));
window.addEventListener("hashchange", route);
route();
