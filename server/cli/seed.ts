/**
 * `npm run seed -- --data-dir D --patients N [--workspace ID] [--seed S]`: adds N synthetic patients to a clinic,
 * for demos, load tests and the search benchmark (bench/search.ts imports `seedPatients` from here).
 *
 * - The data directory must be named (--data-dir or CLINIC_DESK_DATA_DIR): there is deliberately no default, so
 *   a million invented people never land in the real ~/.clinic-desk by accident.
 * - The clinic is --workspace ID, or else the first workspace by creation. A database with no workspace at all
 *   gets the two demo clinics first (exactly what `npm run serve -- --demo` creates, credentials in
 *   demo-credentials.json with a placeholder base_url that the next `serve --demo` corrects), and the patients go
 *   to the first of them.
 * - --seed makes the people reproducible: the same seed and the same day give the same rows (ids included; ages
 *   and registration dates count back from today). Without --seed a random one is used and printed. A row whose
 *   id or identity (mobile, names, dob) is already in the clinic is skipped and generation goes on until N rows
 *   were added, so running the same seed twice adds the next N people, not the same ones again.
 *
 * What the people look like: names from server/demo/names.ts with given and middle names that fit the gender
 * (a few patients are 'O'); ages 0-95 shaped like a general practice's list; Indian mobiles (+91, 10 digits
 * starting 6-9); about a fifth of patients share their mobile with family members of the same family name
 * (couples with children); about a third of adults have an email, always under the reserved example.com/.net/.org
 * domains so that nothing can ever reach a real person; registration times spread over the past ten years, more
 * of them recent, never before the patient was born.
 *
 * Speed: rows go in through multi-row INSERTs of 500 (patients/store.ts, insertManyOrIgnore) in transactions of
 * 50,000, sorted by id within each, with a 1 GiB page cache for the duration (restored afterwards). Durability is
 * untouched: every batch commits with the synchronous=FULL of the normal open, so an interrupted seed leaves whole
 * batches, never a damaged database. Running it against the data
 * directory of a live service works (WAL), but each batch holds the write lock for a second or so.
 */
import { sql } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_PORT } from '../config.js';
import { ensureDemo } from '../demo/demo.js';
import { FAMILY, GIVEN_F, GIVEN_M, MIDDLE } from '../demo/names.js';
import type { PatientRow } from '../patients/store.js';
import { createService, type Service } from '../service.js';

type NewPatient = Omit<PatientRow, 'workspace_id'>;

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness: sfc32 seeded through splitmix32. Fast, and plenty good for synthetic data.

export type Rng = () => number;

/** A 32-bit seed from any text ("42", "bench", ...). */
export const seedFromText = (text: string) => createHash('sha256').update(text).digest().readUInt32LE(0);

