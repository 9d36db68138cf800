// node --test tests/e2e/ only discovers *.test.mjs; the many-users page's browser test lives in many-users.e2e.mjs.
import './many-users.e2e.mjs';
