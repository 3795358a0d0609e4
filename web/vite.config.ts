/**
 * Dashboard build: web/ → dist/web (served at / with an index.html fallback). Assets are content-hashed;
 * screens are lazy chunks, so the initial JS stays inside the DESIGN.md budget (bench: test/bench/web.ts).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.SNAG_DEV_API ?? 'http://localhost:3000';

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    port: 5173,
    // The local stack (npm start) serves the API and the widget; the dev server only serves the dashboard.
    proxy: { '/api': api, '/widget': api },
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
  },
});
