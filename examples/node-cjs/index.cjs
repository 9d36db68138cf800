// privsample from CommonJS. Node >= 20.19 can require() the ES module; on older Node use
// `const { init } = await import('privsample')` inside an async function instead.
//   npm install && npm start
const { init } = require('privsample');

async function main() {
  const ps = await init();
  const sampler = ps.sampler('linear', { epsilon: 1 }); // k-ary randomized response on one draw of the histogram
  const category = sampler.sample([3, 0, 1, 5]);
  console.log(`one private sample: category ${category} of 4`);
  console.log(`guarantee: ${JSON.stringify(sampler.guarantee)}`);
  sampler.dispose();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
