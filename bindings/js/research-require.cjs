// require('privsample/research'): the ES module itself where Node can require() it, else a message that says how to
// import it.
'use strict';
module.exports = require('./require-esm.cjs')(() => require('./research.mjs'), 'privsample/research');
