/**
 * Presenting complaints: the name a note uses, and the lay and clinical ways patients and doctors say it.
 *
 * One complaint a line: name | other ways of saying it (comma separated)
 */
const TABLE = `
fever|temperature,feverish,pyrexia,high temperature
cough|coughing
headache|head ache,pain in head,head pain
abdominal pain|pain in abdomen,stomach pain,tummy pain,belly pain,pain abdomen,stomach ache
`;

export interface Symptom {
  name: string;
  variants: string[];
}

export const SYMPTOMS: readonly Symptom[] = TABLE.trim().split('\n').map((line) => {
  const [name = '', variants = ''] = line.split('|');
  return { name, variants: variants.split(',').map((s) => s.trim()).filter(Boolean) };
});
