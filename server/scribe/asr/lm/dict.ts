/**
 * Pronunciations for the domain model: CMUdict (shipped as pocketsphinx-en-us's cmudict-en-us.dict) for the
 * words it has, and espeak-ng's phonemes, mapped from IPA to ARPAbet, for the ones it lacks (drug names,
 * "micturition", abbreviations spelled out letter by letter).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** word → its pronunciations (ARPAbet phones joined by spaces), CMUdict's "(2)" variants folded in. */
export type Pronunciations = Map<string, string[]>;

export async function readCmudict(path: string): Promise<Pronunciations> {
  const dict: Pronunciations = new Map();
  const text = await readFile(path, 'utf8');
  for (const line of text.split('\n')) {
    const m = /^(\S+?)(?:\(\d+\))?\s+(.+?)\s*(?:#.*)?$/.exec(line);
    if (!m) continue;
    const word = m[1]!.toLowerCase();
    const list = dict.get(word) ?? [];
    list.push(m[2]!.trim().replace(/\s+/g, ' '));
    dict.set(word, list);
  }
  return dict;
}

/** The 39 phones of the en-us acoustic model (plus SIL), for validating what we generate. */
export const ARPABET = new Set(('AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH').split(' '));

/** espeak-ng IPA segments (with --sep=_) → ARPAbet. Stress and length marks are removed before lookup. */
const IPA: Record<string, string> = {
  // vowels and diphthongs
  'ɑ': 'AA', 'ɒ': 'AA', 'a': 'AA', 'ɔ': 'AO', 'æ': 'AE', 'ʌ': 'AH', 'ə': 'AH', 'ɐ': 'AH', 'ɚ': 'ER', 'ɜ': 'ER', 'ɝ': 'ER',
  'ɛ': 'EH', 'e': 'EH', 'eɪ': 'EY', 'ɪ': 'IH', 'ᵻ': 'IH', 'i': 'IY', 'ʊ': 'UH', 'u': 'UW', 'oʊ': 'OW', 'əʊ': 'OW', 'o': 'OW',
  'aɪ': 'AY', 'aʊ': 'AW', 'ɔɪ': 'OY', 'ɑɹ': 'AA R', 'ɔɹ': 'AO R', 'oɹ': 'AO R', 'ɛɹ': 'EH R', 'eə': 'EH R', 'ɪɹ': 'IH R',
  'ɪə': 'IH R', 'iə': 'IY AH', 'ʊɹ': 'UH R', 'ʊə': 'UH R', 'aɪɚ': 'AY ER', 'aɪə': 'AY AH', 'aʊɚ': 'AW ER', 'aʊə': 'AW AH',
  'ɜɹ': 'ER', 'əɹ': 'ER', 'iɐ': 'IY AH', 'uɐ': 'UW AH',
  // consonants
  'p': 'P', 'b': 'B', 't': 'T', 'd': 'D', 'k': 'K', 'g': 'G', 'ɡ': 'G', 'f': 'F', 'v': 'V', 'θ': 'TH', 'ð': 'DH', 's': 'S',
  'z': 'Z', 'ʃ': 'SH', 'ʒ': 'ZH', 'h': 'HH', 'm': 'M', 'n': 'N', 'ŋ': 'NG', 'l': 'L', 'ɹ': 'R', 'r': 'R', 'j': 'Y', 'w': 'W',
  'tʃ': 'CH', 'dʒ': 'JH', 'ɾ': 'T', 'ʔ': 'T', 'n̩': 'AH N', 'l̩': 'AH L', 'm̩': 'AH M', 'x': 'K', 'ç': 'HH', 'ɬ': 'L', 'ʍ': 'W',
};

/** One espeak-ng --ipa --sep=_ line → ARPAbet phones, or null when something in it has no mapping. */
export function ipaToArpabet(line: string): string | null {
  const phones: string[] = [];
  for (const raw of line.trim().split('_')) {
    const seg = raw.replace(/[ˈˌːˑ‿\s-]/g, '');
    if (!seg) continue;
    const direct = IPA[seg];
    if (direct) {
      phones.push(direct);
      continue;
    }
    // Not a known unit: take it apart greedily (longest known prefix first).
    let rest = seg;
    while (rest) {
      let hit = '';
      for (let len = Math.min(3, rest.length); len > 0; len--) {
        if (IPA[rest.slice(0, len)]) {
          hit = rest.slice(0, len);
          break;
        }
      }
      if (!hit) {
        // Combining marks (syllabic, nasal, dental) don't change the ARPAbet phone.
        if (/^[\u0300-\u036f]/.test(rest)) {
          rest = rest.slice(1);
          continue;
        }
        return null;
      }
      phones.push(IPA[hit]!);
      rest = rest.slice(hit.length);
    }
  }
  const out = phones.join(' ').split(' ').filter(Boolean);
  // Collapse accidental doubles that the acoustic model would hear as one ("R R" from ʊɹ_ɹ).
  const dedup = out.filter((p, i) => i === 0 || p !== out[i - 1]);
  if (dedup.length === 0 || dedup.some((p) => !ARPABET.has(p))) return null;
  return dedup.join(' ');
}

/**
 * Pronounce words with espeak-ng (en-us voice), one word per line in one process. Returns word → ARPAbet for the
 * words it could pronounce. Rejects when espeak-ng cannot run.
 */
export async function espeakPronunciations(words: readonly string[], binary = 'espeak-ng'): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const BATCH = 500;
  for (let i = 0; i < words.length; i += BATCH) {
    const batch = words.slice(i, i + BATCH);
    const lines = await runEspeak(binary, batch.map((w) => `${w}.`).join('\n'));
    if (lines.length === batch.length) {
      batch.forEach((w, k) => {
        const arpa = ipaToArpabet(lines[k]!);
        if (arpa) out.set(w, arpa);
      });
    } else {
      // espeak split or merged a clause: fall back to one call per word for this batch.
      for (const w of batch) {
        const one = await runEspeak(binary, w);
        const arpa = one.length ? ipaToArpabet(one.join('_')) : null;
        if (arpa) out.set(w, arpa);
      }
    }
  }
  return out;
}

function runEspeak(binary: string, text: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-v', 'en-us', '-q', '--ipa', '--sep=_', '--stdin'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e) => reject(new Error(`espeak-ng could not run (${(e as NodeJS.ErrnoException).code ?? e.message})`)));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`espeak-ng failed (${code}): ${stderr.trim().slice(0, 200)}`));
      resolve(stdout.split('\n').map((l) => l.trim()).filter(Boolean));
    });
    child.stdin.end(`${text}\n`);
  });
}

/** Pronunciation-dictionary text for pocketsphinx: "word PHONES", variants as "word(2)". */
export function toDictText(entries: Map<string, string[]>): string {
  const lines: string[] = [];
  for (const word of [...entries.keys()].sort()) {
    entries.get(word)!.forEach((p, i) => lines.push(`${i === 0 ? word : `${word}(${i + 1})`} ${p}`));
  }
  return `${lines.join('\n')}\n`;
}
