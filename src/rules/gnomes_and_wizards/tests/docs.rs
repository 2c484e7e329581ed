//! Prints the content tables of docs/rules/gnomes-and-wizards.md from the data
//! (`cargo test print_content_tables -- --ignored --nocapture`), so the docs match the data.

use crate::rules::gnomes_and_wizards::data::{self, LEARNED, SECRET, Tribe};

#[test]
#[ignore]
fn print_content_tables() {
    for tribe in Tribe::ALL {
        println!("\n### {}\n", tribe.name());
        println!("| slot | unit | move | attack | defense | HP | innate ability | text |");
        println!("|---|---|---|---|---|---|---|---|");
        for slot in 0..7u8 {
            let s = data::unit_stats(slot);
            let (name, text) = tribe
                .innate(slot)
                .map_or(("—".to_owned(), "—".to_owned()), |a| {
                    (a.name.to_owned(), a.text())
                });
            println!(
                "| {slot} | {} | {} | {} | {}–{} | {} | {name} | {text} |",
                tribe.unit_name(slot),
                s.movement,
                s.attack,
                s.min_defense,
                s.max_defense,
                s.hp
            );
        }
    }
    println!("\n### Learned ability cards (0–23)\n");
    println!("| card | name | text |\n|---|---|---|");
    for (i, a) in LEARNED.iter().enumerate() {
        println!("| {i} | {} | {} |", a.name, a.text());
    }
    println!("\n### Secret ability cards (24–43)\n");
    println!("| card | name | text |\n|---|---|---|");
    for (i, a) in SECRET.iter().enumerate() {
        println!(
            "| {} | {} | {} |",
            i + data::LEARNED_CARDS,
            a.name,
            a.text()
        );
    }
}

#[test]
#[ignore]
fn print_action_json() {
    use super::super::state::{Cast, Source, Target, TileCard, UnitRef};
    use super::super::{Action, Face, Side};
    let u = UnitRef { owner: 1, slot: 0 };
    for a in [
        Action::PlaceTile(TileCard {
            tribe: Tribe::Turquefoss,
            clan: 3,
            side: Side::A,
        }),
        Action::RollDie(Face::MoveAttack),
        Action::Assign {
            face: Face::Horn,
            slot: 0,
        },
        Action::Attack {
            slot: 0,
            target: u,
            dice: 2,
        },
        Action::Cast(Cast {
            source: Source::Secret(30),
            target: Target::Move { unit: u, to: 7 },
        }),
        Action::Cast(Cast {
            source: Source::Innate(2),
            target: Target::Unit(u),
        }),
        Action::Pass,
        Action::KeepDice,
    ] {
        println!("{}", serde_json::to_string(&a).unwrap());
    }
}
