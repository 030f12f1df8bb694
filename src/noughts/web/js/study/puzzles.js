// Puzzles: a position where exactly one move wins by force. The solver plays its moves;
// each is judged by the server (the stored line at once, any other move by the exact
// prover: a different follow-up that still wins counts); the defender's answers come
// from there. A wrong move is told at once, with the refutation played on the board.
// Modes: puzzles near your rating (filters by game and theme), the daily puzzle, and a
// streak run (easy to hard, until the first mistake). Signed in online, the first
// attempt at each puzzle moves your puzzle rating and the puzzle's (Glicko-2).
// #/puzzles?mode=rated|daily|streak&spec=ultimate&theme=double%20threat&id=abcd1234

import { api, online } from "../api.js";
import { reducedMotion, sideName, stones } from "../boards/common.js";
import { boardFor } from "../boards/index.js";
import { h } from "../dom.js";
import { prefs } from "../prefs.js";
import { puzzleTabs } from "./dashboard.js";
import { t, tl, tn } from "../i18n.js";

/** How long the defender "thinks" before its reply shows: the eye follows the move. */
const REPLY_DELAY = 450;
/** How long the position before the puzzle shows before the move that made it. */
const CONTEXT_DELAY = 600;
/** How long a solved puzzle stays before the next one comes by itself (the preference). */
const AUTO_NEXT_DELAY = 1200;
/** The next puzzle's difficulty against the player's rating: the server's steps. */
export const DIFFICULTIES = ["easiest", "easier", "normal", "harder", "hardest"];
/** The help a puzzle solved after all had, in words: a hint, wrong moves, or both. */
export function solvedHow(help) {
  const wrong = help.wrong ? tn("after {n} wrong move", "after {n} wrong moves", help.wrong) : "";
  if (help.hint && wrong) return t("with a hint and {wrong}", { wrong });
  return help.hint ? t("with a hint") : wrong;
}

/** Puzzles a visitor saw lately, not offered again (their attempts are not stored). */
const SEEN_KEY = "noughts.puzzles.seen";
const BEST_STREAK_KEY = "noughts.puzzles.bestStreak";

function seen() {
  try {
    return JSON.parse(localStorage.getItem(SEEN_KEY) || "[]");
  } catch {
    return [];
  }
}

function remember(id) {
  const list = [id, ...seen().filter((x) => x !== id)].slice(0, 100);
  localStorage.setItem(SEEN_KEY, JSON.stringify(list));
}

export class PuzzlePage {
  constructor(root, catalogue, params, { toast }) {
    this.root = root;
    this.toast = toast;
    this.catalogue = catalogue;
    this.mode = ["daily", "streak"].includes(params.get("mode")) ? params.get("mode") : "rated";
    this.filters = { spec: params.get("spec") || "", theme: params.get("theme") || "" };
    this.requested = params.get("id");
    this.puzzle = null;
    this.played = []; // the moves from the puzzle's position, both sides'
    this.view = null;
    this.failed = false; // a wrong move, a hint or the solution: the attempt is lost
    this.help = { hint: false, wrong: 0 }; // what lost it, said when the puzzle is solved after all
    this.done = false;
    this.busy = false;
    this.profile = null; // the signed-in player's puzzle rating, else null
    this.streak = { run: [], index: 0, score: 0 };
    this.token = 0;
    this.layout();
    this.start();
  }

  get title() {
    return this.mode === "daily" ? t("Daily puzzle") : this.mode === "streak" ? t("Puzzle streak") : t("Puzzles");
  }

  destroy() {
    this.token++;
  }

  redraw() {
    if (this.view) this.drawBoard();
  }

  // -- layout ------------------------------------------------------------------------

