// A game online: the waiting room until the opponent arrives, then the live board over
// the game's websocket, for players and spectators alike. The server is the authority:
// the page sends moves and offers and draws whatever state the server sends back.

import { boardFor } from "../boards/index.js";
import { h, markSvg } from "../dom.js";
import { t, tn } from "../i18n.js";
import { api, online, socketUrl } from "../api.js";
import { analysisButton, analysisLink, botMark, ended } from "./views.js";
import { effect } from "../sound.js";
import { ChatPanel } from "./chat.js";
import { afterEvent } from "./events.js";
import { MoveTimer } from "./timing.js";
import { Premove, canPremove, confirmsMoves } from "./premove.js";
import { plyAfterKey, plyAfterSwipe } from "./stepping.js";
import { prefs } from "../prefs.js";

/** A finished game's analysis being computed is asked for again this often (milliseconds). */
const ANALYSIS_POLL = 1500;
/** A question asked before resigning or offering a draw goes back to its button after this long (milliseconds), as lichess's. */
const CONFIRM_WAIT = 3000;
/** The actions asked once more before they are sent: what the question says, and the confirm button's name. */
const CONFIRMED = () => ({
  resign: { question: t("Resign?"), yes: t("Yes, resign"), no: t("No, keep playing") },
  "draw-offer": { question: t("Offer a draw?"), yes: t("Yes, offer a draw"), no: t("No, keep playing") },
});
/** What a provisional rating's "?" means, as the profile and the leaderboard say it. */
const PROVISIONAL = () => t("provisional: too few rated games yet, or none for a long time");

/** A game's result, each ending its own sentence (a language words each its way). */
export function resultText(game) {
  if (game.state === "aborted") return t("Game aborted");
  if (game.state === "cancelled") return t("Room closed");
  if (game.result === "draw") {
    const draws = { resignation: t("Draw by resignation"), time: t("Draw on time"), agreement: t("Draw by agreement"), abandoned: t("Draw: the opponent left") };
    return draws[game.termination] ?? t("Draw");
  }
  const winner = game.result === "x-wins" ? game.x : game.o;
  // A game's state names its players as {name, ...}; a line of the lobby or a profile, by name.
  const player = (typeof winner === "string" ? winner : winner?.name) ?? "?";
  if (game.termination === "resignation") return t("{player} wins by resignation", { player });
  if (game.termination === "time") return t("{player} wins on time", { player });
  if (game.termination === "agreement") return t("{player} wins by agreement", { player });
  if (game.termination === "abandoned") return t("{player} wins: the opponent left", { player });
  return t("{player} wins", { player });
}

/** The game's record to download, the file formats behind a "details" toggle. */
export function downloads(id) {
  return h("details", { class: "downloads" }, h("summary", {}, t("Download the game")),
    h("p", {}, h("a", { href: `/api/online/games/${id}/record`, download: "" }, t("Game record (text)")), " · ", h("a", { href: `/api/online/games/${id}/record?format=json`, download: "" }, "JSON")));
}

/** What an opponent did, as a toast says it after their name. */
const DID = () => ({
  "draw-offer": t("{player} offers a draw"),
  "takeback-request": t("{player} asks to take back their move"),
  "rematch-offer": t("{player} offers a rematch"),
  "draw-decline": t("{player} declines the draw"),
  "takeback-decline": t("{player} declines to take back the move"),
  "rematch-decline": t("{player} declines the rematch"),
});

function clockText(ms) {
  // Correspondence: days and hours, then as a real-time clock for the last hour.
  if (ms >= 86_400_000) return `${Math.floor(ms / 86_400_000)}d ${Math.floor((ms % 86_400_000) / 3_600_000)}h`;
  if (ms >= 3_600_000) return `${Math.floor(ms / 3_600_000)}h ${Math.floor((ms % 3_600_000) / 60_000)}m`;
  const total = Math.max(0, Math.ceil(ms / 100)) / 10;
  const minutes = Math.floor(total / 60);
  const seconds = total - minutes * 60;
  return total < 10 ? seconds.toFixed(1) : `${minutes}:${String(Math.floor(seconds)).padStart(2, "0")}`;
}

