// Players between themselves, on every page of a signed-in player: the player's own
// socket (/api/online/me/ws), the bell in the header with its notifications, the card of
// a challenge coming in (accept, or decline with a reason) and of one waiting for an
// answer; the challenge dialog; the profile's Follow, Challenge and Block buttons; the
// lobby's players online and those you follow.

import { listen, online } from "../api.js";
import { h } from "../dom.js";
import { currentLanguage, t, tl, tn } from "../i18n.js";
import { specWith } from "../spec.js";

/** The page's own socket and what it knows: the challenges waiting, the unread count. */
const state = {
  socket: null,
  user: null,
  context: null,
  incoming: new Map(),
  outgoing: new Map(),
  unread: 0,
  reasons: [],
  timers: new Map(),
  /** The cards folded by "Later", and those opened on a game's page. */
  folded: new Set(),
  opened: new Set(),
};

/** Opens (or, signed out, closes) the player's own socket and draws the bell. */
export function startSocial(user, context) {
  const same = state.user && user && state.user.name === user.name;
  state.context = context;
  if (same) return;
  state.socket?.close();
  state.socket = null;
  state.user = user;
  state.incoming.clear();
  state.outgoing.clear();
  for (const timer of state.timers.values()) clearTimeout(timer);
  state.timers.clear();
  document.getElementById("bell-box")?.remove();
  document.getElementById("challenge-cards")?.remove();
  if (!user) return;
  document.getElementById("account").before(bellBox());
  document.body.append(h("section", { id: "challenge-cards", class: "challenge-cards", "aria-label": t("Challenges"), "aria-live": "polite" }));
  state.socket = listen("/api/online/me/ws", onFrame, () => state.user === user);
}

window.addEventListener("hashchange", () => state.user && drawCards());

/** @param {import("./protocol").ServerFrame} message */
function onFrame(message) {
  if (message.type === "inbox") {
    state.incoming = new Map(message.incoming.map((c) => [c.id, c]));
    state.outgoing = new Map(message.outgoing.map((c) => [c.id, c]));
    showUnread(message.unread);
    drawCards();
  } else if (message.type === "challenge") {
    challengeNews(message.challenge);
  } else if (message.type === "notification") {
    showUnread(message.unread);
    if (bellOpen()) loadBell();
  }
}

function challengeNews(challenge) {
  const mine = challenge.by === state.user.name;
  const list = mine ? state.outgoing : state.incoming;
  if (challenge.state === "pending") list.set(challenge.id, challenge);
  else list.delete(challenge.id);
  if (challenge.state === "accepted" && challenge.game) state.context.navigate(`#/game/${challenge.game}`);
  else if (challenge.state === "declined" && mine) state.context.toast(t("{player} declined: {reason}", { player: challenge.to, reason: challenge.reason_text }), "error");
  else if (challenge.state === "cancelled" && !mine) state.context.toast(t("{player} took the challenge back", { player: challenge.by }));
  drawCards();
}

// -- the bell -----------------------------------------------------------------------

