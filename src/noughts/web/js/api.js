// The server's API, the one client every page uses. A game request carries the whole
// game (spec, start, moves): the server replays and validates it and keeps nothing.
// Online play's requests carry the session cookie. Errors carry the server's word,
// message and field, so that a form can put the message beside its field. Every request
// names the page's language, in which the server writes its messages.

import { currentLanguage, t } from "./i18n.js";

import { offlineView, playsOffline } from "./offline.js";

export class ApiError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.error = body?.error || null;
    this.field = body?.field || null;
  }
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { "Accept-Language": currentLanguage(), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(t("the server cannot be reached"), 0, null);
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(data?.message || t("the server answered {status}", { status: String(response.status) }), response.status, data);
  return data;
}

const get = (path) => call("GET", path);
const post = (path, body) => call("POST", path, body);
const game = (g) => ({ spec: g.spec, start: g.start ?? null, moves: g.moves });
const id = encodeURIComponent;

/** `ask()`, or when the server cannot be reached, tic-tac-toe's view from the page's
 * own rules (`offline.js`): a game on one screen goes on with the network down. */
async function orOffline(ask, spec, start, moves) {
  try {
    return await ask();
  } catch (e) {
    if (e.status !== 0 || !playsOffline(spec, start)) throw e;
    return offlineView(spec, moves);
  }
}

/** Games against the computer or on one screen, study and puzzles. */
export const api = {
  catalogue: () => get("/api/games"),
  newGame: (spec, moves = [], start = null) => orOffline(() => post("/api/new", { spec, start, moves }), spec, start, moves),
  position: (g) => orOffline(() => post("/api/position", game(g)), g.spec, g.start, g.moves),
  play: (g, move) => orOffline(() => post("/api/play", { ...game(g), move }), g.spec, g.start, [...g.moves, move]),
  computer: (g, level, time = null) => post("/api/computer", { ...game(g), level, time }),
  analysis: (g, level, time = null) => post("/api/analysis", { ...game(g), level, time }),
  // A review answers at once: the review, or its progress ({status: "computing", key,
  // done, total}) to ask again for by its key.
  review: (g, level, time) => post("/api/review", { ...game(g), level, time }),
  reviewByKey: (key) => get(`/api/review/${id(key)}`),
  attempt: (g, move, level, time) => post("/api/review-attempt", { ...game(g), move, level, time }),
  record: (text) => post("/api/record", { text }),
  // Puzzles: for everyone; the rating and history for players signed in online.
  // The games' counts, and the themes of `spec`'s puzzles (of every game's without it).
  puzzleCatalogue: (spec = "") => get(`/api/puzzles${spec ? `?spec=${id(spec)}` : ""}`),
  puzzle: (p) => get(`/api/puzzles/${id(p)}`),
  nextPuzzle: (filters) => get(`/api/puzzles/next?${query(filters)}`),
  dailyPuzzle: () => get("/api/puzzles/daily"),
  streakRun: (filters) => get(`/api/puzzles/streak?${query(filters)}`),
  checkPuzzle: (p, moves) => post(`/api/puzzles/${id(p)}/check`, { moves }),
  attemptPuzzle: (p, solved) => post(`/api/puzzles/${id(p)}/attempt`, { solved }),
  recordStreak: (score) => post("/api/puzzles/streak", { score }),
  puzzleProfile: () => get("/api/puzzles/me?limit=20"),
  yourPuzzles: () => get("/api/puzzles/yours"),
  puzzleDashboard: (days) => get(`/api/puzzles/dashboard?days=${days}`),
};

