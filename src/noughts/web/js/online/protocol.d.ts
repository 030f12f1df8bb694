// The websocket protocol's frames, written by tools/socket_types/build.py from
// the JSON Schema the server publishes (/api/online/socket-schema.json): not by hand.

/** One of a player's actions on the game besides a move. */
export interface Action {
  id?: number | string | null;
  type: "resign" | "abort" | "draw-offer" | "draw-accept" | "draw-decline" | "takeback-request" | "takeback-accept" | "takeback-decline" | "rematch-offer" | "rematch-accept" | "rematch-decline" | "claim" | "flag";
}

/** Hide (show again) a player's lines, everywhere. */
export interface ChatMute {
  id?: number | string | null;
  type: "chat-mute" | "chat-unmute";
  user: string;
}

/** Report a chat line (its id) to the moderators. */
export interface ChatReport {
  id?: number | string | null;
  type: "chat-report";
  line: number;
  reason?: string | null;
}

/** A line in the game's chat (accounts, not guests): in the players' channel for a player, the spectators' for anybody else. */
export interface ChatSay {
  id?: number | string | null;
  type: "chat";
  text: string;
}

/** Play a move. `ply`: the plies the client saw played (a move for an older position is refused with `stale-ply` and the state sent again). */
export interface Move {
  id?: number | string | null;
  type: "move";
  move: string;
  ply?: number | null;
  spent?: number | null;
  lag?: number | null;
}

export interface Ping {
  id?: number | string | null;
  type: "ping";
}

/** The whole state again (a client that saw a version skipped). */
export interface Resync {
  id?: number | string | null;
  type: "resync";
}

/** The sender's change is committed (its event follows). */
export interface Ack {
  type: "ack";
  id: number | string | null;
  kind: string;
  version: number;
  ply: number;
}

/** On a player's own socket: a challenge to them or from them is new, or was answered (accepted: both go to `challenge.game`). */
export interface ChallengeNews {
  type: "challenge";
  challenge: ChallengeView;
}

/** A challenge between two players, as both see it. `state`: pending, accepted (then `game` is its game), declined (with `reason`), cancelled or expired; `expires_at` (ms since the epoch) is when a pending one expires. */
export interface ChallengeView {
  id: string;
  by: string;
  to: string;
  spec: string;
  title: string;
  rated: boolean;
  side: "x" | "o" | "random";
  minutes: number | null;
  increment: number | null;
  days: number | null;
  state: "pending" | "accepted" | "declined" | "cancelled" | "expired";
  reason: string | null;
  reason_text: string | null;
  game: string | null;
  expires_at: number;
}

/** After the state: the newest lines the viewer may read, whom they mute, the channel they write in. */
export interface ChatBacklog {
  type: "chat-backlog";
  lines: ChatLine[];
  muted: string[];
  channel: "players" | "spectators" | null;
}

export interface ChatLine {
  id: number;
  user: string;
  channel: "players" | "spectators";
  text: string;
  at: number;
}

/** A new chat line the viewer may read. */
export interface ChatLineFrame {
  type: "chat";
  line: ChatLine;
}

export interface ChatMuted {
  type: "chat-muted";
  muted: string[];
  id: number | string | null;
}

export interface ChatReported {
  type: "chat-reported";
  line: number;
  id: number | string | null;
}

/** Nothing was changed: `error` a stable word, `message` for the player. */
export interface ErrorFrame {
  type: "error";
  error: string;
  message: string;
  id: number | string | null;
}

/** A change of the game, to everybody on its socket. A move that does not end the game carries `patch` (what it changed, for the state of version - 1: "move" goes at the end of "moves" and of the view's "moves", "ply" is also the view's); any other change carries the whole `game`. `deadline`: when the clock of the side to move runs out (ms since the epoch), for every process's clock watch. */
export interface Event {
  type: "event";
  deadline: number | null;
  kind: string;
  by: string | null;
  move: string | null;
  version: number;
  ply: number;
  patch: Record<string, any> | null;
  game: Record<string, any> | null;
}

/** First, once, on a game's socket. `you`: null for spectators and for a room's creator until the opponent joins (the state's "x" and "o" tell the sides then). */
export interface Hello {
  type: "hello";
  you: "x" | "o" | null;
  user: string | null;
}

/** First on a player's own socket: the challenges waiting for an answer (to them and from them) and how many notifications are unread. */
export interface Inbox {
  type: "inbox";
  incoming: ChallengeView[];
  outgoing: ChallengeView[];
  unread: number;
}

/** The open rooms, whole, on the lobby's socket: on opening and when they change. */
export interface Lobby {
  type: "lobby";
  rooms: Record<string, any>[];
}

/** On a player's own socket: a new notification, and how many are unread now. */
export interface NotificationFrame {
  type: "notification";
  notification: NotificationView;
  unread: number;
}

/** One notification of the header's bell. `kind`: challenge, your-move, tournament-start or rematch; what it points at in `game`, `challenge`, `tournament`. */
export interface NotificationView {
  id: number;
  kind: "challenge" | "your-move" | "tournament-start" | "rematch";
  actor: string | null;
  game: string | null;
  challenge: string | null;
  tournament: string | null;
  text: string;
  read: boolean;
  at: number;
}

export interface Pong {
  type: "pong";
  id: number | string | null;
}

/** Who is away (since when, ms), after a player's socket opened or closed. */
export interface Presence {
  type: "presence";
  version: number;
  ply: number;
  away: Partial<Record<"x" | "o", number | null>>;
}

/** How many watch the game (on this process): on opening and when it changes. */
export interface Spectators {
  type: "spectators";
  count: number;
}

/** The whole public state of the game (on opening, on resync, after a stale ply). */
export interface StateFrame {
  type: "state";
  game: Record<string, any>;
}

/** The tournament changed (a pairing, a game over, a join, its start or end): its page asks for it again; a player named in `paired` has a new game. */
export interface TournamentNews {
  type: "tournament";
  id: string;
  paired: Record<string, string>;
}

/** Every frame a client sends. */
export type ClientFrame = Action | ChatMute | ChatReport | ChatSay | Move | Ping | Resync;

/** Every frame the server sends. */
export type ServerFrame = Ack | ChallengeNews | ChatBacklog | ChatLineFrame | ChatMuted | ChatReported | ErrorFrame | Event | Hello | Inbox | Lobby | NotificationFrame | Pong | Presence | Spectators | StateFrame | TournamentNews;

/** A client frame as the page hands it to its socket, which adds the id. */
export type Outgoing = ClientFrame extends infer F ? (F extends unknown ? Omit<F, "id"> : never) : never;
