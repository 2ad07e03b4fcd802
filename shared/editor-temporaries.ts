// Editors' atomic-save temporaries: a file written beside the real one and
// renamed over it a moment later (sed -i, vim, emacs, Claude Code's atomic
// write). The watcher sees them come and go; a title names them never — what a
// checkpoint holds is the file they were renamed to.
const PATTERNS: readonly RegExp[] = [
  /\.tmp$/i, // *.tmp, and ".settings.json.28205.403f914c.tmp" (Node write-file-atomic, Claude Code)
  /^sed[A-Za-z0-9]{6}$/, // sed -i
  /^\.#/, // emacs lock files
  /~$/, // backups (emacs, vim with backup on)
  /^4913$/, // vim's probe whether the folder is writable
  /^\..+\.sw[a-p]$/, // vim's swap files (.name.swp, .swo, …)
];

/** Whether a workspace-relative path's last part is an editor's temporary. */
export function isEditorTemporary(relPath: string): boolean {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  return PATTERNS.some((p) => p.test(name));
}
