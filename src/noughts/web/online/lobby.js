// The lobby: create a room, the open rooms (live over the lobby socket), games to watch.

import { h } from "/static/js/dom.js";
import { online, socketUrl } from "./api.js";

export function roomLine(room) {
  const clock = room.clock ? `${room.clock.minutes}+${room.clock.increment}` : "no clock";
  return `${room.title} · ${room.rated ? "rated" : "casual"} · ${clock}`;
}

export class LobbyPage {
  constructor(root, context) {
    this.root = root;
    this.context = context;
    this.closed = false;
    this.rooms = h("ul", { class: "room-list", id: "rooms", "aria-live": "polite" });
    this.live = h("ul", { class: "room-list", id: "live-games" });
    this.render();
    this.connect();
    this.loadLive();
  }

  destroy() {
    this.closed = true;
    this.socket?.close();
  }

  connect() {
    this.socket = new WebSocket(socketUrl("/api/online/lobby/ws"));
    this.socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "lobby") this.showRooms(message.rooms);
    };
    this.socket.onclose = () => {
      if (!this.closed) setTimeout(() => this.connect(), 1500);
    };
  }

  async loadLive() {
    const { live } = await online.rooms();
    this.live.replaceChildren(
      ...(live.length
        ? live.map((g) => h("li", { class: "room" }, h("span", { class: "what" }, h("strong", {}, `${g.x} – ${g.o}`), h("small", {}, roomLine(g))), h("a", { class: "button", href: `#/game/${g.id}` }, "Watch")))
        : [h("li", { class: "muted" }, "No game is being played right now.")]),
    );
  }

  showRooms(rooms) {
    const me = this.context.session.user;
    this.rooms.replaceChildren(
      ...(rooms.length
        ? rooms.map((room) => {
            const mine = me && room.creator === me.name;
            const side = room.creator_side === "random" ? "random sides" : `${room.creator} plays ${room.creator_side.toUpperCase()}`;
            return h(
              "li",
              { class: "room", "data-room": room.id },
              h("span", { class: "what" }, h("strong", {}, room.creator), h("small", {}, `${roomLine(room)} · ${side}`)),
              mine
                ? h("a", { class: "button", href: `#/game/${room.id}` }, "Your room")
                : h("button", { class: "button primary", type: "button", onclick: () => this.join(room.id) }, "Join"),
            );
          })
        : [h("li", { class: "muted", id: "no-rooms" }, "No open room: create one!")]),
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
        h("div", {}, h("h1", {}, "Play online"), h("h2", {}, "Open rooms"), this.rooms, h("h2", {}, "Being played"), this.live),
        user ? this.createForm(user) : this.welcome(),
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
      "aside",
      { class: "panel" },
      h("h2", {}, "Who are you?"),
      h("p", {}, "Log in or sign up to play rated games and appear on the leaderboard; guests play casual games."),
      h("div", { class: "row" }, h("a", { class: "button primary", href: "#/login" }, "Log in"), " ", h("a", { class: "button", href: "#/signup" }, "Sign up"), " ", h("button", { class: "button", type: "button", id: "guest", onclick: guest }, "Play as a guest")),
    );
  }

  createForm(user) {
    const games = this.context.session.catalogue.games;
    const game = h("select", { id: "room-game", name: "game" }, ...games.map((g) => h("option", { value: g.key }, g.title)));
    const forget = h("input", { type: "checkbox", id: "room-forget" });
    const forgetLabel = h("label", { class: "check" }, forget, "Forget mode");
    const showForget = () => (forgetLabel.hidden = !games.find((g) => g.key === game.value).options.some((o) => o.name === "forget"));
    game.addEventListener("change", showForget);
    showForget();
    const rated = h("input", { type: "checkbox", id: "room-rated", disabled: user.guest || null });
    const side = h("select", { id: "room-side" }, h("option", { value: "x" }, "X (moves first)"), h("option", { value: "o" }, "O"), h("option", { value: "random" }, "random"));
    const clock = h("input", { type: "checkbox", id: "room-clock" });
    const minutes = h("input", { type: "number", id: "room-minutes", min: 0.5, max: 180, step: 0.5, value: 5 });
    const increment = h("input", { type: "number", id: "room-increment", min: 0, max: 180, step: 1, value: 3 });
    // The clock's settings show only when there is a clock.
    const clockFields = h("div", { class: "row", id: "room-clock-fields" }, h("label", {}, "minutes each", minutes), h("label", {}, "+ seconds a move", increment));
    const showClock = () => (clockFields.hidden = !clock.checked);
    clock.addEventListener("change", showClock);
    showClock();
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
          minutes: clock.checked ? Number(minutes.value) : null,
          increment: clock.checked ? Number(increment.value) : 0,
        });
        this.context.navigate(`#/game/${answer.game.id}`);
      } catch (e) {
        error.textContent = e.message;
      }
    };
    return h(
      "form",
      { class: "panel form", id: "create-room", onsubmit: create },
      h("h2", {}, "Create a room"),
      h("label", {}, "Game", game),
      forgetLabel,
      h("label", {}, "Your side", side),
      h("label", { class: "check" }, rated, user.guest ? "Rated (sign up to play rated games)" : "Rated"),
      h("label", { class: "check" }, clock, "Clock"),
      clockFields,
      h("label", { class: "check" }, priv, "Private: only by invite link"),
      error,
      h("button", { class: "button primary", type: "submit", id: "create" }, "Create the room"),
    );
  }
}
