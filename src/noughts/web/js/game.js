// The game page: the board, and around it the turn, the result, the move list (click
// to review), undo, new game, hint and evaluation, the rules and the keyboard.
//
// The page holds the game as spec + moves and asks the server for every position;
// it keeps the positions it was given (one per ply) for review and undo.

import { api } from "./api.js";
import { sideName, stones } from "./boards/common.js";
import { boardFor } from "./boards/index.js";
import { h } from "./dom.js";
import { formatNumber, t, tn } from "./i18n.js";
import { chosenLevel, strongestLevel } from "./levels.js";
import { dropGame, newGameId, saveGame } from "./saved.js";
import { effect } from "./sound.js";
import { describeSpec } from "./spec.js";
import { boundTitle, moveValue, verdict } from "./values.js";


const HINT_SECONDS = 1;
/** A question asked before a new game goes back to its button after this long (milliseconds), as the live game's resign. */
const CONFIRM_WAIT = 3000;

export class GamePage {
  constructor(root, catalogue, params, { toast }) {
    this.root = root;
    this.toast = toast;
    this.spec = params.get("spec") || "classic";
    this.key = this.spec.split(/[:\s]/)[0];
    this.info = catalogue.games.find((g) => g.key === this.key) || null;
    this.title = this.info ? this.info.title : this.spec;
    this.mode = params.get("mode") === "computer" ? "computer" : "local";
    this.level = chosenLevel(catalogue, params.get("level"));
    this.hintLevel = strongestLevel(catalogue);
    this.human = params.get("side") === "o" ? "o" : "x";
    // A game can be opened part-way: #/play?spec=classic&moves=5,1 (links to positions).
    this.initialMoves = (params.get("moves") || "").split(",").filter(Boolean);
    // A game from a set-up position (the analysis board's "Retry from here"); new games keep it.
    this.startPosition = params.get("start") || null;
    this.localFirst = params.get("first") === "2" ? 2 : 1; // in two-player games: which player (1 or 2) has X
    // The game's name in the saved list; the address carries it so a reload finds it.
    this.id = /^[a-z0-9]{1,16}$/.test(params.get("game") || "") ? params.get("game") : newGameId();
    this.views = [];
    this.reviewing = null;
    this.thinking = false;
    this.token = 0; // bumped to drop answers that arrive after undo or a new game
    this.evaluation = null; // the strongest level's analysis of one position: {analysis, ply}
    this.hint = null;
    this.selection = null;
    this.confirming = false; // "New game?" asked: a game in progress is not left on one key
    this.pushAddress = false; // the next address is a history entry of its own (a new game)
    // A game with an exact table is judged after every move at the cost of a look-up; other
    // games when a hint is asked for. A computer opponent's own estimate is never shown:
    // a weakened level judges badly on purpose.
    this.exact = this.info?.abilities.table === "first use" && !this.spec.includes(":");
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    this.layout();
    this.start();
  }

  destroy() {
    this.token++;
    clearTimeout(this.confirmTimer);
    document.removeEventListener("keydown", this.keys);
  }

  redraw() {
    if (this.views.length) this.render();
  }

  get view() {
    return this.views[this.views.length - 1];
  }

  get game() {
    return { spec: this.view.spec, start: this.view.start, moves: this.view.moves };
  }

  // -- layout ------------------------------------------------------------------------

