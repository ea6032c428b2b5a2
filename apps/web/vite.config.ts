import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
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

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
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
  server: {
    proxy: {
      '/api': { target: api, ws: true },
      '/manifest.webmanifest': { target: api },
      '/ca.crt': { target: api },
    },
  },
  // The manifest tells the server which chunks a home needs, to preload them (apps/server/src/http/boot.ts).
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 400, manifest: true },
});
