// The main window's bounds between runs, in <store home>/window-state.json.
// Plain Node (no Electron import) so it is tested without Electron's binary:
// the shell passes in the displays' work areas.
import { readFile } from 'node:fs/promises';
import { writeJsonAtomic } from '../fs/atomic-file.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** Absent: let the window manager place it (centred). */
  bounds?: Rect;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1280, height: 820 };
export const MIN_SIZE = { width: 720, height: 480 };

function isRect(value: unknown): value is Rect {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k]));
}

/** A missing or damaged file is not an error: the window opens at its default size. */
export async function loadWindowState(file: string): Promise<WindowState> {
  try {
    const raw = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    return { bounds: isRect(raw.bounds) ? raw.bounds : undefined, maximized: raw.maximized === true };
  } catch {
    return { maximized: false };
  }
}

export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await writeJsonAtomic(file, state);
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Bounds to open with, given the work areas of the displays attached now.
 * Saved bounds are kept only if a usable part of the window (its title bar
 * region, at least 100×50 px) is on some display — a monitor unplugged since
 * must not leave the window off-screen; then the size is clamped to that display.
 */
export function fitToDisplays(saved: Rect | undefined, workAreas: readonly Rect[]): Rect | undefined {
  if (!saved) return undefined;
  const titleBar: Rect = { x: saved.x, y: saved.y, width: saved.width, height: Math.min(saved.height, 50) };
  const display = workAreas.find((area) => overlap(titleBar, area) >= Math.min(100 * 50, titleBar.width * titleBar.height));
  if (!display) return undefined;
  const width = Math.max(MIN_SIZE.width, Math.min(saved.width, display.width));
  const height = Math.max(MIN_SIZE.height, Math.min(saved.height, display.height));
  const x = Math.min(Math.max(saved.x, display.x), display.x + display.width - Math.min(width, display.width));
  const y = Math.min(Math.max(saved.y, display.y), display.y + display.height - Math.min(height, display.height));
  return { x, y, width, height };
}
