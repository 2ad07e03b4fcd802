// Credentials never reach the ledger or the screen: URLs lose their user-info
// part, and bearer tokens or basic-auth pairs in a command line are masked.

/** `https://user:token@host/x` → `https://host/x`; anything that is not a URL passes unchanged. */
export function stripUrlCredentials(url: string): string {
  return url.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s]*@/, '$1');
}

/**
 * A URL's user-info anywhere in a command line: `$1$2` keeps what precedes it.
 * A scheme is tried only where a run of scheme characters begins (its leading
 * digits, `+`, `.` or `-` skipped, as the first match would): tried at every
 * letter of a long run (a hex dump, a token), the scan was quadratic in the
 * run's length — 100,000 characters took a hook 4.7 s.
 */
const URL_USER_INFO = /(?<![a-zA-Z0-9+.-])([0-9+.-]*)([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s'"]*@/g;

/** Masks secrets inside a whole command line before it is stored or shown. */
export function redactCommand(command: string): string {
  const masked = command
    .replace(URL_USER_INFO, '$1$2')
    .replace(/(authorization:\s*(?:bearer|basic|token)\s+)[^\s'"]+/gi, '$1***')
    .replace(/((?:^|\s)(?:-u|--user|--proxy-user)(?:\s+|=)['"]?)[^\s'":]*:[^\s'"]+/g, '$1***')
    .replace(/((?:^|\s)(?:--password|--token|--otp)(?:\s+|=)['"]?)[^\s'"]+/g, '$1***');
  // mysql's glued password (`-psecret`); other tools' -p flags are left alone.
  if (!/\b(?:mysql|mariadb|mysqldump)\b/.test(masked)) return masked;
  return masked.replace(/((?:^|\s)-p)(?=[^\s'"])[^\s'"]+/g, '$1***');
}
