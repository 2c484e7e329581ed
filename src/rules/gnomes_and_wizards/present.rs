//! The table in words for people (mail and web pages): see `crate::rules::present`.
//! Pure: it shows exactly what `view::typed_view` shows the viewer: every Secret hand but the
//! viewer's own is a count, the cards being drawn show only to the drawer, the decks are
//! counts.
//!
//! - `text`: names, board letters, units, abilities and dice in words;
//! - `board`: the triangle map and its key;
//! - `table`: the sections on the players, this turn, the solo automaton, the variants;
//! - `units`: each tribe's units and the Secret hands the viewer may see;
//! - `choices`: the legal actions grouped by die, by unit, by ability.

mod board;
mod choices;
mod table;
mod text;
mod units;

use super::actions::Action;
use super::state::{After, Phase, State, Step, UnitRef, Window};
use super::{Variant, setup};
use crate::rules::present::name_seats;
use crate::rules::{ChoiceGroup, Presented, Seat, Section, Viewer};
use text::{Ctx, plural};

pub fn present(state: &State, viewer: Viewer, names: &[String]) -> Presented {
    let cx = Ctx::new(state, viewer, names);
    let mut sections = vec![
        Section::new("Players", table::players(&cx)),
        Section::new("This turn", table::turn(&cx)),
        Section::diagram("Board", board::diagram(&cx)),
        Section::new("Key", board::key(&cx)),
    ];
    sections.extend(units::units(&cx));
    sections.extend(units::hands(&cx));
    if let Some(s) = table::automaton(&cx) {
        sections.push(s);
    }
    let options = table::options(&cx);
    if !options.is_empty() {
        sections.push(Section::new("Variants in play", options));
    }
    sections.retain(|s| !s.lines.is_empty());
    Presented {
        headline: headline(&cx),
        sections,
    }
}

pub fn choices(
    state: &State,
    seat: Seat,
    actions: &[Action],
    names: &[String],
) -> Vec<ChoiceGroup> {
    choices::choices(&Ctx::new(state, Viewer::Seat(seat), names), seat, actions)
}

/// "Round 3 of 10" (with the tie-break round named).
fn round(state: &State) -> String {
    if state.extra_round && state.round >= state.last_round {
        format!("Round {} (the tie-break round)", state.round)
    } else {
        format!("Round {} of {}", state.round, state.last_round)
    }
}

