/**
 * The three output templates, exactly as shared/spec/templates.md shows them, from a transcript and the structurer's
 * facts. Codes are filled only when codification was asked for; a diagnosis that cannot be coded keeps an empty
 * codes list and gets a warning.
 */
import type { RenderedTemplate, RenderInput, TemplateId } from '../contracts.js';
import type { ClinicalFacts, ConditionalMedication, Duration, Flag, Medication, Span } from '../../clinical-nlp/facts.js';

const plural = (d: Duration): string => `${d.value} ${d.unit}${d.value === 1 ? '' : 's'}`;
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const sentence = (s: string): string => (/[.!?]$/.test(s) ? capital(s) : `${capital(s)}.`);

function transcriptTemplate(input: RenderInput): RenderedTemplate {
  const t = input.transcript;
  return {
    json: { template_id: 'transcript_template', language: t.language, text: t.text, segments: t.segments.map((s) => ({ start: s.start, end: s.end, text: s.text })) },
    warnings: [],
  };
}

/** A flag as it travels in data.output[].warnings, which the upstream SDKs read as strings. */
export const flagWarning = (f: Flag): string => `${f.code} ${f.pointer}: ${f.message}`;

function emrTemplate(input: RenderInput, f: ClinicalFacts): RenderedTemplate {
  const warnings: string[] = [];
  const diagnoses = f.diagnoses.map((d) => {
    const codes = input.codify && d.icd10 ? [d.icd10] : [];
    if (input.codify && !d.icd10) warnings.push(`No ICD-10 code found for diagnosis "${d.name}"`);
    return { name: d.name, certainty: d.certainty, codes, ...(d.evidence ? { evidence: d.evidence } : {}) };
  });
  const investigations = f.investigations.map((i) => ({
    name: i.name,
    ...(input.codify ? { codes: i.loinc ? [{ system: 'LOINC', code: i.loinc, display: i.name }] : [] } : {}),
    ...(i.evidence ? { evidence: i.evidence } : {}),
  }));
  const history: Record<string, unknown> = {
    ...(f.history.present_illness ? { present_illness: f.history.present_illness } : {}),
    past: f.history.past,
    family: f.history.family,
    allergies: f.history.allergies,
  };
  // Plain values (a vital, an advice line, an allergy) cannot carry a field of their own: their evidence is keyed
  // by the same JSON pointers the flags use.
  const evidence: Record<string, Span> = {};
  for (const [k, span] of Object.entries(f.evidence.vitals)) if (span) evidence[`/vitals/${k}`] = span;
  f.evidence.advice.forEach((span, i) => (evidence[`/advice/${i}`] = span));
  f.evidence.allergies.forEach((span, i) => (evidence[`/history/allergies/${i}`] = span));
  warnings.push(...f.flags.map(flagWarning));
  return {
    json: {
      template_id: 'service_emr_template',
      language: input.transcript.language,
      chief_complaints: f.complaints.map((c) => ({
        name: c.name,
        ...(c.duration ? { duration: c.duration } : {}),
        ...(c.notes ? { notes: c.notes } : {}),
        ...(c.evidence ? { evidence: c.evidence } : {}),
      })),
      history,
      vitals: f.vitals,
      examination: f.examination,
      diagnoses,
      medications: f.medications.map((m) => ({ ...m })),
      // Drugs that wait on a result or a decision: beside the prescription, never in it (templates.md).
      ...(f.conditional_medications?.length ? { conditional_medications: f.conditional_medications.map((m) => ({ ...m })) } : {}),
      investigations,
      advice: f.advice,
      ...(f.follow_up ? { follow_up: f.follow_up } : {}),
      evidence,
      flags: f.flags,
    },
    warnings,
  };
}

const FORM_ABBREV: Record<string, string> = { tablet: 'Tab', capsule: 'Cap', syrup: 'Syp', injection: 'Inj', suspension: 'Susp', ointment: 'Oint' };

const amountText = (a: { value: number; unit: string }): string => `${a.value} ${a.unit}`;

/** What the note does with a prescription, when it is not simply new: continued, or changed from a strength. */
function statusNote(m: Medication): string {
  if (m.status === 'changed') return m.previous_strength ? `changed from ${amountText(m.previous_strength)}` : 'dose changed';
  return m.status === 'continued' ? 'continue' : '';
}

