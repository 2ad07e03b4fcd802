// A small React wrapper around Monaco's diff editor: the editor is created
// once per mount; new texts swap in fresh models (the old ones are disposed
// once the new pair's diff is computed: disposed while Monaco's diff worker
// still computes on them, the worker answers nothing and Monaco throws "no
// diff result available" into the page), and everything is disposed on unmount. Loaded lazily so Monaco's weight is
// paid only when a diff is first shown.
import { useEffect, useRef } from 'react';
import { monaco } from './setup.js';
import { languageForTexts } from './language.js';
import { tooLongToColour } from '../lib/colour-limit.js';
import { READ_ONLY_VIEW } from './view-options.js';
import { useEditorLook } from './use-editor-look.js';
import { useHostLayout } from './use-host-layout.js';
import { usePaintedSignal } from './use-painted-signal.js';
import { useDiffNav } from '../state/diff-nav.js';
import { sideBySideBreakpoint } from '../lib/side-by-side.js';
import { labelTextArea, useLabelIds } from './text-area-labels.js';

const LABELS = { before: 'Before (read only)', after: 'After (read only)' } as const;

export interface MonacoDiffProps {
  path: string;
  original: string;
  modified: string;
  inline: boolean;
  wrap: boolean;
  dark: boolean;
  /** Leading/trailing whitespace changes are not shown as changes. */
  ignoreWhitespace: boolean;
  /** On screen (not kept hidden behind another view): next/previous change drive it. */
  active: boolean;
  /** Called once a diff has been computed and drawn (the frame after): until then the pane shows the light preview. */
  onPainted: () => void;
}

const HIDE_UNCHANGED_FROM_LINES = 200;

export default function MonacoDiff({ path, original, modified, inline, wrap, dark, ignoreWhitespace, active, onPainted }: MonacoDiffProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const revealPending = useRef(true);
  /** Models replaced on screen, kept until the diff of their successors is computed (see the top of this file). */
  const retired = useRef<monaco.editor.ITextModel[]>([]);
  const activeNow = useRef(active);
  activeNow.current = active;
  const painted = usePaintedSignal(onPainted);
  const labelIds = useLabelIds(['before', 'after'] as const);

  useEffect(() => {
    if (!host.current) return;
    const instance = monaco.editor.createDiffEditor(host.current, {
      ...READ_ONLY_VIEW,
      // Sized by useHostLayout (not while scrubbing).
      automaticLayout: false,
      originalEditable: false,
      // Screen readers (and axe) need a name for each side's text area.
      originalAriaLabel: LABELS.before,
      modifiedAriaLabel: LABELS.after,
      renderSideBySide: !inline,
      // Split only where each side shows 80 columns of code (lib/side-by-side.ts; the preview follows the same rule).
      useInlineViewWhenSpaceIsLimited: true,
      renderSideBySideInlineBreakpoint: sideBySideBreakpoint(),
      // The rulers repeat what the +/− gutter already says, at the cost of a wide grey strip.
      renderOverviewRuler: false,
      renderMarginRevertIcon: false,
      renderGutterMenu: false,
      // The gutter gives its width to the code (inline, two columns of numbers): numbers as wide as the file needs,
      // no glyph or folding margins (nothing uses them in a read-only diff; unchanged regions fold by themselves).
      lineNumbersMinChars: 3,
      glyphMargin: false,
      folding: false,
      wordWrap: wrap ? 'on' : 'off',
      diffWordWrap: 'inherit',
      ignoreTrimWhitespace: ignoreWhitespace,
    });
    editor.current = instance;
    // Named again at every diff: the editors build their text areas when they first lay out, not at creation.
    const label = () => {
      labelTextArea(instance.getOriginalEditor(), labelIds.before);
      labelTextArea(instance.getModifiedEditor(), labelIds.after);
    };
    label();
    // Open at the first change: once per new pair of texts, when Monaco has computed the diff.
    // The event also fires when a new pair resets the diff to "not computed yet"
    // (getLineChanges() is null then): that one must not use up the reveal.
    const onDiff = instance.onDidUpdateDiff(() => {
      const changes = instance.getLineChanges();
      if (changes === null) return;
      for (const model of retired.current.splice(0)) model.dispose();
      label();
      painted();
      if (activeNow.current) useDiffNav.getState().setCount(changes.length);
      if (!revealPending.current) return;
      revealPending.current = false;
      const first = changes[0];
      if (first) instance.getModifiedEditor().revealLineNearTop(Math.max(1, first.modifiedStartLineNumber));
    });
    return () => {
      onDiff.dispose();
      const model = instance.getModel();
      instance.dispose();
      model?.original.dispose();
      model?.modified.dispose();
      for (const old of retired.current.splice(0)) old.dispose();
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = editor.current;
    if (!instance) return;
    const language = languageForTexts(monaco, path, original, modified);
    const large = tooLongToColour(original, modified);
    const made: monaco.editor.ITextModel[] = [];
    let attached = false;
    const create = (text: string) => {
      const model = monaco.editor.createModel(text, language);
      // Bracket pairs are parsed over the whole text on the page's thread: not for a file shown only on request.
      if (large) model.updateOptions({ bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false } });
      made.push(model);
    };
    const attach = () => {
      const [originalModel, modifiedModel] = made;
      if (!originalModel || !modifiedModel) return;
      const previous = instance.getModel();
      const longFile = Math.max(originalModel.getLineCount(), modifiedModel.getLineCount()) > HIDE_UNCHANGED_FROM_LINES;
      instance.updateOptions({
        hideUnchangedRegions: { enabled: longFile, contextLineCount: 4, minimumLineCount: 6, revealLineCount: 20 },
        guides: { indentation: !large, bracketPairs: false },
      });
      revealPending.current = true;
      instance.setModel({ original: originalModel, modified: modifiedModel });
      attached = true;
      if (previous) retired.current.push(previous.original, previous.modified);
    };
    const steps = [() => create(original), () => create(modified), attach];
    if (!large) {
      for (const step of steps) step();
      return;
    }
    // Megabytes of text: each model made in a task of its own, so the page can paint and answer in between.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      steps.shift()?.();
      if (steps.length > 0) timer = setTimeout(next, 0);
    };
    timer = setTimeout(next, 0);
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      if (!attached) for (const model of made) model.dispose();
    };
  }, [path, original, modified]);

  // Next/previous change drive this editor only while it is the one on screen (EditorStage keeps it when hidden).
  useEffect(() => {
    const instance = editor.current;
    if (!active || !instance) return;
    const offNav = useDiffNav.getState().register((direction) => instance.goToDiff(direction));
    useDiffNav.getState().setCount(instance.getLineChanges()?.length ?? 0);
    return offNav;
  }, [active]);

  useEffect(() => {
    editor.current?.updateOptions({ renderSideBySide: !inline });
  }, [inline]);

  useEffect(() => {
    editor.current?.updateOptions({ ignoreTrimWhitespace: ignoreWhitespace });
  }, [ignoreWhitespace]);

  useEditorLook(editor, wrap, dark);
  useHostLayout(editor, host);

  return (
    <>
      <span id={labelIds.before} className="visually-hidden">
        {LABELS.before}
      </span>
      <span id={labelIds.after} className="visually-hidden">
        {LABELS.after}
      </span>
      <div className="monaco-host" ref={host} />
    </>
  );
}
