// Every `chronoscope` command, one module each. To add a command, write its
// module and add one line here.
import type { RegisterCommand } from '../context.js';
import { registerApprove } from './approve.js';
import { registerBisect } from './bisect.js';
import { registerCheck } from './check.js';
import { registerDaemon } from './daemon.js';
import { registerDiff } from './diff.js';
import { registerEffects } from './effects.js';
import { registerFork } from './fork.js';
import { registerHook } from './hook.js';
import { registerHooks } from './hooks.js';
import { registerList } from './list.js';
import { registerMcp } from './mcp.js';
import { registerPin } from './pin.js';
import { registerPrune } from './prune.js';
import { registerRestore } from './restore.js';
import { registerServe } from './serve.js';
import { registerShow } from './show.js';
import { registerSnapshot } from './snapshot.js';
import { registerStatus } from './status.js';
import { registerVerify } from './verify.js';

export const COMMANDS: readonly RegisterCommand[] = [
  registerSnapshot,
  registerList,
  registerShow,
  registerDiff,
  registerRestore,
  registerStatus,
  registerPrune,
  registerPin,
  registerServe,
  registerDaemon,
  registerEffects,
  registerHook,
  registerHooks,
  registerFork,
  registerVerify,
  registerBisect,
  registerApprove,
  registerMcp,
  registerCheck,
];
