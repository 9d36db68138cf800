// 32-bit words from the CSPRNG, read in blocks, for the benches' hand-written JS: it draws like the library does
// (crypto.getRandomValues; no Math.random), so that a comparison does not favour either side by its generator.
export function cryptoWords(block) {
  const words = new Uint32Array(block);
  let next = words.length;
  return () => {
    if (next === words.length) {
      crypto.getRandomValues(words);
      next = 0;
    }
    return words[next++];
  };
}
