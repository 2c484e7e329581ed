//! The turn in words: the headline (the step, who acts, who may answer), this turn's state,
//! the cast being built and the reaction window.

use super::super::cards::Effect;
use super::super::state::{DRAWS, How, Need, Phase, State, Target};
use super::cards::card_text;
use super::{line_words, plural, round, seat_name, sq, target_words, who};
use crate::rules::present::Section;
use crate::rules::{Seat, Viewer};

pub(super) fn headline(state: &State, viewer: Viewer, names: &[String]) -> String {
    let active = state.turn.seat;
    let name = |s: Seat| seat_name(names, s);
    let mine = |s: Seat| viewer == Viewer::Seat(s);
    if let Phase::Over { winners, summary } = &state.phase {
        let won = match winners.as_slice() {
            [] => "nobody won".to_owned(),
            [w] if mine(*w) => "you won".to_owned(),
            [w] => format!("{} won", name(*w)),
            [init @ .., last] => format!(
                "{} and {} share the win",
                init.iter().map(|&s| name(s)).collect::<Vec<_>>().join(", "),
                name(*last)
            ),
        };
        return format!("Game over: {won}. {summary}");
    }
    if let Some(need) = state.needs.first() {
        return match need {
            Need::Draw(s) if state.phase == Phase::Dealing => {
                format!("Dealing the starting hands: {} draws a card.", name(*s))
            }
            Need::Draw(s) => format!("{} draws a card.", name(*s)),
            Need::Steal { thief, victim } => format!(
                "Thought Steal: {} takes a card at random from {}'s hand.",
                name(*thief),
                name(*victim)
            ),
            Need::DiscardAtRandom(s) => format!(
                "{} discards a card drawn at random from their hand.",
                name(*s)
            ),
            Need::Punch {
                by, victim, die, ..
            } => format!(
                "{} rolls a d{die} for the punch at {}.",
                name(*by),
                name(*victim)
            ),
            Need::Evade { by, victim, .. } => format!(
                "{} is a gnome: the die is rolled for {}'s attack (1-{} misses).",
                name(*victim),
                name(*by),
                state.form(*victim).map_or(0, |f| f.evades_up_to)
            ),
        };
    }
    match state.phase {
        Phase::Building { .. } if state.colours.len() < state.seats() => {
            return format!(
                "Setting up: drawing the players' colours ({} of {}).",
                state.colours.len() + 1,
                state.seats()
            );
        }
        Phase::Building { slot, .. } => {
            return format!(
                "Setting up: building the labyrinth (sector {} of {}).",
                slot + 1,
                state.board.slots.len()
            );
        }
        Phase::Dealing => return "Dealing the starting hands.".to_owned(),
        Phase::FirstPlayer => return "Setting up: choosing who plays first.".to_owned(),
        _ => {}
    }
    if let Some(s) = state.over_limit() {
        let over = format!("{} of {}", state.hand_total(s), state.hand_limit(s));
        return if mine(s) {
            format!(
                "Your move, {}: you are over the hand limit ({over}); discard a card, drop an \
                 item or end a spell.",
                name(s)
            )
        } else {
            format!(
                "{} is over the hand limit ({over}) and must discard a card, drop an item or \
                 end a spell.",
                name(s)
            )
        };
    }
    if let Some(top) = state.stack.last() {
        let aim = match top.target {
            Target::Wizard(t) | Target::WizardToward(t, _) => {
                format!(" at {}", who(names, viewer, t))
            }
            Target::None => String::new(),
            t => format!(" on {}", target_words(state, names, viewer, &t)),
        };
        let what = if top.counter {
            let below = state
                .stack
                .len()
                .checked_sub(2)
                .and_then(|i| state.stack.get(i));
            match below {
                Some(b) => format!(
                    "{} answered {}'s {} with {}",
                    who(names, viewer, top.by),
                    seat_name(names, b.by),
                    b.card.name(),
                    top.card.name()
                ),
                None => format!("{} played {}", who(names, viewer, top.by), top.card.name()),
            }
        } else {
            format!(
                "{} cast {}{aim} (energy {})",
                who(names, viewer, top.by),
                top.card.name(),
                top.energy
            )
        };
        let what = capitalise(&what);
        return match top.waiting.split_first() {
            Some((&first, rest)) => {
                let then = if rest.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (then {})",
                        rest.iter()
                            .map(|&s| who(names, viewer, s))
                            .collect::<Vec<_>>()
                            .join(", then ")
                    )
                };
                if mine(first) {
                    format!(
                        "Reaction window, {}: {what}. You may answer with a counter spell or \
                         pass{then}.",
                        name(first)
                    )
                } else {
                    format!(
                        "Reaction window: {what}. {} may answer with a counter spell or \
                         pass{then}.",
                        name(first)
                    )
                }
            }
            None => format!("Reaction window: {what}."),
        };
    }
    let turn = if mine(active) {
        format!("Your turn, {}", name(active))
    } else {
        format!("{}'s turn", name(active))
    };
    let round = match state.options.round_limit {
        Some(limit) => format!("round {} of {limit}", round(state)),
        None => format!("round {}", round(state)),
    };
    if let Some(c) = &state.casting {
        let verb = match c.how {
            How::Cast => "casting",
            How::Throw => "throwing",
            How::Weapon | How::Punch => "attacking with",
        };
        let step = if c.target.is_some() {
            "choose the energy to boost it with".to_owned()
        } else if let Some(p) = c.square {
            format!("choose which side of {}", sq(p))
        } else {
            "choose a target".to_owned()
        };
        return format!(
            "{turn} ({round}): move and cast, {verb} {} — {step}.",
            c.card.name()
        );
    }
    match state.phase {
        Phase::MoveAndCast => {
            let mut notes = vec![plural(
                usize::from(state.turn.movement),
                "movement point left",
                "movement points left",
            )];
            if state.turn.first {
                notes.push("first turn: no attack".to_owned());
            } else if state.turn.attacked {
                notes.push("attack made".to_owned());
            }
            if state.turn.stunned {
                notes.push("stunned".to_owned());
            }
            format!("{turn} ({round}): move and cast ({}).", notes.join(", "))
        }
        Phase::DiscardAndDraw => format!(
            "{turn} ({round}): discard and draw ({} drawn), then end the turn.",
            plural(usize::from(state.turn.drawn), "card", "cards")
        ),
        _ => format!("{turn} ({round})."),
    }
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

