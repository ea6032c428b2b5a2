/**
 * Web (QUALITY.md): gzipped JS of the login route and of each role's home, from a real
 * `vite build`; time to interactive of /waiter/home in Chromium with 4× CPU throttling,
 * signed in as a waiter — navigation start until the 'Mesas' heading is visible (target 1.0 s, issue 20).
 */
import { pathToFileURL } from 'node:url';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';
import {
  ACCOUNTS,
  buildWebWithManifest,
  fmt,
  login,
  loginRouteFiles,
  percentile,
  startComanda,
  staticClosure,
  type Figure,
} from './lib.ts';

const RUNS = Number(process.env.BENCH_TTI_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Each home's layout and screen: what the server preloads on its first visit (apps/server/src/http/boot.ts). */
const HOMES: [string, string[]][] = [
  ['admin (/admin/home)', ['src/app/layouts/admin-layout.tsx', 'src/features/tables/admin-tables-page.tsx']],
  ['waiter (/waiter/home)', ['src/app/layouts/waiter-layout.tsx', 'src/features/tables/waiter-home-page.tsx']],
  ['kitchen, barra (/kitchen/cocina)', ['src/app/layouts/kitchen-layout.tsx', 'src/features/board/board-page.tsx']],
];

function gzKb(dist: string, files: Iterable<string>): number {
  let bytes = 0;
  for (const f of files) if (f.endsWith('.js')) bytes += gzipSync(readFileSync(join(dist, f))).length;
  return bytes / 1024;
}

async function timeToInteractive(
  base: string,
  cookie: string,
): Promise<{ cold: number[]; warm: number[]; tables: number[]; cspViolations: number }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const [name, value] = cookie.split('=') as [string, string];
  const cold: number[] = [];
  const warm: number[] = [];
  const tables: number[] = [];
  let cspViolations = 0;
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-MX' });
      await context.addCookies([{ name, value, url: base }]);
      // Chromium reports some violations (eval refused, e.g. zod's `new Function` probe) only as a
      // `securitypolicyviolation` event, not on the console: the page logs each one.
      await context.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
        ),
      );
      const page = await context.newPage();
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations++;
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const measure = async (): Promise<{ heading: number; firstTable: number }> => {
        await page.goto(`${base}/waiter/home`, { waitUntil: 'commit', timeout: 30_000 });
        // One poll for both moments: a second wait would start only after the first one's answer
        // crossed the protocol, adding that round trip (~0.1 s at 4×) to the first card's time.
        const seen = await page.waitForFunction(
          () => {
            const w = window as unknown as { benchSeen?: { heading?: number; firstTable?: number } };
            const at = (w.benchSeen ??= {});
            if (at.heading === undefined) {
              const h = [...document.querySelectorAll('h1')].find((e) => e.textContent?.trim() === 'Mesas');
              if (h && h.getBoundingClientRect().height > 0) at.heading = performance.now();
            }
            if (at.firstTable === undefined && document.querySelector('[data-testid^="table-card-"]')) at.firstTable = performance.now();
            return at.heading !== undefined && at.firstTable !== undefined ? at : false;
          },
          null,
          { polling: 'raf', timeout: 30_000 },
        );
        return (await seen.jsonValue()) as { heading: number; firstTable: number };
      };
      const first = await measure();
      cold.push(first.heading);
      tables.push(first.firstTable);
      warm.push((await measure()).heading);
      // What the screen loads after it is up (the response schemas, 1 s later) runs too, so a
      // violation there is counted.
      await page.waitForTimeout(1500);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { cold, warm, tables, cspViolations };
}

export async function runWeb(log: (l: string) => void = console.log): Promise<Figure[]> {
  log('web: vite build, gzipped JS per route; /waiter/home in Chromium with 4× CPU throttling, 390×844, loopback');
  const dir = mkdtempSync(join(tmpdir(), 'comanda-bench-web-'));
  const dist = join(dir, 'web');
  const figures: Figure[] = [];
  try {
    const manifest = buildWebWithManifest(dist);
    const entry = loginRouteFiles(manifest);
    const loginKb = gzKb(dist, entry);
    const allKb = gzKb(dist, new Set(Object.values(manifest).map((c) => c.file)));
    log(`  login route (entry + static imports, ${entry.size} files): ${fmt(loginKb)} KB gz   target ≤ 150 KB`);
    figures.push({ benchmark: 'web', what: 'login route JS (gzip)', value: `${fmt(loginKb)} KB`, target: '≤ 150 KB', met: loginKb <= 150 });
    for (const [role, keys] of HOMES) {
      const missing = keys.filter((key) => !manifest[key]);
      if (missing.length > 0) {
        log(`  ${role}: chunk ${missing.join(', ')} not found in the build`);
        continue;
      }
      const closure = new Set<string>();
      for (const key of keys) staticClosure(manifest, key, closure);
      const own = [...closure].filter((f) => !entry.has(f) && f.endsWith('.js'));
      const homeKb = gzKb(dist, own);
      log(
        `  ${role}: + ${fmt(homeKb)} KB gz of its own chunks (layout and screen, ${own.length} files) → ${fmt(loginKb + homeKb)} KB gz in total, ${entry.size + own.length} files`,
      );
      figures.push({
        benchmark: 'web',
        what: `${role} home JS (gzip, incl. shared entry)`,
        value: `${fmt(loginKb + homeKb)} KB (+${fmt(homeKb)} KB own)`,
        target: '—',
        met: null,
      });
    }
    log(`  whole app, every chunk: ${fmt(allKb)} KB gz`);

    const server = await startComanda({ DATABASE_URL: `sqlite:${join(dir, 'pos.db')}`, DATA_DIR: dir, WEB_DIST: dist });
    try {
      const cookie = await login(server.url, ACCOUNTS.waiter);
      const tti = await timeToInteractive(server.url, cookie);
      const p50 = percentile(tti.cold, 50);
      log(
        `  /waiter/home, first visit (empty cache), 'Mesas' heading visible: median ${fmt(p50, 0)} ms, worst ${fmt(percentile(tti.cold, 100), 0)} ms over ${RUNS} runs   target ≤ 1,000 ms`,
      );
      log(
        `  same, first table card shown (data loaded): median ${fmt(percentile(tti.tables, 50), 0)} ms; repeat visit (cached assets): median ${fmt(percentile(tti.warm, 50), 0)} ms`,
      );
      log(`  CSP violations reported by Chromium: ${tti.cspViolations}`);
      figures.push(
        {
          benchmark: 'web',
          what: "TTI /waiter/home, 4× CPU throttle, first visit ('Mesas' visible)",
          value: `${fmt(p50, 0)} ms median (worst ${fmt(percentile(tti.cold, 100), 0)})`,
          target: '≤ 1,000 ms',
          met: p50 <= 1000,
        },
        {
          benchmark: 'web',
          what: 'same, until the first table card shows',
          value: `${fmt(percentile(tti.tables, 50), 0)} ms median`,
          target: '—',
          met: null,
        },
        {
          benchmark: 'web',
          what: 'same, repeat visit (cached assets)',
          value: `${fmt(percentile(tti.warm, 50), 0)} ms median`,
          target: '—',
          met: null,
        },
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runWeb().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
