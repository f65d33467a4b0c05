import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { clinic } from '../clinic';
import { type NoteDraft, type NoteVersion, notesApi } from './api';
import { RECHECKED } from '../../../server/notes/app-shapes';
import { type Emr, type FlagResolution, evidenceAfterRemoval, flagKey, flagsEditedBy, shiftAfterRemoval } from './emr';

export type Resolution = FlagResolution['resolution'];

/** A flag as the doctor sees it: where it stands now (items may have been removed above it) and its service key. */
export interface ShownFlag { code: string; message: string; pointer: string; key: string }

/** The doctor's working copy of the note: the EMR JSON, what they said about each flag (by its key), and where each flag stands. */
interface Work {
  emr: Emr;
  resolutions: Map<string, FlagResolution>;
  at: Map<string, string | null>;
  /** Bumped on every change: what the autosave waits on. */
  rev: number;
  base: 'draft' | 'amendment';
}

type Mode = 'view' | 'edit' | 'amend';

const SAVE_AFTER_MS = 700;

function setAt(emr: Emr, pointer: string, value: unknown): Emr {
  const out = structuredClone(emr) as unknown as Record<string, unknown>;
  const parts = pointer.split('/').slice(1);
  let o = out as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) {
    if (o[p] === undefined || o[p] === null) o[p] = {};
    o = o[p] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (value === undefined && !Array.isArray(o)) delete o[last];
  else o[last] = value;
  return out as unknown as Emr;
}

function listAt(emr: Emr, list: string): unknown[] {
  return list.split('/').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], emr) as unknown[];
}

/** Items without a name and blank lines are the doctor's unfinished rows: never part of what is saved. */
function forSaving(emr: Emr): Emr {
  const named = <T extends { name: string }>(xs: T[]) => xs.filter((x) => x.name.trim());
  const lines = (xs: string[]) => xs.filter((x) => x.trim());
  return {
    ...emr,
    chief_complaints: named(emr.chief_complaints), diagnoses: named(emr.diagnoses), medications: named(emr.medications), investigations: named(emr.investigations),
    history: { ...emr.history, past: lines(emr.history.past), family: lines(emr.history.family), allergies: lines(emr.history.allergies) },
    examination: lines(emr.examination), advice: lines(emr.advice),
  };
}

/** Rows that have content but no name: signing would drop them, so the doctor is asked first. */
export function unnamed(emr: Emr): number {
  const blank = (x: { name: string } & Record<string, unknown>) => !x.name.trim() && Object.entries(x).some(([k, v]) => k !== 'name' && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0) && k !== 'certainty');
  return [...emr.chief_complaints, ...emr.diagnoses, ...emr.medications, ...emr.investigations].filter((x) => blank(x as never)).length;
}

const resolutionsOf = (work: Work) => [...work.resolutions.values()];

/**
 * The note of a finished dictation: its versions, the working draft (saved as the doctor edits, a moment after the
 * last change), the safety flags still to resolve, signing and amending. `statusEmr` is the EMR JSON the scribe's
 * status gave (the scribe's draft, or the latest signed version once signed).
 */