  layout() {
    this.heading = h("h1", {}, this.title);
    this.status = h("p", { class: "status", id: "status", "aria-live": "polite" });
    this.boardBox = h("div", { class: "board-box" });
    this.feedback = h("div", { class: "puzzle-feedback", id: "feedback", "aria-live": "polite" });
    this.info = h("section", { class: "puzzle-info", id: "puzzle-info", "aria-label": t("this puzzle") });
    this.actions = h("div", { class: "puzzle-actions" });
    this.ratingBox = h("section", { class: "puzzle-rating", id: "puzzle-rating", "aria-label": t("your puzzle rating") });
    this.filterBox = h("section", { class: "puzzle-filters", "aria-label": t("filters") });
    this.root.replaceChildren(
      h(
        "section",
        { class: "page game-page puzzle-page" },
        h("div", { class: "board-column" }, h("div", { class: "game-head" }, this.heading), this.status, h("div", { class: "board-wrap" }, this.boardBox)),
        h(
          "section",
          { class: "panel", "aria-label": t("the puzzle") },
          puzzleTabs(this.mode, (mode) => this.link({ mode })),
          this.feedback,
          this.actions,
          this.info,
          this.filterBox,
          this.ratingBox,
        ),
      ),
    );
  }

  link(change) {
    const values = { mode: this.mode, ...this.filters, ...change };
    const params = new URLSearchParams(Object.entries(values).filter(([k, v]) => v && !(k === "mode" && v === "rated")));
    const text = params.toString();
    return `#/puzzles${text ? `?${text}` : ""}`;
  }

  async start() {
    // Signed in (asked first: a visitor's 401 would be an error in the console)?
    online.me().then(
      ({ user }) => (user ? api.puzzleProfile() : null),
    ).then(
      (profile) => {
        this.profile = profile;
        this.drawRating();
        // Puzzles found in the player's own online games, offered to them.
        if (profile) api.yourPuzzles().then((found) => ((this.yours = found), this.drawRating()), () => {});
      },
      () => ((this.profile = null), this.drawRating()),
    );
    api.puzzleCatalogue(this.filters.spec).then(
      (found) => this.drawFilters(found),
      () => this.filterBox.replaceChildren(),
    );
    if (this.requested) return this.load(() => api.puzzle(this.requested));
    if (this.mode === "daily") return this.load(async () => (await api.dailyPuzzle()).puzzle);
    if (this.mode === "streak") return this.newStreak();
    return this.next();
  }

  // -- choosing ----------------------------------------------------------------------

  next() {
    const difficulty = DIFFICULTIES.includes(prefs.get("puzzleDifficulty")) ? prefs.get("puzzleDifficulty") : "normal";
    const filters = { ...this.filters, difficulty, exclude: this.profile ? "" : seen().slice(0, 60).join(",") };
    return this.load(() => api.nextPuzzle(filters));
  }

  async newStreak() {
    try {
      const run = await api.streakRun(this.filters);
      this.streak = { run: run.puzzles, index: 0, score: 0 };
    } catch (e) {
      return this.nothing(e);
    }
    this.load(async () => this.streak.run[0]);
  }

  nothing(e) {
    this.status.textContent = "";
    this.boardBox.replaceChildren(h("p", { class: "muted", id: "no-puzzle" }, e.status === 404 ? `${e.message}.` : t("The puzzles cannot be loaded: {reason}", { reason: e.message })));
    this.actions.replaceChildren(this.filters.spec || this.filters.theme ? h("a", { class: "button", href: this.link({ spec: "", theme: "" }) }, t("Clear the filters")) : "");
  }

