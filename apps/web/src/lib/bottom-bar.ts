import { useEffect, useRef } from 'react';

/**
 * For a screen with a fixed bar at the bottom edge: publishes the bar's height as the CSS
 * variable --bottom-bar-h while the screen is shown, so other floating things (the offline
 * notice) sit above the bar instead of on its buttons.
 */
export function useBottomBar<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--bottom-bar-h', `${node.offsetHeight}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(node);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--bottom-bar-h');
    };
  }, []);
  return ref;
}
