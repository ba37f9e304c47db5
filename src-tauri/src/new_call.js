// Run in the main window by the tray's « Nouvel appel »: the calls screen
// with its new-call form open. The UI has no URL for the form, so the page
// goes to /appels through its router (no reload) and presses the button; not
// signed in, the login form stays and nothing is pressed. The history entry is
// replaced, not pushed: the window has no back button, and repeated use must
// not pile entries up. The desktop test runs this very file in the window.
(function () {
  if (location.pathname !== '/appels') {
    history.replaceState(null, '', '/appels');
    dispatchEvent(new PopStateEvent('popstate'));
  }
  var tries = 0;
  (function press() {
    var button = Array.prototype.find.call(document.querySelectorAll('button'), function (b) {
      return b.textContent.trim() === 'Nouvel appel';
    });
    if (button) return button.click();
    if (++tries < 50) setTimeout(press, 100);
  })();
})();
