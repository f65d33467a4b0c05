/**
 * The generated domain language model and dictionary: a well-formed back-off model whose distributions sum to
 * one, pronunciations for words CMUdict lacks, the cache, and no dev dictation sentence anywhere in the corpus.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES, loadFixtures } from '../../eval/run.js';
import { buildNgramModel, logProb, toArpa } from '../../server/scribe/asr/lm/arpa.js';
import { ipaToArpabet } from '../../server/scribe/asr/lm/dict.js';
import { DEFAULT_CMUDICT, buildCorpus, ensureDomainModel } from '../../server/scribe/asr/lm/index.js';
import { generateDictationPhrases } from '../../server/scribe/asr/lm/phrases.js';
import { projectVocabulary } from '../../server/scribe/asr/lm/vocabulary.js';
import { normalizeSentences, normalizeWords } from '../../server/scribe/asr/text.js';
import { scoringWords, wordErrors } from '../../server/scribe/asr/wer.js';
import { missing } from '../helpers/needs.js';
import { skipFor } from '../helpers/skip.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'lm-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('n-gram model (interpolated Witten-Bell, ARPA)', () => {
  const sentences = [
    ['tab', 'paracetamol', 'twice', 'daily'],
    ['tab', 'cefixime', 'twice', 'daily'],
    ['syrup', 'paracetamol', 'once', 'daily'],
    ['review', 'after', 'three', 'days'],
  ];
  const model = buildNgramModel(sentences, { order: 3, extraVocabulary: ['metformin'] });

  it('every conditional distribution sums to one over the vocabulary', () => {
    const vocab = [...model.grams[0]!.keys()].filter((w) => w !== '<s>');
    for (const history of [[], ['<s>'], ['tab'], ['<s>', 'tab'], ['tab', 'paracetamol'], ['metformin'], ['review', 'after'], ['daily', 'tab']]) {
      const total = vocab.reduce((s, w) => s + 10 ** logProb(model, history, w), 0);
      expect(total, `history ${history.join(' ')}`).toBeCloseTo(1, 6);
    }
  });

  it('prefers what it has seen, and still allows the unseen vocabulary word', () => {
    expect(logProb(model, ['tab', 'paracetamol'], 'twice')).toBeGreaterThan(logProb(model, ['tab', 'paracetamol'], 'once'));
    expect(logProb(model, ['<s>'], 'metformin')).toBeGreaterThan(-Infinity);
  });

  it('writes the ARPA layout pocketsphinx reads', () => {
    const arpa = toArpa(model);
    const counts = model.grams.map((g) => g.size);
    expect(arpa).toMatch(new RegExp(`^\\\\data\\\\\nngram 1=${counts[0]}\nngram 2=${counts[1]}\nngram 3=${counts[2]}\n`));
    expect(arpa).toContain('\n-99\t<s>\t');
    expect(arpa.trimEnd().endsWith('\\end\\')).toBe(true);
    // Every trigram's prefix is a bigram (a back-off model's invariant).
    for (const k of model.grams[2]!.keys()) expect(model.grams[1]!.has(k.split(' ').slice(0, 2).join(' '))).toBe(true);
  });
});

describe('text normalisation and WER', () => {
  it('spells numbers, drops punctuation, keeps inner apostrophes', () => {
    expect(normalizeWords("Tab. Dolo 650mg, 1-0-1; temp 99.8°F, patient's SpO2 96%")).toEqual(
      'tab dolo six hundred fifty mg one zero one temp ninety nine point eight degrees patient\'s spo two ninety six percent'.split(' '));
    expect(normalizeSentences('Fever. BP 120/80! Review in 2 weeks.')).toEqual([['fever'], ['bp', 'one hundred twenty', 'eighty'].flatMap((x) => x.split(' ')), ['review', 'in', 'two', 'weeks']]);
  });

  it('counts substitutions, deletions and insertions', () => {
    const r = wordErrors('take one tablet daily', 'take the tablet daily please');
    expect(r).toMatchObject({ refWords: 4, substitutions: 1, deletions: 0, insertions: 1, errors: 2, wer: 0.5 });
    expect(wordErrors('a b c', '').wer).toBe(1);
  });

  it('scores an abbreviation spelled out and written whole, and British and American spellings, as the same word', () => {
    expect(scoringWords('Do C B C and LFT; anaemia, haemoglobin, diarrhoea, oedema, paediatric')).toEqual(
      ['do', 'cbc', 'and', 'lft', 'anemia', 'hemoglobin', 'diarrhea', 'edema', 'pediatric']);
    expect(wordErrors('C B C, L F T and t d s. Temp 99.8', 'cbc lft and tds temp ninety nine point eight')).toMatchObject({ refWords: 9, errors: 0 });
    // "a" and "i" are words too: never glued to the letters around them.
    expect(scoringWords('i gave a c b c')).toEqual(['i', 'gave', 'a', 'cbc']);
    // Unlike spellings still differ.
    expect(wordErrors('anaemia', 'anaesthesia').errors).toBe(1);
  });
});

describe('pronunciations', () => {
  it('maps espeak-ng IPA to ARPAbet', () => {
    expect(ipaToArpabet('ˌæ_z_ɪ_θ_ɹ_ə_m_ˈaɪ_s_ɪ_n')).toBe('AE Z IH TH R AH M AY S IH N');
    expect(ipaToArpabet('n_ˌaɪ_t_ɹ_oʊ_f_j_ˈʊɹ_ɹ_ɐ_n_t_ˌɔɪ_n')).toBe('N AY T R OW F Y UH R AH N T OY N');
    expect(ipaToArpabet('ˌɛ_m_dʒ_ˈiː')).toBe('EH M JH IY');
    expect(ipaToArpabet('q_ʡ')).toBeNull();
  });
});

describe('the project corpus', () => {
  const present = DEFAULT_FIXTURES.every((f) => existsSync(f));

  it('is generated deterministically from the vocabulary', () => {
    const v = projectVocabulary();
    expect(v.drugs.length).toBeGreaterThan(0);
    expect(generateDictationPhrases(v, 50)).toEqual(generateDictationPhrases(v, 50));
  });

  it('holds no sentence of the dev dictations (they are test data, never training data)', skipFor(present ? null : `the dev dictations are not at ${DEFAULT_FIXTURES.join(', ')}`), () => {
    const corpus = buildCorpus(projectVocabulary()).map((s) => ` ${s.join(' ')} `);
    const joined = corpus.join('\n');
    const leaks: string[] = [];
    for (const { transcript } of loadFixtures(DEFAULT_FIXTURES)) {
      for (const s of normalizeSentences(transcript)) {
        // Short formulaic sentences ("review after three days") are the phrasing we mean to teach;
        // a whole dictated sentence of eight words or more must not be there.
        if (s.length >= 8 && joined.includes(` ${s.join(' ')} `)) leaks.push(s.join(' '));
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe('ensureDomainModel', skipFor(missing('espeak-ng') ?? (existsSync(DEFAULT_CMUDICT) ? null : `${DEFAULT_CMUDICT} is absent (apt-get install -y pocketsphinx-en-us)`)), () => {
  it('builds the LM and dictionary once, covering every LM word, then reuses the cache', async () => {
    const cacheDir = tmp();
    const vocabulary = { drugs: ['Nitrofurantoin', 'ondansetron 4 mg'], diagnoses: ['acute gastroenteritis'], investigations: ['urine routine'], phrases: ['start nitrofurantoin twice daily'] };
    const m = await ensureDomainModel({ cacheDir, vocabulary, generatedSentences: 200 });
    expect(m.meta.generatedPronunciations).toBeGreaterThan(0);
    // espeak-ng's pronunciation is added to CMUdict's where it differs ("diabetes", "the", …).
    expect(m.meta.espeakVariants).toBeGreaterThan(0);
    const dict = readFileSync(m.dictPath, 'utf8');
    expect(dict).toMatch(/^nitrofurantoin [A-Z ]+$/m);
    expect(dict).toMatch(/^gastroenteritis [A-Z ]+$/m);
    const dictWords = new Set(dict.split('\n').filter(Boolean).map((l) => l.split(' ')[0]!.replace(/\(\d+\)$/, '')));
    const unigrams = readFileSync(m.lmPath, 'utf8').split('\\2-grams:')[0]!.split('\n').filter((l) => /^-?\d/.test(l)).map((l) => l.split('\t')[1]!);
    expect(unigrams.filter((w) => w !== '<s>' && w !== '</s>' && !dictWords.has(w))).toEqual([]);
    const again = await ensureDomainModel({ cacheDir, vocabulary, generatedSentences: 200 });
    expect(again.dir).toBe(m.dir);
    const other = await ensureDomainModel({ cacheDir, vocabulary: { ...vocabulary, drugs: ['metformin'] }, generatedSentences: 200 });
    expect(other.dir).not.toBe(m.dir);
  });
});
