// Keeping and sharing a person's work, on their device only: settings in localStorage, a permalink whose settings
// travel in the URL fragment (#s=…, which browsers never send to a server), and files made in the page
// (CSV text as a Blob, charts as PNG through the canvas). No network request, no mathematics.

const STORAGE_KEY = 'privsample-demo:histogram-page';
const VERSION = 1;

/** The saved settings of the histogram page, or null (nothing saved, storage blocked, or not ours). */
export function loadSettings() {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw);
    return parsed && parsed.v === VERSION ? parsed : null;
  } catch {
    return null; // storage disabled or a damaged entry: start from the example
  }
}

/** Saves settings (a plain JSON object) in this browser; false when storage is unavailable or full. */
export function saveSettings(settings) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify({ ...settings, v: VERSION }));
    return true;
  } catch {
    return false;
  }
}

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The URL fragment ("#s=…") that carries settings. */
export function fragmentOf(settings) {
  return `#s=${toBase64Url(JSON.stringify({ ...settings, v: VERSION }))}`;
}

/** The settings in a fragment made by fragmentOf, or null (no fragment, or one this page cannot read). */
export function settingsFromFragment(hash) {
  const match = /^#s=([A-Za-z0-9_-]+)$/.exec(hash ?? '');
  if (!match) return null;
  try {
    const parsed = JSON.parse(fromBase64Url(match[1]));
    return parsed && parsed.v === VERSION ? parsed : null;
  } catch {
    return null;
  }
}

/** One CSV line: fields with a comma, quote or line break are quoted (RFC 4180). */
export function csvLine(fields) {
  return fields
    .map((field) => {
      const text = String(field);
      return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    })
    .join(',');
}

function clickDownload(href, filename) {
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

/** Saves text as a file made in the page (a Blob URL; nothing is uploaded). */
export function downloadText(text, filename, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  clickDownload(url, filename);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves a chart's canvas as a PNG file, on the given background colour (the chart itself is transparent). */
export function downloadCanvas(canvas, filename, background) {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, copy.width, copy.height);
  ctx.drawImage(canvas, 0, 0);
  clickDownload(copy.toDataURL('image/png'), filename);
}
