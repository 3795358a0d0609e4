/** Dashboard entry: providers (theme, toasts, i18n, SWR) around the router. */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { CacheProvider } from '../api/swr';
import { Toasts } from '../components/Toasts';
import { i18n, i18nReady } from '../i18n';
import { router } from './router';
import { theme } from './theme';

/** Renders once the reader's catalogue is in; a failed load still renders (the keys show, not a blank page). */
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="light">
        <I18nextProvider i18n={i18n}>
          <CacheProvider>
            <RouterProvider router={router} />
          </CacheProvider>
          <Toasts />
        </I18nextProvider>
      </MantineProvider>
    </StrictMode>,
  );

void i18nReady.then(render, render);
