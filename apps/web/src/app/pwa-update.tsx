import { useEffect, useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { Button } from '../components/ui/button.tsx';
import { t } from '../lib/i18n/first-screen.ts';
import { afterFirstScreen } from '../lib/after-first-screen.ts';

/**
 * Registers the service worker, 1 s after the app starts, where the browser offers one (HTTPS or
 * localhost; not over plain HTTP on a LAN address, where the app simply works without it) and
 * shows "Hay una nueva versión disponible" when a new version is waiting. "Actualizar" activates it and reloads the page, so
 * the new HTML and assets are used together; until then the old version stays whole.
 */
export function PwaUpdatePrompt() {
  const [update, setUpdate] = useState<(() => void) | null>(null);
  const [updating, setUpdating] = useState(false);

  useEffect(() => {
    if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !navigator.serviceWorker) return;
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    // A moment after the first screen is up: the worker's install downloads every asset, which
    // must not compete with drawing that screen.
    const cancelStart = afterFirstScreen(() => {
      void import('virtual:pwa-register')
        .then(({ registerSW }) => {
          if (cancelled) return;
          registerSW({
            immediate: true,
            onNeedRefresh: () => setUpdate(() => () => activateWaitingVersion()),
            // activateWaitingVersion reloads; the library's own reload on its "controlling" event would be a second one.
            onNeedReload: () => undefined,
            onRegisteredSW: (_url, registration) => {
              // A bar keeps the app open all night: look for a new version every hour.
              if (registration) timer = setInterval(() => void registration.update().catch(() => undefined), 60 * 60_000);
            },
          });
        })
        .catch(() => undefined);
    });
    return () => {
      cancelled = true;
      cancelStart();
      if (timer) clearInterval(timer);
    };
  }, []);

  if (!update) return null;
  return (
    <div
      role="alert"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto flex max-w-md items-center gap-3 rounded-xl bg-slate-900 p-3 text-white shadow-lg sm:bottom-5"
    >
      <RefreshCw className="h-5 w-5 shrink-0 text-brand-500" aria-hidden="true" />
      <p className="flex-1 text-sm font-medium">{t.pwa.updateAvailable}</p>
      <Button variant="ghost" size="sm" className="text-slate-300 hover:bg-slate-800" onClick={() => setUpdate(null)}>
        {t.pwa.later}
      </Button>
      <Button
        variant="accent"
        size="sm"
        disabled={updating}
        onClick={() => {
          setUpdating(true);
          update();
        }}
      >
        {t.pwa.update}
      </Button>
    </div>
  );
}

/** How long "Actualizar" waits for the new version to take over before reloading anyway. */
const TAKEOVER_MS = 4000;

/**
 * Activates the waiting version and reloads once it controls the page. The reload does not hang
 * on a single event: it happens on the controller change, on the waiting worker reaching
 * "activated", or when nothing is waiting any more (another tab already updated), whichever comes
 * first, and only once. A version that has not taken over after TAKEOVER_MS is stuck between the
 * two workers, and a navigation would wait on it forever: the registration is dropped and the page
 * reloads from the server, which serves the new version and registers its worker afresh.
 */
function activateWaitingVersion() {
  const sw = navigator.serviceWorker;
  let done = false;
  const reload = () => {
    if (done) return;
    done = true;
    window.location.reload();
  };
  sw.addEventListener('controllerchange', reload, { once: true });
  setTimeout(() => {
    if (done) return;
    void sw
      .getRegistration()
      .then((registration) => registration?.unregister())
      .catch(() => undefined)
      .finally(reload);
  }, TAKEOVER_MS);
  void sw
    .getRegistration()
    .then((registration) => {
      const waiting = registration?.waiting;
      if (!waiting) return reload();
      waiting.addEventListener('statechange', () => {
        if (waiting.state === 'activated') reload();
      });
      // The service worker's own protocol: it calls skipWaiting() on this message.
      waiting.postMessage({ type: 'SKIP_WAITING' });
    })
    .catch(reload);
}
