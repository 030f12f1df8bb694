// Unfinished games kept in localStorage, so that a game survives closing the tab: the
// home page lists them as "continue your game". A game is its address (spec, mode,
// level, side, moves) plus what the list shows: a small picture of the board, the
// opponent and the moves played. Finished games are dropped.

const KEY = "noughts.games";
const MOST = 6;

function load() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

function store(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games.slice(0, MOST)));
  } catch {
    // Private mode or a full storage: the address still holds the game.
  }
}

/** The saved games, the most recently played first. */
export function savedGames() {
  return load();
}

/** Save (or update) the game with this id, and put it first. */
export function saveGame(game) {
  store([{ ...game, updated: Date.now() }, ...load().filter((g) => g.id !== game.id)]);
}

export function dropGame(id) {
  const games = load();
  if (games.some((g) => g.id === id)) store(games.filter((g) => g.id !== id));
}

export function newGameId() {
  return Math.random().toString(36).slice(2, 10);
}
