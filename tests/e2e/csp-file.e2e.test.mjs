// node --test tests/e2e/ only discovers *.test.mjs; the strict-CSP loading test lives in csp-file.e2e.mjs.
import './csp-file.e2e.mjs';
