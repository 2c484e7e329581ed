//! The public sections: players, the park's key, the round, the battle, clan cards, supply.

use super::{
    focus_text, food_text, gnome_tokens_text, letter, occupants_text, plural, short_name,
    supply_gnomes_text, who,
};
use crate::rules::garden_gnomes::Scoring;
use crate::rules::garden_gnomes::data::{Colour, Food, Token, territory_count};
use crate::rules::garden_gnomes::state::{Clan, Combat, Phase, State};
use crate::rules::present::{seat_name, you};
use crate::rules::{Section, Viewer};

pub(super) fn players(state: &State, viewer: Viewer, names: &[String]) -> Section {
    let scores = match &state.phase {
        Phase::Over(ending) => ending.scores.clone(),
        _ => None,
    };
    let winners = match &state.phase {
        Phase::Over(ending) => ending.winners.clone(),
        _ => Vec::new(),
    };
    let mut lines = Vec::new();
    for seat in 0..state.seats {
        let name = you(names, viewer, seat);
        let mut extra = String::new();
        if let Some(score) = scores.as_ref().and_then(|s| s.get(seat)) {
            extra.push_str(&format!(" Final score {score}."));
        }
        if winners.contains(&seat) {
            extra.push_str(" Winner.");
        }
        if !extra.is_empty() {
            lines.push(format!("{name}:{extra}"));
        }
        for (i, clan) in state
            .clans
            .iter()
            .enumerate()
            .filter(|(_, c)| c.seat == seat)
        {
            lines.push(format!("{name} - {}", clan_summary(state, i, clan)));
        }
    }
    Section::new("Players", lines)
}

fn clan_summary(state: &State, i: usize, clan: &Clan) -> String {
    let Some(colour) = clan.colour else {
        return "clan not drawn yet.".into();
    };
    let mut text = format!("{}: ", colour.name());
    if state.round > 0 || clan.on_board() > 0 {
        text.push_str(&format!(
            "{} on the board, {} in reserve; food: {}; gnome tokens: {}; ",
            plural(clan.on_board(), "gnome", "gnomes"),
            clan.reserve(),
            food_text(clan),
            gnome_tokens_text(clan)
        ));
    }
    text.push_str(&format!(
        "{} of {} objectives kept",
        clan.kept.len(),
        state.keep
    ));
    if matches!(state.phase, Phase::ChoosingObjectives) && clan.choosing(state.keep) {
        text.push_str(", still choosing");
    }
    text.push('.');
    if state.first == i && state.round > 0 {
        text.push_str(" First player.");
    }
    text
}

pub(super) fn key(state: &State, names: &[String]) -> Vec<String> {
    let entries: Vec<String> = state
        .clans
        .iter()
        .filter_map(|c| {
            c.colour.map(|col| {
                format!(
                    "{} {} ({})",
                    letter(col),
                    col.name(),
                    seat_name(names, c.seat)
                )
            })
        })
        .collect();
    let mut lines = Vec::new();
    let mut line = String::new();
    for entry in entries {
        if !line.is_empty() && line.len() + 3 + entry.len() > 72 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str("   ");
        }
        line.push_str(&entry);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.push("R3 = 3 Red gnomes. Under each name: the token its holder loots each".into());
    lines.push("round (statues give none).".into());
    if matches!(state.phase, Phase::Combat(_)) {
        lines.push("* = the battle being fought.".into());
    }
    lines
}

pub(super) fn round(state: &State, names: &[String]) -> Section {
    let mut lines = Vec::new();
    let scoring = match state.scoring {
        Scoring::Basic => "basic scoring: whoever first completes all their objectives wins",
        Scoring::Advanced => {
            "advanced scoring: 20 points per objective met, 3 per gnome token, \
                              2 per food token not used"
        }
    };
    let limit = match state.round_limit {
        Some(limit) => format!("the game ends after round {limit} at the latest"),
        None => {
            "no round limit: the game ends when a clan has completed all its objectives".to_string()
        }
    };
    if state.round > 0 {
        lines.push(format!("Round {}; {scoring}; {limit}.", state.round));
    } else {
        lines.push(format!(
            "Set-up. Each clan keeps {} objectives; {scoring}; {limit}.",
            state.keep
        ));
    }
    if state.round > 0 {
        let mover = state.mover();
        let moving_turn = match &state.phase {
            Phase::Movement { turn, .. } => Some(*turn),
            _ => None,
        };
        let order: Vec<String> = state
            .turn_order()
            .into_iter()
            .enumerate()
            .map(|(k, i)| {
                let status = match moving_turn {
                    Some(t) if k < t => " - moved",
                    Some(_) if Some(i) == mover => " - moving now",
                    Some(_) => " - to move",
                    None => "",
                };
                format!("{}{status}", who(state, i, names))
            })
            .collect();
        lines.push(format!("Turn order this round: {}.", order.join(", ")));
    }
    if let Phase::Movement { moves, .. } = &state.phase {
        if !moves.is_empty() {
            let list: Vec<String> = moves
                .iter()
                .map(|[f, t]| format!("{} to {}", short_name(*f), short_name(*t)))
                .collect();
            lines.push(format!("Moved this turn: {}.", list.join("; ")));
            lines.push(format!("Now {}.", focus_text(moves)));
        } else if state.mover().is_some() {
            lines.push(
                "Gnomes move one at a time, any distance, through empty territories or \
                 your own; all moves of a turn start from one territory or end on one."
                    .into(),
            );
        }
        lines.push(
            "Then battles, wherever clans share a territory, then loot: 1 token per \
             territory held."
                .into(),
        );
    }
    Section::new(
        if state.round > 0 {
            "This round"
        } else {
            "Set-up"
        },
        lines,
    )
}

