// What a cancelled call says it had done (sw/cancel.js), and a page's part in it (page/kit.js):
// an action cancelled before it went is never dispatched, and one that went is said to have.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

import './chrome.js';
import { whatHappened } from '../../extension/sw/cancel.js';

const EXTENSION = new URL('../../extension/', import.meta.url);

test('a cancelled call says how far it had got, and never that an action it dispatched was undone', () => {
  const said = (stage, more = {}) => whatHappened({ op: 'click', mutates: true, stage, waitedMs: 40, ...more });
  assert.deepEqual(said('before'), { message: 'it had not begun; nothing was done', outcome: 'refused' });
  assert.deepEqual(said('acting'), { message: 'the click was never dispatched; nothing was done', outcome: 'refused' });
  const went = said('acting', { dispatched: true });
  assert.equal(went.outcome, 'partial');
  assert.match(went.message, /^the click was dispatched and cannot be undone; what it started was not waited for$/);
  assert.match(said('settling', { navigating: true }).message, /the page's navigation was not waited for$/);
  assert.equal(said('loading').outcome, 'partial');
  assert.deepEqual(whatHappened({ op: 'waitFor', mutates: false, stage: 'waiting', waitedMs: 300 }), {
    message: 'the wait stopped after 300 ms, not met',
    outcome: 'failed',
  });
  assert.equal(said('script').outcome, 'unknown');
  // Begun, with nothing it can stop part-way: a page-changing call runs to its own answer.
  assert.equal(said('running'), null);
  assert.equal(whatHappened({ op: 'snapshot', mutates: false, stage: 'running', waitedMs: 5 }).outcome, 'failed');
});

test("a page's cancelled call is never dispatched, and a cancel says whether it had been", () => {
  const context = vm.createContext({ console, chrome: { runtime: { sendMessage: () => Promise.resolve() } } });
  context.globalThis = context;
  for (const file of ['page/contract.js', 'page/kit.js']) {
    vm.runInContext(readFileSync(new URL(file, EXTENSION), 'utf8'), context, { filename: file });
  }
  const T = context.__tabpilot;
  T.dispatched('went');
  let woken = 0;
  const stop = T.whenCancelled(() => woken++);
  assert.equal(T.cancel(['went']), true, 'dispatched before its cancel');
  assert.equal(T.cancel(['waiting']), false);
  assert.equal(woken, 2);
  stop();
  assert.ok(T.halted('waiting') && !T.halted('other') && !T.halted(undefined));
  assert.throws(() => T.dispatched('waiting'), (e) => e.code === 'CANCELLED');
  assert.doesNotThrow(() => T.dispatched('other'));
  // A cancel that came before the page scripts did is kept where they find it.
  const early = vm.createContext({ console, __tabpilotStopped: new Set(['early']) });
  early.globalThis = early;
  for (const file of ['page/contract.js', 'page/kit.js']) {
    vm.runInContext(readFileSync(new URL(file, EXTENSION), 'utf8'), early, { filename: file });
  }
  assert.ok(early.__tabpilot.halted('early'));
});