  layout() {
    this.boardBox = h("div", { class: "board-box" });
    this.banner = h("div", { class: "result-banner", id: "result", hidden: true, role: "status" });
    this.reviewBar = h("div", { class: "review-bar", hidden: true });
    this.status = h("p", { class: "status", id: "status", "aria-live": "polite" });
    this.players = h("p", { class: "players" });
    this.lastMove = h("p", { class: "last-move", id: "last-move" });
    this.heading = h("h1", {}, this.title);
    this.evalBar = h("div", { class: "eval-fill" });
    this.evalBox = h("div", { class: "eval-bar", hidden: true, title: t("{x}'s side to the left, {o}'s to the right", { x: "X", o: "O" }) }, this.evalBar);
    this.evalText = h("span", { class: "eval-text", id: "eval-text" });
    this.evalEngine = h("p", { class: "engine-info muted", id: "eval-engine" });
    this.evalDetails = h("details", { class: "engine-details", hidden: true }, h("summary", {}, t("Details")), this.evalEngine);
    this.hintList = h("ol", { class: "hint-moves" });
    this.moveList = h("ol", { class: "move-list", id: "move-list", "aria-label": t("moves") });
    this.moveInput = h("input", { id: "move-input", type: "text", autocomplete: "off", spellcheck: "false", "aria-label": t("type a move") });
    const button = (id, label, key, action) =>
      h("button", { class: "button", id, type: "button", onclick: action, title: t("{action} ({key})", { action: label, key }), "aria-keyshortcuts": key }, label, h("kbd", {}, key));
    this.buttons = {
      undo: button("undo", t("Undo"), "u", () => this.undo()),
      hint: button("hint", t("Hint"), "h", () => this.askHint()),
      fresh: button("new-game", t("New game"), "n", (e) => this.askNewGame(e.detail === 0)),
    };
    this.actions = h("div", { class: "actions" });
    this.drawActions();
    const specLabel = describeSpec(this.spec, this.info);
    this.root.replaceChildren(
      h(
        "section",
        { class: `page game-page game-${this.key}` },
        h(
          "div",
          { class: "board-column" },
          h("div", { class: "game-head" }, this.heading, specLabel ? h("span", { class: "chip" }, specLabel) : null),
          this.status,
          h("div", { class: "board-wrap" }, this.boardBox),
          this.reviewBar,
        ),
        this.banner,
        h(
          "section",
          { class: "panel", "aria-label": t("the game") },
          this.players,
          this.lastMove,
          this.actions,
          h(
            "form",
            { class: "move-form", onsubmit: (e) => (e.preventDefault(), this.typed()) },
            h("label", { for: "move-input" }, t("Move")),
            this.moveInput,
            h("button", { class: "button", type: "submit" }, t("Play")),
          ),
          h(
            "section",
            { class: "evaluation", "aria-label": t("evaluation") },
            h("h2", {}, t("Evaluation")),
            this.evalBox,
            this.evalText,
            this.hintList,
            this.evalDetails,
          ),
          h("section", { class: "moves" }, h("h2", {}, t("Moves")), this.moveList),
          h(
            "details",
            { class: "rules" },
            h("summary", {}, t("Rules")),
            (this.info?.rules || []).map((p) => h("p", {}, p)),
            this.info ? h("p", { class: "notation" }, h("strong", {}, t("Notation: ")), this.info.notation) : null,
          ),
          h(
            "details",
            { class: "keys" },
            h("summary", {}, t("Keyboard")),
            h(
              "dl",
              {},
              [
                [t("Tab, arrows"), t("move around the board")],
                [t("Enter, Space"), t("play the focused cell")],
                this.key === "gobblet" || this.key === "matryoshka" ? ["S, M, L", t("pick a figure from your hand; Esc drops it")] : null,
                ["u / h / n", t("undo / hint / new game")],
                [t("[ and ]"), t("step through the moves; Esc returns")],
                ["/", t("type a move")],
              ].filter(Boolean).map(([k, d]) => [h("dt", {}, k), h("dd", {}, d)]),
            ),
          ),
          this.analysisAnchor = h("a", { class: "button subtle", id: "analysis-link", href: "#/analysis" }, t("Analysis board")),
          h("a", { class: "button subtle", href: "#/" }, t("← All games")),
        ),
      ),
    );
  }

  // -- the game ----------------------------------------------------------------------

  /** `id`: the name of the game in the saved list, taken once the game is drawn. */
  async start(id = this.id) {
    const token = ++this.token;
    try {
      const moves = this.initialMoves;
      this.initialMoves = [];
      const views = await Promise.all([...Array(moves.length + 1).keys()].map((n) => api.newGame(this.spec, moves.slice(0, n), this.startPosition)));
      if (token !== this.token) return;
      this.views = views;
      this.id = id;
      this.spec = views[0].spec;
      // The game's name from the server: "Gomoku" for gomoku's spec, not its family's.
      this.title = views[0].title;
      this.heading.textContent = this.title;
    } catch (e) {
      this.root.replaceChildren(h("section", { class: "page" }, h("h1", {}, "This game cannot start"), h("p", { class: "error", id: "error" }, e.message), h("a", { class: "button", href: "#/" }, "Choose a game")));
      return;
    }
    const Board = boardFor(this.view.board.kind);
    this.boardBox.replaceChildren();
    this.board = new Board(this.boardBox, { onMove: (text) => this.play(text), onSelect: (s) => s && effect("select") });
    this.reviewing = null;
    this.evaluation = null;
    this.hint = null;
    this.moveInput.placeholder = this.view.legal.length ? t("e.g. {move}", { move: this.view.legal[Math.floor(this.view.legal.length / 2)].text }) : "";
    this.render();
    this.judge();
    this.computerTurn();
  }

