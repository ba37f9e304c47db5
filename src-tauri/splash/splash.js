// This page is only shown when start-up fails: the shell then sets
// window.__LIFTDESK_ERREUR__ through an initialisation script (no IPC needed).
(function () {
  var message = window.__LIFTDESK_ERREUR__;
  if (typeof message !== 'string') return;
  document.getElementById('statut').hidden = true;
  document.getElementById('erreur-message').textContent = message;
  document.getElementById('erreur').hidden = false;
  document.title = 'Liftdesk — erreur au démarrage';
})();
