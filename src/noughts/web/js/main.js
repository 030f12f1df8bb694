// The site: one hash router over every page (home, a game, rules, puzzles, the analysis
// board, the online lobby, the account forms, a live game, profiles and replays, the
// leaderboard, tournaments) under one header.

import { api, online } from "./api.js";
import { h } from "./dom.js";
import { GamePage } from "./game.js";
import { markSection, setUpHeader, showAccount, translateHeader } from "./header.js";
import { homePage } from "./home.js";
import { setLanguage, t } from "./i18n.js";
import { applyTheme, prefs } from "./prefs.js";
import { rulesPage } from "./rules.js";
import { AnalysisPage } from "./study/analysis.js";
import { PuzzleDashboard } from "./study/dashboard.js";
import { EditorPage } from "./study/editor.js";
import { PuzzlePage } from "./study/puzzles.js";
import { toast } from "./toast.js";

const view = document.getElementById("view");
const session = { user: null, catalogue: null };
let current = null;
/** The module of the bell and challenges, once a player has signed in. */
let social = null;
/** The online pages by route, each module loaded when first needed: a game against the
 * computer starts without them. */
const ONLINE_PAGES = {
  login: "account",
  signup: "account",
  lobby: "lobby",
  game: "live",
  u: "profile",
  replay: "profile",
  tournaments: "tournaments",
  tournament: "tournaments",
  leaderboard: "leaderboard",
};
/** Counts the routes begun: one that waited (for the catalogue, a module) gives way to a
 * newer one. */
let routing = 0;

async function refreshAccount() {
  const user = await showAccount(session, logOut);
  // A signed-in player's own socket and bell, on every page (loaded once signed in).
  if (user || social) {
    social ??= import("./online/social.js");
    (await social).startSocial(user, { session, toast, navigate: (hash) => (location.hash = hash) });
  }
  return user;
}

async function logOut() {
  await online.logOut();
  await refreshAccount();
  if (location.hash === "#/lobby") route();
  else location.hash = "#/lobby";
}

/** The pages of the old online address (/online#/game/ID, redirected here as
 * /?from=online#/game/ID): the same page at its address here; its "#/" was the lobby. */
function fromOldOnlinePage() {
  const query = new URLSearchParams(location.search);
  if (query.get("from") !== "online") return;
  const hash = !location.hash || location.hash === "#/" ? "#/lobby" : location.hash;
  history.replaceState(null, "", `/${hash}`);
}

async function route() {
  const ticket = ++routing;
  current?.destroy?.();
  current = null;
  const [path, query] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const context = { session, toast, refreshAccount, navigate: (hash) => (location.hash = hash) };
  try {
    session.catalogue = session.catalogue || (await api.catalogue());
  } catch (e) {
    view.replaceChildren(h("p", { class: "error" }, t("Cannot reach the server: {reason}", { reason: e.message })));
    return;
  }
  if (ticket !== routing) return;
  const catalogue = session.catalogue;
  window.scrollTo(0, 0);
  const titled = (page, title) => {
    current = page;
    document.title = t("{page} · Noughts", { page: title ?? page.title });
  };
  const [page, id] = parts;
  markSection(page);
  let module = null;
  if (ONLINE_PAGES[page]) {
    module = import(`./online/${ONLINE_PAGES[page]}.js`);
    await accountShown;
    // Signed in meanwhile (in another tab): the header and the page learn it here.
    if (session.user === null) await refreshAccount().catch(() => null);
    module = await module;
    if (ticket !== routing) return;
  }
  if (page === "play") titled(new GamePage(view, catalogue, params, { toast }));
  else if (page === "analysis") titled(new AnalysisPage(view, catalogue, params, { toast }));
  else if (page === "editor") titled(new EditorPage(view, catalogue, params, { toast }));
  else if (page === "puzzles" && params.get("mode") === "dashboard") titled(new PuzzleDashboard(view, catalogue, params));
  else if (page === "puzzles") titled(new PuzzlePage(view, catalogue, params, { toast }));
  else if (page === "rules") {
    rulesPage(view, catalogue, id);
    document.title = t("{page} · Noughts", { page: t("Rules") });
  } else if ((page === "login" || page === "signup") && session.user && !session.user.guest) {
    // Signed in already (a bookmark, a shared link, the back button): where the form
    // would have gone, not a form that logs in again.
    location.replace(params.get("next") ? `#${params.get("next")}` : "#/lobby");
  } else if (page === "login" || page === "signup") {
    module.accountForm(view, page, context, params.get("next"));
    document.title = t("{page} · Noughts", { page: page === "login" ? t("Log in") : t("Sign up") });
  } else if (page === "lobby") titled(new module.LobbyPage(view, context), t("Online"));
  else if (page === "game" && id) current = new module.LivePage(view, id, context);
  else if (page === "u" && id) await module.profilePage(view, id, context);
  else if (page === "replay" && id) current = await module.replayPage(view, id, context);
  else if (page === "tournaments") await module.tournamentsPage(view, context);
  else if (page === "tournament" && id) current = new module.TournamentPage(view, id, context);
  else if (page === "leaderboard") await module.leaderboardPage(view, params.get("game") || "classic", context);
  else {
    homePage(view, catalogue);
    document.title = "Noughts";
  }
}

fromOldOnlinePage();
applyTheme();
// The switches work from the first moment; every text waits for the language's
// catalogue: the one chosen in the menu, else the one the server read off the
// browser's Accept-Language into <html lang>.
setUpHeader(() => current?.redraw?.());
await setLanguage(prefs.get("lang") || document.documentElement.lang);
translateHeader();
// The header's account and the first page load together; the online pages wait for it.
const accountShown = refreshAccount().catch(() => null);
window.addEventListener("hashchange", route);
route();
// The app's shell kept for use offline (js/sw.js), once the page is up: the language's
// catalogue, awaited above, may have taken longer than the page's own load.
if ("serviceWorker" in navigator) {
  const keep = () => navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("no offline copy:", e));
  if (document.readyState === "complete") keep();
  else window.addEventListener("load", keep);
}
