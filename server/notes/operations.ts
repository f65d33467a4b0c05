import { type Static, Type } from 'typebox';
import { z } from 'zod';
import { security } from '../http/dr.js';
import { plainErrors } from '../http/errors.js';
import { arg } from '../shared/app-method.js';
import { type Guard, guard, operation } from '../shared/operation.js';
import { AmendBody, DraftBody, FhirBundle, NoteParams, SignBody, Version, VersionList, VersionParams, WorkingDraft } from './schemas.js';

/**
 * The notes domain's operations, each declared once (server/shared/operation.ts): a scribe session's note (docs/API.md,
 * "Notes: sign and amend"), the doctor's working draft, signing, amendments, the versions and the FHIR export. Same
 * credentials as the scribe routes (bearer or auth header) and its `scribe` scope; errors are
 * `{"error":{"code","message"}}`; another clinic's session is 404. The order is the routes' (and the OpenAPI document's).
 */

const tags = ['notes'];
const refusal = { code: 'FORBIDDEN', audit: 'note.access' };
const read = guard('scribe', refusal);
/**
 * Writing is a doctor's: the note service's rule (every edge meets it in `run`), checked besides with the scope, so a
 * route refuses before the body is read and validated (http/auth.ts says why).
 */
const doctorOnly = (action: string, what: string): Guard => ({
  ...guard('scribe', refusal),
  also: ({ service, ctx }) => service.notes.requireDoctor(ctx, action, what),
});

const txnId = arg('txnId', NoteParams.properties.txn_id);
const version = arg('version', VersionParams.properties.version);
const FhirQuery = Type.Object({
  version: Type.Optional({ ...VersionParams.properties.version, description: 'latest (default: the newest signed version; 409 NOT_SIGNED before signing), 1, 2…, or draft' }),
});

type Write<B> = { id: string; body: B };
type Which = { id: string; version?: string };

