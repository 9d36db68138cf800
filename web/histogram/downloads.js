// Sharing and downloads, all made in the page (keep.js): a permalink whose settings travel in the URL fragment,
// P and Q as CSV, the curves as CSV, and each chart as PNG with its title, mechanism and ε above it. Nothing is
// uploaded.
import { $, elements } from '../dom.js';
import { formatEpsilon } from '../format.js';
import { csvLine, downloadCanvas, downloadText, fragmentOf } from '../keep.js';
import { shortName } from '../mechanisms.js';
import { cssColor } from '../theme.js';

export function mountDownloads(store, { snapshot }) {
  const { state } = store;
  const el = elements({ copyLink: 'copy-link', shareLink: 'share-link', shareStatus: 'share-status', pq: 'download-pq', curves: 'download-curves' });

  async function copyLink() {
    const url = `${location.href.split('#')[0]}${fragmentOf(snapshot())}`;
    el.shareLink.value = url;
    el.shareLink.hidden = false;
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // no clipboard permission: the link is in the box to copy by hand
    }
    el.shareStatus.textContent = copied
      ? 'Link copied. Whoever opens it sees your histogram and settings: share it only with people who may see them.'
      : 'Copy the link in the box above. Whoever opens it sees your histogram and settings.';
    el.shareStatus.hidden = false;
    el.shareLink.select();
  }

  const csv = (lines) => `${lines.join('\r\n')}\r\n`;

  function downloadPq() {
    if (!state.last || !state.computed) return;
    const { request, result } = state.last;
    const lines = [csvLine(['category', 'count', 'P', 'Q'])];
    request.names.forEach((name, i) => lines.push(csvLine([name, request.hist[i], result.p[i], result.q[i]])));
    downloadText(csv(lines), `privsample-${result.mechanism}-epsilon-${formatEpsilon(result.epsilon)}-p-q.csv`);
  }

  function downloadCurves() {
    if (!state.last || !state.computed) return;
    const { result } = state.last;
    const lines = [csvLine(['f', 'mechanism', 'curve', 'epsilon', 'value'])];
    for (const series of result.curve.series) {
      if (series.skipped) continue;
      for (const [curve, values] of [['worst case', series.worst], ['yours', series.user]]) {
        (values ?? []).forEach((value, i) => lines.push(csvLine([result.f, series.mechanism, curve, result.curve.epsilon[i], value])));
      }
    }
    downloadText(csv(lines), `privsample-curves-${result.f}.csv`);
  }

  el.copyLink.addEventListener('click', copyLink);
  el.pq.addEventListener('click', downloadPq);
  el.curves.addEventListener('click', downloadCurves);
  /** What a PNG's header says: the chart's heading, then the mechanism and its budget as the page shows them. */
  function pngHeader(button) {
    const title = button.closest('section')?.querySelector('h2')?.textContent.replace(/\s+/g, ' ').trim() ?? 'privsample';
    if (!state.last) return { title, detail: '', suffix: '' };
    const { result } = state.last;
    const g = result.guarantee;
    const budget = g.notion === 'gaussian-ldp' ? `μ = ${formatEpsilon(g.mu)}` : `ε = ${formatEpsilon(result.epsilon)}`;
    const extra = g.notion === 'approx-ldp' ? `, δ = ${g.delta}` : g.notion === 'record-dp' ? ` per record (n = ${g.records})` : '';
    const k = `k = ${result.k} categories`;
    return {
      title,
      detail: `${shortName(result.mechanism)}, ${budget}${extra}, ${k} · privsample ${result.version}`,
      suffix: `-${result.mechanism}-${g.notion === 'gaussian-ldp' ? 'mu' : 'epsilon'}-${formatEpsilon(g.notion === 'gaussian-ldp' ? g.mu : result.epsilon)}`,
    };
  }

  for (const button of document.querySelectorAll('button[data-png]')) {
    button.addEventListener('click', () => {
      const { title, detail, suffix } = pngHeader(button);
      const colours = { background: cssColor('--card', '#ffffff'), text: cssColor('--chart-text', '#2b2f36') };
      downloadCanvas($(button.dataset.png), `privsample-${button.dataset.png}${suffix}.png`, { ...colours, title, detail });
    });
  }
}
