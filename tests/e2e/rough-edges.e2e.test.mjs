// node --test tests/e2e/ only discovers *.test.mjs; the rough-edges browser test lives in rough-edges.e2e.mjs.
import './rough-edges.e2e.mjs';
