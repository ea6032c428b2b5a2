import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { MutationCache, onlineManager, QueryCache, QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { afterNextPaint } from '../lib/after-first-screen.ts';
import { liveClient } from '../lib/live.ts';
import { SESSION_KEY, useSession } from '../lib/session.ts';
import { ApiError } from '../lib/api.ts';
import { seedQueryCache, type BootData } from '../lib/boot.ts';
import { PwaUpdatePrompt } from './pwa-update.tsx';
import { Toaster } from './toasts.tsx';

/**
 * The queries' online state starts from the browser's as it is now, not only from later events: a
 * Wi-Fi lost before the first screen mounted its queries would otherwise never be heard.
 */
function followBrowserOnline(): void {
  onlineManager.setEventListener((setOnline) => {
    setOnline(navigator.onLine);
    const online = () => setOnline(true);
    const offline = () => setOnline(false);
    addEventListener('online', online);
    addEventListener('offline', offline);
    return () => {
      removeEventListener('online', online);
      removeEventListener('offline', offline);
    };
  });
}

function makeClient(boot: BootData | null): QueryClient {
  followBrowserOnline();
  // A 401 anywhere means the session ended: forget it, and the guards send the user to /login.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) client.setQueryData(SESSION_KEY, null);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      // A change is never "paused" waiting for navigator.onLine: it either reaches the server,
      // waits in the outbox (lib/outbox), or fails at once with why; nothing spins forever.
      // Queries keep the default: offline they pause and keep showing what they had.
      mutations: { networkMode: 'always' },
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: true,
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      },
    },
  });
  seedQueryCache(client, boot, SESSION_KEY);
  return client;
}

/** Opens the live socket while signed in; once each connection's topics are live refetches what is shown, on session end signs out. */
function LiveConnection() {
  const session = useSession();
  const qc = useQueryClient();
  const signedIn = Boolean(session.data);
  useEffect(() => {
    if (!signedIn) return;
    // The socket opens once the first screen is on it (its handshake and status changes are no
    // part of that frame); its first confirmation's refetch (and the response schemas it loads)
    // also waits for the next frame.
    let ended = false;
    afterNextPaint(() => {
      if (!ended) liveClient.start();
    });
    const offResync = liveClient.onResync(() => afterNextPaint(() => void qc.invalidateQueries()));
    const offEnded = liveClient.onSessionEnded(() => {
      // Session first, then the rest: clear() would detach the guard's observer and it would never see the null.
      qc.setQueryData(SESSION_KEY, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
    });
    return () => {
      ended = true;
      offResync();
      offEnded();
      liveClient.stop();
    };
  }, [signedIn, qc]);
  return null;
}

/** False until the browser has drawn the first screen: what is not on it mounts a frame later. */
function useFirstScreenDrawn(): boolean {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => afterNextPaint(() => setDrawn(true)), []);
  return drawn;
}

/** `boot`: the first visit's data from the HTML (lib/boot.ts), read once by main.tsx. */
export function Providers({ children, boot = null }: { children: ReactNode; boot?: BootData | null }) {
  const [client] = useState(() => makeClient(boot));
  const drawn = useFirstScreenDrawn();
  return (
    <QueryClientProvider client={client}>
      <LiveConnection />
      {children}
      {drawn && <AfterFirstScreen />}
    </QueryClientProvider>
  );
}

/** The toasts' host (sonner loads with it, app/toasts.tsx) and the new-version notice: nothing of them is on the first screen. */
function AfterFirstScreen() {
  return (
    <>
      {/*
        Top right for 4 s (SPEC), but below the app bar and a phone screen's sticky title row
        (back button, table, total), so a toast never covers them; compact (index.css).
        No close button: it could not be a 44 px target on a compact toast, and a toast leaves
        by itself or with a swipe.
      */}
      <Suspense fallback={null}>
        <Toaster
          position="top-right"
          duration={4000}
          richColors
          visibleToasts={3}
          offset={{ top: 64, right: 16 }}
          mobileOffset={{ top: 124, left: 12, right: 12 }}
        />
      </Suspense>
      <PwaUpdatePrompt />
    </>
  );
}
