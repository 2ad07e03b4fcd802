// Texts longer than this (files shown only on request) are shown without
// syntax colours: Monaco's tokenizers run on the page's own thread, and
// colouring a 5.6 MB JSON took 2.2 s of it, with 100–300 ms blocks while
// scrolling (docs/performance.md › Large files).
import { VIEWER_MAX_BYTES } from '../../../shared/model.js';

export const COLOURED_MAX_CHARS = VIEWER_MAX_BYTES;

export function tooLongToColour(...texts: string[]): boolean {
  return texts.some((text) => text.length > COLOURED_MAX_CHARS);
}
