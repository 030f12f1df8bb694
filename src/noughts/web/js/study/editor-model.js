// The board editor's model: a game's position text (the one the server's parser reads,
// GET /api/new's `position`) read into cells and written back, and the edits on it.
// Four shapes of text cover every game: a grid of marks (tic-tac-toe, m,n,k, connect
// four: "x.o/.x./..o x"), layers of grids (qubic: "|" between layers), nine local boards
// (ultimate, nine-board: nine rows of nine and the board to play in: "... x 5"), and
// stacks of figures (gobblet, matryoshka: "S,.,mL/..."; x's figures are capitals,
// written bottom to top). Forget mode's ages ("x=3,5,8 o=2,1", oldest first) follow the
// order the marks were placed in. Whether the position is legal and reachable is the
// server's parser's to say; here only what cannot be written at all is refused.
// No DOM here: node tests it.

const SIZES = "SML";

/** The model of a position text. */
export function readPosition(text) {
  const parts = text.trim().split(/\s+/);
  const board = parts[0];
  const turn = parts[1];
  if (!board || !["x", "o"].includes(turn)) throw new Error(`not a position text: ${text}`);
  let shape, dims, cells;
  if (board.includes("|")) {
    shape = "layers";
    const layers = board.split("|").map((layer) => layer.split("/"));
    dims = { layers: layers.length, rows: layers[0].length, cols: layers[0][0].length };
    cells = layers.flatMap((rows) => rows.flatMap((row) => [...row]));
  } else if (board.includes(",")) {
    shape = "stacks";
    const rows = board.split("/").map((row) => row.split(","));
    dims = { rows: rows.length, cols: rows[0].length };
    cells = rows.flat();
  } else if (/^[-1-9]$/.test(parts[2] ?? "")) {
    shape = "nine";
    dims = { boards: 9, rows: 3, cols: 3 };
    cells = board.split("/").flatMap((row) => [...row]);
  } else {
    shape = "grid";
    const rows = board.split("/");
    dims = { rows: rows.length, cols: rows[0].length };
    cells = rows.flatMap((row) => [...row]);
  }
  const model = { shape, dims, cells, turn, forced: shape === "nine" ? parts[2] : null, ages: null };
  const agesAt = shape === "nine" ? 3 : 2;
  if (parts.length > agesAt) {
    const names = new Map(cells.map((_, i) => [cellName(model, i), i]));
    const ages = { x: [], o: [] };
    for (const part of parts.slice(agesAt)) {
      const [side, list] = part.split("=");
      if (!(side in ages) || list === undefined) throw new Error(`not an age list: ${part}`);
      if (list !== "-") ages[side] = list.split(",").map((name) => names.get(name)).filter((i) => i !== undefined);
    }
    model.ages = ages;
  }
  return model;
}

/** The model's position text, as the parser reads it. */
export function writePosition(model) {
  const { shape, dims, cells } = model;
  const rowsOf = (list, cols, join = "") => Array.from({ length: list.length / cols }, (_, r) => list.slice(r * cols, (r + 1) * cols).join(join));
  let board;
  if (shape === "layers") {
    const size = dims.rows * dims.cols;
    board = Array.from({ length: dims.layers }, (_, l) => rowsOf(cells.slice(l * size, (l + 1) * size), dims.cols).join("/")).join("|");
  } else if (shape === "stacks") board = rowsOf(cells, dims.cols, ",").join("/");
  else if (shape === "nine") board = rowsOf(cells, 9).join("/");
  else board = rowsOf(cells, dims.cols).join("/");
  const parts = [board, model.turn];
  if (shape === "nine") parts.push(model.forced);
  if (model.ages) {
    for (const side of ["x", "o"]) {
      // Ultimate lists its marks board by board (each board's oldest first).
      const order = shape === "nine" ? [...model.ages[side]].sort((a, b) => Math.floor(a / 9) - Math.floor(b / 9)) : model.ages[side];
      parts.push(`${side}=${order.length ? order.map((i) => cellName(model, i)).join(",") : "-"}`);
    }
  }
  return parts.join(" ");
}

/** A cell's move text: "5" on a board of nine cells or fewer, else "b3" (column, row);
 * "53" in ultimate (board 5, cell 3); qubic's "a1" in a layer, the layer first ("2b3"). */
export function cellName(model, index) {
  const { shape, dims } = model;
  if (shape === "nine") return `${Math.floor(index / 9) + 1}${(index % 9) + 1}`;
  const size = dims.rows * dims.cols;
  const within = index % size;
  const plain = size <= 9 ? String(within + 1) : `${String.fromCharCode(97 + (within % dims.cols))}${Math.floor(within / dims.cols) + 1}`;
  return shape === "layers" ? `${Math.floor(index / size) + 1}${plain}` : plain;
}

/** The pieces a player can put down: marks, or figures of three sizes. */
export function palette(model) {
  if (model.shape === "stacks") return [...[...SIZES].map((s) => ({ piece: s, side: "x", size: s })), ...[...SIZES].map((s) => ({ piece: s.toLowerCase(), side: "o", size: s })), { piece: "erase" }];
  return [{ piece: "x", side: "x" }, { piece: "o", side: "o" }, { piece: "erase" }];
}

/** The figure on top of a stack ("" for an empty cell). */
export function topOf(stack) {
  return stack === "." ? "" : stack[stack.length - 1];
}

/** A new model with `piece` put on cell `index` ("erase" takes the mark, or the top
 * figure, away). A figure goes only over a smaller one: an Error says so. */
export function put(model, index, piece) {
  const cells = [...model.cells];
  const ages = model.ages ? { x: model.ages.x.filter((i) => i !== index), o: model.ages.o.filter((i) => i !== index) } : null;
  if (model.shape === "stacks") {
    const stack = cells[index];
    if (piece === "erase") cells[index] = stack.length > 1 ? stack.slice(0, -1) : ".";
    else {
      const top = topOf(stack);
      if (top && SIZES.indexOf(top.toUpperCase()) >= SIZES.indexOf(piece.toUpperCase())) throw new Error("a figure goes only over a smaller one");
      cells[index] = stack === "." ? piece : stack + piece;
    }
  } else {
    cells[index] = piece === "erase" || cells[index] === piece ? "." : piece;
    // The newest mark is the last of its side's ages: Forget mode takes the oldest first.
    if (ages && cells[index] !== ".") ages[piece].push(index);
  }
  return { ...model, cells, ages };
}

/** A new model with every cell empty (the side to move and the rest kept). */
export function cleared(model) {
  return { ...model, cells: model.cells.map(() => "."), ages: model.ages ? { x: [], o: [] } : null, forced: model.forced === null ? null : "-" };
}
