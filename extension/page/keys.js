// Page script: keys (filled in below).
(() => {})();
