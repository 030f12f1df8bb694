// ultimate and nine-board: nine local boards; the playable ones are outlined, decided
// ones covered by their big mark.

import { h, markSvg, rovingFocus } from "../dom.js";
import { t } from "../i18n.js";
import { animateIn, drawWinLine, movesByCell, rebuild, vanishing, vanishTitle } from "./common.js";

export class UltimateBoard {
  constructor(root, { onMove }) {
    this.onMove = onMove;
    this.el = h("div", { class: "ultimate-board", role: "group", "aria-label": t("nine boards") });
    root.append(this.el);
    rovingFocus(this.el, [9, 9], (r, c) => this.el.querySelector(`[data-row="${r}"][data-col="${c}"]`));
  }

  render(view, { interactive, hint }) {
    const { cells, boards, playable, rule } = view.board;
    const legal = movesByCell(view);
    const winningCells = new Set(view.winning_line);
    // Ultimate is won by three boards; nine-board by a line inside one board, which is
    // then the winning board too.
    const winningBoards = new Set(rule === "ultimate" ? view.winning_boards : view.winning_line.map((i) => Math.floor(i / 9)));
    const last = view.last_move ? view.last_move.cell : null;
    const open = new Set(view.status === "ongoing" ? playable : []);
    // One board to play in gets a bold frame; a free choice only a light one.
    this.el.classList.toggle("free", open.size > 1);
    this.el.classList.toggle("over", view.status !== "ongoing");
    rebuild(this.el, () =>
      boards.map((result, b) =>
        h(
          "div",
          {
            class: ["local", open.has(b) && "playable", result && `decided decided-${result}`, winningBoards.has(b) && "win"],
            "data-board": b,
            role: "group",
            "aria-label": !result ? t("board {n}", { n: b + 1 }) : result === "draw" ? t("board {n}, drawn", { n: b + 1 }) : t("board {n}, won by {side}", { n: b + 1, side: result.toUpperCase() }),
          },
          [...Array(9).keys()].map((c) => {
            const i = b * 9 + c;
            const mark = cells[i];
            const move = interactive ? legal.get(i)?.[0] : undefined;
            const fading = mark ? vanishing(view, i) : null;
            const label = `${b + 1}${c + 1}`;
            return h(
              "button",
              {
                class: ["cell", mark && `has-${mark}`, move && "playable", winningCells.has(i) && "win", last === i && "last",
                  fading && "vanishing", fading?.next && "vanishing-next", hint && move?.text === hint && "hint"],
                "data-cell": i,
                "data-row": Math.floor(b / 3) * 3 + Math.floor(c / 3),
                "data-col": (b % 3) * 3 + (c % 3),
                "data-move": move ? move.text : null,
                tabindex: -1,
                "aria-label": `${label}: ${mark ? mark.toUpperCase() : "empty"}`,
                title: fading ? vanishTitle(view.board, fading.player, fading.next) : label,
                "aria-disabled": move ? null : "true",
                onclick: () => move && this.onMove(move.text),
              },
              // Its move text in the corner of an empty cell, as moves are typed: "56" is
              // cell 6 of board 5.
              mark ? markSvg(mark, last === i ? "fresh" : "") : h("span", { class: "cell-name", "aria-hidden": "true" }, label),
            );
          }),
          // In ultimate a decided board is out of play: its big mark covers it. In
          // nine-board the first line ends the game, so only the winning line shows.
          rule === "ultimate" && result && result !== "draw" ? h("div", { class: "big-mark" }, markSvg(result)) : null,
          rule === "ultimate" && result === "draw" ? h("div", { class: "big-mark draw" }, "draw") : null,
        ),
      ),
    );
    const fresh = last === null ? null : this.el.querySelector(`[data-cell="${last}"] .mark`);
    if (fresh) animateIn(fresh, this, view);
    // Ultimate is won by three boards in a row, nine-board by a line in one board.
    const ends = view.winning_boards.length >= 3
      ? view.winning_boards.map((b) => this.el.querySelector(`[data-board="${b}"]`))
      : view.winning_line.map((i) => this.el.querySelector(`[data-cell="${i}"]`));
    drawWinLine(this.el, ends);
  }
}
