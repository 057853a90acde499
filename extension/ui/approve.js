// The approval window: shows what the service worker says the call is (as text, never markup)
// and sends back the person's answer.
const id = location.hash.slice(1);
const details = await chrome.runtime.sendMessage({ type: 'approval-details', id });
const show = (key, text) => {
  document.getElementById(key).textContent = text;
};
if (!details) {
  show('left', 'This request has ended.');
  document.querySelectorAll('button').forEach((b) => (b.disabled = true));
} else {
  show('origin', details.origin);
  show('url', details.url);
  show('tool', details.title ? `${details.name} (${details.title})` : details.name);
  show('description', details.description);
  show('arguments', details.arguments);
  show('left', `Unanswered, it is denied after ${Math.round(details.timeoutMs / 1000)} s.`);
}
const answer = (approve) => chrome.runtime.sendMessage({ type: 'approval-answer', id, approve });
document.getElementById('approve').onclick = () => answer(true);
document.getElementById('deny').onclick = () => answer(false);
