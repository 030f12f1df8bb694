// The one toast: a short message at the foot of the screen, read out by screen readers.

/** The timer that hides the toast shown last. */
let hiding;

export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = `show ${kind}`;
  clearTimeout(hiding);
  hiding = setTimeout(() => (box.className = ""), 3500);
}
