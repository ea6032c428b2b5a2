import { useCallback, useEffect, useState } from 'react';

export const SOUND_STORAGE_KEY = 'kitchen-sound';
export const SOUND_VOLUME = 0.8;

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (context) return context;
  const Ctor = globalThis.AudioContext as typeof AudioContext | undefined;
  if (!Ctor) return null;
  context = new Ctor();
  return context;
}

/**
 * Browsers start audio suspended until the user touches the page; after a reload with the
 * sound already on, the first tap anywhere unlocks it.
 */
function unlock(): void {
  void audio()
    ?.resume()
    .catch(() => undefined);
}

/** A two-tone chime made in the browser, so no audio asset has to be shipped. */
export function playNewOrderTone(): void {
  const ctx = audio();
  if (!ctx) return;
  void ctx.resume().catch(() => undefined);
  const start = ctx.currentTime + 0.01;
  const gain = ctx.createGain();
  gain.connect(ctx.destination);
  gain.gain.setValueAtTime(0, start);
  [880, 1320].forEach((frequency, i) => {
    const at = start + i * 0.22;
    gain.gain.setValueAtTime(SOUND_VOLUME, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + 0.2);
    const osc = ctx.createOscillator();
    osc.type = 'sine';
    osc.frequency.setValueAtTime(frequency, at);
    osc.connect(gain);
    osc.start(at);
    osc.stop(at + 0.2);
  });
}

function readPreference(): boolean {
  try {
    return localStorage.getItem(SOUND_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The sound preference, kept on this device ('true' means on, SPEC §9). */
export function useSoundPreference(): [boolean, () => void] {
  const [enabled, setEnabled] = useState(readPreference);
  useEffect(() => {
    if (!enabled) return;
    window.addEventListener('pointerdown', unlock, { once: true });
    return () => window.removeEventListener('pointerdown', unlock);
  }, [enabled]);
  const toggle = useCallback(() => {
    const next = !enabled;
    try {
      localStorage.setItem(SOUND_STORAGE_KEY, String(next));
    } catch {
      /* private mode: the choice lasts for this visit only */
    }
    // The toggle is a user gesture: the one moment audio may be started without a prompt.
    if (next) unlock();
    setEnabled(next);
  }, [enabled]);
  return [enabled, toggle];
}
