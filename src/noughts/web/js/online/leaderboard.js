// The leaderboard of one game (a game spec), with a choice of the games that have ratings.

import { h } from "../dom.js";
import { online } from "../api.js";
import { botMark } from "./views.js";

export async function leaderboardPage(root, spec, { session, navigate }) {
  let board;
  try {
    board = await online.leaderboard(spec);
  } catch (e) {
    root.replaceChildren(h("section", { class: "page" }, h("h1", {}, "Leaderboard"), h("p", { class: "error" }, e.message)));
    return;
  }
  const specs = new Map(session.catalogue.games.map((g) => [g.key, g.title]));
  for (const g of board.games) specs.set(g.spec, g.title);
  const choice = h("select", { id: "leaderboard-game", "aria-label": "game", onchange: (e) => navigate(`#/leaderboard?game=${encodeURIComponent(e.target.value)}`) },
    ...[...specs].map(([value, title]) => h("option", { value, selected: value === board.spec || null }, title)));
  const table = board.players.length
    ? h("table", { class: "board-table", id: "leaderboard" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Games"))),
        h("tbody", {}, ...board.players.map((p) => h("tr", {}, h("td", { class: "num" }, p.rank), h("td", {}, botMark(h, p.bot), h("a", { href: `#/u/${encodeURIComponent(p.name)}` }, p.name)), h("td", { class: "num" }, p.rating, p.provisional ? "?" : "", h("small", { class: "muted" }, ` ±${2 * p.deviation}`)), h("td", { class: "num" }, p.games)))))
    : h("p", { class: "muted", id: "leaderboard-empty" }, "Nobody has played this game rated yet.");
  root.replaceChildren(h("section", { class: "page" }, h("h1", {}, "Leaderboard: ", board.title), h("label", {}, "Game ", choice), table));
  document.title = `Leaderboard · ${board.title} · Noughts`;
}
