import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The first visit's HTML, with what the first screen would otherwise wait for (decision 25).
 *
 * A signed-in browser that opens an app route gets `index.html` with a JSON data block — the
 * signed-in user, whether this browser is an enrolled shared device (every signed-in screen
 * asks, for its idle lock), the business information where the role's layout shows it (its
 * name in the header) and, on a home screen that lists the tables, the tables — which the web
 * app puts into its query cache before its first render, and `<link rel="modulepreload">` for
 * that home's chunks, so the JS, the session and the data no longer arrive one after the other.
 *
 * The data is produced by injecting the real API requests with the browser's own cookie, so
 * the session check, the role guard and the response schema are exactly those of the API: a
 * role that may not read `/api/tables` gets no tables. The response is `no-store` and the
 * JSON cannot close its script element (`<` is escaped). On a home of the user's own role, `#root`
 * also carries that home's skeleton (a `<template data-skeleton-for>` of `index.html`, with the
 * business name), so the layout paints from the HTML before any script has run; the app's first
 * render replaces it. The service worker never sees this
 * response: it precaches the built `/index.html` (served as a file, without data) and answers
 * later navigations with that.
 */

/** Home routes whose first screen is the tables list, by the role that may see it. */
const TABLE_HOMES: Record<string, string> = { '/waiter/home': 'waiter', '/admin/home': 'admin' };
/** The roles each home belongs to (another role is sent elsewhere by the web app: nothing to preload). */
const HOME_ROLES: Record<string, string[]> = {
  '/waiter/home': ['waiter'],
  '/admin/home': ['admin'],
  '/kitchen/cocina': ['kitchen', 'barra'],
  '/kitchen/barra': ['kitchen', 'barra'],
};
/** The skeleton (`<template data-skeleton-for>` in index.html) each home paints before its scripts run. */
const HOME_SKELETONS: Record<string, string> = {
  '/waiter/home': 'waiter',
  '/admin/home': 'admin',
  '/kitchen/cocina': 'kitchen',
  '/kitchen/barra': 'kitchen',
};
/** The roles whose layout shows the business information (`/api/config/general`). */
const GENERAL_CONFIG_ROLES = new Set(['waiter', 'admin']);
/** The Vite manifest keys of each home's layout and screen (preloaded with the entry). */
const HOME_CHUNKS: Record<string, string[]> = {
  '/waiter/home': ['src/app/layouts/waiter-layout.tsx', 'src/features/tables/waiter-home-page.tsx'],
  '/admin/home': ['src/app/layouts/admin-layout.tsx', 'src/features/tables/admin-tables-page.tsx'],
  '/kitchen/cocina': ['src/app/layouts/kitchen-layout.tsx', 'src/features/board/board-page.tsx'],
  '/kitchen/barra': ['src/app/layouts/kitchen-layout.tsx', 'src/features/board/board-page.tsx'],
};

export const BOOT_ELEMENT_ID = 'comanda-boot';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

export interface AppShell {
  /** index.html without its skeleton templates. */
  template: string;
  /** Each skeleton's markup, by its `data-skeleton-for`. */
  skeletons: Map<string, string>;
  /** Per home path, the chunk URLs to preload (those not already loaded by the entry). */
  preloads: Map<string, string[]>;
}

export function loadAppShell(webDist: string): AppShell | null {
  const index = join(webDist, 'index.html');
  if (!existsSync(index)) return null;
  const skeletons = new Map<string, string>();
  const template = readFileSync(index, 'utf8').replace(
    /\s*<template data-skeleton-for="([\w-]+)">([\s\S]*?)<\/template>/g,
    (_all, name: string, markup: string) => {
      skeletons.set(name, markup.trim().replace(/>\s+</g, '><'));
      return '';
    },
  );
  const preloads = new Map<string, string[]>();
  const manifestPath = join(webDist, '.vite', 'manifest.json');
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
    const closure = (key: string, seen: Set<string>) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(chunk.file)) return;
      seen.add(chunk.file);
      for (const dep of chunk.imports ?? []) closure(dep, seen);
    };
    const entry = new Set<string>();
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, entry);
    for (const [path, keys] of Object.entries(HOME_CHUNKS)) {
      const files = new Set<string>();
      for (const key of keys) closure(key, files);
      preloads.set(
        path,
        [...files].filter((f) => !entry.has(f) && f.endsWith('.js')).map((f) => `/${f}`),
      );
    }
  }
  return { template, skeletons, preloads };
}

/** JSON safe inside a `<script>` element: no `<` (so no `</script>` or `<!--`), no line separators. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A home's skeleton with the business name in its slot (the fallback title stays when there is none). */
function skeletonOf(shell: AppShell, path: string, generalConfig: unknown): string {
  const markup = shell.skeletons.get(HOME_SKELETONS[path] ?? '') ?? '';
  const name = (generalConfig as { name?: unknown } | undefined)?.name;
  if (typeof name !== 'string' || name === '') return markup;
  return markup.replace(
    /(<span [^>]*data-slot="name"[^>]*>)[^<]*(<\/span>)/g,
    (_all, open: string, close: string) => `${open}${escapeText(name)}${close}`,
  );
}

/** The HTML for an app route: the shell, plus the signed-in user's first data when there is a session. */
export async function renderAppShell(app: FastifyInstance, shell: AppShell, request: FastifyRequest): Promise<string> {
  const cookie = request.headers.cookie;
  if (!cookie) return shell.template;
  const path = request.url.split('?')[0] ?? '/';
  const read = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    return res.statusCode === 200 ? res.json<unknown>() : undefined;
  };
  // Every read at once, the session's among them: each answers for this cookie with the API's own
  // checks, and what the user's role does not show is dropped once the session has answered. On a
  // home that lists the tables they are read on the guess that the user is of its role.
  const [me, tablesRead, generalRead, sharedDevice] = await Promise.all([
    read('/api/auth/me'),
    TABLE_HOMES[path] ? read('/api/tables') : undefined,
    read('/api/config/general'),
    read('/api/shared-devices/current'),
  ]);
  const user = (me as { user?: { role: string } } | undefined)?.user;
  if (!user) return shell.template;
  const tables = TABLE_HOMES[path] === user.role ? tablesRead : undefined;
  const generalConfig = GENERAL_CONFIG_ROLES.has(user.role) ? generalRead : undefined;
  // An answer that was not read (undefined) leaves its key out of the JSON.
  const boot = { user, tables: (tables as { tables: unknown } | undefined)?.tables, generalConfig, sharedDevice };
  const home = HOME_ROLES[path]?.includes(user.role) ?? false;
  const links = (home && shell.preloads.get(path)) || [];
  const head = links.map((href) => `<link rel="modulepreload" crossorigin href="${escapeAttr(href)}">`).join('');
  const skeleton = home ? skeletonOf(shell, path, generalConfig) : '';
  const data = `<script type="application/json" id="${BOOT_ELEMENT_ID}">${scriptSafeJson(boot)}</script>`;
  return shell.template.replace('</head>', `${head}</head>`).replace('<div id="root"></div>', `<div id="root">${skeleton}</div>${data}`);
}
