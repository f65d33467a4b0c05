import { describe, expect, it } from 'vitest';
import { grounded } from '../../server/clinical-nlp/grounding.js';
import { extractFacts, structure } from '../../server/clinical-nlp/structure.js';

const NOTE = 'Fever for three days. BP one thirty over eighty five, weight 165 pounds. Impression viral fever. Tab paracetamol six fifty one tablet thrice daily for three days. Drink plenty of fluids.';

describe('never invent', () => {
  it('keeps what was said, with spoken numbers, converted units and a dose count after a strength', () => {
    const f = structure(NOTE, { locale: 'en-IN' });
    expect(f.vitals).toEqual({ bp: { systolic: 130, diastolic: 85 }, weight_kg: 74.8 });
    expect(f.medications[0]).toMatchObject({ name: 'paracetamol', strength: { value: 650, unit: 'mg' }, dose: { value: 1, unit: 'tablet' } });
    expect(f.complaints.map((c) => c.name)).toEqual(['fever']);
    expect(f.advice).toEqual(['drink plenty of fluids']);
  });

  it('drops an item with no span in the transcript, and a number that was not said', () => {
    const facts = extractFacts(NOTE, { locale: 'en-IN' });
    const tampered = {
      ...facts,
      complaints: [...facts.complaints, { name: 'headache' }],
      diagnoses: facts.diagnoses.map((d) => ({ ...d, evidence: { start: NOTE.length + 5, end: NOTE.length + 9 } })),
      vitals: { ...facts.vitals, bp: { systolic: 150, diastolic: 85 } },
      medications: facts.medications.map((m) => ({ ...m, strength: { value: 500, unit: 'mg' } })),
    };
    const g = grounded(tampered, NOTE);
    expect(g.complaints.map((c) => c.name)).toEqual(['fever']);
    expect(g.diagnoses).toEqual([]);
    expect(g.vitals.bp).toBeUndefined();
    expect(g.evidence.vitals.bp).toBeUndefined();
    expect(g.vitals.weight_kg).toBe(74.8);
    expect(g.medications[0]!.strength).toBeUndefined();
    expect(g.medications[0]!.dose).toEqual({ value: 1, unit: 'tablet' });
  });

  it('drops advice and allergies whose span lies outside the transcript, keeping their evidence in step', () => {
    const facts = extractFacts('Allergic to sulfa drugs. Impression cystitis. Drink plenty of water. Avoid holding urine.', { locale: 'en-IN' });
    expect(facts.advice).toHaveLength(2);
    const g = grounded({ ...facts, evidence: { ...facts.evidence, advice: [{ start: -4, end: 2 }, facts.evidence.advice[1]!] } }, 'Allergic to sulfa drugs. Impression cystitis. Drink plenty of water. Avoid holding urine.');
    expect(g.advice).toEqual([facts.advice[1]]);
    expect(g.evidence.advice).toEqual([facts.evidence.advice[1]]);
    expect(g.history.allergies).toEqual(facts.history.allergies);
  });
});
