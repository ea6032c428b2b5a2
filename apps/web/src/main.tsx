import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers.tsx';
import { router, warmRoute } from './app/router.tsx';
import { takeBootData } from './lib/boot.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing');
// Signed in on the first visit: the session and first data are in the HTML (decision 25), and
// the route's chunks are preloaded; render once they are evaluated, so the first render draws
// the layout and the screen with its data in one pass instead of placeholders first (decision
// 32). On a network slow enough to keep them 2 s, the placeholders show meanwhile as before.
// That render runs at once, in the task that found the chunks ready, not in a task of its own
// with a frame of the skeleton before it.
const boot = takeBootData();
const app = (
  <StrictMode>
    <Providers boot={boot}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);
const render = () => createRoot(root).render(app);
if (boot) {
  let rendered = false;
  const once = () => {
    if (rendered) return;
    rendered = true;
    const first = createRoot(root);
    flushSync(() => first.render(app));
  };
  void warmRoute(location.pathname, boot.user.role).then(once);
  setTimeout(once, 2000);
} else render();
