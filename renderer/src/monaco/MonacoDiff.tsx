// A small React wrapper around Monaco's diff editor: the editor is created
// once per mount; new texts swap in fresh models (the old ones are disposed),
// and everything is disposed on unmount. Loaded lazily so Monaco's weight is
// paid only when a diff is first shown.
import { useEffect, useRef } from 'react';
import { monaco } from './setup.js';
import { languageForPath } from './language.js';
import { READ_ONLY_VIEW } from './view-options.js';
import { useEditorLook } from './use-editor-look.js';

export interface MonacoDiffProps {
  path: string;
  original: string;
  modified: string;
  inline: boolean;
  wrap: boolean;
  dark: boolean;
}

const HIDE_UNCHANGED_FROM_LINES = 200;

export default function MonacoDiff({ path, original, modified, inline, wrap, dark }: MonacoDiffProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const instance = monaco.editor.createDiffEditor(host.current, {
      ...READ_ONLY_VIEW,
      originalEditable: false,
      renderSideBySide: !inline,
      // The diff pane shares the window with two lists: split down to a narrower width than Monaco's default 900px.
      useInlineViewWhenSpaceIsLimited: true,
      renderSideBySideInlineBreakpoint: 480,
      // The rulers repeat what the +/− gutter already says, at the cost of a wide grey strip.
      renderOverviewRuler: false,
      renderMarginRevertIcon: false,
      renderGutterMenu: false,
      wordWrap: wrap ? 'on' : 'off',
      diffWordWrap: 'inherit',
    });
    editor.current = instance;
    return () => {
      const model = instance.getModel();
      instance.dispose();
      model?.original.dispose();
      model?.modified.dispose();
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = editor.current;
    if (!instance) return;
    const language = languageForPath(monaco, path);
    const previous = instance.getModel();
    const next = {
      original: monaco.editor.createModel(original, language),
      modified: monaco.editor.createModel(modified, language),
    };
    const longFile = Math.max(next.original.getLineCount(), next.modified.getLineCount()) > HIDE_UNCHANGED_FROM_LINES;
    instance.updateOptions({
      hideUnchangedRegions: { enabled: longFile, contextLineCount: 4, minimumLineCount: 6, revealLineCount: 20 },
    });
    instance.setModel(next);
    previous?.original.dispose();
    previous?.modified.dispose();
  }, [path, original, modified]);

  useEffect(() => {
    editor.current?.updateOptions({ renderSideBySide: !inline });
  }, [inline]);

  useEditorLook(editor, wrap, dark);

  return <div className="monaco-host" ref={host} />;
}
