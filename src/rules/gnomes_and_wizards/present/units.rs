//! Each tribe's units (stats, this turn, counters, abilities, Clans still to call) and the
//! Secret hands the viewer may see.

use super::super::data::{self, unit_stats};
use super::super::state::{Status, Step, Unit, UnitRef};
use super::text::{Ctx, and_list, card_text, charge, plural, short, tile, token};
use crate::rules::Section;

/// The tiles bearing `owner`'s Clan `clan`: "tiles 4 and 17", "tile 4; flipped: 17",
/// "no face-up tile; flipped: 4 and 17".
fn clan_tiles(cx: &Ctx, owner: usize, clan: u8) -> String {
    let s = cx.state;
    let tribe = s.player(owner).and_then(|p| p.tribe);
    let mut up = Vec::new();
    let mut down = Vec::new();
    for t in s.geometry().ids() {
        let is = s
            .tile(t)
            .and_then(|x| x.card)
            .is_some_and(|c| Some(c.tribe) == tribe && c.clan == clan);
        if is {
            if s.flipped(t) {
                down.push(t.to_string());
            } else {
                up.push(t.to_string());
            }
        }
    }
    let mut out = match up.len() {
        0 => "no face-up tile".to_owned(),
        1 => format!("tile {}", and_list(up)),
        _ => format!("tiles {}", and_list(up)),
    };
    if !down.is_empty() {
        out.push_str(&format!("; flipped: {}", and_list(down)));
    }
    if s.player(owner)
        .is_some_and(|p| p.uncallable.contains(&clan))
    {
        out.push_str("; both its tiles were flipped: it can no longer be called");
    }
    out
}

/// One line for a unit on the board.
fn unit_line(cx: &Ctx, owner: usize, u: &Unit) -> String {
    let s = cx.state;
    let r = UnitRef {
        owner,
        slot: u.slot,
    };
    let st = unit_stats(u.slot);
    let at = u.tile.map_or_else(|| "off the board".to_owned(), tile);
    let mut parts = vec![format!(
        "HP {}/{}, defense {} ({}-{}), move {}, attack {}",
        u.hp, st.hp, u.defense, st.min_defense, st.max_defense, st.movement, st.attack
    )];
    if u.horns > 0 {
        parts.push(plural(usize::from(u.horns), "horn", "horns"));
    }
    if s.current() == Some(owner) && matches!(s.step(), Some(Step::Act | Step::Assign)) {
        let mut turn = Vec::new();
        if u.dice > 0 {
            turn.push(format!(
                "{} ({} unused)",
                plural(usize::from(u.dice), "move/attack die", "move/attack dice"),
                u.free_dice()
            ));
        }
        if u.moved > 0 {
            turn.push(format!("moved {}", u.moved));
        }
        turn.push(format!(
            "{} left",
            plural(usize::from(u.movement_left()), "space", "spaces")
        ));
        if u.attacked {
            turn.push("has attacked".to_owned());
        }
        parts.push(format!("this turn: {}", turn.join(", ")));
    }
    for c in &u.counters {
        parts.push(format!("{} {}", token(c.token), cx.until(c.ring)));
    }
    if s.moving == Some(u.slot) && s.current() == Some(owner) {
        parts.push("moving now".to_owned());
    }
    format!("{} on {at}: {}.", cx.unit(r), parts.join("; "))
}

/// The unit's abilities, one line each, with their full text (abilities on the board are
/// public: a player reads what any unit can do without the docs).
fn ability_lines(cx: &Ctx, owner: usize, u: &Unit) -> Vec<String> {
    let s = cx.state;
    let full = owner < s.seats;
    let mut lines = Vec::new();
    if let Some(a) = s.tribe_of(owner).innate(u.slot) {
        let what = if full { a.text() } else { short(a, false) };
        lines.push(format!(
            "   - innate {}, {}: {what}",
            a.name,
            charge(u.innate_charge, a.cost)
        ));
    }
    if let Some(card) = u.learned {
        let line = match data::card(card) {
            Some((_, a)) => {
                let what = if full {
                    let bonus = if u.slot == 0 && a.leader_bonus > 0 {
                        " (It is on a Leader: the bonus applies.)"
                    } else {
                        ""
                    };
                    format!("{}{bonus}", a.text())
                } else {
                    short(a, u.slot == 0)
                };
                format!(
                    "   - Learned {}, {}: {what}",
                    a.name,
                    charge(u.learned_charge, a.cost)
                )
            }
            None => format!("   - Learned {}", data::card_name(card)),
        };
        lines.push(line);
    }
    lines
}

