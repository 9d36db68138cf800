// The demo's pages, listed once: each page's file, entry script, title, description and place in the views' navigation.
// vite.config.js builds every page of this list, and its plugin pageFrame() writes the frame every page shares into
// each page's HTML (in `vite build` and in the dev server alike):
//   - the <head>: charset, the one Content-Security-Policy (a <meta http-equiv> in every built page; the e2e tests read
//     it from dist/), viewport, referrer policy, icon, the style sheets, the page's title, description and script;
//   - the site header: the title line, the page's tagline (written in the page, inside <header class="site-header">),
//     the navigation between the views (the current one marked aria-current="page") and to the documentation site,
//     and the module's status line.
// A page's own HTML holds only its <body> content.

// No network beyond the page's own files (docs/design.md): scripts and workers from 'self' (WASM compiled with
// 'wasm-unsafe-eval'), the inlined WASM read from a data: URL, no form posts, no plugins.
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self' data:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; form-action 'none'";

// In navigation order. `input` names the page among Vite's build inputs; `sub` is the title line's subtitle.
export const PAGES = [
  {
    input: 'main',
    file: 'index.html',
    script: './main.js',
    view: 'Histograms (categories)',
    link: 'link-histogram',
    title: 'privsample — private sampling of your histogram',
    description: 'Privatize your own histogram in your browser: one private sample under local differential privacy.',
  },
  {
    input: 'continuous',
    file: 'continuous.html',
    script: './continuous.js',
    view: 'Continuous data (2-D densities)',
    link: 'link-continuous',
    sub: 'continuous data',
    title: 'privsample — continuous data: private points of the plane',
    description: 'Privatize a 2-D density in your browser: private points of the plane under local differential privacy.',
  },
  {
    input: 'reproduce',
    file: 'reproduce.html',
    script: './reproduce.js',
    styles: ['./reproduce.css'],
    view: "Reproductions (papers' figures)",
    link: 'link-reproduce',
    sub: 'reproductions',
    title: "privsample — reproductions of the papers' figures",
    description:
      "Every figure and table of the four private-sampling papers, computed in your browser from one registry of experiments, with the papers' printed values beside ours.",
  },
  {
    input: 'manyUsers',
    file: 'many-users.html',
    script: './many-users.js',
    view: 'Many users (population estimates)',
    link: 'link-many-users',
    sub: 'many users',
    title: 'privsample — many users: population estimates from private samples',
    description: 'Many users each release one private sample; estimate the population with confidence intervals, and compare mechanisms.',
  },
];

const escapeAttribute = (text) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

// The views' navigation seen from `current`: the histogram page is "← back" from the others, the pages after the
// current one are "→ onwards", the current one is not a link.
export function navigation(current) {
  const here = PAGES.indexOf(current);
  const items = PAGES.map((page, i) => {
    if (page === current) return `<span aria-current="page">${page.view}</span>`;
    const label = i === 0 ? `← ${page.view}` : i > here ? `${page.view} →` : page.view;
    return `<a href="./${page.file}" data-testid="${page.link}">${label}</a>`;
  });
  // The guide and API reference, built into docs/ beside the pages (scripts/build.sh).
  items.push('<a href="./docs/index.html" class="docs-link" data-testid="link-docs">Guide and API reference</a>');
  return `<nav class="view-nav" aria-label="Views">\n${items.map((item) => `  ${item}`).join('\n')}\n</nav>`;
}

function head(page) {
  const styles = ['./style.css', ...(page.styles ?? [])].map((href) => `<link rel="stylesheet" href="${href}" />`);
  return [
    '<head>',
    '<meta charset="utf-8" />',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(CONTENT_SECURITY_POLICY)}" />`,
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    '<meta name="referrer" content="no-referrer" />',
    `<meta name="description" content="${escapeAttribute(page.description)}" />`,
    `<title>${page.title}</title>`,
    '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />',
    ...styles,
    `<script type="module" src="${page.script}"></script>`,
    '</head>',
  ].join('\n');
}

function header(page, tagline) {
  const sub = page.sub ? ` <span class="h1-sub">${page.sub}</span>` : '';
  return [
    '<header class="site-header">',
    '<div class="wrap">',
    `<h1><img src="/favicon.svg" alt="" width="28" height="28" /> privsample${sub}</h1>`,
    tagline.trim(),
    navigation(page),
    '<p id="status" class="status" data-testid="status" data-state="loading" role="status" aria-live="polite">Loading the privsample module…</p>',
    '</div>',
    '</header>',
  ].join('\n');
}

const HEADER = /<header class="site-header">([\s\S]*?)<\/header>/;

// The page's HTML with its frame: the <head> inserted before <body>, and the site header built around the tagline.
export function framePage(file, html) {
  const page = PAGES.find((p) => p.file === file);
  if (!page) throw new Error(`web/pages.js: ${file} is not one of the demo's pages (${PAGES.map((p) => p.file).join(', ')})`);
  const tagline = HEADER.exec(html);
  if (!tagline || /<head[\s>]/.test(html)) throw new Error(`web/${file}: write only <body> with a <header class="site-header"> holding the tagline; the frame comes from web/pages.js`);
  return html.replace('<body>', `${head(page)}\n<body>`).replace(HEADER, header(page, tagline[1]));
}

// The Vite plugin: runs before Vite's own HTML processing, so the inserted script and style sheets are bundled as if
// they had been written in the page.
export function pageFrame() {
  return {
    name: 'privsample-page-frame',
    transformIndexHtml: {
      order: 'pre',
      handler: (html, context) => framePage(context.filename.split(/[\\/]/).at(-1), html),
    },
  };
}
