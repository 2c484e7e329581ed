//! The objectives of a clan, for a viewer allowed to see them: the cards with their texts and
//! what each still misses, what they need together, and the clan's advanced score now.

use super::{and_list, colour_name, objective_line, plural, short_name, who};
use crate::rules::garden_gnomes::Scoring;
use crate::rules::garden_gnomes::data::{
    Food, Needs, Territory, Token, describe_objective, objective,
};
use crate::rules::garden_gnomes::flow::{advanced_score, satisfies};
use crate::rules::garden_gnomes::state::State;
use crate::rules::{Section, Viewer};

/// A clan's objectives for a viewer allowed to see them, with what is still missing.
pub(super) fn objectives(state: &State, i: usize, viewer: Viewer, names: &[String]) -> Section {
    let Some(clan) = state.clan(i) else {
        return Section::new("Objectives", Vec::new());
    };
    let title = match viewer {
        Viewer::Seat(_) => format!("Your objectives ({} clan, secret)", colour_name(clan)),
        _ => format!("Objectives of {}", who(state, i, names)),
    };
    let mut lines = Vec::new();
    if !clan.offered.is_empty() {
        let left = usize::from(state.keep).saturating_sub(clan.kept.len());
        lines.push(format!(
            "Dealt to you, keep {left} more of these (see your choices):"
        ));
        lines.extend(
            clan.offered
                .iter()
                .map(|&id| format!("- {}", objective_line(Some(clan), id))),
        );
        if !clan.kept.is_empty() {
            lines.push("Kept so far:".into());
        }
    }
    for &id in &clan.kept {
        let mut line = format!("- {}", objective_line(Some(clan), id));
        if state.round > 0 && objective(id).is_some() {
            let missing = lacking(state, i, &tally(&[id]));
            if missing.is_empty() {
                line.push_str(" - met now");
            } else {
                line.push_str(&format!(" - missing {}", missing.text()));
            }
        }
        lines.push(line);
    }
    if state.round > 0 && !clan.kept.is_empty() {
        let all = tally(&clan.kept);
        let missing = lacking(state, i, &all);
        lines.push(format!(
            "Together (each token serves one objective only) they need: {}.",
            all.text()
        ));
        lines.push(if missing.is_empty() && satisfies(state, i, &clan.kept) {
            "All met now: if they still are after this round's loot, you have completed them \
             (statues count where your gnomes stand then)."
                .into()
        } else {
            format!("Still missing: {}.", missing.text())
        });
        let (met, points) = advanced_score(state, i);
        // A basic game is decided by these points when it ends with nobody completing: no
        // clan can still gather what its objectives need (ruling 13), or the round limit.
        let how = match (state.scoring, state.round_limit) {
            (Scoring::Advanced, _) => "advanced scoring",
            (_, None) => {
                "advanced scoring, used if the game ends with nobody completing: when no clan \
                 can still gather what its objectives need"
            }
            (_, Some(_)) => {
                "advanced scoring, used if the game ends with nobody completing: when no clan \
                 can still gather what its objectives need, or at the round limit"
            }
        };
        lines.push(format!(
            "Score if the game ended now ({how}): {points} ({} met).",
            plural(
                u32::try_from(met).unwrap_or(u32::MAX),
                "objective",
                "objectives"
            )
        ));
    }
    if !clan.discarded.is_empty() {
        let set_aside: Vec<String> = clan.discarded.iter().map(|id| id.to_string()).collect();
        lines.push(format!("Set aside: objectives {}.", set_aside.join(", ")));
    }
    Section::new(title, lines)
}

/// What some objectives need, added up: food and hostages count per objective, statues once.
#[derive(Default)]
struct Tally {
    food: [u32; 3],
    hostages: u32,
    statues: Vec<Territory>,
    /// Cards the data does not know, by number.
    unknown: Vec<u16>,
}

/// What the objectives `ids` need together.
fn tally(ids: &[u16]) -> Tally {
    let mut tally = Tally::default();
    for &id in ids {
        match objective(id).map(|c| &c.needs) {
            Some(Needs::Food(count)) => {
                for (x, f) in tally.food.iter_mut().zip(Food::ALL) {
                    *x += u32::from(count.get(f));
                }
            }
            Some(Needs::Hostages(n)) => tally.hostages += u32::from(*n),
            Some(Needs::Statues(pair)) => {
                for &t in pair {
                    if !tally.statues.contains(&t) {
                        tally.statues.push(t);
                    }
                }
            }
            None => tally.unknown.push(id),
        }
    }
    tally
}

impl Tally {
    fn is_empty(&self) -> bool {
        self.food.iter().all(|&n| n == 0)
            && self.hostages == 0
            && self.statues.is_empty()
            && self.unknown.is_empty()
    }

    /// "5 acorns, 1 apple, 2 gnome tokens not your own, a gnome on Frog Statue".
    fn text(&self) -> String {
        let mut parts: Vec<String> = Food::ALL
            .into_iter()
            .zip(self.food)
            .filter(|(_, n)| *n > 0)
            .map(|(f, n)| plural(n, f.name(), f.plural()))
            .collect();
        if self.hostages > 0 {
            parts.push(format!(
                "{} not your own",
                plural(self.hostages, "gnome token", "gnome tokens")
            ));
        }
        if !self.statues.is_empty() {
            let statues: Vec<String> = self.statues.iter().map(|&t| short_name(t)).collect();
            parts.push(format!("a gnome on {}", and_list(&statues)));
        }
        parts.extend(self.unknown.iter().map(|&id| describe_objective(id)));
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// What clan `i` still lacks of `needs`: tokens it does not hold, statues it does not occupy.
fn lacking(state: &State, i: usize, needs: &Tally) -> Tally {
    let Some(clan) = state.clan(i) else {
        return Tally::default();
    };
    let mut food = needs.food;
    for (x, f) in food.iter_mut().zip(Food::ALL) {
        *x = x.saturating_sub(u32::from(clan.count(Token::food(f))));
    }
    Tally {
        food,
        hostages: needs.hostages.saturating_sub(clan.hostages()),
        statues: needs
            .statues
            .iter()
            .copied()
            .filter(|&t| clan.gnomes_at(t) == 0)
            .collect(),
        unknown: needs.unknown.clone(),
    }
}
