//! Fixtures: equipment data: technical values, as surveyed or corrected.

use super::World;

impl World {}
