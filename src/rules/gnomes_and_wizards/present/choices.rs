//! The legal actions of a seat, numbered as given and grouped: dice by face, moves and attacks
//! by unit, casts by ability, Call to War and charging together, the step's end last.

use super::super::actions::Action;
use super::super::combat::home_field;
use super::super::data::{self, Deck, unit_stats};
use super::super::state::{Cast, Source, Target, UnitRef};
use super::super::view;
use super::text::{
    Ctx, card_text, charge, face_effect, face_name, plural, poss, short, target, tile, tile_words,
};
use crate::rules::present::complete;
use crate::rules::{Actor, Choice, ChoiceGroup, Seat};

/// Groups in the order they are read: answers first, then the dice, the step's own
/// decisions, stopping, casts, alliances, and the step's end.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Answer,
    Dice,
    Main,
    Stop,
    Cast,
    Alliance,
    End,
}

#[derive(Default)]
struct Groups {
    list: Vec<(Rank, ChoiceGroup)>,
}

impl Groups {
    fn add(&mut self, rank: Rank, title: String, number: usize, label: String) {
        let choice = Choice { number, label };
        match self
            .list
            .iter_mut()
            .find(|(r, g)| *r == rank && g.title == title)
        {
            Some((_, g)) => g.choices.push(choice),
            None => self.list.push((
                rank,
                ChoiceGroup {
                    title,
                    choices: vec![choice],
                },
            )),
        }
    }
}

