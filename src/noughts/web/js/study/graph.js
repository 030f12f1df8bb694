// The evaluation graph of a reviewed game: x's chance after every ply (the review's
// `graph`), the area above the middle x's, below o's; a dot on every inaccuracy,
// mistake and blunder; click (or Enter on) a point to go to that ply.

import { h } from "../dom.js";
import { t } from "../i18n.js";

const W = 600;
const H = 120;

export function evaluationGraph(review, current, onPick) {
  const points = review.graph;
  const last = Math.max(1, points.length - 1);
  const x = (ply) => (ply / last) * W;
  const y = (chance) => (1 - chance) * H;
  const path = (chances) => chances.map((c, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(c).toFixed(1)}`).join("");
  const line = path(points);
  // x's advantage above the middle in x's colour, o's below in o's.
  const area = (clamp) => `${path(points.map(clamp))}L${x(last)},${H / 2}L0,${H / 2}Z`;
  const svg = h(
    "svg",
    { class: "eval-graph", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img", "aria-label": t("evaluation graph: x's chance after every move") },
    h("rect", { class: "graph-o", x: 0, y: 0, width: W, height: H }),
    h("path", { class: "graph-area-x", d: area((c) => Math.max(c, 0.5)) }),
    h("path", { class: "graph-area-o", d: area((c) => Math.min(c, 0.5)) }),
    h("line", { class: "graph-middle", x1: 0, y1: H / 2, x2: W, y2: H / 2 }),
    h("path", { class: "graph-line", d: line }),
    current === null ? null : h("line", { class: "graph-cursor", x1: x(current), y1: 0, x2: x(current), y2: H }),
  );
  for (const move of review.moves) {
    if (!["inaccuracy", "mistake", "blunder"].includes(move.class)) continue;
    svg.append(h("circle", { class: `graph-dot class-${move.class}`, cx: x(move.ply), cy: y(points[move.ply]), r: 5 }));
  }
  const pick = (event) => {
    const box = svg.getBoundingClientRect();
    onPick(Math.round(((event.clientX - box.left) / box.width) * last));
  };
  svg.addEventListener("click", pick);
  // One button per ply for the keyboard and screen readers, over the graph.
  const keys = h(
    "div",
    { class: "graph-keys" },
    points.map((chance, ply) =>
      h("button", {
        type: "button",
        class: ["graph-key", ply === current && "current"],
        style: { left: `${(ply / last) * 100}%` },
        "aria-label": `after move ${ply}: x's chance ${Math.round(chance * 100)}%`,
        tabindex: ply === current ? 0 : -1,
        "data-ply": ply,
        onclick: () => onPick(ply),
        onkeydown: (e) => {
          const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
          if (step) {
            e.preventDefault();
            onPick(Math.max(0, Math.min(last, ply + step)));
          }
        },
      }),
    ),
  );
  return h("div", { class: "graph-box" }, svg, keys);
}
