// browser_eval: the agent's own script, run in the page's main world (where the page's globals
// are), in the top frame or in the frame of a ref whose element it is called with. The only
// operation that runs code a caller sent; the controller refuses it under TABPILOT_NO_EVAL.
import { ToolError } from './errors.js';
import { inject, locate, runInPage } from './page.js';
import { nextDocument } from './navigation.js';
import { evaluateInMain } from '../main/eval.js';
import { heldIn, maskHeld } from './held.js';
import { anyFilled } from './secrets.js';

// Room past the cap for what the writer may add after its last check: the key and the number
// or description it was writing (each at most a few hundred characters, escaped), a marker
// closing each open container, the envelope.
const SLACK = 16384;

// The codes the page side answers with; anything else from the page is not ours.
const PAGE_CODES = {
  SCRIPT_ERROR: 'failed',
  CSP_BLOCKED: 'failed',
  BAD_ARGS: 'failed',
  STALE_REF: 'refused',
};

const LATE = Symbol('late');

// A script that takes its frame to another page loses its value: the old document is unloaded,
// or frozen in the back/forward cache, where its promise never settles.
const leftPage = (where) =>
  new ToolError('SCRIPT_ERROR', `the frame went ${where} before the script's value came back; what it did stays done`);

const interfered = (why) =>
  new ToolError('SCRIPT_ERROR', `the page's own scripts interfered with the evaluation: ${why}`, 'failed');

// The main world's answer, read as untrusted text: the page shares that world and could have
// bent what came back.
function readAnswer(text, maxChars) {
  if (text == null) throw leftPage('to another page');
  if (typeof text !== 'string') throw interfered(`it answered with a ${typeof text}, not text`);
  if (text.length > maxChars + SLACK) throw interfered('its answer was larger than the cap');
  let answer;
  try {
    answer = JSON.parse(text);
  } catch (_) {
    throw interfered('its answer was not JSON');
  }
  const error = answer?.error;
  if (error) {
    if (!Object.hasOwn(PAGE_CODES, error.code) || typeof error.message !== 'string') {
      throw interfered('its error was not one of ours');
    }
    throw new ToolError(error.code, error.message, PAGE_CODES[error.code]);
  }
  if (!answer || !Object.hasOwn(answer, 'value')) throw interfered('its answer had no value');
  return { value: answer.value, cut: typeof answer.cut === 'string' ? answer.cut : null };
}

// The frame's address as the browser knows it, not as the page says.
async function frameUrl(tabId, frameId) {
  const frame = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
  if (!frame) throw new ToolError('STALE_REF', `frame f${frameId} is no longer in the page`, 'refused');
  return frame.url;
}

// The script runs under this worker's timer, not the page's: a page that replaced Promise or
// setTimeout, or a promise that never settles, ends at the timeout all the same. What it started
// may still be running then, so the outcome is unknown.
export async function evaluate(tabId, { expression, function: source, ref, maxChars }, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let frameId = 0;
  let handover = null;
  let element;
  if (ref !== undefined) {
    const located = await locate(tabId, ref);
    frameId = located.frameId;
    handover = { ask: crypto.randomUUID(), give: crypto.randomUUID() };
    ({ element } = await runInPage(tabId, 'handOver', { ref: located.ref, ...handover }, frameId));
  }
  const url = await frameUrl(tabId, frameId);
  // With no secret filled yet, no field holds one: the frames are not asked.
  const held = (await anyFilled()) ? await heldIn(tabId) : [];
  const next = nextDocument(tabId, frameId);
  const run = inject(tabId, frameId, {
    world: 'MAIN',
    func: evaluateInMain,
    args: [{ expression, source, handover, maxChars }],
  });
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, deadline - Date.now()));
  });
  const answered = run.then(([r]) => ({ text: r?.result }));
  const done = await Promise.race([answered, late, next.committed]).finally(() => {
    clearTimeout(timer);
    next.stop();
  });
  if (done.left) throw leftPage(`to ${done.left.split('?')[0]}`);
  if (done === LATE) {
    const why = `the script had not finished after ${timeoutMs} ms (a promise still pending, or a long loop)`;
    throw new ToolError('TIMEOUT', `${why}; it may still be running and change the page`, 'unknown');
  }
  const { value, cut } = readAnswer(done.text, maxChars);
  return { value: maskHeld(value, held), cut: cut && maskHeld(cut, held), url, world: 'main', element };
}
