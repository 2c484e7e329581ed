//! The pure rules engine: no I/O, no clock, no RNG, no database, no HTTP.
//! See `contract` for the `Ruleset` trait and `registry` for the erased view the service uses.
//!
//! The files read one way, bottom floor first; a file uses only the floors below it, and this
//! file, the entrance, lists the rulesets (`Registry::standard`):
//!
//! 1. `seats` (seats, actors, viewers), `notation` and `picture` (the helpers every ruleset's
//!    notation and SVG use).
//! 2. `present`: what a person reads (`Presented`, `ChoiceGroup`) and its helpers.
//! 3. `contract`: the `Ruleset` trait and the types of its answers; its defaults present.
//! 4. The rulesets, one folder each, which know only the floors below and never one another.
//! 5. `schema`: the published JSON Schemas of the rulesets' views, actions and options (it
//!    writes the schema of a Wiz-War card by hand).
//! 6. `registry`: the erased `Game` the service uses, with the schemas.
//! 7. Test support: `conformance` (the suite every ruleset passes) and `old_logs`.

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
mod seats;
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