pub(super) fn battle(state: &State, combat: &Combat, names: &[String]) -> Section {
    let t = combat.territory;
    let mut lines = vec![format!(
        "Battle at {} (combat round {}): {}. Clans declare in this order, then all dice are \
         rolled and the losses removed together.",
        short_name(t),
        combat.round,
        occupants_text(state, t)
    )];
    let here = state.occupants(t);
    let kills: Vec<String> = here
        .iter()
        .filter_map(|&i| state.clan(i).and_then(|c| c.colour))
        .map(|c| format!("{} on {}+", c.name(), c.card().killed_on))
        .collect();
    lines.push(format!(
        "A die kills one gnome of its target on: {} (White adds 1 to its dice; Blue loses one \
         gnome fewer per 6 it rolls).",
        kills.join(", ")
    ));
    let mut declared: Vec<(Colour, Colour, Vec<u8>, usize)> = Vec::new();
    for (k, die) in combat.dice.iter().enumerate() {
        let roll = combat.rolls.get(k).copied();
        match declared
            .iter_mut()
            .find(|(a, d, _, _)| *a == die.attacker && *d == die.target)
        {
            Some(entry) => {
                entry.3 += 1;
                entry.2.extend(roll);
            }
            None => declared.push((die.attacker, die.target, roll.into_iter().collect(), 1)),
        }
    }
    for (attacker, target, rolls, count) in &declared {
        let mut line = format!(
            "{} attacks {} with {}",
            attacker.name(),
            target.name(),
            plural(u32::try_from(*count).unwrap_or(u32::MAX), "die", "dice")
        );
        if !rolls.is_empty() {
            let need = target.card().killed_on;
            let bonus = attacker.card().die_bonus;
            let shown: Vec<String> = rolls
                .iter()
                .map(|&r| {
                    let hit = if r.saturating_add(bonus) >= need {
                        "hit"
                    } else {
                        "miss"
                    };
                    format!("{r} {hit}")
                })
                .collect();
            line.push_str(&format!(": rolled {}", shown.join(", ")));
        }
        line.push('.');
        lines.push(line);
    }
    match state.declarer() {
        Some(i) => lines.push(format!(
            "Now {} declares: {} left.",
            who(state, i, names),
            plural(state.undeclared_dice(combat, i), "die", "dice")
        )),
        None => lines.push(format!(
            "Now rolling die {} of {}.",
            combat.rolls.len() + 1,
            combat.dice.len()
        )),
    }
    let later: Vec<String> = (0..territory_count())
        .filter_map(|x| u8::try_from(x).ok())
        .filter(|&x| x > t && state.occupants(x).len() > 1)
        .map(|x| format!("{} ({})", short_name(x), occupants_text(state, x)))
        .collect();
    if !later.is_empty() {
        lines.push(format!("Battles still to come: {}.", later.join("; ")));
    }
    Section::new("Battle", lines)
}

pub(super) fn clan_cards(state: &State, names: &[String]) -> Section {
    let lines = state
        .clans
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.colour.map(|col| (i, col)))
        .map(|(i, colour)| {
            let card = colour.card();
            let home = colour
                .home()
                .map_or_else(String::new, |h| format!("; home: {}", short_name(h)));
            format!("{}: {}{home}.", who(state, i, names), card.text())
        })
        .collect();
    Section::new("Clan cards", lines)
}

pub(super) fn supply(state: &State) -> Section {
    let food: Vec<String> = Food::ALL
        .into_iter()
        .map(|f| {
            plural(
                crate::rules::garden_gnomes::state::count(&state.supply, Token::food(f)),
                f.name(),
                f.plural(),
            )
        })
        .collect();
    let mut lines = vec![format!("Food left in the supply: {}.", food.join(", "))];
    let gnomes = supply_gnomes_text(&state.supply);
    if gnomes != "none" {
        lines.push(format!("Gnome tokens of clans not in play: {gnomes}."));
    }
    if state.round == 0 && !state.neutral_deck.is_empty() {
        lines.push(format!(
            "Neutral objectives not dealt: {} (face down).",
            state.neutral_deck.len()
        ));
    }
    Section::new("Supply", lines)
}
