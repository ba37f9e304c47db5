// The bundled page, shown in three cases:
// - start-up failed: the shell sets window.__LIFTDESK_ERREUR__ through an
//   initialisation script;
// - connecting to the agency's server (?etat=connexion&serveur=…) and that
//   server unreachable (?etat=injoignable&serveur=…&raison=…): the shell
//   probes the server every few seconds and shows it again as soon as it
//   answers; the two buttons call the shell's commands (this page is local,
//   so the IPC is open to it; the server's pages have none).
(function () {
  var message = window.__LIFTDESK_ERREUR__;
  if (typeof message === 'string') {
    document.getElementById('statut').hidden = true;
    document.getElementById('erreur-message').textContent = message;
    document.getElementById('erreur').hidden = false;
    document.title = 'Liftdesk — erreur au démarrage';
    return;
  }
  var query = new URLSearchParams(window.location.search);
  var etat = query.get('etat');
  if (etat !== 'connexion' && etat !== 'injoignable') return;
  var serveur = query.get('serveur') || '';
  var panel = document.getElementById('serveur');
  document.getElementById('statut').hidden = true;
  panel.hidden = false;
  if (etat === 'injoignable') {
    panel.classList.add('injoignable');
    panel.setAttribute('role', 'alert');
    document.getElementById('serveur-titre').textContent = "Le serveur de l'agence est injoignable";
    document.getElementById('serveur-message').textContent =
      "Liftdesk n'arrive pas à joindre " + serveur + ". Vérifiez la connexion de cet ordinateur au réseau ; si elle fonctionne, le serveur est peut-être arrêté : prévenez la personne qui s'en occupe.";
    var raison = query.get('raison');
    document.getElementById('serveur-raison').textContent = raison ? 'Détail : ' + raison + '.' : '';
    document.title = 'Serveur injoignable — Liftdesk';
  } else {
    document.getElementById('serveur-message').textContent = 'Liftdesk se connecte à ' + serveur + '.';
    document.title = 'Connexion au serveur — Liftdesk';
  }
  var retour = document.getElementById('serveur-retour');
  function call(command, waiting) {
    var internals = window.__TAURI_INTERNALS__;
    if (!internals) {
      retour.textContent = "Cette action n'est possible que dans l'application Liftdesk.";
      return;
    }
    retour.textContent = waiting;
    internals.invoke(command).then(
      function () {},
      function (error) {
        retour.textContent = String(error);
      }
    );
  }
  document.getElementById('reessayer').addEventListener('click', function () {
    call('reessayer', 'Nouvel essai en cours…');
  });
  document.getElementById('cet-ordinateur').addEventListener('click', function () {
    call('revenir_a_cet_ordinateur', 'Retour à Liftdesk sur cet ordinateur…');
  });
})();
