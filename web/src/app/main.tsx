/** Dashboard entry: providers (theme, toasts, i18n, SWR) around the router. */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { limits } from '#contracts/limits';
import { CacheProvider } from '../api/swr';
import { i18n, i18nReady } from '../i18n';
import { router } from './router';
import { theme } from './theme';

/** SPEC.md section 9: toasts last 3000 ms and enter in 200 ms (Mantine has one duration for both ways). */
const toastEnterMs = 200;

/** Renders once the reader's catalogue is in; a failed load still renders (the keys show, not a blank page). */
const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="light">
        <Notifications position="top-right" autoClose={limits.toastMs} transitionDuration={toastEnterMs} />
        <I18nextProvider i18n={i18n}>
          <CacheProvider>
            <RouterProvider router={router} />
          </CacheProvider>
        </I18nextProvider>
      </MantineProvider>
    </StrictMode>,
  );

void i18nReady.then(render, render);
