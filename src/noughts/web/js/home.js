// Home, a lobby: a one-click tile for each game against the computer, online play,
// your unfinished games; below, any game with its options and an opponent.

import { online } from "./api.js";
import { gameArt, miniBoard } from "./art.js";
import { clockText } from "./clock.js";
import { h } from "./dom.js";
import { t, tl, tn } from "./i18n.js";
import { chosenLevel } from "./levels.js";
import { prefs } from "./prefs.js";
import { dropGame, savedGames } from "./saved.js";

/** The one-click games, each game once, the most played first: the m,n,k-game as its
 * best-known size; any other game of the catalogue follows, in its order. They are named
 * and described by the catalogue. */
const QUICK = ["ultimate", "classic", "connect4", "mnk", "qubic", "gobblet", "nine-board", "matryoshka"];
const GOMOKU = () => ({ spec: "mnk:m=15:n=15:k=5", title: t("Gomoku"), summary: t("15x15 board, five in a row wins") });

/** m,n,k sizes a click away. */
const MNK_PRESETS = [
  ["3×3×3", { m: 3, n: 3, k: 3 }],
  ["4×4×4", { m: 4, n: 4, k: 4 }],
  ["Gomoku 15×15", { m: 15, n: 15, k: 5 }],
];

export function homePage(root, catalogue) {
  const saved = prefs.get("setup") || {};
  const state = {
    key: catalogue.games.some((g) => g.key === saved.key) ? saved.key : "classic",
    options: saved.options || {},
    mode: saved.mode === "local" ? "local" : "computer",
    level: chosenLevel(catalogue, saved.level),
    side: saved.side || "x",
  };

  const games = h("select", { id: "custom-game", name: "game" },
    catalogue.games.map((g) => h("option", { value: g.key, selected: g.key === state.key }, g.title)));
  games.addEventListener("change", () => {
    state.key = games.value;
    state.options = {};
    drawOptions();
  });
  const optionsBox = h("div", { class: "options" });
  const modeBox = h("fieldset", { class: "modes" });
  const start = h("button", { class: "button primary start", type: "submit", id: "start" }, t("Play"));
  const form = h(
    "form",
    { class: "custom", novalidate: true, "aria-labelledby": "custom-title", onsubmit: (e) => (e.preventDefault(), play()) },
    h("section", { class: "pick" },
      h("h2", { id: "custom-title" }, t("Any game, your rules")),
      h("div", { class: "option" }, h("label", { for: "custom-game" }, t("Game")), games),
      optionsBox),
    h("section", { class: "setup" }, h("h2", {}, t("Opponent")), modeBox, start),
  );
  root.replaceChildren(h("div", { class: "page home" }, lobby(catalogue), form));

  function drawOptions() {
    const game = catalogue.games.find((g) => g.key === state.key);
    if (!game.options.length) {
      optionsBox.replaceChildren(h("p", { class: "muted" }, t("This game has no options.")));
      return;
    }
    optionsBox.replaceChildren(
      ...game.options.map((opt) => {
        const value = state.options[opt.name] ?? opt.default;
        const id = `opt-${opt.name}`;
        let input;
        if (opt.type === "bool") {
          input = h("input", { type: "checkbox", id, name: opt.name, checked: value === true });
          input.addEventListener("change", () => {
            state.options[opt.name] = input.checked;
            keepShown();
          });
        } else if (opt.type === "choice") {
          input = h("select", { id, name: opt.name }, opt.choices.map((c) => h("option", { value: c, selected: c === value }, c)));
          input.addEventListener("change", () => (state.options[opt.name] = input.value));
        } else {
          input = h("input", { type: "number", id, name: opt.name, min: opt.minimum, max: opt.maximum, value, inputmode: "numeric", required: true, "aria-describedby": `${id}-help` });
          input.addEventListener("input", () => {
            state.options[opt.name] = input.value.trim() === "" ? "" : Number(input.value);
            if (input.getAttribute("aria-invalid")) check(opt, input);
          });
        }
        return h(
          "div",
          { class: ["option", `option-${opt.type}`], "data-option": opt.name },
          opt.type === "bool" ? [input, h("label", { for: id }, opt.label)] : [h("label", { for: id }, opt.label), input],
          h("small", { class: "muted", id: `${id}-help` }, opt.help),
          h("small", { class: "error option-error", id: `${id}-error`, hidden: true }),
          game.key === "mnk" && opt.name === "m" ? presets() : null,
        );
      }),
    );
    keepShown();
  }

  function presets() {
    return h("div", { class: "presets", role: "group", "aria-label": t("board sizes") },
      MNK_PRESETS.map(([label, values]) =>
        h("button", { type: "button", class: "button small", "data-preset": label, onclick: () => {
          Object.assign(state.options, values);
          drawOptions();
        } }, label)));
  }

  /** A number option's value, or null after saying what is wrong with it beside the field. */
  function check(opt, input) {
    const text = input.value.trim();
    const value = Number(text);
    let problem = null;
    if (text === "" || !Number.isInteger(value)) problem = t("{option}: enter a whole number from {min} to {max}", { option: opt.label, min: opt.minimum, max: opt.maximum });
    else if (value < opt.minimum || value > opt.maximum) problem = t("{option} must be from {min} to {max}", { option: opt.label, min: opt.minimum, max: opt.maximum });
    const error = document.getElementById(`${input.id}-error`);
    error.textContent = problem || "";
    error.hidden = !problem;
    input.setAttribute("aria-invalid", problem ? "true" : "false");
    input.setAttribute("aria-describedby", problem ? `${input.id}-error ${input.id}-help` : `${input.id}-help`);
    return problem ? null : value;
  }

  // keep (and, in ultimate, the tie-break) only matter with their companion options.
  function keepShown() {
    const forget = state.options.forget ?? false;
    const keep = optionsBox.querySelector('[data-option="keep"]');
    if (keep) keep.hidden = !forget;
  }

  function drawModes() {
    const level = h(
      "select",
      { id: "level", name: "level", disabled: state.mode !== "computer" },
      catalogue.levels.map((l) => h("option", { value: l.name, selected: l.name === state.level, title: l.description }, l.name)),
    );
    level.addEventListener("change", () => (state.level = level.value));
    const side = h(
      "select",
      { id: "side", name: "side", disabled: state.mode !== "computer" },
      h("option", { value: "x", selected: state.side === "x" }, t("X (moves first)")),
      h("option", { value: "o", selected: state.side === "o" }, "O"),
    );
    side.addEventListener("change", () => (state.side = side.value));
    const radio = (value, label) =>
      h(
        "label",
        { class: ["mode", state.mode === value && "chosen"] },
        h("input", {
          type: "radio",
          name: "mode",
          value,
          checked: state.mode === value,
          onchange: () => {
            state.mode = value;
            drawModes();
          },
        }),
        h("span", {}, label),
      );
    modeBox.replaceChildren(
      h("legend", { class: "sr-only" }, t("opponent")),
      radio("computer", t("Against the computer")),
      h("div", { class: ["computer-options", state.mode !== "computer" && "off"] },
        h("label", { for: "level" }, t("Level")), level,
        h("label", { for: "side" }, t("You play")), side,
        h("small", { class: "muted level-note" }, catalogue.levels.find((l) => l.name === state.level)?.description || "")),
      radio("local", t("Two players on this screen")),
      h("a", { class: "mode online-entry", href: "#/lobby" },
        h("span", {}, t("Online →")),
        h("small", { class: "muted" }, t("accounts, rooms, invite links and live games"))),
    );
    level.addEventListener("change", () => {
      modeBox.querySelector(".level-note").textContent = catalogue.levels.find((l) => l.name === level.value).description;
    });
  }

  function specText() {
    const game = catalogue.games.find((g) => g.key === state.key);
    const parts = [game.key];
    const forget = state.options.forget ?? false;
    for (const opt of game.options) {
      const value = state.options[opt.name];
      if (value === undefined || value === opt.default) continue;
      if (opt.name === "keep" && !forget) continue;
      parts.push(`${opt.name}=${value}`);
    }
    if (game.key === "mnk") for (const name of ["m", "n", "k"]) if (!parts.some((p) => p.startsWith(`${name}=`))) parts.push(`${name}=${state.options[name] ?? game.options.find((o) => o.name === name).default}`);
    return parts.join(":");
  }

  function play() {
    const game = catalogue.games.find((g) => g.key === state.key);
    let firstBad = null;
    for (const opt of game.options) {
      if (opt.type !== "int") continue;
      const input = optionsBox.querySelector(`#opt-${opt.name}`);
      if (!input || input.closest("[hidden]")) continue;
      if (check(opt, input) === null) firstBad = firstBad || input;
    }
    if (firstBad) {
      firstBad.focus();
      return;
    }
    prefs.set("setup", state);
    const params = new URLSearchParams({ spec: specText(), mode: state.mode });
    if (state.mode === "computer") {
      params.set("level", state.level);
      params.set("side", state.side);
    }
    location.hash = `#/play?${params}`;
  }

  drawOptions();
  drawModes();
}

