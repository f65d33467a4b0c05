/**
 * A small n-gram language model writer (ARPA text format, as pocketsphinx's -lm reads it): interpolated
 * Witten-Bell smoothing, written as a back-off model, up to trigrams.
 *
 * For a history h seen c(h) times with T(h) distinct next words:
 *   P(w | h) = (c(h, w) + T(h) · P(w | h')) / (c(h) + T(h))      for every n-gram (h, w) seen in training
 *   bow(h)   = T(h) / (c(h) + T(h))                                so an unseen w gets bow(h) · P(w | h')
 * where h' is h without its oldest word, and the unigram level interpolates with a uniform distribution over the
 * vocabulary (so words of the vocabulary never seen in a sentence still get a little probability). With
 * interpolation, the back-off weight is exactly the interpolation weight, and every distribution sums to one
 * (the tests check this).
 */

export interface NgramModel {
  order: number;
  /** log10 probability and log10 back-off weight per n-gram, keyed by the words joined with a space. */
  grams: Map<string, { logp: number; bow: number | null }>[];
}

const BOS = '<s>';
const EOS = '</s>';

interface Counts {
  /** count of each n-gram, per order (index 0 = unigrams). */
  ngrams: Map<string, number>[];
  /** per history (order n-1 words joined), total count and distinct followers, per order ≥ 2. */
  hist: Map<string, { total: number; types: number }>[];
}

function count(sentences: readonly (readonly string[])[], order: number): Counts {
  const ngrams = Array.from({ length: order }, () => new Map<string, number>());
  for (const s of sentences) {
    const words = [BOS, ...s, EOS];
    for (let i = 1; i < words.length; i++) {
      for (let n = 1; n <= order && i - n + 1 >= 0; n++) {
        const key = words.slice(i - n + 1, i + 1).join(' ');
        const m = ngrams[n - 1]!;
        m.set(key, (m.get(key) ?? 0) + 1);
      }
    }
  }
  const hist = Array.from({ length: order }, () => new Map<string, { total: number; types: number }>());
  for (let n = 2; n <= order; n++) {
    for (const [key, c] of ngrams[n - 1]!) {
      const h = key.slice(0, key.lastIndexOf(' '));
      const e = hist[n - 1]!.get(h) ?? { total: 0, types: 0 };
      e.total += c;
      e.types += 1;
      hist[n - 1]!.set(h, e);
    }
  }
  return { ngrams, hist };
}

/**
 * Build the model. `sentences` are already-normalised word lists (no <s>/</s>); `extraVocabulary` adds words
 * that may be recognised even though no training sentence contains them.
 */
export function buildNgramModel(sentences: readonly (readonly string[])[], opts: { order?: number; extraVocabulary?: Iterable<string>; boost?: number } = {}): NgramModel {
  const order = opts.order ?? 3;
  // boost > 1 gives the lower orders more weight than plain Witten-Bell (T(h) counted boost times).
  const k = opts.boost ?? 1;
  if (order < 1 || order > 5) throw new RangeError('order must be 1..5');
  const { ngrams, hist } = count(sentences, order);
  const vocab = new Set<string>([EOS]);
  for (const key of ngrams[0]!.keys()) vocab.add(key);
  for (const w of opts.extraVocabulary ?? []) if (w && w !== BOS) vocab.add(w);

  const grams = Array.from({ length: order }, () => new Map<string, { logp: number; bow: number | null }>());
  // Probabilities (not logs) of the level below, for interpolation.
  const prob: Map<string, number>[] = Array.from({ length: order }, () => new Map());

  // Unigrams: Witten-Bell against the uniform distribution over the vocabulary.
  const uni = ngrams[0]!;
  let N = 0;
  for (const c of uni.values()) N += c;
  const T0 = uni.size;
  const V = vocab.size;
  for (const w of vocab) {
    const p = N + T0 === 0 ? 1 / V : ((uni.get(w) ?? 0) + T0 / V) / (N + T0);
    prob[0]!.set(w, p);
    grams[0]!.set(w, { logp: Math.log10(p), bow: null });
  }
  grams[0]!.set(BOS, { logp: -99, bow: null });

  /** P(w | h) at level n (h has n-1 words), backing off through the model built so far. */
  const backoffProb = (words: string[]): number => {
    const n = words.length;
    const key = words.join(' ');
    const p = prob[n - 1]!.get(key);
    if (p !== undefined) return p;
    if (n === 1) return prob[0]!.get(key) ?? 0;
    const h = words.slice(0, -1).join(' ');
    const hs = hist[n - 1]!.get(h);
    const bow = hs ? (k * hs.types) / (hs.total + k * hs.types) : 1;
    return bow * backoffProb(words.slice(1));
  };

  for (let n = 2; n <= order; n++) {
    for (const [key, c] of ngrams[n - 1]!) {
      const words = key.split(' ');
      const h = words.slice(0, -1).join(' ');
      const hs = hist[n - 1]!.get(h)!;
      const lower = backoffProb(words.slice(1));
      const p = (c + k * hs.types * lower) / (hs.total + k * hs.types);
      prob[n - 1]!.set(key, p);
      grams[n - 1]!.set(key, { logp: Math.log10(p), bow: null });
    }
    // Back-off weights live on the (n-1)-grams that are histories at level n.
    for (const [h, hs] of hist[n - 1]!) {
      const g = grams[n - 2]!.get(h);
      if (g) g.bow = Math.log10((k * hs.types) / (hs.total + k * hs.types));
    }
  }
  return { order, grams };
}

const fmt = (x: number) => (x === -99 ? '-99' : x.toFixed(6));

/** The ARPA text of a model. */
export function toArpa(model: NgramModel): string {
  const out: string[] = ['\\data\\'];
  model.grams.forEach((g, i) => out.push(`ngram ${i + 1}=${g.size}`));
  model.grams.forEach((g, i) => {
    out.push('', `\\${i + 1}-grams:`);
    const keys = [...g.keys()].sort();
    for (const k of keys) {
      const { logp, bow } = g.get(k)!;
      out.push(bow === null || i === model.order - 1 ? `${fmt(logp)}\t${k}` : `${fmt(logp)}\t${k}\t${fmt(bow)}`);
    }
  });
  out.push('', '\\end\\', '');
  return out.join('\n');
}

/** log10 P(w | history) under the back-off model (for tests and for scoring sentences). */
export function logProb(model: NgramModel, history: string[], w: string): number {
  const h = history.slice(-(model.order - 1));
  for (let start = 0; start <= h.length; start++) {
    const ctx = h.slice(start);
    const g = model.grams[ctx.length]!.get([...ctx, w].join(' '));
    if (g) {
      let bows = 0;
      for (let s = 0; s < start; s++) {
        const hk = h.slice(s).join(' ');
        bows += model.grams[h.length - s - 1]!.get(hk)?.bow ?? 0;
      }
      return g.logp + bows;
    }
  }
  return -Infinity;
}
