// Which parts of a shell command leave the machine and cannot be undone by a
// file restore. Pure: no file system, no processes. Placeholders in angle
// brackets (<old>, <current branch>, <name>@<version>) mark what only the
// workspace can tell; the hook fills them in where it can (see enrich.ts).
import type { ClassifiedEffect, EffectKind } from '../../shared/model.js';
import { basename, simpleCommands, type SimpleCommand } from './shell-split.js';
import { redactEffectText, stripUrlCredentials } from '../../shared/redact.js';

export const OLD_COMMIT = '<old>';
export const CURRENT_BRANCH = '<current branch>';
export const DEFAULT_REMOTE = '<default remote>';
export const PACKAGE_SPEC = '<name>@<version>';

/** One ref a `git push` updates, as far as the command line tells. */
export interface PushUpdate {
  /** Destination branch or ref as written (`main`, `refs/tags/v1`); CURRENT_BRANCH when implied. */
  dst: string;
  /** Source as written; null for a delete. */
  src: string | null;
  delete: boolean;
  force: boolean;
}

export interface PushDetail {
  remote: string;
  /** `git -C <dir>`: where the push runs, relative to the command's cwd. */
  dir: string | null;
  update: PushUpdate | null;
}

export interface PublishDetail {
  /** The folder published (first positional), relative to the cwd; null = the cwd. */
  dir: string | null;
}

export interface DetailedEffect {
  effect: ClassifiedEffect;
  push?: PushDetail;
  publish?: PublishDetail;
}

export function classifyCommand(command: string): ClassifiedEffect[] {
  return classifyDetailed(command).map((d) => d.effect);
}

export function classifyDetailed(command: string): DetailedEffect[] {
  const found: DetailedEffect[] = [];
  for (const cmd of simpleCommands(command)) found.push(...classifySimple(cmd));
  return found;
}

function effect(kind: EffectKind, target: string, cmd: SimpleCommand, compensation: string | null, summary: string): ClassifiedEffect {
  // Secrets never reach the ledger, the ask or the screen (shared/redact.ts): a token may sit in a target or its compensation too.
  return redactEffectText({ kind, target, command: cmd.text, compensation, summary });
}

function classifySimple(cmd: SimpleCommand): DetailedEffect[] {
  const name = basename(cmd.argv[0] ?? '');
  const args = cmd.argv.slice(1);
  switch (name) {
    case 'git':
      return classifyGit(cmd, args);
    case 'npm':
    case 'yarn':
    case 'pnpm':
    case 'bun':
      return classifyPublish(cmd, name, args);
    case 'gh':
      return classifyGh(cmd, args);
    case 'docker':
    case 'podman':
    case 'nerdctl':
      return wrap(classifyContainer(cmd, name, args));
    case 'kubectl':
    case 'oc':
      return wrap(classifyKubectl(cmd, name, args));
    case 'helm':
      return wrap(classifyHelm(cmd, args));
    case 'terraform':
    case 'tofu':
    case 'terragrunt':
      return wrap(classifyTerraform(cmd, name, args));
    case 'pulumi':
    case 'cdk':
      return wrap(classifyIacVerb(cmd, name, args));
    case 'aws':
      return wrap(classifyAws(cmd, args));
    case 'gcloud':
      return wrap(classifyGcloud(cmd, args));
    case 'gsutil':
      return wrap(classifyGsutil(cmd, args));
    case 'az':
      return wrap(classifyAz(cmd, args));
    case 'curl':
      return wrap(classifyCurl(cmd, args));
    case 'wget':
      return wrap(classifyWget(cmd, args));
    case 'http':
    case 'https':
    case 'xh':
      return wrap(classifyHttpie(cmd, args));
    case 'psql':
      return wrap(classifyPsql(cmd, args));
    case 'mysql':
    case 'mariadb':
      return wrap(classifyMysql(cmd, args));
    case 'sqlite3':
      return wrap(classifySqlite(cmd, args));
    case 'ssh':
      return wrap(classifySsh(cmd, args));
    case 'scp':
    case 'rsync':
      return wrap(classifyCopy(cmd, name, args));
    default:
      return [];
  }
}

function wrap(e: ClassifiedEffect | null): DetailedEffect[] {
  return e === null ? [] : [{ effect: e }];
}

// ---- Option scanning shared by the tools ----

interface Scanned {
  positionals: string[];
  /** Every option with its value (value '' for flags); repeated options keep every value. */
  options: { name: string; value: string }[];
}

/**
 * Walks argv with a tool's vocabulary: options in `withArg` take a value (next word or `=`/glued),
 * short flags may cluster (`-fsSL`), `--` ends options.
 */
