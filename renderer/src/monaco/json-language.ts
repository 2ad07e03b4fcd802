// JSON colouring without the JSON language-service worker: a small Monarch
// grammar is all a read-only diff needs.
import type * as Monaco from 'monaco-editor/esm/vs/editor/editor.api.js';

export function registerJson(monaco: typeof Monaco): void {
  if (monaco.languages.getLanguages().some((l) => l.id === 'json')) return;
  monaco.languages.register({
    id: 'json',
    extensions: ['.json', '.jsonc', '.json5', '.webmanifest', '.code-workspace'],
    filenames: ['.babelrc', '.eslintrc', 'tsconfig.json', 'package.json'],
    aliases: ['JSON', 'json'],
  });
  monaco.languages.setMonarchTokensProvider('json', {
    tokenizer: {
      root: [
        [/"(?:[^"\\]|\\.)*"(?=\s*:)/, 'type'],
        [/"(?:[^"\\]|\\.)*"/, 'string'],
        [/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, 'number'],
        [/\b(?:true|false|null)\b/, 'keyword'],
        [/\/\/.*$/, 'comment'],
        [/\/\*/, 'comment', '@comment'],
        [/[{}[\],:]/, 'delimiter'],
      ],
      comment: [
        [/[^/*]+/, 'comment'],
        [/\*\//, 'comment', '@pop'],
        [/[/*]/, 'comment'],
      ],
    },
  });
  monaco.languages.setLanguageConfiguration('json', {
    brackets: [
      ['{', '}'],
      ['[', ']'],
    ],
    autoClosingPairs: [
      { open: '{', close: '}' },
      { open: '[', close: ']' },
      { open: '"', close: '"' },
    ],
  });
}