export function useNote(txnId: string, statusEmr: Emr | null, isDoctor: boolean) {
  const qc = useQueryClient();
  const versions = useQuery({ queryKey: ['note-versions', txnId], queryFn: () => notesApi.noteVersions(txnId), enabled: !!statusEmr, retry: false });
  const unsigned = versions.data?.status === 'draft';
  const draft = useQuery({ queryKey: ['note-draft', txnId], queryFn: () => notesApi.noteDraft(txnId), enabled: unsigned && isDoctor, retry: false });
  const [mode, setMode] = useState<Mode>('view');
  const [work, setWork] = useState<Work | null>(null);
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  const [reason, setReason] = useState('');

  // The working copy starts from the doctor's saved edits, else from what the scribe made (as the status shows it);
  // once: after signing, the draft's stale cache must not bring it back.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !statusEmr || !unsigned || !draft.data) return;
    started.current = true;
    const d = draft.data;
    setWork({
      emr: d.edited ? d.emr : statusEmr, base: 'draft', rev: 0, at: new Map(),
      resolutions: new Map(d.flag_resolutions.map(({ code, pointer, resolution, reason }) => [flagKey({ code, pointer }), { code, pointer, resolution, ...(reason ? { reason } : {}) }])),
    });
  }, [statusEmr, unsigned, draft.data]);

  const send = (w: Work) => notesApi.saveNoteDraft(txnId, { emr: forSaving(w.emr), flag_resolutions: resolutionsOf(w) });
  const took = (d: NoteDraft) => {
    qc.setQueryData(['note-draft', txnId], d);
    // The service ran the scribe's checks on what was saved: its flags (new findings, those the change resolved)
    // are the note's. Not a change of the doctor's: nothing to save again.
    setWork((w) => (w && w.base === 'draft' ? { ...w, emr: { ...w.emr, flags: d.emr.flags } } : w));
  };
  const save = useMutation({ mutationFn: send, onSuccess: took });
  const saved = useRef(0);
  const latest = useRef(work);
  latest.current = work;
  const mutate = useRef(save.mutate);
  mutate.current = save.mutate;
  const flush = useCallback(() => {
    const w = latest.current;
    if (w && w.base === 'draft' && w.rev > saved.current) {
      saved.current = w.rev;
      mutate.current(w);
    }
  }, []);
  useEffect(() => {
    if (!work || work.base !== 'draft' || work.rev <= saved.current) return;
    const t = setTimeout(flush, SAVE_AFTER_MS);
    return () => clearTimeout(t);
  }, [work, flush]);
  // The window closing or hidden saves what was typed last, without waiting for the pause: the request is sent
  // before the handler returns (a mutation would start it a moment later, after the page is gone), and the
  // transport's request outlives the page (keepalive).
  const sendRef = useRef({ send, took });
  sendRef.current = { send, took };
  useEffect(() => {
    const now = () => {
      const w = latest.current;
      if (!w || w.base !== 'draft' || w.rev <= saved.current) return;
      saved.current = w.rev;
      // Not saved after all (the page stayed, the server did not answer): the next save sends it again.
      sendRef.current.send(w).then(sendRef.current.took, () => { if (saved.current === w.rev) saved.current = w.rev - 1; });
    };
    const hidden = () => document.visibilityState === 'hidden' && now();
    window.addEventListener('pagehide', now);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', now);
      document.removeEventListener('visibilitychange', hidden);
    };
  }, []);
  // Leaving the result (another session, another screen) saves what was typed last.
  useEffect(() => () => flush(), [flush]);

  // Every flag of the working copy where it stands now (gone with a removed item), and those still to resolve.
  const placed: ShownFlag[] = work ? (work.emr.flags ?? []).flatMap((f) => {
    const key = flagKey(f);
    const at = work.at.has(key) ? work.at.get(key)! : f.pointer;
    return f.resolution || at === null ? [] : [{ code: f.code, message: f.message, pointer: at, key }];
  }) : [];
  // An edit settles a flag the service checks again only once the service finds its cause gone (its answer to the
  // save): editing amoxicillin's strength does not settle its penicillin allergy.
  const settled = (f: ShownFlag) => {
    const r = work!.resolutions.get(f.key);
    return !!r && (r.resolution === 'kept' || !RECHECKED.has(f.code));
  };
  const flags = placed.filter((f) => !settled(f));

  const change = (fn: (w: Work) => Work) => setWork((w) => (w ? { ...fn(w), rev: w.rev + 1 } : w));
  const resolve = (keys: string[], resolution: Resolution) => (w: Work) => {
    const resolutions = new Map(w.resolutions);
    // A resolution names the flag as the scribe gave it (its code and first pointer), wherever it stands now.
    for (const f of (w.emr.flags ?? []).filter((f) => keys.includes(flagKey(f)))) resolutions.set(flagKey(f), { code: f.code, pointer: f.pointer, resolution });
    return { ...w, resolutions };
  };
  const editing = {
    set(pointer: string, value: unknown) {
      // A flag kept as is and then edited after all is "edited": what the doctor did last.
      change((w) => resolve(flagsEditedBy(placed, pointer).map((f) => f.key), 'edited')({ ...w, emr: setAt(w.emr, pointer, value) }));
    },
    add(list: string, item: unknown) {
      change((w) => ({ ...w, emr: setAt(w.emr, `/${list}/${listAt(w.emr, list).length}`, item) }));
    },
    remove(list: string, index: number) {
      change((w) => {
        const items = [...listAt(w.emr, list)];
        items.splice(index, 1);
        const gone = placed.filter((f) => f.pointer === `/${list}/${index}` || f.pointer.startsWith(`/${list}/${index}/`)).map((f) => f.key);
        const at = shiftAfterRemoval(new Map((w.emr.flags ?? []).map((f) => [flagKey(f), w.at.has(flagKey(f)) ? w.at.get(flagKey(f))! : f.pointer])), list, index);
        const emr = { ...setAt(w.emr, `/${list}`, items), evidence: evidenceAfterRemoval(w.emr.evidence, list, index) };
        return resolve(gone, 'edited')({ ...w, emr, at });
      });
    },
    valid: useCallback((pointer: string, ok: boolean) => setInvalid((s) => {
      if (ok === !s.has(pointer)) return s;
      const next = new Set(s);
      if (ok) next.delete(pointer); else next.add(pointer);
      return next;
    }), []),
  };
  const keep = (key: string, reason?: string) => change((w) => {
    const kept = resolve([key], 'kept')(w);
    if (!reason) return kept;
    const resolutions = new Map(kept.resolutions);
    resolutions.set(key, { ...resolutions.get(key)!, reason });
    return { ...kept, resolutions };
  });

  const done = async (v: NoteVersion) => {
    setWork(null);
    save.reset();
    setMode('view');
    setReason('');
    qc.setQueryData(['note-version', txnId, 'latest'], v);
    // The dictation's status now serves the signed version (and its clinical notes); its query is fetched on demand,
    // so fetch it, before the badge says signed over the draft's text.
    await qc.fetchQuery({ queryKey: ['dictation', txnId], queryFn: () => clinic.dictationStatus(txnId) }).catch(() => undefined);
    await Promise.all(['note-versions', 'note-draft', 'scribe-history'].map((k) => qc.invalidateQueries({ queryKey: [k] })));
  };
  const sign = useMutation({
    mutationFn: () => {
      // The signature carries the working copy: no autosave may follow it (it would be refused, the note being signed).
      saved.current = work!.rev;
      return notesApi.signNote(txnId, { emr: forSaving(work!.emr), flag_resolutions: resolutionsOf(work!) });
    },
    onSuccess: done,
  });
  const amend = useMutation({
    mutationFn: () => notesApi.amendNote(txnId, { emr: forSaving(work!.emr), reason: reason.trim(), flag_resolutions: resolutionsOf(work!) }),
    onSuccess: done,
  });
  const startAmendment = () => {
    if (!statusEmr) return;
    setWork({ emr: structuredClone(statusEmr), base: 'amendment', rev: 0, at: new Map(), resolutions: new Map() });
    setMode('amend');
  };
  const cancelAmendment = () => {
    setWork(null);
    setMode('view');
    setReason('');
  };

  return {
    versions, draft, mode, setMode, work, flags, editing, keep, invalid, save, sign, amend, reason, setReason, startAmendment, cancelAmendment,
    /** Saves the draft now if it changed (a field left, the window closing). */
    flush,
    /** The EMR JSON to show: the working copy while there is one, else what the status gave. */
    emr: work?.emr ?? statusEmr,
    unsaved: !!work && work.base === 'draft' && work.rev > saved.current,
  };
}