/// A section per tribe: the units on the board with their abilities, the Clans still to call
/// and the units defeated.
pub(super) fn units(cx: &Ctx) -> Vec<Section> {
    let s = cx.state;
    let mut out = Vec::new();
    for (owner, p) in s.players.iter().enumerate() {
        let Some(tribe) = p.tribe else { continue };
        let title = if cx.is_me(owner) {
            format!("Your units ({})", tribe.name())
        } else {
            format!("{}'s units ({})", cx.who_cap(owner), tribe.name())
        };
        let mut lines = Vec::new();
        for u in p.units.iter().filter(|u| u.on_board() || u.tile.is_some()) {
            lines.push(unit_line(cx, owner, u));
            if !p.automaton {
                lines.extend(ability_lines(cx, owner, u));
            }
        }
        let waiting: Vec<&Unit> = p
            .units
            .iter()
            .filter(|u| u.tile.is_none() && u.status != Status::Defeated)
            .collect();
        if !waiting.is_empty() {
            if cx.is_me(owner) {
                lines.push(
                    "Clans to call (3 horns on a unit standing on a face-up tile of the Clan):"
                        .to_owned(),
                );
                for u in waiting {
                    let r = UnitRef {
                        owner,
                        slot: u.slot,
                    };
                    let innate = tribe
                        .innate(u.slot)
                        .map(|a| format!(": {}, charge {}: {}", a.name, a.cost, short(a, false)))
                        .unwrap_or_default();
                    lines.push(format!(
                        "   - {} ({}){innate}",
                        cx.unit(r),
                        clan_tiles(cx, owner, u.slot)
                    ));
                }
            } else {
                let names: Vec<String> = waiting
                    .iter()
                    .map(|u| {
                        let r = UnitRef {
                            owner,
                            slot: u.slot,
                        };
                        format!("{} ({})", cx.unit(r), clan_tiles(cx, owner, u.slot))
                    })
                    .collect();
                lines.push(format!("Not called yet: {}.", names.join("; ")));
            }
        }
        let defeated: Vec<String> = p
            .units
            .iter()
            .filter(|u| u.status == Status::Defeated)
            .map(|u| {
                cx.unit(UnitRef {
                    owner,
                    slot: u.slot,
                })
            })
            .collect();
        if !defeated.is_empty() {
            lines.push(format!("Defeated: {}.", and_list(defeated)));
        }
        out.push(Section::new(title, lines));
    }
    out
}

/// The Secret hands the viewer may see (only their own; everyone's once all is shown).
pub(super) fn hands(cx: &Ctx) -> Vec<Section> {
    let s = cx.state;
    let mut out = Vec::new();
    for (owner, p) in s.players.iter().enumerate() {
        if owner >= s.seats || !cx.viewer.sees_secrets_of(owner) {
            continue;
        }
        let title = if cx.is_me(owner) {
            "Your hand (Secret cards)".to_owned()
        } else {
            format!("{}'s hand (Secret cards)", cx.who_cap(owner))
        };
        let mut lines: Vec<String> = p.hand.iter().map(|&c| card_text(c)).collect();
        if lines.is_empty() {
            lines.push("No Secret cards.".to_owned());
        } else {
            lines.push(
                "A Secret card is cast once with no charge; its range counts from any of your \
                 units on the board."
                    .to_owned(),
            );
        }
        if !p.learned_hand.is_empty() {
            lines.extend(
                p.learned_hand
                    .iter()
                    .map(|&c| format!("Held, to attach: {}", card_text(c))),
            );
            lines.push(
                "A Learned card held in hand is attached to a unit in a Call to War step, at no \
                 cost; it cannot be charged or cast until then."
                    .to_owned(),
            );
        }
        out.push(Section::new(title, lines));
    }
    out
}
