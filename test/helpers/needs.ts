import { tmpdir } from 'node:os';
import { PocketSphinxEngine } from '../../server/scribe/asr/pocketsphinx.js';
import { ffmpegPath, findOnPath } from '../../server/scribe/audio/decode.js';
import { postgresSkipReason } from './postgres.js';

/**
 * The one guard for what a test needs beyond Node and `npm ci`: the programs the machine's packages bring. Every
 * test that needs one asks here, so that on a machine without it the test is skipped with the reason and the command
 * that installs it (skipFor), never failed; no test names a program's path itself.
 */
export type Need = 'chromium' | 'espeak-ng' | 'ffmpeg' | 'sox' | 'pocketsphinx' | 'postgres';

/** Debian's Chromium (Ubuntu's is chromium-browser), driven by playwright-core: never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH || findOnPath('chromium') || findOnPath('chromium-browser');
export const ESPEAK = findOnPath('espeak-ng');

// The scribe's own verdict: its program, its English model and espeak-ng, which the domain dictionary needs.
const pocketsphinxReason = await new PocketSphinxEngine({ cacheDir: tmpdir() }).unavailableReason();

const PROBES: Record<Exclude<Need, 'postgres'>, { missing: () => string | null; packages: string }> = {
  chromium: { missing: () => (CHROMIUM ? null : 'Chromium is not installed'), packages: 'chromium' },
  'espeak-ng': { missing: () => (ESPEAK ? null : 'espeak-ng is not installed'), packages: 'espeak-ng' },
  ffmpeg: { missing: () => (ffmpegPath() && findOnPath('ffprobe') ? null : 'ffmpeg is not installed'), packages: 'ffmpeg' },
  sox: { missing: () => (findOnPath('sox') ? null : 'sox is not installed'), packages: 'sox libsox-fmt-all' },
  pocketsphinx: { missing: () => (pocketsphinxReason ? `the PocketSphinx engine is not ready: ${pocketsphinxReason}` : null), packages: 'pocketsphinx pocketsphinx-en-us espeak-ng' },
};

/** Whether this machine has it. */
export const has = (need: Need): boolean => missing(need) === null;

/**
 * Null when the machine has all of `needs`; else why not, with the command that installs what is missing: for
 * skipFor, e.g. `describe('…', skipFor(missing('espeak-ng', 'pocketsphinx')), …)`.
 */
export function missing(...needs: Need[]): string | null {
  const why: string[] = [];
  const packages = new Set<string>();
  for (const need of needs) {
    if (need === 'postgres') {
      const reason = postgresSkipReason();
      if (reason) why.push(reason);
      continue;
    }
    const reason = PROBES[need].missing();
    if (!reason) continue;
    why.push(reason);
    for (const p of PROBES[need].packages.split(' ')) packages.add(p);
  }
  if (!why.length) return null;
  const install = packages.size ? ` (npm run setup -- --test installs what is missing; on Debian/Ubuntu: apt-get install -y ${[...packages].join(' ')})` : '';
  return `${why.join('; ')}${install}`;
}
