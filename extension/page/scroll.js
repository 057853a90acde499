// Page script: scroll (filled in below).
(() => {})();
