// A tiny element builder: h("button", {class: "cell", onclick: f, "data-cell": 3}, "X").

const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "line", "circle", "ellipse", "path", "g", "rect", "polyline", "text"]);

export function h(tag, props = {}, ...children) {
  const el = SVG_TAGS.has(tag) ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      listen(el, key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

const HANDLERS = Symbol("handlers");

/** An element's listeners go through a table on it, so that `patch` can give an element
 * it keeps the listeners of the one it was rebuilt as. */
function listen(el, type, handler) {
  el[HANDLERS] ??= {};
  if (!el[HANDLERS][type]) el.addEventListener(type, (event) => el[HANDLERS][type]?.(event));
  el[HANDLERS][type] = handler;
}

/**
 * Make `container`'s children look like `nodes` (fresh ones from `h`), keeping every
 * element whose tag is unchanged: a redraw never replaces an element under the pointer
 * or the keyboard, so a click that lands during a redraw still counts.
 */
export function patchChildren(container, nodes) {
  const old = [...container.childNodes];
  nodes.forEach((node, i) => {
    if (i >= old.length) container.append(node);
    else patch(old[i], node);
  });
  for (const extra of old.slice(nodes.length)) extra.remove();
}

function patch(old, fresh) {
  if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName || old.namespaceURI !== fresh.namespaceURI) {
    old.replaceWith(fresh);
    return;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of fresh.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  const handlers = fresh[HANDLERS] ?? {};
  for (const type of Object.keys(old[HANDLERS] ?? {})) if (!handlers[type]) delete old[HANDLERS][type];
  for (const [type, handler] of Object.entries(handlers)) listen(old, type, handler);
  patchChildren(old, [...fresh.childNodes]);
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An X or an O as SVG, drawn with strokes so that it scales with its cell. */
export function markSvg(mark, extraClass = "") {
  const svg = h("svg", { viewBox: "0 0 100 100", class: `mark mark-${mark} ${extraClass}`, "aria-hidden": "true" });
  if (mark === "x") {
    svg.append(h("line", { x1: 22, y1: 22, x2: 78, y2: 78 }), h("line", { x1: 78, y1: 22, x2: 22, y2: 78 }));
  } else {
    svg.append(h("circle", { cx: 50, cy: 50, r: 29 }));
  }
  return svg;
}

/**
 * Arrow-key focus moving over a grid of buttons (one tab stop for the whole board).
 * `at(row, col)` returns the element there or null; `size` is [rows, cols] (or a function giving it).
 */
export function rovingFocus(container, size, at) {
  container.addEventListener("keydown", (event) => {
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const step = steps[event.key];
    const current = event.target.closest("[data-row]");
    if (!step || !current) return;
    event.preventDefault();
    const [rows, cols] = typeof size === "function" ? size() : size;
    let row = Number(current.dataset.row);
    let col = Number(current.dataset.col);
    for (let tries = 0; tries < Math.max(rows, cols); tries++) {
      row = (row + step[0] + rows) % rows;
      col = (col + step[1] + cols) % cols;
      const next = at(row, col);
      if (next) {
        setTabStop(container, next);
        next.focus();
        return;
      }
    }
  });
}

/** Make `el` the board's single tab stop. */
export function setTabStop(container, el) {
  for (const other of container.querySelectorAll("[data-row][tabindex='0']")) other.tabIndex = -1;
  el.tabIndex = 0;
}

/** Keep the tab stop where it was after a re-render, else put it on `fallback`. */
export function restoreTabStop(container, previous, fallback) {
  const el = (previous && container.querySelector(`[data-row="${previous.row}"][data-col="${previous.col}"]`)) || fallback;
  if (el) setTabStop(container, el);
  return el;
}

export function tabStopOf(container) {
  const el = container.querySelector("[data-row][tabindex='0']");
  return el ? { row: el.dataset.row, col: el.dataset.col, focused: el === document.activeElement } : null;
}
