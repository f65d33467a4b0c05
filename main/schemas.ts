import { Type } from 'typebox';

/**
 * Schemas of the IPC methods that have no HTTP route of their own (the dictation recordings on this computer, and
 * the options of an upload, whose HTTP counterpart is the scribe init body that the scribe service checks).
 */

export const RecordingIdSchema = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });

export const TxnIdSchema = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' });

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const RecordingMetaSchema = Type.Object({
  patient_id: Type.Optional(Id),
  patient_name: Type.Optional(Type.String({ maxLength: 200 })),
  appointment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  mime_type: Type.String({ minLength: 1, maxLength: 100, pattern: '^audio/[A-Za-z0-9.+-]+(;.*)?$' }),
}, { additionalProperties: false });

export const DictationOptionsSchema = Type.Object({
  templates: Type.Array(Type.Union([
    Type.Literal('clinical_notes_template'), Type.Literal('service_emr_template'), Type.Literal('transcript_template'),
  ]), { minItems: 1, maxItems: 3, uniqueItems: true }),
  language: Type.Union(['en-IN', 'en-US', 'hi', 'gu', 'kn', 'ml', 'ta', 'te', 'bn', 'mr', 'pa'].map((l) => Type.Literal(l))),
  mode: Type.Union([Type.Literal('dictation'), Type.Literal('consultation')]),
  model_type: Type.Union([Type.Literal('pro'), Type.Literal('lite')]),
  codify: Type.Boolean(),
}, { additionalProperties: false });
