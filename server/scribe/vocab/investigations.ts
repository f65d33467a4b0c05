/**
 * Investigations ordered in outpatient clinics: full name, abbreviations and other spoken names, and the LOINC code
 * where one clearly applies (LOINC codes are free to use).
 *
 * One test a line: name | abbreviations and other names (comma separated) | LOINC
 */
const TABLE = `
complete blood count|cbc,hemogram,haemogram,full blood count,fbc|58410-2
liver function test|lft,lfts,liver function tests,liver profile|
kidney function test|kft,rft,renal function test,kidney function tests|
`;

export interface Investigation {
  name: string;
  aliases: string[];
  loinc?: string;
}

export const INVESTIGATIONS: readonly Investigation[] = TABLE.trim().split('\n').map((line) => {
  const [name = '', aliases = '', loinc = ''] = line.split('|');
  return { name, aliases: aliases.split(',').map((s) => s.trim()).filter(Boolean), loinc: loinc || undefined };
});
