// gobblet and matryoshka: a 3x3 board of stacks between the two hands. A figure is
// played by dragging it (pointer events: mouse, pen and touch alike) or by selecting it
// (click, Enter, or the keys S M L) and then its target; legal targets light up.

import { h, rovingFocus } from "../dom.js";
import { t } from "../i18n.js";
import { drawWinLine, rebuild, reducedMotion } from "./common.js";

/** "X small" to "O large": a figure's name, whole, in the page's language. */
const FIGURE_NAMES = () => ({
  x: [t("X small"), t("X medium"), t("X large")],
  o: [t("O small"), t("O medium"), t("O large")],
});
const SIZE_KEYS = { s: 1, m: 2, l: 3, 1: 1, 2: 2, 3: 3 };

export class GobbletBoard {
  constructor(root, { onMove, onSelect }) {
    this.onMove = onMove;
    this.onSelect = onSelect || (() => {});
    this.hands = { x: h("div", { class: "hand hand-x", role: "group", "aria-label": t("X's hand") }), o: h("div", { class: "hand hand-o", role: "group", "aria-label": t("O's hand") }) };
    this.grid = h("div", { class: "gobblet-grid", role: "group", "aria-label": t("board") });
    this.el = h("div", { class: "gobblet-board" }, this.hands.x, this.grid, this.hands.o);
    root.append(this.el);
    this.selected = null;
    this.view = null;
    rovingFocus(this.grid, [3, 3], (r, c) => this.grid.querySelector(`[data-row="${r}"][data-col="${c}"]`));
    this.grid.addEventListener("keydown", (e) => {
      const size = SIZE_KEYS[e.key.toLowerCase()];
      if (size && !e.ctrlKey && !e.metaKey && !e.altKey && this.interactive) {
        e.preventDefault();
        e.stopPropagation();
        this.select({ size, source: null });
      } else if (e.key === "Escape" && this.selected) {
        e.stopPropagation();
        this.select(null);
      }
    });
  }

  /** The legal moves of the current selection. */
  targets(selection = this.selected) {
    if (!selection || !this.view) return new Map();
    const out = new Map();
    for (const move of this.view.legal) {
      const fits = selection.source === null ? move.source === null && move.size === selection.size : move.source === selection.source;
      if (fits) out.set(move.cell, move);
    }
    return out;
  }

  select(selection) {
    if (selection && this.targets(selection).size === 0) selection = null;
    this.selected = selection;
    this.onSelect(selection);
    this.paint();
  }

  render(view, { interactive, hint }) {
    this.view = view;
    this.interactive = interactive;
    this.hint = hint;
    if (!interactive || (this.selected && this.targets().size === 0)) this.selected = null;
    this.paint();
  }

  paint() {
    const view = this.view;
    const { stacks, hands, shifts } = view.board;
    const targets = this.targets();
    const hintMove = this.hint ? view.legal.find((m) => m.text === this.hint) : null;
    const winning = new Set(view.winning_line);
    const last = view.last_move;
    for (const player of ["x", "o"]) {
      const mine = this.interactive && view.turn === player;
      const hand = this.hands[player];
      hand.classList.toggle("to-move", view.status === "ongoing" && view.turn === player);
      hand.replaceChildren(
        h("div", { class: "hand-label" }, `${player.toUpperCase()}'s hand`),
        h(
          "div",
          { class: "hand-figures" },
          [3, 2, 1].map((size) =>
            [...Array(hands[player][size - 1]).keys()].map((k) => {
              const playable = mine && view.legal.some((m) => m.source === null && m.size === size);
              const chosen = this.selected && this.selected.source === null && this.selected.size === size && k === 0 && mine;
              const fig = figure(player, size, [playable && "grab", chosen && "selected", hintMove && hintMove.source === null && hintMove.size === size && k === 0 && mine && "hint"]);
              const button = h(
                "button",
                {
                  class: "hand-slot",
                  "data-player": player,
                  "data-size": size,
                  "aria-label": t("{figure} figure in hand", { figure: FIGURE_NAMES()[player][size - 1] }),
                  "aria-disabled": playable ? null : "true",
                  tabindex: playable && k === 0 ? 0 : -1,
                  onclick: () => playable && this.select(chosen ? null : { size, source: null }),
                },
                fig,
              );
              if (playable) this.draggable(button, { size, source: null }, player);
              return button;
            }),
          ),
        ),
      );
    }
    // TRANSLATORS: between the figures of a stack, top last: "X small under O large"
    const under = t(" under ");
    rebuild(this.grid, () =>
      stacks.map((stack, cell) => {
        const top = stack[stack.length - 1];
        const target = targets.get(cell);
        const movable = this.interactive && shifts && top && top.player === view.turn && view.legal.some((m) => m.source === cell);
        const source = this.selected && this.selected.source === cell;
        const below = stack.slice(0, -1);
        const el = h(
          "button",
          {
            class: ["cell", target && "target", this.selected && !target && !source && "blocked", source && "selected",
              winning.has(cell) && "win", last && (last.cell === cell || last.source === cell) && "last",
              hintMove && (hintMove.cell === cell || hintMove.source === cell) && "hint"],
            "data-cell": cell,
            "data-row": Math.floor(cell / 3),
            "data-col": cell % 3,
            "data-move": target ? target.text : null,
            tabindex: -1,
            "aria-label": stack.length ? t("cell {n}: {figures}", { n: cell + 1, figures: stack.map(describe).join(under) }) : t("cell {n}: empty", { n: cell + 1 }),
            title: t("cell {n}", { n: cell + 1 }),
            onclick: () => this.clickCell(cell, target, movable),
          },
          h("span", { class: "cell-name", "aria-hidden": "true" }, cell + 1),
          top ? figure(top.player, top.size, [movable && "grab"]) : null,
          below.length ? h("div", { class: "under", title: t("covered figures") }, below.map((f) => h("span", { class: `chip chip-${f.player} size-${f.size}` }))) : null,
        );
        if (movable) this.draggable(el, { size: top.size, source: cell }, top.player);
        return el;
      }),
    );
    this.slide(view);
    drawWinLine(this.grid, view.winning_line.map((i) => this.grid.querySelector(`[data-cell="${i}"]`)));
  }

