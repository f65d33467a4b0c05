import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Recording, RecordingMeta } from '../preload/contract.js';
import { ServiceError } from '../server/shared/errors.js';

const CHUNK = /^(\d{6})\.part$/;

function writeDurably(file: string, data: Uint8Array | string) {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

interface Stored extends RecordingMeta {
  id: string;
  created_at: string;
  finished: boolean;
  duration_s: number | null;
  txn_id: string | null;
  uploaded_at: string | null;
}

/**
 * Dictation audio on disk, in the app's data folder: one folder per recording, each MediaRecorder chunk written
 * and fsynced as its own file the moment it arrives, so a crash loses at most the chunk in flight; an unfinished
 * recording is still listed (finished: false) and can be uploaded after a restart. Concatenating the chunks in
 * order gives the recorder's file (WebM/Ogg streams are written so).
 */
export function recordingStore(dir: string, now: () => Date = () => new Date()) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const folder = (id: string) => join(dir, id);
  const metaFile = (id: string) => join(folder(id), 'meta.json');

  function read(id: string): Stored {
    if (!existsSync(metaFile(id))) throw new ServiceError(404, 'NOT_FOUND', 'This recording is not on this computer (it may have been discarded)');
    return JSON.parse(readFileSync(metaFile(id), 'utf8')) as Stored;
  }
  const write = (s: Stored) => writeDurably(metaFile(s.id), JSON.stringify(s));

  function chunks(id: string): string[] {
    return readdirSync(folder(id)).filter((n) => CHUNK.test(n)).sort();
  }

  function describe(s: Stored): Recording {
    const parts = chunks(s.id);
    const bytes = parts.reduce((n, p) => n + readFileSync(join(folder(s.id), p)).length, 0);
    return { ...s, chunks: parts.length, bytes };
  }

  return {
    start(meta: RecordingMeta): Recording {
      const s: Stored = { ...meta, id: randomUUID(), created_at: now().toISOString(), finished: false, duration_s: null, txn_id: null, uploaded_at: null };
      mkdirSync(folder(s.id), { mode: 0o700 });
      write(s);
      return describe(s);
    },
    append(id: string, seq: number, chunk: Uint8Array) {
      const s = read(id);
      if (s.finished) throw new ServiceError(409, 'RECORDING_FINISHED', 'This recording was already stopped');
      writeDurably(join(folder(id), `${String(seq).padStart(6, '0')}.part`), chunk);
    },
    finish(id: string, durationS: number): Recording {
      const s = { ...read(id), finished: true, duration_s: durationS };
      write(s);
      return describe(s);
    },
    markUploaded(id: string, txnId: string): Recording {
      const s = { ...read(id), txn_id: txnId, uploaded_at: now().toISOString() };
      write(s);
      return describe(s);
    },
    get(id: string) {
      return describe(read(id));
    },
    list(): Recording[] {
      return readdirSync(dir)
        .filter((id) => existsSync(metaFile(id)))
        .map((id) => describe(read(id)))
        .sort((a, b) => b.created_at.localeCompare(a.created_at));
    },
    audio(id: string): Buffer {
      read(id);
      return Buffer.concat(chunks(id).map((p) => readFileSync(join(folder(id), p))));
    },
    discard(id: string) {
      read(id);
      rmSync(folder(id), { recursive: true, force: true });
    },
  };
}
export type RecordingStore = ReturnType<typeof recordingStore>;
