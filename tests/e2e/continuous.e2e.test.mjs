// node --test tests/e2e/ only discovers *.test.mjs; the continuous view's browser test lives in continuous.e2e.mjs.
import './continuous.e2e.mjs';
