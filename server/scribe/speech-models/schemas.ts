import { type Static, Type } from 'typebox';

/**
 * Schemas of the speech-model routes (routes.ts), our own endpoints behind Settings → Speech models.
 * The Electron IPC handlers validate their arguments with these same objects.
 */

/** "pocketsphinx" or a Whisper model id (the manager's folder-name rule). */
export const SpeechModelId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[\\w.-]+$', description: 'pocketsphinx, or a Whisper model id (tiny, base, small, medium, …)' });

export const SpeechModelParams = Type.Object({ id: SpeechModelId });

export const SetDefaultBody = Type.Object({ id: SpeechModelId }, { additionalProperties: false });
export type SetDefaultBody = Static<typeof SetDefaultBody>;

export const DownloadState = Type.Object({
  state: Type.Union([Type.Literal('idle'), Type.Literal('downloading'), Type.Literal('failed')], {
    description: 'idle: no download running (the model is installed, or was never fetched); downloading; failed: the last download failed (message says why)',
  }),
  bytes_done: Type.Union([Type.Integer(), Type.Null()], { description: 'Bytes on disk so far, all files' }),
  bytes_total: Type.Union([Type.Integer(), Type.Null()], { description: 'All files\' bytes: exact once the server has said each file\'s size, the catalogue\'s estimate before' }),
  percent: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()], { description: 'Why the last download failed' }),
});
export type DownloadState = Static<typeof DownloadState>;

export const SpeechModel = Type.Object({
  id: SpeechModelId,
  name: Type.String(),
  description: Type.String(),
  engine: Type.Union([Type.Literal('pocketsphinx'), Type.Literal('whisper')]),
  languages: Type.Array(Type.String(), { description: 'Interface language ids it recognises' }),
  size_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'On disk when installed, else the download\'s approximate size; null for the built-in engine' }),
  installed: Type.Boolean(),
  is_default: Type.Boolean({ description: 'The clinic\'s default: tried first for every dictation it can recognise' }),
  download: DownloadState,
});
export type SpeechModel = Static<typeof SpeechModel>;

export const SpeechModelList = Type.Object({ models: Type.Array(SpeechModel) });