  /** The figure just played slides in from where it came (its cell, or its hand), once. */
  slide(view) {
    const last = view.last_move;
    const key = `${view.moves.length}:${view.moves[view.moves.length - 1] ?? ""}`;
    const previous = this.slid;
    this.slid = key;
    const dropped = this.dropped;
    if (previous !== key) this.dropped = false;
    if (dropped || !last || previous === key || previous === undefined || reducedMotion()) return;
    const fig = this.grid.querySelector(`[data-cell="${last.cell}"] > .figure`);
    const mover = view.turn === "x" ? "o" : "x";
    const from = last.source === null || last.source === undefined ? this.hands[mover] : this.grid.querySelector(`[data-cell="${last.source}"]`);
    if (!fig || !from || !fig.animate) return;
    const a = from.getBoundingClientRect();
    const b = fig.getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2);
    const dy = a.top + a.height / 2 - (b.top + b.height / 2);
    fig.dataset.slide = last.source === null || last.source === undefined ? "hand" : `cell-${last.source}`;
    fig.animate([{ transform: `translate(${dx}px, ${dy}px) scale(1.08)` }, { transform: "none" }], { duration: 320, easing: "cubic-bezier(.2,.8,.3,1)" });
  }

  clickCell(cell, target, movable) {
    if (target) {
      this.selected = null;
      this.onMove(target.text);
    } else if (movable) {
      this.select(this.selected && this.selected.source === cell ? null : { size: null, source: cell });
    } else if (this.selected) {
      this.select(null);
    }
  }

  /** Pointer dragging; a press without movement stays a click (the select path). */
  draggable(el, selection, player) {
    el.addEventListener("pointerdown", (down) => {
      if (down.button !== 0) return;
      const start = { x: down.clientX, y: down.clientY };
      let ghost = null;
      const move = (e) => {
        if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) < 6) return;
        if (!ghost) {
          this.selected = selection;
          this.paint();
          ghost = figure(player, selection.size ?? sizeAt(this.view, selection.source), ["ghost"]);
          document.body.append(ghost);
          document.body.classList.add("dragging");
        }
        ghost.style.left = `${e.clientX}px`;
        ghost.style.top = `${e.clientY}px`;
        for (const over of this.grid.querySelectorAll(".drop-over")) over.classList.remove("drop-over");
        document.elementFromPoint(e.clientX, e.clientY)?.closest(".cell.target")?.classList.add("drop-over");
      };
      const up = (e) => {
        window.removeEventListener("pointermove", move);
        window.removeEventListener("pointerup", up);
        window.removeEventListener("pointercancel", up);
        if (!ghost) return; // a click: handled by onclick
        ghost.remove();
        document.body.classList.remove("dragging");
        const cell = /** @type {HTMLElement | null} */ (document.elementFromPoint(e.clientX, e.clientY)?.closest(".gobblet-grid .cell"));
        const target = cell && e.type === "pointerup" ? this.targets(selection).get(Number(cell.dataset.cell)) : null;
        this.selected = null;
        // The click that follows a drag must not select what was just dropped.
        el.addEventListener("click", (c) => c.stopImmediatePropagation(), { capture: true, once: true });
        this.dropped = Boolean(target); // put down by hand: no slide after it
        if (target) this.onMove(target.text);
        else this.paint();
      };
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", up);
      window.addEventListener("pointercancel", up);
    });
  }
}

function sizeAt(view, cell) {
  const stack = view.board.stacks[cell];
  return stack[stack.length - 1].size;
}

function describe(f) {
  return FIGURE_NAMES()[f.player][f.size - 1];
}

function figure(player, size, extra = []) {
  return h("span", { class: ["figure", `fig-${player}`, `size-${size}`, ...extra], "aria-hidden": "true" }, h("span", { class: "eyes" }));
}