function medicationText(m: Medication): string {
  const strength = m.strength ? ` ${amountText(m.strength)}` : '';
  const form = m.form ? (FORM_ABBREV[m.form] ?? capital(m.form)) : '';
  const what = m.brand ? `${capital(m.brand)} (${m.name}${strength})` : `${m.name}${strength}`;
  const parts = [
    m.dose ? `${m.dose.value} ${m.dose.unit}` : '',
    m.frequency?.pattern ?? m.frequency?.text ?? '',
    m.timing ?? '',
    m.duration ? `for ${plural(m.duration)}` : '',
    m.instructions ?? '',
  ].filter(Boolean);
  const notes = [statusNote(m), m.alternatives?.length ? `or ${m.alternatives.join(' or ')}` : ''].filter(Boolean);
  return `${[form, what].filter(Boolean).join(' ')}${parts.length ? `, ${parts.join(' ')}` : ''}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

const medicationLine = (m: Medication, n: number): string => `${n}. ${medicationText(m)}`;
const conditionalLine = (m: ConditionalMedication): string => `- ${medicationText(m)}: ${m.condition}`;

function vitalsText(v: ClinicalFacts['vitals']): string {
  return [
    v.bp ? `BP ${v.bp.systolic}/${v.bp.diastolic} mmHg` : '',
    v.pulse_bpm !== undefined ? `pulse ${v.pulse_bpm}/min` : '',
    v.temperature ? `temperature ${v.temperature.value} °${v.temperature.unit}` : '',
    v.spo2_percent !== undefined ? `SpO2 ${v.spo2_percent}%` : '',
    v.respiratory_rate !== undefined ? `respiratory rate ${v.respiratory_rate}/min` : '',
    v.weight_kg !== undefined ? `weight ${v.weight_kg} kg` : '',
    v.height_cm !== undefined ? `height ${v.height_cm} cm` : '',
    v.blood_glucose_mg_dl !== undefined ? `blood glucose ${v.blood_glucose_mg_dl} mg/dL` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function notesTemplate(input: RenderInput, f: ClinicalFacts): RenderedTemplate {
  const history = [
    f.history.present_illness ? sentence(f.history.present_illness) : '',
    f.history.past.length ? `Past: ${f.history.past.join('; ')}.` : '',
    f.history.family.length ? `Family: ${f.history.family.join('; ')}.` : '',
    f.history.allergies.length ? `Allergies: ${f.history.allergies.join(', ')}.` : '',
  ].filter(Boolean);
  const sections: [string, string, string][] = [
    ['chief_complaints', 'Chief Complaints', f.complaints.map((c) => sentence(`${c.name}${c.duration ? ` for ${plural(c.duration)}` : ''}`)).join(' ')],
    ['history', 'History', history.join(' ')],
    ['vitals', 'Vitals', vitalsText(f.vitals)],
    ['examination', 'Examination', f.examination.map(sentence).join(' ')],
    [
      'diagnosis',
      'Diagnosis',
      f.diagnoses
        .map((d) => `${d.certainty === 'suspected' ? 'Suspected ' : ''}${d.certainty === 'suspected' ? d.name : capital(d.name)}${input.codify && d.icd10 ? ` (${d.icd10.code})` : ''}`)
        .join('; '),
    ],
    ['medications', 'Medications', f.medications.map((m, i) => medicationLine(m, i + 1)).join('\n')],
    ['conditional_medications', 'Not prescribed: only if needed later', (f.conditional_medications ?? []).map(conditionalLine).join('\n')],
    ['investigations', 'Investigations', f.investigations.map((i) => capital(i.name)).join(', ')],
    ['advice', 'Advice', f.advice.map(sentence).join(' ')],
    ['follow_up', 'Follow-up', f.follow_up ? `After ${plural(f.follow_up.after)}${f.follow_up.notes ? `, ${f.follow_up.notes}` : ''}` : ''],
    ['checks', 'Check before use', f.flags.map((x) => `- ${x.message}`).join('\n')],
  ];
  const kept = sections.filter(([, , text]) => text).map(([id, title, text]) => ({ id, title, text }));
  return {
    json: {
      template_id: 'clinical_notes_template',
      language: input.transcript.language,
      sections: kept,
      markdown: kept.map((s) => `## ${s.title}\n${s.text}`).join('\n\n'),
    },
    warnings: f.flags.map(flagWarning),
  };
}

export function renderTemplate(id: TemplateId, input: RenderInput): RenderedTemplate {
  if (id === 'transcript_template') return transcriptTemplate(input);
  const facts = input.facts as ClinicalFacts;
  return id === 'service_emr_template' ? emrTemplate(input, facts) : notesTemplate(input, facts);
}
