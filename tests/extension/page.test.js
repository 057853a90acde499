// The page scripts' pure parts, loaded as Chromium injects them (classic scripts sharing one
// global bag, `__tabpilot`), in a context of their own: the truncation every page operation
// uses, the token estimate the snapshot budget holds to, the taking out of secret values, and how
// a table row and a sentence are said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

import { cut as swCut } from '../../extension/sw/text.js';

const EXTENSION = new URL('../../extension/', import.meta.url);

// The kit and the files named, run in order in a fresh context; returns the bag.
function kit(...files) {
  const context = vm.createContext({ console });
  context.globalThis = context;
  for (const file of ['page/contract.js', 'page/kit.js', 'page/names.js', ...files]) {
    vm.runInContext(readFileSync(new URL(file, EXTENSION), 'utf8'), context, { filename: file });
  }
  return { T: context.__tabpilot, context };
}

test('a cut text holds at most its bound, the ellipsis included, in the page and the worker', () => {
  const { T } = kit();
  for (const cut of [T.cut, swCut]) {
    assert.equal(cut('abcdef', 6), 'abcdef');
    assert.equal(cut('abcdefg', 6), 'abcde…');
    assert.equal([...cut('x'.repeat(500), 80)].length, 80);
  }
  assert.equal(T.squash('  a \n\t b  '), 'a b');
});

test('the token estimate prices refs as o200k does on average, and words by length', () => {
  const { T } = kit('page/fit.js');
  assert.equal(T.tokens(' [ref=e7k2f]'), 7.5);
  assert.equal(T.tokens(' [ref=f12:e7k2f.2]'), 9.5);
  assert.equal(T.tokens('hello'), 1);
  assert.ok(T.tokens('internationalization') > 1, 'a long word splits');
  const line = '- button "Sign in" [ref=e7k2f]';
  assert.ok(T.tokens(`${line}\n${line}`) > T.tokens(line), 'more text, more tokens');
});

// An element as the secret-field checks read it.
const field = (type, value, autocomplete = null) => ({
  nodeType: 1,
  localName: 'input',
  value,
  defaultValue: '',
  children: [],
  getAttribute: (name) => ({ type, autocomplete })[name] ?? null,
});

test('secret values come out of text as they are, HTML-escaped and JSON-quoted', () => {
  const { T, context } = kit('page/secrets.js');
  const password = field('password', 'hunter2<"x">');
  const card = field('text', '4111111111111111', 'cc-number');
  const plain = field('text', 'ordinary');
  context.document = { documentElement: { nodeType: 1, localName: 'html', children: [password, card, plain] } };
  assert.equal(T.isSecret(password), true);
  assert.equal(T.isSecret(card), true);
  assert.equal(T.isSecret(plain), false);
  const scrub = T.scrubber();
  const hidden = T.hidden('hunter2<"x">');
  assert.equal(scrub('typed hunter2<"x"> here'), `typed ${hidden} here`);
  assert.equal(scrub('value="hunter2&lt;&quot;x&quot;&gt;"'), `value="${hidden}"`);
  assert.equal(scrub('{"p":"hunter2<\\"x\\">"}'), `{"p":"${hidden}"}`);
  assert.equal(scrub('card 4111111111111111'), `card ${T.hidden('4111111111111111')}`);
  assert.equal(scrub('ordinary text'), 'ordinary text');
});

// An outline as page/snapshot.js builds it: a main landmark of `rows` list items, each a line
// with a ref, and a heading before it.
function outline(rows) {
  const node = (line, role, el = {}, kids = []) => ({ line, el, role, sig: role, kids });
  const items = Array.from({ length: rows }, (_, i) => node(`listitem "row ${i}" [ref=e${i}]`, 'listitem'));
  items.forEach((n, i) => Object.assign(n, { i, sig: 'li.row' }));
  const main = node('main:', 'main', {}, [node('list:', 'list', {}, items)]);
  return node(null, null, null, [node('heading "Results" [level=1]', 'heading'), main]);
}

