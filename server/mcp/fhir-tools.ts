import { z } from 'zod';
import { type ToolScope, defineTool } from './tools.js';

export const exportNoteFhirTool = defineTool({
  name: 'export_note_fhir',
  title: 'Export a signed note as FHIR',
  description: 'A scribe session\'s signed note (its latest amendment, if any) as a FHIR R4 document Bundle: Composition, Patient, '
    + 'Practitioner, Organization, Encounter, ICD-10 Conditions, vitals as LOINC Observations, MedicationRequests with dosage timing, '
    + 'ServiceRequests, allergies and the follow-up Appointment, structured as India\'s ABDM OPConsultRecord. An unsigned note is '
    + 'refused (NOT_SIGNED) unless version is draft.',
  input: {
    session_id: z.string().min(1).max(128).describe('The scribe session (its txn_id)'),
    version: z.string().regex(/^(?:draft|latest|0|[1-9][0-9]{0,5})$/).default('latest')
      .describe('latest (the newest signed version), 1 the signed one, 2… amendments, or draft (the scribe\'s, as a preliminary document)'),
  },
  output: { bundle: z.record(z.string(), z.unknown()).describe('The FHIR R4 Bundle (type document)') },
  scope: 'scribe',
  deniedAction: 'note.access',
  readOnly: true,
  idempotent: true,
  // A Bundle is an interface without an index signature: copied into a record for the output schema's type.
  run: async ({ session_id, version }, { service, ctx }: ToolScope) => ({ bundle: Object.assign<Record<string, unknown>, object>({}, await service.notes.exportFhir(ctx, session_id, version)) }),
});

export const FHIR_TOOLS = [exportNoteFhirTool];
