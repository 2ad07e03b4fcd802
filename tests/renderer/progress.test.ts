// The header's progress line: the latest message wins, and it clears itself
// so an old message never reads as the current state.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useProgress } from '../../renderer/src/state/progress.js';

describe('progress store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useProgress.getState().clear();
  });
  afterEach(() => {
    useProgress.getState().clear();
    vi.useRealTimers();
  });

  it('shows the latest message and bumps seq so the fade restarts', () => {
    const before = useProgress.getState().seq;
    useProgress.getState().show('scanning');
    useProgress.getState().show('writing objects');
    expect(useProgress.getState().message).toBe('writing objects');
    expect(useProgress.getState().seq).toBe(before + 2);
  });

  it('clears itself after its display time, counted from the latest message', () => {
    useProgress.getState().show('scanning');
    vi.advanceTimersByTime(3000);
    useProgress.getState().show('still scanning');
    vi.advanceTimersByTime(3000);
    expect(useProgress.getState().message).toBe('still scanning');
    vi.runAllTimers();
    expect(useProgress.getState().message).toBeNull();
  });
});
