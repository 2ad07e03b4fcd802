// Builds the renderer once for both hosts: base './' keeps every asset URL
// relative, so the same dist/renderer works from file:// (Electron) and from
// http://127.0.0.1 (the browser host).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// Vite marks its tags crossorigin; from file:// that turns same-folder loads
// into CORS requests from origin 'null', which fail. Same-origin hosts
// (app://, http://127.0.0.1) do not need it.
function dropCrossorigin(): Plugin {
  return {
    name: 'chronoscope-drop-crossorigin',
    enforce: 'post',
    transformIndexHtml: (html) => html.replace(/ crossorigin(?=[\s>])/g, ''),
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [react(), dropCrossorigin()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Monaco is one large chunk by nature; it is loaded from disk, never a CDN.
    chunkSizeWarningLimit: 4096,
  },
  worker: { format: 'es' },
});
