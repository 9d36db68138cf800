// The browsers the cross-browser tests drive, behind one small interface, from Debian's own binaries (no downloads):
//   chromium  /usr/bin/chromium      puppeteer-core over the Chrome DevTools Protocol
//   firefox   /usr/bin/firefox-esr   puppeteer-core over WebDriver BiDi (headless)
//   webkit    WebKitGTK's MiniBrowser through /usr/bin/WebKitWebDriver (selenium-webdriver), on an Xvfb display
//             (MiniBrowser has no headless mode; Xvfb is a virtual screen, nothing is shown)
// launch(name) → { name, version, newTab({ width, height }), close() }; a tab has goto(url), evaluate(fn, ...args)
// (fn is sent as source and runs in the page), waitFor(fn, { timeout }, ...args), resize(width, height) (resolves
// to the viewport's [width, height] as the page sees it: MiniBrowser's window cannot be made narrower than its
// toolbar, about 450 px), screenshot(path) and close(). Pages report their own errors through the test server's probe script (probeScript),
// so every browser is checked the same way.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';

/** The Content-Type of each file the tests' static servers send, by extension. */
export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

export const BROWSERS = {
  chromium: { binary: '/usr/bin/chromium', debian: 'chromium' },
  firefox: { binary: '/usr/bin/firefox-esr', debian: 'firefox-esr' },
  webkit: { binary: '/usr/bin/WebKitWebDriver', debian: 'webkit2gtk-driver, xvfb', miniBrowser: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser' },
};

/** Why `name` cannot run here (a missing Debian package), or null. */
export function missing(name) {
  const browser = BROWSERS[name];
  if (!existsSync(browser.binary)) return `${browser.binary} is missing (Debian: ${browser.debian})`;
  if (name === 'webkit' && !existsSync(browser.miniBrowser)) return `${browser.miniBrowser} is missing (Debian: libwebkit2gtk-4.1-0)`;
  if (name === 'webkit' && !existsSync('/usr/bin/Xvfb')) return '/usr/bin/Xvfb is missing (Debian: xvfb)';
  return null;
}

/**
 * The probe every test page loads first (the test server inserts it after the page's policy): it records uncaught
 * errors, unhandled rejections, console.error calls, failed resource loads and Content-Security-Policy violations in
 * window.__probe, where the tests read them in any browser.
 */
export const probeScript = `(() => {
  const probe = (window.__probe = { errors: [], violations: [] });
  addEventListener('error', (e) => {
    const target = e.target && e.target !== window ? e.target : null;
    probe.errors.push(target ? \`failed to load \${target.tagName} \${target.src || target.href || ''}\` : \`\${e.message} @ \${e.filename}:\${e.lineno}\`);
  }, true);
  addEventListener('unhandledrejection', (e) => probe.errors.push(\`unhandled rejection: \${e.reason && e.reason.stack || e.reason}\`));
  document.addEventListener('securitypolicyviolation', (e) => probe.violations.push(\`\${e.violatedDirective} \${e.blockedURI}\`));
  const error = console.error.bind(console);
  console.error = (...args) => { probe.errors.push(\`console.error: \${args.map(String).join(' ')}\`); error(...args); };
})();
`;

/** The function `fn` as an expression to run in the page with `args` (JSON values). */
const call = (fn, args) => `(${fn.toString()})(...${JSON.stringify(args)})`;

async function puppeteerBrowser(name) {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch(
    name === 'firefox'
      ? { browser: 'firefox', executablePath: BROWSERS.firefox.binary, headless: true }
      : {
          browser: 'chrome',
          executablePath: BROWSERS.chromium.binary,
          headless: true,
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
        },
  );
  const version = await browser.version();
  return {
    name,
    version,
    async newTab({ width, height }) {
      const page = await browser.newPage();
      await page.setViewport({ width, height, deviceScaleFactor: 1 });
      page.setDefaultTimeout(30_000);
      return {
        goto: (url) => page.goto(url, { waitUntil: 'load' }),
        evaluate: (fn, ...args) => page.evaluate(call(fn, args)),
        waitFor: (fn, { timeout = 30_000 } = {}, ...args) => page.waitForFunction(call(fn, args), { timeout, polling: 100 }),
        async resize(w, h) {
          await page.setViewport({ width: w, height: h, deviceScaleFactor: 1 });
          return page.evaluate('[innerWidth, innerHeight]');
        },
        screenshot: (path) => page.screenshot({ path }),
        close: () => page.close(),
      };
    },
    close: () => browser.close(),
  };
}

/** A free X display from Xvfb (-displayfd), for WebKitGTK's MiniBrowser. */
function startXvfb() {
  return new Promise((resolve, reject) => {
    const xvfb = spawn('/usr/bin/Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    let out = '';
    xvfb.stdio[3].on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ xvfb, display: `:${out.trim()}` });
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
}

async function webkitBrowser() {
  const { Builder } = await import('selenium-webdriver');
  const { xvfb, display } = await startXvfb();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const driverProcess = spawn(BROWSERS.webkit.binary, [`--port=${port}`], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore' });
  const stopAll = () => {
    driverProcess.kill();
    xvfb.kill();
  };
  try {
    const capabilities = {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: BROWSERS.webkit.miniBrowser, args: ['--automation'] },
    };
    let driver;
    for (let attempt = 0; ; attempt += 1) {
      try {
        driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities(capabilities).build();
        break;
      } catch (error) {
        if (attempt > 40) throw error; // the driver is still starting
        await new Promise((r) => setTimeout(r, 150));
      }
    }
    const version = `WebKitGTK ${await new Promise((resolve) => {
      const query = spawn('dpkg-query', ['-W', '-f=${Version}', 'libwebkit2gtk-4.1-0']);
      let out = '';
      query.stdout.on('data', (chunk) => (out += chunk));
      query.on('close', () => resolve(out.trim() || '?'));
    })} (${await driver.executeScript('return navigator.userAgent')})`;
    // One window, reused: WebDriver sizes the window, so the page's viewport is measured and the window corrected.
    const resize = async (width, height) => {
      await driver.manage().window().setRect({ width, height });
      const inner = await driver.executeScript('return [innerWidth, innerHeight]');
      if (inner[0] === width && inner[1] === height) return inner;
      await driver.manage().window().setRect({ width: 2 * width - inner[0], height: 2 * height - inner[1] });
      return driver.executeScript('return [innerWidth, innerHeight]');
    };
    return {
      name: 'webkit',
      version,
      async newTab({ width, height }) {
        await resize(width, height);
        return {
          goto: (url) => driver.get(url),
          evaluate: (fn, ...args) => driver.executeAsyncScript(`const done = arguments[arguments.length - 1]; Promise.resolve(${call(fn, args)}).then(done, (e) => done({ __error: String(e) }));`).then((value) => {
            if (value && value.__error) throw new Error(value.__error);
            return value;
          }),
          async waitFor(fn, { timeout = 30_000 } = {}, ...args) {
            const deadline = Date.now() + timeout;
            for (;;) {
              if (await driver.executeScript(`return Boolean(${call(fn, args)})`).catch(() => false)) return;
              if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${fn.toString().slice(0, 120)}`);
              await new Promise((r) => setTimeout(r, 100));
            }
          },
          resize,
          screenshot: async (path) => writeFile(path, Buffer.from(await driver.takeScreenshot(), 'base64')),
          close: async () => driver.get('about:blank'),
        };
      },
      async close() {
        await driver.quit().catch(() => {});
        stopAll();
      },
    };
  } catch (error) {
    stopAll();
    throw error;
  }
}

/** Launches `name` ('chromium' | 'firefox' | 'webkit'). */
export function launch(name) {
  return name === 'webkit' ? webkitBrowser() : puppeteerBrowser(name);
}