export function rng(seed: number): Rng {
  let s = seed >>> 0;
  const splitmix = () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix(), b = splitmix(), c = splitmix(), d = splitmix();
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return () => next() / 4294967296;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A version 4 UUID whose random bits come from `r`, so ids are reproducible too. */
function uuid(r: Rng): string {
  const w0 = (r() * 4294967296) >>> 0, w1 = (r() * 4294967296) >>> 0, w2 = (r() * 4294967296) >>> 0, w3 = (r() * 4294967296) >>> 0;
  const b = (w: number, shift: number) => HEX[(w >>> shift) & 0xff]!;
  return `${b(w0, 24)}${b(w0, 16)}${b(w0, 8)}${b(w0, 0)}-${b(w1, 24)}${b(w1, 16)}-${HEX[0x40 | ((w1 >>> 8) & 0x0f)]}${b(w1, 0)}-`
    + `${HEX[0x80 | ((w2 >>> 24) & 0x3f)]}${b(w2, 16)}-${b(w2, 8)}${b(w2, 0)}${b(w3, 24)}${b(w3, 16)}${b(w3, 8)}${b(w3, 0)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The people.

const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const int = (r: Rng, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

// Middle names that belong to one gender; '' (most people) and the rest fit either.
const FEMALE_MIDDLE = new Set(['Devi', 'Rani', 'Bai']);
const MALE_MIDDLE = new Set(['Kumar', 'Lal', 'Prasad', 'Singh', 'Chandra']);
const MIDDLE_F = MIDDLE.filter((m) => !MALE_MIDDLE.has(m));
const MIDDLE_M = MIDDLE.filter((m) => !FEMALE_MIDDLE.has(m));

// Age bands of a general practice's list: [lowest age, highest age, share].
const AGE_BANDS: [number, number, number][] = [[0, 14, 0.22], [15, 29, 0.24], [30, 44, 0.22], [45, 59, 0.17], [60, 74, 0.11], [75, 95, 0.04]];

/** Share of patients that share their mobile with family members. */
export const FAMILY_SHARE = 0.2;
// Sizes of a family on one mobile (2, 3, 4 members) and their odds; from them, the share of households with more
// than one member that makes FAMILY_SHARE of patients live in one.
const FAMILY_SIZES: [number, number][] = [[2, 0.55], [3, 0.3], [4, 0.15]];
const MEAN_FAMILY = FAMILY_SIZES.reduce((s, [n, p]) => s + n * p, 0);
const FAMILY_HOUSEHOLDS = FAMILY_SHARE / (MEAN_FAMILY - FAMILY_SHARE * (MEAN_FAMILY - 1));

const DAY = 86_400_000;
const YEAR = 365.2425 * DAY;
const REGISTRATION_YEARS = 10;
const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org'];

function age(r: Rng): number {
  let u = r();
  for (const [lo, hi, p] of AGE_BANDS) {
    if (u < p) return int(r, lo, hi);
    u -= p;
  }
  return int(r, 0, 95);
}

export interface PatientGenerator {
  /** The next household's patients (one, or a family sharing a mobile). */
  household(): NewPatient[];
}

/** Synthetic patients; `now` anchors ages and registration dates so a seed gives the same rows all day. */
export function patientGenerator(seed: number, now: Date = new Date()): PatientGenerator {
  const r = rng(seed);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

  const mobile = () => `${int(r, 6, 9)}${String(Math.floor(r() * 1e9)).padStart(9, '0')}`;

  function person(family: string, mob: string, gender: 'M' | 'F' | 'O', years: number): NewPatient {
    const female = gender === 'F' || (gender === 'O' && r() < 0.5);
    const first = pick(r, female ? GIVEN_F : GIVEN_M);
    const middle = gender === 'O' ? '' : pick(r, female ? MIDDLE_F : MIDDLE_M);
    // Born on a day that makes them `years` old today.
    const born = today - years * YEAR - Math.floor(r() * 365) * DAY;
    const dob = new Date(Math.min(born, today)).toISOString().slice(0, 10);
    // Registered some time in the last ten years, more of them recently, and not before birth.
    const from = Math.max(Date.parse(`${dob}T00:00:00Z`), today - REGISTRATION_YEARS * YEAR);
    const created = from + Math.sqrt(r()) * (now.getTime() - from);
    const updated = r() < 0.15 ? created + r() * (now.getTime() - created) : created;
    const email = years >= 18 && r() < 0.35
      ? `${first.toLowerCase()}.${family.toLowerCase()}${r() < 0.6 ? int(r, 1, 999) : ''}@${pick(r, EMAIL_DOMAINS)}`
      : null;
    return {
      id: uuid(r), first_name: first, middle_name: middle, last_name: family, dob, gender, mobile_cc: '91',
      mobile_national: mob, email, created_at: new Date(created).toISOString(), updated_at: new Date(updated).toISOString(),
    };
  }

  function household(): NewPatient[] {
    const family = pick(r, FAMILY);
    const mob = mobile();
    if (r() >= FAMILY_HOUSEHOLDS) {
      const g = r();
      return [person(family, mob, g < 0.003 ? 'O' : g < 0.5015 ? 'F' : 'M', age(r))];
    }
    let u = r(), size = FAMILY_SIZES[FAMILY_SIZES.length - 1]![0];
    for (const [n, p] of FAMILY_SIZES) {
      if (u < p) { size = n; break; }
      u -= p;
    }
    // A couple, then children born when the younger parent was 18 to 45.
    const headAge = int(r, 24, 70);
    const headGender = r() < 0.5 ? 'F' : 'M';
    const spouseAge = Math.max(19, headAge + (headGender === 'M' ? -int(r, 0, 7) : int(r, 0, 7)));
    const members = [person(family, mob, headGender, headAge), person(family, mob, headGender === 'M' ? 'F' : 'M', spouseAge)];
    const youngestParent = Math.min(headAge, spouseAge);
    for (let i = 2; i < size; i++) {
      members.push(person(family, mob, r() < 0.5 ? 'F' : 'M', int(r, Math.max(0, youngestParent - 45), youngestParent - 18)));
    }
    return members;
  }

  return { household };
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding.

export interface SeedOptions {
  workspaceId: string;
  patients: number;
  seed: number;
  now?: Date;
  /** Rows per transaction. */
  batchSize?: number;
  /** Also return up to this many mobiles of seeded patients, chosen uniformly (for benchmarks). */
  sampleMobiles?: number;
  onProgress?: (inserted: number, seconds: number) => void;
}

export interface SeedResult {
  inserted: number;
  /** Rows generated, including those skipped because the clinic already had them. */
  generated: number;
  seconds: number;
  sampleMobiles: string[];
}

const CACHE_KIB_DURING_IMPORT = 1024 * 1024;

export async function seedPatients(service: Service, opts: SeedOptions): Promise<SeedResult> {
  const { patients } = service;
  // SQLite's page cache and write-ahead log are tuned around the import; PostgreSQL manages its own.
  const db = service.sql.dialect === 'sqlite' ? service.db : null;
  const batchSize = opts.batchSize ?? 50_000;
  const gen = patientGenerator(opts.seed, opts.now);
  const sampler = rng(opts.seed ^ 0x5eed);
  const sampleSize = opts.sampleMobiles ?? 0;
  const sample: string[] = [];
  // Each attempt past the target replaces a skipped row; a database that already holds (nearly) all of them
  // gives up instead of looping for ever.
  const maxGenerated = 3 * opts.patients + 10_000;

  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  const previousCache = db?.pragma('cache_size', { simple: true }) as number;
  db?.pragma(`cache_size = -${CACHE_KIB_DURING_IMPORT}`);
  let inserted = 0;
  let generated = 0;
  let pendingFamily: NewPatient[] = [];
  try {
    while (inserted < opts.patients && generated < maxGenerated) {
      const want = Math.min(batchSize, opts.patients - inserted);
      const chunk: NewPatient[] = pendingFamily;
      pendingFamily = [];
      while (chunk.length < want) {
        const members = gen.household();
        // A family that does not fit waits for the next chunk, so that its members stay together.
        if (chunk.length + members.length > want && chunk.length > 0) {
          pendingFamily = members;
          break;
        }
        chunk.push(...members);
      }
      // A family of four may overshoot the last chunk by a few rows: trim to exactly N.
      if (chunk.length > want) chunk.length = want;
      for (const p of chunk) {
        generated++;
        if (sample.length < sampleSize) sample.push(p.mobile_national);
        else if (sampleSize > 0) {
          const j = Math.floor(sampler() * generated);
          if (j < sampleSize) sample[j] = p.mobile_national;
        }
      }
      // In id order the primary key's B-tree fills from left to right within a batch: about a third faster.
      chunk.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
      inserted += await patients.importPatients(opts.workspaceId, chunk, batchSize);
      opts.onProgress?.(inserted, seconds());
    }
  } finally {
    db?.pragma(`cache_size = ${previousCache}`);
  }
  // Fold the write-ahead log back into the database so it does not stay hundreds of megabytes long, and let
  // the planner's statistics catch up with the new table size.
  if (db) {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('optimize');
  } else await sql`ANALYZE patients`.execute(service.sql.k);
  return { inserted, generated, seconds: seconds(), sampleMobiles: sample };
}

// ---------------------------------------------------------------------------------------------------------------
// The command.

export function parseSeedArgs(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      patients: { type: 'string' },
      workspace: { type: 'string' },
      seed: { type: 'string' },
    },
    strict: true,
  });
  const dataDir = values['data-dir'] ?? env.CLINIC_DESK_DATA_DIR;
  if (!dataDir) throw new Error('name the data directory: --data-dir D (or CLINIC_DESK_DATA_DIR)');
  const patients = Number(values.patients);
  if (values.patients === undefined || !Number.isSafeInteger(patients) || patients < 1) {
    throw new Error(`--patients must be a whole number of at least 1${values.patients === undefined ? '' : `, not ${values.patients}`}`);
  }
  const seedText = values.seed ?? randomBytes(4).readUInt32LE(0).toString();
  return { dataDir: resolve(dataDir), patients, workspace: values.workspace, seedText, seed: seedFromText(seedText) };
}

/** The workspace to seed: the one named, or the first by creation, creating the demo clinics in an empty database. */
export async function seedWorkspace(service: Service, wanted?: string) {
  if (wanted) {
    const ws = await service.auth.workspace(wanted);
    if (!ws) throw new Error(`no workspace ${wanted} in this database`);
    return { workspace: ws, createdDemo: false };
  }
  let createdDemo = false;
  if ((await service.auth.workspaces()).length === 0) {
    await ensureDemo(service, `http://127.0.0.1:${DEFAULT_PORT}`);
    createdDemo = true;
  }
  const first = (await service.auth.workspaces())[0];
  if (!first) throw new Error(`no workspace in this database, and ${service.dataDir}/demo-credentials.json names clinics it does not hold`);
  return { workspace: first, createdDemo };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  let args;
  try {
    args = parseSeedArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`clinic-desk seed: ${(e as Error).message}`);
    process.exit(2);
  }
  const service = await createService({ dataDir: args.dataDir });
  try {
    const { workspace, createdDemo } = await seedWorkspace(service, args.workspace);
    if (createdDemo) console.log(`empty database: created the demo clinics (credentials in ${args.dataDir}/demo-credentials.json)`);
    if (workspace.disabled_at) console.log(`note: workspace ${workspace.id} is disabled`);
    console.log(`seeding ${fmt(args.patients)} patients into "${workspace.name}" (${workspace.id}), seed ${args.seedText}`);
    const step = Math.max(1, Math.ceil(args.patients / 20));
    let shown = 0;
    const result = await seedPatients(service, {
      workspaceId: workspace.id, patients: args.patients, seed: args.seed,
      onProgress: (n, s) => {
        if (Math.floor(n / step) === Math.floor(shown / step) && n < args.patients) return;
        shown = n;
        console.log(`  ${fmt(n).padStart(fmt(args.patients).length)} / ${fmt(args.patients)}  ${s.toFixed(1)} s  ${fmt(n / s)} rows/s`);
      },
    });
    const skipped = result.generated - result.inserted;
    if (result.inserted < args.patients) {
      throw new Error(`only ${fmt(result.inserted)} of ${fmt(args.patients)} could be added: the clinic already had the others (try another --seed)`);
    }
    console.log(`seeded ${fmt(result.inserted)} patients in ${result.seconds.toFixed(1)} s (${fmt(result.inserted / result.seconds)} rows/s)`
      + (skipped ? `; ${fmt(skipped)} generated ${skipped === 1 ? 'row was' : 'rows were'} already there and skipped` : ''));
  } finally {
    await service.close();
  }
}

const invokedDirectly = (() => {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  main().catch((e) => {
    console.error(`clinic-desk seed failed: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  });
}