  async load(fetchPuzzle) {
    const token = ++this.token;
    let puzzle, view, previous;
    try {
      puzzle = await fetchPuzzle();
      // Where the puzzle's last move is known, the position comes with it (marked as the
      // last move), after the position before it: as lichess opens a puzzle.
      if (puzzle.before && puzzle.last_move) {
        [previous, view] = await Promise.all([api.newGame(puzzle.spec, [], puzzle.before), api.newGame(puzzle.spec, [puzzle.last_move], puzzle.before)]);
      } else view = await api.newGame(puzzle.spec, [], puzzle.position);
    } catch (e) {
      if (token === this.token) this.nothing(e);
      return;
    }
    if (token !== this.token) return;
    this.puzzle = puzzle;
    this.played = [];
    this.failed = false;
    this.help = { hint: false, wrong: 0 };
    this.done = false;
    this.solver = view.turn;
    this.view = view;
    this.views = new Map([["", view]]);
    this.hint = null;
    this.refuted = null;
    this.ratingChange = null;
    if (!this.profile) remember(puzzle.id);
    const Board = boardFor(view.board.kind);
    this.boardBox.replaceChildren();
    this.boardBox.className = `board-box game-${puzzle.spec.split(/[:\s]/)[0]}`;
    this.board = new Board(this.boardBox, { onMove: (text) => this.move(text), onSelect: () => {} });
    const side = (mark) => sideName(view.board, mark);
    this.feedback.replaceChildren(
      previous ? h("p", { class: "puzzle-context", id: "puzzle-last-move" }, t("{side} played {move}.", { side: side(previous.turn), move: puzzle.last_move })) : "",
      h("p", { class: "puzzle-task" }, h("strong", {}, t("Your turn: find the winning move for {side}.", { side: side(this.solver) })), " ", tn("It wins by force in {n} move.", "It wins by force in {n} moves.", Math.ceil(puzzle.plies / 2))),
    );
    if (previous && !reducedMotion()) {
      this.busy = true;
      this.board.render(previous, { interactive: false });
      await new Promise((r) => setTimeout(r, CONTEXT_DELAY));
      this.busy = false;
      if (token !== this.token) return;
    }
    this.draw();
  }

  // -- solving -----------------------------------------------------------------------

  async viewAfter(moves) {
    const key = moves.join(",");
    if (!this.views.has(key)) this.views.set(key, await api.newGame(this.puzzle.spec, moves, this.puzzle.position));
    return this.views.get(key);
  }

  async move(text) {
    if (this.busy || this.done || this.view.turn !== this.solver) return;
    this.busy = true;
    this.hint = null;
    const token = this.token;
    const tried = [...this.played, text];
    try {
      this.view = await this.viewAfter(tried); // the move shows at once
      this.played = tried;
      this.drawBoard();
      this.status.textContent = "Checking…";
      const judged = await api.checkPuzzle(this.puzzle.id, tried);
      if (token !== this.token) return;
      if (judged.correct) await this.correct(judged, token);
      else await this.wrong(text, judged, token);
    } catch (e) {
      this.toast(e.message, "error");
    } finally {
      this.busy = false;
      if (token === this.token) this.draw();
    }
  }

  async correct(judged, token) {
    if (judged.solved) return this.solved();
    this.feedback.replaceChildren(h("p", { class: "puzzle-good", id: "good-move" }, "✓ Best move! Keep going…"));
    await new Promise((r) => setTimeout(r, REPLY_DELAY));
    if (token !== this.token) return;
    this.played = [...this.played, judged.reply];
    this.view = await this.viewAfter(this.played);
  }

  async wrong(text, judged, token) {
    this.help.wrong++;
    this.fail();
    this.refuted = this.played.length;
    this.feedback.replaceChildren(
      h("p", { class: "puzzle-bad", id: "wrong-move" }, h("strong", {}, t("✗ {move} is not the move.", { move: text })), " ", judged.reply ? t("{reply} refutes it: {verdict}.", { reply: judged.reply, verdict: judged.verdict }) : `${judged.verdict}.`),
    );
    if (judged.reply) {
      await new Promise((r) => setTimeout(r, REPLY_DELAY));
      if (token !== this.token) return;
      this.played = [...this.played, judged.reply];
      this.view = await this.viewAfter(this.played);
    }
    if (this.mode === "streak") this.endStreak();
  }

  /** Back to the position before the wrong move. */
  async retry() {
    this.played = this.played.slice(0, this.refuted - 1);
    this.refuted = null;
    this.view = await this.viewAfter(this.played);
    this.feedback.replaceChildren(h("p", {}, t("Try again: find the winning move.")));
    this.draw();
  }

  /** The attempt is lost: counted once, as a failure, for a signed-in player. */
  fail() {
    if (this.failed) return;
    this.failed = true;
    this.drawInfo(); // the puzzle's rating shows at once, before the refutation is played
    this.report(false);
  }

