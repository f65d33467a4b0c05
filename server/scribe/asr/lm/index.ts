/**
 * The domain language model and pronunciation dictionary PocketSphinx needs for dictation, generated on first use
 * from the project's vocabulary (vocab/: formulary, diagnoses, investigations, dictation phrasing) and the
 * phrase templates in phrases.ts, into `<cacheDir>/lm-<hash>/`:
 *
 *   corpus.txt    the training sentences, normalised (one per line)
 *   domain.arpa   trigram, interpolated Witten-Bell (arpa.ts)
 *   domain.dict   CMUdict pronunciations, plus espeak-ng's (mapped to ARPAbet): the only one for words CMUdict
 *                 lacks, an alternative for the others where it differs (lm.espeakVariants, default on: a
 *                 second, independent pronunciation; CMUdict's is American citation form, and one speaker's
 *                 "diabetes" or "the" often matches neither exactly)
 *   meta.json     what went in: counts, words without a pronunciation (left out), the hash
 *
 * The hash covers the generator version and the corpus, so a changed vocabulary builds a new model and an unchanged
 * one reuses the cache. Nothing is committed to the repository. Building takes about 5 s on 2 cores.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { normalizeSentences, normalizeWords } from '../text.js';
import { buildNgramModel, toArpa } from './arpa.js';
import { espeakPronunciations, readCmudict, toDictText } from './dict.js';
import { generateNarrativePhrases } from './narrative.js';
import { generateDictationPhrases } from './phrases.js';

/** Bump when the generator changes in a way that changes its output. */
export const LM_GENERATOR_VERSION = 3;
export const DEFAULT_CMUDICT = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

export interface SpeechVocabulary {
  drugs: readonly string[];
  diagnoses: readonly string[];
  investigations: readonly string[];
  /** Presenting complaints as patients and doctors say them. */
  symptoms?: readonly string[];
  /** Whole dictation-style phrases. */
  phrases: readonly string[];
}

export interface DomainModelOptions {
  cacheDir: string;
  vocabulary: SpeechVocabulary;
  cmudictPath?: string;
  espeakBinary?: string;
  /** Templated sentences to generate, of each kind: dictated notes and narrative/conversation (default 20000). */
  generatedSentences?: number;
  /** Model shape (for experiments; part of the cache key). espeakVariants: espeak-ng's pronunciation of every word, as an alternative. */
  lm?: { order?: number; boost?: number; dedupe?: boolean; espeakVariants?: boolean };
}

export interface DomainModelMeta {
  hash: string;
  generatorVersion: number;
  sentences: number;
  words: number;
  ngrams: number[];
  /** Words espeak-ng pronounced (all of them with espeakVariants, else those CMUdict lacks). */
  generatedPronunciations: number;
  /** CMUdict words given espeak-ng's pronunciation as an alternative (it differed from all of CMUdict's). */
  espeakVariants: number;
  /** Words nobody could pronounce: the sentences holding them were left out. */
  unpronounceable: string[];
}

export interface DomainModel {
  dir: string;
  lmPath: string;
  dictPath: string;
  meta: DomainModelMeta;
}

/** The training sentences, normalised, in a stable order. */
export function buildCorpus(vocab: SpeechVocabulary, generated = 20_000): string[][] {
  const lines: string[] = [
    ...vocab.phrases,
    ...vocab.drugs,
    ...vocab.diagnoses,
    ...vocab.investigations,
    ...(vocab.symptoms ?? []),
    ...generateDictationPhrases(vocab, generated),
    ...generateNarrativePhrases(vocab, generated),
  ];
  const out: string[][] = [];
  for (const line of lines) for (const s of normalizeSentences(line)) out.push(s);
  return out;
}

const building = new Map<string, Promise<DomainModel>>();

