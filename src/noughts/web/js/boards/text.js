// A game whose board kind this page has no drawing for (the server names the kind of
// every game's board, and sends this one as "text"): the position's plain-text diagram,
// and its legal moves as buttons, so that a new game plays on every page from its first
// day, before it earns a board of its own.

import { h, patchChildren } from "../dom.js";
import { t } from "../i18n.js";

export class TextBoard {
  constructor(root, { onMove }) {
    this.onMove = onMove;
    this.el = h("div", { class: "text-board" });
    root.append(this.el);
  }

  render(view, { interactive, hint }) {
    const diagram = view.board.diagram ?? view.position;
    patchChildren(this.el, [
      h("pre", { class: "diagram", role: "img", "aria-label": `board: ${view.position}` }, diagram),
      h(
        "div",
        { class: "text-moves", role: "group", "aria-label": t("moves") },
        ...(interactive ? view.legal : []).map((move) =>
          h("button", { class: ["button", "text-move", hint === move.text && "hint"], "data-move": move.text, onclick: () => this.onMove(move.text) }, move.text),
        ),
      ),
    ]);
  }
}