  solved() {
    this.done = true;
    const clean = !this.failed;
    this.feedback.replaceChildren(h("p", { class: "puzzle-good", id: "solved" }, h("strong", {}, clean ? "✓ Solved!" : `✓ Solved, ${solvedHow(this.help)}.`), clean ? " That was the only winning move." : " It counts as failed: as on lichess, only a first try with no wrong move and no hint counts as solved."));
    if (clean) this.report(true);
    if (this.mode === "streak" && clean) {
      this.streak.score++;
      this.drawRating();
    }
    // The preference "next puzzle after a solve": on after a moment to see the last move.
    const token = this.token;
    if (this.mode === "rated" && prefs.get("puzzleAutoNext")) setTimeout(() => token === this.token && this.next(), AUTO_NEXT_DELAY);
  }

  async report(solved) {
    if (!this.profile) return;
    try {
      const counted = await api.attemptPuzzle(this.puzzle.id, solved);
      if (counted.first) {
        const change = counted.rating_after - counted.rating_before;
        this.profile.rating.rating = counted.rating_after;
        this.ratingChange = `${change >= 0 ? "+" : "−"}${Math.abs(change)}`;
      } else this.ratingChange = t("tried before: not rated again");
      this.profile = await api.puzzleProfile();
      this.drawRating();
    } catch (e) {
      this.toast(e.message, "error");
    }
  }

  async showHint() {
    const next = this.puzzle.solution[this.played.length];
    if (!next || this.view.turn !== this.solver) return;
    this.help.hint = true;
    this.fail();
    this.hint = next;
    this.feedback.replaceChildren(h("p", { id: "hint-text" }, t("The marked move is the one (a hint counts as a failed attempt).")));
    this.draw();
  }

  /** The stored solution from the puzzle's position, move after move. */
  async showSolution() {
    this.fail();
    this.done = true;
    const token = ++this.token;
    this.played = [];
    this.view = await this.viewAfter([]);
    this.feedback.replaceChildren(h("p", { id: "solution-text" }, t("The solution: "), h("code", {}, this.puzzle.solution.join(" "))));
    this.draw();
    for (const text of this.puzzle.solution) {
      await new Promise((r) => setTimeout(r, REPLY_DELAY * 1.5));
      if (token !== this.token) return;
      this.played = [...this.played, text];
      this.view = await this.viewAfter(this.played);
      this.draw();
    }
    if (this.mode === "streak") this.endStreak();
  }

  endStreak() {
    this.streak.over = true;
    const best = Math.max(this.streak.score, Number(localStorage.getItem(BEST_STREAK_KEY) || 0));
    localStorage.setItem(BEST_STREAK_KEY, String(best));
    if (this.profile) api.recordStreak(this.streak.score).then((r) => ((this.profile.rating.best_streak = r.best_streak), this.drawRating()), () => {});
    this.drawRating();
  }

  continueStreak() {
    this.streak.index++;
    const puzzle = this.streak.run[this.streak.index];
    if (!puzzle) {
      this.endStreak();
      this.draw();
      return;
    }
    this.load(async () => puzzle);
  }

  // -- drawing -----------------------------------------------------------------------

  draw() {
    this.drawBoard();
    this.drawActions();
    this.drawInfo();
    this.drawRating();
  }

  drawBoard() {
    const view = this.view;
    const playable = !this.done && !this.busy && view.status === "ongoing" && view.turn === this.solver && !this.refuted;
    this.board.render(view, { interactive: playable, hint: this.hint });
    this.root.querySelector(".game-page")?.classList.toggle("stones", stones(view.board));
    const side = (mark) => sideName(view.board, mark);
    this.status.dataset.turn = view.status === "ongoing" ? view.turn : "";
    this.status.textContent =
      view.status !== "ongoing" ? (view.status === "draw" ? t("Draw") : t("{side} wins", { side: side(view.status[0]) })) : view.turn === this.solver ? t("{side} to move: your turn", { side: side(view.turn) }) : t("{side} to move", { side: side(view.turn) });
  }

