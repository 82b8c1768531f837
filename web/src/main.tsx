import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { tokenStore } from './lib/api';
import { queryClient } from './lib/query';
import { ensureRef } from './lib/ref';
import { applyTheme } from './lib/theme';
import { router } from './router';
import './styles/theme.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/issues.css';
import './styles/features.css';
import './styles/charts.css';
import './styles/responsive.css';
import './styles/inbox.css';
import './styles/quick-edit.css';
import './styles/roadmap.css';
import './styles/filters.css';

// Before the first paint, so a dark-mode user never sees a light flash.
applyTheme();

// A session kept from before: the reference data every screen waits for (teams, states, people)
// is read now, beside the session check, rather than after it and the first render. A token the
// server no longer takes fails both; signing in again starts from an empty cache.
if (tokenStore.get()) ensureRef().catch(() => undefined);

// The built app keeps its shell for reloads without the server (web/sw/service-worker.js);
// the dev server has no /sw.js. The worker file itself is never taken from the HTTP cache.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  void navigator.serviceWorker
    .register('/sw.js', { scope: '/', updateViaCache: 'none' })
    .catch(() => undefined);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
