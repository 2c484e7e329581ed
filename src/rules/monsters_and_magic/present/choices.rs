//! A seat's legal actions as numbered choices, grouped so that even a few hundred read
//! quickly: moves by the figure that moves (labels are squares), Summons by summoner and
//! figure, powers by power (Alter Terrain by the new terrain), recruits by figure type,
//! cards by what playing them does.

use super::super::actions::Action;
use super::super::data::{CardId, Effect, FigureKind, Power, card, card_name, hand_effects};
use super::super::movement::targets;
use super::super::state::{Pending, Phase, Pos, PowerSource, State, Stop};
use super::board::{corner_word, figure_label, sq, unit_label};
use crate::rules::present::seat_name;
use crate::rules::{Choice, ChoiceGroup, Seat};

/// Groups keyed by title, in the order their first choice comes in `actions`.
#[derive(Default)]
struct Groups(Vec<ChoiceGroup>);

impl Groups {
    fn add(&mut self, title: String, number: usize, label: String) {
        let choice = Choice { number, label };
        match self.0.iter_mut().find(|g| g.title == title) {
            Some(group) => group.choices.push(choice),
            None => self.0.push(ChoiceGroup {
                title,
                choices: vec![choice],
            }),
        }
    }
}

pub fn choices(
    state: &State,
    seat: Seat,
    actions: &[Action],
    names: &[String],
) -> Vec<ChoiceGroup> {
    let mut groups = Groups::default();
    for (i, action) in actions.iter().enumerate() {
        let (title, label) = entry(state, seat, action, names);
        groups.add(title, i + 1, label);
    }
    groups.0
}

/// "Knights: Your Armies get +1F when Attacking" (an unknown card: its number).
pub fn card_line(id: CardId) -> String {
    match card(id) {
        Some(c) => format!("{}: {}", c.name, c.text),
        None => card_name(id),
    }
}

/// "a Mage", "an Army".
pub fn a_kind(kind: FigureKind) -> String {
    match kind {
        FigureKind::Army => "an Army".to_owned(),
        k => format!("a {}", k.name()),
    }
}

fn points(n: u8) -> String {
    if n == 1 {
        "1 move point".to_owned()
    } else {
        format!("{n} move points")
    }
}

/// Where a power comes from, when it costs a hand card.
fn source_note(state: &State, seat: Seat, power: Power) -> &'static str {
    match state.power_source(seat, power) {
        Some(PowerSource::Hand(_)) => " (plays the card from your hand)",
        _ => "",
    }
}

/// A target square, with what entering it means.
fn square_label(state: &State, seat: Seat, to: Pos, free: bool, names: &[String]) -> String {
    let enemy = state
        .figures_at(to)
        .map(|f| f.owner)
        .chain(state.garrison(to))
        .find(|&o| o != seat);
    match (enemy, free) {
        (Some(o), _) => format!("{} (attack {})", sq(to), seat_name(names, o)),
        (None, true) => format!("{} (free: your Town)", sq(to)),
        (None, false) => sq(to),
    }
}