test('the budget fitter holds a long outline to its budget and says what it left out', () => {
  const { T } = kit('page/fit.js');
  const whole = T.fit(outline(400), { budget: 0, refOf: () => 'e' });
  assert.ok(whole.tokens > 2000, `the whole outline is long: ${whole.tokens}`);
  assert.match(whole.text, /row 399/);
  const fitted = T.fit(outline(400), { budget: 500, refOf: () => 'ezzzz' });
  assert.ok(fitted.tokens <= 500, `held to the budget: ${fitted.tokens}`);
  assert.match(fitted.text, /heading "Results"/, 'the heading stays');
  assert.match(fitted.text, /row 0\b/, 'the first rows stay');
  assert.doesNotMatch(fitted.text, /row 399/);
  assert.ok(fitted.collapsed > 0 || fitted.hidden.length > 0, 'it says what it left out');
});

test('the token estimate prices names, email parts, accents, symbols and emoji above common text', () => {
  const { T } = kit('page/fit.js');
  assert.equal(T.tokens('table'), 1);
  assert.equal(T.tokens('Lagos'), 1.5, 'a capitalised word may be a name');
  assert.equal(T.tokens('.kowalski'), 2.5, 'a piece glued to punctuation is rarely one word');
  assert.equal(T.tokens('Zoë'), 2, 'each accented letter costs one');
  assert.equal(T.tokens('Łukasz'), 2.5);
  assert.equal(T.tokens('12345'), 2, 'digits go by threes');
  assert.equal(T.tokens(' –'), 1, 'a common typographic mark is one');
  assert.equal(T.tokens(' ↗'), 2, 'a rarer symbol is more');
  assert.equal(T.tokens(' 🚀🚀'), 4, 'an emoji is two');
  assert.equal(T.tokens(' ١٢٣'), 7, "another script's digits are counted as rare marks");
});

test('a row says its cells between bars, the empty ones at its end left out', () => {
  const { T } = kit('page/fit.js', 'page/rows.js');
  assert.equal(T.joinCells(['Item', ' Stock ', '', 'Price', '', '']), 'Item | Stock |  | Price');
  assert.equal(T.joinCells(['x'.repeat(100)]).length, 80, 'a lean cell is cut');
  assert.equal(T.joinCells(['x'.repeat(100)], true).length, 100, 'a verbose one is not');
  assert.equal(T.joinCells(['', '']), '');
});

test('a sentence echoes a name only when the name says all its words', () => {
  const { T } = kit('page/fit.js', 'page/rows.js');
  assert.equal(T.echoes('Standard shipping 5–7 business days Free', 'Standard shipping 5–7 business days Free'), true);
  assert.equal(T.echoes('Express: $12.90', 'Express shipping $12.90'), true, 'punctuation aside');
  assert.equal(T.echoes('Pick up in store €3,50 handling', 'Pick up in store'), false);
  assert.equal(T.echoes('', 'anything'), false, 'no words, nothing echoed');
});

test('a sentence that starts or ends with a name says only the rest, and where it stands', () => {
  const { T } = kit('page/fit.js', 'page/rows.js');
  const name = 'Standard shipping 5–7 business days';
  assert.deepEqual({ ...T.besides(`${name} Free`, name) }, { text: 'Free', after: true });
  assert.deepEqual({ ...T.besides(`From $4.99: ${name}`, name) }, { text: 'From $4.99:', after: false });
  assert.equal(T.besides(`${name}Free`, name), null, 'only at a word boundary');
  assert.equal(T.besides(`Cheap ${name} Free`, name), null, 'the name in the middle is left alone');
  assert.equal(T.besides(`${name} —`, name), null, 'no words besides it');
  assert.equal(T.besides('Standard shipping 5–7 busin… Free', 'Standard shipping 5–7 busin…'), null, 'a cut name');
});
