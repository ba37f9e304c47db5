//! A deal (« affaire ») of the partner workflow API: the vocabularies its
//! fields take, in one place for the partner's calls, their statistics and
//! the demo.

/// `type_affaire` values (also `opportunity_type`).
pub const DEAL_TYPES: [&str; 6] = [
    "Contrat",
    "Réparation",
    "Modernisation pour devis",
    "Remplacement complet pour devis",
    "Modernisation pour commande",
    "Remplacement complet pour commande",
];

/// `opportunity_category` values: where a deal stands (a new one is
/// `Ouverte`).
pub const DEAL_CATEGORIES: [&str; 7] = [
    "Ouverte",
    "En attente",
    "En retard",
    "Gagnée",
    "Perdue",
    "Annulée",
    "Fermée",
];

/// `type_etat_des_lieux` values: what an inventory survey is for.
pub const INVENTORY_TYPES: [&str; 3] = ["Prise en mains", "Essais", "Base parc"];
