import { StrictMode } from 'react';
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
// the layout and the screen with its data in one pass instead of placeholders first.
const boot = takeBootData();
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <Providers boot={boot}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
if (boot) void warmRoute(location.pathname, boot.user.role).then(render);
else render();
