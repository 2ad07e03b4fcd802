// Credentials never reach the ledger or the screen: URLs lose their user-info
// part, and bearer tokens or basic-auth pairs in a command line are masked.

/** `https://user:token@host/x` → `https://host/x`; anything that is not a URL passes unchanged. */
export function stripUrlCredentials(url: string): string {
  return url.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s]*@/, '$1');
}

/** Masks secrets inside a whole command line before it is stored or shown. */
export function redactCommand(command: string): string {
  const masked = command
    .replace(/([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s'"]*@/g, '$1')
    .replace(/(authorization:\s*(?:bearer|basic|token)\s+)[^\s'"]+/gi, '$1***')
    .replace(/((?:^|\s)(?:-u|--user|--proxy-user)(?:\s+|=)['"]?)[^\s'":]*:[^\s'"]+/g, '$1***')
    .replace(/((?:^|\s)(?:--password|--token|--otp)(?:\s+|=)['"]?)[^\s'"]+/g, '$1***');
  // mysql's glued password (`-psecret`); other tools' -p flags are left alone.
  if (!/\b(?:mysql|mariadb|mysqldump)\b/.test(masked)) return masked;
  return masked.replace(/((?:^|\s)-p)(?=[^\s'"])[^\s'"]+/g, '$1***');
}
