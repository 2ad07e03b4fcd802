// Light or dark: follows the system unless the person picked one. data-theme
// on <html> always holds the resolved theme (the CSS states its dark tokens
// once, for that attribute); Monaco reads `dark` from here.
import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'chronoscope.theme';

const media = window.matchMedia('(prefers-color-scheme: dark)');

function readChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

function resolve(choice: ThemeChoice): boolean {
  return choice === 'system' ? media.matches : choice === 'dark';
}

function apply(choice: ThemeChoice): void {
  document.documentElement.setAttribute('data-theme', resolve(choice) ? 'dark' : 'light');
}

interface ThemeState {
  choice: ThemeChoice;
  dark: boolean;
  setChoice(choice: ThemeChoice): void;
}

const initial = readChoice();
apply(initial);

export const useTheme = create<ThemeState>()((set) => ({
  choice: initial,
  dark: resolve(initial),
  setChoice: (choice) => {
    try {
      if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, choice);
    } catch {
      // storage may be unavailable (file:// in some setups): the choice lasts this session
    }
    apply(choice);
    set({ choice, dark: resolve(choice) });
  },
}));

media.addEventListener('change', () => {
  const { choice } = useTheme.getState();
  apply(choice);
  useTheme.setState({ dark: resolve(choice) });
});