export class LivePage {
  constructor(root, id, context) {
    this.root = root;
    this.id = id;
    this.context = context;
    this.game = null;
    this.board = null;
    this.destroyed = false;
    this.ref = 0;
    this.retry = 500;
    this.spectators = null;
    this.chat = new ChatPanel({ send: (message) => this.send(message), toast: context.toast, me: () => this.me });
    this.ticker = setInterval(() => this.tick(), 200);
    this.timer = new MoveTimer();
    // While a clock runs, a ping every few seconds measures the network for the server's lag compensation.
    this.pinger = setInterval(() => this.game?.clock && !this.game.clock.days_per_move && this.game.state === "playing" && this.timer.pinged(this.send({ type: "ping" }, true)), 3000);
    this.premove = new Premove();
    /** A correspondence move placed and waiting for its confirmation. */
    this.pending = null;
    /** An earlier position looked at from the move list ({ply, view}), or null for the live one. */
    this.browsing = null;
    /** The positions shown from the move list, by their moves. */
    this.views = new Map();
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    this.start();
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.ticker);
    clearInterval(this.pinger);
    clearTimeout(this.confirmTimer);
    document.removeEventListener("keydown", this.onKey);
    this.socket?.close();
  }

  get me() {
    return this.context.session.user;
  }

  /** "x" or "o" when the logged-in user plays this game, else null. */
  get side() {
    if (!this.me || !this.game) return null;
    if (this.game.x?.name === this.me.name) return "x";
    if (this.game.o?.name === this.me.name) return "o";
    return null;
  }

  async start() {
    try {
      this.apply(await online.game(this.id));
    } catch (e) {
      this.root.replaceChildren(h("section", { class: "page" }, h("h1", {}, t("No such game")), h("p", { class: "error" }, e.message), h("a", { class: "button", href: "#/lobby" }, t("Back to the lobby"))));
      return;
    }
    this.connect();
  }

  /** A new socket at once: the server reads who we are from the cookie when a socket
   * opens, so one opened before joining as a new guest would still take us for a visitor. */
  reconnect() {
    const old = this.socket;
    if (old) {
      old.onclose = null;
      old.onmessage = null;
      old.close();
    }
    this.connect();
  }

  connect() {
    const socket = (this.socket = new WebSocket(socketUrl(`/api/online/games/${encodeURIComponent(this.id)}/ws`)));
    socket.onopen = () => {
      this.retry = 500;
      this.connected = true;
      this.render();
    };
    socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    socket.onclose = () => {
      this.connected = false;
      if (this.destroyed) return;
      this.render();
      // Reconnecting brings the whole state back (the server sends it on connect).
      setTimeout(() => !this.destroyed && this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  /** Asks for the whole state once, however many events come before it. */
  resync() {
    if (this.resyncing) return;
    this.resyncing = true;
    this.send({ type: "resync" });
  }

  /**
   * @param {import("./protocol").Outgoing} message a frame of the protocol's; its id is added
   * @param {boolean} quiet no toast when not connected (a ping)
   * @returns {number} the frame's id
   */
  send(message, quiet = false) {
    const id = ++this.ref;
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ ...message, id }));
    else if (!quiet) this.context.toast(t("not connected: reconnecting…"), "error");
    return id;
  }

  /** @param {import("./protocol").ServerFrame} message */
  receive(message) {
    if (message.type === "state") {
      this.resyncing = false;
      this.apply(message.game);
    } else if (message.type === "event") {
      const before = this.game;
      const next = afterEvent(this.game, message);
      if (next.seen) return;
      if (next.resync) this.resync();
      // A move's patch after a gap waits for the whole state; a whole state is shown.
      if (next.game === before) return;
      this.apply(next.game);
      this.announce(message);
      this.sounds(before, this.game, message);
    } else if (message.type === "pong") {
      if (typeof message.id === "number") this.timer.ponged(message.id);
    } else if (message.type === "presence" && this.game) {
      this.game.away = message.away;
      this.render();
    } else if (message.type === "chat-backlog") {
      this.chat.backlog(message);
    } else if (message.type === "chat") {
      this.chat.add(message.line);
    } else if (message.type === "chat-muted") {
      this.chat.muted(message.muted);
    } else if (message.type === "chat-reported") {
      this.context.toast(t("Reported: the moderators will read it"));
    } else if (message.type === "spectators") {
      this.spectators = message.count;
      this.showSpectators();
    } else if (message.type === "error") {
      this.context.toast(message.message, "error");
      effect("error");
    }
  }

  /** The offline page's effects: each move, and the end of the game (won, lost or drawn, for a player). */
  sounds(before, game, event) {
    if (event.kind === "move" || event.patch) effect(game.moves.length % 2 ? "x" : "o");
    if (before?.state === "playing" && game.state !== "playing") {
      const side = this.side;
      if (game.result === "draw" || !side) effect("draw");
      else effect(game.result === `${side}-wins` ? "win" : "loss");
    }
  }

  announce(event) {
    const who = event.by && this.game[event.by]?.name;
    const mine = event.by && event.by === this.side;
    if (event.kind === "rematch-accept" && this.game.rematch_id && this.side) {
      this.context.navigate(`#/game/${this.game.rematch_id}`);
    } else if (!mine && who && DID()[event.kind]) {
      this.context.toast(DID()[event.kind].replace("{player}", who));
    }
  }

  apply(game) {
    this.game = game;
    // A new move brings the board back to the live position, as lichess does.
    if (this.browsing && this.browsing.total !== game.moves.length) this.browsing = null;
    if (game.state !== "playing") this.pending = null;
    const { send, dropped } = this.premove.resolve(game, this.side);
    this.receivedAt = Date.now();
    // The tab says when it is the viewer's move, for a player whose game is in another tab.
    const yours = game.state === "playing" && this.side !== null && game.view.turn === this.side;
    this.timer.seen(yours, game.ply);
    document.title = yours ? t("● Your move · {game} · Online · Noughts", { game: game.title }) : t("{game} · Online · Noughts", { game: game.title });
    this.render();
    if (send) this.sendMove(send);
    else if (dropped) this.context.toast(t("Premove {move} cancelled: no longer legal", { move: dropped }));
  }

  /** Sends `move` for the position shown, with the player's own timing of it (the
   * server's lag compensation: docs/online.md). */
  sendMove(move) {
    this.send({ type: "move", move, ply: this.game.ply, ...this.timer.timing() });
  }

  /** A cell clicked: played on one's turn (or placed, to confirm, in correspondence),
   * queued as a premove on the opponent's. */
  play(text) {
    const game = this.game;
    if (this.browsing) return;
    if (game.view.turn !== this.side) {
      if (canPremove(game, this.side)) this.premove.toggle(text);
      this.render();
    } else if (confirmsMoves(game, prefs.get("confirmCorrespondence"))) {
      this.pending = this.pending === text ? null : text;
      this.render();
      if (this.pending) this.sidePanel.querySelector("[data-action='move-confirm']")?.focus();
    } else {
      this.sendMove(text);
    }
  }

  /** Takes back the queued premove or the placed move; true if there was one. */
  cancelQueued() {
    const had = this.premove.cancel() || this.pending !== null;
    this.pending = null;
    if (had) this.render();
    return had;
  }

  /** Escape cancels a premove; the arrows, Home and End step through the moves (not
   * while typing in the chat, nor while a cell of the board has the keyboard, whose
   * arrows move between cells). */
  key(e) {
    if (!this.game || this.game.state === "open") return;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest?.("input, textarea, select, [contenteditable]")) return;
    if (e.key === "Escape" && this.cancelQueued()) return e.preventDefault();
    if (target.closest?.("#board") || e.altKey || e.ctrlKey || e.metaKey) return;
    const total = this.game.moves.length;
    const ply = plyAfterKey(e.key, this.browsing?.ply ?? total, total);
    if (ply === null) return;
    e.preventDefault();
    this.showPly(ply);
  }

  /** Shows the position after `ply` moves (asked of the server, kept), or the live one. */
  async showPly(ply) {
    const total = this.game.moves.length;
    if (ply >= total) {
      if (this.browsing) {
        this.browsing = null;
        this.render();
      }
      return;
    }
    const key = this.game.moves.slice(0, ply).join(" ");
    let view = this.views.get(key);
    if (!view) {
      try {
        view = await api.position({ spec: this.game.spec, moves: this.game.moves.slice(0, ply) });
      } catch (e) {
        this.context.toast(e.message, "error");
        return;
      }
      this.views.set(key, view);
    }
    if (this.destroyed || this.game.moves.length !== total) return;
    this.browsing = { ply, total, view };
    this.render();
  }

  // -- drawing --------------------------------------------------------------------------

  render() {
    if (!this.game) return;
    const game = this.game;
    if (game.state === "open" || game.state === "cancelled") {
      this.board = null;
      this.root.replaceChildren(this.waiting(game));
      return;
    }
    if (!this.board || !this.root.contains(this.boardBox)) {
      this.boardBox = h("div", { class: "board-box", id: "board" });
      const Board = boardFor(game.view.board.kind);
      this.board = new Board(this.boardBox, { onMove: (text) => this.play(text) });
      // A right-click takes back a premove, as on lichess; a sideways swipe steps a move.
      this.boardBox.addEventListener("contextmenu", (e) => this.cancelQueued() && e.preventDefault());
      this.boardBox.addEventListener("pointerdown", (e) => (this.swipeFrom = e.isPrimary ? [e.clientX, e.clientY] : null));
      this.boardBox.addEventListener("pointerup", (e) => {
        if (!this.swipeFrom || !this.game) return;
        const total = this.game.moves.length;
        const ply = plyAfterSwipe(e.clientX - this.swipeFrom[0], e.clientY - this.swipeFrom[1], this.browsing?.ply ?? total, total);
        this.swipeFrom = null;
        if (ply !== null) this.showPly(ply);
      });
      this.sidePanel = h("section", { class: "panel", id: "side-panel", "aria-label": t("the game") });
      // Your own seat below the board, your opponent's above (X below for spectators), as
      // lichess: the clocks stay beside the board on a desktop and above and below it on a phone.
      this.topSeat = h("div", { class: "seat-box seat-top" });
      this.bottomSeat = h("div", { class: "seat-box seat-bottom" });
      this.page = h("section", { class: "page live" }, this.topSeat, h("div", { class: "board-wrap" }, this.boardBox), this.bottomSeat, this.sidePanel, this.chat.el);
      this.root.replaceChildren(this.page);
    }
    const interactive = game.state === "playing" && this.side !== null && game.view.turn === this.side && game.view.status === "ongoing";
    const browsing = this.browsing;
    const premoving = !browsing && canPremove(game, this.side);
    if (!premoving) this.premove.cancel();
    const shown = browsing ? browsing.view : game.state === "playing" ? game.view : ended(game.view);
    this.board.render(shown, { interactive: !browsing && (interactive || premoving), hint: null });
    this.boardBox.classList.toggle("premoving", premoving);
    this.boardBox.classList.toggle("browsing", Boolean(browsing));
    this.page.classList.toggle("playing", game.state === "playing");
    for (const [text, kind] of [[this.premove.move, "premove"], [this.pending, "pending"]]) {
      const cell = text === null ? null : this.boardBox.querySelector(`[data-move="${CSS.escape(text)}"]`);
      if (cell) cell.classList.add(kind);
    }
    const bottom = this.side ?? "x";
    this.topSeat.replaceChildren(this.seat(game, bottom === "x" ? "o" : "x"));
    this.bottomSeat.replaceChildren(this.seat(game, bottom));
    if (game.state !== "playing") this.confirming = null;
    // The panel is drawn anew: the focus stays on the same action (a keyboard's place).
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focused = this.sidePanel.contains(active) ? active.dataset.action : null;
    this.sidePanel.replaceChildren(...this.panel(game, interactive).filter(Boolean));
    if (focused) this.sidePanel.querySelector(`[data-action="${focused}"]`)?.focus();
    this.showSpectators();
    // Who took a seat after the socket opened writes in the players' channel from then on.
    if (this.side) this.chat.channel = "players";
    this.chat.refresh();
    this.tick();
  }

  showSpectators() {
    const el = this.sidePanel?.querySelector("#spectators");
    if (el) el.textContent = this.spectators ? tn("{n} spectator", "{n} spectators", this.spectators) : "";
  }

  waiting(game) {
    const mine = this.me && game.creator === this.me.name;
    const link = `${location.origin}/#/game/${game.id}`;
    if (game.state === "cancelled") {
      return h("section", { class: "page waiting-room" }, h("h1", {}, t("This room was closed")), h("a", { class: "button", href: "#/lobby" }, t("Back to the lobby")));
    }
    const clock = game.clock?.days_per_move
      ? tn("correspondence, {n} day a move", "correspondence, {n} days a move", game.clock.days_per_move)
      : game.clock ? t("{clock} clock", { clock: `${game.clock.initial_ms / 60000}+${game.clock.increment_ms / 1000}` }) : t("no clock");
    const details = `${game.title} · ${game.rated ? t("rated") : t("casual")} · ${clock}`;
    if (mine) {
      const input = h("input", { type: "text", readonly: true, value: link, id: "invite-link", "aria-label": t("invite link"), onfocus: (e) => e.target.select() });
      const copy = async () => {
        try {
          await navigator.clipboard.writeText(link);
          this.context.toast(t("Link copied"));
        } catch {
          input.select();
        }
      };
      return h(
        "section",
        { class: "page waiting-room", id: "waiting" },
        h("h1", {}, t("Waiting for an opponent…")),
        h("div", { class: "spinner", "aria-hidden": "true" }),
        h("p", {}, details, game.private ? ` · ${t("private")}` : ""),
        h("p", {}, t("Send this link to a friend, or wait for someone from the lobby:")),
        h("div", { class: "invite" }, input, h("button", { class: "button", type: "button", onclick: copy }, t("Copy"))),
        h("button", { class: "button subtle", type: "button", onclick: async () => { await online.close(game.id); this.context.navigate("#/lobby"); } }, t("Close the room")),
      );
    }
    const join = async () => {
      try {
        const wasVisitor = !this.me;
        if (wasVisitor) {
          await online.guest();
          await this.context.refreshAccount();
        }
        this.apply(await online.join(game.id));
        if (wasVisitor) this.reconnect();
      } catch (e) {
        this.context.toast(e.message, "error");
      }
    };
    const side = game.creator_side === "random" ? t("sides are drawn at random") : t("{player} plays {side}", { player: game.creator, side: game.creator_side.toUpperCase() });
    const next = encodeURIComponent(`/game/${game.id}`);
    return h(
      "section",
      { class: "page waiting-room", id: "invitation" },
      h("h1", {}, t("{player} invites you to play", { player: game.creator })),
      h("p", {}, details, " · ", side),
      this.me
        ? h("button", { class: "button primary", type: "button", id: "join", onclick: join }, t("Join as {player}", { player: this.me.name }))
        : h("div", { class: "row" }, h("a", { class: "button primary", href: `#/login?next=${next}` }, t("Log in to join")), " ", h("a", { class: "button", href: `#/signup?next=${next}` }, t("Sign up")), " ", h("button", { class: "button", type: "button", id: "join", onclick: join }, game.rated ? t("Join as a guest (casual only)") : t("Join as a guest"))),
    );
  }

  seat(game, mark) {
    const player = game[mark];
    const toMove = game.state === "playing" && game.view.turn === mark;
    const away = game.state === "playing" && game.away?.[mark];
    const change = player?.rating_after != null ? player.rating_after - player.rating_before : null;
    // After a rated game its new rating and the change; before, the rating as it stands (a guest has none).
    const rating = change !== null
      ? h("small", { class: "muted rating" }, ` ${player.rating_after} (${change >= 0 ? "+" : ""}${change})`)
      : player?.rating ? h("small", { class: "muted rating", title: player.rating.provisional ? PROVISIONAL() : null }, ` ${player.rating.rating}${player.rating.provisional ? "?" : ""}`) : null;
    return h(
      "div",
      { class: ["seat", `seat-${mark}`, toMove && "to-move"], id: `seat-${mark}` },
      h("span", {}, markSvg(mark, "seat-mark"), " ", botMark(h, player?.bot), player ? h("a", { class: "name", href: `#/u/${encodeURIComponent(player.name)}` }, player.name) : "?",
        rating,
        away ? h("span", { class: "away" }, ` · ${t("away")}`) : null),
      game.clock ? h("span", { class: "clock", "data-clock": mark }, clockText(game.clock[`${mark}_ms`])) : null,
    );
  }

  panel(game, interactive) {
    const side = this.side;
    const them = side === "x" ? "o" : "x";
    const out = [
      h("h1", { class: "game-title" }, `${game.x?.name ?? "?"} – ${game.o?.name ?? "?"}`, h("small", {}, `${game.title} · ${game.rated ? t("rated") : t("casual")}`)),
      h("p", { class: "muted spectators", id: "spectators", "aria-live": "polite" }),
    ];
    const status = h("p", { class: "status", id: "status", "data-turn": game.state === "playing" ? game.view.turn : null, "aria-live": "polite" });
    if (game.state === "playing") {
      const mover = game[game.view.turn]?.name;
      status.textContent = interactive ? t("Your move") : side ? t("{player} to move", { player: mover }) : t("{player} to move · you are watching", { player: mover });
      if (this.premove.move) status.textContent += ` · ${t("premove {move} (Esc cancels)", { move: this.premove.move })}`;
    } else {
      status.textContent = "";
    }
    out.push(status);
    if (game.state !== "playing") {
      out.push(h("div", { class: "game-over", id: "result", role: "status" }, h("strong", {}, resultText(game)), h("small", { class: "muted" }, tn("{n} move", "{n} moves", game.ply))));
      // The tournament pairs its players again from its page: the way there comes first.
      out.push(this.tournamentLink(game, "primary"));
    }
    const button = (label, type, attrs = {}) => h("button", { class: "button", type: "button", "data-action": type, onclick: () => this.send({ type }), ...attrs }, label);
    if (side && game.state === "playing") {
      const offers = [["draw", t("{player} offers a draw"), t("You offered a draw.")], ["takeback", t("{player} asks to take back their move"), t("You asked to take back your move.")]];
      for (const [kind, asks, asked] of offers) {
        if (game.offers[kind] === them) out.push(h("div", { class: "offer", id: `offer-${kind}` }, asks.replace("{player}", game[them].name), button(t("Accept"), `${kind}-accept`), button(t("Decline"), `${kind}-decline`)));
        else if (game.offers[kind] === side) out.push(h("p", { class: "muted" }, asked));
      }
      if (this.pending) {
        out.push(h("div", { class: "confirm move-confirm", role: "group", "aria-labelledby": "move-question", id: "move-confirm" },
          h("span", { id: "move-question" }, t("Play {move}?", { move: this.pending })),
          h("button", { class: "button primary", type: "button", "data-action": "move-confirm", onclick: () => { const move = this.pending; this.pending = null; this.sendMove(move); } }, t("Confirm move")),
          h("button", { class: "button", type: "button", "data-action": "move-cancel", onclick: () => this.cancelQueued() }, t("Cancel"))));
      }
      const actions = [this.confirmed(t("Resign"), "resign"), this.confirmed(t("Offer draw"), "draw-offer"), button(t("Take back"), "takeback-request")];
      if (game.ply < 2) actions.push(button(t("Abort"), "abort"));
      if (game.away?.[them]) actions.push(button(t("Claim the game"), "claim"));
      out.push(h("div", { class: "actions" }, ...actions));
    }
    if (side && (game.state === "over" || game.state === "aborted")) {
      if (game.rematch_id) out.push(h("a", { class: "button primary", href: `#/game/${game.rematch_id}` }, t("Go to the rematch")));
      else if (game.offers.rematch === them) out.push(h("div", { class: "offer", id: "offer-rematch" }, t("{player} offers a rematch", { player: game[them].name }), button(t("Accept"), "rematch-accept"), button(t("Decline"), "rematch-decline")));
      else if (game.offers.rematch === side) out.push(h("p", { class: "muted" }, t("Rematch offered…")));
      else out.push(button(t("Rematch (colours swap)"), "rematch-offer", { class: "button primary" }));
    }
    out.push(h("h2", {}, t("Moves")), this.moveList(game));
    if (game.state !== "playing") {
      out.push(
        game.state === "over" ? this.analysisPanel(game) : null,
        h("p", {}, h("a", { href: `#/replay/${game.id}` }, t("Replay"))),
        downloads(game.id),
      );
    }
    out.push(h("p", { class: ["connection", !this.connected && "down"], id: "connection" }, this.connected ? t("connected") : t("reconnecting…")), h("a", { class: "button subtle", href: "#/lobby" }, t("Lobby")));
    if (game.state === "playing") out.push(this.tournamentLink(game, "subtle"));
    return out;
  }

  /** The moves, each a button that shows its position (the one shown marked), and while
   * an earlier one is shown, the way back to the live position. */
  moveList(game) {
    const shown = this.browsing?.ply ?? game.moves.length;
    const list = h("ol", { class: "move-list", id: "moves" }, ...game.moves.map((m, i) => h("li", { class: i % 2 ? "ply-o" : "ply-x" },
      h("button", { type: "button", class: ["move", i + 1 === shown && "current"], "data-ply": i + 1, "aria-current": i + 1 === shown ? "step" : null, onclick: () => this.showPly(i + 1) },
        h("span", { class: "num" }, `${i + 1}. `), m))));
    if (!this.browsing) return list;
    return h("div", { class: "browsing-moves" }, list,
      h("p", { class: "browsing-note", id: "browsing" }, shown ? t("Move {n} of {total}", { n: shown, total: game.moves.length }) : t("The start"),
        h("button", { class: "button primary", type: "button", "data-action": "live", onclick: () => this.showPly(game.moves.length) }, t("Back to the game"))));
  }

  /** The way back to the game's tournament (none for a game of its own). */
  tournamentLink(game, kind) {
    if (!game.tournament_id) return null;
    return h("a", { class: ["button", kind], id: "tournament-link", href: `#/tournament/${encodeURIComponent(game.tournament_id)}` }, t("Back to the tournament"));
  }

  /** An action asked once more before it is sent (as lichess's resign and draw): the
   * button, or while asked, its question with confirm (✓) and cancel (✗). */
  confirmed(label, type) {
    if (this.confirming !== type) {
      return h("button", { class: "button", type: "button", "data-action": type, onclick: (e) => this.ask(type, e.detail === 0) }, label);
    }
    const { question, yes, no } = CONFIRMED()[type];
    return h(
      "div",
      { class: "confirm", role: "group", "aria-labelledby": `${type}-question`, onkeydown: (e) => e.key === "Escape" && this.unask() },
      h("span", { id: `${type}-question` }, question),
      h("button", { class: "button primary", type: "button", "data-action": `${type}-confirm`, "aria-label": yes, title: yes, onclick: () => { this.unask(); this.send({ type }); } }, "✓"),
      h("button", { class: "button", type: "button", "data-action": `${type}-cancel`, "aria-label": no, title: no, onclick: () => this.unask() }, "✗"),
    );
  }

  /** Asks before `type` is sent: the focus goes to the confirm button. From a mouse the
   * question goes back by itself after CONFIRM_WAIT; from the keyboard it waits (a
   * screen reader's user may need longer than that to hear it), for ✗ or Escape. */
  ask(type, byKeyboard) {
    clearTimeout(this.confirmTimer);
    this.confirming = type;
    if (!byKeyboard) this.confirmTimer = setTimeout(() => this.unask(), CONFIRM_WAIT);
    this.render();
    this.sidePanel.querySelector(`[data-action="${type}-confirm"]`)?.focus();
  }

  /** The question goes back to its button, which has the focus if the question had it. */
  unask() {
    const type = this.confirming;
    clearTimeout(this.confirmTimer);
    if (!type || this.destroyed) return;
    const hadFocus = this.sidePanel.querySelector(".confirm")?.contains(document.activeElement);
    this.confirming = null;
    this.render();
    if (hadFocus) this.sidePanel.querySelector(`[data-action="${type}"]`)?.focus();
  }

  /** A finished game's stored analysis (its accuracies and a link), its progress while
   * it is computed (from the game's end), or the button that asks for it. */
  analysisPanel(game) {
    if (this.analysis === undefined) {
      this.analysis = null;
      this.followAnalysis(game.id);
    }
    const link = h("a", { class: "button subtle", href: analysisLink(game.id, game.spec) }, t("Analysis board"));
    if (!this.analysis && this.analysisProgress) {
      const { done, total } = this.analysisProgress;
      return h(
        "div",
        { class: "analysis", id: "analysis-progress" },
        h("p", {}, h("strong", {}, t("Computer analysis: ")), t("computing, {done} of {total} positions done…", { done, total })),
        link,
      );
    }
    if (!this.analysis) return h("div", { class: "actions analysis" }, analysisButton(h, game, this.context.toast), link);
    const accuracy = (side) => (this.analysis.accuracy[side] === null ? "–" : `${Math.round(this.analysis.accuracy[side])}%`);
    return h(
      "div",
      { class: "analysis", id: "stored-analysis" },
      h("p", {}, h("strong", {}, t("Computer analysis: ")), t("accuracy X {x}, O {o}", { x: accuracy("x"), o: accuracy("o") })),
      h("a", { class: "button", href: analysisLink(game.id, game.spec) }, t("Open the analysis")),
    );
  }

  /** Asks for the game's analysis until it is there (every ANALYSIS_POLL ms while it
   * is computed), drawing its progress; on an error the button stays. */
  async followAnalysis(id) {
    while (!this.destroyed) {
      let answer;
      try {
        answer = await online.analysis(id);
      } catch {
        return;
      }
      if (this.destroyed || this.game?.id !== id) return;
      const before = this.analysisProgress?.done;
      this.analysis = answer.review;
      this.analysisProgress = answer.progress;
      if (answer.review || before !== answer.progress?.done) this.render();
      if (!answer.progress) return;
      await new Promise((resolve) => setTimeout(resolve, ANALYSIS_POLL));
    }
  }

  tick() {
    const clock = this.game?.clock;
    if (!clock || !this.page) return;
    for (const mark of ["x", "o"]) {
      const el = this.page.querySelector(`[data-clock="${mark}"]`);
      if (!el) continue;
      const running = clock.running === mark && this.game.state === "playing";
      const left = clock[`${mark}_ms`] - (running ? Date.now() - this.receivedAt : 0);
      el.textContent = clockText(left);
      el.classList.toggle("running", running);
      const low = running && left < 10_000;
      // Once as the player's own clock passes ten seconds.
      if (low && !el.classList.contains("low") && mark === this.side) effect("error");
      el.classList.toggle("low", low);
    }
  }
}
