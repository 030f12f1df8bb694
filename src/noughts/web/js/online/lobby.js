// The lobby: create a room, the open rooms (live over the lobby socket), games to watch.

import { miniBoard } from "../art.js";
import { clockText } from "../clock.js";
import { h } from "../dom.js";
import { listen, online } from "../api.js";
import { t, tl, tn } from "../i18n.js";
import { prefs } from "../prefs.js";
import { botMark } from "./views.js";
import { peoplePanel } from "./social.js";
import { tournamentTeaser } from "./tournaments.js";

export function roomLine(room) {
  return `${room.title} · ${room.rated ? t("rated") : t("casual")} · ${clockText(room.clock)}`;
}

/** Quick pairing's presets: the common games and clocks, a click from a game. */
const QUICK = [
  { spec: "ultimate", minutes: 3, increment: 2 },
  { spec: "ultimate", minutes: 5, increment: 3 },
  { spec: "ultimate", minutes: 10, increment: 5 },
  { spec: "classic", minutes: 1, increment: 1 },
  { spec: "mnk:m=15:n=15:k=5", minutes: 5, increment: 5, title: "Gomoku", named: () => t("Gomoku") },
  { spec: "qubic", minutes: 5, increment: 3 },
  { spec: "gobblet", minutes: 3, increment: 2 },
  { spec: "nine-board", minutes: 3, increment: 2 },
  { spec: "connect4", minutes: 3, increment: 2 },
];
/** How often a waiting player asks again (each request may make the pairing). */
const POLL_MS = 1000;
/** When a bot may fill in for a missing opponent: the player's choice, remembered. */
const BOT_WAITS = () => [
  { value: "", label: t("never: wait for a person") },
  { value: "10", label: t("after 10 seconds") },
  { value: "30", label: t("after 30 seconds") },
  { value: "60", label: t("after a minute") },
];
/** The clocks a bot is challenged with. */
const BOT_CLOCKS = () => [
  { value: "", label: t("no clock") },
  { value: "1+1", label: "1+1" },
  { value: "3+2", label: "3+2" },
  { value: "5+3", label: "5+3" },
  { value: "10+5", label: "10+5" },
];

/** How often the lobby asks for the games being played and the players online (milliseconds). */
const LIVE_EVERY = 15_000;

export class LobbyPage {
  constructor(root, context) {
    this.root = root;
    this.context = context;
    this.closed = false;
    this.rooms = h("ul", { class: "room-list", id: "rooms", "aria-live": "polite" });
    this.live = h("ul", { class: "room-list", id: "live-games" });
    this.online = h("p", { class: "muted players-online", id: "players-online" });
    this.people = peoplePanel(context);
    this.render();
    this.socket = listen("/api/online/lobby/ws", (message) => message.type === "lobby" && this.showRooms(message.rooms));
    this.loadLive();
    // The games being played and the players online, asked again now and then.
    this.liveTimer = setInterval(() => this.loadLive().catch(() => {}), LIVE_EVERY);
  }

  destroy() {
    this.closed = true;
    this.socket?.close();
    // Leaving the lobby while waiting leaves the pool, as on lichess.
    if (this.seeking) online.leavePool().catch(() => {});
    clearTimeout(this.pollTimer);
    clearInterval(this.liveTimer);
  }


  async loadLive() {
    const { live, online: count } = await online.rooms();
    this.online.textContent = tn("{n} player online", "{n} players online", count);
    this.people.refresh().catch(() => {});
    this.live.replaceChildren(
      ...(live.length
        ? live.map((g) => h("li", { class: "room live-room", "data-live": g.id }, g.board ? miniBoard(g.board, g.last_move ? g.last_move.cell : null) : null, h("span", { class: "what" }, h("strong", {}, botMark(h, g.bots.includes("x")), g.x, " – ", botMark(h, g.bots.includes("o")), g.o), h("small", {}, roomLine(g))), h("a", { class: "button", href: `#/game/${g.id}` }, t("Watch"))))
        : [h("li", { class: "muted" }, t("No game is being played right now."))]),
    );
  }

