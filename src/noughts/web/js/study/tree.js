// A tree of variations: every node is a position reached by a move from its parent;
// the first child is the main line. Written to and read from one line of text for
// links, PGN-like: moves separated by commas, a variation in parentheses after the
// move it replaces: "55,51(15,53),19" is 55 51 19 with 15 53 instead of 51.

export class Node {
  constructor(move = null, parent = null) {
    this.move = move; // the move text that led here (null at the root)
    this.parent = parent;
    this.children = [];
  }

  /** The moves from the root to this node. */
  get path() {
    const moves = [];
    for (let node = this; node.parent; node = node.parent) moves.unshift(node.move);
    return moves;
  }

  get ply() {
    let n = 0;
    for (let node = this; node.parent; node = node.parent) n++;
    return n;
  }

  /** The child reached by `move`, made (as the last variation) if it is new. */
  child(move) {
    let found = this.children.find((c) => c.move === move);
    if (!found) {
      found = new Node(move, this);
      this.children.push(found);
    }
    return found;
  }

  /** Whether this node lies on the main line (first child all the way from the root). */
  get onMainLine() {
    for (let node = this; node.parent; node = node.parent) if (node.parent.children[0] !== node) return false;
    return true;
  }
}

export class Tree {
  constructor() {
    this.root = new Node();
  }

  /** A tree holding one line. */
  static line(moves) {
    const tree = new Tree();
    let node = tree.root;
    for (const move of moves) node = node.child(move);
    return tree;
  }

  /** The node at the end of `moves`, or null where the tree has no such line. */
  find(moves) {
    let node = this.root;
    for (const move of moves) {
      node = node.children.find((c) => c.move === move);
      if (!node) return null;
    }
    return node;
  }

  /** The main line's moves. */
  get mainLine() {
    const moves = [];
    for (let node = this.root; node.children.length; node = node.children[0]) moves.push(node.children[0].move);
    return moves;
  }

  /** Remove `node` and its continuations (not the root). */
  remove(node) {
    if (!node.parent) return;
    node.parent.children = node.parent.children.filter((c) => c !== node);
  }

  /** Make `node`'s variation the main line at the point where it branches off. */
  promote(node) {
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      if (siblings[0] !== n) {
        siblings.splice(siblings.indexOf(n), 1);
        siblings.unshift(n);
        return;
      }
    }
  }

  toText() {
    return lineText(this.root);
  }

  /** The tree written by `toText`; throws an Error naming the place where it fails. */
  static parse(text) {
    const tree = new Tree();
    const tokens = (text || "").match(/[(),]|[^(),\s]+/g) || [];
    let at = 0;
    // Reads moves after `node` until ")" or the end; a "(" opens a variation that
    // replaces the move just read (a sibling of it).
    const readLine = (node) => {
      let last = null;
      while (at < tokens.length) {
        const token = tokens[at];
        if (token === ")") return;
        at++;
        if (token === ",") continue;
        if (token === "(") {
          if (!last) throw new Error("a variation must follow a move");
          readLine(last.parent);
          if (tokens[at] !== ")") throw new Error("a variation is not closed");
          at++;
          continue;
        }
        last = node.child(token);
        node = last;
      }
    };
    readLine(tree.root);
    if (at < tokens.length) throw new Error(`unexpected "${tokens[at]}"`);
    return tree;
  }
}

// The main line from `node` on, each move followed by its alternatives.
function lineText(node) {
  const parts = [];
  while (node.children.length) {
    const [main, ...others] = node.children;
    let text = main.move;
    for (const other of others) text += `(${[other.move, lineText(other)].filter(Boolean).join(",")})`;
    parts.push(text);
    node = main;
  }
  return parts.join(",");
}
