import { useMutation } from '@tanstack/react-query';
import { clinic } from '../clinic';
import { ErrorNote, Icon } from '../ui';

/**
 * Saves the signed note as its FHIR R4 document (the bundle GET /api/v1/notes/{txn_id}/fhir answers), for a clinic
 * that hands records to another system or to the patient by file rather than through the API.
 */
export function ExportFhir({ txnId, version }: { txnId: string; version: number }) {
  const save = useMutation({
    mutationFn: async () => {
      const bundle = await clinic.noteFhir(txnId, 'latest');
      const url = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/fhir+json' }));
      const a = Object.assign(document.createElement('a'), { href: url, download: `note-${txnId}-v${version}.fhir.json` });
      a.click();
      // The download has its own copy once started: the URL need not outlive this turn of the event loop.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
  });
  return (
    <>
      <button className="btn sm" type="button" onClick={() => save.mutate()} disabled={save.isPending}><Icon name="copy" size={14} />Export FHIR</button>
      {save.error && <ErrorNote what="The FHIR export failed" error={save.error} />}
    </>
  );
}