/** The catalogue's games, those of `QUICK` first, each once. */
function quickKeys(catalogue) {
  const known = new Set(catalogue.games.map((g) => g.key));
  return [...new Set([...QUICK.filter((key) => known.has(key)), ...known])];
}

/** The lobby: continue a saved game, start a common one in a click, or play online. */
function lobby(catalogue) {
  let level = chosenLevel(catalogue, prefs.get("quickLevel"));
  const tiles = h("div", { class: "quick-tiles" });
  const drawTiles = () =>
    tiles.replaceChildren(
      ...quickKeys(catalogue).map((key) => {
        const game = catalogue.games.find((g) => g.key === key);
        const { spec, title, summary } = key === "mnk" ? GOMOKU() : { spec: key, ...game };
        return h("a", { class: "tile", href: `#/play?${new URLSearchParams({ spec, mode: "computer", level, side: "x" })}`, "data-quick": spec },
          h("span", { class: "tile-art", "aria-hidden": "true" }, gameArt(key)),
          h("span", { class: "tile-title" }, title),
          h("span", { class: "tile-sub" }, summary));
      }),
      h("a", { class: "tile tile-online", href: "#/lobby", "data-quick": "online" },
        h("span", { class: "tile-art", "aria-hidden": "true" }, onlineArt()),
        h("span", { class: "tile-title" }, t("Play online")),
        h("span", { class: "tile-sub" }, t("people, bots and tournaments"))),
    );
  // One tab stop for the four levels; the arrows choose, as in any radio group.
  const choose = (chip) => {
    level = chip.dataset.level;
    prefs.set("quickLevel", level);
    for (const other of levels.children) {
      other.setAttribute("aria-checked", String(other === chip));
      other.tabIndex = other === chip ? 0 : -1;
    }
    drawTiles();
  };
  const levels = h("div", { class: "level-pick", role: "radiogroup", "aria-labelledby": "level-caption",
    onkeydown: (e) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      const chips = [...levels.children];
      const next = chips[(chips.indexOf(document.activeElement) + step + chips.length) % chips.length];
      choose(next);
      next.focus();
    } },
    catalogue.levels.map((l) =>
      h("button", { type: "button", role: "radio", class: "level-chip", "data-level": l.name, "aria-checked": String(l.name === level), tabindex: l.name === level ? 0 : -1, title: l.description,
        onclick: (e) => choose(e.currentTarget) }, l.name)));
  drawTiles();
  const saved = savedGames();
  const list = h("ul", { class: "continue-list", id: "continue" });
  const drawSaved = () =>
    list.replaceChildren(
      ...savedGames().map((g) =>
        h("li", { class: "continue-item", "data-game-id": g.id },
          h("a", { class: "continue-link", href: g.href },
            miniBoard(g.board),
            h("span", { class: "continue-text" },
              h("strong", {}, g.title),
              g.details ? h("span", { class: "continue-details" }, g.details) : null,
              h("span", {}, t("vs {opponent}", { opponent: g.opponent })),
              h("span", { class: "muted" }, tn("{n} move played · {side} to move", "{n} moves played · {side} to move", g.moves, { side: g.turn.toUpperCase() })))),
          h("button", { type: "button", class: "button subtle forget-game", "aria-label": t("forget the {game} game", { game: g.title }), title: t("forget this game"),
            onclick: () => {
              dropGame(g.id);
              drawSaved();
              if (!list.children.length) list.closest(".continue")?.remove();
            } }, "×"))),
    );
  drawSaved();
  const now = onlineNow();
  return h("section", { class: "lobby", "aria-labelledby": "lobby-title" },
    h("div", { class: "lobby-main" },
      h("div", { class: "lobby-head" }, h("h1", { id: "lobby-title" }, t("Play now")),
        h("span", { class: "level-caption" }, h("span", { class: "muted", id: "level-caption" }, t("against the computer:")), levels)),
      tiles,
      now.live),
    h("div", { class: "lobby-side" },
      saved.length
        ? h("section", { class: "continue", "aria-labelledby": "continue-title" }, h("h2", { id: "continue-title" }, t("Continue your game")), list)
        : null,
      turns(),
      tournaments(),
      now.seeks));
}

