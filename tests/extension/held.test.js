// A field holding a secret filled by name: the page kit's mark (page/secrets.js, page/held.js)
// and the service worker's mask of browser_eval's answer by it (sw/held.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

import { maskHeld, MIN_RUN } from '../../extension/sw/held.js';

const EXTENSION = new URL('../../extension/', import.meta.url);

function kit() {
  const context = vm.createContext({ console, URL });
  context.globalThis = context;
  context.document = { documentElement: { nodeType: 1, localName: 'html', children: [] } };
  for (const file of ['page/kit.js', 'page/names.js', 'page/secrets.js', 'page/held.js']) {
    vm.runInContext(readFileSync(new URL(file, EXTENSION), 'utf8'), context, { filename: file });
  }
  return context.__tabpilot;
}

// A text input as the checks read it.
const input = (id, value) => ({
  nodeType: 1,
  localName: 'input',
  id,
  value,
  classList: [],
  textContent: '',
  getAttribute: () => null,
  matches: () => false,
});

const SECRET = { name: 'api-key', origins: [{ pattern: 'http://a.test', regex: '^http://a\\.test(?:[/?#]|$)' }] };

test('a field is held while it has a value the agent did not write over', () => {
  const T = kit();
  const key = input('key', 'sk-0123456789abcdef');
  assert.equal(T.masked(key), false, 'a plain text field is not a secret by itself');
  T.hold(key, SECRET, key.value);
  assert.equal(T.masked(key), true);
  key.value = 'sk-0123456789abcde'; // the page trims it: still held
  assert.equal(T.heldBy(key).name, 'api-key');
  assert.deepEqual(JSON.parse(JSON.stringify(T.heldValues())), [{ name: 'api-key', values: ['sk-0123456789abcdef', 'sk-0123456789abcde'] }]);
  key.value = ''; // emptied: let go
  assert.equal(T.heldBy(key), null);
  key.value = 'again';
  assert.equal(T.masked(key), false, 'a value after an empty field is not the secret');
  T.hold(key, SECRET, 'again');
  T.hold(key, null);
  assert.equal(T.masked(key), false, 'a plain value written over it lets it go');
});

test('a cut takes the held values out before it cuts: no piece of one is left', () => {
  const T = kit();
  const value = 'Zq8Kx2Lm9Pw4Rt7Yv'.repeat(10);
  const key = input('key', value);
  T.hold(key, SECRET, value);
  const said = T.cut(`You typed ${value} and more`, 80);
  assert.equal(said, 'You typed [secret api-key] and more');
  assert.equal(T.cut('x'.repeat(100), 80).length, 80);
});

test('keys that would edit a held field are refused; leaving it is not', () => {
  const T = kit();
  const key = input('key', 'sk-0123456789abcdef');
  T.hold(key, SECRET, key.value);
  for (const k of ['Backspace', 'Delete', 'ArrowLeft', 'x', 'a', 'v']) {
    assert.throws(() => T.refuseEdit(key, k), (e) => e.code === 'BAD_ARGS' && /holds the secret api-key/.test(e.message));
  }
  for (const k of ['Tab', 'Enter', 'Escape']) T.refuseEdit(key, k);
  const area = { ...input('notes', 'sk-0123456789abcdef'), localName: 'textarea' };
  T.hold(area, SECRET, area.value);
  assert.throws(() => T.refuseEdit(area, 'Enter'), /holds the secret/, 'in a textarea, Enter makes a line');
  T.refuseEdit(input('other', 'text'), 'Backspace');
});

test("a form holding a secret is submitted only to one of the secret's origins", () => {
  const T = kit();
  const key = input('key', 'sk-0123456789abcdef');
  const form = { elements: [key], action: 'http://b.test/collect', method: 'get' };
  const refused = (e) => e.code === 'SECRET_ORIGIN_MISMATCH' && /http:\/\/b\.test/.test(e.message);
  T.judgeSubmit({ form, submitter: null }); // nothing held yet
  assert.throws(() => T.judgeSubmit({ form, submitter: null }, { el: key, secret: SECRET }), refused);
  T.hold(key, SECRET, key.value);
  assert.throws(() => T.judgeSubmit({ form, submitter: null }), refused);
  form.action = 'http://a.test/save';
  T.judgeSubmit({ form, submitter: null });
  const away = { getAttribute: (n) => (n === 'formaction' ? '//b.test/x' : null), formAction: 'http://b.test/x' };
  assert.throws(() => T.judgeSubmit({ form, submitter: away }), refused);
  form.method = 'dialog';
  T.judgeSubmit({ form, submitter: null }); // a dialog form sends nothing
});

test("eval's answer loses every run of six characters of a held value, in strings and keys", () => {
  const value = 'Zq8Kx2Lm9Pw4Rt7Yv';
  const held = [{ name: 'api-key', values: [value] }];
  const shown = '[secret api-key]';
  assert.equal(MIN_RUN, 6);
  assert.deepEqual(maskHeld(value, held), shown);
  assert.deepEqual(maskHeld(`x=${value.slice(2, 12)}!`, held), `x=${shown}!`);
  assert.deepEqual(maskHeld({ [value.slice(0, 7)]: [value.slice(5)] }, held), { [shown]: [shown] });
  assert.deepEqual(maskHeld(value.slice(0, 5), held), value.slice(0, 5), 'five characters are not a run');
  assert.deepEqual(maskHeld([1, null, true], held), [1, null, true]);
  assert.deepEqual(maskHeld('1234', [{ name: 'pin', values: ['1234'] }]), '1234', 'a short value is its field alone');
});
