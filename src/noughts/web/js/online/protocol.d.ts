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

/** The open rooms, whole, on the lobby's socket: on opening and when they change. */
export interface Lobby {
  type: "lobby";
  rooms: Record<string, any>[];
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
export type ServerFrame = Ack | ChatBacklog | ChatLineFrame | ChatMuted | ChatReported | ErrorFrame | Event | Hello | Lobby | Pong | Presence | Spectators | StateFrame | TournamentNews;

/** A client frame as the page hands it to its socket, which adds the id. */
export type Outgoing = ClientFrame extends infer F ? (F extends unknown ? Omit<F, "id"> : never) : never;