  showRooms(rooms) {
    const me = this.context.session.user;
    this.rooms.replaceChildren(
      ...(rooms.length
        ? rooms.map((room) => {
            const mine = me && room.creator === me.name;
            const side = room.creator_side === "random" ? t("random sides") : t("{player} plays {side}", { player: room.creator, side: room.creator_side.toUpperCase() });
            return h(
              "li",
              { class: "room", "data-room": room.id },
              h("span", { class: "what" }, h("strong", {}, room.creator), h("small", {}, `${roomLine(room)} · ${side}`)),
              mine
                ? h("a", { class: "button", href: `#/game/${room.id}` }, t("Your room"))
                : h("button", { class: "button primary", type: "button", onclick: () => this.join(room.id) }, t("Join")),
            );
          })
        : [h("li", { class: "muted", id: "no-rooms" }, t("No open room: create one!"))]),
    );
  }

  async join(id) {
    if (!this.context.session.user) {
      this.context.navigate(`#/game/${id}`);
      return;
    }
    try {
      await online.join(id);
      this.context.navigate(`#/game/${id}`);
    } catch (e) {
      this.context.toast(e.message, "error");
    }
  }

  render() {
    const user = this.context.session.user;
    this.root.replaceChildren(
      h(
        "section",
        { class: "page online-home" },
        h("div", {}, h("h1", {}, t("Play online")), this.online, user ? this.quickPairing(user) : null, h("h2", {}, t("Open rooms")), this.rooms, h("h2", {}, t("Being played")), this.live, this.people.element, h("h2", {}, t("Tournaments")), tournamentTeaser(), h("p", {}, ...tl("<a>All tournaments</a>: arenas and Swiss, finished ones with their results; create your own.", [(words) => h("a", { href: "#/tournaments", id: "lobby-tournaments" }, words)]))),
        user ? h("div", { class: "side-forms" }, this.botForm(user), this.createForm(user)) : this.welcome(),
      ),
    );
  }

  welcome() {
    const guest = async () => {
      try {
        await online.guest();
        await this.context.refreshAccount();
        this.render();
      } catch (e) {
        this.context.toast(e.message, "error");
      }
    };
    return h(
      "section",
      { class: "panel" },
      h("h2", {}, t("Who are you?")),
      h("p", {}, t("Log in or sign up to play rated games and appear on the leaderboard; guests play casual games.")),
      h("div", { class: "row" }, h("a", { class: "button primary", href: "#/login" }, t("Log in")), " ", h("a", { class: "button", href: "#/signup" }, t("Sign up")), " ", h("button", { class: "button", type: "button", id: "guest", onclick: guest }, t("Play as a guest"))),
    );
  }

  // -- quick pairing ------------------------------------------------------------------

  quickPairing(user) {
    const games = this.context.session.catalogue.games;
    const name = (spec) => QUICK.find((q) => q.spec === spec && q.named)?.named() || games.find((g) => g.key === spec.split(":")[0])?.title || spec;
    this.quickRated = h("input", { type: "checkbox", id: "quick-rated", disabled: user.guest || null, checked: !user.guest || null });
    this.quickStatus = h("div", { class: "quick-status", id: "quick-status", "aria-live": "polite" });
    const wait = prefs.get("botAfter") ?? "30";
    this.quickBot = h("select", { id: "quick-bot", onchange: (e) => prefs.set("botAfter", e.target.value) },
      ...BOT_WAITS().map((w) => h("option", { value: w.value, selected: w.value === wait || null }, w.label)));
    return h(
      "section",
      { class: "quick", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, t("Quick pairing")),
      h(
        "div",
        { class: "quick-grid" },
        QUICK.map((q) =>
          h("button", { class: "quick-tile", type: "button", "data-spec": q.spec, "data-clock": `${q.minutes}+${q.increment}`, onclick: () => this.playNow(q) }, h("strong", {}, `${q.minutes}+${q.increment}`), h("span", {}, name(q.spec))),
        ),
      ),
      h("div", { class: "quick-options" },
        h("label", { class: "check" }, this.quickRated, user.guest ? t("Rated (sign up to play rated games)") : t("Rated")),
        h("label", {}, t("If nobody comes, a bot plays you"), this.quickBot)),
      this.quickStatus,
    );
  }

  async playNow(q) {
    try {
      const botAfter = this.quickBot.value === "" ? null : Number(this.quickBot.value);
      const seek = await online.seek({ spec: q.spec, rated: this.quickRated.checked, minutes: q.minutes, increment: q.increment, bot_after: botAfter });
      this.seeking = true;
      this.showSeek(seek);
    } catch (e) {
      this.context.toast(e.message, "error");
    }
  }