  /** A game in progress is not thrown away on one key or click: "New game?" is asked
   * first (as the live game's resign), and the game is kept all the same, under "continue
   * your game", the Back button a step away. A finished or empty game is left at once. */
  askNewGame(byKeyboard) {
    const live = this.view;
    if (!live || live.status !== "ongoing" || !live.moves.length) {
      this.newGame();
      return;
    }
    if (this.confirming) return;
    clearTimeout(this.confirmTimer);
    this.confirming = true;
    // From a mouse the question goes back by itself; from the keyboard it waits for ✗ or Escape.
    if (!byKeyboard) this.confirmTimer = setTimeout(() => this.unask(), CONFIRM_WAIT);
    this.drawActions();
    this.actions.querySelector("#new-game-confirm")?.focus();
  }

  /** The question goes back to its button, which has the focus if the question had it. */
  unask() {
    clearTimeout(this.confirmTimer);
    if (!this.confirming) return;
    const hadFocus = this.actions.querySelector(".confirm")?.contains(document.activeElement);
    this.confirming = false;
    this.drawActions();
    if (hadFocus) this.buttons.fresh.focus();
  }

  newGame() {
    const hadFocus = this.actions.querySelector(".confirm")?.contains(document.activeElement);
    clearTimeout(this.confirmTimer);
    this.confirming = false;
    this.drawActions();
    if (hadFocus) this.buttons.fresh.focus();
    // The game before stays as it was: in the saved list if unfinished, and at its own
    // address, a history entry behind the new game's (Back returns to it).
    this.pushAddress = true;
    // The first player alternates: the sides swap with every new game.
    if (this.mode === "computer") this.human = this.human === "x" ? "o" : "x";
    else this.localFirst = 3 - this.localFirst;
    this.start(newGameId());
  }

  /** Undo, hint and new game; while "New game?" is asked, its question with ✓ and ✗. */
  drawActions() {
    if (!this.confirming) {
      this.actions.replaceChildren(this.buttons.undo, this.buttons.hint, this.buttons.fresh);
      return;
    }
    const yes = t("Yes, start a new game (this one stays under “continue your game”)");
    const no = t("No, keep playing");
    this.actions.replaceChildren(
      this.buttons.undo,
      this.buttons.hint,
      h(
        "div",
        { class: "confirm", role: "group", "aria-labelledby": "new-game-question", onkeydown: (e) => e.key === "Escape" && (e.preventDefault(), this.unask()) },
        h("span", { id: "new-game-question" }, t("Leave this game for a new one?")),
        h("button", { class: "button primary", type: "button", id: "new-game-confirm", "aria-label": yes, title: yes, onclick: () => this.newGame() }, "✓"),
        h("button", { class: "button", type: "button", id: "new-game-cancel", "aria-label": no, title: no, onclick: () => this.unask() }, "✗"),
      ),
    );
  }

  humanToMove() {
    const v = this.view;
    return v.status === "ongoing" && (this.mode === "local" || v.turn === this.human);
  }

  async play(text) {
    if (this.thinking || this.reviewing !== null || !this.humanToMove()) return;
    const token = this.token;
    let next;
    try {
      next = await api.play(this.game, text);
    } catch (e) {
      effect("error");
      this.toast(e.message, "error");
      return;
    }
    if (token !== this.token) return;
    this.push(next);
    this.computerTurn();
  }

  typed() {
    const text = this.moveInput.value.trim();
    if (!text) return;
    if (this.reviewing !== null) this.reviewing = null;
    if (!this.humanToMove() || this.thinking) {
      this.toast(this.view.status === "ongoing" ? t("wait for your turn") : t("the game is over: start a new one"), "error");
      return;
    }
    this.moveInput.value = "";
    this.play(text);
  }

