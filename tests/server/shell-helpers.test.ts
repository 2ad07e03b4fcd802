// The Electron shell's plain-Node helpers (its Electron-bound parts cannot run
// here): where the window reopens, and what an effect notification says.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitToDisplays, loadWindowState, saveWindowState } from '../../electron/shell/window-state.js';
import { effectBody, effectTitle, notificationKey, shouldNotify } from '../../electron/shell/effect-text.js';
import type { EffectRecord } from '../../shared/model.js';

const screenA = { x: 0, y: 0, width: 1920, height: 1080 };
const screenB = { x: 1920, y: 0, width: 1280, height: 1024 };

describe('fitToDisplays', () => {
  it('keeps bounds that are on a display', () => {
    const bounds = { x: 100, y: 80, width: 1200, height: 800 };
    expect(fitToDisplays(bounds, [screenA])).toEqual(bounds);
  });

  it('drops bounds left on a monitor that is gone', () => {
    expect(fitToDisplays({ x: 2100, y: 50, width: 1000, height: 700 }, [screenA])).toBeUndefined();
    expect(fitToDisplays({ x: 2100, y: 50, width: 1000, height: 700 }, [screenA, screenB])).toMatchObject({ x: 2100 });
  });

  it('pulls a window whose title bar hangs off the edge back and clamps its size', () => {
    const fitted = fitToDisplays({ x: 1500, y: -20, width: 3000, height: 2000 }, [screenA]);
    expect(fitted).toBeDefined();
    expect(fitted!.x).toBeGreaterThanOrEqual(0);
    expect(fitted!.y).toBeGreaterThanOrEqual(0);
    expect(fitted!.x + fitted!.width).toBeLessThanOrEqual(1920);
    expect(fitted!.y + fitted!.height).toBeLessThanOrEqual(1080);
  });

  it('has nothing to fit when nothing was saved', () => {
    expect(fitToDisplays(undefined, [screenA])).toBeUndefined();
  });
});

describe('window-state.json', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chronoscope-winstate-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips and tolerates a damaged file', async () => {
    const file = join(dir, 'window-state.json');
    expect(await loadWindowState(file)).toEqual({ maximized: false });
    await saveWindowState(file, { bounds: { x: 1, y: 2, width: 900, height: 700 }, maximized: true });
    expect(await loadWindowState(file)).toEqual({ bounds: { x: 1, y: 2, width: 900, height: 700 }, maximized: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ maximized: true });
    await writeFile(file, '{"bounds": {"x": "a"}, "maximized": 1');
    expect(await loadWindowState(file)).toEqual({ maximized: false });
  });
});

describe('effect notifications', () => {
  const push: EffectRecord = {
    id: 'e1',
    workspace: '/home/ana/project',
    time: '2025-01-01T10:00:00.000Z',
    time_ms: Date.parse('2025-01-01T10:00:00.000Z'),
    source: 'reflog',
    status: 'happened',
    checkpoint: null,
    kind: 'git_push',
    target: 'origin main',
    command: 'git push origin main',
    compensation: 'git push --force-with-lease=main:bbb origin aaa:main',
    summary: 'git push to origin main',
    old_commit: 'aaa',
    new_commit: 'bbb',
  };

  it('says what, where, when and how to compensate', () => {
    expect(effectTitle(push)).toBe('Irreversible: git push to origin main');
    const body = effectBody(push);
    expect(body).toContain('project → origin main');
    expect(body).toContain('git push --force-with-lease=main:bbb origin aaa:main');
    expect(body).toContain(new Date(push.time_ms).toLocaleString());
    expect(effectBody({ ...push, compensation: null })).toContain('No compensation command is known');
  });

  it('notifies once per tool use and not for failed effects', () => {
    expect(notificationKey({ ...push, id: 'a', tool_use_id: 't1' })).toBe(notificationKey({ ...push, id: 'b', tool_use_id: 't1' }));
    expect(notificationKey({ ...push, id: 'a' })).not.toBe(notificationKey({ ...push, id: 'b' }));
    expect(shouldNotify({ ...push, status: 'failed' })).toBe(false);
    expect(shouldNotify({ ...push, status: 'nothing_sent' })).toBe(false);
    expect(shouldNotify(push)).toBe(true);
  });
});
