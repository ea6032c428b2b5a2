/**
 * The chunks of an area's screens, registered by the router: an area's layout loads them all a
 * moment after sign-in, so a screen first opened with the Wi-Fi down is already on the phone
 * (over plain HTTP there is no service worker to keep them).
 */
type Loader = () => Promise<unknown>;
const areas = new Map<string, Loader[]>();

export function registerScreens(area: string, loaders: Loader[]): void {
  areas.set(area, loaders);
}

/** Loads every screen of the area; a chunk that fails now is loaded again when it is opened. */
export function preloadScreens(area: string): Promise<void> {
  return Promise.all((areas.get(area) ?? []).map((load) => load().catch(() => undefined))).then(() => undefined);
}
