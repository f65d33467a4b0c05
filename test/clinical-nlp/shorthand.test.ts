/**
 * Prescription shorthand (vocab/abbreviations.json) as the normaliser rewrites it into the words the medication
 * parser reads: Latin frequencies with and without full stops, hour intervals, course lengths, single doses, routes
 * and units, each keeping the span of what was written. Words that only look like shorthand stay as they are.
 */
import { describe, expect, it } from 'vitest';
import { ABBREVIATIONS, normalizeMapped, normalizeText } from '../../server/clinical-nlp/lexicon.js';
import { Mapped } from '../../server/clinical-nlp/mapped.js';
import { structure } from '../../server/clinical-nlp/structure.js';

describe('abbreviations data', () => {
  it('names its source and licence and gives every rule an id and a reading', () => {
    expect(ABBREVIATIONS.source.length).toBeGreaterThan(20);
    expect(ABBREVIATIONS.licence).toBeTruthy();
    for (const r of [...ABBREVIATIONS.dotted, ...ABBREVIATIONS.words]) {
      expect(r.id).toMatch(/^[a-z-]+$/);
      expect(r.as.trim()).toBe(r.as);
      expect(r.written.length).toBeGreaterThan(0);
    }
  });

  it('reads every dotted form, upper or lower case, with or without its last stop', () => {
    for (const d of ABBREVIATIONS.dotted) {
      for (const w of d.written) {
        for (const form of [w, w.toUpperCase(), w.replace(/\.$/, '')]) {
          expect(normalizeText(`take 1 tablet ${form} for now`), form).toBe(`take 1 tablet ${d.alone ?? d.as} for now`);
          expect(normalizeText(`take 1 tablet every ${form} for now`), form).toBe(`take 1 tablet every ${d.as} for now`);
        }
      }
    }
  });

  it('reads every undotted word where its context allows', () => {
    for (const w of ABBREVIATIONS.words) {
      const lead = w.after === 'frequency' ? 'take 1 tablet bid' : w.notAfter ? 'well' : 'take 10 mg';
      const follow = w.before ? ` ${w.before.find((b) => b !== '*ing')}` : '';
      for (const form of w.written) expect(normalizeText(`${lead} ${form}${follow}`), form).toBe(`${lead} ${w.as}${follow}`);
    }
  });
});

