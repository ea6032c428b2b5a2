import { useEffect, useRef, type HTMLAttributes, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/**
 * A box that scrolls must be reachable by keyboard (WCAG 2.1.1): while its content overflows and
 * nothing inside can take focus, it takes a tab stop itself as a named region, so the arrow keys
 * scroll it; otherwise it stays out of the tab order. `mounted`: false while the box is not rendered
 * (a closed dialog), so it is watched again once it is.
 */
export function useReachableScroll(
  ref: RefObject<HTMLElement | null>,
  label: { label?: string; labelledBy?: string },
  mounted = true,
): void {
  const { label: name, labelledBy } = label;
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => {
      const overflows = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
      const reachable = overflows && el.querySelector(FOCUSABLE) === null;
      if (reachable === (el.getAttribute('tabindex') === '0')) return;
      if (reachable) {
        el.setAttribute('tabindex', '0');
        el.setAttribute('role', 'region');
        if (labelledBy) el.setAttribute('aria-labelledby', labelledBy);
        else if (name) el.setAttribute('aria-label', name);
      } else for (const attr of ['tabindex', 'role', 'aria-labelledby', 'aria-label']) el.removeAttribute(attr);
    };
    update();
    const resized = new ResizeObserver(update);
    resized.observe(el);
    const changed = new MutationObserver(() => {
      // What was added inside may be taller without resizing the box itself.
      for (const child of Array.from(el.children)) resized.observe(child);
      update();
    });
    for (const child of Array.from(el.children)) resized.observe(child);
    changed.observe(el, { childList: true, subtree: true, characterData: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, [ref, name, labelledBy, mounted]);
}

/** A scrolling box (a ticket, a printer's paper) that a keyboard can scroll: see useReachableScroll. */
export function ScrollArea({ label, ...props }: HTMLAttributes<HTMLDivElement> & { label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useReachableScroll(ref, { label });
  return <div ref={ref} {...props} />;
}
