import { type Static, Type } from 'typebox';
import type { OutputEntry } from './pipeline/job.js';
import type { SessionRow } from './store.js';

/** A note's state: the scribe's draft, signed by the doctor, or amended after signing. */
export const NoteStatus = Type.Union([Type.Literal('draft'), Type.Literal('signed'), Type.Literal('amended')]);
export type NoteStatus = Static<typeof NoteStatus>;

/**
 * What the scribe's status and history read of the doctor's notes. The notes domain builds on the scribe's sessions
 * and implements this (notes/service.ts `noteReader`); createService passes it in, so the scribe never imports the
 * notes domain (test/tooling/domain-imports.test.ts and .oxlintrc.json refuse such an import) and the two do not form a
 * circle.
 */
export interface NoteReader {
  /** The latest signed or amended version of the session's note: 0 while it is a draft or has none. */
  latestVersion(sessionId: string): Promise<number>;
  statusOf(latest: number): NoteStatus;
  /** The session's data.output[] with signed version `version` in place of the draft; undefined if there is none. */
  signedOutput(s: SessionRow, version: number): Promise<OutputEntry[] | undefined>;
  /** Sessions whose note is signed, newest first, from before `after`. */
  signedSessions(p: {
    workspaceId: string; patientId?: string; status?: string; after?: { created_at: string; txn_id: string }; limit: number;
  }): Promise<SessionRow[]>;
}
