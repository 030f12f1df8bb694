// The server's API. Every game request carries the whole game (spec, start, moves):
// the server replays and validates it and keeps nothing.

export class ApiError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

async function call(path, body) {
  let response;
  try {
    response = await fetch(path, body === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError("the server cannot be reached", 0, null);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(data?.message || `the server answered ${response.status}`, response.status, data);
  return data;
}

const game = (g) => ({ spec: g.spec, start: g.start ?? null, moves: g.moves });

export const api = {
  catalogue: () => call("/api/games"),
  newGame: (spec, moves = [], start = null) => call("/api/new", { spec, start, moves }),
  position: (g) => call("/api/position", game(g)),
  play: (g, move) => call("/api/play", { ...game(g), move }),
  computer: (g, level, time = null) => call("/api/computer", { ...game(g), level, time }),
  analysis: (g, level, time = null) => call("/api/analysis", { ...game(g), level, time }),
  // A review answers at once: the review, or its progress ({status: "computing", key,
  // done, total}) to ask again for by its key.
  review: (g, level, time) => call("/api/review", { ...game(g), level, time }),
  reviewByKey: (key) => call(`/api/review/${encodeURIComponent(key)}`),
  record: (text) => call("/api/record", { text }),
  // An online game's stored analysis, and asking for it (signed in).
  onlineGame: (id) => call(`/api/online/games/${encodeURIComponent(id)}`),
  onlineAnalysis: (id) => call(`/api/online/games/${encodeURIComponent(id)}/analysis`),
  requestOnlineAnalysis: (id) => call(`/api/online/games/${encodeURIComponent(id)}/analysis`, {}),
  onlineRooms: () => call("/api/online/rooms"),
  // The signed-in player's online games where it is their move (none for a visitor).
  onlineTurns: () => call("/api/online/me/turns"),
  onlineTournaments: () => call("/api/online/tournaments"),
  // Puzzles: for everyone; the rating and history for players signed in online.
  puzzleCatalogue: () => call("/api/puzzles"),
  puzzle: (id) => call(`/api/puzzles/${encodeURIComponent(id)}`),
  nextPuzzle: (filters) => call(`/api/puzzles/next?${query(filters)}`),
  dailyPuzzle: () => call("/api/puzzles/daily"),
  streakRun: (filters) => call(`/api/puzzles/streak?${query(filters)}`),
  checkPuzzle: (id, moves) => call(`/api/puzzles/${encodeURIComponent(id)}/check`, { moves }),
  attemptPuzzle: (id, solved) => call(`/api/puzzles/${encodeURIComponent(id)}/attempt`, { solved }),
  recordStreak: (score) => call("/api/puzzles/streak", { score }),
  puzzleProfile: () => call("/api/puzzles/me?limit=20"),
  yourPuzzles: () => call("/api/puzzles/yours"),
  onlineMe: () => call("/api/online/me"),
};

/** A query string of the set values of `params`. */
function query(params) {
  return new URLSearchParams(Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== "")).toString();
}