/// Whose turn and what they are doing, in one line.
fn headline(cx: &Ctx) -> String {
    let s = cx.state;
    if let Some(r) = &s.result {
        // The summary names seats as "seat 0" (at most four, so no number is another's prefix).
        let mut summary = r.summary.clone();
        for seat in (0..s.seats).rev() {
            for word in ["seat", "Seat"] {
                summary = summary.replace(&format!("{word} {seat}"), &cx.who(seat));
            }
        }
        return format!("Game over. {}", name_seats(&summary, cx.names));
    }
    if let Some(&u) = s.falls.first() {
        return if cx.is_me(u.owner) {
            format!(
                "Your decision, {}: your {} falls from a flipped tile; choose the tile it lands on.",
                cx.who(u.owner),
                cx.unit(u)
            )
        } else {
            format!(
                "{}'s {} falls from a flipped tile; {} chooses where it lands.",
                cx.who_cap(u.owner),
                cx.unit(u),
                cx.who(u.owner)
            )
        };
    }
    if let Some(p) = s.placements.first() {
        let u = p.unit;
        return if cx.is_me(u.owner) {
            format!(
                "Your decision, {}: an ally's ability moves your {} up to {}; choose where it goes.",
                cx.who(u.owner),
                cx.unit(u),
                plural(usize::from(p.spaces), "space", "spaces")
            )
        } else {
            format!(
                "An ability moves {}'s {}; {} chooses where it goes.",
                cx.who(u.owner),
                cx.unit(u),
                cx.who(u.owner)
            )
        };
    }
    if let Some((from, to)) = s.offer {
        return if cx.is_me(to) {
            format!(
                "Your decision, {}: {} offers you a temporary alliance.",
                cx.who(to),
                cx.who(from)
            )
        } else {
            format!(
                "{} offers {} a temporary alliance; waiting for {} to accept or decline.",
                cx.who_cap(from),
                cx.who(to),
                cx.who(to)
            )
        };
    }
    if let Some(w) = &s.window {
        let when = window_moment(cx, w);
        let me = w.waiting.iter().find(|&&seat| cx.is_me(seat));
        return match me {
            Some(&seat) => format!(
                "Your decision, {}: cast an ability or pass ({when}).",
                cx.who(seat)
            ),
            None => format!(
                "{} may cast an ability or pass ({when}).",
                text::capitalise(&cx.names_of(&w.waiting))
            ),
        };
    }
    if !s.solo_choice.is_empty() {
        return format!(
            "Your decision, {}: the crumbling earth flips one of the tied tiles; choose which.",
            cx.who(0)
        );
    }
    match &s.phase {
        Phase::Tribes => "Setting up: the tribes are being dealt.".to_owned(),
        Phase::Tiles => "Setting up: the tiles are being laid out.".to_owned(),
        Phase::SplitClans => "Setting up: the automaton's Clans are being placed.".to_owned(),
        Phase::FirstPlayer => "Setting up: the first player is being drawn.".to_owned(),
        Phase::Leaders => match setup::next_leader(s) {
            Some((owner, decider)) => {
                let whose = if owner == decider {
                    "their".to_owned()
                } else {
                    format!("{}'s", cx.who(owner))
                };
                if cx.is_me(decider) {
                    let whose = if owner == decider {
                        "your".to_owned()
                    } else {
                        whose
                    };
                    format!(
                        "Your turn, {}: place {whose} Leader on a start tile.",
                        cx.who(decider)
                    )
                } else {
                    format!(
                        "{} is placing {whose} Leader on a start tile.",
                        cx.who_cap(decider)
                    )
                }
            }
            None => "Setting up: the Leaders are placed.".to_owned(),
        },
        Phase::Over => "The game is over.".to_owned(),
        Phase::Turn { seat, step } => {
            let (doing, done_by) = step_words(cx, *seat, step);
            if cx.is_me(*seat) {
                format!(
                    "Your turn, {} ({}): {doing}.",
                    cx.who(*seat),
                    round(s).to_lowercase()
                )
            } else {
                format!("{} — {}'s turn: {done_by}.", round(s), cx.who(*seat))
            }
        }
    }
}

/// When a reaction window is open, in words.
fn window_moment(cx: &Ctx, w: &Window) -> String {
    let s = cx.state;
    let after = w.after;
    let cur = cx
        .current_name()
        .unwrap_or_else(|| "the active player".to_owned());
    if w.during_movement {
        let mover = s.moving.map_or_else(
            || "a unit".to_owned(),
            |slot| {
                s.current().map_or_else(
                    || "a unit".to_owned(),
                    |owner| cx.whose_unit(UnitRef { owner, slot }),
                )
            },
        );
        return format!("while {mover}, an ally's, is moving");
    }
    if after == After::BeginTurn {
        return format!("as {} turn starts", text::poss(&cur));
    }
    if let Some(call) = cx.declared_call() {
        return format!("before {call} takes effect");
    }
    if after == After::ResolveAttack
        && let Some(a) = s.attack
    {
        return format!(
            "before {} attack on {} resolves",
            text::poss(&cx.whose_unit(a.attacker)),
            cx.whose_unit(a.target)
        );
    }
    if let After::Flip(t) = after {
        let by = if s.solo() {
            "the crumbling earth".to_owned()
        } else {
            cur.clone()
        };
        return format!("before {by} flips tile {t}, with units on it");
    }
    match s.step() {
        Some(Step::Assign) => format!("{cur} has kept the dice"),
        Some(Step::Charge) => format!("{cur} has ended Call to War"),
        _ => format!("in {cur}'s turn"),
    }
}

