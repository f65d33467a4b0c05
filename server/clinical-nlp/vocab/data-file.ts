/**
 * Vocabularies and clinical rules are data files (JSON beside this module) that clinicians can read and extend.
 * Each declares its shape once, as a TypeBox schema: the same declaration checks the file when it loads and types
 * it for the code, so a malformed edit fails at start-up (and in test/clinical-nlp/vocab-data.test.ts) with the path of the bad
 * value instead of producing wrong facts.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';

/** Every data file names where its content comes from and under which licence. */
export const Provenance = {
  source: Type.String({ minLength: 1 }),
  licence: Type.String({ minLength: 1 }),
};

/** A list of words or phrases, none empty. */
export const Words = Type.Array(Type.String({ minLength: 1 }));

export class DataFileError extends Error {}

/** The file's content typed by `schema`, or a DataFileError naming the file and the first bad values. */
export function checkedData<S extends TSchema>(name: string, schema: S, data: unknown): Static<S> {
  if (Compile(schema).Check(data)) return data as Static<S>;
  const errors = [...Value.Errors(schema, data)].slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
  throw new DataFileError(`${name}: ${errors.join('; ')}`);
}
