/**
 * The scribe's checks a save runs again (safety.ts), because they read only what the note says: allergy class
 * conflicts, implausible doses, unit mismatches, daily totals, duplicates, an antibiotic without a strength. A flag of
 * these is resolved by the change that removes its cause, which the service decides, or by keeping it as is. The
 * others depend on how the words were heard (a name matched by sound, a unit not said) and are the scribe's alone.
 */
export const RECHECKED: ReadonlySet<string> = new Set(['DOSE_UNIT', 'DOSE_RANGE', 'DAILY_MAX', 'ALLERGY_CONFLICT', 'DUPLICATE_THERAPY', 'STRENGTH_MISSING']);

/** Keeping these as they are can harm the patient: the doctor says why, and the signed version keeps it. */
export const KEPT_WITH_REASON: ReadonlySet<string> = new Set(['ALLERGY_CONFLICT', 'DOSE_RANGE', 'DAILY_MAX']);

/**
 * The name a prescription's PDF is offered under: the patient and the day, as a file name every OS takes (what
 * schemas.ts PdfFileName accepts): path separators, the characters Windows refuses, control and bidi override
 * characters become spaces. Typebox-free, for the renderer.
 */
export function pdfFileName(patientName: string | null, isoDay: string): string {
  const who = (patientName ?? '').replace(/[/\\:*?"<>|\p{Cc}\u202A-\u202E\u2066-\u2069]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `${['Prescription', who, isoDay].filter(Boolean).join(' - ')}.pdf`;
}
