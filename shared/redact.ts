// One redaction for every text Chronoscope keeps or shows: commands, prompts,
// reasons, effect records, notifications — and what is later shared. The main
// process masks before anything is stored, and every reader masks again on the
// way out (stores written before this rule hold text as typed). Pure and
// linear in the text's length: it runs in every hook process.
//
// What is masked (the rules and their false positives: docs/design.md,
// "Secrets in what is kept"):
// - tokens by their known prefixes (GitHub, GitLab, Slack, OpenAI/Anthropic,
//   Stripe, AWS key ids, npm, PyPI, Hugging Face, Google, DigitalOcean), JWTs,
//   PEM private-key blocks — the prefix stays (`ghp_***`);
// - a URL's user-info; `?access_token=`-style query parameters;
// - `Authorization`, `Proxy-Authorization`, `X-Api-Key`, `X-…-Token`,
//   `Private-Token`, `Cookie` and `Set-Cookie` headers;
// - `NAME=value` where NAME ends in _TOKEN, _KEY, _SECRET, _PASSWORD, … (also
//   behind `export`, `env`, `-e`); a value that is only a `$reference` stays;
// - npm's `:_authToken=`; `--password`/`--token`/`--api-key`/… options;
//   `-u user:pass`; mysql's glued `-psecret`;
// - in words: "password hunter2", "token: x9…" — a value after such a word
//   when it holds a digit or a symbol (so "fix token parsing" stays).

export const MASK = '***';

/** `https://user:token@host/x` → `https://host/x`; anything that is not a URL passes unchanged. */
export function stripUrlCredentials(url: string): string {
  return url.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s]*@/, '$1');
}

/**
 * A URL's user-info anywhere in a text: `$1$2` keeps what precedes it.
 * A scheme is tried only where a run of scheme characters begins (its leading
 * digits, `+`, `.` or `-` skipped, as the first match would): tried at every
 * letter of a long run (a hex dump, a token), the scan was quadratic in the
 * run's length — 100,000 characters took a hook 4.7 s.
 */
