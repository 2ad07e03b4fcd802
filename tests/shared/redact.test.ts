// One redaction for every text Chronoscope keeps or shows (shared/redact.ts):
// a corpus of real-shaped secrets, each masked with the rest of its command
// still readable, and a corpus of ordinary commands and prompts left alone.
// The secrets below are made up, in the shapes the real ones have.
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../shared/redact.js';

const GHP = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const NPM = 'npm_' + 'x9Yz8Wv7Ut6Sr5Qp4On3Ml2Kj1Ih0GfEdCbA';
const OPENAI = 'sk-proj-' + 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56';
const ANTHROPIC = 'sk-ant-api03-' + 'aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z-AbCdEf';
const AWS = 'AKIA' + 'IOSFODNN7EXAMPL2';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

/** [typed, kept]: every secret masked, the rest as typed. */
const SECRETS: [string, string][] = [
  [`GITHUB_TOKEN=${GHP} npm publish --//registry.npmjs.org/:_authToken=${NPM}`, 'GITHUB_TOKEN=*** npm publish --//registry.npmjs.org/:_authToken=***'],
  [`curl -H "X-Api-Key: ${OPENAI}" -H "Cookie: session=9f8e7d6c5b4a; theme=dark" "https://x/?access_token=a1b2c3d4e5&page=2"`, 'curl -H "X-Api-Key: ***" -H "Cookie: ***" "https://x/?access_token=***&page=2"'],
  [`export OPENAI_API_KEY=${OPENAI}`, 'export OPENAI_API_KEY=***'],
  [`export ANTHROPIC_API_KEY="${ANTHROPIC}" && claude`, 'export ANTHROPIC_API_KEY=*** && claude'],
  ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY aws s3 ls', 'AWS_SECRET_ACCESS_KEY=*** aws s3 ls'],
  [`aws configure set aws_access_key_id ${AWS}`, 'aws configure set aws_access_key_id AKIA***'],
  ['PASSWORD=hunter2 ./deploy.sh', 'PASSWORD=*** ./deploy.sh'],
  ["DB_PASSWORD='p@ss w0rd' psql", 'DB_PASSWORD=*** psql'],
  ['docker run -e STRIPE_SECRET=sk_live_51HxYzAbCdEf0123456789 app', 'docker run -e STRIPE_SECRET=*** app'],
  ['stripe login --api-key sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'stripe login --api-key ***'],
  [`echo ${GHP} | gh auth login --with-token`, 'echo ghp_*** | gh auth login --with-token'],
  ['git clone https://oauth2:glpat-Ab12Cd34Ef56Gh78Ij90@gitlab.com/g/r.git', 'git clone https://gitlab.com/g/r.git'],
  ['curl -H "PRIVATE-TOKEN: glpat-Ab12Cd34Ef56Gh78Ij90" https://gitlab.com/api/v4/projects', 'curl -H "PRIVATE-TOKEN: ***" https://gitlab.com/api/v4/projects'],
  ['curl -X POST -H "Authorization: Bearer xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp" https://slack.com/api/chat.postMessage', 'curl -X POST -H "Authorization: Bearer ***" https://slack.com/api/chat.postMessage'],
  ['SLACK_WEBHOOK=x; echo xoxp-1234567890-0987654321-AbCdEfGhIjKl', 'SLACK_WEBHOOK=x; echo xoxp-***'],
  [`curl -H "Authorization: token github_pat_11ABCDEFG0abcdefghijkl_MNOPQRSTUVWXYZ0123456789abcdef" https://api.github.com`, 'curl -H "Authorization: token ***" https://api.github.com'],
  [`curl -H 'Authorization: ${JWT}' https://x`, "curl -H 'Authorization: ***' https://x"],
  [`echo ${JWT}`, 'echo ***'],
  ['curl "https://api.example.com/v1?api_key=Zx9Yw8Vu7&q=cats"', 'curl "https://api.example.com/v1?api_key=***&q=cats"'],
  ['wget "https://example.com/f?token=abc123def&password=hunter2"', 'wget "https://example.com/f?token=***&password=***"'],
  ['curl -u bob:hunter2 https://x', 'curl -u *** https://x'],
  ['npm publish --otp 123456', 'npm publish --otp ***'],
  ['mysql -psecret db', 'mysql -p*** db'],
  ['twine upload -p pypi-AgEIcHlwaS5vcmcCJGE0ZmM1ZjE3LTk2NzQtNDM4NC1iZDAzLTU1ZmVhMTZhMTk1OQ dist/*', 'twine upload -p pypi-*** dist/*'],
  ['HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 python train.py', 'HF_TOKEN=*** python train.py'],
  ['curl "https://maps.googleapis.com/x?key=AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"', 'curl "https://maps.googleapis.com/x?key=***"'],
  ['echo "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----" > k', 'echo "-----BEGIN OPENSSH PRIVATE KEY----- ***" > k'],
  ['curl -H "Set-Cookie: sid=31d4d96e407aad42; Path=/" x', 'curl -H "Set-Cookie: ***" x'],
  ['deploy with password hunter2', 'deploy with password ***'],
  ['the API key is 4f9a8b7c6d5e please use it', 'the API key is *** please use it'],
  ['login with token: Xy12zW98', 'login with token: ***'],
  ['env NPM_TOKEN=abcdef0123456789 npm whoami', 'env NPM_TOKEN=*** npm whoami'],
  ["bash -c 'GH_TOKEN=gho_16C7e42F292c6912E7710c838347Ae178B4a gh pr list'", "bash -c 'GH_TOKEN=*** gh pr list'"],
  // A random token can hold no digit at all (a 20-character one about one time in 35): mixed case is enough.
  ['git remote add gl https://gitlab.com/g/r.git && glab auth login --stdin <<< glpat-AbCdEfGhIjKlMnOpQrSt', 'git remote add gl https://gitlab.com/g/r.git && glab auth login --stdin <<< glpat-***'],
  ['use hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh for the download', 'use hf_*** for the download'],
];

/** Ordinary commands and prompts: nothing in them is a secret. */
const ORDINARY = [
  'git commit -m "fix token parsing"',
  'export PATH=/usr/local/bin:$PATH',
  'grep -r sk- src',
  'grep -rn "ghp_" src/redact.ts',
  'KEY_COUNT=3 npm test',
  'MONKEY=1 BYPASS=0 make',
  'GITHUB_TOKEN=$GH_TOKEN gh release create v1.2.0',
  'NPM_TOKEN="${NPM_TOKEN}" npm publish',
  'AWS_PROFILE=dev AWS_REGION=eu-west-1 terraform plan',
  'SSH_AUTH_SOCK=/tmp/agent.sock git fetch',
  'GOOGLE_APPLICATION_CREDENTIALS_FILE=./sa.json node app.js',
  'cd /work/src && npm run build -- --mode production',
  'curl -sS https://example.com/api?page=2&limit=50',
  'git push origin main',
  'npm install --save-dev @types/node task-runner-cli',
  'ls -la src/ && echo done',
  'rg "password reset" docs/',
  'reset the password flow and add a test',
  'the token was revoked yesterday',
  'grep -rn password src/auth/login1.ts',
  'vim tests/shared/redact.test.ts',
  'kubectl get secret my-app -o yaml',
  'echo $OPENAI_API_KEY | wc -c',
  'docker build --build-arg NODE_ENV=production .',
  'openssl genrsa -out key.pem 2048',
  'python -c "print(\'sk-\' + \'x\')"',
  'Fix the login bug and add a test',
  'npm_config_cache_folder=/tmp/npm npm ci',
  'pip install sk-learn-style-components-demo',
];

describe('redactSecrets', () => {
  for (const [typed, kept] of SECRETS) {
    it(`masks: ${typed.slice(0, 90)}`, () => {
      expect(redactSecrets(typed)).toBe(kept);
      // Idempotent: text read back from a store written with the rule is shown the same.
      expect(redactSecrets(kept)).toBe(kept);
    });
  }
  for (const text of ORDINARY) {
    it(`keeps: ${text}`, () => expect(redactSecrets(text)).toBe(text));
  }

  it("drops a URL's user-info wherever the URL sits, and masks tokens and passwords", () => {
    expect(redactSecrets('git push https://me:tok3n@github.com/o/r.git main')).toBe('git push https://github.com/o/r.git main');
    expect(redactSecrets("git remote add o 'ssh://git:pw@host:22/r' && git push o")).toBe("git remote add o 'ssh://host:22/r' && git push o");
    expect(redactSecrets('X=git+https://u:p@h/x npm i')).toBe('X=git+https://h/x npm i');
    // A scheme glued to digits or dots in front: stripped from its first letter, as before.
    expect(redactSecrets('echo 12.svn+ssh://u@h/r')).toBe('echo 12.svn+ssh://h/r');
    expect(redactSecrets('curl -H "Authorization: Bearer abc.def" -u bob:hunter2 https://x')).toBe('curl -H "Authorization: Bearer ***" -u *** https://x');
  });

  // Not a speed measurement: read once, a million characters take milliseconds; read once per
  // letter, 200,000 took 10.6 s here and a million would take minutes, past this limit.
  it('reads long unbroken runs of characters once (a hex dump, a token-like word), not once per letter', { timeout: 20_000 }, () => {
    const hex = 'a1'.repeat(500_000);
    const command = `echo '${hex}' | xxd -r -p > blob.bin && git push https://me:secret@example.com/r.git main`;
    expect(redactSecrets(command)).toBe(`echo '${hex}' | xxd -r -p > blob.bin && git push https://example.com/r.git main`);
    expect(redactSecrets(`${'x'.repeat(1_000_000)}://u:p@host`)).toBe(`${'x'.repeat(1_000_000)}://host`);
    for (const run of ['x-'.repeat(200_000), 'A_'.repeat(300_000), `${'password '.repeat(100_000)}`, `${'eyJ'.repeat(300_000)}`]) {
      expect(redactSecrets(run).length).toBeGreaterThan(0);
    }
  });
});
