/** How long work that can wait stays off the first screen's frames (decision 0032). */
const AFTER_FIRST_SCREEN_MS = 1000;

/** Runs `work` a moment after the first screen is up; the returned function cancels it (an effect's cleanup). */
export function afterFirstScreen(work: () => void): () => void {
  const timer = setTimeout(work, AFTER_FIRST_SCREEN_MS);
  return () => clearTimeout(timer);
}

/**
 * Runs `work` once the browser has drawn its next frame (a task queued before a frame delays
 * that frame: on a slow phone the first screen's tables would wait for it). A hidden page draws
 * no frames, so `work` runs after 0.5 s at the latest.
 */
export function afterNextPaint(work: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    work();
  };
  requestAnimationFrame(() => setTimeout(run, 0));
  setTimeout(run, 500);
}
