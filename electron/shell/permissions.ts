// What the renderer may use of the web platform's permissions: writing to the
// clipboard (the "copy" buttons for compensation commands and ids) from our own
// page, and nothing else — no camera, geolocation, notifications of its own
// (the tray notifies), or anything else a page could ask for. The same answer
// for Electron's permission checks and requests.
import { isAppUrl } from './app-protocol.js';

const ALLOWED = new Set(['clipboard-sanitized-write']);

export function allowPermission(permission: string, requestingUrl: string): boolean {
  return ALLOWED.has(permission) && isAppUrl(requestingUrl);
}
