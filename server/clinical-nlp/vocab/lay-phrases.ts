/**
 * How patients and relatives say a complaint, mapped to the name a note writes, loaded from lay-phrases.json (its
 * `about` says how phrases are matched and how to write them), with the body sites and kinds of trouble that
 * complaints are built from ("my knee is killing me" → knee pain).
 */
import { Type } from 'typebox';
import FILE from './lay-phrases.json' with { type: 'json' };
import { checkedData, Provenance, Words } from './data-file.js';

const WordMap = Type.Record(Type.String({ minLength: 1 }), Type.String({ minLength: 1 }));

export const LayPhrasesSchema = Type.Object({
  ...Provenance,
  about: Type.String(),
  complaints: Type.Array(
    Type.Object({ names: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }), phrases: Words }, { additionalProperties: false }),
  ),
  sites: WordMap,
  regionAdjectives: Words,
  siteKinds: Type.Array(
    Type.Object({ name: Type.String({ pattern: '\\{site\\}' }), words: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }) }, { additionalProperties: false }),
  ),
  sitePainNames: WordMap,
  notComplaints: Words,
  askedWell: Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), asked: Words }, { additionalProperties: false })),
  resultWords: Words,
});

const DATA = checkedData('lay-phrases.json', LayPhrasesSchema, FILE);

export interface LayPhrase {
  /** The complaint names, usually one. */
  names: string[];
  phrases: string[];
}

export const LAY_PHRASES: readonly LayPhrase[] = DATA.complaints;

/** Body sites as people name them → the word a note uses. */
export const SITES: Readonly<Record<string, string>> = DATA.sites;

/** Sites named by an adjective, which goes before the kind's noun ("rectal itching", not "itching of rectal"). */
export const REGION_ADJECTIVES: ReadonlySet<string> = new Set(DATA.regionAdjectives);

/**
 * Kinds of trouble said as a verb or adjective next to a site, with how the note names site and kind together.
 * `{site}` is the site's word with its side ("left ear", "both feet").
 */
export const SITE_KINDS: readonly { words: string[]; name: string }[] = DATA.siteKinds;

/** A site's pain that a note names differently from "{site} pain". */
export const SITE_PAIN_NAMES: Readonly<Record<string, string>> = DATA.sitePainNames;

/** Phrases holding a complaint's word that say something else ("in the fall", "the back of my heel"). */
export const NOT_COMPLAINTS: readonly string[] = DATA.notComplaints;

/** Words that make a complaint described in the note's words a test's result ("a bone scan that showed a lesion"). */
export const RESULT_WORDS: readonly string[] = DATA.resultWords;

/** What the doctor asks is going well ("are you sleeping well?"), with the complaint an answer of no tells. */
export const ASKED_WELL: readonly { name: string; asked: string[] }[] = DATA.askedWell;
