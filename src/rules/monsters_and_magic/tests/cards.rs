//! The 36 force cards, one test each: the bonus where the card says, none elsewhere. Each
//! test's comment quotes the card's line of the card list. (The other 28 cards are tested in
//! `powers.rs` and `movement.rs`.)

use super::super::combat::{Side, force};
use super::super::data::{Role, UnitKind};
use super::*;

/// Where a unit of seat 0 fights: its type, role and opponent, the space's terrain and
/// structure, and a figure of its own next to it.
#[derive(Clone, Copy)]
struct Scene {
    unit: UnitKind,
    role: Role,
    terrain: Terrain,
    structure: Structure,
    vs: UnitKind,
    next_to: Option<FigureKind>,
}

fn scene(unit: UnitKind, role: Role, terrain: Terrain) -> Scene {
    Scene {
        unit,
        role,
        terrain,
        structure: Structure::Village,
        vs: UnitKind::Garrison,
        next_to: None,
    }
}

impl Scene {
    fn vs(self, vs: UnitKind) -> Scene {
        Scene { vs, ..self }
    }
    fn on(self, structure: Structure) -> Scene {
        Scene { structure, ..self }
    }
    fn next_to(self, kind: FigureKind) -> Scene {
        Scene {
            next_to: Some(kind),
            ..self
        }
    }
}

fn figure_kind(unit: UnitKind) -> Option<FigureKind> {
    match unit {
        UnitKind::Garrison => None,
        UnitKind::Mage => Some(FigureKind::Mage),
        UnitKind::Hero => Some(FigureKind::Hero),
        UnitKind::Monster => Some(FigureKind::Monster),
        UnitKind::Army => Some(FigureKind::Army),
    }
}

/// The force seat 0's unit has in the scene, with `card` as a permanent card or without.
fn force_in(scene: Scene, card: Option<&str>) -> i32 {
    let mut state = game(2);
    let at = Pos(3, 3);
    set_space(&mut state, at, scene.terrain, scene.structure);
    let figure = figure_kind(scene.unit).map(|k| put_figure(&mut state, 0, k, at));
    if figure.is_none() {
        put_garrison(&mut state, 0, at);
    }
    if let Some(k) = scene.next_to {
        put_figure(&mut state, 0, k, Pos(3, 4));
    }
    if let Some(name) = card {
        give_permanent(&mut state, 0, id(name));
    }
    let side = Side {
        seat: 0,
        unit: scene.unit,
        figure,
        role: scene.role,
        at,
        vs: scene.vs,
    };
    force(&state, &side)
}

fn bonus(card: &str, scene: Scene) -> i32 {
    force_in(scene, Some(card)) - force_in(scene, None)
}

macro_rules! force_card {
    ($test:ident, $card:literal, $bonus:expr, hit: $hit:expr, miss: [$($miss:expr),+ $(,)?]) => {
        #[test]
        fn $test() {
            assert_eq!(bonus($card, $hit), $bonus, "{} where it applies", $card);
            $(assert_eq!(bonus($card, $miss), 0, "{} where it does not apply", $card);)+
        }
    };
}

use FigureKind as F;
use Role::{Attacking as A, Defending as D};
use Terrain::{Badlands, Forest, Mountains, Plains};
use UnitKind::{Army, Garrison, Hero, Mage, Monster};