/** Online play: accounts, rooms, pairing, bots, tournaments, games and players. */
export const online = {
  me: () => get("/api/online/me"),
  signUp: (name, password) => post("/api/online/signup", { name, password }),
  logIn: (name, password) => post("/api/online/login", { name, password }),
  guest: () => post("/api/online/guest"),
  logOut: () => post("/api/online/logout"),
  setLanguage: (language) => call("PUT", "/api/online/me/language", { language }),
  createRoom: (room) => post("/api/online/rooms", room),
  // The open rooms and the games being played.
  rooms: () => get("/api/online/rooms"),
  // The signed-in player's games where it is their move (none for a visitor).
  turns: () => get("/api/online/me/turns"),
  // Quick pairing: join the pool, ask again (it pairs), leave.
  seek: (seek) => post("/api/online/pairing", seek),
  pairing: () => get("/api/online/pairing"),
  leavePool: () => call("DELETE", "/api/online/pairing"),
  // The house bots: their list (with ratings) and a challenge, which starts a game at once.
  bots: () => get("/api/online/bots"),
  challenge: (bot, g) => post(`/api/online/bots/${id(bot)}/challenge`, g),
  // Your own bot accounts, for your programs (noughts bot).
  ownBots: () => get("/api/online/me/bots"),
  newBot: (name) => post("/api/online/me/bots", { name }),
  newBotToken: (name) => post(`/api/online/me/bots/${id(name)}/token`),
  // Tournaments: list, create, show, join, withdraw, start early (the creator).
  tournaments: () => get("/api/online/tournaments"),
  createTournament: (t) => post("/api/online/tournaments", t),
  tournament: (t) => get(`/api/online/tournaments/${id(t)}`),
  tournamentMine: (t) => get(`/api/online/tournaments/${id(t)}/me`),
  joinTournament: (t) => post(`/api/online/tournaments/${id(t)}/join`),
  withdrawTournament: (t) => post(`/api/online/tournaments/${id(t)}/withdraw`),
  startTournament: (t) => post(`/api/online/tournaments/${id(t)}/start`),
  game: (g) => get(`/api/online/games/${id(g)}`),
  join: (g) => post(`/api/online/games/${id(g)}/join`),
  close: (g) => call("DELETE", `/api/online/games/${id(g)}`),
  // A finished game's stored analysis, and asking for it (signed in).
  analysis: (g) => get(`/api/online/games/${id(g)}/analysis`),
  requestAnalysis: (g) => post(`/api/online/games/${id(g)}/analysis`, {}),
  profile: (name) => get(`/api/online/users/${id(name)}`),
  leaderboard: (spec) => get(`/api/online/leaderboard?game=${id(spec)}`),
  // The leaderboard with its filters, a page of a profile's games.
  leaderboardOf: (spec, { provisional = false, bots = false } = {}) =>
    get(`/api/online/leaderboard?${new URLSearchParams({ game: spec, provisional: String(provisional), bots: String(bots) })}`),
  // Players between themselves: challenges, follows, blocks, the bell.
  challengePlayer: (c) => post("/api/online/challenges", c),
  challenges: () => get("/api/online/challenges"),
  acceptChallenge: (c) => post(`/api/online/challenges/${id(c)}/accept`),
  declineChallenge: (c, reason) => post(`/api/online/challenges/${id(c)}/decline`, { reason }),
  cancelChallenge: (c) => post(`/api/online/challenges/${id(c)}/cancel`),
  following: () => get("/api/online/me/following"),
  follow: (name) => call("PUT", `/api/online/me/following/${id(name)}`),
  unfollow: (name) => call("DELETE", `/api/online/me/following/${id(name)}`),
  block: (name) => call("PUT", `/api/online/me/blocked/${id(name)}`),
  unblock: (name) => call("DELETE", `/api/online/me/blocked/${id(name)}`),
  relation: (name) => get(`/api/online/me/relations/${id(name)}`),
  playersOnline: () => get("/api/online/players/online"),
  notifications: () => get("/api/online/me/notifications"),
  markRead: (ids) => post("/api/online/me/notifications/read", ids ? { ids } : {}),
  profilePage: (name, { offset = 0, limit = 20 } = {}) =>
    get(`/api/online/users/${id(name)}?${new URLSearchParams({ offset: String(offset), limit: String(limit) })}`),
};

/** A query string of the set values of `params`. */
function query(params) {
  return new URLSearchParams(Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== "")).toString();
}

/** A websocket URL on this server. */
export function socketUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

/**
 * A listen-only socket (the lobby's, a tournament's): each message, parsed, to
 * `onMessage`; opened again 1.5 s after it drops while `keep()` says so, until closed.
 * @param {string} path
 * @param {(message: import("./online/protocol").ServerFrame) => void} onMessage
 * @param {() => boolean} [keep]
 */
export function listen(path, onMessage, keep = () => true) {
  let socket = null;
  let closed = false;
  const open = () => {
    socket = new WebSocket(socketUrl(path));
    socket.onmessage = (event) => onMessage(JSON.parse(event.data));
    socket.onclose = () => {
      if (!closed && keep()) setTimeout(() => !closed && open(), 1500);
    };
  };
  open();
  return {
    close() {
      closed = true;
      socket.close();
    },
    get isOpen() {
      return socket.readyState === WebSocket.OPEN;
    },
  };
}
