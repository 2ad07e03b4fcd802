// Monaco, bundled: the editor core with its contributions, a set of syntax
// grammars (each a lazy chunk, loaded on first use), and the editor worker
// built by Vite. Nothing comes from a CDN, so the app works offline. The
// language-service workers (TypeScript, CSS, HTML, JSON) are left out on
// purpose: a read-only diff needs colouring, not IntelliSense, and they
// would add megabytes.
import 'monaco-editor/esm/vs/editor/edcore.main.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';

import 'monaco-editor/esm/vs/basic-languages/typescript/typescript.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/javascript/javascript.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/python/python.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/go/go.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/rust/rust.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/java/java.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/kotlin/kotlin.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/swift/swift.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/cpp/cpp.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/csharp/csharp.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/css/css.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/scss/scss.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/less/less.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/html/html.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/xml/xml.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/markdown/markdown.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/shell/shell.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/powershell/powershell.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/bat/bat.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/dockerfile/dockerfile.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/sql/sql.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/ruby/ruby.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/php/php.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/ini/ini.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/lua/lua.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/perl/perl.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/r/r.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/graphql/graphql.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/hcl/hcl.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/scala/scala.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/dart/dart.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/elixir/elixir.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/protobuf/protobuf.contribution.js';

import { registerJson } from './json-language.js';

self.MonacoEnvironment = {
  getWorker(): Worker {
    // Only the editor worker is bundled (it computes the diffs); see above.
    return new EditorWorker();
  },
};

registerJson(monaco);

// Editor colours matched to the app's surfaces so the diff sits in the pane, not on top of it.
monaco.editor.defineTheme('chronoscope-light', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#ffffff',
    'editorGutter.background': '#ffffff',
    'editorLineNumber.foreground': '#a0a8b2',
    'diffEditor.insertedTextBackground': '#2da44e33',
    'diffEditor.removedTextBackground': '#cf222e2e',
    'diffEditor.insertedLineBackground': '#dafbe180',
    'diffEditor.removedLineBackground': '#ffebe980',
  },
});
monaco.editor.defineTheme('chronoscope-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#17191e',
    'editorGutter.background': '#17191e',
    'editorLineNumber.foreground': '#5c6570',
    'diffEditor.insertedTextBackground': '#3fb95033',
    // 14 %, not 20: over the removed line's own tint, a string's colour (#ce9178) kept only 4.38:1 (axe, WCAG AA 4.5:1).
    'diffEditor.removedTextBackground': '#f8514924',
    'diffEditor.insertedLineBackground': '#2ea04326',
    'diffEditor.removedLineBackground': '#f8514920',
  },
});

export { monaco };
