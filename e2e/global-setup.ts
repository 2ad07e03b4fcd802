// The e2e suite drives the built app: say plainly what is missing instead of
// letting every test time out against a 503 page.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function globalSetup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const missing = ['dist/electron/cli/main.js', 'dist/renderer/index.html'].filter((p) => !existsSync(`${root}/${p}`));
  if (missing.length > 0) {
    throw new Error(`e2e: not built (${missing.join(', ')} missing) — run \`npm run build\` first`);
  }
}
