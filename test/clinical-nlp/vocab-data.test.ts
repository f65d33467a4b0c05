import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { checkedData, DataFileError } from '../../server/clinical-nlp/vocab/data-file.js';
import { DrugClassesSchema, DrugDosesSchema } from '../../server/clinical-nlp/vocab/drug-knowledge.js';
import { FORMULARY_FILES, FormularyAreaSchema, UsUkSchema } from '../../server/clinical-nlp/vocab/formulary.js';
import { Icd10Schema } from '../../server/clinical-nlp/vocab/icd10.js';
import { InvestigationsSchema } from '../../server/clinical-nlp/vocab/investigations.js';
import { LayPhrasesSchema } from '../../server/clinical-nlp/vocab/lay-phrases.js';
import { PhrasesSchema } from '../../server/clinical-nlp/vocab/phrases.js';
import { SymptomsSchema } from '../../server/clinical-nlp/vocab/symptoms.js';

const VOCAB = fileURLToPath(new URL('../../server/clinical-nlp/vocab/', import.meta.url));

/** The file as it is on disk, not as a module cache holds it. */
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(VOCAB + file, 'utf8')) as Record<string, unknown>;

/** Each vocabulary file this test owns with the schema its loader checks it by. */
const SCHEMAS: Record<string, TSchema> = {
  'symptoms.json': SymptomsSchema,
  'lay-phrases.json': LayPhrasesSchema,
  'phrases.json': PhrasesSchema,
  'drug-classes.json': DrugClassesSchema,
  'drug-doses.json': DrugDosesSchema,
  'drugs-us-uk.json': UsUkSchema,
  'icd10.json': Icd10Schema,
  'investigations.json': InvestigationsSchema,
  ...Object.fromEntries(Object.keys(FORMULARY_FILES).map((f) => [`formulary/${f}`, FormularyAreaSchema])),
};

/** A malformed edit of each file (as a clinician might make one) and the path the refusal must name. */
const BROKEN: Record<string, [(data: any) => void, string]> = {
  'symptoms.json': [(d) => (d.symptoms[3].variants = 'cough,coughing'), '/symptoms/3/variants'],
  'lay-phrases.json': [(d) => (d.complaints[0].names = []), '/complaints/0/names'],
  'phrases.json': [(d) => (d.patterns[7] = 'diagnosis {disease}'), '/patterns/7'],
  'drug-classes.json': [(d) => (d.classes[2].allergy = 'yes'), '/classes/2/allergy'],
  'drug-doses.json': [(d) => (d.doses[1].maxDaily = { oral: '4g' }), '/doses/1/maxDaily/oral'],
  'drugs-us-uk.json': [(d) => (d.drugs[0].brand = ['tylenol']), '/drugs/0'],
  'icd10.json': [(d) => (d.entries[0].code = 'J06-9'), '/entries/0/code'],
  'investigations.json': [(d) => (d.groups[0].tests[0].loinc = '58410'), '/groups/0/tests/0/loinc'],
  ...Object.fromEntries(
    Object.keys(FORMULARY_FILES).map((f): [string, [(data: any) => void, string]] => [`formulary/${f}`, [(d) => (d.drugs[1].strengths = ['5 mg']), '/drugs/1/strengths/0']]),
  ),
};

describe('vocabulary data files', () => {
  it('names the source and the licence of every data file', () => {
    const files = readdirSync(VOCAB, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(Object.keys(SCHEMAS).length);
    for (const f of files) {
      const data = read(f);
      expect(String(data.source ?? '').length, f).toBeGreaterThan(20);
      expect(String(data.licence ?? '').length, f).toBeGreaterThan(5);
      expect(String(data.about ?? '').length, f).toBeGreaterThan(40);
    }
  });

  it.each(Object.keys(SCHEMAS))('checks %s by its schema', (file) => {
    expect(() => checkedData(file, SCHEMAS[file]!, read(file))).not.toThrow();
  });

  it('gives every ICD-10 name one code', () => {
    const codes = new Map<string, string[]>();
    for (const e of read('icd10.json').entries as { code: string; synonyms: string[] }[]) for (const s of e.synonyms) codes.set(s, [...(codes.get(s) ?? []), e.code]);
    expect([...codes].filter(([, c]) => c.length > 1)).toEqual([]);
  });

  it.each(Object.keys(BROKEN))('refuses a malformed %s, naming the file and the bad value', (file) => {
    const [breakIt, path] = BROKEN[file]!;
    const data = read(file);
    breakIt(data);
    expect(() => checkedData(file, SCHEMAS[file]!, data)).toThrow(DataFileError);
    expect(() => checkedData(file, SCHEMAS[file]!, data)).toThrow(new RegExp(`^${file}: .*${path}`));
  });
});
