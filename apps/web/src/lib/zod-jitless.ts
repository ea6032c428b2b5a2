/**
 * zod as the web app loads it: the build resolves every `import … from 'zod'` (the contract's
 * schemas) to this module (vite.config.ts, `resolve.alias`), so zod is configured before the first
 * schema is built. `jitless`: zod's object schemas would otherwise probe `new Function('')` once
 * (to compile a faster parser), and the page's Content Security Policy (`script-src 'self'`, no
 * eval) refuses it and reports a violation. The schemas parse the same; only the compiled
 * fast path is not used, which a browser under this policy could not use anyway.
 */
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
