// Key chords the browser's editing takes as a paste, a copy or a cut (Windows and Linux bindings,
// and the Mac's with Meta). As real input (advanced mode) they reach the person's clipboard: a
// paste puts what they copied in their own tab into the agent's page, where the agent reads it;
// a copy or a cut puts the agent's text where the person will paste it. Real input never presses
// one (sw/input.js); the controller refuses them first (src/controller/tools/act/keys.rs). Nor does it
// middle-click: in a text field on Linux that pastes the primary selection, what the person last
// selected in any window.

// The editing picks its command by the key code, so the key, its code and its key code are each
// enough to make a chord.
const LETTERS = { v: 'paste', c: 'copy', x: 'cut' };
const CODES = { KeyV: 'v', KeyC: 'c', KeyX: 'x', Insert: 'insert', Delete: 'delete' };
const KEY_CODES = { 86: 'v', 67: 'c', 88: 'x', 45: 'insert', 46: 'delete' };

function namesOf({ key, code, keyCode }) {
  const named = String(key ?? '').toLowerCase();
  return new Set([named, CODES[code], KEY_CODES[keyCode]].filter(Boolean));
}

// What the key does to the clipboard ('paste', 'copy', 'cut'), or null.
export function clipboardChord(k) {
  const mods = Array.isArray(k.modifiers) ? k.modifiers : [];
  const command = mods.includes('Control') || mods.includes('Meta');
  const shift = mods.includes('Shift');
  for (const name of namesOf(k)) {
    if (command && LETTERS[name]) return LETTERS[name];
    if (name === 'insert' && shift) return 'paste';
    if (name === 'insert' && command) return 'copy';
    if (name === 'delete' && shift) return 'cut';
  }
  return null;
}

// Whether a real click with `button` pastes the person's selection where it lands.
export const pastesSelection = (button) => button === 'middle';