pub(super) fn this_turn(state: &State, names: &[String]) -> Option<Section> {
    if !matches!(state.phase, Phase::MoveAndCast | Phase::DiscardAndDraw) {
        return None;
    }
    let t = &state.turn;
    let mut lines = Vec::new();
    if state.phase == Phase::MoveAndCast {
        lines.push(format!(
            "Step: move and cast (moves, spells, items and one attack, in any order); \
             then discard and draw. {} left.",
            plural(usize::from(t.movement), "movement point", "movement points")
        ));
    } else {
        lines.push(format!(
            "Step: discard and draw (discard first, then draw up to {} cards, never past the \
             hand limit; {} so far), then end the turn.",
            if state.carries(t.seat, Effect::Brainstone) > 0 {
                DRAWS + 1
            } else {
                DRAWS
            },
            plural(usize::from(t.drawn), "card drawn", "cards drawn")
        ));
    }
    let name = seat_name(names, t.seat);
    if state.phase != Phase::MoveAndCast {
        // Attacks only matter while moving and casting.
    } else if t.first {
        lines.push(format!("{name}'s first turn: no attack allowed."));
    } else if t.attacked {
        lines.push("The attack for this turn has been made.".to_owned());
    } else {
        lines.push("No attack made yet this turn (one allowed).".to_owned());
    }
    if t.stunned {
        lines.push(
            "Stunned this turn: may move or make a mundane attack (not both), casts no spell \
             and plays no card."
                .to_owned(),
        );
    }
    if let Some(p) = t.cast_from {
        lines.push(format!(
            "Astral Projection: spells are traced from {} this turn.",
            sq(p)
        ));
    }
    for &(p, d) in &t.picked {
        lines.push(format!(
            "Pick Lock: the door on {} may be passed this turn.",
            line_words(state, p, d)
        ));
    }
    if t.reach > 0 {
        lines.push(format!(
            "Stretch: punches and spells at a wizard next to you reach {} squares in a \
             straight, open line this turn.",
            t.reach
        ));
    }
    if state.maintains(t.seat, super::super::cards::Effect::ExtraArms) && !t.first {
        lines.push(if t.extra_punch {
            "Extra Arms: the one more punch has been made.".to_owned()
        } else {
            "Extra Arms: one more punch allowed, even after the attack.".to_owned()
        });
    }
    Some(Section::new(format!("This turn ({name}'s)"), lines))
}

pub(super) fn casting(state: &State, names: &[String]) -> Option<Section> {
    let c = state.casting.as_ref()?;
    let by = seat_name(names, state.turn.seat);
    let how = match c.how {
        How::Cast => "casts",
        How::Throw => "throws",
        How::Weapon | How::Punch => "attacks with",
    };
    let mut lines = vec![format!("{by} {how} {}.", c.card.name())];
    match (&c.target, c.square) {
        (Some(Target::None), _) => {
            lines.push("Next: the energy (boost with an energy card, or not).".to_owned());
        }
        (Some(t), _) => lines.push(format!(
            "Target: {}{}. Next: the energy (boost with an energy card, or not).",
            target_words(state, names, Viewer::Spectator, t),
            if c.bent { " (around the corner)" } else { "" }
        )),
        (None, Some(p)) => lines.push(format!("Square {}: next, which of its sides.", sq(p))),
        (None, None) => lines.push("Next: the target.".to_owned()),
    }
    lines.push(format!("{}: {}", c.card.name(), card_text(c.card)));
    Some(Section::new("Being cast", lines))
}

pub(super) fn window(state: &State, names: &[String]) -> Option<Section> {
    if state.stack.is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    for p in &state.stack {
        let by = seat_name(names, p.by);
        if p.counter {
            lines.push(format!(
                "{by} answered with {}: {}",
                p.card.name(),
                card_text(p.card)
            ));
        } else {
            let aim = match p.target {
                Target::None => String::new(),
                t => format!(" on {}", target_words(state, names, Viewer::Spectator, &t)),
            };
            lines.push(format!(
                "{by} cast {}{aim}, energy {}: {}",
                p.card.name(),
                p.energy,
                card_text(p.card)
            ));
        }
    }
    if let Some(top) = state.stack.last() {
        if top.waiting.is_empty() {
            lines.push("Nobody is left to answer: it resolves now.".to_owned());
        } else {
            lines.push(format!(
                "Still to answer, in order: {}. A counter spell cancels the spell it answers; \
                 a counter can itself be answered.",
                top.waiting
                    .iter()
                    .map(|&s| seat_name(names, s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    Some(Section::new("Reaction window (newest last)", lines))
}