/** Time left in words, as correspondence sites say it: "2 days", "5 h", "12 min". */
function timeLeft(ms) {
  if (ms >= 86_400_000) return t("{days} d {hours} h", { days: Math.floor(ms / 86_400_000), hours: Math.floor((ms % 86_400_000) / 3_600_000) });
  if (ms >= 3_600_000) return t("{hours} h", { hours: Math.floor(ms / 3_600_000) });
  return t("{minutes} min", { minutes: Math.max(0, Math.ceil(ms / 60_000)) });
}

/** The signed-in player's online games waiting for their move (correspondence above
 * all); the section shows only when there is one. */
function turns() {
  const section = h("section", { class: "turns", "aria-labelledby": "turns-title", hidden: true });
  online.turns().then(({ games }) => {
    if (!games.length) return;
    section.replaceChildren(
      h("h2", { id: "turns-title" }, t("Your move online")),
      h("ul", { class: "seek-list", id: "turns" },
        ...games.map((g) =>
          h("li", { class: "seek", "data-game": g.id },
            h("a", { href: `#/game/${encodeURIComponent(g.id)}` },
              h("span", { class: "seek-game" }, `${g.title}: ${g.x} – ${g.o}`),
              h("span", { class: "muted" }, [clockText(g.clock),
                g.deadline ? t("{time} left", { time: timeLeft(g.deadline - Date.now()) }) : null].filter(Boolean).join(" · ")))))),
    );
    section.hidden = false;
  }, () => {});
  return section;
}

