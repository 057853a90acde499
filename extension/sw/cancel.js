// Cancelling a call the relay says is no longer wanted (its client cancelled it): the `cancel`
// frame names it by the number its `call` frame had. What can stop stops: a call not yet begun
// never begins; an action not yet dispatched never is (its page scripts are told, and say whether
// it had gone); the wait after an action, a navigation's wait for its load and a wait for text or
// an element end at once. The call then answers CANCELLED, saying what it had done: an action
// dispatched cannot be undone, and the answer says so. A call with nothing it can stop part-way
// (a form fill, a key press) runs to its end and answers as it would have. A cancel for a call
// that has answered, or that never came, is ignored.
import { ToolError } from './errors.js';

const running = new Map(); // the call frame's id -> Run

// One call as it runs: how far it has got (`stage`, which its handler moves on), the nonces its
// page scripts run under (what the pages are told to stop), and `stopped`, which rejects with
// the call's CANCELLED answer once it is cancelled where it can stop.
class Run {
  constructor(op, tab, mutates) {
    this.op = op;
    this.tab = tab;
    this.mutates = mutates;
    this.stage = 'before';
    this.began = Date.now();
    this.nonces = new Set();
    this.cancelled = false;
    this.navigating = false;
    this.dispatched = () => false;
    this.stopped = new Promise((_, reject) => (this.reject = reject));
    this.stopped.catch(() => {});
  }

  // The handler has got to `stage` (a stage of `STAGES` below).
  at(stage, said = {}) {
    this.stage = stage;
    if (stage === 'waiting') this.began = Date.now();
    Object.assign(this, said);
  }

  // A page script's nonce for this call, told to stop when the call is cancelled.
  page(nonce) {
    this.nonces.add(nonce);
    return nonce;
  }

  // Throws the call's answer when it was cancelled: a step that would act goes no further.
  check() {
    if (this.cancelled) throw new ToolError('CANCELLED', 'the call was cancelled', 'refused');
  }
}

// A call frame begins (`mutates`: whether its operation changes the page, per the contract).
export function begin(id, op, tab, mutates) {
  const run = new Run(op, tab, mutates);
  running.set(id, run);
  return run;
}

export function end(id) {
  running.delete(id);
}

// The relay's cancel for call `id`.
export async function cancel(id) {
  const run = running.get(id);
  if (!run || run.cancelled) return;
  run.cancelled = true;
  // Read now: a stage the handler reaches after this point sees `cancelled` and stops there.
  const stage = run.stage;
  const fromPages = await stopPages(run);
  const said = whatHappened({
    op: run.op,
    mutates: run.mutates,
    stage,
    dispatched: fromPages || run.dispatched(),
    navigating: run.navigating,
    waitedMs: Date.now() - run.began,
  });
  if (said) run.reject(new ToolError('CANCELLED', said.message, said.outcome));
}

// Tells the page scripts of the call's tab, in every frame, to stop the call's nonces; true when
// one says its action had been dispatched.
async function stopPages(run) {
  if (run.tab === null || run.nonces.size === 0) return false;
  // Kept in the frame's isolated world even before its page scripts are there (a call's first
  // injection may still be on its way): they read it as they start.
  const stop = (nonces) => {
    const stopped = (globalThis.__tabpilotStopped ??= new Set());
    for (const n of nonces) stopped.add(n);
    return globalThis.__tabpilot?.cancel?.(nonces) ?? false;
  };
  try {
    const frames = await chrome.scripting.executeScript({
      target: { tabId: run.tab, allFrames: true },
      func: stop,
      args: [[...run.nonces]],
    });
    return frames.some((f) => f?.result === true);
  } catch (_) {
    return false; // the tab or its page went: nothing of the call runs there any more
  }
}

// How an action is named when it was dispatched.
const ACTIONS = {
  click: 'the click',
  type: 'the typing',
  hover: 'the hover',
  focus: 'the focus',
  select: 'the selection',
  clear: 'the clearing',
  upload: 'the upload',
};

// What a cancelled call had done, for its answer: { message, outcome }, or null when it runs on
// to its own answer (an operation that changes the page with nothing it can stop part-way).
// `stage`: before (not begun), running (begun, no finer stage), acting (an action's page call,
// the check that its element can be acted on first), settling (the action dispatched, its wait
// under way), loading (a navigation begun, its load awaited), waiting (a wait for text, an
// element or a URL), script (a script of the caller's running).
export function whatHappened({ op, mutates, stage, dispatched, navigating, waitedMs }) {
  const action = ACTIONS[op] || `the ${op}`;
  const after = navigating ? "the page's navigation was not waited for" : 'what it started was not waited for';
  switch (stage) {
    case 'before':
      return { message: 'it had not begun; nothing was done', outcome: 'refused' };
    case 'acting':
      if (!dispatched) return { message: `${action} was never dispatched; nothing was done`, outcome: 'refused' };
      return { message: `${action} was dispatched and cannot be undone; ${after}`, outcome: 'partial' };
    case 'settling':
      return { message: `${action} was dispatched and cannot be undone; ${after}`, outcome: 'partial' };
    case 'loading':
      return { message: 'the navigation had begun and goes on; its load was not waited for', outcome: 'partial' };
    case 'waiting':
      return { message: `the wait stopped after ${waitedMs} ms, not met`, outcome: 'failed' };
    case 'script':
      return { message: 'the script was running; a script cannot be stopped, and it may go on', outcome: 'unknown' };
    default:
      return mutates ? null : { message: `it stopped after ${waitedMs} ms; it changed nothing`, outcome: 'failed' };
  }
}
