import { Type } from 'typebox';
import { requireScope } from '../http/auth.js';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { routePlugin } from '../http/route-plugin.js';
import { FhirBundle, NoteParams, VersionParams } from './schemas.js';

const FhirQuery = Type.Object({
  version: Type.Optional({ ...VersionParams.properties.version, description: 'latest (default: the newest signed version; 409 NOT_SIGNED before signing), 1, 2…, or draft' }),
});

/**
 * GET /api/v1/notes/{txn_id}/fhir: the note as a FHIR R4 document Bundle, `application/fhir+json`. Credentials, scope
 * and errors as the other notes routes (routes.ts).
 */
export const noteFhirRoutes = routePlugin('notes-fhir', ['notes', 'audit'], async (app, { notes, audit }) => {
  app.get('/api/v1/notes/:txn_id/fhir', {
    config: { errors: 'plain' },
    preParsing: requireScope('scribe', 'FORBIDDEN', audit, 'note.access'),
    schema: {
      operationId: 'exportNoteFhir', tags: ['notes'], security, params: NoteParams, querystring: FhirQuery,
      summary: 'The signed note as a FHIR R4 document Bundle (ABDM OPConsultRecord structure)',
      description: 'Composition, Patient, Practitioner, Organization, Encounter, Condition (ICD-10), Observation (vitals, LOINC and UCUM), '
        + 'MedicationRequest (dosage as FHIR Timing), ServiceRequest, AllergyIntolerance and a proposed follow-up Appointment. '
        + 'The same version always gives the same bundle. 409 NOT_SIGNED while the note is unsigned (version=draft exports the scribe\'s draft, '
        + 'Composition.status preliminary).',
      response: { 200: FhirBundle, ...plainErrors([400, 401, 403, 404, 409, 500]) },
    },
  }, async (request, reply) => {
    const bundle = await notes.exportFhir(request.ctx, request.params.txn_id, request.query.version);
    return reply.type('application/fhir+json; charset=utf-8').send(bundle);
  });
});