function scan(args: string[], withArg: ReadonlySet<string>): Scanned {
  const out: Scanned = { positionals: [], options: [] };
  for (let k = 0; k < args.length; k++) {
    const w = args[k] ?? '';
    if (w === '--') {
      out.positionals.push(...args.slice(k + 1));
      break;
    }
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      if (eq !== -1) out.options.push({ name: w.slice(0, eq), value: w.slice(eq + 1) });
      else if (withArg.has(w)) {
        out.options.push({ name: w, value: args[k + 1] ?? '' });
        k++;
      } else out.options.push({ name: w, value: '' });
      continue;
    }
    if (w.startsWith('-') && w.length > 1) {
      for (let j = 1; j < w.length; j++) {
        const flag = '-' + w[j];
        if (withArg.has(flag)) {
          const glued = w.slice(j + 1);
          if (glued !== '') out.options.push({ name: flag, value: glued });
          else {
            out.options.push({ name: flag, value: args[k + 1] ?? '' });
            k++;
          }
          break;
        }
        out.options.push({ name: flag, value: '' });
      }
      continue;
    }
    out.positionals.push(w);
  }
  return out;
}

function has(s: Scanned, ...names: string[]): boolean {
  return s.options.some((o) => names.includes(o.name));
}

function value(s: Scanned, ...names: string[]): string | null {
  const found = s.options.filter((o) => names.includes(o.name));
  return found.length === 0 ? null : (found[found.length - 1]?.value ?? null);
}

function values(s: Scanned, ...names: string[]): string[] {
  return s.options.filter((o) => names.includes(o.name)).map((o) => o.value);
}

