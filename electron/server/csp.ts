// The Content-Security-Policy both hosts send with the renderer. Monaco needs
// two allowances: it injects <style> elements (style-src 'unsafe-inline') and
// starts its language workers from blob: URLs in some paths (worker-src blob:).
// Everything else is our own origin only; nothing comes from a CDN.

export interface CspOptions {
  /** Extra connect-src sources (the browser host's ws:// origin; 'self' covers it in CSP3, older engines need it spelled out). */
  connect?: string[];
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['worker-src', ["'self'", 'blob:']],
    ['connect-src', ["'self'", ...(options.connect ?? [])]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'", 'data:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** Headers sent with every response of the browser host (and, for the CSP, every renderer load in Electron). */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
