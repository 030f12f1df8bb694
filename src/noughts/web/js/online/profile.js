// A player's profile (rating per game, games with replay and export) and a replay.

import { BOARDS } from "../boards/index.js";
import { h } from "../dom.js";
import { api, online } from "../api.js";
import { analysisButton, botMark, ended } from "./views.js";
import { resultText } from "./live.js";
import { botChallengeForm, roomLine } from "./lobby.js";


/** Your own profile's "Your bots": accounts for your programs, each with a token that
 * `noughts bot` logs in with (shown once; a new one replaces it). */
function botSection(toast) {
  const list = h("ul", { class: "room-list", id: "own-bots" });
  const shown = h("div", { id: "bot-token", "aria-live": "polite" });
  const showToken = ({ name, token }) => {
    const field = h("input", { type: "text", readonly: true, value: token, id: "bot-token-value", "aria-label": `${name}'s token`, onfocus: (e) => e.target.select() });
    shown.replaceChildren(
      h("p", {}, h("strong", {}, `${name}'s token`), " (shown once: keep it secret, like a password):"), field,
      h("p", { class: "muted" }, "Connect a program that speaks the engine protocol:"),
      h("pre", { class: "command" }, `NOUGHTS_BOT_TOKEN=… noughts bot --server ${location.origin} -- noughts engine`),
    );
  };
  const load = async () => {
    const { bots } = await online.ownBots();
    list.replaceChildren(...(bots.length ? bots.map((bot) => h("li", { class: "room" },
      h("span", { class: "what" }, h("strong", {}, botMark(h, true), h("a", { href: `#/u/${encodeURIComponent(bot)}` }, bot))),
      h("button", { class: "button", type: "button", onclick: async () => { try { showToken(await online.newBotToken(bot)); } catch (e) { toast(e.message, "error"); } } }, "New token")))
      : [h("li", { class: "muted" }, "No bot yet.")]));
  };
  const name = h("input", { type: "text", id: "new-bot-name", required: true, minlength: 3, maxlength: 20, autocomplete: "off" });
  const error = h("p", { class: "field-error", role: "alert", id: "new-bot-error" });
  const make = async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      showToken(await online.newBot(name.value));
      name.value = "";
      await load();
    } catch (e) {
      error.textContent = e.message;
    }
  };
  load().catch((e) => toast(e.message, "error"));
  return h("section", { id: "your-bots" },
    h("h2", {}, "Your bots"),
    h("p", { class: "muted" }, "Put your own program online: a bot account accepts the challenges you allow and plays them through noughts bot."),
    list,
    h("form", { class: "form", id: "new-bot", onsubmit: make }, h("label", {}, "Bot name", name), error, h("button", { class: "button", type: "submit" }, "Make a bot account")),
    shown);
}

export async function profilePage(root, name, { toast, session, navigate } = {}) {
  let profile;
  try {
    profile = await online.profile(name);
  } catch (e) {
    root.replaceChildren(h("section", { class: "page" }, h("h1", {}, "No such player"), h("p", { class: "error" }, e.message)));
    return;
  }
  document.title = `${profile.name} · Noughts`;
  const ratings = profile.ratings.length
    ? h("table", { class: "board-table", id: "ratings" },
        h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Rating"), h("th", {}, "Games"))),
        h("tbody", {}, ...profile.ratings.map((r) => h("tr", {}, h("td", {}, h("a", { href: `#/leaderboard?game=${encodeURIComponent(r.spec)}` }, r.title)), h("td", { class: "num" }, r.rating, r.provisional ? "?" : "", h("small", { class: "muted" }, ` ±${2 * r.deviation}`)), h("td", { class: "num" }, r.games)))))
    : h("p", { class: "muted" }, profile.guest ? "Guests play casual games only." : "No rated game yet.");
  const games = profile.games.length
    ? h("ul", { class: "room-list", id: "history" }, ...profile.games.map((g) => h("li", { class: "room" },
        h("span", { class: "what" }, h("strong", {}, `${g.x ?? "?"} – ${g.o ?? "?"}`), h("small", {}, `${roomLine(g)} · ${g.state === "playing" ? "being played" : g.state === "open" ? "waiting" : resultText(g)}`)),
        h("span", { class: "row" },
          g.state === "playing" || g.state === "open" ? h("a", { class: "button", href: `#/game/${g.id}` }, "Open") : h("a", { class: "button", href: `#/replay/${g.id}` }, "Replay"),
          g.state === "over" ? [" ", analysisButton(h, g, toast ?? (() => {}))] : null,
          " ", h("a", { class: "button subtle", href: `/api/online/games/${g.id}/record`, download: "" }, "Export")))))
    : h("p", { class: "muted" }, "No game yet.");
  const about = profile.bot === "engine"
    ? h("p", { id: "bot-about" }, "A program its owner connects with noughts bot: it accepts the challenges its owner allows.")
    : profile.bot ? h("p", { id: "bot-about" }, `The computer at level ${profile.bot}: it plays from the server and always accepts a challenge.`) : null;
  const challenge = profile.bot && session?.user ? botChallengeForm(session.user, { session, toast: toast ?? (() => {}), navigate }, profile.name) : null;
  const me = session?.user;
  const own = me && me.name === profile.name && !profile.guest && !profile.bot ? botSection(toast ?? (() => {})) : null;
  root.replaceChildren(h("section", { class: "page" }, h("h1", {}, botMark(h, profile.bot), profile.name, profile.guest ? " (guest)" : ""), about, challenge, h("h2", {}, "Ratings"), ratings, h("h2", {}, "Games"), games, own));
}

/** Step through a finished game: the positions come from the web app's /api/position. */
export async function replayPage(root, id, { toast }) {
  const game = await online.game(id);
  const box = h("div", { class: "board-box", id: "board" });
  const board = new BOARDS[game.view.board.kind](box, { onMove: () => {} });
  const slider = h("input", { type: "range", min: 0, max: game.moves.length, value: game.moves.length, id: "replay-ply", "aria-label": "ply" });
  const label = h("span", { id: "replay-label" });
  const show = async () => {
    const ply = Number(slider.value);
    try {
      const view = await api.position({ spec: game.spec, moves: game.moves.slice(0, ply) });
      // The last position of a game that is over has nothing playable left.
      board.render(ply === game.moves.length && game.state !== "playing" ? ended(view) : view, { interactive: false, hint: null });
      label.textContent = ply ? `after ${ply}. ${game.moves[ply - 1]}` : "start";
    } catch (e) {
      toast(e.message, "error");
    }
  };
  slider.addEventListener("input", show);
  const step = (d) => h("button", { class: "button", type: "button", onclick: () => { slider.value = Math.min(game.moves.length, Math.max(0, Number(slider.value) + d)); show(); } }, d < 0 ? "◀" : "▶");
  root.replaceChildren(
    h("section", { class: "page live" },
      h("div", { class: "board-wrap" }, box),
      h("section", { class: "panel" },
        h("h1", { class: "panel-title" }, game.title), h("p", {}, `${game.x?.name ?? "?"} (X) – ${game.o?.name ?? "?"} (O)`),
        h("p", { class: "game-over" }, h("strong", {}, game.state === "playing" ? "being played" : resultText(game))),
        h("div", { class: "row" }, step(-1), slider, step(1)), label,
        h("p", {}, h("a", { href: `/api/online/games/${id}/record`, download: "" }, "Export record"), " · ", h("a", { href: `/api/online/games/${id}/record?format=json`, download: "" }, "JSON")))),
  );
  document.title = `Replay · ${game.title} · Noughts`;
  await show();
  return null;
}
