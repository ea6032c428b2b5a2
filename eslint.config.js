// Lint checks correctness and architecture (STYLE.md §8): type-aware promise and switch
// checks, type-only imports, no `any`, and the import boundaries of the layout.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const root = import.meta.dirname;

/** Read at lint time so a new feature folder is covered without editing this file. */
function featureDirs(dir) {
  try {
    return readdirSync(`${root}/${dir}`, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

/** One zone per feature folder of `dir`: it may import only from itself among the features. */
function featureZones(dir, message) {
  return featureDirs(dir).map((name) => ({ target: `./${dir}/${name}`, from: `./${dir}`, except: [`./${name}`], message }));
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/coverage/**',
      'data/**',
      'screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', 'vitest.config.ts'] },
        tsconfigRootDir: root,
      },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      // react-router's navigate() returns a promise only for data routers, which we do not use.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', name: 'NavigateFunction', package: 'react-router' }] },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // Plain JS files (this config, scripts) are not part of any tsconfig: no type-aware rules.
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The domain is the pure core: it imports nothing of ours (no contract, server or web).
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@comanda/*'], message: 'packages/domain imports nothing of ours.' }] }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './packages/domain',
              from: ['./packages/contract', './apps', './e2e', './bench'],
              message: 'packages/domain imports nothing of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract sits on the domain only.
    files: ['packages/contract/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './packages/contract',
              from: ['./apps', './e2e', './bench'],
              message: 'The contract depends on nothing but the domain.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // randomUUID exists only in secure contexts; phones open the app over plain http on the LAN.
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='randomUUID']",
          message: 'crypto.randomUUID is missing in insecure contexts (http on the LAN): use newId() from lib/ids.ts.',
        },
        {
          selector: "MemberExpression[property.value='randomUUID']",
          message: 'crypto.randomUUID is missing in insecure contexts (http on the LAN): use newId() from lib/ids.ts.',
        },
      ],
      // Features never import other features: shared code goes down into components/ or lib/.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureZones('apps/web/src/features', 'Features never import other features: move shared code to components/ or lib/.'),
            {
              target: './apps/web/src/components',
              from: './apps/web/src/features',
              message: 'components/ is shared: it cannot depend on a feature.',
            },
            { target: './apps/web/src/lib', from: './apps/web/src/features', message: 'lib/ is shared: it cannot depend on a feature.' },
            { target: './apps/web', from: './apps/server', message: 'The web app talks to the server over HTTP only.' },
          ],
        },
      ],
    },
  },
  {
    // The one place allowed to call randomUUID: it falls back to getRandomValues when absent.
    files: ['apps/web/src/lib/ids.ts', 'apps/web/src/lib/ids.test.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The login route (the entry and its static imports, bench/login-route.ts) carries only the
    // first screen's texts; the full catalogue loads with the signed-in screens.
    files: [
      'apps/web/src/app/guards.tsx',
      'apps/web/src/app/providers.tsx',
      'apps/web/src/app/pwa-update.tsx',
      'apps/web/src/app/route-error.tsx',
      'apps/web/src/app/router.tsx',
      'apps/web/src/components/brand-mark.tsx',
      'apps/web/src/components/shared-device-lock.tsx',
      'apps/web/src/components/ui/button.tsx',
      'apps/web/src/components/ui/card.tsx',
      'apps/web/src/components/ui/cn.ts',
      'apps/web/src/components/ui/empty-state.tsx',
      'apps/web/src/components/ui/field.tsx',
      'apps/web/src/components/ui/form-error.tsx',
      'apps/web/src/components/ui/input.tsx',
      'apps/web/src/components/ui/spinner.tsx',
      'apps/web/src/features/auth/login-page.tsx',
      'apps/web/src/features/auth/pin-keypad-screen.tsx',
      'apps/web/src/lib/api.ts',
      'apps/web/src/lib/boot.ts',
      'apps/web/src/lib/config.ts',
      'apps/web/src/lib/connection.ts',
      'apps/web/src/lib/live.ts',
      'apps/web/src/lib/report-error.ts',
      'apps/web/src/lib/session.ts',
      'apps/web/src/lib/shared-device.ts',
      'apps/web/src/lib/use-live.ts',
      'apps/web/src/lib/use-zod-form.ts',
      'apps/web/src/main.tsx',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/i18n/es-MX.ts'], message: 'The login route imports its texts from lib/i18n/first-screen.ts.' }],
        },
      ],
    },
  },
  {
    // A write transaction answers only once it is on disk: SQLite may share its COMMIT (decision 0034).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/db/transact.ts', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: 'Run transactions through transact() (db/transact.ts): it waits for the group commit.',
        },
      ],
    },
  },
  {
    // The server never reaches into the web app's sources.
    files: ['apps/server/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/server', from: './apps/web', message: 'The server does not import web code.' },
            // Server features never import each other: what several share lives below them in model/ (or http/).
            ...featureZones(
              'apps/server/src/features',
              'Server features never import other features: move shared code to src/model/ (or src/http/).',
            ),
            {
              target: './apps/server/src/model',
              from: './apps/server/src/features',
              message: 'model/ sits below the features: it cannot depend on a feature.',
            },
          ],
        },
      ],
    },
  },
);
