// Online play's HTTP API. Errors carry the server's word, message and field.

export class OnlineError extends Error {
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
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new OnlineError("the server cannot be reached", 0, null);
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new OnlineError(data?.message || `the server answered ${response.status}`, response.status, data);
  return data;
}

export const online = {
  me: () => call("GET", "/api/online/me"),
  signUp: (name, password) => call("POST", "/api/online/signup", { name, password }),
  logIn: (name, password) => call("POST", "/api/online/login", { name, password }),
  guest: () => call("POST", "/api/online/guest"),
  logOut: () => call("POST", "/api/online/logout"),
  createRoom: (room) => call("POST", "/api/online/rooms", room),
  rooms: () => call("GET", "/api/online/rooms"),
  // Quick pairing: join the pool, ask again (it pairs), leave.
  seek: (seek) => call("POST", "/api/online/pairing", seek),
  pairing: () => call("GET", "/api/online/pairing"),
  leavePool: () => call("DELETE", "/api/online/pairing"),
  // The house bots: their list (with ratings) and a challenge, which starts a game at once.
  bots: () => call("GET", "/api/online/bots"),
  challenge: (bot, game) => call("POST", `/api/online/bots/${encodeURIComponent(bot)}/challenge`, game),
  // Your own bot accounts, for your programs (noughts bot).
  ownBots: () => call("GET", "/api/online/me/bots"),
  newBot: (name) => call("POST", "/api/online/me/bots", { name }),
  newBotToken: (name) => call("POST", `/api/online/me/bots/${encodeURIComponent(name)}/token`),
  // Tournaments: list, create, show, join, withdraw, start early (the creator).
  tournaments: () => call("GET", "/api/online/tournaments"),
  createTournament: (t) => call("POST", "/api/online/tournaments", t),
  tournament: (id) => call("GET", `/api/online/tournaments/${encodeURIComponent(id)}`),
  tournamentMine: (id) => call("GET", `/api/online/tournaments/${encodeURIComponent(id)}/me`),
  joinTournament: (id) => call("POST", `/api/online/tournaments/${encodeURIComponent(id)}/join`),
  withdrawTournament: (id) => call("POST", `/api/online/tournaments/${encodeURIComponent(id)}/withdraw`),
  startTournament: (id) => call("POST", `/api/online/tournaments/${encodeURIComponent(id)}/start`),
  game: (id) => call("GET", `/api/online/games/${encodeURIComponent(id)}`),
  join: (id) => call("POST", `/api/online/games/${encodeURIComponent(id)}/join`),
  close: (id) => call("DELETE", `/api/online/games/${encodeURIComponent(id)}`),
  profile: (name) => call("GET", `/api/online/users/${encodeURIComponent(name)}`),
  leaderboard: (spec) => call("GET", `/api/online/leaderboard?game=${encodeURIComponent(spec)}`),
  catalogue: () => call("GET", "/api/games"),
  position: (spec, moves) => call("POST", "/api/position", { spec, start: null, moves }),
  analysis: (id) => call("GET", `/api/online/games/${encodeURIComponent(id)}/analysis`),
  requestAnalysis: (id) => call("POST", `/api/online/games/${encodeURIComponent(id)}/analysis`, {}),
};

/** A finished game on the analysis board, with its stored review (or the button that asks for it). */
export function analysisLink(id, spec) {
  return `/#/analysis?${new URLSearchParams({ spec, online: id }).toString()}`;
}

/** A "Request analysis" button: starts the game's review (stored for everyone; the
 * server answers at once), then opens the analysis board, which follows it. */
export function analysisButton(h, game, toast) {
  const button = h("button", { class: "button", type: "button", "data-analysis": game.id }, "Request analysis");
  button.addEventListener("click", async () => {
    button.disabled = true;
    button.textContent = "Analysing…";
    try {
      await online.requestAnalysis(game.id);
      location.href = analysisLink(game.id, game.spec);
    } catch (e) {
      button.disabled = false;
      button.textContent = "Request analysis";
      toast(e.status === 401 ? "Log in or play as a guest to ask for the analysis" : e.message, "error");
    }
  });
  return button;
}

/** The position to draw once the game has ended by resignation, time, agreement or
 * abandonment: the rules still see a game going on there, so its local boards would
 * stay framed as playable (ultimate, nine-board); an ended game has no move to make. */
export function ended(view) {
  return view.board.playable ? { ...view, board: { ...view.board, playable: [] } } : view;
}

/** A websocket URL on this server. */
/** The mark a bot's name carries everywhere it is shown, as lichess marks bot accounts. */
export function botMark(h, isBot) {
  return isBot ? h("span", { class: "bot-mark", title: "a computer player" }, "BOT") : null;
}

export function socketUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

/** A listen-only socket (the lobby's, a tournament's): each message, parsed, to
 * `onMessage`; opened again 1.5 s after it drops while `keep()` says so, until closed. */
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

// The social pages' calls: the leaderboard with its filters, a page of a profile's games.
Object.assign(online, {
  leaderboardOf: (spec, { provisional = false, bots = false } = {}) =>
    call("GET", `/api/online/leaderboard?${new URLSearchParams({ game: spec, provisional, bots })}`),
  profilePage: (name, { offset = 0, limit = 20 } = {}) =>
    call("GET", `/api/online/users/${encodeURIComponent(name)}?${new URLSearchParams({ offset, limit })}`),
});