fn entry(state: &State, seat: Seat, action: &Action, names: &[String]) -> (String, String) {
    // "Empire (plays the card from your hand): a new Garrison at:"
    let power = |p: Power, what: &str| match what.split_once(": ") {
        Some((name, rest)) => format!("{name}{}: {rest}:", source_note(state, seat, p)),
        None => format!("{what}{}:", source_note(state, seat, p)),
    };
    match action {
        Action::ChooseCorner(at) => (
            "Choose your corner:".to_owned(),
            format!("{} ({})", sq(*at), corner_word(*at)),
        ),
        Action::StartFigure(kind) => {
            let title = match &state.phase {
                Phase::ExtraFigure { .. } => match state.free_corners().first() {
                    Some(&c) => format!("Extra figure in the free corner {}:", sq(c)),
                    None => "Extra figure in the free corner:".to_owned(),
                },
                _ => "Your starting figure (it starts with a Garrison in your corner):".to_owned(),
            };
            (title, kind.name().to_owned())
        }
        Action::DeclineExtraFigure => {
            let title = match state.free_corners().first() {
                Some(&c) => format!("Extra figure in the free corner {}:", sq(c)),
                None => "Extra figure in the free corner:".to_owned(),
            };
            (title, "No extra figure".to_owned())
        }
        Action::Move { figure, to } => match state.figure(*figure) {
            Some(f) => {
                let free = targets(state, f)
                    .iter()
                    .any(|(p, cost)| p == to && *cost == 0);
                (
                    format!(
                        "{} moves to ({} left):",
                        figure_label(state, *figure),
                        points(state.moves_left(f))
                    ),
                    square_label(state, seat, *to, free, names),
                )
            }
            None => (format!("Figure {figure} moves to:"), sq(*to)),
        },
        Action::Summon { summoner, unit, to } => (
            format!(
                "{} summons {} to (its move for the turn):",
                figure_label(state, *summoner),
                figure_label(state, *unit)
            ),
            square_label(state, seat, *to, false, names),
        ),
        Action::PlayCard(c) => match &state.phase {
            Phase::Combat(_) => ("Play a card for this fight:".to_owned(), card_line(*c)),
            _ => (
                "Play a hand card (its effect lasts to the end of your turn):".to_owned(),
                card_line(*c),
            ),
        },
        Action::DoneCards => (
            "Play a card for this fight:".to_owned(),
            "Done: no more cards now (the fight is settled when both sides are done in a row)"
                .to_owned(),
        ),
        Action::Oracle { seat: other } => (
            power(Power::Oracle, "Oracle: look at the hand of"),
            seat_name(names, *other),
        ),
        Action::Empire { at } => (power(Power::Empire, "Empire: a new Garrison at"), sq(*at)),
        // Alter Terrain in two steps: the square (grouped by row), then the terrain.
        Action::AlterTerrain { at } => (
            power(
                Power::AlterTerrain,
                &format!(
                    "Alter Terrain: change the terrain of a square in row {} (then choose the \
                     new terrain)",
                    at.1 + 1
                ),
            ),
            format!(
                "{} ({})",
                sq(*at),
                state.terrain(*at).map_or("no terrain", |t| t.name())
            ),
        ),
        Action::AlterTerrainTo(terrain) => (alter_title(state), terrain.name().to_owned()),
        Action::CancelAlterTerrain => (
            alter_title(state),
            "Cancel (Alter Terrain is not used)".to_owned(),
        ),
        Action::Haste { figure } => (
            power(Power::Haste, "Haste Spell: +1 move point this turn for"),
            figure_label(state, *figure),
        ),
        Action::Alchemist => (
            power(Power::Alchemist, "Alchemist"),
            "Discard any number of cards, then draw as many".to_owned(),
        ),
        Action::AlchemyDiscard(c) => (alchemy_title(state), format!("Discard {}", card_line(*c))),
        Action::AlchemyDone => {
            let n = match &state.pending {
                Some(Pending::Alchemist { discarded }) => *discarded,
                _ => 0,
            };
            (
                alchemy_title(state),
                format!("Done: draw {n} card{}", if n == 1 { "" } else { "s" }),
            )
        }
        Action::Artificer { figure } => (
            power(Power::Artificer, "Artificer: +1 force this turn for"),
            figure_label(state, *figure),
        ),
        Action::Diplomat { permanent, hand } => (
            power(
                Power::Diplomat,
                &format!(
                    "Diplomat: make {} permanent and take back into your hand",
                    card_line(*hand)
                ),
            ),
            card_line(*permanent),
        ),
        Action::Jester { seat: other } => (
            power(Power::Jester, "Jester: switch hands with"),
            format!(
                "{} ({} cards)",
                seat_name(names, *other),
                state.players.get(*other).map_or(0, |p| p.hand.len())
            ),
        ),
        Action::Merchant { at } => (
            power(
                Power::Merchant,
                "Merchant: a new Garrison on the empty City or Town at",
            ),
            sq(*at),
        ),
        Action::Polymorph { figure, into } => (
            power(
                Power::Polymorph,
                &format!("Polymorph: turn into {}", a_kind(*into)),
            ),
            figure_label(state, *figure),
        ),
        Action::Illusionist(unit) => (
            power(
                Power::Illusionist,
                "Illusionist: switch places of two of your units; the first",
            ),
            unit_label(state, unit),
        ),
        Action::IllusionistSwap(unit) => (illusion_title(state), unit_label(state, unit)),
        Action::CancelIllusion => (
            illusion_title(state),
            "Cancel (the Illusionist is not used)".to_owned(),
        ),
        Action::Sacrifice { figure } => (
            power(
                Power::Sacrifice,
                "Altar of Sacrifice: discard one of your figures to draw 2 cards",
            ),
            figure_label(state, *figure),
        ),
        Action::RecruitWith { card: c, at } => {
            let kind = hand_effects(*c).iter().find_map(|e| match e {
                Effect::Recruit(k) => Some(*k),
                _ => None,
            });
            (
                format!(
                    "Play {} from your hand: recruit {} on your Garrison at:",
                    card_name(*c),
                    kind.map_or_else(|| "a figure".to_owned(), a_kind)
                ),
                sq(*at),
            )
        }
        Action::EndMovement => (
            "Finish moving:".to_owned(),
            "End the Movement phase (then draw, then roll for a recruit)".to_owned(),
        ),
        // A roll of 6+ lets you choose the figure: grouped by square, the figure types as
        // labels; otherwise by the figure, the squares as labels.
        Action::Recruit { figure, at } => match &state.phase {
            Phase::RecruitPlace { roll } if FigureKind::of_recruit_roll(*roll).is_none() => (
                format!(
                    "Recruit a figure of your choice on your Garrison at {}:",
                    sq(*at)
                ),
                a_kind(*figure),
            ),
            _ => (
                format!("Place your new {} on one of your Garrisons:", figure.name()),
                sq(*at),
            ),
        },
        Action::Realign { permanent, hand } => (
            format!(
                "Realignment: make {} permanent, discarding the permanent card:",
                card_line(*hand)
            ),
            card_line(*permanent),
        ),
        Action::Discard(c) => (
            format!(
                "Discard down to {} cards (one at a time):",
                state.hand_limit(seat)
            ),
            card_line(*c),
        ),
        Action::DiscardAtRandom => (
            format!(
                "Discard down to {} cards (one at a time):",
                state.hand_limit(seat)
            ),
            "Discard a card at random: chance draws it from your hand (what a deadline discards)"
                .to_owned(),
        ),
        Action::EndTurn => ("Finish:".to_owned(), "End your turn".to_owned()),
        // Ruling 22: stops for "Once on your Turn" powers, asked for in the decision before.
        Action::StopBefore(Stop::Declaration) => (
            "Finish:".to_owned(),
            "End your turn, and stop at the start of your next turn to use a power before the \
             Declaration phase"
                .to_owned(),
        ),
        Action::StopBefore(Stop::RecruitRoll) => (
            "Finish moving:".to_owned(),
            "End the Movement phase, draw, and stop to use a power before the Recruit Roll"
                .to_owned(),
        ),
        Action::StopBefore(Stop::Garrison) => (
            "Go on:".to_owned(),
            "Declare, and stop again to use a power before the Garrison phase".to_owned(),
        ),
        Action::GoOn => (
            "Go on:".to_owned(),
            match &state.phase {
                Phase::Stop(Stop::Declaration) => {
                    "Use no (more) powers now: declare, place garrisons, move".to_owned()
                }
                Phase::Stop(Stop::Garrison) => {
                    "Use no (more) powers now: place garrisons, move".to_owned()
                }
                _ => "Use no (more) powers now: roll for a recruit".to_owned(),
            },
        ),
        // Chance outcomes are never a seat's choice; described as the log does.
        _ => (
            "Other choices:".to_owned(),
            super::super::view::describe(
                state,
                crate::rules::Actor::Seat(seat),
                action,
                crate::rules::Viewer::Seat(seat),
            ),
        ),
    }
}

fn alchemy_title(state: &State) -> String {
    let n = match &state.pending {
        Some(Pending::Alchemist { discarded }) => *discarded,
        _ => 0,
    };
    format!("Alchemist: discard a card, or finish ({n} discarded so far):")
}

fn alter_title(state: &State) -> String {
    match &state.pending {
        Some(Pending::AlterTerrain { at }) => format!(
            "Alter Terrain: the new terrain of {} (now {}):",
            sq(*at),
            state.terrain(*at).map_or("no terrain", |t| t.name())
        ),
        _ => "Alter Terrain: the new terrain:".to_owned(),
    }
}

fn illusion_title(state: &State) -> String {
    match &state.pending {
        Some(Pending::Illusionist { first }) => {
            format!("Illusionist: switch {} with:", unit_label(state, first))
        }
        _ => "Illusionist: switch with:".to_owned(),
    }
}
