// Builds the renderer once for both hosts: base './' keeps every asset URL
// relative, so the same dist/renderer works from file:// (Electron) and from
// http://127.0.0.1 (the browser host).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Monaco is one large chunk by nature; it is loaded from disk, never a CDN.
    chunkSizeWarningLimit: 4096,
  },
  worker: { format: 'es' },
});
