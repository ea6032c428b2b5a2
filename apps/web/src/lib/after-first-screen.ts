/** How long work that can wait stays off the first screen's frames (decision 0032). */
const AFTER_FIRST_SCREEN_MS = 1000;

/** Runs `work` a moment after the first screen is up; the returned function cancels it (an effect's cleanup). */
export function afterFirstScreen(work: () => void): () => void {
  const timer = setTimeout(work, AFTER_FIRST_SCREEN_MS);
  return () => clearTimeout(timer);
}