function isDryRun(s: Scanned): boolean {
  return s.options.some((o) => (o.name === '--dry-run' || o.name === '--dryrun') && o.value !== 'none');
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

// ---- git push ----

const GIT_GLOBAL_ARGS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path']);
const PUSH_ARGS = new Set(['-o', '--push-option', '--repo', '--receive-pack', '--exec']);

function classifyGit(cmd: SimpleCommand, args: string[]): DetailedEffect[] {
  // Global options come before the subcommand.
  let k = 0;
  let dir: string | null = null;
  while (k < args.length) {
    const w = args[k] ?? '';
    if (!w.startsWith('-')) break;
    if (GIT_GLOBAL_ARGS.has(w)) {
      if (w === '-C') dir = dir === null ? (args[k + 1] ?? null) : `${dir}/${args[k + 1] ?? ''}`;
      k += 2;
    } else k += 1;
  }
  if (args[k] !== 'push') return [];
  const s = scan(args.slice(k + 1), PUSH_ARGS);
  if (has(s, '--dry-run', '-n')) return [];
  const force = s.options.some((o) => o.name === '-f' || o.name === '--force' || o.name === '--force-with-lease');
  const del = has(s, '--delete', '-d');
  const remoteWord = value(s, '--repo') ?? s.positionals[0] ?? null;
  const refspecs = value(s, '--repo') !== null ? s.positionals : s.positionals.slice(1);
  const remote = remoteWord === null ? DEFAULT_REMOTE : stripUrlCredentials(remoteWord);
  const git = dir === null ? 'git' : `git -C ${shellQuote(dir)}`;
  const flags = force ? ' (forced)' : '';

  const whole = (what: string, summary: string): DetailedEffect[] => [
    { effect: effect('git_push', `${remote} (${what})`, cmd, null, summary), push: { remote, dir, update: null } },
  ];
  if (has(s, '--mirror')) return whole('mirror', `mirror every ref to ${remote}${flags}`);
  if (has(s, '--all', '--branches')) return whole('all branches', `push every branch to ${remote}${flags}`);
  if (has(s, '--tags') && refspecs.length === 0) return whole('tags', `push every tag to ${remote}`);

  const updates: PushUpdate[] = [];
  if (refspecs.length === 0) {
    updates.push({ dst: CURRENT_BRANCH, src: 'HEAD', delete: false, force });
  }
  for (const raw of refspecs) {
    const plus = raw.startsWith('+');
    const spec = plus ? raw.slice(1) : raw;
    const colon = spec.indexOf(':');
    if (del) {
      updates.push({ dst: spec, src: null, delete: true, force });
    } else if (colon === -1) {
      updates.push({ dst: spec === 'HEAD' ? CURRENT_BRANCH : spec, src: spec, delete: false, force: force || plus });
    } else {
      const src = spec.slice(0, colon);
      const dst = spec.slice(colon + 1);
      if (src === '') updates.push({ dst, src: null, delete: true, force });
      else updates.push({ dst: dst === '' ? src : dst, src, delete: false, force: force || plus });
    }
  }
  return updates.map((u) => {
    const { branch, ref, isTag } = refNames(u.dst);
    const target = `${remote}/${branch}`;
    let compensation: string | null;
    let summary: string;
    if (u.delete) {
      compensation = `${git} push ${remote} ${OLD_COMMIT}:${ref}`;
      summary = `delete ${isTag ? 'tag' : 'branch'} ${branch} on ${remote}`;
    } else if (isTag) {
      compensation = `${git} push ${remote} --delete ${ref}`;
      summary = `push tag ${branch} to ${remote}${u.force ? ' (forced)' : ''}`;
    } else {
      compensation = `${git} push --force-with-lease=${ref} ${remote} ${OLD_COMMIT}:${ref}`;
      summary = `push ${branch} to ${remote}${u.force ? ' (forced)' : ''}`;
    }
    return { effect: effect('git_push', target, cmd, compensation, summary), push: { remote, dir, update: u } };
  });
}

export function refNames(dst: string): { branch: string; ref: string; isTag: boolean } {
  if (dst.startsWith('refs/heads/')) return { branch: dst.slice('refs/heads/'.length), ref: dst, isTag: false };
  if (dst.startsWith('refs/tags/')) return { branch: dst.slice('refs/tags/'.length), ref: dst, isTag: true };
  if (dst.startsWith('refs/')) return { branch: dst, ref: dst, isTag: false };
  return { branch: dst, ref: `refs/heads/${dst}`, isTag: false };
}

// ---- package publish ----

const PUBLISH_ARGS = new Set(['--tag', '--access', '--otp', '--registry', '--workspace', '-w', '--filter', '--new-version', '--provenance-file']);

function classifyPublish(cmd: SimpleCommand, tool: string, args: string[]): DetailedEffect[] {
  const s = scan(args, new Set([...PUBLISH_ARGS, '-C', '--dir', '--prefix']));
  const pos = s.positionals;
  // `yarn npm publish` (Berry) and `npm publish` / `pnpm publish` / `bun publish`.
  const at = pos[0] === 'publish' ? 1 : pos[0] === 'npm' && pos[1] === 'publish' ? 2 : -1;
  if (at === -1) return [];
  if (isDryRun(s)) return [];
  const dir = pos[at] ?? null;
  const registry = value(s, '--registry');
  const tag = value(s, '--tag');
  const compensation = `npm unpublish ${PACKAGE_SPEC}${registry === null ? '' : ` --registry ${stripUrlCredentials(registry)}`}`;
  const summary =
    `${tool} publish ${dir ?? PACKAGE_SPEC}${tag === null ? '' : ` (tag ${tag})`}` +
    ' — unpublish works within 72 hours; later: npm deprecate <name>@<version> "<why>"';
  return [
    {
      effect: effect('package_publish', dir === null ? PACKAGE_SPEC : `${dir} (${PACKAGE_SPEC})`, cmd, compensation, summary),
      publish: { dir },
    },
  ];
}

// ---- gh ----

const GH_ARGS = new Set(['-R', '--repo', '-t', '--title', '-b', '--body', '-F', '--body-file', '-B', '--base', '-H', '--head', '-a', '--assignee', '-l', '--label', '-m', '--milestone', '-r', '--reviewer', '-p', '--project', '-n', '--notes', '--notes-file', '--target', '--discussion-category', '-X', '--method', '-f', '--raw-field', '--field', '--input', '--jq', '-q', '--template', '-T', '--subject', '--match-head-commit', '-A', '--author-email', '--cache', '--hostname', '-H']);

function classifyGh(cmd: SimpleCommand, args: string[]): DetailedEffect[] {
  const s = scan(args, GH_ARGS);
  const [group, verb, arg] = s.positionals;
  const repo = value(s, '-R', '--repo');
  const repoFlag = repo === null ? '' : ` -R ${shellQuote(repo)}`;
  const where = repo ?? 'the current repository';
  if (group === 'pr' && verb === 'create') {
    if (has(s, '--dry-run')) return [];
    const head = value(s, '-H', '--head') ?? CURRENT_BRANCH;
    const base = value(s, '-B', '--base');
    return wrap(
      effect('pull_request', `${where}: ${head}${base === null ? '' : ` → ${base}`}`, cmd, `gh pr close ${shellQuote(head)}${repoFlag}`, `open a pull request from ${head}`),
    );
  }
  if (group === 'pr' && verb === 'merge') {
    const pr = arg ?? CURRENT_BRANCH;
    return wrap(effect('pull_request', `${where}#${pr}`, cmd, 'git revert -m 1 <merge commit>', `merge pull request ${pr}`));
  }
  if (group === 'release' && verb === 'create' && arg !== undefined) {
    return wrap(
      effect('release', `${where}@${arg}`, cmd, `gh release delete ${shellQuote(arg)} --cleanup-tag --yes${repoFlag}`, `publish release ${arg}`),
    );
  }
  if (group === 'api' && verb !== undefined) {
    const method = (value(s, '-X', '--method') ?? (has(s, '-f', '-F', '--field', '--raw-field', '--input') ? 'POST' : 'GET')).toUpperCase();
    if (!WRITE_METHODS.has(method)) return [];
    return wrap(effect('http_write', `github api ${verb}`, cmd, null, `${method} ${verb} on the GitHub API`));
  }
  return [];
}

// ---- containers ----

function classifyContainer(cmd: SimpleCommand, tool: string, args: string[]): ClassifiedEffect | null {
  const s = scan(args, new Set(['-H', '--host', '--context', '--config', '-t', '--tag', '-f', '--file', '--platform', '--build-arg', '--target', '-o', '--output']));
  const pos = s.positionals;
  let image: string | undefined;
  if (pos[0] === 'push') image = pos[1];
  else if ((pos[0] === 'image' || pos[0] === 'manifest') && pos[1] === 'push') image = pos[2];
  else if ((pos[0] === 'build' || (pos[0] === 'buildx' && pos[1] === 'build')) && (has(s, '--push') || values(s, '-o', '--output').some((v) => v.includes('push=true')))) {
    image = value(s, '-t', '--tag') ?? '(built image)';
  }
  if (image === undefined || isDryRun(s)) return null;
  return effect('container_push', image, cmd, null, `${tool} push ${image} to its registry`);
}

// ---- kubernetes ----

const KUBECTL_ARGS = new Set(['-n', '--namespace', '--context', '--kubeconfig', '-s', '--server', '--cluster', '--user', '--token', '-f', '--filename', '-l', '--selector', '-o', '--output', '-p', '--patch', '--type', '-c', '--container', '--image', '--replicas', '--field-manager', '-k', '--kustomize', '--timeout', '--grace-period', '--port', '--target-port', '--name', '--to-revision']);
const KUBECTL_WRITES = new Set(['apply', 'delete', 'patch', 'replace', 'create', 'edit', 'scale', 'autoscale', 'label', 'annotate', 'taint', 'drain', 'cordon', 'uncordon', 'set', 'expose', 'run']);
const ROLLOUT_WRITES = new Set(['restart', 'undo', 'pause', 'resume']);

function classifyKubectl(cmd: SimpleCommand, tool: string, args: string[]): ClassifiedEffect | null {
  const s = scan(args, KUBECTL_ARGS);
  const [verb, ...rest] = s.positionals;
  if (verb === undefined) return null;
  const writes = KUBECTL_WRITES.has(verb) || (verb === 'rollout' && ROLLOUT_WRITES.has(rest[0] ?? ''));
  if (!writes || isDryRun(s)) return null;
  const files = values(s, '-f', '--filename', '-k', '--kustomize');
  const ns = value(s, '-n', '--namespace');
  const ctx = value(s, '--context');
  const what = files.length > 0 ? files.join(', ') : rest.join(' ') || '(resources)';
  const place = [ctx, ns === null ? null : `ns ${ns}`].filter((x) => x !== null).join(', ');
  const target = place === '' ? what : `${what} [${place}]`;
  const scope = `${ctx === null ? '' : ` --context ${shellQuote(ctx)}`}${ns === null ? '' : ` -n ${shellQuote(ns)}`}`;
  let compensation: string | null = null;
  if (verb === 'create' && files.length > 0) compensation = `${tool} delete ${files.map((f) => `-f ${shellQuote(f)}`).join(' ')}${scope}`;
  else if (verb === 'create' && rest.length >= 2) compensation = `${tool} delete ${rest.slice(0, 2).map(shellQuote).join(' ')}${scope}`;
  else if (verb === 'run' && rest[0] !== undefined) compensation = `${tool} delete pod ${shellQuote(rest[0])}${scope}`;
  else if (verb === 'cordon' && rest[0] !== undefined) compensation = `${tool} uncordon ${shellQuote(rest[0])}${scope}`;
  else if (verb === 'rollout' && rest[0] === 'pause' && rest[1] !== undefined) compensation = `${tool} rollout resume ${rest.slice(1).map(shellQuote).join(' ')}${scope}`;
  return effect('cluster_change', target, cmd, compensation, `${tool} ${verb === 'rollout' ? `rollout ${rest[0] ?? ''}` : verb} ${what}`);
}

function classifyHelm(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scan(args, new Set(['-n', '--namespace', '--kube-context', '--kubeconfig', '-f', '--values', '--set', '--set-string', '--set-file', '--version', '--repo', '--timeout', '-o', '--output', '--description', '--post-renderer']));
  const [verb, name, chart] = s.positionals;
  if (verb === undefined || isDryRun(s)) return null;
  const ns = value(s, '-n', '--namespace');
  const scope = ns === null ? '' : ` -n ${shellQuote(ns)}`;
  const release = has(s, '--generate-name', '-g') && verb === 'install' ? '(generated name)' : (name ?? '');
  if (verb === 'install') {
    return effect('cluster_change', `helm release ${release}${ns === null ? '' : ` [ns ${ns}]`}`, cmd, release === '(generated name)' ? null : `helm uninstall ${shellQuote(release)}${scope}`, `install ${chart ?? name ?? ''} as ${release}`);
  }
  if (verb === 'upgrade' && name !== undefined) {
    return effect('cluster_change', `helm release ${name}${ns === null ? '' : ` [ns ${ns}]`}`, cmd, `helm rollback ${shellQuote(name)}${scope}`, `upgrade release ${name}${has(s, '-i', '--install') ? ' (installs if missing: then uninstall instead)' : ''}`);
  }
  if ((verb === 'uninstall' || verb === 'delete' || verb === 'del' || verb === 'un') && name !== undefined) {
    return effect('cluster_change', `helm release ${name}${ns === null ? '' : ` [ns ${ns}]`}`, cmd, null, `uninstall release ${name}`);
  }
  if (verb === 'rollback' && name !== undefined) {
    return effect('cluster_change', `helm release ${name}${ns === null ? '' : ` [ns ${ns}]`}`, cmd, null, `roll back release ${name}`);
  }
  return null;
}

// ---- infrastructure as code ----

function classifyTerraform(cmd: SimpleCommand, tool: string, args: string[]): ClassifiedEffect | null {
  const chdirArg = args.find((a) => a.startsWith('-chdir='));
  const s = scan(args.filter((a) => !a.startsWith('-chdir=')), new Set(['-var', '-var-file', '-target', '-parallelism', '-state', '-lock-timeout']));
  const [verb, sub] = s.positionals;
  const dir = chdirArg === undefined ? 'the current directory' : chdirArg.slice('-chdir='.length);
  const destroy = verb === 'destroy' || (verb === 'apply' && args.includes('-destroy'));
  if (verb === 'apply' || verb === 'destroy' || verb === 'import' || (verb === 'state' && (sub === 'rm' || sub === 'mv' || sub === 'push'))) {
    return effect('infra_change', `${tool} in ${dir}`, cmd, null, `${tool} ${destroy ? 'destroy' : verb === 'state' ? `state ${sub ?? ''}` : verb}: changes real infrastructure`);
  }
  if (tool === 'terragrunt' && (verb === 'run-all' || verb === 'run') && (sub === 'apply' || sub === 'destroy')) {
    return effect('infra_change', `${tool} in ${dir}`, cmd, null, `${tool} ${verb} ${sub}`);
  }
  return null;
}

function classifyIacVerb(cmd: SimpleCommand, tool: string, args: string[]): ClassifiedEffect | null {
  const s = scan(args, new Set(['-s', '--stack', '-C', '--cwd', '--profile', '-c', '--context', '-a', '--app']));
  const verb = s.positionals[0];
  const writes = tool === 'pulumi' ? ['up', 'update', 'destroy', 'import'] : ['deploy', 'destroy', 'bootstrap'];
  if (verb === undefined || !writes.includes(verb) || has(s, '--preview-only') || isDryRun(s)) return null;
  const stack = value(s, '-s', '--stack') ?? s.positionals[1] ?? 'current stack';
  return effect('infra_change', `${tool} ${stack}`, cmd, null, `${tool} ${verb}: changes real infrastructure`);
}

// ---- clouds ----

const AWS_FLAGS = new Set(['--debug', '--no-paginate', '--no-verify-ssl', '--no-sign-request', '--no-cli-pager', '--dryrun', '--dry-run', '--no-dry-run', '--recursive', '--force', '--quiet', '--delete', '--exact-timestamps', '--no-progress', '--only-show-errors']);
const CLOUD_WRITE_VERB =
  /^(create|delete|put|update|modify|terminate|run|start|stop|reboot|attach|detach|associate|disassociate|register|deregister|deploy|invoke|publish|send|set|tag|untag|add|remove|import|restore|replace|reset|revoke|authorize|enable|disable|upload|copy|cancel|purge|execute|apply|batch-write|batch-delete|reject|accept|allocate|release|rotate|subscribe|unsubscribe|increase|decrease|change|promote|failover|resize|scale|swap|assign|patch|submit|rollback|undelete|move)(-|$)/;

/** aws options are `--name value` except for a known set of flags. */
function scanAws(args: string[]): Scanned {
  const out: Scanned = { positionals: [], options: [] };
  for (let k = 0; k < args.length; k++) {
    const w = args[k] ?? '';
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      if (eq !== -1) out.options.push({ name: w.slice(0, eq), value: w.slice(eq + 1) });
      else if (AWS_FLAGS.has(w) || (args[k + 1] ?? '--').startsWith('--')) out.options.push({ name: w, value: '' });
      else {
        out.options.push({ name: w, value: args[k + 1] ?? '' });
        k++;
      }
    } else out.positionals.push(w);
  }
  return out;
}