/** The tournaments running or about to start online, a click from their pages; the
 * section shows only when there is one. */
function tournaments() {
  const section = h("section", { class: "tournaments", "aria-labelledby": "tournaments-title", hidden: true });
  online.tournaments().then(({ running, upcoming }) => {
    const soon = [...running, ...upcoming].slice(0, 4);
    if (!soon.length) return;
    section.replaceChildren(
      h("h2", { id: "tournaments-title" }, t("Tournaments online")),
      h("ul", { class: "seek-list", id: "home-tournaments" },
        ...soon.map((tour) =>
          h("li", { class: "seek", "data-tournament": tour.id },
            h("a", { href: `#/tournament/${encodeURIComponent(tour.id)}` },
              h("span", { class: "seek-game" }, tour.name),
              h("span", { class: "muted" }, [tour.kind === "arena" ? t("arena") : t("Swiss"), tour.title, tour.state === "running" ? t("running") : t("soon"), tn("{n} player", "{n} players", tour.players)].join(" · ")))))),
    );
    section.hidden = false;
  }, () => {});
  return section;
}

/** How often the home page asks again for the open rooms and the games being played
 * (while it is shown and the tab visible), so that the small boards follow the games. */
const LIVE_EVERY_MS = 4000;
/** How many games being played the home page shows. */
const LIVE_SHOWN = 6;

/** The open rooms online (what lichess calls seeks), a click from joining, and the
 * games being played, each a small board that follows the game, a click from watching:
 * the two sections, fed by one question asked again every few seconds. */
