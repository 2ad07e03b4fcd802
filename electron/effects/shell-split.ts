// Splits a shell command line into the simple commands it would run, the way a
// POSIX shell tokenises it, without running or expanding anything. Text in
// quotes stays one word (so `echo "git push"` is an echo), comments and heredoc
// bodies are dropped, and every command substitution, subshell and process
// substitution is parsed too, because those run. It is a classifier's view of
// a command, not an interpreter: parameter expansion is left as written.

export interface SimpleCommand {
  /** Words after quote removal; redirections and their targets are gone. */
  argv: string[];
  /** The command's source text, as written (trimmed). */
  text: string;
  /** Bodies of heredocs fed to this command (its stdin). */
  stdin: string[];
}

const RESERVED_LEADING = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', '}']);
const NOT_COMMANDS = new Set(['fi', 'done', 'esac', 'for', 'select', 'case', 'in', 'function']);

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  owner: SimpleCommand;
}

type Stop = ')' | '`' | null;

// Characters no branch of the parser treats specially, taken as a run with one
// slice: appended one at a time, a 20 MB word (a command with a data dump)
// cost seconds of garbage collection. Anything not listed goes through the
// parser's checks one character at a time, as before.
const OUTSIDE_QUOTES = /[^A-Za-z0-9_./:@%+,=~^-]/g;
const INSIDE_DOUBLE_QUOTES = /[\\"$`]/g;

/** Where the run of ordinary characters from `from` ends (the next character `special` matches, or the end). */
function runEnd(s: string, from: number, special: RegExp): number {
  special.lastIndex = from;
  const found = special.exec(s);
  return found === null ? s.length : found.index;
}

class Parser {
  private i = 0;
  private readonly out: SimpleCommand[] = [];
  private pending: PendingHeredoc[] = [];

  constructor(private readonly s: string) {}

  run(): SimpleCommand[] {
    this.parseList(null);
    return this.out;
  }

  private peek(offset = 0): string {
    return this.s[this.i + offset] ?? '';
  }

  /** Parses commands until `stop` (consumed) or the end of input. */
  private parseList(stop: Stop): void {
    let words: string[] = [];
    let word = '';
    let inWord = false;
    let start = this.i;
    let redirect: 'drop' | 'heredoc' | 'heredoc-strip' | null = null;
    let heredocsHere: { delimiter: string; stripTabs: boolean }[] = [];

    const endWord = (): void => {
      if (!inWord) return;
      if (redirect === 'drop') {
        redirect = null;
      } else if (redirect === 'heredoc' || redirect === 'heredoc-strip') {
        heredocsHere.push({ delimiter: word, stripTabs: redirect === 'heredoc-strip' });
        redirect = null;
      } else {
        words.push(word);
      }
      word = '';
      inWord = false;
    };
    const endCommand = (endIndex: number): void => {
      endWord();
      const argv = stripReserved(words);
      const text = this.s
        .slice(start, endIndex)
        .trim()
        .replace(/^(?:(?:if|then|else|elif|do|while|until|!|\{)\s+)+/, '');
      if (argv.length > 0 || heredocsHere.length > 0) {
        const cmd: SimpleCommand = { argv, text, stdin: [] };
        if (argv.length > 0) this.out.push(cmd);
        for (const h of heredocsHere) this.pending.push({ ...h, owner: cmd });
      }
      words = [];
      heredocsHere = [];
      redirect = null;
    };
    const restart = (): void => {
      start = this.i;
    };

    while (this.i < this.s.length) {
      const c = this.peek();

      if (c === '\\') {
        if (this.peek(1) === '\n') {
          this.i += 2;
          continue;
        }
        word += this.peek(1);
        inWord = true;
        this.i += 2;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\r') {
        endWord();
        this.i++;
        continue;
      }
      if (c === '\n') {
        endCommand(this.i);
        this.i++;
        this.readHeredocBodies();
        restart();
        continue;
      }
      if (c === '#' && !inWord) {
        while (this.i < this.s.length && this.peek() !== '\n') this.i++;
        continue;
      }
      if (c === ')' && stop === ')') {
        endCommand(this.i);
        this.i++;
        return;
      }
      if (c === '`' && stop === '`') {
        endCommand(this.i);
        this.i++;
        return;
      }
      if (c === ')') {
        // A stray ')' at this level is a case pattern's end: what came before was a pattern.
        words = [];
        word = '';
        inWord = false;
        this.i++;
        restart();
        continue;
      }
      if (c === ';' || c === '|' || (c === '&' && this.peek(1) !== '>')) {
        endCommand(this.i);
        this.i++;
        const n = this.peek();
        if ((c === ';' && n === ';') || (c === '|' && (n === '|' || n === '&')) || (c === '&' && n === '&')) this.i++;
        restart();
        continue;
      }
      if (c === '(') {
        if (inWord) {
          // An array assignment `a=(1 2)`: part of the word.
          word += this.readBalanced('(', ')');
          continue;
        }
        endCommand(this.i);
        this.i++;
        if (this.peek() === ')') {
          // `name()` of a function definition.
          this.i++;
          restart();
          continue;
        }
        this.parseList(')');
        restart();
        continue;
      }
      if ((c === '<' || c === '>') && this.peek(1) === '(') {
        // Process substitution runs its commands.
        this.i += 2;
        this.parseList(')');
        word += '<(…)';
        inWord = true;
        continue;
      }
      if (c === '<' || c === '>' || (c === '&' && this.peek(1) === '>')) {
        // A leading fd number belongs to the redirection, not to the argv.
        if (inWord && /^[0-9]+$/.test(word)) {
          word = '';
          inWord = false;
        } else {
          endWord();
        }
        const three = this.s.slice(this.i, this.i + 3);
        const two = this.s.slice(this.i, this.i + 2);
        if (three === '<<<') {
          this.i += 3;
          redirect = 'drop';
        } else if (three === '<<-') {
          this.i += 3;
          redirect = 'heredoc-strip';
        } else if (two === '<<') {
          this.i += 2;
          redirect = 'heredoc';
        } else if (three === '&>>') {
          this.i += 3;
          redirect = 'drop';
        } else if (['>>', '>|', '>&', '<&', '<>', '&>'].includes(two)) {
          this.i += 2;
          redirect = 'drop';
        } else {
          this.i += 1;
          redirect = 'drop';
        }
        continue;
      }
      if (c === "'") {
        this.i++;
        const end = this.s.indexOf("'", this.i);
        const stopAt = end === -1 ? this.s.length : end;
        word += this.s.slice(this.i, stopAt);
        this.i = stopAt + 1;
        inWord = true;
        continue;
      }
      if (c === '$' && this.peek(1) === "'") {
        this.i += 2;
        word += this.readAnsiC();
        inWord = true;
        continue;
      }
      if (c === '"') {
        this.i++;
        word += this.readDoubleQuoted();
        inWord = true;
        continue;
      }
      if (c === '$' && this.peek(1) === '(') {
        if (this.peek(2) === '(') {
          word += this.readBalanced('(', ')');
        } else {
          this.i += 2;
          this.parseList(')');
          word += '$(…)';
        }
        inWord = true;
        continue;
      }
      if (c === '$' && this.peek(1) === '{') {
        word += this.readBalanced('{', '}', 1);
        inWord = true;
        continue;
      }
      if (c === '`') {
        this.i++;
        this.parseList('`');
        word += '`…`';
        inWord = true;
        continue;
      }
      // This character and the ordinary ones after it, in one slice.
      const end = runEnd(this.s, this.i + 1, OUTSIDE_QUOTES);
      word += this.s.slice(this.i, end);
      inWord = true;
      this.i = end;
    }
    endCommand(this.i);
  }

  /** Inside "…": backslash escapes, and the substitutions that still run. */
  private readDoubleQuoted(): string {
    let text = '';
    while (this.i < this.s.length) {
      const c = this.peek();
      if (c === '"') {
        this.i++;
        return text;
      }
      if (c === '\\') {
        const n = this.peek(1);
        if (n === '\n') {
          this.i += 2;
          continue;
        }
        if (n === '$' || n === '`' || n === '"' || n === '\\') {
          text += n;
          this.i += 2;
          continue;
        }
        text += c;
        this.i++;
        continue;
      }
      if (c === '$' && this.peek(1) === '(' && this.peek(2) !== '(') {
        this.i += 2;
        this.parseList(')');
        text += '$(…)';
        continue;
      }
      if (c === '$' && this.peek(1) === '{') {
        text += this.readBalanced('{', '}', 1);
        continue;
      }
      if (c === '`') {
        this.i++;
        this.parseList('`');
        text += '`…`';
        continue;
      }
      const end = runEnd(this.s, this.i + 1, INSIDE_DOUBLE_QUOTES);
      text += this.s.slice(this.i, end);
      this.i = end;
    }
    return text;
  }

  /** $'…' with C escapes; only the common ones matter for classification. */
  private readAnsiC(): string {
    let text = '';
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
    while (this.i < this.s.length) {
      const c = this.peek();
      if (c === "'") {
        this.i++;
        return text;
      }
      if (c === '\\') {
        const n = this.peek(1);
        text += escapes[n] ?? n;
        this.i += 2;
        continue;
      }
      text += c;
      this.i++;
    }
    return text;
  }

  /** Reads from `open` (at i + skip) to its balanced `close`, honouring quotes; returns the raw text. */
  private readBalanced(open: string, close: string, skip = 0): string {
    const from = this.i;
    this.i += skip;
    let depth = 0;
    while (this.i < this.s.length) {
      const c = this.peek();
      if (c === '\\') {
        this.i += 2;
        continue;
      }
      if (c === "'") {
        const end = this.s.indexOf("'", this.i + 1);
        this.i = end === -1 ? this.s.length : end + 1;
        continue;
      }
      if (c === '"') {
        this.i++;
        while (this.i < this.s.length && this.peek() !== '"') this.i += this.peek() === '\\' ? 2 : 1;
        this.i++;
        continue;
      }
      if (c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth === 0) {
          this.i++;
          return this.s.slice(from, this.i);
        }
      }
      this.i++;
    }
    return this.s.slice(from);
  }

  /** After a newline: the bodies of heredocs opened on that line. */
  private readHeredocBodies(): void {
    const pending = this.pending;
    this.pending = [];
    for (const h of pending) {
      const lines: string[] = [];
      while (this.i < this.s.length) {
        const nl = this.s.indexOf('\n', this.i);
        const lineEnd = nl === -1 ? this.s.length : nl;
        const raw = this.s.slice(this.i, lineEnd);
        this.i = nl === -1 ? this.s.length : nl + 1;
        const line = h.stripTabs ? raw.replace(/^\t+/, '') : raw;
        if (line === h.delimiter) break;
        lines.push(line);
      }
      h.owner.stdin.push(lines.join('\n'));
    }
  }
}

function stripReserved(words: string[]): string[] {
  let k = 0;
  while (k < words.length && RESERVED_LEADING.has(words[k] ?? '')) k++;
  const rest = words.slice(k);
  if (rest.length > 0 && NOT_COMMANDS.has(rest[0] ?? '')) return [];
  return rest;
}

/** The simple commands of a shell line, before wrappers (`sudo`, `bash -c`, …) are looked through. */
export function splitShell(source: string): SimpleCommand[] {
  return new Parser(source).run();
}

// ---- Looking through wrappers ----

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
const MAX_DEPTH = 8;

export function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash === -1 ? word : word.slice(slash + 1);
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Skips options of a wrapper. `withArg` lists options that take a value (as the next word,
 * or glued: `-uroot`, `--user=root`). Stops at `--` (consumed) or the first non-option.
 */
function skipOptions(argv: string[], from: number, withArg: ReadonlySet<string>): number {
  let k = from;
  while (k < argv.length) {
    const w = argv[k] ?? '';
    if (w === '--') return k + 1;
    if (!w.startsWith('-') || w === '-') return k;
    if (w.startsWith('--')) {
      k += withArg.has(w) && !w.includes('=') ? 2 : 1;
      continue;
    }
    // A cluster of short flags: the first one that takes a value ends the cluster.
    let consumed = 1;
    for (let j = 1; j < w.length; j++) {
      if (withArg.has('-' + w[j])) {
        if (j === w.length - 1) consumed = 2;
        break;
      }
    }
    k += consumed;
  }
  return k;
}

const SUDO_ARGS = new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group', '--host', '--prompt', '--chdir']);
const ENV_ARGS = new Set(['-u', '-C', '--unset', '--chdir']);
const TIME_ARGS = new Set(['-f', '-o', '--format', '--output']);
const NICE_ARGS = new Set(['-n', '--adjustment']);
const IONICE_ARGS = new Set(['-c', '-n', '-p', '-P', '-u', '--class', '--classdata']);
const TIMEOUT_ARGS = new Set(['-s', '-k', '--signal', '--kill-after']);
const STDBUF_ARGS = new Set(['-i', '-o', '-e', '--input', '--output', '--error']);
const XARGS_ARGS = new Set(['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--max-lines', '--delimiter', '--eof', '--max-chars', '--arg-file', '--replace']);
const WATCH_ARGS = new Set(['-n', '--interval', '-d']);
const EXEC_ARGS = new Set(['-a']);
const FLOCK_ARGS = new Set(['-w', '--timeout', '-E', '--conflict-exit-code']);

/**
 * The simple commands a line really runs: wrappers (`env`, `sudo`, `nohup`, `time`, `nice`,
 * `timeout`, `xargs`, `command`, `exec`, leading `VAR=value`) are looked through, and
 * `bash -c '…'`, `eval …`, `su -c '…'` and a shell fed a heredoc are parsed recursively.
 */
export function simpleCommands(source: string, depth = 0): SimpleCommand[] {
  const result: SimpleCommand[] = [];
  for (const cmd of splitShell(source)) result.push(...unwrap(cmd, depth));
  return result;
}

function unwrap(cmd: SimpleCommand, depth: number): SimpleCommand[] {
  let argv = cmd.argv;
  for (;;) {
    let k = 0;
    while (k < argv.length && ASSIGNMENT.test(argv[k] ?? '')) k++;
    argv = argv.slice(k);
    const head = argv[0];
    if (head === undefined) return [];
    const name = basename(head);
    const rest = (from: number): string[] => argv.slice(from);

    switch (name) {
      case 'sudo':
      case 'doas':
        argv = rest(skipOptions(argv, 1, SUDO_ARGS));
        continue;
      case 'env': {
        const sIndex = argv.findIndex((w, i) => i > 0 && (w === '-S' || w === '--split-string'));
        if (sIndex !== -1 && argv[sIndex + 1] !== undefined && depth < MAX_DEPTH) {
          return simpleCommands([argv[sIndex + 1], ...argv.slice(sIndex + 2)].join(' '), depth + 1);
        }
        argv = rest(skipOptions(argv, 1, ENV_ARGS));
        continue;
      }
      case 'nohup':
      case 'builtin':
      case 'unbuffer':
      case 'chronic':
      case 'caffeinate':
        argv = rest(1);
        continue;
      case 'command':
        if (argv.some((w, i) => i > 0 && /^-[pVv]*[vV]/.test(w))) return []; // `command -v x` only looks x up
        argv = rest(skipOptions(argv, 1, new Set()));
        continue;
      case 'exec':
        argv = rest(skipOptions(argv, 1, EXEC_ARGS));
        continue;
      case 'time':
        argv = rest(skipOptions(argv, 1, TIME_ARGS));
        continue;
      case 'nice':
        argv = rest(skipOptions(argv, 1, NICE_ARGS));
        continue;
      case 'ionice':
        argv = rest(skipOptions(argv, 1, IONICE_ARGS));
        continue;
      case 'stdbuf':
        argv = rest(skipOptions(argv, 1, STDBUF_ARGS));
        continue;
      case 'watch':
        argv = rest(skipOptions(argv, 1, WATCH_ARGS));
        continue;
      case 'timeout': {
        const k2 = skipOptions(argv, 1, TIMEOUT_ARGS);
        argv = rest(k2 + 1); // the duration
        continue;
      }
      case 'xargs':
        argv = rest(skipOptions(argv, 1, XARGS_ARGS));
        continue;
      case 'flock': {
        const cIndex = argv.findIndex((w, i) => i > 0 && (w === '-c' || w === '--command'));
        if (cIndex !== -1 && argv[cIndex + 1] !== undefined && depth < MAX_DEPTH) {
          return simpleCommands(argv[cIndex + 1] ?? '', depth + 1);
        }
        argv = rest(skipOptions(argv, 1, FLOCK_ARGS) + 1); // the lock file
        continue;
      }
      case 'eval':
        if (depth >= MAX_DEPTH) return [];
        return simpleCommands(argv.slice(1).join(' '), depth + 1);
      case 'su': {
        const cIndex = argv.findIndex((w, i) => i > 0 && (w === '-c' || w === '--command'));
        if (cIndex !== -1 && argv[cIndex + 1] !== undefined && depth < MAX_DEPTH) {
          return simpleCommands(argv[cIndex + 1] ?? '', depth + 1);
        }
        return [];
      }
      default:
        break;
    }

    if (SHELLS.has(name)) {
      if (depth >= MAX_DEPTH) return [];
      // `bash -c 'script'`, also with the flag in a cluster: `-lc`, `-ec`, `-xc`.
      for (let j = 1; j < argv.length; j++) {
        const w = argv[j] ?? '';
        if (!w.startsWith('-') || w === '-' || w === '--') break;
        if (!w.startsWith('--') && w.includes('c')) {
          const script = argv[j + 1];
          return script === undefined ? [] : simpleCommands(script, depth + 1);
        }
      }
      const positional = argv.slice(1).find((w) => !w.startsWith('-'));
      if (positional === undefined && cmd.stdin.length > 0) {
        return cmd.stdin.flatMap((body) => simpleCommands(body, depth + 1));
      }
      return [{ ...cmd, argv }];
    }
    return [{ ...cmd, argv }];
  }
}