  push(next) {
    this.views.push(next);
    this.hint = null;
    this.hintList.replaceChildren();
    const mover = next.turn === "x" ? "o" : "x";
    effect(mover);
    this.judge();
    if (next.status !== "ongoing") {
      const winner = next.status === "draw" ? null : next.status[0];
      effect(!winner ? "draw" : this.mode === "computer" && winner !== this.human ? "loss" : "win");
    }
    this.render();
  }

  async computerTurn() {
    const v = this.view;
    if (this.mode !== "computer" || v.status !== "ongoing" || v.turn === this.human) return;
    const token = ++this.token;
    this.thinking = true;
    this.render();
    let answer;
    try {
      answer = await api.computer(this.game, this.level);
    } catch (e) {
      if (token !== this.token) return;
      this.thinking = false;
      this.toast(t("The computer could not move: {reason}", { reason: e.message }), "error");
      this.render();
      return;
    }
    if (token !== this.token) return;
    this.thinking = false;
    this.push(answer.game);
  }

  undo() {
    if (this.views.length <= 1) return;
    this.token++; // forget a computer move on its way
    this.thinking = false;
    this.reviewing = null;
    this.views.pop();
    // Against the computer, take back to the last position where it is your turn.
    if (this.mode === "computer") while (this.views.length > 1 && this.view.turn !== this.human) this.views.pop();
    this.hint = null;
    this.hintList.replaceChildren();
    this.render();
    this.judge();
    this.computerTurn(); // when you play O and undid everything, the computer opens again
  }

  /** The strongest level's judgment of the live position, where it is a look-up. */
  async judge() {
    const ply = this.views.length - 1;
    if (!this.exact || this.view.status !== "ongoing" || this.evaluation?.ply === ply) return;
    const game = this.game;
    const token = this.token;
    try {
      const analysis = await api.analysis(game, this.hintLevel, HINT_SECONDS);
      // Kept only if the game is still at that position (the computer may have moved).
      if (token === this.token && this.views.length - 1 === ply && this.view.moves.join(",") === game.moves.join(",")) {
        this.evaluation = { analysis, ply };
        this.drawEvaluation();
      }
    } catch (e) {
      console.warn("no evaluation:", e);
    }
  }

  async askHint() {
    if (this.view.status !== "ongoing" || this.thinking) return;
    const token = this.token;
    const ply = this.views.length - 1;
    this.buttons.hint.disabled = true;
    try {
      const analysis = await api.analysis(this.game, this.hintLevel, HINT_SECONDS);
      if (token !== this.token) return;
      this.evaluation = { analysis, ply };
      this.hint = analysis.best;
      // In a solved game every move's exact value, as a tablebase shows them; else the top three.
      const exact = analysis.moves.every((m) => m.value.exact);
      this.hintList.classList.toggle("exact-values", exact);
      this.hintList.replaceChildren(
        ...analysis.moves.slice(0, exact ? undefined : 3).map((m) => h("li", { title: boundTitle(m.value) }, h("code", {}, m.text), " ", moveValue(m.value))),
      );
      this.render();
    } catch (e) {
      this.toast(e.message, "error");
    } finally {
      this.buttons.hint.disabled = false;
    }
  }

  review(ply) {
    this.reviewing = ply >= this.views.length - 1 ? null : Math.max(0, ply);
    this.render();
  }

  // -- drawing -----------------------------------------------------------------------

  /** "X" and "O", or "Black" and "White" on a board of stones. */
  side(mark) {
    return sideName(this.view.board, mark);
  }

  playerName(mark) {
    if (this.mode === "computer") return mark === this.human ? t("You") : t("Computer ({level})", { level: this.level });
    const number = mark === "x" ? this.localFirst : 3 - this.localFirst;
    return t("Player {number}", { number });
  }