function classifyAws(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scanAws(args);
  const [service, op, ...rest] = s.positionals;
  if (service === undefined || op === undefined) return null;
  if (service === 'configure' || service === 'sts' || service === 'help') return null;
  if (has(s, '--dryrun') || (has(s, '--dry-run') && !has(s, '--no-dry-run'))) return null;
  if (service === 's3') {
    const last = rest[rest.length - 1] ?? '';
    const writes = op === 'rm' || op === 'rb' || op === 'mb' || ((op === 'cp' || op === 'mv' || op === 'sync') && last.startsWith('s3://'));
    if (!writes) return null;
    const target = op === 'cp' || op === 'mv' || op === 'sync' ? last : (rest[0] ?? 's3');
    return effect('cloud_change', target, cmd, null, `aws s3 ${op} ${target}`);
  }
  if (!CLOUD_WRITE_VERB.test(op)) return null;
  const named = s.options.find((o) => /(^--(bucket|key|stack-name|function-name|table-name|cluster|service|name|instance-ids?|queue-url|topic-arn|role-name|user-name|group-name|repository-name|db-instance-identifier|resource-arn)$)/.test(o.name));
  const target = `aws ${service}${named === undefined ? '' : ` ${named.value}`}`;
  return effect('cloud_change', target, cmd, null, `aws ${service} ${op}`);
}