const URL_USER_INFO = /(?<![a-zA-Z0-9+.-])([0-9+.-]*)([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s'"]*@/g;

/** A PEM private key, to its END line (or the text's end: a key cut short); not one masked already. */
const PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----(?! \*\*\*)[^]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;

/**
 * Tokens with a well-known prefix; only a word's start is tried (no letter,
 * digit or `_` before it). The body must hold a digit or mix upper and lower
 * case: real tokens are random base62 (a 20-character one has no digit about
 * one time in 35), and kebab- or snake-case names (`sk-learn-style-components-demo`,
 * `npm_config_cache_folder`) are neither.
 */
const PREFIXED = new RegExp(
  '(?<![A-Za-z0-9_])(' +
    [
      'gh[pousr]_',
      'github_pat_',
      'gl(?:pat|dt|rt|ptt|cbt|imt|agent|oas)-',
      'xox[abposre]-',
      'xapp-',
      'sk-',
      '[sr]k_(?:live|test)_',
      'npm_',
      'pypi-',
      'hf_',
      'AIza',
      'dop_v1_',
      'shp(?:at|ss|ca|pa)_',
      'SG\\.',
    ].join('|') +
    ')([A-Za-z0-9_\\-.]{16,})',
  'g',
);

/** AWS access key ids: exactly 16 upper-case letters or digits after the prefix. */
const AWS_KEY_ID = /(?<![A-Za-z0-9_])(A(?:KIA|SIA))[A-Z0-9]{16}(?![A-Za-z0-9_])/g;

const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;

/** Authorization-style headers: the scheme (Bearer, Basic…) stays, the credential goes. */
const AUTH_HEADER = /\b((?:proxy-)?authorization\s*:\s*)(?:(bearer|basic|token|digest|apikey|negotiate|bot)\s+)?[^\s'"]+/gi;
/** Headers whose whole value is a secret, up to the quote or line end (a cookie holds spaces and `;`). */
const SECRET_HEADER = /\b((?:set-)?cookie\s*:\s*|x-[a-z0-9-]{0,40}(?:api-?key|token|secret|auth)\s*:\s*|api[-_]?key\s*:\s*|private-token\s*:\s*)[^'"\n]+/gi;
/** A bearer token outside a header (`--header Bearer …` split, logs). */
const BEARER = /\b(bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi;

const NPMRC_AUTH = /(:_(?:authToken|auth|password)\s*=\s*)("[^"]*"|'[^']*'|[^\s'"]+)/gi;

const SECRET_PARAMS = 'access_token|refresh_token|id_token|token|key|api_key|apikey|api-key|password|passwd|pwd|secret|client_secret|private_token|auth|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token';
const QUERY_PARAM = new RegExp(`([?&;](?:${SECRET_PARAMS})=)[^&\\s'"#;]+`, 'gi');

/** `NAME=value`: the name's word starts here (nothing word-like before it), so a long run is tried once. */
const ASSIGNMENT = /(?<![A-Za-z0-9_$])([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|)'"`]*)/g;
/** Names whose value is a secret: ends in _TOKEN, _KEY, _SECRET, _PASSWORD… or is one of those words alone. */
const SECRET_NAME =
  /(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|PASSPHRASE|CREDENTIALS?|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|SECRET_?KEY|AUTH|AUTH_?TOKEN|KEY)$/i;
/** Names that end like a secret but never hold one: where it lives, or a count. */
const NOT_SECRET_NAME = /^(?:PWD|OLDPWD)$|_(?:FILE|PATH|DIR|URL|ENV|NAME|ID|TYPE|COUNT|LEN|LENGTH|SIZE)$/i;

/** Options whose value is a secret, as the next word or after `=`. */
const SECRET_OPTION = /((?:^|\s)(?:--password|--passwd|--token|--otp|--api-key|--apikey|--secret|--client-secret|--access-token|--auth-token|--private-token)(?:\s+|=)['"]?)[^\s'"]+/gi;
const USER_OPTION = /((?:^|\s)(?:-u|--user|--proxy-user)(?:\s+|=)['"]?)[^\s'":]*:[^\s'"]+/g;

/** "password hunter2", "token: x9f…": the value after such a word, when it holds a digit or a symbol and is no path or option. */
const IN_WORDS = /\b(password|passwd|passphrase|secret|token|api[ _-]?key)(\s*[:=]\s*|\s+(?:is|was|=|:)?\s*)([^\s'"`,;)&]{4,})/gi;

function maskPrefixed(_m: string, prefix: string, body: string): string {
  return /[0-9]/.test(body) || (/[a-z]/.test(body) && /[A-Z]/.test(body)) ? `${prefix}${MASK}` : `${prefix}${body}`;
}

function maskAssignment(whole: string, name: string, value: string): string {
  if (!SECRET_NAME.test(name) || NOT_SECRET_NAME.test(name)) return whole;
  const bare = value.replace(/^["']|["']$/g, '');
  // Empty, or only a reference to another variable or a command's output: no secret is written here.
  if (bare === '' || bare === MASK || /^\$(?:\{?[A-Za-z_][A-Za-z0-9_]*\}?|\(.*\))$/.test(bare)) return whole;
  return `${name}=${MASK}`;
}

function maskInWords(whole: string, word: string, sep: string, value: string): string {
  if (value.includes(MASK) || value.startsWith('-') || value.startsWith('$') || value.includes('/')) return whole;
  if (!/[0-9!@#%^&*+=?~]/.test(value)) return whole;
  return `${word}${sep}${MASK}`;
}

/**
 * Something every rule above needs: an `=` or `@`, or one of their words or prefixes. Most texts
 * (`Edit src/a.ts`, `auto: 3 files changed`) have none and skip the rules: a first listing decodes
 * 10,000 checkpoint messages, and this test costs ~0.6 µs a text (scripts/bench-redact.mjs).
 */
const MAYBE_SECRET =
  /[=@]|-----BEGIN|bearer|passw|passphrase|secret|token|api[ _-]?key|otp|cookie|auth|gh[pousr]_|github_pat_|gl[a-z]{2,5}-|xox|xapp-|sk-|[sr]k_|A[KS]IA|npm_|pypi-|hf_|AIza|dop_v1_|shp[a-z]{2}_|SG\.|eyJ|mysql|mariadb|(?:^|\s)-u|--(?:proxy-)?user/i;

/** Masks the secrets in a text (a command line, a prompt, a reason, an effect's summary). Idempotent. */
export function redactSecrets(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  let masked = text
    .replace(PRIVATE_KEY, (_m, kind: string) => `-----BEGIN ${kind}PRIVATE KEY----- ${MASK}`)
    .replace(PREFIXED, maskPrefixed)
    .replace(AWS_KEY_ID, `$1${MASK}`)
    .replace(JWT, MASK)
    .replace(URL_USER_INFO, '$1$2')
    .replace(AUTH_HEADER, (_m, head: string, scheme: string | undefined) => `${head}${scheme === undefined ? '' : `${scheme} `}${MASK}`)
    .replace(SECRET_HEADER, `$1${MASK}`)
    .replace(BEARER, `$1${MASK}`)
    .replace(NPMRC_AUTH, `$1${MASK}`)
    .replace(QUERY_PARAM, `$1${MASK}`)
    .replace(ASSIGNMENT, maskAssignment)
    .replace(USER_OPTION, `$1${MASK}`)
    .replace(SECRET_OPTION, `$1${MASK}`)
    .replace(IN_WORDS, maskInWords);
  // mysql's glued password (`-psecret`); other tools' -p flags are left alone.
  if (/\b(?:mysql|mariadb|mysqldump)\b/.test(masked)) masked = masked.replace(/((?:^|\s)-p)(?=[^\s'"])[^\s'"]+/g, `$1${MASK}`);
  return masked;
}

/** An effect's texts, masked: what the ledger writes and what every reader shows. */
export function redactEffectText<T extends { command: string; summary: string; target: string; compensation: string | null }>(effect: T): T {
  return {
    ...effect,
    command: redactSecrets(effect.command),
    summary: redactSecrets(effect.summary),
    target: redactSecrets(effect.target),
    compensation: effect.compensation === null ? null : redactSecrets(effect.compensation),
  };
}
