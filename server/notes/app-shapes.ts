/**
 * The name a prescription's PDF is offered under: the patient and the day, as a file name every OS takes (what
 * schemas.ts PdfFileName accepts): path separators, the characters Windows refuses, control and bidi override
 * characters become spaces. Typebox-free, for the renderer.
 */
export function pdfFileName(patientName: string | null, isoDay: string): string {
  const who = (patientName ?? '').replace(/[/\\:*?"<>|\p{Cc}\u202A-\u202E\u2066-\u2069]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `${['Prescription', who, isoDay].filter(Boolean).join(' - ')}.pdf`;
}