const GCLOUD_LOCAL = new Set(['config', 'auth', 'components', 'info', 'help', 'init', 'topic', 'version', 'feedback', 'survey', 'cheat-sheet', 'docker']);
const GCLOUD_VERBS = /^(create|delete|deploy|update|patch|import|resize|start|stop|reset|restart|submit|apply|rollback|set-iam-policy|add-[a-z-]+|remove-[a-z-]+|set-[a-z-]+|enable|disable|undelete|promote-replica|failover|cancel|execute|run|publish|upload|cp|mv|rm|rsync|mb|rb)$/;

function classifyGcloud(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scanAws(args);
  const pos = s.positionals;
  if (pos.length < 2 || GCLOUD_LOCAL.has(pos[0] ?? '') || isDryRun(s)) return null;
  // The command path is the leading words; resource names come after the verb.
  const verbAt = pos.findIndex((w, i) => i > 0 && GCLOUD_VERBS.test(w));
  if (verbAt === -1) return null;
  if (pos[0] === 'storage' && ['cp', 'mv', 'rsync'].includes(pos[verbAt] ?? '') && !(pos[pos.length - 1] ?? '').startsWith('gs://')) return null;
  const path = pos.slice(0, verbAt + 1).join(' ');
  const resource = pos[verbAt + 1];
  const project = value(s, '--project');
  return effect('cloud_change', `gcloud ${pos.slice(0, verbAt).join(' ')}${resource === undefined ? '' : ` ${resource}`}${project === null ? '' : ` [project ${project}]`}`, cmd, null, `gcloud ${path}`);
}

