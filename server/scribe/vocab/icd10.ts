/**
 * ICD-10 codes for common outpatient diagnoses. Codes are WHO ICD-10 (what Indian clinics use); where WHO and the
 * US ICD-10-CM differ the WHO code is kept (A09.9, J45.9). Display texts are our own short descriptions.
 *
 * One code a line: code | display | synonyms and lay names (comma separated)
 */
const TABLE = `
R50.9|Fever, unspecified|fever,pyrexia,acute febrile illness,febrile illness,pyrexia of unknown origin
A01.0|Typhoid fever|enteric fever,typhoid
B54|Unspecified malaria|malaria
I10|Essential (primary) hypertension|hypertension,high blood pressure,htn,hypertensive
E11.9|Type 2 diabetes mellitus without complications|type 2 diabetes mellitus,type 2 diabetes,t2dm,diabetes mellitus,diabetes,diabetic
J20.9|Acute bronchitis, unspecified|acute bronchitis,bronchitis
`;

export interface IcdEntry {
  code: string;
  display: string;
  synonyms: string[];
}

export const ICD10: readonly IcdEntry[] = TABLE.trim().split('\n').map((line) => {
  const [code = '', display = '', synonyms = ''] = line.split('|');
  return { code, display, synonyms: synonyms.split(',').map((s) => s.trim()).filter(Boolean) };
});
