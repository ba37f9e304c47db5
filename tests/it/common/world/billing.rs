//! Fixtures: quotes, invoices, payments and credit notes.

use super::World;

impl World {}