  drawActions() {
    const button = (id, label, action, extra = {}) => h("button", { class: "button", type: "button", id, onclick: action, ...extra }, label);
    const items = [];
    const streakOver = this.mode === "streak" && this.streak.over;
    if (this.refuted && !streakOver && !this.done) items.push(button("retry", t("Retry"), () => this.retry()));
    if (!this.done && !this.refuted) items.push(button("hint", t("Hint"), () => this.showHint(), { title: t("mark the move (the attempt then counts as failed)") }));
    if (!this.done) items.push(button("solution", t("View the solution"), () => this.showSolution()));
    if (streakOver) items.push(button("new-streak", t("New streak"), () => this.newStreak(), { class: "button primary" }));
    else if (this.mode === "streak" && this.done) items.push(button("next", t("Next puzzle"), () => this.continueStreak(), { class: "button primary" }));
    else if (this.mode !== "streak" && (this.done || this.failed)) items.push(button("next", this.mode === "daily" ? t("More puzzles") : t("Next puzzle"), () => (this.mode === "daily" ? (location.hash = this.link({ mode: "rated" })) : this.next()), { class: "button primary" }));
    if (this.puzzle) {
      const params = new URLSearchParams({ spec: this.puzzle.spec, start: this.puzzle.position });
      if (this.played.length) params.set("tree", this.played.join(","));
      items.push(h("a", { class: "button subtle", id: "analyse", href: `#/analysis?${params.toString()}` }, t("Analyse")));
    }
    this.actions.replaceChildren(...items);
  }

  drawInfo() {
    const p = this.puzzle;
    if (!p) return;
    this.info.dataset.id = p.id;
    const rate = p.attempts ? tn("{percent}% of {n} solved it", "{percent}% of {n} solved it", p.attempts, { percent: Math.round((100 * p.solved) / p.attempts) }) : t("nobody has tried it yet");
    // As lichess: how hard the puzzle is (its rating, how many solved it) is a hint, so it
    // shows once the attempt is over, solved or lost.
    const finished = this.done || this.failed;
    // Players read the game, the rating and the themes; where the puzzle comes from and
    // its name in the database stay behind "Details".
    this.info.replaceChildren(
      h("h2", {}, t("This puzzle")),
      h("p", {}, h("strong", {}, p.title), " · ", finished ? h("span", { id: "puzzle-difficulty" }, t("rating {rating} · {rate}", { rating: String(p.rating), rate })) : h("span", { id: "puzzle-difficulty", class: "muted" }, t("rating: hidden until you solve or fail it"))),
      h("p", { class: "themes" }, p.themes.map((t) => h("a", { class: "theme", href: this.link({ mode: this.mode === "daily" ? "rated" : this.mode, theme: t, id: "" }) }, t))),
      p.origin_game ? h("p", { class: "muted" }, ...tl("From <a>an online game</a>.", [(words) => h("a", { href: `#/game/${encodeURIComponent(p.origin_game)}` }, words)])) : h("p", { class: "muted" }, t("From the computer's games against itself; the win is proven.")),
      h(
        "details",
        { class: "engine-details", id: "puzzle-details" },
        h("summary", {}, t("Details")),
        h("p", { class: "muted" }, `Puzzle ${p.id}${p.origin_game ? "" : ` · found in ${p.source}`}`),
      ),
    );
  }

