// require('privsample'): the ES module itself where Node can require() it, else a message that says how to import it.
'use strict';
module.exports = require('./require-esm.cjs')(() => require('./privsample.mjs'), 'privsample');