  showSeek(seek) {
    if (seek.state === "paired") {
      this.seeking = false;
      this.context.navigate(`#/game/${seek.game_id}`);
      return;
    }
    const others = seek.waiting - 1;
    const looking = { game: seek.title, clock: `${seek.minutes ?? "–"}+${seek.increment}` };
    this.quickStatus.replaceChildren(
      h("p", {}, h("span", { class: "spinner", "aria-hidden": "true" }), h("strong", {}, seek.rated ? t("Looking for an opponent: {game} {clock}, rated", looking) : t("Looking for an opponent: {game} {clock}", looking))),
      h("p", { class: "muted" }, [
        t("{seconds} s", { seconds: Math.round(seek.waited_ms / 1000) }),
        tn("{n} other player waiting", "{n} other players waiting", others),
        t("ratings {low} to {high}", { low: String(Math.round(seek.rating - seek.window)), high: String(Math.round(seek.rating + seek.window)) }),
        seek.bot_after != null ? t("a bot plays you after {seconds} s", { seconds: seek.bot_after }) : null,
      ].filter(Boolean).join(" · ")),
      h("button", { class: "button", type: "button", id: "quick-cancel", onclick: () => this.cancelSeek() }, t("Cancel")),
    );
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.poll(), POLL_MS);
  }

  async poll() {
    if (this.closed || !this.seeking) return;
    try {
      this.showSeek(await online.pairing());
    } catch (e) {
      this.seeking = false;
      this.quickStatus.replaceChildren(h("p", { class: "field-error" }, e.message));
    }
  }

  async cancelSeek() {
    clearTimeout(this.pollTimer);
    try {
      const paired = await online.leavePool();
      this.seeking = false;
      if (paired) return this.showSeek(paired); // paired meanwhile: the game has started
      this.quickStatus.replaceChildren(h("p", { class: "muted" }, t("You left the pool.")));
    } catch (e) {
      this.context.toast(e.message, "error");
    }
  }

  // -- the computer -------------------------------------------------------------------

  botForm(user) {
    return botChallengeForm(user, this.context);
  }

  createForm(user) {
    const games = this.context.session.catalogue.games;
    const game = h("select", { id: "room-game", name: "game" }, ...games.map((g) => h("option", { value: g.key }, g.title)));
    const forget = h("input", { type: "checkbox", id: "room-forget" });
    const forgetLabel = h("label", { class: "check" }, forget, t("Forget mode"));
    const showForget = () => (forgetLabel.hidden = !games.find((g) => g.key === game.value).options.some((o) => o.name === "forget"));
    game.addEventListener("change", showForget);
    showForget();
    const rated = h("input", { type: "checkbox", id: "room-rated", disabled: user.guest || null });
    const side = h("select", { id: "room-side" }, h("option", { value: "x" }, t("X (moves first)")), h("option", { value: "o" }, "O"), h("option", { value: "random" }, t("random")));
    const clock = h("input", { type: "checkbox", id: "room-clock" });
    const minutes = h("input", { type: "number", id: "room-minutes", min: 0.5, max: 180, step: 0.5, value: 5 });
    const increment = h("input", { type: "number", id: "room-increment", min: 0, max: 180, step: 1, value: 3 });
    // The clock's settings show only when there is a clock.
    const clockFields = h("div", { class: "row", id: "room-clock-fields" }, h("label", {}, t("minutes each"), minutes), h("label", {}, t("+ seconds a move"), increment));
    const showClock = () => (clockFields.hidden = !clock.checked);
    clock.addEventListener("change", showClock);
    showClock();
    // Correspondence: days for each move, instead of a clock for the whole game.
    const post = h("input", { type: "checkbox", id: "room-correspondence" });
    const days = h("select", { id: "room-days" }, ...[1, 2, 3, 5, 7, 10, 14].map((d) => h("option", { value: d, selected: d === 3 || null }, tn("{n} day", "{n} days", d))));
    const daysField = h("label", { id: "room-days-field" }, t("for each move"), days);
    const showDays = () => {
      daysField.hidden = !post.checked;
      if (post.checked) clock.checked = false;
      clock.disabled = post.checked;
      showClock();
    };
    post.addEventListener("change", showDays);
    showDays();
    const priv = h("input", { type: "checkbox", id: "room-private" });
    const error = h("p", { class: "field-error", role: "alert", id: "room-error" });
    const create = async (event) => {
      event.preventDefault();
      error.textContent = "";
      const spec = game.value + (forget.checked && !forgetLabel.hidden ? ":forget" : "");
      try {
        const answer = await online.createRoom({
          spec,
          rated: rated.checked,
          side: side.value,
          private: priv.checked,
          minutes: clock.checked && !post.checked ? Number(minutes.value) : null,
          increment: clock.checked && !post.checked ? Number(increment.value) : 0,
          days: post.checked ? Number(days.value) : null,
        });
        this.context.navigate(`#/game/${answer.game.id}`);
      } catch (e) {
        error.textContent = e.message;
      }
    };
    return h(
      "form",
      { class: "panel form", id: "create-room", onsubmit: create },
      h("h2", {}, t("Create a room")),
      h("label", {}, t("Game"), game),
      forgetLabel,
      h("label", {}, t("Your side"), side),
      h("label", { class: "check" }, rated, user.guest ? t("Rated (sign up to play rated games)") : t("Rated")),
      h("label", { class: "check" }, clock, t("Clock")),
      clockFields,
      h("label", { class: "check" }, post, t("Correspondence: days for each move")),
      daysField,
      h("label", { class: "check" }, priv, t("Private: only by invite link")),
      error,
      h("button", { class: "button primary", type: "submit", id: "create" }, t("Create the room")),
    );
  }
}