export async function ensureDomainModel(opts: DomainModelOptions): Promise<DomainModel> {
  // Names in the vocabulary can come with punctuation and digits ("Vitamin B12", "co-amoxiclav"): normalise first.
  const vocab: SpeechVocabulary = {
    drugs: opts.vocabulary.drugs.map((d) => normalizeWords(d).join(' ')).filter(Boolean),
    diagnoses: opts.vocabulary.diagnoses.map((d) => normalizeWords(d).join(' ')).filter(Boolean),
    investigations: opts.vocabulary.investigations.map((d) => normalizeWords(d).join(' ')).filter(Boolean),
    symptoms: (opts.vocabulary.symptoms ?? []).map((d) => normalizeWords(d).join(' ')).filter(Boolean),
    phrases: opts.vocabulary.phrases,
  };
  const corpus = buildCorpus(vocab, opts.generatedSentences);
  const cmudict = opts.cmudictPath ?? DEFAULT_CMUDICT;
  const text = corpus.map((s) => s.join(' ')).join('\n');
  const shape = { order: 3, boost: 1, dedupe: false, espeakVariants: true, ...opts.lm };
  const hash = createHash('sha256').update(`v${LM_GENERATOR_VERSION}\n${JSON.stringify(shape)}\n${cmudict}\n${text}`).digest('hex').slice(0, 16);
  const dir = join(opts.cacheDir, `lm-${hash}`);
  const metaPath = join(dir, 'meta.json');
  const result = (meta: DomainModelMeta): DomainModel => ({ dir, lmPath: join(dir, 'domain.arpa'), dictPath: join(dir, 'domain.dict'), meta });
  if (existsSync(metaPath)) return result(JSON.parse(await readFile(metaPath, 'utf8')) as DomainModelMeta);

  let pending = building.get(dir);
  if (!pending) {
    pending = (async () => {
      const cmu = await readCmudict(cmudict).catch((e: NodeJS.ErrnoException) => {
        throw new Error(`The pronunciation dictionary ${cmudict} could not be read (${e.code ?? e.message}); install pocketsphinx-en-us`);
      });
      const words = new Set<string>();
      for (const s of corpus) for (const w of s) words.add(w);
      const missing = [...words].filter((w) => !cmu.has(w)).sort();
      const toSpeak = shape.espeakVariants ? [...words].sort() : missing;
      const generated = toSpeak.length ? await espeakPronunciations(toSpeak, opts.espeakBinary) : new Map<string, string>();
      const unpronounceable = missing.filter((w) => !generated.has(w));
      const bad = new Set(unpronounceable);
      let sentences = bad.size ? corpus.filter((s) => !s.some((w) => bad.has(w))) : corpus;
      if (shape.dedupe) sentences = [...new Map(sentences.map((s) => [s.join(' '), s])).values()];
      const model = buildNgramModel(sentences, { order: shape.order, boost: shape.boost });
      const entries = new Map<string, string[]>();
      let variants = 0;
      for (const w of model.grams[0]!.keys()) {
        if (w === '<s>' || w === '</s>') continue;
        const known = cmu.get(w) ?? [];
        const spoken = generated.get(w);
        const p = spoken && !known.includes(spoken) ? [...known, spoken] : known;
        if (known.length && p.length > known.length) variants++;
        if (p.length) entries.set(w, p);
      }
      const meta: DomainModelMeta = {
        hash,
        generatorVersion: LM_GENERATOR_VERSION,
        sentences: sentences.length,
        words: entries.size,
        ngrams: model.grams.map((g) => g.size),
        generatedPronunciations: generated.size,
        espeakVariants: variants,
        unpronounceable,
      };
      // Write into a private directory, then rename: a half-built model is never seen, and two processes
      // building the same model at once both end up with a whole one.
      await mkdir(opts.cacheDir, { recursive: true });
      const tmp = join(opts.cacheDir, `.lm-${hash}.${randomUUID().slice(0, 8)}.tmp`);
      await mkdir(tmp);
      try {
        await writeFile(join(tmp, 'corpus.txt'), `${sentences.map((s) => s.join(' ')).join('\n')}\n`);
        await writeFile(join(tmp, 'domain.arpa'), toArpa(model));
        await writeFile(join(tmp, 'domain.dict'), toDictText(entries));
        await writeFile(join(tmp, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
        await rename(tmp, dir).catch(async (e: NodeJS.ErrnoException) => {
          if (!existsSync(metaPath)) throw e;
        });
      } finally {
        await rm(tmp, { recursive: true, force: true });
      }
      return result(meta);
    })().finally(() => building.delete(dir));
    building.set(dir, pending);
  }
  return pending;
}
