// A game's chat beside its board: the players' channel for the two players, the
// spectators' for everyone else (the players read it too once the game is over), as
// lichess keeps them apart. Lines come and go on the game's socket; the server decides
// who reads what, whom you mute, and refuses guests' lines.

import { h } from "../dom.js";
import { t } from "../i18n.js";

const LENGTH = 140;

export class ChatPanel {
  /** `send` puts a message on the game's socket; `me()` is the signed-in user or null. */
  constructor({ send, toast, me }) {
    this.send = send;
    this.toast = toast;
    this.me = me;
    this.channel = null;
    this.mutedNames = [];
    this.title = h("h2", { id: "chat-title" }, t("Chat"));
    this.lines = h("ol", { class: "chat-lines", id: "chat-lines" });
    this.mutedBox = h("p", { class: "chat-muted muted", id: "chat-muted" });
    this.input = h("input", { type: "text", id: "chat-input", maxlength: LENGTH, autocomplete: "off", placeholder: t("Say something nice"), "aria-label": t("chat message") });
    this.form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (e) => this.submit(e) }, this.input, h("button", { class: "button", type: "submit" }, t("Send")));
    this.note = h("p", { class: "muted chat-note", id: "chat-note" });
    this.el = h("section", { class: "chat-panel", id: "chat", "aria-labelledby": "chat-title" }, this.title, h("div", { class: "chat-log", role: "log", "aria-live": "polite", "aria-labelledby": "chat-title" }, this.lines), this.mutedBox, this.form, this.note);
    this.refresh();
  }

  submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    this.send({ type: "chat", text });
    this.input.value = "";
  }

  /** What the socket sends on opening: the lines you may read, whom you mute, your channel. */
  backlog({ lines, muted, channel }) {
    this.channel = channel;
    this.mutedNames = muted;
    this.lines.replaceChildren(...lines.map((line) => this.line(line)));
    this.refresh();
    this.scroll();
  }

  add(line) {
    this.lines.append(this.line(line));
    this.scroll();
  }

  muted(names) {
    this.mutedNames = names;
    for (const li of [...this.lines.children]) if (names.includes(li.dataset.user)) li.remove();
    this.refresh();
  }

  scroll() {
    this.lines.scrollTop = this.lines.scrollHeight;
  }

  line(line) {
    const me = this.me();
    const mine = me && me.name === line.user;
    const other = line.channel !== this.channel;
    return h("li", { class: ["chat-line", other && "chat-other"], "data-line": line.id, "data-user": line.user },
      h("a", { class: "chat-name", href: `#/u/${encodeURIComponent(line.user)}` }, line.user),
      other ? h("small", { class: "muted" }, line.channel === "players" ? t(" (player)") : t(" (spectator)")) : null,
      " ", h("span", { class: "chat-text" }, line.text),
      me && !mine ? h("span", { class: "chat-acts" },
        h("button", { class: "chat-act", type: "button", "aria-label": t("mute {player}", { player: line.user }), title: t("hide {player}'s messages", { player: line.user }), onclick: () => this.send({ type: "chat-mute", user: line.user }) }, t("mute")),
        h("button", { class: "chat-act", type: "button", "aria-label": t("report {player}'s message", { player: line.user }), title: t("report this message to the moderators"), onclick: () => this.send({ type: "chat-report", line: line.id, reason: "reported from the game page" }) }, t("report"))) : null);
  }

  /** The title, the muted list and whether you may write, as things stand. */
  refresh() {
    const me = this.me();
    this.title.textContent = this.channel === "players" ? t("Chat with your opponent") : t("Spectators' chat");
    this.mutedBox.replaceChildren(...(this.mutedNames.length
      ? [t("Muted: "), ...this.mutedNames.flatMap((name, i) => [i ? ", " : "", name, " ", h("button", { class: "chat-act", type: "button", "aria-label": t("unmute {player}", { player: name }), onclick: () => this.send({ type: "chat-unmute", user: name }) }, t("unmute"))])]
      : []));
    const writes = me && !me.guest;
    this.form.hidden = !writes;
    this.note.textContent = writes ? "" : me ? t("Guests read the chat: sign up to write in it.") : t("Log in to write in the chat.");
  }
}
