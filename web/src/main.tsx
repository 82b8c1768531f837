import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from './lib/query';
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
import './styles/filters.css';

// Before the first paint, so a dark-mode user never sees a light flash.
applyTheme();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
