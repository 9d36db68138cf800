// node --test tests/e2e/ only discovers *.test.mjs; the browser test of the ledger with many writers lives in
// ledger-concurrency.e2e.mjs.
import './ledger-concurrency.e2e.mjs';
