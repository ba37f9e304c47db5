//! Fixtures: calls: opened, assigned, on their way, resolved.

use super::World;

impl World {}