export const noteOperations = {
  noteDraft: operation({
    access: read,
    run: ({ service, ctx }, id: string) => service.notes.workingDraft(ctx, id),
    route: {
      method: 'GET', url: '/api/v1/notes/:txn_id/draft', errors: 'plain',
      schema: {
        operationId: 'getNoteDraft', tags, security, params: NoteParams,
        summary: 'The working draft of a session\'s note: the doctor\'s saved edits, else the scribe\'s EMR JSON',
        response: { 200: WorkingDraft, ...plainErrors([400, 401, 403, 404, 500]) },
      },
      input: (request) => request.params.txn_id,
      status: 200,
      body: (draft) => draft,
    },
    app: { args: [txnId], result: WorkingDraft, input: (id) => id, output: (draft) => draft, viaRoute: {} },
  }),

  saveNoteDraft: operation({
    access: doctorOnly('note.draft.save', 'edit'),
    run: ({ service, ctx }, { id, body }: Write<Static<typeof DraftBody>>) => service.notes.saveDraft(ctx, id, body),
    route: {
      method: 'PUT', url: '/api/v1/notes/:txn_id/draft', errors: 'plain',
      schema: {
        operationId: 'saveNoteDraft', tags, security, params: NoteParams, body: DraftBody,
        summary: 'Save the doctor\'s edits before signing (the scribe\'s own draft stays unchanged); doctors only',
        description: 'emr is the whole EMR JSON (service_emr_template); flag_resolutions say, per safety flag, edited or kept (as is), '
          + 'recorded with who and when. 409 ALREADY_SIGNED once signed (amend instead), 409 SESSION_NOT_READY before the session finished.',
        response: { 200: WorkingDraft, ...plainErrors([400, 401, 403, 404, 409, 500]) },
      },
      input: (request) => ({ id: request.params.txn_id, body: request.body }),
      status: 200,
      body: (draft) => draft,
    },
    app: { args: [txnId, arg('body', DraftBody)], result: WorkingDraft, input: (id, body) => ({ id, body }), output: (draft) => draft, viaRoute: {} },
  }),

  signNote: operation({
    access: doctorOnly('note.sign', 'sign'),
    run: ({ service, ctx }, { id, body }: Write<Static<typeof SignBody>>) => service.notes.sign(ctx, id, body),
    route: {
      method: 'POST', url: '/api/v1/notes/:txn_id/sign', errors: 'plain',
      schema: {
        operationId: 'signNote', tags, security, params: NoteParams, body: SignBody,
        summary: 'Sign the note: version 1, immutable; doctors only',
        description: 'Signs emr if given, else the working draft, else the scribe\'s draft. Every safety flag must be resolved (400 FLAGS_UNRESOLVED). '
          + 'An ongoing appointment of the note becomes completed. Raises note.signed. 409 ALREADY_SIGNED on a second sign.',
        response: { 201: Version, ...plainErrors([400, 401, 403, 404, 409, 500]) },
      },
      // A POST without a body signs what there is.
      input: (request) => ({ id: request.params.txn_id, body: request.body ?? {} }),
      status: 201,
      body: (signed) => signed,
    },
    app: { args: [txnId, arg('body', SignBody)], result: Version, input: (id, body) => ({ id, body }), output: (signed) => signed, viaRoute: {} },
  }),

  amendNote: operation({
    access: doctorOnly('note.amend', 'amend'),
    run: ({ service, ctx }, { id, body }: Write<Static<typeof AmendBody>>) => service.notes.amend(ctx, id, body),
    route: {
      method: 'POST', url: '/api/v1/notes/:txn_id/amendments', errors: 'plain',
      schema: {
        operationId: 'amendNote', tags, security, params: NoteParams, body: AmendBody,
        summary: 'Amend a signed note: a new version with its reason (required); doctors only',
        description: 'Raises note.amended. 409 NOT_SIGNED before signing.',
        response: { 201: Version, ...plainErrors([400, 401, 403, 404, 409, 500]) },
      },
      input: (request) => ({ id: request.params.txn_id, body: request.body }),
      status: 201,
      body: (amended) => amended,
    },
    app: { args: [txnId, arg('body', AmendBody)], result: Version, input: (id, body) => ({ id, body }), output: (amended) => amended, viaRoute: {} },
  }),

  noteVersions: operation({
    access: read,
    run: ({ service, ctx }, id: string) => service.notes.versions(ctx, id),
    route: {
      method: 'GET', url: '/api/v1/notes/:txn_id/versions', errors: 'plain',
      schema: {
        operationId: 'listNoteVersions', tags, security, params: NoteParams,
        summary: 'The note\'s versions, oldest first: the scribe\'s draft (0), the signed version (1), amendments (2…)',
        response: { 200: VersionList, ...plainErrors([400, 401, 403, 404, 500]) },
      },
      input: (request) => request.params.txn_id,
      status: 200,
      body: (list) => list,
    },
    app: { args: [txnId], result: VersionList, input: (id) => id, output: (list) => list, viaRoute: {} },
  }),

  noteVersion: operation({
    access: read,
    run: ({ service, ctx }, { id, version: which }: Required<Which>) => service.notes.version(ctx, id, which),
    route: {
      method: 'GET', url: '/api/v1/notes/:txn_id/versions/:version', errors: 'plain',
      schema: {
        operationId: 'getNoteVersion', tags, security, params: VersionParams,
        summary: 'One version of the note with its EMR JSON: draft (= 0), 1, 2…, or latest',
        response: { 200: Version, ...plainErrors([400, 401, 403, 404, 500]) },
      },
      input: (request) => ({ id: request.params.txn_id, version: request.params.version }),
      status: 200,
      body: (v) => v,
    },
    app: { args: [txnId, version], result: Version, input: (id, which) => ({ id, version: which }), output: (v) => v, viaRoute: {} },
  }),

  /** The note as a FHIR R4 document Bundle: for an integrator, for the doctor to save, for an assistant. */
  noteFhir: operation({
    access: read,
    run: ({ service, ctx }, { id, version: which }: Which) => service.notes.exportFhir(ctx, id, which),
    route: {
      method: 'GET', url: '/api/v1/notes/:txn_id/fhir', errors: 'plain',
      schema: {
        operationId: 'exportNoteFhir', tags, security, params: NoteParams, querystring: FhirQuery,
        summary: 'The signed note as a FHIR R4 document Bundle (ABDM OPConsultRecord structure)',
        description: 'Composition, Patient, Practitioner, Organization, Encounter, Condition (ICD-10), Observation (vitals, LOINC and UCUM), '
          + 'MedicationRequest (dosage as FHIR Timing), ServiceRequest, AllergyIntolerance and a proposed follow-up Appointment. '
          + 'The same version always gives the same bundle. 409 NOT_SIGNED while the note is unsigned (version=draft exports the scribe\'s draft, '
          + 'Composition.status preliminary).',
        response: { 200: FhirBundle, ...plainErrors([400, 401, 403, 404, 409, 500]) },
      },
      input: (request) => ({ id: request.params.txn_id, version: request.query.version }),
      status: 200,
      headers: { 'content-type': 'application/fhir+json; charset=utf-8' },
      body: (bundle) => bundle,
    },
    // The route's query schema for the version (which describes its default) is not the app argument's: the transport writes the call.
    app: { args: [txnId, version], result: FhirBundle, input: (id, which) => ({ id, version: which }), output: (bundle) => bundle, inTransport: true },
    tool: {
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
      readOnly: true,
      idempotent: true,
      toInput: ({ session_id, version: which }) => ({ id: session_id, version: which }),
      // A Bundle is an interface without an index signature: copied into a record for the output schema's type.
      toOutput: (bundle) => ({ bundle: Object.assign<Record<string, unknown>, object>({}, bundle) }),
    },
  }),
};
