// Wrap and theme follow the person's choices in every editor the app shows.
import { useEffect, type RefObject } from 'react';
import { monaco } from './setup.js';

interface Wrappable {
  updateOptions(options: { wordWrap: 'on' | 'off' }): void;
}

export function useEditorLook(editor: RefObject<Wrappable | null>, wrap: boolean, dark: boolean): void {
  useEffect(() => {
    editor.current?.updateOptions({ wordWrap: wrap ? 'on' : 'off' });
  }, [editor, wrap]);

  useEffect(() => {
    monaco.editor.setTheme(dark ? 'chronoscope-dark' : 'chronoscope-light');
  }, [dark]);
}
