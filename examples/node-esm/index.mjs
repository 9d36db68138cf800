// privsample in Node (ES module): privatize a histogram and release one category.
//   npm install && npm start
import { init } from 'privsample';

const ps = await init(); // loads the WebAssembly once (Node reads the package's .wasm file)
const hist = [12, 30, 7, 0, 1]; // counts per category: they stay here
const sampler = ps.sampler('minimax', { epsilon: 1 });
const category = sampler.sample(hist); // drawn with the platform CSPRNG; spends ε = 1
console.log(`one private sample: category ${category} of ${hist.length}`);
console.log(`guarantee: ${JSON.stringify(sampler.guarantee)}`);
console.log(`worst-case KL over all histograms of ${hist.length} categories: ${sampler.worstCaseRisk('kl', hist.length).toFixed(4)}`);
sampler.dispose();
