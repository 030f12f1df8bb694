// A player's profile (rating, wins, draws and losses per game, the rating history, the
// puzzle rating, the games a page at a time with replay and download) and a replay.

import { boardFor } from "../boards/index.js";
import { h } from "../dom.js";
import { currentLanguage, t } from "../i18n.js";
import { api, online } from "../api.js";
import { analysisButton, botMark, ended } from "./views.js";
import { downloads, resultText } from "./live.js";
import { botChallengeForm, roomLine } from "./lobby.js";
import { ratingChart } from "./rating_chart.js";
import { profileButtons } from "./social.js";


/** Your own profile's "Your bots": accounts for your programs, each with a token that
 * `noughts bot` logs in with (shown once; a new one replaces it). */
function botSection(toast) {
  const list = h("ul", { class: "room-list", id: "own-bots" });
  const shown = h("div", { id: "bot-token", "aria-live": "polite" });
  const showToken = ({ name, token }) => {
    const field = h("input", { type: "text", readonly: true, value: token, id: "bot-token-value", "aria-label": t("{bot}'s token", { bot: name }), onfocus: (e) => e.target.select() });
    shown.replaceChildren(
      h("p", {}, h("strong", {}, t("{bot}'s token", { bot: name })), " ", t("(shown once: keep it secret, like a password):")), field,
      h("p", { class: "muted" }, t("Connect a program that speaks the engine protocol:")),
      h("pre", { class: "command" }, `NOUGHTS_BOT_TOKEN=… noughts bot --server ${location.origin} -- noughts engine`),
    );
  };
  const load = async () => {
    const { bots } = await online.ownBots();
    list.replaceChildren(...(bots.length ? bots.map((bot) => h("li", { class: "room" },
      h("span", { class: "what" }, h("strong", {}, botMark(h, true), h("a", { href: `#/u/${encodeURIComponent(bot)}` }, bot))),
      h("button", { class: "button", type: "button", onclick: async () => { try { showToken(await online.newBotToken(bot)); } catch (e) { toast(e.message, "error"); } } }, t("New token"))))
      : [h("li", { class: "muted" }, t("No bot yet."))]));
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
    h("h2", {}, t("Your bots")),
    h("p", { class: "muted" }, t("Put your own program online: a bot account accepts the challenges you allow and plays them through noughts bot.")),
    list,
    h("form", { class: "form", id: "new-bot", onsubmit: make }, h("label", {}, t("Bot name"), name), error, h("button", { class: "button", type: "submit" }, t("Make a bot account"))),
    shown);
}

/** How many games a profile's list shows at a time. */
const PAGE = 20;
const OUTCOME = () => ({ win: t("Won"), draw: t("Drawn"), loss: t("Lost") });
const when = (ms) => new Date(ms).toLocaleDateString(currentLanguage(), { day: "numeric", month: "short", year: "numeric" });

