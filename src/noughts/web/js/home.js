// Home: pick a game, its options and a mode, then play.

import { h } from "./dom.js";
import { prefs } from "./prefs.js";

export function homePage(root, catalogue) {
  const saved = prefs.get("setup") || {};
  const state = {
    key: catalogue.games.some((g) => g.key === saved.key) ? saved.key : "classic",
    options: saved.options || {},
    mode: saved.mode === "local" ? "local" : "computer",
    level: saved.level || "medium",
    side: saved.side || "x",
  };

  const games = h("div", { class: "game-cards", role: "radiogroup", "aria-label": "game" });
  const optionsBox = h("div", { class: "options" });
  const modeBox = h("fieldset", { class: "modes" });
  const start = h("button", { class: "button primary start", type: "submit", id: "start" }, "Play");
  const form = h(
    "form",
    { class: "page home", onsubmit: (e) => (e.preventDefault(), play()) },
    h("section", { class: "pick" }, h("h1", {}, "Choose a game"), games),
    h(
      "section",
      { class: "setup" },
      h("h2", {}, "Options"),
      optionsBox,
      h("h2", {}, "Opponent"),
      modeBox,
      start,
    ),
  );
  root.replaceChildren(form);

  function drawGames() {
    games.replaceChildren(
      ...catalogue.games.map((game) =>
        h(
          "button",
          {
            type: "button",
            role: "radio",
            class: ["game-card", state.key === game.key && "chosen"],
            "aria-checked": String(state.key === game.key),
            "data-game": game.key,
            onclick: () => {
              state.key = game.key;
              state.options = {};
              drawGames();
              drawOptions();
            },
          },
          h("span", { class: `card-art art-${game.key}`, "aria-hidden": "true" }),
          h("span", { class: "card-title" }, game.title),
          h("span", { class: "card-summary" }, game.summary),
        ),
      ),
    );
  }

  function drawOptions() {
    const game = catalogue.games.find((g) => g.key === state.key);
    if (!game.options.length) {
      optionsBox.replaceChildren(h("p", { class: "muted" }, "This game has no options."));
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
          input = h("input", { type: "number", id, name: opt.name, min: opt.minimum, max: opt.maximum, value, inputmode: "numeric" });
          input.addEventListener("input", () => (state.options[opt.name] = Number(input.value)));
        }
        return h(
          "div",
          { class: ["option", `option-${opt.type}`], "data-option": opt.name },
          opt.type === "bool" ? [input, h("label", { for: id }, opt.label)] : [h("label", { for: id }, opt.label), input],
          h("small", { class: "muted" }, opt.help),
        );
      }),
    );
    keepShown();
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
      h("option", { value: "x", selected: state.side === "x" }, "X (moves first)"),
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
      h("legend", { class: "sr-only" }, "opponent"),
      radio("computer", "Against the computer"),
      h("div", { class: ["computer-options", state.mode !== "computer" && "off"] },
        h("label", { for: "level" }, "Level"), level,
        h("label", { for: "side" }, "You play"), side,
        h("small", { class: "muted level-note" }, catalogue.levels.find((l) => l.name === state.level)?.description || "")),
      radio("local", "Two players on this screen"),
      h("a", { class: "mode online-entry", href: "/online" },
        h("span", {}, "Online →"),
        h("small", { class: "muted" }, "accounts, rooms, invite links and live games")),
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
    prefs.set("setup", state);
    const params = new URLSearchParams({ spec: specText(), mode: state.mode });
    if (state.mode === "computer") {
      params.set("level", state.level);
      params.set("side", state.side);
    }
    location.hash = `#/play?${params}`;
  }

  drawGames();
  drawOptions();
  drawModes();
}
