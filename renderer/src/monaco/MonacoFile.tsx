// One side only: the content of a file that was added or deleted, in a plain
// read-only editor with every line tinted as added or removed. A diff editor
// would set the text against an empty side and show a phantom changed line 1.
import { useEffect, useRef } from 'react';
import { monaco } from './setup.js';
import { languageForTexts } from './language.js';
import { READ_ONLY_VIEW } from './view-options.js';
import { useEditorLook } from './use-editor-look.js';
import { useHostLayout } from './use-host-layout.js';
import { labelTextArea, useLabelIds } from './text-area-labels.js';
import { usePaintedSignal } from './use-painted-signal.js';

export interface MonacoFileProps {
  path: string;
  text: string;
  change: 'added' | 'deleted';
  wrap: boolean;
  dark: boolean;
  /** Called the frame after the first text is drawn: until then the pane shows the light preview. */
  onPainted: () => void;
}

export default function MonacoFile({ path, text, change, wrap, dark, onPainted }: MonacoFileProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const tint = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const painted = usePaintedSignal(onPainted);
  const labelIds = useLabelIds(['text'] as const);

  useEffect(() => {
    if (!host.current) return;
    const instance = monaco.editor.create(host.current, {
      ...READ_ONLY_VIEW,
      // Sized by useHostLayout (not while scrubbing).
      automaticLayout: false,
      lineDecorationsWidth: 14,
      wordWrap: wrap ? 'on' : 'off',
    });
    editor.current = instance;
    labelTextArea(instance, labelIds.text);
    tint.current = instance.createDecorationsCollection();
    return () => {
      const model = instance.getModel();
      instance.dispose();
      model?.dispose();
      editor.current = null;
      tint.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = editor.current;
    if (!instance) return;
    const previous = instance.getModel();
    // The final newline ends the last line; it is not one more (empty) line to tint.
    const model = monaco.editor.createModel(text.endsWith('\n') ? text.slice(0, -1) : text, languageForTexts(monaco, path, text));
    instance.setModel(model);
    tint.current?.set([
      {
        range: new monaco.Range(1, 1, model.getLineCount(), 1),
        options: {
          isWholeLine: true,
          className: change === 'added' ? 'single-side-line added' : 'single-side-line deleted',
          linesDecorationsClassName: change === 'added' ? 'single-side-mark added' : 'single-side-mark deleted',
        },
      },
    ]);
    previous?.dispose();
    labelTextArea(instance, labelIds.text);
    painted();
  }, [path, text, change]);

  useEditorLook(editor, wrap, dark);
  useHostLayout(editor, host);

  return (
    <>
      <span id={labelIds.text} className="visually-hidden">
        {change === 'added' ? 'Added file text (read only)' : 'Deleted file text (read only)'}
      </span>
      <div className="monaco-host" ref={host} />
    </>
  );
}