function onlineNow() {
  const list = h("ul", { class: "seek-list", id: "seeks" }, h("li", { class: "muted" }, t("Looking for open games…")));
  const live = h("ul", { class: "live-list", id: "live-games" });
  const liveSection = h("section", { class: "live-games", "aria-labelledby": "live-title", hidden: true },
    h("h2", { id: "live-title" }, t("Being played")), live);
  const draw = ({ rooms, live: games }) => {
    list.replaceChildren(
      ...(rooms.length
        ? rooms.slice(0, 5).map((room) =>
            h("li", { class: "seek", "data-room": room.id },
              h("a", { href: `#/game/${encodeURIComponent(room.id)}` },
                h("span", { class: "seek-game" }, room.title),
                h("span", { class: "muted" }, [room.creator, room.rated ? t("rated") : t("casual"), clockText(room.clock)].join(" · ")))))
        : [h("li", { class: "muted", id: "no-seeks" }, ...tl("No open game right now: <a>create one</a>.", [(words) => h("a", { href: "#/lobby" }, words)]))]),
    );
    const shown = games.filter((g) => g.board).slice(0, LIVE_SHOWN);
    live.replaceChildren(
      ...shown.map((g) =>
        h("li", { class: "live-game", "data-live": g.id },
          h("a", { href: `#/game/${encodeURIComponent(g.id)}`, "aria-label": t("watch {game}: {x} against {o}, {side} to move", { game: g.title, x: g.x, o: g.o, side: g.turn.toUpperCase() }) },
            miniBoard(g.board, g.last_move ? g.last_move.cell : null),
            h("span", { class: "live-players" },
              h("span", { class: `live-x${g.turn === "x" ? " to-move" : ""}` }, g.bots.includes("x") ? h("span", { class: "bot-mark", title: t("a computer player") }, "BOT") : null, g.x),
              h("span", { class: `live-o${g.turn === "o" ? " to-move" : ""}` }, g.bots.includes("o") ? h("span", { class: "bot-mark", title: t("a computer player") }, "BOT") : null, g.o)),
            h("span", { class: "muted live-what" }, [g.title, g.rated ? t("rated") : t("casual"), clockText(g.clock)].filter(Boolean).join(" · "))))),
    );
    liveSection.hidden = !shown.length;
  };
  const ask = () => online.rooms().then(draw, () => list.replaceChildren(h("li", { class: "muted" }, t("Online play is not available right now."))));
  ask();
  // Asked again while the home page is shown; the timer ends itself once the page is gone.
  const timer = setInterval(() => {
    if (!list.isConnected) clearInterval(timer);
    else if (!document.hidden) ask();
  }, LIVE_EVERY_MS);
  const seeks = h("section", { class: "seeks", "aria-labelledby": "seeks-title" },
    h("h2", { id: "seeks-title" }, t("Open games online")), list,
    h("a", { class: "button subtle all-rooms", href: "#/lobby" }, t("All rooms, live games →")),
    h("h2", { id: "study-title" }, t("Study")),
    h("p", { class: "muted study-links" },
      ...tl("<a>Analysis board</a>: any position, your variations, the engine's best lines; exact values where a game is solved. Finished games have a “Review the game” button. <a>Puzzles</a>: find the one winning move, proved by exact search; a <a>daily puzzle</a> and <a>streaks</a>.", [
        (words) => h("a", { href: "#/analysis?spec=ultimate", id: "analysis-board-link" }, words),
        (words) => h("a", { href: "#/puzzles", id: "puzzles-home-link" }, words),
        (words) => h("a", { href: "#/puzzles?mode=daily", id: "daily-puzzle-link" }, words),
        (words) => h("a", { href: "#/puzzles?mode=streak" }, words),
      ])));
  return { seeks, live: liveSection };
}

function onlineArt() {
  return h("svg", { viewBox: "0 0 120 64", class: "art", "aria-hidden": "true" },
    h("circle", { cx: 38, cy: 32, r: 16, class: "art-o" }),
    h("path", { d: "M74 18L102 46M102 18L74 46", class: "art-x" }),
    h("path", { d: "M56 28h10M56 36h10", class: "art-line" }));
}
