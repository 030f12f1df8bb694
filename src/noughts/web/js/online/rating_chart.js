// A player's rating after each rated game of one game, as a line drawn in SVG (the
// profile's chart, as lichess's rating history): no chart library, the page draws it.

import { h } from "../dom.js";

const WIDTH = 600;
const HEIGHT = 180;
const PAD = { left: 44, right: 10, top: 10, bottom: 24 };

const day = (ms) => new Date(ms).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });

/** The chart of `points` ({at, rating}, oldest first) of the game titled `title`. */
export function ratingChart(points, title) {
  const ratings = points.map((p) => p.rating);
  // A flat line still gets a band of 50 points around it.
  const low = Math.min(...ratings) - 25;
  const high = Math.max(...ratings) + 25;
  const first = points[0].at;
  const span = Math.max(1, points[points.length - 1].at - first);
  // One game: a point in the middle.
  const x = (p) => PAD.left + (points.length === 1 ? 0.5 : (p.at - first) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (rating) => PAD.top + (1 - (rating - low) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const line = points.map((p) => `${x(p).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const last = points[points.length - 1];
  const label = `Rating in ${title}: ${points[0].rating} after the first of ${points.length} rated ${points.length === 1 ? "game" : "games"} shown, ${last.rating} now; from ${day(first)} to ${day(last.at)}.`;
  const gridY = [Math.round(low + 25), Math.round(high - 25)].filter((v, i, all) => all.indexOf(v) === i);
  return h("svg", { class: "rating-chart", id: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label },
    ...gridY.map((v) => h("g", {},
      h("line", { class: "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v) }),
      h("text", { class: "axis", x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, v))),
    h("text", { class: "axis", x: PAD.left, y: HEIGHT - 6 }, day(first)),
    h("text", { class: "axis", x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end" }, day(last.at)),
    h("polyline", { class: "rating-line", points: line }),
    h("circle", { class: "rating-now", cx: x(last), cy: y(last.rating), r: 4 }));
}
