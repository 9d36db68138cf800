// Keeping and sharing a person's work, on their device only: settings in localStorage (the histogram page's, and
// every other page's controls through keepControls), a permalink whose settings travel in the URL fragment (#s=…, which browsers never send to a server), and files made in the page
// (CSV text as a Blob, charts as PNG through the canvas, with their title and settings). No network request, no
// mathematics.

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

/**
 * Saves a chart's canvas as a PNG file with a header above it: `title` (what the chart shows) and `detail` (its
 * settings, e.g. the mechanism and ε), in `text` on `background` (the chart itself is transparent), so the file says
 * what it is once it has left the page.
 */
export function downloadCanvas(canvas, filename, { background, text, title, detail = '' }) {
  const scale = canvas.clientWidth > 0 ? canvas.width / canvas.clientWidth : 1;
  const family = getComputedStyle(document.documentElement).fontFamily || 'sans-serif';
  const pad = Math.round(12 * scale);
  const lines = [
    { text: title, weight: 600, size: 16 * scale },
    { text: detail, weight: 400, size: 13 * scale },
  ].filter((line) => line.text);
  const header = pad + lines.reduce((h, line) => h + Math.round(line.size * 1.4), 0) + Math.round(pad / 2);
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height + header;
  const ctx = copy.getContext('2d');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, copy.width, copy.height);
  ctx.fillStyle = text;
  ctx.textBaseline = 'top';
  let y = pad;
  for (const line of lines) {
    // A line too long for the chart's width is drawn smaller rather than cut.
    let size = line.size;
    ctx.font = `${line.weight} ${size}px ${family}`;
    while (size > 9 * scale && ctx.measureText(line.text).width > copy.width - 2 * pad) {
      size -= scale;
      ctx.font = `${line.weight} ${size}px ${family}`;
    }
    ctx.fillText(line.text, pad, y);
    y += Math.round(line.size * 1.4);
  }
  ctx.drawImage(canvas, 0, header);
  clickDownload(copy.toDataURL('image/png'), filename);
}

/**
 * Keeps the values of a page's controls on this device: `controls` maps a name to a form element (select, text field,
 * textarea, range, checkbox). restore() puts the saved values back — a select only to an option it still has, a
 * range only to a value inside its bounds — and from then on every change is saved (also when the page is left).
 * Returns { restore, save }. Nothing is saved before restore() ran, so a page that fails to start keeps what was there.
 */
export function keepControls(key, controls) {
  let restored = false;
  const read = (control) => (control.type === 'checkbox' ? control.checked : control.value);
  const save = () => {
    if (!restored) return;
    try {
      const values = Object.fromEntries(Object.entries(controls).map(([name, control]) => [name, read(control)]));
      globalThis.localStorage?.setItem(key, JSON.stringify({ v: VERSION, values }));
    } catch {
      // storage blocked or full: the page works without it
    }
  };
  function restore() {
    let saved = null;
    try {
      const parsed = JSON.parse(globalThis.localStorage?.getItem(key) ?? 'null');
      if (parsed?.v === VERSION && parsed.values && typeof parsed.values === 'object') saved = parsed.values;
    } catch {
      // storage blocked or damaged: the defaults stay
    }
    for (const [name, control] of Object.entries(controls)) {
      const value = saved?.[name];
      if (control.type === 'checkbox') {
        if (typeof value === 'boolean') control.checked = value;
      } else if (typeof value !== 'string') {
        continue;
      } else if (control.tagName === 'SELECT') {
        if ([...control.options].some((o) => o.value === value)) control.value = value;
      } else if (control.type === 'range') {
        const n = Number(value);
        if (Number.isFinite(n) && n >= Number(control.min) && n <= Number(control.max)) control.value = value;
      } else {
        control.value = value;
      }
    }
    restored = true;
    return saved !== null;
  }
  let timer = 0;
  for (const control of Object.values(controls)) {
    for (const type of ['input', 'change']) {
      control.addEventListener(type, () => {
        clearTimeout(timer);
        timer = setTimeout(save, 200);
      });
    }
  }
  window.addEventListener('pagehide', save);
  return { restore, save };
}