  drawFilters(found) {
    const select = (id, label, value, options, key, change) =>
      h(
        "label",
        { class: "filter", for: id },
        label,
        h(
          "select",
          { id, onchange: (e) => change(e.target.value) },
          h("option", { value: "" }, key === "spec" ? t("every game") : t("every theme")),
          options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)),
        ),
      );
    if (this.mode === "daily") return this.filterBox.replaceChildren();
    // The themes are the chosen game's, counted in its puzzles (the server counts them
    // for the game asked); a theme from the address that the game has none of shows as 0.
    const themes = found.themes.map((t) => [t.theme, `${t.theme} (${t.count})`]);
    if (this.filters.theme && !found.themes.some((t) => t.theme === this.filters.theme)) themes.push([this.filters.theme, `${this.filters.theme} (0)`]);
    this.filterBox.replaceChildren(
      h("h2", {}, t("Filters")),
      select("filter-game", t("Game"), this.filters.spec, found.games.map((g) => [g.spec, `${g.title} (${g.count})`]), "spec", (spec) => this.chooseGame(spec)),
      select("filter-theme", t("Theme"), this.filters.theme, themes, "theme", (theme) => (location.hash = this.link({ theme }))),
      ...(this.mode === "rated" ? this.choices() : []),
    );
  }

  /** The difficulty of the next puzzles and going on by itself: the player's preferences. */
  choices() {
    const difficulty = DIFFICULTIES.includes(prefs.get("puzzleDifficulty")) ? prefs.get("puzzleDifficulty") : "normal";
    return [
      h(
        "label",
        { class: "filter", for: "puzzle-difficulty-choice" },
        "Difficulty",
        h("select", { id: "puzzle-difficulty-choice", onchange: (e) => (prefs.set("puzzleDifficulty", e.target.value), this.done || !this.played.length ? this.next() : null) }, DIFFICULTIES.map((d) => h("option", { value: d, selected: d === difficulty }, d))),
      ),
      h("label", { class: "auto-next", for: "puzzle-auto-next" }, h("input", { type: "checkbox", id: "puzzle-auto-next", checked: Boolean(prefs.get("puzzleAutoNext")), onchange: (e) => prefs.set("puzzleAutoNext", e.target.checked) }), " Next puzzle after a solve"),
    ];
  }

  /** Another game: its puzzles, keeping the theme where that game has puzzles of it. */
  async chooseGame(spec) {
    let theme = this.filters.theme;
    if (theme) {
      try {
        const found = await api.puzzleCatalogue(spec);
        if (!found.themes.some((t) => t.theme === theme)) theme = "";
      } catch {
        theme = "";
      }
    }
    location.hash = this.link({ spec, theme });
  }

  drawRating() {
    const items = [];
    if (this.mode === "streak") {
      const best = Math.max(Number(localStorage.getItem(BEST_STREAK_KEY) || 0), this.profile?.rating.best_streak || 0);
      items.push(h("p", { class: "streak-score" }, h("span", { id: "streak-score" }, String(this.streak.score)), " solved in a row", this.streak.over ? " · the streak is over" : "", h("span", { class: "muted" }, ` · best ${best}`)));
    }
    if (this.profile) {
      const r = this.profile.rating;
      items.push(
        h("h2", {}, t("Your puzzle rating")),
        h("p", { class: "rating-line" }, h("strong", { id: "my-puzzle-rating" }, `${r.rating}${r.provisional ? "?" : ""}`), this.ratingChange ? h("span", { class: "rating-change", id: "rating-change" }, ` ${this.ratingChange}`) : "", h("span", { class: "muted" }, ` · ${r.solved} of ${r.attempts} solved`)),
      );
      const recent = this.profile.history.slice(0, 8);
      if (recent.length)
        items.push(
          h(
            "ol",
            { class: "puzzle-history", "aria-label": t("your recent puzzles") },
            recent.map((entry) => h("li", {}, h("a", { href: this.link({ mode: "rated", id: entry.puzzle.id }), class: entry.attempt.solved ? "solved" : "failed" }, `${entry.attempt.solved ? "✓" : "✗"} ${entry.puzzle.title} · ${entry.puzzle.rating}`))),
          ),
        );
      const yours = (this.yours || []).filter((p) => p.id !== this.puzzle?.id);
      if (yours.length)
        items.push(
          h("h2", {}, t("From your games")),
          h(
            "ul",
            { class: "puzzle-history", id: "your-puzzles", "aria-label": t("puzzles from your online games") },
            yours.slice(0, 10).map((p) => h("li", {}, h("a", { href: this.link({ mode: "rated", id: p.id }) }, `${p.title} · rating ${p.rating}`))),
          ),
        );
    } else {
      items.push(h("p", { class: "muted", id: "sign-in-note" }, ...tl("<a>Sign in online</a> to get a puzzle rating and keep your history.", [(words) => h("a", { href: "#/login?next=/puzzles" }, words)])));
    }
    this.ratingBox.replaceChildren(...items);
  }
}
