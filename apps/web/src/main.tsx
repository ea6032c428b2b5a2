import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers.tsx';
import { router, warmRoute } from './app/router.tsx';
import { takeBootData } from './lib/boot.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing');
// Signed in on the first visit: the session and first data are in the HTML (decision 25), so
// start evaluating this route's screens now rather than one after the other during render.
const boot = takeBootData();
if (boot) warmRoute(location.pathname, boot.user.role);
createRoot(root).render(
  <StrictMode>
    <Providers boot={boot}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
