import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const api = process.env.COMANDA_API ?? 'http://localhost:3000';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every script and style sheet of the build;
 * the server sends the one the phone accepts (@fastify/static `preCompressed`). The first visit
 * over the bar's Wi-Fi moves ~190 KB instead of ~650 KB, with no compression work per request.
 */
function precompress(): Plugin {
  return {
    name: 'comanda-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = join(dir, name);
        const data = await readFile(file);
        if (data.length < 1024) continue;
        await writeFile(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * Asks V8 to compile every function of the first screen's large scripts while they download
 * (Chromium's explicit compile hints: `//# allFunctionsCalledOnLoad` as a script's first line).
 * Without it V8 compiles each function on the main thread the first time it runs, and most of
 * these scripts run on the first render (React DOM, the router, the query client): a slow phone's
 * main thread spent ~0.5 s (at 4× CPU throttling) compiling them between the entry's start and
 * the tables on screen. Only the entry's own scripts above `minBytes`: the small ones and the
 * screens' chunks stay lazy. Browsers without compile hints read a comment.
 */
function compileHints(minBytes: number): Plugin {
  const HINT = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'comanda-compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const entries = Object.values(bundle).filter((c) => c.type === 'chunk' && c.isEntry);
        const initial = new Set<string>();
        const visit = (name: string) => {
          const chunk = bundle[name];
          if (!chunk || chunk.type !== 'chunk' || initial.has(name)) return;
          initial.add(name);
          chunk.imports.forEach(visit);
        };
        for (const entry of entries) visit(entry.fileName);
        for (const name of initial) {
          const chunk = bundle[name];
          if (chunk?.type !== 'chunk' || chunk.code.length < minBytes || chunk.code.startsWith(HINT)) continue;
          chunk.code = HINT + chunk.code;
          // One line more at the top: the source map's lines move down by one.
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
        }
      },
    },
  };
}

/**
 * Each home's first screen: its layout and its screen (the manifest keys the server preloads,
 * apps/server/src/http/boot.ts). Earlier homes come first when they share a module.
 */
const HOMES: [string, string[]][] = [
  ['waiter', ['src/app/layouts/waiter-layout.tsx', 'src/features/tables/waiter-home-page.tsx']],
  ['admin', ['src/app/layouts/admin-layout.tsx', 'src/features/tables/admin-tables-page.tsx']],
  ['kitchen', ['src/app/layouts/kitchen-layout.tsx', 'src/features/board/board-page.tsx']],
];

/**
 * Fewer files on the first screen. Left to itself the bundler makes a chunk of every set of
 * modules that the same screens share, so the first visit of `/waiter/home` loaded 34 files (a
 * chunk per icon, per small hook, per shared component), and a slow phone's main thread pays for
 * each file (its request, its response, its module record) before the entry can run. Here:
 *
 * - the entry and everything it imports statically: one chunk (the `$initial` modules);
 * - every icon not already in it: one chunk;
 * - per home, the app's own modules its layout and screen import statically (and the entry does
 *   not): one chunk. The layout and the screen stay chunks of their own, so the manifest still
 *   has their keys. A module that several homes share goes with the first of `HOMES`.
 *
 * Only the app's own sources are followed: a package's barrel (`@comanda/contract`, `lucide-react`)
 * would reach modules that tree-shaking leaves out (the contract's schemas and zod). The other
 * screens import what they need from these chunks as they did from the small ones.
 */
function firstScreenChunks(): { plugin: Plugin; groups: Rolldown.CodeSplittingGroup[] } {
  const homeOf = new Map<string, string>();
  const plugin: Plugin = {
    name: 'comanda-first-screen-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const own = (id: string) => id.includes('/apps/web/src/');
      /** The app's own modules `from` imports statically, transitively (`from` included). */
      const reach = (from: string[]) => {
        const seen = new Set<string>();
        const visit = (id: string) => {
          if (seen.has(id)) return;
          seen.add(id);
          for (const next of this.getModuleInfo(id)?.importedIds ?? []) if (own(next)) visit(next);
        };
        from.forEach(visit);
        return seen;
      };
      const initial = reach(ids.filter((id) => this.getModuleInfo(id)?.isEntry));
      for (const [home, files] of HOMES) {
        const starts = ids.filter((id) => files.some((file) => id.endsWith(`/apps/web/${file}`)));
        for (const id of reach(starts)) if (!initial.has(id) && !starts.includes(id) && !homeOf.has(id)) homeOf.set(id, home);
      }
    },
  };
  const groups: Rolldown.CodeSplittingGroup[] = [
    { name: 'index', tags: ['$initial'], priority: 3 },
    { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
    { name: (id) => homeOf.get(id) ?? null, debugName: 'homes', priority: 1, includeDependenciesRecursively: false },
  ];
  return { plugin, groups };
}

/**
 * Every module's `sonner` is the app's own `src/app/toasts.tsx` (the same `toast` and `Toaster`),
 * which loads the library itself after the first screen: it is not in the entry.
 */
function toastsAfterFirstScreen(): Plugin {
  const own = fileURLToPath(new URL('./src/app/toasts.tsx', import.meta.url));
  return {
    name: 'comanda-toasts-after-first-screen',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'sonner' || !importer || importer.split('?')[0] === own) return null;
      return own;
    },
  };
}

const firstScreen = firstScreenChunks();

export default defineConfig({
  plugins: [
    toastsAfterFirstScreen(),
    react(),
    tailwindcss(),
    firstScreen.plugin,
    compileHints(100_000),
    precompress(),
    // Installable app: the server serves the manifest (with the business name); this builds the
    // service worker. It precaches the app shell and keeps the catalogue (network first) for offline
    // starts; no other /api response is ever cached. A new version waits for "Actualizar".
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      includeAssets: ['favicon.svg', 'icons/*.png'],
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/ca\.crt$/, /^\/manifest\.webmanifest$/],
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname === '/api/products',
            handler: 'NetworkFirst',
            method: 'GET',
            options: {
              cacheName: 'comanda-catalogo',
              networkTimeoutSeconds: 5,
              expiration: { maxEntries: 8 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
  ],
  // zod configured before any schema is built (src/lib/zod-jitless.ts).
  resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)) }] },
  server: {
    proxy: {
      '/api': { target: api, ws: true },
      '/manifest.webmanifest': { target: api },
      '/ca.crt': { target: api },
    },
  },
  // The manifest tells the server which chunks a home needs, to preload them (apps/server/src/http/boot.ts).
  build: {
    target: 'es2022',
    sourcemap: false,
    // The entry is one chunk (firstScreenChunks): React DOM, the router, the query client, sonner.
    chunkSizeWarningLimit: 500,
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: firstScreen.groups } } },
  },
});
