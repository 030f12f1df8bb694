// Tournaments: the list (upcoming, running, finished) with a form to create one, and a
// tournament's page with its live standings, the player's game and the pairings. The
// tournament's socket says when it changed (the page then asks for it again) and sends a
// newly paired player to their game at once, as lichess's arenas do; while the socket is
// down the page asks every couple of seconds instead.

import { clockText } from "../clock.js";
import { h } from "../dom.js";
import { currentLanguage, t, tn } from "../i18n.js";
import { listen, online } from "../api.js";

/** How often the small question (the state, your game) is asked with no socket open. */
const POLL_MS = 2000;
/** With the socket open, news comes by itself: the page asks now and then all the same. */
const CONNECTED_POLL_MS = 30000;
/** How often the whole tournament (the standings, the games) is asked for again unasked. */
const STANDINGS_MS = 10000;
/** News makes the page ask for the standings again: no more often than every
 * NEWS_SPAN_MS (with hundreds of players, games end every moment), and not before
 * NEWS_WAIT_MS, the time the server keeps a computed page (so what comes is newer than
 * the news), at a random point of a second so that the pages do not all ask at once.
 * A pairing is followed at once all the same. */
const NEWS_SPAN_MS = 2000;
const NEWS_WAIT_MS = 1000;

/** The standings' columns a phone leaves out, to fit its width: the rating each joined
 * with and the games played (a player's profile and the games list have them). */
const WIDE_ONLY = new Set(["Rating", "Games"]);
/** The standings' columns by their key, as the page's language names them. */
const HEADINGS = () => ({ Player: t("Player"), Rating: t("Rating"), Score: t("Score"), Games: t("Games"), Performance: t("Performance"), Points: t("Points") });

function lengthText(tour) {
  return tour.kind === "arena" ? t("arena, {minutes} min", { minutes: tour.duration }) : tn("Swiss, {n} round", "Swiss, {n} rounds", tour.rounds);
}

