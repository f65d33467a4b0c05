import { useQuery } from '@tanstack/react-query';
import { clinic } from './clinic';

export function App() {
  const info = useQuery({ queryKey: ['service-info'], queryFn: () => clinic.serviceInfo() });
  return (
    <main>
      <h1>Clinic Desk</h1>
      {info.isPending && <p>Starting the clinic service…</p>}
      {info.isError && <p role="alert">The clinic service is not answering: {info.error.message}</p>}
      {info.data && (
        <p>
          Local integrations reach this clinic at <code>{info.data.baseUrl}</code> (API {info.data.version}).
        </p>
      )}
    </main>
  );
}