/// The current step: what to do (to the player) and what is being done (to the others).
fn step_words(cx: &Ctx, seat: Seat, step: &Step) -> (String, String) {
    let s = cx.state;
    let mover = |slot: u8| cx.unit(UnitRef { owner: seat, slot });
    let pair = |a: String, b: String| (a, b);
    match step {
        Step::Start => pair("your turn starts".into(), "the turn starts".into()),
        Step::Reenter => pair(
            "every unit was lost: bring a Clan back onto one of its face-up tiles".into(),
            "bringing a Clan back onto the board".into(),
        ),
        Step::Flip { left } => {
            let n = plural(usize::from(*left), "tile", "tiles");
            if s.solo() {
                pair(
                    format!("the crumbling earth flips {n}"),
                    format!("the crumbling earth flips {n}"),
                )
            } else {
                pair(format!("flip {n}"), format!("flipping {n}"))
            }
        }
        Step::Roll { .. } if !s.to_roll.is_empty() => {
            pair("the dice are rolling".into(), "rolling the dice".into())
        }
        Step::Roll { rerolls_left } => pair(
            format!(
                "keep the dice or re-roll some ({} left)",
                plural(usize::from(*rerolls_left), "re-roll", "re-rolls")
            ),
            "deciding on re-rolls".into(),
        ),
        Step::Assign => {
            let left = s.assigned.iter().filter(|a| !**a).count();
            pair(
                format!(
                    "assign your dice to your units ({} left)",
                    plural(left, "die", "dice")
                ),
                "assigning dice".into(),
            )
        }
        Step::Act => {
            if let Some(slot) = s.must_attack {
                pair(
                    format!("{} entered an enemy's tile and must attack", mover(slot)),
                    format!("{} must attack", mover(slot)),
                )
            } else if let Some(slot) = s.moving {
                let left = s
                    .unit(UnitRef { owner: seat, slot })
                    .map_or(0, |u| usize::from(u.movement_left()));
                pair(
                    format!(
                        "{} is moving ({} left): move on or stop",
                        mover(slot),
                        plural(left, "space", "spaces")
                    ),
                    format!("{} is moving", mover(slot)),
                )
            } else {
                pair(
                    "move and attack, one unit at a time".into(),
                    "moving and attacking".into(),
                )
            }
        }
        Step::Call => match &s.draw {
            Some(d) if d.attach.is_some() => pair(
                "attach the kept Learned card to a unit".into(),
                "attaching a Learned card".into(),
            ),
            Some(d) if d.from.is_empty() && super::call::draws_left(s) == 0 => pair(
                "keep one of the two cards drawn".into(),
                "choosing a card to keep".into(),
            ),
            Some(_) => pair(
                "draw two ability cards".into(),
                "drawing ability cards".into(),
            ),
            None => pair(
                "Call to War: call Clans or draw cards, then end it".into(),
                "Call to War".into(),
            ),
        },
        Step::Charge => {
            let reserve = s.player(seat).map_or(0, |p| usize::from(p.reserve));
            if reserve == 0 || super::call::charge_slots(s, seat).is_empty() {
                // Edition 1 (review R1): an ability was just filled and may still be cast.
                return pair(
                    "cast an ability you charged, or end your turn".into(),
                    "casting abilities before the turn ends".into(),
                );
            }
            let n = plural(reserve, "crystal", "crystals");
            pair(
                format!("charge your abilities ({n} in reserve)"),
                format!("charging abilities ({n} in reserve)"),
            )
        }
    }
}

/// A short explanation of each variant in play.
fn variant_text(v: Variant) -> &'static str {
    match v {
        Variant::TeamPlay => {
            "Team play: the first and third seats against the second and fourth; scores are summed per team."
        }
        Variant::BalancedTerrain => {
            "Balanced terrain: the tiles were evened out so no tribe has more Clans on the edge."
        }
        Variant::Fatigue => {
            "Fatigue: a unit's first move after it attacked costs one extra movement."
        }
        Variant::EnemyOccupation => {
            "Enemy occupation: entering a tile with more enemies than allies there ends the move, and the unit must attack."
        }
        Variant::HomeField => {
            "Home field advantage: +1 attack and +1 defense on a face-up tile of your own tribe."
        }
        Variant::ShorterGame => "Shorter game: rounds 5 to 10; tiles flip from round 7.",
        Variant::TemporaryAlliances => {
            "Temporary alliances: in your turn you may offer a player an alliance; either side may end it."
        }
        Variant::EmpoweringCall => {
            "Empowering call: 3 horns on a unit standing on an active Clan's tile fill one of that Clan's abilities."
        }
        Variant::EveryTribeForThemselves => {
            "Every tribe for themselves: each Leader started on any tile of the board's outer edge."
        }
    }
}
