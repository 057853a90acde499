// Real input's second line against the person's clipboard (extension/sw/clipboard.js): every
// chord the browser's editing takes as a paste, copy or cut, by its key, its code or its key code.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { clipboardChord, pastesSelection } from '../../extension/sw/clipboard.js';

const key = (k, modifiers = []) => ({ key: k, code: '', keyCode: 0, modifiers });

test('paste, copy and cut chords are known in each spelling', () => {
  assert.equal(clipboardChord(key('v', ['Control'])), 'paste');
  assert.equal(clipboardChord(key('V', ['Meta', 'Shift'])), 'paste');
  assert.equal(clipboardChord(key('c', ['Control'])), 'copy');
  assert.equal(clipboardChord(key('x', ['Meta'])), 'cut');
  assert.equal(clipboardChord(key('Insert', ['Shift'])), 'paste');
  assert.equal(clipboardChord(key('Insert', ['Control'])), 'copy');
  assert.equal(clipboardChord(key('Delete', ['Shift'])), 'cut');
  // The editing reads the key code: another key's name does not hide it.
  assert.equal(clipboardChord({ key: 'a', code: 'KeyV', keyCode: 0, modifiers: ['Control'] }), 'paste');
  assert.equal(clipboardChord({ key: 'a', code: 'KeyA', keyCode: 86, modifiers: ['Control'] }), 'paste');
});

test('other keys and chords are not clipboard chords', () => {
  for (const k of [key('v'), key('V', ['Shift']), key('v', ['Alt']), key('a', ['Control']), key('Insert')]) {
    assert.equal(clipboardChord(k), null, JSON.stringify(k));
  }
  assert.equal(clipboardChord(key('Delete', ['Control'])), null);
  assert.equal(clipboardChord({ key: 'Enter', code: 'Enter', keyCode: 13 }), null);
});

test('a middle click pastes the selection, no other button does', () => {
  assert.equal(pastesSelection('middle'), true);
  for (const b of ['left', 'right', undefined]) assert.equal(pastesSelection(b), false);
});
