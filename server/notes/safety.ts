import type { ClinicalFacts } from '../clinical-nlp/facts.js';
import { checkSafety } from '../clinical-nlp/safety.js';
import { KEPT_WITH_REASON, RECHECKED } from './app-shapes.js';
import type { Emr, EmrFlag, FlagResolution } from './schemas.js';

/**
 * The scribe's safety checks (server/clinical-nlp/safety.ts) run again on what the doctor saves, and what that does
 * to the note's flags (issue 24, items 1-3). The structurer is not changed for it: this is the notes side's adapter.
 */

/** A flag resolution as recorded: what the doctor said about it, who and when, and the flag's sentence then. */
export interface RecordedResolution extends FlagResolution {
  by: string;
  at: string;
  /** The flag's message when it was resolved: a "kept" holds for that finding, not for another at the same place. */
  message?: string;
}

export const flagKey = (f: { code: string; pointer: string }) => `${f.code} ${f.pointer}`;

/** The structurer's facts back from an EMR JSON: for the clinical notes of a signed note, and for the checks. */
export function factsOf(emr: Emr): ClinicalFacts {
  return {
    locale: emr.language,
    complaints: emr.chief_complaints,
    history: emr.history,
    vitals: emr.vitals,
    examination: emr.examination,
    diagnoses: emr.diagnoses.map((d) => {
      const icd10 = d.codes.find((c) => c.system === 'ICD-10');
      return { name: d.name, certainty: d.certainty, ...(d.evidence ? { evidence: d.evidence } : {}), ...(icd10 ? { icd10 } : {}) };
    }),
    medications: emr.medications,
    investigations: emr.investigations.map((i) => {
      const loinc = i.codes?.find((c) => c.system === 'LOINC')?.code;
      return { name: i.name, ...(i.evidence ? { evidence: i.evidence } : {}), ...(loinc ? { loinc } : {}) };
    }),
    advice: emr.advice,
    ...(emr.follow_up ? { follow_up: emr.follow_up } : {}),
    evidence: { vitals: {}, advice: [], allergies: [] },
    // Every flag of a signed note was resolved by the doctor: nothing is left to "check before use".
    flags: [],
  };
}

/**
 * What the scribe's checks find in the note as it is now, with the note's and the patient record's allergies. The
 * name the doctor typed is what is prescribed, so how the scribe matched the heard one no longer counts (an
 * unrecognised name corrected to amoxicillin is checked as amoxicillin). Strength corrections are the scribe's
 * business: here the doctor's value stays and is only flagged.
 */
export function findings(emr: Emr, patientAllergies: string[]): EmrFlag[] {
  const facts = factsOf(emr);
  const medications = emr.medications.map(({ match: _match, heard: _heard, ...m }) => m);
  return checkSafety({ ...facts, medications }, { patientAllergies }).flags
    .filter((f) => RECHECKED.has(f.code))
    .map((f) => ({ code: f.code, message: f.message, pointer: f.pointer }));
}

/** A value as text whatever the order of its keys, so that an item is "changed" only when what it says changed. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** The item a flag is about: "/medications/2/strength" is about "/medications/2". */
function itemAt(emr: Emr | null, pointer: string): string | undefined {
  if (!emr) return undefined;
  const parts = pointer.split('/').slice(1);
  const depth = parts[0] === 'history' ? 3 : parts[0] === 'follow_up' ? 1 : 2;
  let v: unknown = emr;
  for (const p of parts.slice(0, depth)) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return canonical(v);
}

export interface Settled {
  /** Every flag of the note, each with its resolution, who and when (and why, for a reasoned "kept") when resolved. */
  flags: EmrFlag[];
  /** The resolutions to keep with the note. */
  resolutions: RecordedResolution[];
  /** Flags still to resolve, as "CODE /pointer: sentence". */
  open: string[];
  /** "kept" given without the reason its flag needs, as "CODE /pointer". */
  unreasoned: string[];
}

