// The rules of every game on one page.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function rulesPage(root, catalogue, focus) {
  root.replaceChildren(
    h(
      "section",
      { class: "page rules-page" },
      h("h1", {}, t("Rules")),
      h("p", { class: "lead" }, t("X always moves first. A line is a row, a column or a diagonal.")),
      catalogue.games.map((game) =>
        h(
          "article",
          { class: "rules-card", id: `rules-${game.key}` },
          h("h2", {}, game.title),
          game.rules.map((p) => h("p", {}, p)),
          h("p", { class: "notation" }, h("strong", {}, t("Notation: ")), game.notation),
          h("a", { class: "button", href: `#/play?spec=${encodeURIComponent(game.key)}&mode=local` }, t("Play {game}", { game: game.title })),
        ),
      ),
    ),
  );
  if (focus) document.getElementById(`rules-${focus}`)?.scrollIntoView();
}
