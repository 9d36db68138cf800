// node --test tests/e2e/ only discovers *.test.mjs; the reproductions page's browser test lives in reproduce.e2e.mjs.
import './reproduce.e2e.mjs';
