// Performance of the agent's tab: web vitals and heap samples from the page itself (page/vitals.js,
// no debugger), and a full DevTools trace, the one job here that needs the debugger: attached
// for the trace only and detached straight after.
import { ToolError } from './errors.js';
import { runInPage } from './page.js';
import { onDebuggerEvent, withDebugger } from './debugger.js';

const MAX_TRACE_CHARS = 40 << 20; // under the relay's 48 MB answer limit
const TRACE_END_MS = 30000; // for the browser to hand the trace over once it is stopped
// What DevTools' Performance panel records.
const CATEGORIES = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline.stack',
  'v8.execute',
  'blink.console',
  'blink.user_timing',
  'loading',
  'latencyInfo',
  'toplevel',
  'disabled-by-default-v8.cpu_profiler',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The vitals, after `settleMs` for what a page does just after its load (a late shift, say).
export async function vitals(tabId, { settleMs = 0 }) {
  if (settleMs > 0) await sleep(settleMs);
  return runInPage(tabId, 'vitals', {});
}

export const memory = (tabId, args) => runInPage(tabId, 'memory', args);

// Records the tab for `durationMs` and answers the trace as DevTools writes it: JSON text.
export async function trace(tabId, { durationMs }) {
  let stop;
  const complete = new Promise((resolve) => {
    stop = onDebuggerEvent(tabId, (method, params) => {
      if (method === 'Tracing.tracingComplete') resolve(params);
    });
  });
  try {
    return await withDebugger(tabId, async (send) => {
      await send('Tracing.start', {
        transferMode: 'ReturnAsStream',
        streamFormat: 'json',
        traceConfig: { recordMode: 'recordAsMuchAsPossible', includedCategories: CATEGORIES },
      });
      await sleep(durationMs);
      await send('Tracing.end');
      const ended = await Promise.race([complete, sleep(TRACE_END_MS).then(() => null)]);
      if (!ended?.stream) {
        throw new ToolError('TIMEOUT', `the browser did not hand over the trace within ${TRACE_END_MS / 1000} s`);
      }
      let text = '';
      for (;;) {
        const { data, eof, base64Encoded } = await send('IO.read', { handle: ended.stream, size: 1 << 20 });
        text += base64Encoded ? new TextDecoder().decode(Uint8Array.from(atob(data), (c) => c.charCodeAt(0))) : data;
        if (text.length > MAX_TRACE_CHARS) {
          throw new ToolError('BAD_ARGS', `the trace passed ${MAX_TRACE_CHARS >> 20} MB; record a shorter durationMs`);
        }
        if (eof) break;
      }
      await send('IO.close', { handle: ended.stream }).catch(() => {});
      return { trace: text, debugger: true };
    });
  } finally {
    stop();
  }
}
