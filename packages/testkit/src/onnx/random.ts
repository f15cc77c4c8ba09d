/** A seeded generator of uniform numbers in [0, 1) (mulberry32), so generated weights repeat. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fills a float array of the given length with seeded values uniform in [-scale, scale]. */
export function randomWeights(random: () => number, length: number, scale: number): Float32Array {
  const weights = new Float32Array(length);
  for (let index = 0; index < length; index++) {
    weights[index] = (random() * 2 - 1) * scale;
  }
  return weights;
}
