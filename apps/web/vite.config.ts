import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const api = process.env.COMANDA_API ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
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
