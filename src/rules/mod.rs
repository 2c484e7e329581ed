//! The pure rules engine: no I/O, no clock, no RNG, no database, no HTTP.
//! See `contract` for the `Ruleset` trait and `registry` for the erased view the service uses.

pub mod bag_of_fate;
#[cfg(test)]
pub mod conformance;
mod contract;
pub mod garden_gnomes;
pub mod gnomes_and_wizards;
pub mod monsters_and_magic;
pub mod notation;
#[cfg(test)]
mod old_logs;
pub mod picture;
pub mod present;
pub mod registry;
pub mod schema;
pub mod wiz_war;

pub use contract::*;
pub use present::{Choice, ChoiceGroup, Presented, Section};
pub use registry::{Applied, Game, GameState, LegalAction, Registry, Waiting};

impl Registry {
    /// Every ruleset Turnpost hosts.
    pub fn standard() -> Self {
        Registry::new(vec![
            Box::new(registry::Erased::<bag_of_fate::BagOfFate>::default()),
            Box::new(registry::Erased::<garden_gnomes::GardenGnomes>::default()),
            Box::new(registry::Erased::<wiz_war::WizWar>::default()),
            Box::new(registry::Erased::<monsters_and_magic::MonstersAndMagic>::default()),
            Box::new(registry::Erased::<gnomes_and_wizards::GnomesAndWizards>::default()),
        ])
    }
}