function classifyGsutil(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scan(args, new Set(['-h', '-o', '-p', '-u']));
  const [verb, ...rest] = s.positionals;
  const last = rest[rest.length - 1] ?? '';
  const writes = verb === 'rm' || verb === 'rb' || verb === 'mb' || verb === 'setmeta' || ((verb === 'acl' || verb === 'iam' || verb === 'lifecycle' || verb === 'cors') && rest[0] === 'set') || ((verb === 'cp' || verb === 'mv' || verb === 'rsync') && last.startsWith('gs://'));
  if (!writes || has(s, '-n')) return null;
  return effect('cloud_change', last || 'gs://', cmd, null, `gsutil ${verb ?? ''} ${last}`.trim());
}

const AZ_LOCAL = new Set(['login', 'logout', 'account', 'config', 'configure', 'extension', 'upgrade', 'version', 'find', 'interactive', 'cloud', 'init', 'feedback', 'bicep']);
const AZ_VERBS = /^(create|delete|update|set|add|remove|deploy|start|stop|restart|up|import|purge|invoke|assign|upload|swap|scale|apply|run|restore|rotate|renew|cancel|move|resize|reset|regenerate|unassign|enable|disable|attach|detach|push|sync)$/;

function classifyAz(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scanAws(args);
  const pos = s.positionals;
  if (pos.length < 2 || AZ_LOCAL.has(pos[0] ?? '')) return null;
  const verbAt = pos.findIndex((w, i) => i > 0 && AZ_VERBS.test(w));
  if (verbAt === -1 || has(s, '--what-if')) return null;
  const name = value(s, '--name', '-n', '--resource-group', '-g');
  return effect('cloud_change', `az ${pos.slice(0, verbAt).join(' ')}${name === null ? '' : ` ${name}`}`, cmd, null, `az ${pos.slice(0, verbAt + 1).join(' ')}`);
}

