import { extname } from 'node:path';
import { TEMPLATE_IDS, type TemplateId } from './contracts.js';
import type { SessionStatus } from './store.js';

/** Audio is recognised by its extension (decisions.md, Scribe), with the content type stored for it. */
export const AUDIO_TYPES: Readonly<Record<string, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  webm: 'audio/webm',
  flac: 'audio/flac',
  amr: 'audio/amr',
};
export const AUDIO_EXTENSIONS = Object.keys(AUDIO_TYPES);

/** The lower-case extension without its dot, or '' when there is none. */
export const extensionOf = (name: string) => extname(name).slice(1).toLowerCase();

export const isAudioName = (name: string) => Object.hasOwn(AUDIO_TYPES, extensionOf(name));

/** The actions that select this pipeline: the interface's value and the upstream SDKs' name for it. */
export const ACTIONS = ['scribe-v2', 'ekascribe-v2'] as const;
export const isAction = (s: string) => (ACTIONS as readonly string[]).includes(s);

/** Template ids as a request may ask for them: ours, and upstream's name of the EMR template. */
export const TEMPLATE_ALIASES: Readonly<Record<string, TemplateId>> = {
  ...Object.fromEntries(TEMPLATE_IDS.map((t) => [t, t])),
  eka_emr_template: 'service_emr_template',
};

export const TEMPLATE_NAMES: Readonly<Record<TemplateId, string>> = {
  clinical_notes_template: 'Clinical Notes',
  service_emr_template: 'EMR Template',
  transcript_template: 'Transcript',
};

/** A transaction id we accept: what upstream clients make (uuids, timestamps, slugs); safe in a key and a URL. */
export const TXN_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * A session's status as clients see it (status additional_data.status, the sessions list): ours, except that a
 * session not yet initialized is `awaiting_init` (what the client still has to do) rather than `uploading`.
 */
export const CLIENT_STATUSES = ['awaiting_init', 'queued', 'processing', 'completed', 'partial', 'failed'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];
export const clientStatus = (status: SessionStatus): ClientStatus => (status === 'uploading' ? 'awaiting_init' : status);
export const sessionStatus = (status: ClientStatus): SessionStatus => (status === 'awaiting_init' ? 'uploading' : status);
