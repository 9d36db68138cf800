// node --test tests/e2e/ only discovers *.test.mjs; the cross-browser test (Chromium, Firefox ESR, WebKitGTK) lives in
// cross-browser.e2e.mjs.
import './cross-browser.e2e.mjs';