describe('shorthand in context', () => {
  it.each([
    ['Keflex 500 mg p.o. q.i.d. x10 days.', 'keflex 500 mg po qid for 10 days.'],
    ['Tylenol 650 mg PO q4-6h p.r.n. pain', 'tylenol 650 mg po every 4 hours prn pain'],
    ['Motrin 600 mg every 6 to 8 hours', 'motrin 600 mg every 6 hours'],
    ['ibuprofen four to six hourly', 'ibuprofen every 4 hours'],
    ['oxycodone 5 mg q 6 hrs prn', 'oxycodone 5 mg every 6 hours prn'],
    ['amoxicillin 500 mg t.d.s. for 5/7', 'amoxicillin 500 mg tid for 5 days'],
    ['prednisolone 40 mg od x 1 week', 'prednisolone 40 mg od for 1 week'],
    ['doxycycline 100 mg bid times two weeks', 'doxycycline 100 mg bid for 2 weeks'],
    ['cefuroxime 500 mg bd x7d', 'cefuroxime 500 mg bd for 7 days'],
    ['Rocephin 1 g IM x 1', 'rocephin 1 g im once only'],
    ['Solu-Medrol 125 mg IM X 1. Continue the rest', 'solu medrol 125 mg im once only. continue the rest'],
    ['ceftriaxone 250 mg IM times one today', 'ceftriaxone 250 mg im once only today'],
    ['amitriptyline 10 mg q.h.s.', 'amitriptyline 10 mg at bedtime.'],
    ['levothyroxine 50 mcg qam, atorvastatin 20 mg qpm', 'levothyroxine 50 mcg every morning, atorvastatin 20 mg every evening'],
    ['methotrexate 15 mg qweek', 'methotrexate 15 mg weekly'],
    ['nitroglycerin 0.4 mg SL q5 min', 'nitroglycerin 0.4 mg sublingual q5 min'],
    ['insulin glargine 20 units subq qhs', 'insulin glargine 20 units subcutaneous at bedtime'],
    // The word ending the line, before its full stop: not a letter of a dotted form.
    ['Tamsulosin 0.4 mg qhs.', 'tamsulosin 0.4 mg at bedtime.'],
    ['Levothyroxine 50 mcg qAM.', 'levothyroxine 50 mcg every morning.'],
    ['Omeprazole 20 mg AC breakfast.', 'omeprazole 20 mg before breakfast.'],
    ['Vitamin D 50,000 IU weekly', 'vitamin d 50,000 iu weekly'],
    ['metformin 500 mg tid a.c.', 'metformin 500 mg tid before meals.'],
    ['insulin 10 u before meals, syrup 5 cc', 'insulin 10 units before meals, syrup 5 ml'],
    ['Maxzide 75/50 mg daily', 'maxzide 75 mg/50 mg daily'],
    ['K-Dur 10-mEq once a day', 'k dur 10 meq once a day'],
    ['potassium chloride twenty milliequivalents daily', 'potassium chloride 20 meq daily'],
    ['5 mls of syrup', '5 ml of syrup'],
    ['for the next three to five days', 'for the next 5 days'],
    ['for the next couple of weeks', 'for the next 2 weeks'],
    ['pain for three, four months', 'pain for 4 months'],
    ['im going to start you on lisinopril', "i'm going to start you on lisinopril"],
    ['im not sure', "i'm not sure"],
    ['tylenol q four h p r n', 'tylenol every 4 hours prn'],
    ['amoxicillin five hundred b i d times seven days', 'amoxicillin 500 bid for 7 days'],
    ['10 mg every a.m. and 5 mg at 8 p.m.', '10 mg every morning and 5 mg at 8 pm.'],
    ['one tablet a.m. and one tablet p.m.', '1 tablet in the morning and 1 tablet in the evening.'],
    ['Lasix 40 mg in the a.m.', 'lasix 40 mg in the morning.'],
    ['Propranolol 40 mg, take half a tablet at night', 'propranolol 40 mg, take 0.5 tablet at night'],
    ['he drank half a bottle', 'he drank half a bottle'],
    ['Continue Flagyl, evaluation Dr. X in a.m.', 'continue flagyl, evaluation dr x in morning.'],
    ['1 drop o.u. b.i.d. for 1 week', '1 drop both eyes bid for 1 week'],
    ['anti-inflammatories, e.g. ibuprofen', 'anti inflammatories, for example ibuprofen'],
    ['referred to Dr. Jones vs. Dr. Patel', 'referred to dr jones vs dr patel'],
    ['Tylenol No. 3 q.i.d.', 'tylenol no 3 qid.'],
  ])('%s', (text, normal) => {
    expect(normalizeText(text)).toBe(normal);
  });

  it.each([
    ['he made a bid for the job', 'he made a bid for the job'],
    ['I gave a bid. He left', 'i gave a bid. he left'],
    ['Dr. H. Smith saw him', 'dr h. smith saw him'],
    ['she said no. Then she left', 'she said no. then she left'],
    ['a 2 x 1 cm lesion', 'a 2 x 1 cm lesion'],
    ['fever times zero', 'fever times 0'],
    ['BP 120/80, pulse 72', 'bp 120/80, pulse 72'],
    ['day 1, 10 days later', 'day 1, 10 days later'],
    ['she sat at the pc all day', 'she sat at the pc all day'],
    ['the sl joint', 'the sl joint'],
    ['give ceftriaxone im now', 'give ceftriaxone im now'],
    ['ceftriaxone 1 g im in the deltoid', 'ceftriaxone 1 g im in the deltoid'],
    ['a couple of times', 'a couple of times'],
    ['3 times 2 weeks', '3 times 2 weeks'],
  ])('leaves "%s" alone', (text, normal) => {
    expect(normalizeText(text)).toBe(normal);
  });

  it('keeps a full stop that also ends the sentence, and drops one before a lower-case word', () => {
    expect(normalizeText('Lisinopril 10 mg q.d. Return in 2 weeks')).toBe('lisinopril 10 mg daily. return in 2 weeks');
    expect(normalizeText('Tylenol p.r.n. pain')).toBe('tylenol prn pain');
    expect(normalizeText('Zofran 4 mg q.8h. Then stop')).toBe('zofran 4 mg every 8 hours. then stop');
  });

  it('points each rewritten word at what was written', () => {
    const raw = 'Keflex 500 mg p.o. q.i.d. x10 days';
    const m = normalizeMapped(Mapped.of(raw));
    const at = (word: string): string => {
      const i = m.text.indexOf(word);
      const { start, end } = m.source(i, i + word.length);
      return raw.slice(start, end);
    };
    expect(at('qid')).toBe('q.i.d.');
    expect(at('po')).toBe('p.o.');
    expect(at('for 10 days')).toBe('x10 days');
  });
});

describe('shorthand through the structurer', () => {
  const med = (text: string) => {
    const m = structure(text, { locale: 'en-US' }).medications[0];
    return m && { name: m.name, per_day: m.frequency?.per_day ?? null, as_needed: m.frequency?.as_needed ?? false, duration: m.duration ?? null, route: m.route ?? null };
  };

  it.each([
    ['Keflex 500 mg p.o. q.i.d. x10 days.', { name: 'cephalexin', per_day: 4, as_needed: false, duration: { value: 10, unit: 'day' }, route: 'oral' }],
    ['Doxycycline 100 mg b.i.d. times two weeks.', { name: 'doxycycline', per_day: 2, as_needed: false, duration: { value: 2, unit: 'week' }, route: null }],
    ['Solu-Medrol 125 mg IM x 1.', { name: 'methylprednisolone', per_day: 1, as_needed: false, duration: { value: 1, unit: 'day' }, route: 'intramuscular' }],
    ['Tylenol 650 mg p.o. q.4-6h. p.r.n. pain.', { name: 'acetaminophen', per_day: 6, as_needed: true, duration: null, route: 'oral' }],
  ])('%s', (text, expected) => {
    expect(med(text)).toEqual(expected);
  });
});

describe('a 12-hour formulation is not a vitamin-like name', () => {
  it('keeps "Allegra-D 12 hour" the combination brand, and still joins "b 12"', async () => {
    const { normalizeText } = await import('../../server/clinical-nlp/lexicon.js');
    expect(normalizeText('Allegra-D 12 hour')).toBe('allegra d 12 hour');
    expect(normalizeText('b 12 injection')).toBe('b12 injection');
  });
});

describe('spelled letters and the article of a rate (session 50)', () => {
  it('"vitamin D a day" keeps "a" a word before a unit of time; spelled names still join', () => {
    expect(normalizeText('400 U of vitamin D a day')).toBe('400 units of vitamin d a day');
    expect(normalizeText('vitamin d a week')).toBe('vitamin d a week');
    expect(normalizeText('c a b g reports')).toBe('cabg reports');
  });
});
