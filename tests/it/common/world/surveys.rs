//! Fixtures: surveys and the partner's deals.

use super::World;

impl World {}