/** Each game's rating beside its wins, draws and losses (rated or casual). */
function standings(profile) {
  const rows = new Map();
  for (const r of profile.ratings) rows.set(r.spec, { title: r.title, spec: r.spec, rating: r });
  for (const o of profile.outcomes) rows.set(o.spec, { ...(rows.get(o.spec) || { title: o.title, spec: o.spec }), outcomes: o });
  if (!rows.size) return h("p", { class: "muted" }, profile.guest ? t("Guests play casual games only.") : t("No finished game yet."));
  const count = (row, key) => h("td", { class: "num" }, row.outcomes ? row.outcomes[key] : 0);
  return h("table", { class: "board-table", id: "ratings" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Game")), h("th", { class: "num" }, t("Rating")), h("th", { class: "num" }, t("Won")), h("th", { class: "num" }, t("Drawn")), h("th", { class: "num" }, t("Lost")))),
    h("tbody", {}, ...[...rows.values()].map((row) => h("tr", {},
      h("td", {}, h("a", { href: `#/leaderboard?game=${encodeURIComponent(row.spec)}` }, row.title)),
      h("td", { class: "num", title: row.rating?.provisional ? t("provisional: too few rated games yet, or none for a long time") : null },
        row.rating ? `${row.rating.rating}${row.rating.provisional ? "?" : ""}` : "–"),
      count(row, "wins"), count(row, "draws"), count(row, "losses")))));
}

/** The rating chart, with a choice of game when the player has several. */
function history(profile) {
  const specs = [...new Set(profile.history.map((p) => p.spec))];
  if (!specs.length) return null;
  const titles = new Map(profile.ratings.map((r) => [r.spec, r.title]));
  const box = h("div", { class: "chart-box" });
  const draw = (spec) => box.replaceChildren(ratingChart(profile.history.filter((p) => p.spec === spec), titles.get(spec) ?? spec));
  // The game played most shows first.
  const most = specs.sort((a, b) => profile.history.filter((p) => p.spec === b).length - profile.history.filter((p) => p.spec === a).length)[0];
  draw(most);
  const choice = specs.length > 1
    ? h("label", {}, t("Game"), " ", h("select", { id: "chart-game", onchange: (e) => draw(e.target.value) }, ...specs.map((spec) => h("option", { value: spec, selected: spec === most || null }, titles.get(spec) ?? spec))))
    : null;
  return h("section", { id: "rating-history" }, h("h2", {}, t("Rating history")), choice, box);
}

/** One of the player's games, from their side: when, against whom, the outcome. */
function gameRow(g, name, toast) {
  const side = g.x === name ? "x" : g.o === name ? "o" : null;
  const opponent = side ? g[side === "x" ? "o" : "x"] : null;
  const change = g.rating_after != null && g.rating_before != null ? g.rating_after - g.rating_before : null;
  const status = g.state === "playing" ? t("being played") : g.state === "open" ? t("waiting for an opponent") : resultText(g);
  return h("tr", { "data-game": g.id },
    h("td", {}, when(g.ended_at ?? g.created_at)),
    h("td", {}, opponent ? h("a", { href: `#/u/${encodeURIComponent(opponent)}` }, opponent) : "–", side ? h("small", { class: "muted" }, ` · ${t("{player} as {side}", { player: name, side: side.toUpperCase() })}`) : null),
    h("td", {}, roomLine(g)),
    // "Won" says it all for a game that ended on the board; an ending by resignation, time... is told.
    h("td", { class: ["outcome", g.outcome && `outcome-${g.outcome}`] }, g.outcome ? h("strong", {}, OUTCOME()[g.outcome], " ") : null,
      !g.outcome || g.termination !== "normal" ? h("small", {}, status) : null,
      change !== null ? h("small", { class: "muted" }, ` · ${g.rating_after} (${change >= 0 ? "+" : ""}${change})`) : null),
    h("td", { class: "links" },
      g.state === "playing" || g.state === "open" ? h("a", { class: "button", href: `#/game/${g.id}` }, t("Open")) : h("a", { class: "button", href: `#/replay/${g.id}` }, t("Replay")),
      g.state === "over" ? [" ", analysisButton(h, g, toast)] : null,
      " ", h("a", { class: "button subtle", href: `/api/online/games/${g.id}/record`, download: "" }, t("Download"))));
}

/** The player's games, newest first, a page at a time. */
function gameList(profile, toast) {
  const box = h("section", { id: "games" });
  const show = (page) => {
    const from = page.offset + 1;
    const to = page.offset + page.profile.games.length;
    const pager = page.profile.games_total > PAGE
      ? h("div", { class: "row pager" },
          h("button", { class: "button", type: "button", id: "games-newer", disabled: page.offset === 0 || null, onclick: () => load(page.offset - PAGE) }, t("Newer")),
          h("span", { class: "muted" }, `${from}–${to} of ${page.profile.games_total}`),
          h("button", { class: "button", type: "button", id: "games-older", disabled: to >= page.profile.games_total || null, onclick: () => load(page.offset + PAGE) }, t("Older")))
      : null;
    box.replaceChildren(h("h2", {}, `Games (${page.profile.games_total})`),
      page.profile.games.length
        ? h("div", { class: "table-scroll" }, h("table", { class: "board-table games-table", id: "history" },
            h("thead", {}, h("tr", {}, h("th", {}, t("Date")), h("th", {}, t("Opponent")), h("th", {}, t("Game")), h("th", {}, t("Result")), h("th", {}, h("span", { class: "sr-only" }, t("Open"))))),
            h("tbody", {}, ...page.profile.games.map((g) => gameRow(g, profile.name, toast)))))
        : h("p", { class: "muted" }, t("No game yet.")),
      pager ?? "");
  };
  const load = async (offset) => {
    try {
      show({ offset, profile: await online.profilePage(profile.name, { offset, limit: PAGE }) });
    } catch (e) {
      toast(e.message, "error");
    }
  };
  show({ offset: 0, profile });
  return box;
}

/**
 * @param {HTMLElement} root
 * @param {string} name
 * @param {{ toast?: (message: string, kind?: string) => void, session?: any, navigate?: (route: string) => void }} [context]
 */
export async function profilePage(root, name, { toast = () => {}, session, navigate } = {}) {
  let profile;
  try {
    profile = await online.profilePage(name, { limit: PAGE });
  } catch (e) {
    root.replaceChildren(h("section", { class: "page" }, h("h1", {}, t("No such player")), h("p", { class: "error" }, e.message)));
    return;
  }
  document.title = `${profile.name} · Noughts`;
  const about = profile.bot === "engine"
    ? h("p", { id: "bot-about" }, t("A program its owner connects with noughts bot: it accepts the challenges its owner allows."))
    : profile.bot ? h("p", { id: "bot-about" }, t("The computer at level {level}: it plays from the server and always accepts a challenge.", { level: profile.bot })) : null;
  const challenge = profile.bot && session?.user ? botChallengeForm(session.user, { session, toast, navigate }, profile.name) : null;
  const me = session?.user;
  const social = me && me.name !== profile.name && !profile.bot ? profileButtons(profile.name, { session, toast, navigate }) : null;
  const own = me && me.name === profile.name && !profile.guest && !profile.bot ? botSection(toast) : null;
  const puzzles = profile.puzzles
    ? h("p", { id: "puzzle-rating" }, h("strong", {}, t("Puzzles: ")), t("{rating} · {solved} solved of {attempts} · best streak {streak}", { rating: `${profile.puzzles.rating}${profile.puzzles.provisional ? "?" : ""}`, solved: profile.puzzles.solved, attempts: profile.puzzles.attempts, streak: profile.puzzles.best_streak }))
    : null;
  root.replaceChildren(h("section", { class: "page profile" },
    h("h1", {}, botMark(h, profile.bot), profile.name, profile.guest ? " (guest)" : ""), social, about, challenge,
    h("h2", {}, t("Ratings and results")), standings(profile), puzzles,
    history(profile),
    gameList(profile, toast), own));
}

/** Step through a finished game: the positions come from the web app's /api/position. */
export async function replayPage(root, id, { toast }) {
  const game = await online.game(id);
  const box = h("div", { class: "board-box", id: "board" });
  const board = new (boardFor(game.view.board.kind))(box, { onMove: () => {} });
  const slider = h("input", { type: "range", min: 0, max: game.moves.length, value: game.moves.length, id: "replay-ply", "aria-label": t("move") });
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
      h("section", { class: "panel", "aria-label": t("the game") },
        h("h1", { class: "game-title" }, game.title, h("small", {}, ` · ${game.rated ? t("rated") : t("casual")}`)), h("p", {}, `${game.x?.name ?? "?"} (X) – ${game.o?.name ?? "?"} (O)`),
        h("p", { class: "game-over" }, h("strong", {}, game.state === "playing" ? t("being played") : resultText(game))),
        h("div", { class: "row" }, step(-1), slider, step(1)), label,
        downloads(id))),
  );
  document.title = `Replay · ${game.title} · Noughts`;
  await show();
  return null;
}
