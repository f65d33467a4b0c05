/**
 * Outpatient formulary: generic names (INN, as Indian prescriptions write them), the US name where it differs,
 * other spellings, usual forms and strengths, and Indian and US brand names. Curated by hand for this project.
 *
 * One drug a line: name | US name | other names | forms | usual strengths (mg unless a unit is given) | brands
 */
const TABLE = `
paracetamol|acetaminophen|pcm|tablet,syrup,suspension,drops,injection|500,650,1000|crocin,dolo,calpol,pacimol,metacin,p 500,tylenol,panadol
ibuprofen|||tablet,suspension|200,400,600|brufen,ibugesic,advil,motrin
ibuprofen + paracetamol|ibuprofen + acetaminophen||tablet,suspension||combiflam,ibugesic plus
cefixime|||tablet,suspension|100,200,400|taxim o,zifi,cefix,mahacef,suprax
rabeprazole|||tablet|10,20|razo,rablet,rabicip,happi,aciphex
metformin|||tablet|500,850,1000|glycomet,gluconorm,obimet,glucophage
`;

export interface Drug {
  name: string;
  us?: string;
  aliases: string[];
  forms: string[];
  strengths: string[];
  brands: string[];
}

const list = (field: string | undefined): string[] =>
  (field ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export const FORMULARY: readonly Drug[] = TABLE.trim().split('\n').map((line) => {
  const [name = '', us, aliases, forms, strengths, brands] = line.split('|');
  return { name, us: us || undefined, aliases: list(aliases), forms: list(forms), strengths: list(strengths), brands: list(brands) };
});
