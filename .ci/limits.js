// The house limits on size, as a check: no file over 500 lines before its tests, and no function
// over 80 lines, in src/ (Rust) and extension/ (JavaScript); no line of the extension over 120
// characters (rustfmt holds the Rust). Vendored code (extension/vendor/) is kept as its authors
// ship it, minified lines and all, and the generated contract is held to the width alone. Functions are found by the way the code is formatted (rustfmt, and the
// extension's two-space style): a function runs from its `fn`/`function` line to the first `}` at
// its own indent.
'use strict';
const fs = require('fs');
const path = require('path');

const FILE_MAX = 500;
const FN_MAX = 80;
const LINE_MAX = 120;
// Functions chrome.scripting injects as source with arguments: each must be one self-contained
// function, so its parts are nested inside it (each of those is held to the limit). A file cannot
// take arguments, so injecting it as a file is no way out for these.
const WHOLE = new Set(['extension/main/eval.js:evaluateInMain']);
const VENDORED = 'extension/vendor';
const GENERATED = 'extension/sw/contract.js';

const RUST_FN = /^(\s*)(pub(\([^)]*\))? )?(const )?(async )?(unsafe )?fn (\w+)/;
const JS_FN = /^(\s*)(export )?(async )?(?:function\*? (\w+)|(?:const|let) (\w+) = (?:async )?(?:\([^)]*\)|\w+) =>)/;
// Lines at a function's own indent that do not end it: the rest of a long signature.
const SIGNATURE = /^(\)|where\b|\{|[A-Za-z_:<>&' ]+[,{]$)/;

function files(dir, ext) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (p === VENDORED) return [];
    if (e.isDirectory()) return files(p, ext);
    return p.endsWith(ext) ? [p] : [];
  });
}

const linesOf = (file) => fs.readFileSync(file, 'utf8').split('\n');

function over(file, lines, pattern, testsStart) {
  const end = testsStart ? lines.findIndex((l) => testsStart.test(l)) : -1;
  const body = end < 0 ? lines : lines.slice(0, end);
  const found = [];
  if (body.length > FILE_MAX) found.push(`${file}: ${body.length} lines before its tests, over ${FILE_MAX}`);
  body.forEach((line, i) => {
    const m = pattern.exec(line);
    if (!m || line.trimEnd().endsWith(';')) return;
    const [indent, name] = [m[1], m.slice(2).filter(Boolean).pop()];
    for (let j = i + 1; j < body.length; j++) {
      const next = body[j];
      if (next.startsWith(`${indent}}`)) {
        const length = j - i + 1;
        if (length > FN_MAX && !WHOLE.has(`${file}:${name}`)) {
          found.push(`${file}:${i + 1}: ${name} is ${length} lines, over ${FN_MAX}`);
        }
        return;
      }
      const at = next.slice(indent.length);
      if (next.trim() && !next.startsWith(`${indent} `) && !SIGNATURE.test(at)) return;
    }
  });
  return found;
}

function wide(file, lines) {
  return lines.flatMap((line, i) => {
    const width = [...line].length;
    return width > LINE_MAX ? [`${file}:${i + 1}: ${width} characters, over the ${LINE_MAX} allowed`] : [];
  });
}

const found = [
  ...files('src', '.rs').flatMap((f) => over(f, linesOf(f), RUST_FN, /^#\[cfg\((all\()?test\b/)),
  ...files('extension', '.js').flatMap((f) => {
    const lines = linesOf(f);
    return [...wide(f, lines), ...(f === GENERATED ? [] : over(f, lines, JS_FN, null))];
  }),
];
for (const line of found) console.error(line);
process.exit(found.length ? 1 : 0);