/** "Play the computer": a bot (any, or `only` that one, on its profile), the game, the
 * clock, the side; a house bot's game starts at once, an engine bot's waits for it. */
export function botChallengeForm(user, context, only = null) {
  const games = context.session.catalogue.games;
  const bot = h("select", { id: "bot-name", hidden: only ? true : null });
  if (only) bot.replaceChildren(h("option", { value: only }, only));
  else {
    online.bots().then(({ bots }) => {
      bot.replaceChildren(...bots.map((b) => h("option", { value: b.name }, b.owner ? t("{bot} (a program of {owner}'s: it may decline)", { bot: b.name, owner: b.owner }) : `${b.name} (${b.level})`)));
    }).catch((e) => context.toast(e.message, "error"));
  }
  const game = h("select", { id: "bot-game" }, ...games.map((g) => h("option", { value: g.key, selected: g.key === "ultimate" || null }, g.title)));
  const clock = h("select", { id: "bot-clock" }, ...BOT_CLOCKS().map((c) => h("option", { value: c.value, selected: c.value === "3+2" || null }, c.label)));
  const side = h("select", { id: "bot-side" }, h("option", { value: "random" }, t("random")), h("option", { value: "x" }, t("X (moves first)")), h("option", { value: "o" }, "O"));
  const rated = h("input", { type: "checkbox", id: "bot-rated", disabled: user.guest || null });
  const error = h("p", { class: "field-error", role: "alert", id: "bot-error" });
  const play = async (event) => {
    event.preventDefault();
    error.textContent = "";
    const [minutes, increment] = clock.value ? clock.value.split("+").map(Number) : [null, 0];
    try {
      const answer = await online.challenge(bot.value, { spec: game.value, rated: rated.checked, side: side.value, minutes, increment });
      context.navigate(`#/game/${answer.game.id}`);
    } catch (e) {
      error.textContent = e.message;
    }
  };
  return h(
    "form",
    { class: "panel form", id: "bot-form", onsubmit: play },
    h("h2", {}, only ? t("Play {bot}", { bot: only }) : t("Play the computer")),
    only ? null : h("p", { class: "muted" }, t("A bot for each level, rated like anybody: it starts at once.")),
    only ? null : h("label", {}, t("Bot"), bot),
    h("label", {}, t("Game"), game),
    h("label", {}, t("Clock"), clock),
    h("label", {}, t("Your side"), side),
    h("label", { class: "check" }, rated, user.guest ? t("Rated (sign up to play rated games)") : t("Rated")),
    error,
    only ? bot : null,
    h("button", { class: "button primary", type: "submit", id: "bot-play" }, only ? t("Challenge") : t("Play the bot")),
  );
}
