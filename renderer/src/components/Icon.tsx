// A handful of 16px line icons, inline so nothing is fetched.
const PATHS = {
  plus: 'M8 3v10M3 8h10',
  minus: 'M3 8h10',
  wrap: 'M2.5 4h11M2.5 8h9a2 2 0 010 4H8.5M10 10.5L8.5 12l1.5 1.5M2.5 12h3',
  x: 'M4 4l8 8M12 4l-8 8',
  pin: 'M6 2h4l-.5 4 2.5 2.5H4L6.5 6 6 2zM8 8.5V14',
  camera: 'M2.5 5.5h2l1-1.5h5l1 1.5h2v7h-11zM8 11a2 2 0 100-4 2 2 0 000 4z',
  restore: 'M3 8a5 5 0 105-5 5 5 0 00-3.8 1.7M3 2.5v2.5h2.5',
  copy: 'M5.5 5.5h7v7h-7zM3.5 10.5v-7h7',
  folder: 'M2 4.5h4l1.2 1.3H14v6.7H2z',
  bell: 'M4.5 11V7.5a3.5 3.5 0 017 0V11l1 1.2h-9zM6.8 13.5a1.3 1.3 0 002.4 0',
  alert: 'M8 2.5l6 10.5H2zM8 6.5v3M8 11.2v.3',
  check: 'M3 8.5l3 3 7-7',
  pause: 'M5.5 3.5v9M10.5 3.5v9',
  play: 'M5 3l8 5-8 5z',
  sun: 'M8 10.5a2.5 2.5 0 100-5 2.5 2.5 0 000 5zM8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M3.4 12.6l1-1M11.6 4.4l1-1',
  moon: 'M12.5 9.5A5 5 0 016.5 3.5a5 5 0 106 6z',
  monitor: 'M2 3h12v8H2zM6 14h4M8 11v3',
  columns: 'M2.5 3h11v10h-11zM8 3v10',
  rows: 'M2.5 3h11v10h-11zM2.5 8h11',
  sidebar: 'M2.5 3h11v10h-11zM6 3v10',
  clock: 'M8 14A6 6 0 108 2a6 6 0 000 12zM8 4.5V8l2.5 1.5',
  zap: 'M9 1.5L3.5 9H8l-1 5.5L12.5 7H8z',
  search: 'M7 12a5 5 0 100-10 5 5 0 000 10zM10.6 10.6L14 14',
  filter: 'M2 3h12L9.5 8.5V13l-3 1.5V8.5z',
  file: 'M4 1.5h5.5L12.5 4.5v10h-8.5zM9.5 1.5v3h3',
  history: 'M2.5 8a5.5 5.5 0 101.6-3.9M2.5 2.5v2.5h2.5M8 5v3.2l2 1.3',
  expand: 'M2.5 6V2.5H6M10 2.5h3.5V6M13.5 10v3.5H10M6 13.5H2.5V10',
  chevronUp: 'M4 10l4-4 4 4',
  chevronDown: 'M4 6l4 4 4-4',
  gear: 'M12.47 6L14.15 6.23L14.15 9.77L12.47 10L11.97 10.88L12.61 12.44L9.54 14.21L8.51 12.87L7.49 12.87L6.46 14.21L3.39 12.44L4.03 10.88L3.53 10L1.85 9.77L1.85 6.23L3.53 6L4.03 5.12L3.39 3.56L6.46 1.79L7.49 3.13L8.51 3.13L9.54 1.79L12.61 3.56L11.97 5.12zM10 8a2 2 0 11-4 0 2 2 0 014 0z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
