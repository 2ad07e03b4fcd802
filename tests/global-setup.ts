// Tests that run real processes (the CLI, the hook, concurrent writers) run the
// built JavaScript, so compile the Node side once before the suite.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/mark-executable.mjs'], { cwd: root, stdio: 'inherit' });
  // The hook's bundles (package.json build:hook), so tests run the hook as it ships.
  execFileSync(process.execPath, ['scripts/build-hook.mjs'], { cwd: root, stdio: 'inherit' });
}
