// What require.cjs and research-require.cjs share: privsample is an ES module. Node >= 20.19 (and 22.12+) can
// require() it; older Node versions get this message instead of a bare ERR_REQUIRE_ESM.
'use strict';
module.exports = function requireEsm(load, specifier) {
  try {
    return load();
  } catch (error) {
    if (error && error.code !== 'ERR_REQUIRE_ESM') throw error;
    throw new Error(
      `privsample is an ES module (ESM only): use \`import { init } from '${specifier}'\`, or from CommonJS ` +
        `\`const { init } = await import('${specifier}')\`. Node >= 20.19 can also require() it.`,
      { cause: error },
    );
  }
};
