import type { Drug } from '../../../server/clinical-nlp/vocab/formulary';
import type { IcdEntry } from '../../../server/clinical-nlp/vocab/icd10';

/**
 * Search over the code list and formulary the scribe ships. They are about 140 KB of text, so they are imported on
 * first use into a chunk of their own (not the initial bundle), and searched here: no round trip per keystroke, and
 * the same in the desktop app and in a browser.
 */
const icd = () => import('../../../server/clinical-nlp/vocab/icd10').then((m) => m.ICD10);
const drugs = () => import('../../../server/clinical-nlp/vocab/formulary').then((m) => m.FORMULARY);

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9.+]+/g, ' ').trim();

/** Best first: a name that starts with the words typed, then one that has them anywhere. */
function rank<T>(items: readonly T[], q: string, names: (t: T) => string[], limit: number): T[] {
  const words = norm(q).split(' ').filter(Boolean);
  if (words.length === 0) return [];
  const scored: [T, number][] = [];
  for (const item of items) {
    let best = -1;
    for (const name of names(item)) {
      const n = norm(name);
      if (!words.every((w) => n.includes(w))) continue;
      const score = n.startsWith(words.join(' ')) ? 3 : n.split(' ').some((t) => t.startsWith(words[0]!)) ? 2 : 1;
      best = Math.max(best, score - n.length / 1000);
    }
    if (best >= 0) scored.push([item, best]);
  }
  return scored.sort((a, b) => b[1] - a[1]).slice(0, limit).map(([t]) => t);
}

export async function searchIcd10(q: string, limit = 8): Promise<IcdEntry[]> {
  return rank(await icd(), q, (e) => [e.code, e.display, ...e.synonyms], limit);
}

export interface DrugMatch { drug: Drug; brand: string | null }

/** Drugs by generic, US name, other name or brand; a match by brand says which brand. */
export async function searchDrugs(q: string, limit = 8): Promise<DrugMatch[]> {
  const list = await drugs();
  const found = rank(list, q, (d) => [d.name, ...(d.us ? [d.us] : []), ...d.aliases, ...d.brands], limit);
  const words = norm(q);
  return found.map((drug) => {
    const byName = [drug.name, drug.us ?? '', ...drug.aliases].some((n) => norm(n).includes(words));
    return { drug, brand: byName ? null : drug.brands.find((b) => norm(b).includes(words)) ?? null };
  });
}

export type { Drug, IcdEntry };
