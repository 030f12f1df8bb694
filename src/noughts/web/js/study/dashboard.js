// The puzzle dashboard (lichess's): the signed-in player's puzzles of the last days by
// game and by theme, how many were tried and solved and the rating they won; a theme
// leads to its puzzles. The counts are the server's (GET /api/puzzles/dashboard).
// #/puzzles?mode=dashboard&days=30

import { api, online } from "../api.js";
import { h } from "../dom.js";
import { t, tl, tn } from "../i18n.js";

/** The puzzle page's modes, as its tabs name them (in the page's language, when drawn):
 * the one list both pages draw.
 * @type {[string, () => string][]} */
export const PUZZLE_MODES = [
  ["rated", () => t("Puzzles")],
  ["daily", () => t("Daily")],
  ["streak", () => t("Streak")],
  ["dashboard", () => t("Dashboard")],
];
const DAYS = [7, 30, 90, 365];

/** The modes' tabs, `current` marked; `link(mode)` is each one's address. */
export function puzzleTabs(current, link) {
  return h(
    "nav",
    { class: "tabs", "aria-label": t("puzzle modes") },
    PUZZLE_MODES.map(([mode, label]) => h("a", { class: ["tab", current === mode && "current"], href: link(mode), "aria-current": current === mode ? "page" : null, id: `mode-${mode}` }, label())),
  );
}

/** "3 of 4 (75%)"; a share of none is no share. */
export function solvedShare({ attempts, solved }) {
  return attempts ? t("{solved} of {attempts} ({share}%)", { solved, attempts, share: Math.round((100 * solved) / attempts) }) : t("none tried");
}

/** A rating change with its sign: "+12", "−8", "0". */
export function signed(change) {
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "0";
}

export class PuzzleDashboard {
  constructor(root, catalogue, params) {
    this.root = root;
    this.days = DAYS.includes(Number(params.get("days"))) ? Number(params.get("days")) : 30;
    this.title = t("Puzzle dashboard");
    this.body = h("div", { class: "dashboard-body", id: "dashboard", "aria-live": "polite" }, h("p", { class: "muted" }, t("Loading…")));
    const link = (mode) => (mode === "rated" ? "#/puzzles" : `#/puzzles?mode=${mode}`);
    this.root.replaceChildren(h("section", { class: "page puzzle-dashboard" }, h("h1", {}, this.title), puzzleTabs("dashboard", link), this.body));
    this.load();
  }

  destroy() {}

  async load() {
    let user = null;
    try {
      ({ user } = await online.me());
    } catch {
      user = null;
    }
    if (!user) {
      this.body.replaceChildren(h("p", { id: "sign-in-note" }, ...tl("<a>Sign in online</a> to see your puzzle results by game and theme.", [(words) => h("a", { href: "#/login?next=/puzzles?mode=dashboard" }, words)])));
      return;
    }
    try {
      this.draw(await api.puzzleDashboard(this.days));
    } catch (e) {
      this.body.replaceChildren(h("p", { class: "error", id: "error" }, t("The dashboard cannot be loaded: {error}", { error: e.message })));
    }
  }

  draw(data) {
    const days = h(
      "select",
      { id: "dashboard-days", onchange: (e) => (location.hash = `#/puzzles?mode=dashboard&days=${e.target.value}`) },
      DAYS.map((d) => h("option", { value: d, selected: d === data.days }, d === 365 ? t("the last year") : tn("the last {n} day", "the last {n} days", d))),
    );
    const r = data.rating;
    const table = (id, caption, first, rows) =>
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          { class: "board-table dashboard-table", id },
          h("caption", {}, caption),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, first), h("th", { scope: "col", class: "num" }, t("Solved")), h("th", { scope: "col", class: "num" }, t("Rating")))),
          h("tbody", {}, rows.map(({ name, href, results }) => h("tr", {}, h("th", { scope: "row" }, h("a", { href }, name)), h("td", { class: "num" }, solvedShare(results)), h("td", { class: ["num", results.rating_change > 0 && "gain", results.rating_change < 0 && "loss"] }, signed(results.rating_change))))),
        ),
      );
    const games = data.games.map((g) => ({ name: g.title, href: `#/puzzles?spec=${encodeURIComponent(g.spec)}`, results: g }));
    const themes = data.themes.map((theme) => ({ name: theme.theme, href: `#/puzzles?theme=${encodeURIComponent(theme.theme)}`, results: theme }));
    this.body.replaceChildren(
      ...[
        h("p", { class: "dashboard-summary" }, h("label", { for: "dashboard-days" }, t("Over"), " ", days), " ", h("span", { id: "dashboard-total" }, t("you solved {share}, {change} rating", { share: solvedShare(data.total), change: signed(data.total.rating_change) }))),
        h("p", { class: "muted dashboard-rating" }, t("Your puzzle rating: {rating}", { rating: `${r.rating}${r.provisional ? "?" : ""}` })),
        data.total.attempts ? table("dashboard-games", t("By game"), t("Game"), games) : h("p", { class: "muted", id: "dashboard-empty" }, ...tl("No puzzles tried in these days. <a>Solve some</a>.", [(words) => h("a", { href: "#/puzzles" }, words)])),
        data.total.attempts ? table("dashboard-themes", t("By theme (a puzzle counts under each of its themes)"), t("Theme"), themes) : null,
      ].filter(Boolean),
    );
  }
}
