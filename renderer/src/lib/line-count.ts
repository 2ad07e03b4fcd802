// How many lines a file has, the way git counts them: a final newline ends the
// last line rather than starting an empty one.
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

export function lineCountLabel(text: string): string {
  const lines = lineCount(text);
  if (lines === 0) return 'empty';
  return `${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}`;
}