// ---- http ----

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CURL_ARGS = new Set([
  '-d', '-D', '-e', '-E', '-F', '-H', '-K', '-m', '-o', '-r', '-T', '-u', '-U', '-w', '-x', '-X', '-y', '-Y', '-z', '-b', '-c', '-C', '-A', '-t', '-Q', '-P',
  '--data', '--data-ascii', '--data-binary', '--data-raw', '--data-urlencode', '--json', '--form', '--form-string', '--upload-file', '--request',
  '--header', '--output', '--user', '--user-agent', '--referer', '--cookie', '--cookie-jar', '--config', '--max-time', '--connect-timeout', '--proxy',
  '--write-out', '--range', '--cert', '--key', '--cacert', '--capath', '--url', '--retry', '--retry-delay', '--retry-max-time', '--resolve', '--connect-to',
  '--interface', '--limit-rate', '--max-filesize', '--oauth2-bearer', '--proxy-user', '--dump-header', '--stderr', '--trace', '--trace-ascii',
  '--unix-socket', '--variable', '--aws-sigv4', '--cert-type', '--key-type', '--ciphers', '--continue-at', '--expect100-timeout', '--max-redirs', '--output-dir', '--quote', '--request-target', '--time-cond', '--speed-limit', '--speed-time',
]);
const CURL_BODY = ['-d', '--data', '--data-ascii', '--data-binary', '--data-raw', '--data-urlencode', '--json', '-F', '--form', '--form-string', '-T', '--upload-file'];

function classifyCurl(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scan(args, CURL_ARGS);
  const explicit = value(s, '-X', '--request')?.toUpperCase() ?? null;
  const body = has(s, ...CURL_BODY);
  const upload = has(s, '-T', '--upload-file');
  const asGet = has(s, '-G', '--get');
  let method: string;
  if (explicit !== null) method = explicit;
  else if (upload) method = 'PUT';
  else if (body && !asGet) method = 'POST';
  else method = 'GET';
  if (!WRITE_METHODS.has(method)) return null;
  const url = value(s, '--url') ?? s.positionals[0] ?? '(no url)';
  const target = stripUrlCredentials(url);
  return effect('http_write', target, cmd, null, `HTTP ${method} ${target}`);
}

const WGET_ARGS = new Set(['-O', '-o', '-a', '-P', '-U', '-e', '-t', '-T', '-w', '-i', '-B', '-Q', '-l', '-A', '-R', '-D', '-I', '-X', '--header', '--method', '--post-data', '--post-file', '--body-data', '--body-file', '--user', '--password', '--output-document', '--user-agent', '--tries', '--timeout']);

function classifyWget(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scan(args, WGET_ARGS);
  const explicit = value(s, '--method')?.toUpperCase() ?? null;
  const body = has(s, '--post-data', '--post-file', '--body-data', '--body-file');
  const method = explicit ?? (body ? 'POST' : 'GET');
  if (!WRITE_METHODS.has(method) || has(s, '--spider')) return null;
  const url = stripUrlCredentials(s.positionals[0] ?? '(no url)');
  return effect('http_write', url, cmd, null, `HTTP ${method} ${url}`);
}

function classifyHttpie(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scan(args, new Set(['-a', '--auth', '-A', '--auth-type', '-o', '--output', '--session', '--verify', '--cert', '--cert-key', '--timeout', '-p', '--print', '--pretty', '-s', '--style', '--proxy']));
  const pos = s.positionals;
  if (pos.length === 0 || has(s, '--offline')) return null;
  const first = pos[0] ?? '';
  const methodGiven = /^[A-Z]+$/.test(first);
  const url = methodGiven ? (pos[1] ?? '') : first;
  const items = pos.slice(methodGiven ? 2 : 1);
  const hasData = items.some((i) => /^[^=:@]+(?::=@?|=@?|@)/.test(i) && !/^[^=]+==/.test(i)) || has(s, '-f', '--form', '--raw');
  const method = methodGiven ? first : hasData ? 'POST' : 'GET';
  if (!WRITE_METHODS.has(method)) return null;
  const target = stripUrlCredentials(url);
  return effect('http_write', target, cmd, null, `HTTP ${method} ${target}`);
}

// ---- databases ----

const SQL_WRITE = /\b(insert|update|delete|drop|alter|create|truncate|replace|merge|grant|revoke|upsert|vacuum|reindex|rename|attach|detach)\b/i;

