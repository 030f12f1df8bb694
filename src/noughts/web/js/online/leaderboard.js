// The leaderboard of one game (a game spec), with a choice of the games that have
// ratings. It ranks people whose rating has settled; provisional ratings (marked ?) and
// the computer's accounts show when asked (the page's address keeps the choice).

import { h } from "../dom.js";
import { online } from "../api.js";
import { t } from "../i18n.js";
import { botMark } from "./views.js";

/** The page's filters, read from its address (#/leaderboard?game=…&provisional=1&bots=1). */
function filters() {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  return { provisional: params.get("provisional") === "1", bots: params.get("bots") === "1" };
}

function address(spec, { provisional, bots }) {
  const params = new URLSearchParams({ game: spec });
  if (provisional) params.set("provisional", "1");
  if (bots) params.set("bots", "1");
  return `#/leaderboard?${params}`;
}

export async function leaderboardPage(root, spec, { session, navigate }) {
  const shown = filters();
  let board;
  try {
    board = await online.leaderboardOf(spec, shown);
  } catch (e) {
    root.replaceChildren(h("section", { class: "page" }, h("h1", {}, t("Leaderboard")), h("p", { class: "error" }, e.message)));
    return;
  }
  const specs = new Map(session.catalogue.games.map((g) => [g.key, g.title]));
  for (const g of board.games) specs.set(g.spec, g.title);
  const choice = h("select", { id: "leaderboard-game", onchange: (e) => navigate(address(e.target.value, shown)) },
    ...[...specs].map(([value, title]) => h("option", { value, selected: value === board.spec || null }, title)));
  const toggle = (key, label) => h("label", { class: "check" },
    h("input", { type: "checkbox", id: `leaderboard-${key}`, checked: shown[key] || null, onchange: (e) => navigate(address(board.spec, { ...shown, [key]: e.target.checked })) }),
    label);
  const rating = (p) => h("td", { class: "num", title: p.provisional ? t("provisional: too few games yet, or none for a long time") : null },
    p.rating, p.provisional ? "?" : "");
  const table = board.players.length
    ? h("table", { class: "board-table", id: "leaderboard" },
        h("thead", {}, h("tr", {}, h("th", { class: "num" }, "#"), h("th", {}, t("Player")), h("th", { class: "num" }, t("Rating")), h("th", { class: "num" }, t("Games")))),
        h("tbody", {}, ...board.players.map((p) => h("tr", {}, h("td", { class: "num" }, p.rank), h("td", {}, botMark(h, p.bot), h("a", { href: `#/u/${encodeURIComponent(p.name)}` }, p.name)), rating(p), h("td", { class: "num" }, p.games)))))
    : h("p", { class: "muted", id: "leaderboard-empty" }, shown.provisional
      ? t("Nobody has played this game rated yet.")
      : t("Nobody has a settled rating in this game yet: a rating settles after about ten rated games. Show provisional ratings to see everyone."));
  root.replaceChildren(h("section", { class: "page leaderboard" },
    h("h1", {}, t("Leaderboard: {game}", { game: board.title })),
    h("div", { class: "leaderboard-filters" },
      h("label", {}, t("Game"), " ", choice),
      toggle("provisional", t("Show provisional ratings (?)")),
      toggle("bots", t("Show bots"))),
    h("p", { class: "muted" }, t("Ranked: people whose rating has settled. A rating marked ? is provisional: too few games yet, or none for a long time.")),
    table));
  document.title = t("Leaderboard · {game} · Noughts", { game: board.title });
}
