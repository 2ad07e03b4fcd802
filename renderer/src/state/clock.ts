// A coarse clock so "4 min ago" labels stay true without each row running a timer.
import { create } from 'zustand';

export const useClock = create<{ now: number }>()(() => ({ now: Date.now() }));
setInterval(() => useClock.setState({ now: Date.now() }), 15_000);