// "Treants Your Monsters get +2F in Forests"
force_card!(treants, "Treants", 2, hit: scene(Monster, A, Forest), miss: [scene(Monster, A, Plains), scene(Army, A, Forest)]);
// "Wood Elves Your Armies get +2F in Forests"
force_card!(wood_elves, "Wood Elves", 2, hit: scene(Army, D, Forest), miss: [scene(Army, D, Badlands), scene(Hero, D, Forest)]);
// "Druids Your Mages get +2F in Forests"
force_card!(druids, "Druids", 2, hit: scene(Mage, A, Forest), miss: [scene(Mage, A, Mountains), scene(Monster, A, Forest)]);
// "Rangers Your Heroes get +1F in Forests & Mountains"
force_card!(rangers, "Rangers", 1, hit: scene(Hero, A, Mountains), miss: [scene(Hero, A, Plains), scene(Army, A, Forest)]);
#[test]
// "Rangers Your Heroes get +1F in Forests & Mountains" (the forest half)
fn rangers_in_forests() {
    assert_eq!(bonus("Rangers", scene(Hero, D, Forest)), 1);
}
// "Giants Your Monsters get +2F in Mountains"
force_card!(giants, "Giants", 2, hit: scene(Monster, D, Mountains), miss: [scene(Monster, D, Forest)]);
// "Demons Your Monsters get +2F in Badlands"
force_card!(demons, "Demons", 2, hit: scene(Monster, A, Badlands), miss: [scene(Monster, A, Plains), scene(Mage, A, Badlands)]);
// "Dwarves Your Armies get +2F in Mountains"
force_card!(dwarves, "Dwarves", 2, hit: scene(Army, A, Mountains), miss: [scene(Army, A, Badlands)]);
// "Lich Lord Your Mages get +2F in Badlands"
force_card!(lich_lord, "Lich Lord", 2, hit: scene(Mage, D, Badlands), miss: [scene(Mage, D, Plains)]);
// "Elementalist Your Mages get +2F in Mountains"
force_card!(elementalist, "Elementalist", 2, hit: scene(Mage, A, Mountains), miss: [scene(Mage, A, Forest)]);
// "Juggernauts Your Monsters get +2F in Plains"
force_card!(juggernauts, "Juggernauts", 2, hit: scene(Monster, A, Plains), miss: [scene(Monster, A, Forest)]);
// "Witch Hunter Your Heroes get +2F vs. Mages"
force_card!(witch_hunter, "Witch Hunter", 2, hit: scene(Hero, A, Plains).vs(Mage), miss: [scene(Hero, A, Plains).vs(Army)]);
// "Dragon Slayer Your Heroes get +2F vs. Monsters"
force_card!(dragon_slayer, "Dragon Slayer", 2, hit: scene(Hero, D, Plains).vs(Monster), miss: [scene(Hero, D, Plains).vs(Hero)]);
// "Shield Bearers Your Armies get +1F when Defending"
force_card!(shield_bearers, "Shield Bearers", 1, hit: scene(Army, D, Plains), miss: [scene(Army, A, Plains)]);
// "Knights Your Armies get +1F when Attacking"
force_card!(knights, "Knights", 1, hit: scene(Army, A, Plains), miss: [scene(Army, D, Plains)]);
// "Undead Hordes Your Armies get +2F in Badlands"
force_card!(undead_hordes, "Undead Hordes", 2, hit: scene(Army, A, Badlands), miss: [scene(Army, A, Forest)]);
// "Chaos Lord Your Heroes get +2F in Badlands"
force_card!(chaos_lord, "Chaos Lord", 2, hit: scene(Hero, D, Badlands), miss: [scene(Hero, D, Mountains)]);
// "Fortifications Your Garrisons get +1F"
force_card!(fortifications, "Fortifications", 1, hit: scene(Garrison, D, Plains), miss: [scene(Army, D, Plains)]);
// "Priests Your Mages get +2F in Plains"
force_card!(priests, "Priests", 2, hit: scene(Mage, A, Plains), miss: [scene(Mage, A, Badlands)]);
// "Warlord Heroes adj to your Armies get +1F"
force_card!(warlord, "Warlord", 1, hit: scene(Hero, A, Plains).next_to(F::Army), miss: [scene(Hero, A, Plains), scene(Hero, A, Plains).next_to(F::Mage)]);
// "Horse Archers Your Armies get +2F in Plains"
force_card!(horse_archers, "Horse Archers", 2, hit: scene(Army, D, Plains), miss: [scene(Army, D, Forest)]);
// "Paladin Your Heroes get +2F in Plains"
force_card!(paladin, "Paladin", 2, hit: scene(Hero, A, Plains), miss: [scene(Hero, A, Badlands)]);
// "General Armies adj to your Heroes get +1F"
force_card!(general, "General", 1, hit: scene(Army, A, Plains).next_to(F::Hero), miss: [scene(Army, A, Plains)]);
// "Necromncer Armies adj to your Mages get +1F"
force_card!(necromancer, "Necromancer", 1, hit: scene(Army, D, Plains).next_to(F::Mage), miss: [scene(Army, D, Plains).next_to(F::Hero)]);
// "Beast Master Monsters adj to your Heroes get +1F"
force_card!(beast_master, "Beast Master", 1, hit: scene(Monster, A, Plains).next_to(F::Hero), miss: [scene(Monster, A, Plains)]);
// "Dragons Your Monsters get +1F when Attacking"
force_card!(dragons, "Dragons", 1, hit: scene(Monster, A, Plains), miss: [scene(Monster, D, Plains)]);
// "Wizards Your Mages get +1F when Defending"
force_card!(wizards, "Wizards", 1, hit: scene(Mage, D, Plains), miss: [scene(Mage, A, Plains)]);
// "Barbarians Your Armies get +2F vs. Garrisons"
force_card!(barbarians, "Barbarians", 2, hit: scene(Army, A, Plains).vs(Garrison), miss: [scene(Army, A, Plains).vs(Hero)]);
// "Earthquakes Your Mages get +2F vs. Armies"
force_card!(earthquakes, "Earthquakes", 2, hit: scene(Mage, A, Plains).vs(Army), miss: [scene(Mage, A, Plains).vs(Mage)]);
// "Army Eater Your Monsters get +2 vs. Armies"
force_card!(army_eater, "Army Eater", 2, hit: scene(Monster, D, Plains).vs(Army), miss: [scene(Monster, D, Plains).vs(Hero)]);
// "Amazons Your Armies get +2F vs. Armies"
force_card!(amazons, "Amazons", 2, hit: scene(Army, A, Plains).vs(Army), miss: [scene(Army, A, Plains).vs(Monster)]);
// "Assassin Your Heroes get +1 vs. Heroes and Mages"
force_card!(assassin, "Assassin", 1, hit: scene(Hero, A, Plains).vs(Mage), miss: [scene(Hero, A, Plains).vs(Army)]);
// "Healers Units adj to your Mages get +1F when Defending"
force_card!(healers, "Healers", 1, hit: scene(Garrison, D, Plains).next_to(F::Mage), miss: [scene(Garrison, D, Plains), scene(Army, A, Plains).next_to(F::Mage)]);
// "Clerics Your Mages get +2F defending Plains & +2F attacking Badlands"
force_card!(clerics, "Clerics", 2, hit: scene(Mage, D, Plains), miss: [scene(Mage, A, Plains), scene(Mage, D, Badlands)]);
#[test]
// "Clerics … +2F attacking Badlands"
fn clerics_attacking_badlands() {
    assert_eq!(bonus("Clerics", scene(Mage, A, Badlands)), 2);
}
// "Siege Engines Your Armies get +2F to attack Castles, Towers, Cities, & Towns"
force_card!(siege_engines, "Siege Engines", 2, hit: scene(Army, A, Plains).on(Structure::Castle), miss: [scene(Army, A, Plains).on(Structure::Village), scene(Army, D, Plains).on(Structure::Town)]);
// "Duelist Your Heroes get +2F vs. Heroes"
force_card!(duelist, "Duelist", 2, hit: scene(Hero, A, Plains).vs(Hero), miss: [scene(Hero, A, Plains).vs(Mage)]);
// "Orc Warbands Your Armies get +1F in Mountains & Badlands"
force_card!(orc_warbands, "Orc Warbands", 1, hit: scene(Army, A, Badlands), miss: [scene(Army, A, Plains)]);

// "Your Permanent cards only provide bonuses to your units and not your opponents."
#[test]
fn permanent_cards_help_only_their_owner() {
    let mut state = game(2);
    give_permanent(&mut state, 1, id("Paladin"));
    let side = Side {
        seat: 0,
        unit: Hero,
        figure: None,
        role: A,
        at: Pos(0, 0),
        vs: Hero,
    };
    assert_eq!(state.terrain(Pos(0, 0)), Some(Plains));
    assert_eq!(force(&state, &side), 0);
    assert_eq!(force(&state, &Side { seat: 1, ..side }), 2);
}