pub(super) fn choices(cx: &Ctx, seat: Seat, actions: &[Action]) -> Vec<ChoiceGroup> {
    let mut groups = Groups::default();
    for (i, action) in actions.iter().enumerate() {
        let (rank, title, label) = choice(cx, seat, action);
        groups.add(rank, one_line(&title), i + 1, one_line(&label));
    }
    let mut list = groups.list;
    list.sort_by_key(|(rank, _)| *rank);
    let groups = list.into_iter().map(|(_, g)| g).collect();
    complete(groups, actions.len(), |i| {
        actions.get(i).map_or_else(String::new, |a| {
            view::describe(cx.state, Actor::Seat(seat), a, cx.viewer)
        })
    })
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

fn choice(cx: &Ctx, seat: Seat, action: &Action) -> (Rank, String, String) {
    let s = cx.state;
    let mine = |slot: u8| UnitRef { owner: seat, slot };
    let unit_tile = |slot: u8| {
        s.unit(mine(slot))
            .and_then(|u| u.tile)
            .map_or_else(|| "off the board".to_owned(), tile)
    };
    let horns_title = "Call to War: spend horns".to_owned();
    match *action {
        Action::PlaceLeader(t) => {
            let owner = super::super::setup::next_leader(s).map_or(seat, |(o, _)| o);
            let title = if owner == seat {
                "Place your Leader on a start tile".to_owned()
            } else {
                format!("Place {}'s Leader on a start tile", cx.who(owner))
            };
            (Rank::Main, title, tile_words(cx, t))
        }
        Action::Reenter { clan, tile: t } => (
            Rank::Main,
            format!("Bring your {} back onto", cx.unit(mine(clan))),
            tile_words(cx, t),
        ),
        Action::Flip(t) => (
            Rank::Main,
            "Flip a tile (units on it take 2 fall damage and land on the nearest face-up tile)"
                .to_owned(),
            tile_words(cx, t),
        ),
        Action::CrumbleTile(t) => (
            Rank::Main,
            "The crumbling earth flips (units on it take 2 fall damage)".to_owned(),
            tile_words(cx, t),
        ),
        Action::Fall(t) => {
            let who = s
                .falls
                .first()
                .map_or_else(|| "unit".to_owned(), |&u| cx.unit(u));
            (
                Rank::Main,
                format!("Your falling {who} lands on"),
                tile_words(cx, t),
            )
        }
        Action::MoveUnitTo(t) => {
            let who = s
                .placements
                .first()
                .map_or_else(|| "unit".to_owned(), |p| cx.unit(p.unit));
            (
                Rank::Main,
                format!("Your {who}, moved by an ally's ability, goes to"),
                move_label(cx, t),
            )
        }
        Action::KeepDice => (
            Rank::Dice,
            "Dice".to_owned(),
            "Keep these dice and assign them".to_owned(),
        ),
        Action::MarkReroll(i) => {
            let f = s.dice.get(i).copied().flatten().map_or("?", face_name);
            let label = if s.marked.contains(&i) {
                format!("Unmark die {} ({f}): keep it", i + 1)
            } else {
                format!("Mark die {} ({f}) for re-rolling", i + 1)
            };
            (Rank::Dice, "Dice".to_owned(), label)
        }
        Action::Reroll => {
            let marked: Vec<String> = s.marked.iter().map(|i| (i + 1).to_string()).collect();
            (
                Rank::Dice,
                "Dice".to_owned(),
                format!("Re-roll the marked dice ({})", marked.join(", ")),
            )
        }
        Action::Assign { face: f, slot } => {
            let left = s
                .dice
                .iter()
                .zip(&s.assigned)
                .filter(|(d, a)| **d == Some(f) && !**a)
                .count();
            let title = format!(
                "Assign a {} die ({} of this face left; {}) to",
                face_name(f),
                left,
                face_effect(f)
            );
            let u = s.unit(mine(slot));
            let now = match f {
                data::Face::Shield => {
                    u.map(|u| format!("defense {} of {}", u.defense, u.max_defense()))
                }
                data::Face::Horn => u.map(|u| plural(usize::from(u.horns), "horn", "horns")),
                _ => u.map(|u| {
                    let st = unit_stats(slot);
                    format!(
                        "move {}, attack {}, {} so far",
                        st.movement,
                        st.attack,
                        match u.dice {
                            0 => "no dice".to_owned(),
                            n => plural(usize::from(n), "die", "dice"),
                        }
                    )
                }),
            }
            .unwrap_or_default();
            (
                Rank::Main,
                title,
                format!("{} on {} ({now})", cx.unit(mine(slot)), unit_tile(slot)),
            )
        }
        Action::Move { slot, to } => {
            let left = s.unit(mine(slot)).map_or(0, |u| u.movement_left());
            let title = format!(
                "Move your {} (on {}, {} left) one space to",
                cx.unit(mine(slot)),
                unit_tile(slot),
                plural(usize::from(left), "space", "spaces")
            );
            (Rank::Main, title, move_label(cx, to))
        }
        Action::Stop => {
            let who = s
                .moving
                .map_or_else(|| "the moving unit".to_owned(), |m| cx.unit(mine(m)));
            let at = s
                .moving
                .map_or_else(String::new, |m| format!(" on {}", unit_tile(m)));
            (
                Rank::Stop,
                "Stop".to_owned(),
                format!("Stop your {who}{at} (it cannot move again this turn)"),
            )
        }
        Action::Attack {
            slot,
            target: t,
            dice,
        } => {
            let u = s.unit(mine(slot));
            let home = home_field(s, seat, u.and_then(|u| u.tile));
            let free = u.map_or(0, |u| u.free_dice());
            let base = unit_stats(slot).attack.saturating_add(home);
            let strike_back = if s.solo() {
                "; its units on the tile strike back first"
            } else {
                ""
            };
            let title = format!(
                "Attack {} with your {} (attack {base}, {} unused{strike_back})",
                cx.unit_at(t),
                cx.unit(mine(slot)),
                plural(usize::from(free), "move/attack die", "move/attack dice")
            );
            let power = base.saturating_add(dice);
            let defense = s.unit(t).map_or(0, |x| {
                x.defense.saturating_add(home_field(s, t.owner, x.tile))
            });
            let dealt = if defense >= power {
                format!("{} damage (halved: defense {defense})", power / 2)
            } else {
                format!("{power} damage")
            };
            let adding = if dice > 0 {
                format!(" (adding {})", plural(usize::from(dice), "die", "dice"))
            } else {
                String::new()
            };
            (Rank::Main, title, format!("power {power}{adding}: {dealt}"))
        }
        Action::EndActions => (
            Rank::End,
            "End this step".to_owned(),
            "End movement and attacks (on to Call to War)".to_owned(),
        ),
        Action::Summon { slot, clan } => (
            Rank::Main,
            horns_title,
            format!(
                "Spend 3 horns of your {} to call your {} onto {}",
                cx.unit(mine(slot)),
                cx.unit(mine(clan)),
                unit_tile(slot)
            ),
        ),
        Action::DrawCards { slot } => (
            Rank::Main,
            horns_title,
            format!(
                "Spend 2 horns of your {} to draw two ability cards and keep one",
                cx.unit(mine(slot))
            ),
        ),
        Action::Empower {
            slot,
            clan,
            learned,
        } => {
            let u = s.unit(mine(clan));
            let ability = if learned {
                u.and_then(|u| u.learned)
                    .and_then(data::card)
                    .map(|(_, a)| (a, u.map_or(0, |u| u.learned_charge)))
            } else {
                s.tribe_of(seat)
                    .innate(clan)
                    .map(|a| (a, u.map_or(0, |u| u.innate_charge)))
            };
            let what = ability.map_or_else(String::new, |(a, have)| {
                format!(" {} ({})", a.name, charge(have, a.cost))
            });
            (
                Rank::Main,
                horns_title,
                format!(
                    "Spend 3 horns of your {} to fill your {} {}{what}",
                    cx.unit(mine(slot)),
                    poss(&cx.unit(mine(clan))),
                    if learned { "Learned" } else { "innate" }
                ),
            )
        }
        Action::DrawFrom(d) => {
            let k = s.draw.as_ref().map_or(0, |d| d.drawn.len() + d.from.len()) + 1;
            let label = match d {
                Deck::Learned => format!(
                    "the Learned deck ({} left: attached to a unit, charged with crystals, cast again and again)",
                    s.deck_count(Deck::Learned)
                ),
                Deck::Secret => format!(
                    "the Secret deck ({} left: kept in hand, cast once with no charge)",
                    s.deck_count(Deck::Secret)
                ),
            };
            (Rank::Main, format!("Draw card {k} of 2 from"), label)
        }
        Action::KeepCard(i) => {
            let seen = s.current().is_some_and(|c| cx.viewer.sees_secrets_of(c));
            let label = s
                .draw
                .as_ref()
                .and_then(|d| d.drawn.get(i))
                .filter(|_| seen)
                .map_or_else(|| format!("drawn card {}", i + 1), |&c| card_text(c));
            (
                Rank::Main,
                "Keep one card (the other goes under its deck)".to_owned(),
                label,
            )
        }
        Action::Attach(slot) => {
            let card = s
                .draw
                .as_ref()
                .and_then(|d| d.attach)
                .map_or_else(|| "the kept card".to_owned(), data::card_name);
            let replaces = s
                .unit(mine(slot))
                .and_then(|u| u.learned)
                .map(|c| {
                    format!(
                        " (replaces its {}; its crystals are lost)",
                        data::card_name(c)
                    )
                })
                .unwrap_or_default();
            let bonus = if slot == 0 {
                " (Leader bonus applies)"
            } else {
                ""
            };
            (
                Rank::Main,
                format!("Attach the Learned card {card} to"),
                format!(
                    "{} on {}{bonus}{replaces}",
                    cx.unit(mine(slot)),
                    unit_tile(slot)
                ),
            )
        }
        Action::HoldLearned => (
            Rank::Main,
            "Or keep the Learned card".to_owned(),
            "Hold it in hand, to attach in a later Call to War (it cannot be charged until then)"
                .to_owned(),
        ),
        Action::AttachHeld { card, slot } => {
            let replaces = s
                .unit(mine(slot))
                .and_then(|u| u.learned)
                .map(|c| {
                    format!(
                        " (replaces its {}; its crystals are lost)",
                        data::card_name(c)
                    )
                })
                .unwrap_or_default();
            let bonus = if slot == 0 {
                " (Leader bonus applies)"
            } else {
                ""
            };
            (
                Rank::Main,
                format!(
                    "Attach the Learned card {} from your hand to",
                    data::card_name(card)
                ),
                format!(
                    "{} on {}{bonus}{replaces}",
                    cx.unit(mine(slot)),
                    unit_tile(slot)
                ),
            )
        }
        Action::EndCall => (
            Rank::End,
            "End this step".to_owned(),
            "End Call to War (on to charging abilities)".to_owned(),
        ),
        Action::Charge { slot, learned } => {
            let reserve = s.player(seat).map_or(0, |p| usize::from(p.reserve));
            let u = s.unit(mine(slot));
            let what = if learned {
                u.and_then(|u| u.learned)
                    .and_then(data::card)
                    .map(|(_, a)| (a, u.map_or(0, |u| u.learned_charge)))
            } else {
                s.tribe_of(seat)
                    .innate(slot)
                    .map(|a| (a, u.map_or(0, |u| u.innate_charge)))
            };
            let ability = what.map_or_else(String::new, |(a, have)| {
                format!(" {} ({})", a.name, charge(have, a.cost))
            });
            (
                Rank::Main,
                format!(
                    "Put a crystal from your reserve ({} left) on",
                    plural(reserve, "crystal", "crystals")
                ),
                format!(
                    "your {} {}{ability}",
                    poss(&cx.unit(mine(slot))),
                    if learned { "Learned" } else { "innate" }
                ),
            )
        }
        Action::EndCharge => {
            let reserve = s.player(seat).map_or(0, |p| usize::from(p.reserve));
            (
                Rank::End,
                "End this step".to_owned(),
                match reserve {
                    0 => "End your turn".to_owned(),
                    1 => "End your turn (the crystal left in reserve is lost)".to_owned(),
                    n => format!("End your turn (the {n} crystals left in reserve are lost)"),
                },
            )
        }
        Action::Cast(c) => cast(cx, seat, &c),
        Action::Pass => (
            Rank::Answer,
            "Answer".to_owned(),
            "Pass: cast nothing now".to_owned(),
        ),
        Action::OfferAlliance(other) => (
            Rank::Alliance,
            "Temporary alliances".to_owned(),
            format!("Offer {} a temporary alliance", cx.who(other)),
        ),
        Action::AcceptAlliance | Action::DeclineAlliance => {
            let from = s.offer.map_or_else(String::new, |(f, _)| cx.who(f));
            let label = if *action == Action::AcceptAlliance {
                format!("Accept: {from} and you are allies until one of you ends it")
            } else {
                "Decline".to_owned()
            };
            (
                Rank::Answer,
                format!("Temporary alliance offered by {from}"),
                label,
            )
        }
        Action::EndAlliance(other) => (
            Rank::Alliance,
            "Temporary alliances".to_owned(),
            format!("End the alliance with {}", cx.who(other)),
        ),
        Action::DealTribe(_)
        | Action::PlaceTile(_)
        | Action::SplitClans(_)
        | Action::FirstPlayer(_)
        | Action::RollDie(_)
        | Action::DrawCard(_) => (
            Rank::Main,
            String::new(),
            view::describe(s, Actor::Seat(seat), action, cx.viewer),
        ),
    }
}

/// A destination of a one-space move, with what is there.
fn move_label(cx: &Ctx, to: u8) -> String {
    let s = cx.state;
    let mut notes = Vec::new();
    if s.flipped(to) {
        notes.push("flipped: pass over only".to_owned());
    } else if s.is_mine(to) {
        notes.push("crystal mine: +1 crystal".to_owned());
    }
    let here = cx.occupants(to);
    if !here.is_empty() {
        notes.push(format!("{} there", here.join(", ")));
    }
    if notes.is_empty() {
        tile(to)
    } else {
        format!("{} ({})", tile(to), notes.join("; "))
    }
}

/// A cast: grouped by the ability cast (and, for a move, by the unit moved), labelled by its
/// target.
fn cast(cx: &Ctx, seat: Seat, c: &Cast) -> (Rank, String, String) {
    let what = cx
        .state
        .ability(seat, c.source)
        .map(|a| {
            let on_leader = matches!(c.source, Source::Learned(0));
            format!(" ({})", short(a, on_leader))
        })
        .unwrap_or_default();
    let ability = format!("Cast {}{what}", cx.source(seat, c.source));
    match c.target {
        Target::Move { unit, to } => (
            Rank::Cast,
            format!("{ability}: move {} to", cx.whose_unit(unit)),
            move_label(cx, to),
        ),
        _ => (Rank::Cast, format!("{ability} on"), target(cx, &c.target)),
    }
}
