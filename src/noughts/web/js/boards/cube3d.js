// The qubic cube drawn on a canvas: drag (or arrow keys) to turn it, click a dot to play.

import { t } from "../i18n.js";

const TAU = Math.PI * 2;

export class Cube {
  constructor(root, { onPick }) {
    this.onPick = onPick;
    this.canvas = document.createElement("canvas");
    this.canvas.className = "cube-canvas";
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute("role", "img");
    this.canvas.setAttribute("aria-label", t("the cube in 3-D: drag or use the arrow keys to turn it"));
    const hint = document.createElement("div");
    hint.className = "cube-hint";
    hint.textContent = t("drag to turn · click a dot to play");
    root.append(this.canvas, hint);
    this.yaw = -0.6;
    this.pitch = 0.45;
    this.state = null;
    this.hover = null;
    this.points = [];
    this.listen();
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  listen() {
    let drag = null;
    this.canvas.addEventListener("pointerdown", (e) => {
      drag = { x: e.clientX, y: e.clientY, yaw: this.yaw, pitch: this.pitch, moved: false };
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
      this.yaw = drag.yaw + dx * 0.01;
      this.pitch = Math.max(-1.4, Math.min(1.4, drag.pitch + dy * 0.01));
      this.draw();
    });
    this.canvas.addEventListener("pointerup", (e) => {
      if (drag && !drag.moved) {
        const cell = this.cellAt(e);
        if (cell !== null) this.onPick(cell);
      }
      drag = null;
    });
    this.canvas.addEventListener("pointercancel", () => (drag = null));
    this.canvas.addEventListener("keydown", (e) => {
      const turns = { ArrowLeft: [-0.15, 0], ArrowRight: [0.15, 0], ArrowUp: [0, -0.15], ArrowDown: [0, 0.15] };
      const turn = turns[e.key];
      if (!turn) return;
      e.preventDefault();
      e.stopPropagation();
      this.yaw += turn[0];
      this.pitch = Math.max(-1.4, Math.min(1.4, this.pitch + turn[1]));
      this.draw();
    });
  }

  cellAt(event) {
    const rect = this.canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    let best = null;
    // Nearest to the viewer among the dots under the pointer.
    for (const p of this.points) {
      if (!this.state.playable.has(p.cell)) continue;
      if (Math.hypot(p.sx - x, p.sy - y) <= Math.max(8, p.r * 1.6) && (!best || p.z > best.z)) best = p;
    }
    return best ? best.cell : null;
  }

  update(state) {
    this.state = state;
    this.draw();
  }

  highlight(cell) {
    this.hover = cell;
    this.draw();
  }

  project(l, r, c, n, size) {
    // Layer 1 on top: layers go down the screen's y axis before turning.
    const half = (n - 1) / 2;
    let x = c - half;
    let y = l - half;
    let z = r - half;
    const cy = Math.cos(this.yaw), sy = Math.sin(this.yaw);
    [x, z] = [x * cy - z * sy, x * sy + z * cy];
    const cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
    [y, z] = [y * cp - z * sp, y * sp + z * cp];
    // sqrt(3): the cube's diagonal must fit whichever way it is turned.
    const scale = (size / (n * Math.sqrt(3) + 0.4)) * (1 + z * 0.05);
    return { sx: size / 2 + x * scale, sy: size / 2 + y * scale, z, scale };
  }

  draw() {
    if (!this.state) return;
    const { n, cells, winning, last, hint } = this.state;
    const canvas = this.canvas;
    const size = canvas.clientWidth || 280;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(size * dpr)) {
      canvas.width = Math.round(size * dpr);
      canvas.height = Math.round(size * dpr);
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size, size);
    const css = getComputedStyle(canvas);
    const colour = (name) => css.getPropertyValue(name).trim();

    // The layer planes as faint squares, so that the eye can tell them apart.
    ctx.lineWidth = 1;
    ctx.strokeStyle = colour("--grid");
    for (let l = 0; l < n; l++) {
      const corners = [[-0.5, -0.5], [-0.5, n - 0.5], [n - 0.5, n - 0.5], [n - 0.5, -0.5]].map(([r, c]) => this.project(l, r, c, n, size));
      ctx.beginPath();
      corners.forEach((p, k) => (k ? ctx.lineTo(p.sx, p.sy) : ctx.moveTo(p.sx, p.sy)));
      ctx.closePath();
      ctx.stroke();
    }

    this.points = [];
    for (let i = 0; i < n ** 3; i++) {
      const l = Math.floor(i / (n * n));
      const r = Math.floor(i / n) % n;
      const c = i % n;
      const p = this.project(l, r, c, n, size);
      this.points.push({ ...p, cell: i, r: p.scale * 0.22 });
    }
    const ordered = [...this.points].sort((a, b) => a.z - b.z);

    if (winning.length) {
      const ends = [this.points[winning[0]], this.points[winning[winning.length - 1]]];
      ctx.strokeStyle = colour("--win");
      ctx.lineWidth = 6;
      ctx.lineCap = "round";
      ctx.beginPath();
      ctx.moveTo(ends[0].sx, ends[0].sy);
      ctx.lineTo(ends[1].sx, ends[1].sy);
      ctx.stroke();
    }

    for (const p of ordered) {
      const mark = cells[p.cell];
      const depth = 0.55 + 0.45 * ((p.z + n / 2) / n);
      ctx.globalAlpha = Math.max(0.35, Math.min(1, depth));
      if (mark === "x") {
        ctx.strokeStyle = colour("--x");
        ctx.lineWidth = Math.max(2, p.r * 0.45);
        ctx.lineCap = "round";
        const a = p.r * 0.9;
        ctx.beginPath();
        ctx.moveTo(p.sx - a, p.sy - a);
        ctx.lineTo(p.sx + a, p.sy + a);
        ctx.moveTo(p.sx + a, p.sy - a);
        ctx.lineTo(p.sx - a, p.sy + a);
        ctx.stroke();
      } else if (mark === "o") {
        ctx.strokeStyle = colour("--o");
        ctx.lineWidth = Math.max(2, p.r * 0.45);
        ctx.beginPath();
        ctx.arc(p.sx, p.sy, p.r, 0, TAU);
        ctx.stroke();
      } else {
        ctx.fillStyle = colour("--muted");
        ctx.beginPath();
        ctx.arc(p.sx, p.sy, Math.max(1.5, p.r * 0.3), 0, TAU);
        ctx.fill();
      }
      if (p.cell === last || p.cell === this.hover || p.cell === hint) {
        ctx.globalAlpha = 1;
        ctx.strokeStyle = colour(p.cell === hint ? "--hint" : "--accent");
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(p.sx, p.sy, p.r * 1.5, 0, TAU);
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
  }
}
