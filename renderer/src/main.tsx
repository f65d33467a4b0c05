import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { asFailure } from './clinic';
import './styles.css';

// The waiting-room display (a TV's browser at /display) loads on its own, keeping the app's first paint small.
const Display = lazy(() => import('./display/Display'));
const onDisplay = window.location.pathname === '/display';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused request (bad input, not allowed, not found) will not fix itself; a server hiccup may.
      retry: (count, e) => count < 2 && asFailure(e).status >= 500,
      refetchOnWindowFocus: true,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      {onDisplay ? <Suspense fallback={null}><Display /></Suspense> : <App />}
    </QueryClientProvider>
  </StrictMode>,
);