function when(ms) {
  return new Date(ms).toLocaleString(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
}

/** A pairing's game in words: who won, a draw, being played, aborted. */
function outcome(g) {
  if (g.state === "playing") return t("being played");
  if (g.state === "aborted") return t("aborted");
  if (g.result === "x-wins") return t("{player} won", { player: g.x });
  if (g.result === "o-wins") return t("{player} won", { player: g.o });
  if (g.result === "draw") return t("draw");
  return g.state ?? "";
}

/** The mark of a player on fire (two wins in a row): a flame drawn in SVG, which every
 * browser shows (an emoji is a box where no emoji font is installed). */
function onFire() {
  const about = t("on fire: two wins in a row, the next win counts double");
  return h(
    "span",
    { class: "on-fire", role: "img", "aria-label": about, title: about },
    h(
      "svg",
      { viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" },
      h("path", { class: "flame", d: "M8 .8C8.6 3.6 12.8 5.4 12.8 9.6a4.8 4.8 0 0 1-9.6 0C3.2 7.4 4.4 6 5.4 5c0 1.6.8 2.6 1.8 2.8C6.6 5.2 7.2 2.6 8 .8z" }),
      h("path", { class: "core", d: "M8 14.4a2.4 2.4 0 0 1-2.4-2.4c0-1.4 1.4-2.4 2.4-3.8 1 1.4 2.4 2.4 2.4 3.8A2.4 2.4 0 0 1 8 14.4z" }),
    ),
  );
}

function line(tour) {
  return h(
    "li",
    { class: "room", "data-tournament": tour.id },
    h("span", { class: "what" }, h("strong", {}, tour.name), h("small", {}, `${tour.title} · ${clockText(tour.minutes === null ? null : tour)} · ${tour.rated ? t("rated") : t("casual")} · ${lengthText(tour)} · ${tn("{n} player", "{n} players", tour.players)}`), h("small", {}, tour.state === "upcoming" ? t("starts {when}", { when: when(tour.starts_at) }) : tour.state === "running" ? t("by {player}", { player: tour.creator }) : t("ended · by {player}", { player: tour.creator }))),
    h("a", { class: "button", href: `#/tournament/${tour.id}` }, tour.state === "finished" ? t("Results") : t("Open")),
  );
}

/** The running and upcoming tournaments as a short list for the lobby (filled in when they arrive). */
export function tournamentTeaser() {
  const list = h("ul", { class: "room-list", id: "lobby-tournament-list" });
  online
    .tournaments()
    .then(({ running, upcoming }) => {
      const soon = [...running, ...upcoming].slice(0, 5);
      list.replaceChildren(...(soon.length ? soon.map(line) : [h("li", { class: "muted" }, t("No tournament is running or planned."))]));
    })
    .catch(() => list.replaceChildren(h("li", { class: "muted" }, t("The tournaments cannot be loaded."))));
  return list;
}

export async function tournamentsPage(root, context) {
  let lists;
  try {
    lists = await online.tournaments();
  } catch (e) {
    root.replaceChildren(h("section", { class: "page" }, h("h1", {}, t("Tournaments")), h("p", { class: "error" }, e.message)));
    return;
  }
  const section = (title, id, items, empty) =>
    h("section", { "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), h("ul", { class: "room-list", id }, ...(items.length ? items.map(line) : [h("li", { class: "muted" }, empty)])));
  const user = context.session.user;
  root.replaceChildren(
    h(
      "section",
      { class: "page online-home" },
      h("div", {}, h("h1", {}, t("Tournaments")), section(t("Running"), "running-tournaments", lists.running, t("None is running.")), section(t("Upcoming"), "upcoming-tournaments", lists.upcoming, t("None is planned: create one!")), section(t("Finished"), "finished-tournaments", lists.finished, t("None yet."))),
      user && !user.guest ? createForm(context) : h("section", { class: "panel" }, h("p", {}, user ? t("Sign up to create tournaments; guests may play in casual ones.") : t("Log in or sign up to create tournaments and play in them."))),
    ),
  );
  document.title = t("{page} · Noughts", { page: t("Tournaments") });
}

function createForm(context) {
  const games = context.session.catalogue.games;
  const field = (label, input) => h("label", {}, label, input);
  const name = h("input", { type: "text", id: "tournament-name", required: true, maxlength: 60, value: "Noughts arena" });
  const kind = h("select", { id: "tournament-kind" }, h("option", { value: "arena" }, t("Arena: a fixed time, paired as you finish")), h("option", { value: "swiss" }, t("Swiss: a fixed number of rounds")));
  const game = h("select", { id: "tournament-game" }, ...games.map((g) => h("option", { value: g.key }, g.title)));
  const rated = h("input", { type: "checkbox", id: "tournament-rated", checked: true });
  const minutes = h("input", { type: "number", id: "tournament-minutes", min: 0.5, max: 180, step: 0.5, value: 3 });
  const increment = h("input", { type: "number", id: "tournament-increment", min: 0, max: 180, step: 1, value: 2 });
  const duration = h("input", { type: "number", id: "tournament-duration", min: 1, max: 720, step: 1, value: 30 });
  const rounds = h("input", { type: "number", id: "tournament-rounds", min: 1, max: 30, step: 1, value: 5 });
  const startsIn = h("input", { type: "number", id: "tournament-starts-in", min: 0, max: 10080, step: 1, value: 5 });
  const durationLabel = field(t("Duration (minutes)"), duration);
  const roundsLabel = field(t("Rounds"), rounds);
  const showKind = () => {
    durationLabel.hidden = kind.value !== "arena";
    roundsLabel.hidden = kind.value === "arena";
  };
  kind.addEventListener("change", showKind);
  showKind();
  const error = h("p", { class: "field-error", role: "alert", id: "tournament-error" });
  const create = async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const t = await online.createTournament({
        kind: kind.value,
        name: name.value,
        spec: game.value,
        rated: rated.checked,
        minutes: Number(minutes.value),
        increment: Number(increment.value),
        duration: kind.value === "arena" ? Number(duration.value) : null,
        rounds: kind.value === "arena" ? null : Number(rounds.value),
        starts_in: Number(startsIn.value),
      });
      context.navigate(`#/tournament/${t.id}`);
    } catch (e) {
      error.textContent = e.message;
    }
  };
  return h(
    "form",
    { class: "panel form", id: "create-tournament", onsubmit: create },
    h("h2", {}, t("Create a tournament")),
    field(t("Name"), name),
    field(t("Kind"), kind),
    field(t("Game"), game),
    h("div", { class: "row" }, field(t("Minutes each"), minutes), field(t("+ seconds a move"), increment)),
    durationLabel,
    roundsLabel,
    field(t("Starts in (minutes)"), startsIn),
    h("label", { class: "check" }, rated, t("Rated")),
    error,
    h("button", { class: "button primary", type: "submit", id: "create-tournament-button" }, t("Create")),
  );
}

export class TournamentPage {
  constructor(root, id, context) {
    this.root = root;
    this.id = id;
    this.context = context;
    this.closed = false;
    const path = `/api/online/tournaments/${encodeURIComponent(id)}/ws`;
    this.socket = listen(path, (message) => this.hear(message), () => this.t?.state !== "finished");
    this.load();
  }

  destroy() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.newsTimer);
    this.socket?.close();
  }

  /** The tournament's news: a pairing of this player sends them to the game; anything
   * else has the page ask again (see NEWS_SPAN_MS). */
  /** @param {import("./protocol").ServerFrame} message */
  hear(message) {
    if (message.type !== "tournament") return;
    const me = this.context.session.user?.name;
    if (me && message.paired[me]) {
      this.context.navigate(`#/game/${message.paired[me]}`);
      return;
    }
    if (this.newsTimer) return; // asked for already
    const wait = Math.max(NEWS_WAIT_MS, (this.loadedAt ?? 0) + NEWS_SPAN_MS - Date.now()) + Math.random() * 1000;
    this.newsTimer = setTimeout(() => {
      this.newsTimer = null;
      this.load();
    }, wait);
  }

  async load() {
    let tour;
    try {
      tour = await online.tournament(this.id);
    } catch (e) {
      this.root.replaceChildren(h("section", { class: "page" }, h("h1", {}, t("Tournament")), h("p", { class: "error" }, e.message)));
      return;
    }
    if (this.closed || this.paired(tour)) return;
    this.show(tour);
    this.loadedAt = Date.now();
    this.schedule();
  }

  /** Paired while the page is open (by one's own join, or heard by the poll rather
   * than the news): off to the game. */
  paired(t) {
    if (!this.t || !t.my_game || t.my_game === this.t.my_game) return false;
    this.context.navigate(`#/game/${t.my_game}`);
    return true;
  }

  schedule() {
    clearTimeout(this.timer);
    const connected = this.socket.isOpen;
    if (!this.closed && this.t.state !== "finished") this.timer = setTimeout(() => this.poll(), connected ? CONNECTED_POLL_MS : POLL_MS);
  }

  /** The small question (the state, your game); the whole tournament again when that
   * changed, or every STANDINGS_MS for the standings. */
  async poll() {
    try {
      const mine = await online.tournamentMine(this.id);
      if (mine.state !== this.t.state || mine.my_game !== this.t.my_game || mine.joined !== this.t.joined || Date.now() - this.loadedAt >= STANDINGS_MS) {
        await this.load();
        return;
      }
    } catch {
      // The server is away for a moment: ask again later, the page stays as it was.
    }
    this.schedule();
  }

  async act(action) {
    try {
      const t = await action(this.id);
      if (!this.paired(t)) this.show(t);
    } catch (e) {
      this.context.toast(e.message, "error");
    }
  }

  show(tour) {
    this.t = tour;
    const user = this.context.session.user;
    const buttons = [];
    if (user && tour.state !== "finished") {
      if (tour.joined) buttons.push(h("button", { class: "button", type: "button", id: "tournament-withdraw", onclick: () => this.act(online.withdrawTournament) }, tour.state === "upcoming" ? t("Leave") : t("Withdraw")));
      else {
        // A running Swiss takes back only its own players (withdrawn, or paused for leaving a game).
        const known = tour.standings.some((s) => s.name === user.name);
        if (!(tour.kind === "swiss" && tour.state === "running") || known) buttons.push(h("button", { class: "button primary", type: "button", id: "tournament-join", onclick: () => this.act(online.joinTournament) }, known && tour.state === "running" ? t("Come back") : t("Join")));
      }
      if (tour.state === "upcoming" && tour.creator === user.name) buttons.push(h("button", { class: "button", type: "button", id: "tournament-start", onclick: () => this.act(online.startTournament) }, t("Start now")));
    }
    const status =
      tour.state === "upcoming" ? t("Starts {when}", { when: when(tour.starts_at) }) : tour.state === "running" ? (tour.kind === "arena" ? t("Running: no new games after {when}", { when: when(tour.ends_at) }) : t("Round {round} of {rounds}", { round: tour.round, rounds: tour.rounds })) : t("Finished: the final standings");
    const swiss = tour.kind === "swiss";
    const headers = ["#", "Player", "Rating", "Score", "Games", ...(swiss ? ["Buchholz", "Sonneborn-Berger"] : ["Performance", "Points"])];
    // The tie-breaks' names are chess jargon: the header says what they count.
    const explained = {
      Buchholz: t("the sum of your opponents' scores"),
      "Sonneborn-Berger": t("the scores of the opponents you beat, and half of those you drew"),
      Performance: t("the rating your results were worth: your opponents' mean rating, +500 for each win and -500 for each loss"),
      Points: t("each game's points in order: 2 a win, 1 a draw, doubled on fire"),
    };
    const rows = tour.standings.map((s) =>
      h(
        "tr",
        { class: s.withdrawn ? "muted" : null },
        h("td", { class: "num" }, s.rank),
        h("th", { scope: "row", class: "player" }, h("a", { href: `#/u/${encodeURIComponent(s.name)}` }, s.name), s.on_fire ? onFire() : null, s.withdrawn ? h("small", {}, " (withdrawn)") : null, s.playing ? h("small", {}, " ", h("a", { href: `#/game/${s.playing}` }, "playing")) : null),
        h("td", { class: "num wide-only" }, s.rating),
        h("td", { class: "num" }, s.score),
        h("td", { class: "num wide-only" }, s.games),
        ...(swiss ? [h("td", { class: "num" }, s.buchholz), h("td", { class: "num" }, s.sonneborn_berger)] : [h("td", { class: "num" }, s.performance ?? "–"), h("td", { class: "sheet" }, s.sheet)]),
      ),
    );
    const table = tour.standings.length
      ? h(
          "div",
          { class: "table-scroll" },
          h("table", { class: "board-table standings", id: "standings" }, h("caption", { class: "muted" }, t("Standings")), h("thead", {}, h("tr", {}, ...headers.map((x) => h("th", { scope: "col", class: [x !== "Player" && x !== "Points" && "num", WIDE_ONLY.has(x) && "wide-only"], title: explained[x] ?? null }, HEADINGS()[x] ?? x)))), h("tbody", {}, ...rows)),
        )
      : h("p", { class: "muted", id: "no-players" }, t("Nobody has joined yet."));
    const pairing = (g) =>
      h("li", { class: "room" }, h("span", { class: "what" }, h("strong", {}, g.o === null ? t("{player}: bye", { player: g.x }) : `${g.x} – ${g.o}`), h("small", {}, [swiss ? t("round {n}", { n: g.round }) : null, g.o === null ? t("1 point") : outcome(g)].filter(Boolean).join(" · "))), g.game_id ? h("a", { class: "button", href: `#/game/${g.game_id}` }, g.state === "playing" ? t("Watch") : t("Replay")) : null);
    this.root.replaceChildren(
      h(
        "section",
        { class: "page tournament-page" },
        h("div", { class: "tournament-main" }, h("h1", {}, tour.name), h("p", { id: "tournament-status", "aria-live": "polite" }, status), tour.my_game ? h("p", { class: "offer" }, h("strong", {}, t("Your game has started.")), h("a", { class: "button primary", id: "tournament-my-game", href: `#/game/${tour.my_game}` }, t("Play"))) : null, table),
        h(
          "section",
          { class: "panel tournament-side", "aria-label": t("the tournament") },
          h("p", {}, `${tour.title} · ${clockText(tour.minutes === null ? null : tour)} · ${tour.rated ? t("rated") : t("casual")} · ${lengthText(tour)}`),
          h("p", { class: "muted" }, `${t("Created by {player}", { player: tour.creator })} · ${tn("{n} player", "{n} players", tour.players)}`),
          buttons.length ? h("div", { class: "row" }, ...buttons) : null,
          h("h2", {}, t("Games")),
          tour.games_total > tour.games.length ? h("p", { class: "muted" }, t("The newest {shown} of {total}.", { shown: tour.games.length, total: tour.games_total })) : null,
          h("ul", { class: "room-list", id: "tournament-games" }, ...(tour.games.length ? tour.games.map(pairing) : [h("li", { class: "muted" }, t("No game yet."))])),
        ),
      ),
    );
    document.title = `${tour.name} · Tournaments · Noughts`;
  }
}
