// The extension held to the contract the controller writes (extension/sw/contract.js, and
// page/contract.js for the page scripts): its dispatch table answers every operation and no
// other, a code outside the closed set never leaves it as itself, and refs read as the
// controller reads them. Everything here runs the extension's own modules (under a stand-in for
// `chrome`) and the generated constants; nothing reads source as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

import './chrome.js';
import { CONTRACT, FRAME, HANDSHAKE, REF, TAB_EVENT } from '../../extension/sw/contract.js';

const { OPS } = await import('../../extension/sw/ops.js');
const { ToolError, inContract } = await import('../../extension/sw/errors.js');
const { PAGE_FILES, framePrefix, locate } = await import('../../extension/sw/page.js');

const EXTENSION = new URL('../../extension/', import.meta.url);

// The classic scripts named, run in order in a fresh context, as chrome.scripting runs them in
// a frame's isolated world; returns the context.
function classic(files, globals = {}) {
  const context = vm.createContext({ console, URL, ...globals });
  context.globalThis = context;
  for (const file of files) {
    vm.runInContext(readFileSync(new URL(file, EXTENSION), 'utf8'), context, { filename: file });
  }
  return context;
}

test('the dispatch table answers every operation of the contract, and no other', () => {
  const declared = CONTRACT.ops.map((op) => op.name).sort();
  assert.deepEqual(Object.keys(OPS).sort(), declared);
});

test('a code outside the closed set leaves as INTERNAL, naming it', () => {
  for (const code of CONTRACT.codes) assert.equal(new ToolError(code, 'm').code, code);
  const slip = new ToolError('NOT_A_CODE', 'it broke');
  assert.equal(slip.code, 'INTERNAL');
  assert.match(slip.message, /NOT_A_CODE/);
  const issue = { code: 'CSP_BLOCKED', url: 'http://a/' };
  assert.equal(inContract(issue), issue);
  const odd = inContract({ code: 'ODD_ISSUE', url: 'http://a/' });
  assert.equal(odd.code, 'INTERNAL');
  assert.match(odd.message, /ODD_ISSUE/);
});

// The same cases as the controller's test (src/shared/protocol/refs.rs).
const GOOD = ['e7k2f', 'e7k2f.2', 'e7k2f.1', 'f12:e7k2f.3', 'f0:e0000'];
const BAD = [
  '', 'e1', 'x7k2fa', 'e7k2f.x', 'E7K2F', 'e7k2f.', 'f:e7k2f', 'fx:e7k2f', '12:e7k2f',
  'f1:f2:e7k2f', 'f1:', 'e7k2f ', 'e7k2\u0663', 'f\u0661:e7k2f',
];

test('refs read as the controller reads them', () => {
  const whole = new RegExp(`^(?:${REF.pattern})$`);
  for (const ref of GOOD) assert.ok(whole.test(ref), ref);
  for (const ref of BAD) assert.ok(!whole.test(ref), JSON.stringify(ref));
  const m = whole.exec('f12:e7k2f.3');
  assert.deepEqual({ ...m.groups }, { frame: '12', local: 'e7k2f.3', twin: '3' });
  for (const id of [0, 3, 12]) {
    const ref = framePrefix(id) + 'e7k2f';
    assert.equal(whole.exec(ref).groups.frame, id ? String(id) : undefined, ref);
  }
});

test('the worker splits a ref into its frame and the ref inside that frame', async () => {
  chrome.webNavigation = { getAllFrames: async () => [{ frameId: 0 }, { frameId: 12 }] };
  assert.deepEqual(await locate(1, 'e7k2f.2'), { frameId: 0, ref: 'e7k2f.2' });
  assert.deepEqual(await locate(1, 'f12:e7k2f'), { frameId: 12, ref: 'e7k2f' });
  await assert.rejects(locate(1, 'f13:e7k2f'), { code: 'STALE_REF' });
  for (const bad of ['fx:e7k2f', 'e7k2', 7]) await assert.rejects(locate(1, bad), { code: 'BAD_ARGS' });
});

test('the page scripts read the same contract, and a page refuses a malformed ref', () => {
  const page = classic(['page/contract.js']).__tabpilotContract;
  assert.deepEqual({ ...page.REF }, { ...REF });
  assert.deepEqual({ ...page.HANDSHAKE }, { ...HANDSHAKE });
  const window = { addEventListener() {}, removeEventListener() {} };
  const { __tabpilot: T } = classic(PAGE_FILES, { window, document: {} });
  assert.equal(PAGE_FILES[0], 'page/contract.js');
  assert.throws(() => T.resolve('f3:e7k2f'), { code: 'BAD_ARGS' });
  assert.throws(() => T.resolve('e7k2'), { code: 'BAD_ARGS' });
});

test('the link says the kinds of frame and tab event the relay reads', () => {
  for (const t of ['challenge', 'hello', 'about', 'welcome', 'call', 'ask', 'result', 'part', 'ping', 'pong']) {
    assert.equal(FRAME[t], t);
  }
  assert.deepEqual(Object.keys(TAB_EVENT).sort(), ['closed', 'opened', 'replaced']);
});