interface SettleInput {
  /** What the carried flags were raised on: the scribe's draft, or the version being amended. */
  base: Emr | null;
  carried: EmrFlag[];
  /** What is being saved, and what the checks find in it (`findings`). */
  emr: Emr;
  found: EmrFlag[];
  earlier: RecordedResolution[];
  given: FlagResolution[];
  who: { by: string; at: string };
}

/**
 * The note's flags after a save. A flag the checks can run again is resolved as edited only by a change of its item
 * that removes its cause (another drug, a corrected dose): editing the item without removing the cause leaves it
 * open, whatever the client says, and an item changed into another finding at the same place reopens it with the
 * new sentence. Kept as is holds for the sentence it was given for. A finding the checks make on the doctor's own
 * edits is a new flag, resolved like the scribe's. Other flags are resolved as the client says, as before.
 */
export function settle({ base, carried, emr, found, earlier, given, who }: SettleInput): Settled {
  const givenBy = new Map(given.map((g) => [flagKey(g), g]));
  const earlierBy = new Map(earlier.map((r) => [flagKey(r), r]));
  const foundBy = new Map(found.map((f) => [flagKey(f), f]));
  const flags: EmrFlag[] = [];
  const resolutions: RecordedResolution[] = [];
  const open: string[] = [];
  const unreasoned: string[] = [];

  const record = (f: EmrFlag, r: RecordedResolution) => {
    resolutions.push({ ...r, message: f.message });
    flags.push({
      ...f, resolution: r.resolution, resolved_by: r.by, resolved_at: r.at, ...(r.reason ? { resolution_reason: r.reason } : {}),
    });
  };
  /** The resolution said now, or the one said before (keeping its first who and when), if `allowed` takes it. */
  const resolve = (f: EmrFlag, allowed: (r: FlagResolution, earlierMessage?: string) => boolean) => {
    const key = flagKey(f);
    const before = earlierBy.get(key);
    const now = givenBy.get(key);
    const beforeFits = before && (before.message === undefined || before.message === f.message) && allowed(before, before.message) ? before : undefined;
    if (now && allowed(now)) {
      const sameAsBefore = beforeFits && beforeFits.resolution === now.resolution && (now.reason === undefined || now.reason.trim() === beforeFits.reason);
      if (sameAsBefore) return record(f, beforeFits);
      const reason = now.reason?.trim();
      if (now.resolution === 'kept' && KEPT_WITH_REASON.has(f.code) && !reason) return void unreasoned.push(key);
      return record(f, { code: f.code, pointer: f.pointer, resolution: now.resolution, ...(reason ? { reason } : {}), ...who });
    }
    if (beforeFits) return record(f, beforeFits);
    flags.push({ code: f.code, message: f.message, pointer: f.pointer });
    open.push(`${key}: ${f.message}`);
  };
  const anyResolution = () => true;
  const keptOnly = (r: FlagResolution) => r.resolution === 'kept';

  const seen = new Set<string>();
  for (const c of carried) {
    const key = flagKey(c);
    if (seen.has(key)) continue;
    seen.add(key);
    const flag: EmrFlag = { code: c.code, message: c.message, pointer: c.pointer };
    if (!RECHECKED.has(c.code)) {
      resolve(flag, anyResolution);
      continue;
    }
    const changed = itemAt(base, c.pointer) !== itemAt(emr, c.pointer);
    const still = foundBy.get(key);
    if (still) resolve(changed ? { ...flag, message: still.message } : flag, keptOnly);
    else if (changed) {
      const before = earlierBy.get(key);
      record(flag, before?.resolution === 'edited' ? before : { code: c.code, pointer: c.pointer, resolution: 'edited', ...who });
    } else resolve(flag, anyResolution);
  }
  for (const f of found) {
    if (seen.has(flagKey(f))) continue;
    seen.add(flagKey(f));
    resolve(f, keptOnly);
  }
  return { flags, resolutions, open, unreasoned };
}
