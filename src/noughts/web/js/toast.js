// The one toast: a short message at the foot of the screen, read out by screen readers.

export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.className = ""), 3500);
}
