import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { clinic } from '../clinic';
import { LANGUAGE_NAMES } from '../languages';
import { ErrorNote, Loading, Note, Progress, bytes } from '../ui';

type Readiness = Awaited<ReturnType<typeof clinic.serverStatus>>['scribe'];

const languages = (ids: readonly string[]) => (ids.length > 2 ? `${ids.length} languages` : ids.map((l) => LANGUAGE_NAMES.get(l) ?? l).join(', '));

/** The scribe's engines and decoder as the service reports them (server/scribe/readiness.ts): ready, or why not and what fixes it. */
export function ScribeReadinessList({ scribe }: { scribe: Readiness }) {
  return (
    <ul className="stack tight" aria-label="Speech engines" style={{ margin: 0, paddingLeft: 18 }}>
      {[...scribe.engines, { ...scribe.decoder, languages: [] as string[] }].map((p) => (
        <li key={p.id} data-engine={p.id}>
          <code>{p.id}</code>{' '}
          {p.ready ? <>ready{p.languages.length > 0 && `: ${languages(p.languages)}`}</> : (
            <>
              <strong>not ready</strong>{p.languages.length > 0 && ` (${languages(p.languages)} once ready)`}: {p.reason}
              {p.fix && <div className="small">To fix: <code>{p.fix}</code></div>}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** One line: what a dictation can be in now, or that none can be transcribed yet. */
export function ScribeSummary({ scribe }: { scribe: Readiness }) {
  return scribe.ready
    ? <span className="chip CK" data-testid="scribe-ready"><span className="dot" />Transcribes {languages(scribe.languages)}</span>
    : <span className="chip NS" data-testid="scribe-ready"><span className="dot" />Cannot transcribe yet</span>;
}

/**
 * The step after first-run set-up on a computer where the scribe cannot transcribe: what is missing and, when a
 * Whisper model is what is missing, its download right here (progress as Settings → Speech models shows it).
 * `done` goes on to the app (at once where the scribe is ready); a download carries on in the background.
 */
export function FirstRunSpeech({ done }: { done: () => void }) {
  const qc = useQueryClient();
  const status = useQuery({ queryKey: ['server-status'], queryFn: () => clinic.serverStatus() });
  const scribe = status.data?.scribe;
  // The engine whose fix is a Settings download: that is the download to offer.
  const offered = scribe?.engines.find((e) => !e.ready && e.id.startsWith('whisper:') && e.fix?.startsWith('Settings'));
  const modelId = offered?.id.slice('whisper:'.length);
  const models = useQuery({
    queryKey: ['speech-models'],
    queryFn: () => clinic.speechModels(),
    enabled: modelId !== undefined,
    refetchInterval: (q) => (q.state.data?.available && q.state.data.value.some((m) => m.download.state === 'downloading') ? 1000 : false),
  });
  const model = models.data?.available ? models.data.value.find((m) => m.id === modelId) : undefined;
  const download = useMutation({
    mutationFn: (id: string) => clinic.speechModelDownload(id),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['speech-models'] }),
  });
  useEffect(() => {
    if (scribe?.ready) done();
  }, [scribe, done]);
  if (status.isPending || scribe?.ready) return <Loading />;
  return (
    <section className="stack" aria-label="Dictation on this computer">
      <h2>Dictation on this computer</h2>
      <p className="muted">The clinic is ready. The scribe cannot transcribe dictations on this computer yet:</p>
      {scribe && <ScribeReadinessList scribe={scribe} />}
      {model && !model.installed && (
        <div className="stack tight">
          {model.download.state === 'downloading'
            ? <><Progress value={model.download.percent} label={`Downloading ${model.name}`} /><span className="small muted">{model.download.percent ?? 0}%</span></>
            : (
              <button className="btn primary" type="button" onClick={() => download.mutate(model.id)} disabled={download.isPending}>
                Download {model.name}{model.size_bytes ? ` (${bytes(model.size_bytes)})` : ''}
              </button>
            )}
          {model.download.state === 'failed' && <Note kind="error" title="Download failed">{model.download.message}</Note>}
        </div>
      )}
      {model?.installed && <Note kind="ok" title={`${model.name} is installed`}>Dictations in its languages are transcribed on this computer.</Note>}
      <ErrorNote error={status.error ?? models.error ?? download.error} />
      <p className="small muted">This stays in Settings → Clinic server (what is ready) and Settings → Speech models (downloads).</p>
      <div className="row between"><span /><button className="btn lg" type="button" onClick={done}>Continue</button></div>
    </section>
  );
}