function bellBox() {
  const count = h("span", { class: "bell-count", id: "bell-count", hidden: true });
  const button = h("button", { class: "tool icon-tool bell", id: "bell", type: "button", "aria-expanded": "false", "aria-controls": "bell-panel", "aria-label": t("Notifications"), title: t("Notifications"), onclick: () => toggleBell() },
    h("svg", { class: "tool-icon", viewBox: "0 0 24 24", "aria-hidden": "true" }, h("path", { d: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0" })),
    count);
  const panel = h("div", { class: "bell-panel", id: "bell-panel", hidden: true },
    h("div", { class: "bell-head" }, h("h2", {}, t("Notifications")), h("button", { class: "button", type: "button", id: "bell-read-all", onclick: () => markRead(null) }, t("Mark all read"))),
    h("ul", { class: "bell-list", id: "bell-list" }));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && bellOpen()) {
      toggleBell(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (bellOpen() && !(/** @type {Element} */ (event.target).closest("#bell-box"))) toggleBell(false);
  });
  window.addEventListener("hashchange", () => toggleBell(false));
  return h("span", { id: "bell-box", class: "bell-box" }, button, panel);
}

const bellOpen = () => document.getElementById("bell")?.getAttribute("aria-expanded") === "true";

function toggleBell(open = !bellOpen()) {
  const button = document.getElementById("bell");
  if (!button) return;
  button.setAttribute("aria-expanded", String(open));
  document.getElementById("bell-panel").hidden = !open;
  if (open) loadBell();
}

function showUnread(unread) {
  state.unread = unread;
  const count = document.getElementById("bell-count");
  const button = document.getElementById("bell");
  if (!count || !button) return;
  count.textContent = unread > 99 ? "99+" : String(unread);
  count.hidden = unread === 0;
  button.setAttribute("aria-label", unread ? tn("Notifications: {n} unread", "Notifications: {n} unread", unread) : t("Notifications"));
}

const since = (at) => {
  const minutes = Math.round((Date.now() - at) / 60_000);
  if (minutes < 1) return t("just now");
  if (minutes < 60) return tn("{n} min ago", "{n} min ago", minutes);
  const hours = Math.round(minutes / 60);
  return hours < 24 ? tn("{n} h ago", "{n} h ago", hours) : new Date(at).toLocaleDateString(currentLanguage());
};

function target(n) {
  if (n.game) return `#/game/${n.game}`;
  if (n.tournament) return `#/tournament/${n.tournament}`;
  if (n.actor) return `#/u/${encodeURIComponent(n.actor)}`;
  return null;
}

async function loadBell() {
  const list = document.getElementById("bell-list");
  try {
    const { notifications, unread } = await online.notifications();
    showUnread(unread);
    list.replaceChildren(...(notifications.length
      ? notifications.map((n) => h("li", { class: ["bell-item", !n.read && "unread"], "data-notification": n.id },
          h("a", { href: target(n) || "#/lobby", onclick: () => !n.read && markRead([n.id]) },
            n.read ? null : h("span", { class: "sr-only" }, t("Unread:")), " ", n.text),
          h("small", {}, since(n.at))))
      : [h("li", { class: "muted bell-empty" }, t("Nothing yet: challenges, your moves and tournaments show here."))]));
  } catch (e) {
    list.replaceChildren(h("li", { class: "error" }, e.message));
  }
}

async function markRead(ids) {
  try {
    const { unread } = await online.markRead(ids);
    // The list says so at once, with the count (its fresh copy follows).
    for (const item of document.querySelectorAll("#bell-list .bell-item.unread")) {
      if (ids === null || ids.includes(Number(item.getAttribute("data-notification")))) {
        item.classList.remove("unread");
        item.querySelector(".sr-only")?.remove();
      }
    }
    showUnread(unread);
    if (bellOpen()) await loadBell();
  } catch (e) {
    state.context.toast(e.message, "error");
  }
}

// -- challenges coming in and going out ---------------------------------------------

function clockWords(c) {
  if (c.days) return tn("{n} day a move", "{n} days a move", c.days);
  if (c.minutes === null) return t("no clock");
  return `${c.minutes}+${c.increment ?? 0}`;
}

function challengeLine(c) {
  return `${c.title} · ${clockWords(c)} · ${c.rated ? t("rated") : t("casual")}`;
}

/** Your side in a challenge (the challenger's is written down). */
function sideOf(c, mine) {
  if (c.side === "random") return t("random sides");
  const theirs = c.side === "x" ? "O" : "X";
  return t("you play {side}", { side: mine ? c.side.toUpperCase() : theirs });
}

async function reasons() {
  if (!state.reasons.length) state.reasons = (await online.challenges()).reasons;
  return state.reasons;
}

/** On a game's page the cards fold into a line each (they would cover the game's
 * buttons on a phone), and anywhere "Later" folds one: a click opens it again. */
const onGamePage = () => location.hash.startsWith("#/game/");

function drawCards() {
  const box = document.getElementById("challenge-cards");
  if (!box) return;
  for (const c of [...state.incoming.values(), ...state.outgoing.values()]) expireAt(c);
  const shown = (c, card) => {
    const folded = state.folded.has(c.id) || (onGamePage() && !state.opened.has(c.id));
    if (!folded) return card(c);
    const label = c.by === state.user.name ? t("Waiting for {player}", { player: c.to }) : t("{player} challenges you", { player: c.by });
    return h("button", { class: "button challenge-pill", type: "button", "data-challenge": c.id, onclick: () => {
      state.folded.delete(c.id);
      state.opened.add(c.id);
      drawCards();
    } }, label);
  };
  box.replaceChildren(
    ...[...state.incoming.values()].map((c) => shown(c, incomingCard)),
    ...[...state.outgoing.values()].map((c) => shown(c, outgoingCard)),
  );
}

function fold(c) {
  state.folded.add(c.id);
  state.opened.delete(c.id);
  drawCards();
}

/** A challenge leaves the screen when it expires (the server refuses it from then on). */
function expireAt(c) {
  if (state.timers.has(c.id)) return;
  state.timers.set(c.id, setTimeout(() => {
    state.timers.delete(c.id);
    if (state.incoming.delete(c.id) || state.outgoing.delete(c.id)) drawCards();
  }, Math.max(0, c.expires_at - Date.now())));
}

function incomingCard(c) {
  const reason = h("select", { id: `decline-reason-${c.id}`, class: "decline-reason", "aria-label": t("Reason to decline") });
  reasons().then((list) => reason.replaceChildren(...list.map((r) => h("option", { value: r.key }, r.text)))).catch(() => {});
  const answer = async (verb) => {
    try {
      const { challenge } = verb === "accept" ? await online.acceptChallenge(c.id) : await online.declineChallenge(c.id, reason.value || "generic");
      challengeNews(challenge);
    } catch (e) {
      state.context.toast(e.message, "error");
      state.incoming.delete(c.id);
      drawCards();
    }
  };
  return h("article", { class: "challenge-card", "data-challenge": c.id, "aria-label": t("Challenge from {player}", { player: c.by }) },
    h("p", {}, ...tl("<a>{player}</a> challenges you", [(name) => h("strong", {}, h("a", { href: `#/u/${encodeURIComponent(c.by)}` }, name))], { player: c.by })),
    h("p", { class: "muted" }, `${challengeLine(c)} · ${sideOf(c, false)}`),
    h("div", { class: "challenge-actions" },
      h("button", { class: "button primary", type: "button", id: `accept-${c.id}`, onclick: () => answer("accept") }, t("Accept")),
      h("button", { class: "button", type: "button", id: `decline-${c.id}`, onclick: () => answer("decline") }, t("Decline")),
      h("button", { class: "button", type: "button", onclick: () => fold(c) }, t("Later"))),
    h("label", { class: "decline-label" }, t("Reason to decline"), reason));
}

function outgoingCard(c) {
  const cancel = async () => {
    try {
      challengeNews((await online.cancelChallenge(c.id)).challenge);
    } catch (e) {
      state.context.toast(e.message, "error");
    }
  };
  return h("article", { class: "challenge-card outgoing", "data-challenge": c.id, "aria-label": t("Your challenge to {player}", { player: c.to }) },
    h("p", {}, h("span", { class: "spinner", "aria-hidden": "true" }), ...tl("Waiting for <a>{player}</a> to answer", [(name) => h("strong", {}, name)], { player: c.to })),
    h("p", { class: "muted" }, `${challengeLine(c)} · ${sideOf(c, true)}`),
    h("div", { class: "challenge-actions" },
      h("button", { class: "button", type: "button", id: `cancel-${c.id}`, onclick: cancel }, t("Cancel")),
      h("button", { class: "button", type: "button", onclick: () => fold(c) }, t("Later"))));
}

// -- the challenge dialog -------------------------------------------------------------

/** The clocks offered, each named in the page's language when the dialog is drawn. */
const CLOCKS = () => [
  { value: "1+0", label: t("{clock} bullet", { clock: "1+0" }) },
  { value: "3+2", label: t("{clock} blitz", { clock: "3+2" }) },
  { value: "5+3", label: t("{clock} blitz", { clock: "5+3" }) },
  { value: "10+5", label: t("{clock} rapid", { clock: "10+5" }) },
  { value: "30+20", label: t("{clock} classical", { clock: "30+20" }) },
  { value: "d1", label: tn("{n} day a move", "{n} days a move", 1) },
  { value: "d3", label: tn("{n} day a move", "{n} days a move", 3) },
  { value: "d7", label: tn("{n} day a move", "{n} days a move", 7) },
  { value: "", label: t("No clock") },
];

/** The game's options as inputs: numbers, choices and switches; "keep" only with Forget mode. */
function optionInputs(game, values) {
  const numbers = h("div", { class: "challenge-numbers" });
  const others = [];
  let keep = null;
  for (const opt of game.options) {
    const id = `challenge-option-${opt.name}`;
    if (opt.type === "bool") {
      const input = h("input", { type: "checkbox", id, checked: values[opt.name] ?? opt.default });
      input.addEventListener("change", () => {
        values[opt.name] = input.checked;
        if (opt.name === "forget" && keep) keep.hidden = !input.checked;
      });
      others.push(h("label", { class: "check" }, input, opt.label));
    } else if (opt.type === "choice" && opt.choices) {
      others.push(h("label", {}, opt.label, h("select", { id, onchange: (e) => (values[opt.name] = e.target.value) }, ...opt.choices.map((c) => h("option", { value: c, selected: c === opt.default || null }, c)))));
    } else if (opt.type === "int") {
      const field = h("label", {}, opt.label, h("input", { type: "number", id, min: opt.minimum, max: opt.maximum, step: 1, value: values[opt.name] ?? opt.default, onchange: (e) => (values[opt.name] = Number(e.target.value)) }));
      if (opt.name === "keep") {
        keep = field;
        keep.hidden = !(values.forget ?? false);
        others.push(keep);
      } else numbers.append(field);
    }
  }
  return [numbers.childNodes.length ? numbers : null, ...others].filter(Boolean);
}

/** The dialog of a challenge to `name`: the game and its options, the clock, the side,
 * rated or casual. A bot's answer starts the game at once. */
export function openChallenge(name, context) {
  const user = context.session.user;
  const games = context.session.catalogue.games;
  document.getElementById("challenge-dialog")?.remove();
  const values = {};
  const game = h("select", { id: "challenge-game" }, ...games.map((g) => h("option", { value: g.key }, g.title)));
  const options = h("div", { class: "challenge-options", id: "challenge-options" });
  const showOptions = () => {
    for (const key of Object.keys(values)) delete values[key];
    options.replaceChildren(...optionInputs(games.find((g) => g.key === game.value), values));
  };
  game.addEventListener("change", showOptions);
  showOptions();
  const clock = h("select", { id: "challenge-clock" }, ...CLOCKS().map((c) => h("option", { value: c.value, selected: c.value === "5+3" || null }, c.label)));
  const side = h("select", { id: "challenge-side" }, h("option", { value: "random" }, t("random")), h("option", { value: "x" }, t("X (moves first)")), h("option", { value: "o" }, "O"));
  const rated = h("input", { type: "checkbox", id: "challenge-rated", disabled: user.guest || null });
  const error = h("p", { class: "field-error", role: "alert", id: "challenge-error" });
  const dialog = h("dialog", { id: "challenge-dialog", class: "challenge-dialog", "aria-labelledby": "challenge-title" });
  const send = async (event) => {
    event.preventDefault();
    error.textContent = "";
    const chosen = clock.value;
    const days = chosen.startsWith("d") ? Number(chosen.slice(1)) : null;
    const [minutes, increment] = chosen && !days ? chosen.split("+").map(Number) : [null, 0];
    try {
      const answer = await online.challengePlayer({ to: name, spec: specWith(games.find((g) => g.key === game.value), values), rated: rated.checked, side: side.value, minutes, increment, days });
      dialog.close();
      if (answer.game) context.navigate(`#/game/${answer.game}`);
      else {
        state.outgoing.set(answer.challenge.id, answer.challenge);
        // Its card says it waits for an answer: no toast over it.
        drawCards();
      }
    } catch (e) {
      error.textContent = e.message;
    }
  };
  dialog.append(h("form", { class: "form", method: "dialog", onsubmit: send },
    h("h2", { id: "challenge-title" }, t("Challenge {player}", { player: name })),
    h("label", {}, t("Game"), game),
    options,
    h("label", {}, t("Clock"), clock),
    h("label", {}, t("Your side"), side),
    h("label", { class: "check" }, rated, user.guest ? t("Rated (sign up to play rated games)") : t("Rated")),
    error,
    h("div", { class: "challenge-actions" },
      h("button", { class: "button primary", type: "submit", id: "challenge-send" }, t("Send the challenge")),
      h("button", { class: "button", type: "button", id: "challenge-close", onclick: () => dialog.close() }, t("Cancel")))));
  document.body.append(dialog);
  dialog.addEventListener("close", () => dialog.remove());
  dialog.showModal();
  return dialog;
}

// -- a profile's buttons -------------------------------------------------------------

/** Follow, Challenge and Block on the profile of `name` (another player). */
export function profileButtons(name, context) {
  const bar = h("div", { class: "profile-actions", id: "profile-actions" });
  const draw = ({ following, blocking }) => {
    const act = (call, done) => async () => {
      try {
        await call();
        draw(done);
      } catch (e) {
        context.toast(e.message, "error");
      }
    };
    bar.replaceChildren(
      blocking ? null : h("button", { class: "button primary", type: "button", id: "challenge-button", onclick: () => openChallenge(name, context) }, t("Challenge")),
      blocking ? null : h("button", { class: "button", type: "button", id: "follow-button", "aria-pressed": String(following), onclick: act(() => (following ? online.unfollow(name) : online.follow(name)), { following: !following, blocking }) }, following ? t("Following") : t("Follow")),
      h("button", { class: "button", type: "button", id: "block-button", "aria-pressed": String(blocking), onclick: act(() => (blocking ? online.unblock(name) : online.block(name)), { following: false, blocking: !blocking }) }, blocking ? t("Unblock") : t("Block")),
    );
  };
  online.relation(name).then(draw).catch((e) => context.toast(e.message, "error"));
  return bar;
}

// -- the lobby's people -----------------------------------------------------------------

/** The players online (each with Challenge) and those you follow, online or playing;
 * `refresh()` asks again. */
export function peoplePanel(context) {
  const onlineList = h("ul", { class: "room-list people", id: "players-online-list" });
  const followList = h("ul", { class: "room-list people", id: "following-list" });
  const me = context.session.user;
  const person = (p, extra) => h("li", { class: "room", "data-player": p.name },
    h("span", { class: "what" }, h("a", { href: `#/u/${encodeURIComponent(p.name)}` }, p.name), h("small", {}, extra)),
    p.playing ? h("a", { class: "button", href: `#/game/${p.playing}` }, t("Watch")) : null,
    me && p.name !== me.name ? h("button", { class: "button", type: "button", "data-challenge-player": p.name, onclick: () => openChallenge(p.name, context) }, t("Challenge")) : null);
  const refresh = async () => {
    const [{ players }, followed] = await Promise.all([online.playersOnline(), me ? online.following() : Promise.resolve({ players: [] })]);
    onlineList.replaceChildren(...(players.length ? players.map((p) => person(p, p.playing ? t("playing") : p.guest ? t("guest") : t("online"))) : [h("li", { class: "muted" }, t("Nobody else is online."))]));
    followList.replaceChildren(...(followed.players.length
      ? followed.players.map((p) => person(p, p.playing ? t("playing now") : p.online ? t("online") : t("offline")))
      : [h("li", { class: "muted" }, t("You follow nobody yet: follow players from their profile."))]));
  };
  refresh().catch(() => {});
  const element = h("div", { class: "people-panel" },
    h("h2", {}, t("Players online")), onlineList,
    me ? h("h2", {}, t("Following")) : null, me ? followList : null);
  return { element, refresh };
}