/** True when the SQL writes; quoted literals and comments are ignored. */
export function sqlWrites(sql: string): boolean {
  const bare = sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
  return SQL_WRITE.test(bare);
}

function classifyPsql(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  const s = scan(args, new Set(['-c', '--command', '-d', '--dbname', '-h', '--host', '-p', '--port', '-U', '--username', '-f', '--file', '-v', '--set', '--variable', '-o', '--output', '-P', '--pset', '-F', '-R', '-T', '-L', '--log-file']));
  const sql = values(s, '-c', '--command').join(';\n');
  if (sql === '' || !sqlWrites(sql)) return null;
  const db = value(s, '-d', '--dbname') ?? s.positionals[0] ?? 'default database';
  const host = value(s, '-h', '--host');
  const target = `postgres ${stripUrlCredentials(db)}${host === null ? '' : ` on ${host}`}`;
  return effect('database_write', target, cmd, null, `write SQL on ${target}`);
}

function classifyMysql(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  // -p takes its password glued only; a separate word after -p is the database.
  const s = scan(args, new Set(['-e', '--execute', '-D', '--database', '-h', '--host', '-P', '--port', '-u', '--user', '-S', '--socket']));
  const sql = values(s, '-e', '--execute').join(';\n');
  if (sql === '' || !sqlWrites(sql)) return null;
  const db = value(s, '-D', '--database') ?? s.positionals[s.positionals.length - 1] ?? 'default database';
  const host = value(s, '-h', '--host');
  const target = `mysql ${db}${host === null ? '' : ` on ${host}`}`;
  return effect('database_write', target, cmd, null, `write SQL on ${target}`);
}

function classifySqlite(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  // sqlite3's long options use one dash (`-cmd`, `-readonly`), so scan() does not fit: walk argv directly.
  const cmdSql: string[] = [];
  for (let k = 0; k < args.length; k++) if (args[k] === '-cmd' && args[k + 1] !== undefined) cmdSql.push(args[k + 1] ?? '');
  const positionals = args.filter((a, k) => !a.startsWith('-') && !['-cmd', '-separator', '-newline', '-nullvalue', '-init'].includes(args[k - 1] ?? ''));
  const [db, ...sqlWords] = positionals;
  const sql = [...cmdSql, sqlWords.join(' ')].join(';\n');
  if (db === undefined || !sqlWrites(sql) || args.includes('-readonly')) return null;
  return effect('database_write', `sqlite ${db}`, cmd, null, `write SQL on ${db}`);
}

// ---- remote hosts ----

const SSH_ARGS = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B']);

function classifySsh(cmd: SimpleCommand, args: string[]): ClassifiedEffect | null {
  // Options end at the host; everything after it is the remote command, options included.
  let k = 0;
  while (k < args.length) {
    const w = args[k] ?? '';
    if (w === '--') {
      k++;
      break;
    }
    if (!w.startsWith('-')) break;
    const last = w[w.length - 1] ?? '';
    k += w.length === 2 && SSH_ARGS.has(w) ? 2 : SSH_ARGS.has('-' + last) && w.length > 2 && !w.slice(1, -1).split('').some((ch) => SSH_ARGS.has('-' + ch)) ? 2 : 1;
  }
  const host = args[k];
  const remote = args.slice(k + 1);
  if (host === undefined || remote.length === 0 || args.slice(0, k).includes('-N')) return null;
  const user = args.slice(0, k).includes('-l') ? `${args[args.indexOf('-l') + 1] ?? ''}@` : '';
  const line = remote.join(' ');
  return effect('remote_command', `${user}${host}`, cmd, null, `run on ${host}: ${line.length > 80 ? `${line.slice(0, 77)}…` : line}`);
}

function classifyCopy(cmd: SimpleCommand, tool: string, args: string[]): ClassifiedEffect | null {
  const s = scan(args, new Set(['-P', '-i', '-F', '-o', '-c', '-l', '-S', '-J', '-e', '--rsh', '--exclude', '--include', '--filter', '-f', '--chmod', '--chown', '--port', '--password-file', '--bwlimit', '--log-file', '--backup-dir', '--suffix', '--timeout', '--rsync-path']));
  const dest = s.positionals[s.positionals.length - 1];
  if (dest === undefined || s.positionals.length < 2) return null;
  if (tool === 'rsync' && (has(s, '-n', '--dry-run') || has(s, '--list-only'))) return null;
  const remote = /^rsync:\/\//.test(dest) ? dest : /^[^/]*[^/\\]:/.test(dest) && !/^[a-zA-Z]:\\/.test(dest) ? dest : null;
  if (remote === null) return null;
  const target = stripUrlCredentials(remote);
  return effect('remote_command', target, cmd, null, `${tool} files to ${target}`);
}