  render() {
    const live = this.view;
    const shown = this.reviewing === null ? live : this.views[this.reviewing];
    const interactive = this.reviewing === null && !this.thinking && this.humanToMove();
    this.board.render(shown, { interactive, hint: this.reviewing === null ? this.hint : null });
    this.root.querySelector(".game-page")?.classList.toggle("stones", stones(shown.board));
    this.boardBox.classList.toggle("waiting", this.thinking);
    this.boardBox.dataset.turn = shown.turn;

    const turnName = this.playerName(live.turn);
    if (live.status !== "ongoing") this.status.textContent = this.resultText(live);
    else if (this.thinking) this.status.textContent = t("{player} is thinking…", { player: turnName });
    else if (this.mode === "computer" && live.turn === this.human) this.status.textContent = t("Your move ({side})", { side: this.side(live.turn) });
    else this.status.textContent = t("{player}'s move ({side})", { player: turnName, side: this.side(live.turn) });
    this.status.dataset.turn = live.status === "ongoing" ? live.turn : live.status === "draw" ? "" : live.status[0];
    this.status.classList.toggle("thinking", this.thinking);

    this.players.replaceChildren(
      h("span", { class: ["who", "who-x", live.status === "ongoing" && live.turn === "x" && "to-move"] }, t("{side} · {player}", { side: this.side("x"), player: this.playerName("x") })),
      h("span", { class: ["who", "who-o", live.status === "ongoing" && live.turn === "o" && "to-move"] }, t("{side} · {player}", { side: this.side("o"), player: this.playerName("o") })),
    );
    const last = shown.last_move;
    this.lastMove.textContent = last ? t("Last move: {side} {move}", { side: this.side(shown.turn === "x" ? "o" : "x"), move: last.text }) : t("No move yet");

    this.banner.hidden = live.status === "ongoing" || this.reviewing !== null;
    if (!this.banner.hidden) {
      this.banner.replaceChildren(
        h("strong", {}, this.resultText(live)),
        h("button", { class: "button primary", type: "button", onclick: () => this.newGame() }, t("New game")),
        h("a", { class: "button", id: "review-game", href: this.analysisLink(true) }, t("Review the game")),
      );
      this.banner.dataset.outcome = live.status;
    }

    this.reviewBar.hidden = this.reviewing === null;
    if (this.reviewing !== null) {
      this.reviewBar.replaceChildren(
        h("span", {}, this.reviewing === 0 ? t("Reviewing the start") : t("Reviewing after move {n}", { n: this.reviewing })),
        h("button", { class: "button", type: "button", onclick: () => this.review(this.reviewing - 1), disabled: this.reviewing === 0 }, "◀"),
        h("button", { class: "button", type: "button", onclick: () => this.review(this.reviewing + 1) }, "▶"),
        h("button", { class: "button primary", type: "button", onclick: () => this.review(Infinity) }, t("Back to the game")),
      );
    }

    this.analysisAnchor.href = this.analysisLink();
    this.drawMoves();
    this.drawEvaluation();
    this.buttons.undo.disabled = this.views.length <= 1;
    this.buttons.hint.disabled = live.status !== "ongoing" || this.thinking;
    this.remember();
  }

  /** The address keeps the game (reload, back and forward restore it) and unfinished
   * games are saved for the home page's "continue your game". */
  remember() {
    const live = this.view;
    const params = new URLSearchParams({ spec: live.spec, mode: this.mode });
    if (this.mode === "computer") {
      params.set("level", this.level);
      params.set("side", this.human);
    } else if (this.localFirst === 2) params.set("first", "2");
    if (this.startPosition) params.set("start", this.startPosition);
    if (live.moves.length) params.set("moves", live.moves.join(","));
    params.set("game", this.id);
    const hash = `#/play?${params}`;
    if (location.hash !== hash) {
      if (this.pushAddress) history.pushState(null, "", hash);
      else history.replaceState(history.state, "", hash);
      this.pushAddress = false;
    }
    if (live.status !== "ongoing" || !live.moves.length) {
      dropGame(this.id);
      return;
    }
    saveGame({
      id: this.id,
      href: hash,
      key: this.key,
      spec: live.spec,
      title: this.title,
      details: describeSpec(live.spec, this.info),
      opponent: this.mode === "computer" ? t("the computer ({level}), you play {side}", { level: this.level, side: this.side(this.human) }) : t("two players on this screen"),
      moves: live.moves.length,
      turn: live.turn,
      board: live.board,
    });
  }

