//! The legal actions as numbered choices: objectives by clan, moves by the territory a gnome
//! leaves (or, once gathering, by origin under the one destination), attacks by the clan
//! attacked.

use super::{colour_name, objective_line, plural, short_name, who};
use crate::rules::garden_gnomes::GardenGnomes;
use crate::rules::garden_gnomes::actions::Action;
use crate::rules::garden_gnomes::data::{Colour, Territory};
use crate::rules::garden_gnomes::state::{Phase, State};
use crate::rules::present::{complete, groups_with_names};
use crate::rules::{Choice, ChoiceGroup, Ruleset, Seat};

pub fn choices(
    state: &State,
    seat: Seat,
    actions: &[Action],
    names: &[String],
) -> Vec<ChoiceGroup> {
    let mut groups: Vec<ChoiceGroup> = Vec::new();
    let mut add = |title: String, number: usize, label: String| {
        let choice = Choice { number, label };
        match groups.iter_mut().find(|g| g.title == title) {
            Some(group) => group.choices.push(choice),
            None => groups.push(ChoiceGroup {
                title,
                choices: vec![choice],
            }),
        }
    };
    let gathering = gathering_onto(state, actions);
    let mover = state.mover();
    for (k, action) in actions.iter().enumerate() {
        let number = k + 1;
        match action {
            Action::KeepObjective(id) => {
                let clan = state
                    .clans
                    .iter()
                    .find(|c| c.seat == seat && c.offered.contains(id));
                let title = match clan {
                    Some(c) => format!(
                        "Keep an objective for your {} clan ({} of {} kept)",
                        colour_name(c),
                        c.kept.len(),
                        state.keep
                    ),
                    None => "Keep an objective".into(),
                };
                add(title, number, objective_line(clan, *id));
            }
            Action::Move { from, to } => {
                let i = mover.unwrap_or(usize::MAX);
                if let Some(onto) = gathering {
                    let title = format!("Move one more gnome onto {}, from", short_name(onto));
                    add(title, number, origin_label(state, i, *from));
                } else {
                    let title = format!(
                        "Move one gnome from {} ({} there) to",
                        short_name(*from),
                        state.clan(i).map_or(0, |c| c.gnomes_at(*from))
                    );
                    add(title, number, destination_label(state, i, *to));
                }
            }
            Action::Reinforce(n) => {
                let i = state.reinforcing().unwrap_or(usize::MAX);
                let due = state.reinforcements_due(i);
                let home = state
                    .clan(i)
                    .and_then(|c| c.colour)
                    .and_then(Colour::home)
                    .map_or_else(String::new, short_name);
                let label = match *n {
                    0 => "none: keep them all in reserve".to_string(),
                    n if n == due => format!("{} (all you may)", plural(n, "gnome", "gnomes")),
                    n => plural(n, "gnome", "gnomes"),
                };
                add(format!("Reinforcements onto {home}"), number, label);
            }
            Action::EndMovement => {
                let clan = mover.and_then(|i| state.clan(i));
                let done = match &state.phase {
                    Phase::Movement { moves, .. } => moves.len(),
                    _ => 0,
                };
                let label = match (clan, done) {
                    (Some(c), 0) => {
                        format!("Move nothing: end the {} clan's movement", colour_name(c))
                    }
                    (Some(c), n) => format!(
                        "End the {} clan's movement ({n} gnome{} moved)",
                        colour_name(c),
                        if n == 1 { "" } else { "s" }
                    ),
                    (None, _) => "End your movement".into(),
                };
                add("Finish moving".into(), number, label);
            }
            Action::Attack { target, dice } => {
                let (title, label) = attack_words(state, *target, *dice, names);
                add(title, number, label);
            }
            other => add(
                "Other choices".into(),
                number,
                GardenGnomes::label(state, seat, other),
            ),
        }
    }
    let groups = complete(groups, actions.len(), |k| {
        actions
            .get(k)
            .map_or_else(String::new, |a| GardenGnomes::label(state, seat, a))
    });
    groups_with_names(groups, names)
}

/// The one territory every legal move ends on, when the moves made so far gather there and
/// more than one origin is left.
fn gathering_onto(state: &State, actions: &[Action]) -> Option<Territory> {
    let Phase::Movement { moves, .. } = &state.phase else {
        return None;
    };
    if moves.len() < 2 {
        return None;
    }
    let mut targets = actions.iter().filter_map(|a| match a {
        Action::Move { to, .. } => Some(*to),
        _ => None,
    });
    let first = targets.next()?;
    targets.all(|t| t == first).then_some(first)
}

/// What a destination holds for the mover: "empty", "yours: 2", "battle: 3 Green".
fn destination_label(state: &State, mover: usize, to: Territory) -> String {
    let own = state.clan(mover).map_or(0, |c| c.gnomes_at(to));
    let enemies: Vec<String> = state
        .occupants(to)
        .into_iter()
        .filter(|&i| i != mover)
        .filter_map(|i| state.clan(i))
        .filter_map(|c| {
            c.colour
                .map(|col| format!("{} {}", c.gnomes_at(to), col.name()))
        })
        .collect();
    let what = match (own, enemies.is_empty()) {
        (0, true) => "empty".to_string(),
        (n, true) => format!("{n} of yours there"),
        (0, false) => format!("battle with {}", enemies.join(", ")),
        (n, false) => format!("{n} of yours, battle with {}", enemies.join(", ")),
    };
    format!("{} ({what})", short_name(to))
}

fn origin_label(state: &State, mover: usize, from: Territory) -> String {
    let n = state.clan(mover).map_or(0, |c| c.gnomes_at(from));
    format!("{} ({n} there)", short_name(from))
}

fn attack_words(state: &State, target: Colour, dice: u8, names: &[String]) -> (String, String) {
    let Phase::Combat(combat) = &state.phase else {
        return (
            "Attack".into(),
            format!(
                "{} at the {} clan",
                plural(dice, "die", "dice"),
                target.name()
            ),
        );
    };
    let declarer = state.declarer();
    let attacker = declarer.and_then(|i| state.clan(i));
    let left = declarer.map_or(0, |i| state.undeclared_dice(combat, i));
    let bonus = attacker
        .and_then(|c| c.colour)
        .map_or(0, |c| c.card().die_bonus);
    let need = target.card().killed_on.saturating_sub(bonus).max(1);
    let theirs = state
        .index_of(target)
        .and_then(|i| state.clan(i).map(|c| (i, c)))
        .map_or(String::new(), |(i, c)| {
            format!(
                "{}: {} here",
                who(state, i, names),
                plural(c.gnomes_at(combat.territory), "gnome", "gnomes")
            )
        });
    let title = format!("Attack {theirs}, each of your dice kills one on {need}+");
    let label = if dice == left {
        format!("with {} (all you have left)", plural(dice, "die", "dice"))
    } else {
        format!("with {}", plural(dice, "die", "dice"))
    };
    (title, label)
}
