import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { t } from '../lib/i18n/first-screen.ts';
import { useSession } from '../lib/session.ts';
import { useLockDevice, useSharedDevice } from '../lib/shared-device.ts';

const ACTIVITY = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
const CHECK_EVERY_MS = 1000;

/**
 * Auto-lock of an enrolled shared device: after its idle time without a touch or a key, the
 * session is closed and the keypad comes back. Renders nothing; off when the device has no idle lock.
 */
export function SharedDeviceLock() {
  const session = useSession();
  const device = useSharedDevice();
  const { lock } = useLockDevice();
  const idleMs = device.data?.enrolled ? device.data.idleLockSeconds * 1000 : 0;
  const signedIn = Boolean(session.data);
  const last = useRef(Date.now());
  const locking = useRef(false);
  const lockRef = useRef(lock);
  lockRef.current = lock;

  useEffect(() => {
    if (!idleMs || !signedIn) return;
    last.current = Date.now();
    locking.current = false;
    const touch = () => {
      last.current = Date.now();
    };
    for (const type of ACTIVITY) window.addEventListener(type, touch, { passive: true, capture: true });
    const timer = window.setInterval(() => {
      if (locking.current || Date.now() - last.current < idleMs) return;
      locking.current = true;
      lockRef.current({
        onDone: () => toast.info(t.sharedDevices.locked),
        onError: () => {
          locking.current = false;
          last.current = Date.now();
        },
      });
    }, CHECK_EVERY_MS);
    return () => {
      for (const type of ACTIVITY) window.removeEventListener(type, touch, { capture: true });
      window.clearInterval(timer);
    };
  }, [idleMs, signedIn]);
  return null;
}