  /** This game (up to the position shown) on the analysis board; `review`: reviewed. */
  analysisLink(review = false) {
    const moves = this.view.moves.slice(0, this.reviewing ?? this.view.moves.length);
    const params = new URLSearchParams({ spec: this.view.spec });
    if (this.startPosition) params.set("start", this.startPosition); // only a set-up one: short links
    if (this.view.moves.length) params.set("tree", this.view.moves.join(","));
    if (moves.length) params.set("at", moves.join(","));
    if (review) params.set("review", "1");
    if (this.mode === "computer") params.set("side", this.human); // "Learn from your mistakes": the player's own
    return `#/analysis?${params.toString()}`;
  }

  resultText(v) {
    if (v.status === "draw") return v.result && v.result !== "draw" ? t("Draw ({reason})", { reason: v.result.replace(/^draw:?\s*/, "") }) : t("Draw");
    const winner = v.status[0];
    if (this.mode === "computer") return winner === this.human ? t("You win!") : t("The computer wins");
    return t("{player} ({side}) wins!", { player: this.playerName(winner), side: this.side(winner) });
  }

  drawMoves() {
    const moves = this.view.moves;
    const current = this.reviewing === null ? moves.length : this.reviewing;
    const startTurn = this.views[0].turn;
    const items = [];
    for (let i = 0; i < moves.length; i++) {
      const mark = (i % 2 === 0) === (startTurn === "x") ? "x" : "o";
      items.push(
        h(
          "li",
          { class: `ply ply-${mark}` },
          h(
            "button",
            { type: "button", class: ["move", current === i + 1 && "current"], "data-ply": i + 1, onclick: () => this.review(i + 1), title: t("show the position after move {n}", { n: i + 1 }) },
            h("span", { class: "num" }, `${i + 1}.`),
            ` ${this.side(mark)} ${moves[i]}`,
          ),
        ),
      );
    }
    this.moveList.replaceChildren(
      h("li", { class: "ply" }, h("button", { type: "button", class: ["move", current === 0 && "current"], "data-ply": 0, onclick: () => this.review(0) }, t("start"))),
      ...items,
    );
    // Scroll the list, never the page (on a phone the list is below the board).
    const shown = this.moveList.querySelector(".current");
    if (shown) {
      const list = this.moveList;
      const top = shown.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + shown.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 2;
    }
  }

  /** The bar shows the strongest level's judgment of the position on the board, and
   * nothing (not an even bar) before there is one. */
  drawEvaluation() {
    const ply = this.reviewing ?? this.views.length - 1;
    const e = this.evaluation?.ply === ply ? this.evaluation.analysis : null;
    const shown = this.views[ply];
    this.evalBox.hidden = this.evalDetails.hidden = !e;
    this.evalBox.classList.toggle("stones", stones(shown.board));
    this.evalBox.title = t("{x}'s side to the left, {o}'s to the right", { x: this.side("x"), o: this.side("o") });
    if (!e) {
      this.evalText.textContent = shown.status !== "ongoing" ? "" : t("No evaluation of this position yet: ask for a hint (h)");
      return;
    }
    // The server's bar is x's chance in [-1, 1]: proven results at the ends.
    this.evalBar.style.width = `${50 + 50 * e.bar}%`;
    const exact = e.value.exact;
    const source = exact ? t("exact") : t("the strongest level ({level})", { level: e.level });
    this.evalText.textContent = t("{verdict} · {source}", { verdict: verdict(e.value, shown.turn, (m) => this.side(m)), source });
    const nodes = tn("{n} node", "{n} nodes", e.nodes);
    const time = t("{seconds} s", { seconds: formatNumber(Number(e.time.toFixed(2))) });
    this.evalEngine.textContent = e.depth ? t("{player}, depth {depth}, {nodes}, {time}", { player: e.player, depth: e.depth, nodes, time }) : t("{player}, {nodes}, {time}", { player: e.player, nodes, time });
  }

  // -- keyboard ----------------------------------------------------------------------

  onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const typing = e.target.closest?.("input, select, textarea");
    if (typing) {
      if (e.key === "Escape") e.target.blur();
      return;
    }
    const actions = {
      u: () => this.undo(),
      h: () => this.askHint(),
      n: () => this.askNewGame(true),
      "[": () => this.review((this.reviewing ?? this.views.length - 1) - 1),
      "]": () => this.reviewing !== null && this.review(this.reviewing + 1),
      Escape: () => this.reviewing !== null && this.review(Infinity),
      "/": () => this.moveInput.focus(),
    };
    const action = actions[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  }
}
