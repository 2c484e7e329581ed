//! A seat's legal actions as numbered choices, grouped the way a player thinks of them: moves
//! (with the square each leads to), picking up and dropping, spells to cast, items, attacks,
//! ending spells, and the end of the step; while casting, the targets (wizards, squares by
//! row, sides of a square) and the energy; in a reaction window, the counters and pass.

use super::super::actions::Action;
use super::super::board::{Dir, EdgeKind, Pos};
use super::super::cards::{Aim, CardId, Effect};
use super::super::state::{DRAWS, How, State, Target};
use super::{line_words, seat_name, spell_words, sq, target_words};
use crate::rules::present::{complete, groups_with_names};
use crate::rules::{Actor, Choice, ChoiceGroup, Seat, Viewer};

/// Group ranks: the order groups are shown in.
const ANSWER: u8 = 0;
const LIMIT: u8 = 1;
const TARGET: u8 = 2;
const ENERGY: u8 = 3;
const MOVE: u8 = 4;
const PICK: u8 = 5;
const CAST: u8 = 6;
const PLAY: u8 = 7;
const ATTACK: u8 = 8;
const SPEED: u8 = 9;
const DISCARD: u8 = 10;
const DRAW: u8 = 11;
const DROP: u8 = 12;
const END_SPELL: u8 = 13;
const FINISH: u8 = 14;

pub fn choices(
    state: &State,
    seat: Seat,
    actions: &[Action],
    names: &[String],
) -> Vec<ChoiceGroup> {
    let viewer = Viewer::Seat(seat);
    let ctx = Context::new(state, seat, actions);
    // (rank, title) of each group in order of first appearance, with its choices.
    let mut groups: Vec<((u8, String), Vec<Choice>)> = Vec::new();
    for (i, action) in actions.iter().enumerate() {
        let (rank, title, label) = ctx.choice(names, viewer, action);
        let choice = Choice {
            number: i + 1,
            label,
        };
        match groups.iter_mut().find(|(k, _)| k.0 == rank && k.1 == title) {
            Some((_, list)) => list.push(choice),
            None => groups.push(((rank, title), vec![choice])),
        }
    }
    groups.sort_by_key(|((rank, _), _)| *rank);
    let groups: Vec<ChoiceGroup> = groups
        .into_iter()
        .map(|((_, title), choices)| ChoiceGroup { title, choices })
        .collect();
    let groups = complete(groups, actions.len(), |i| {
        actions.get(i).map_or_else(String::new, |a| {
            super::super::view::describe(state, Actor::Seat(seat), a, viewer)
        })
    });
    groups_with_names(groups, names)
}

struct Context<'a> {
    state: &'a State,
    seat: Seat,
    over_limit: bool,
    /// Whether the targets offered are many squares (then grouped by row).
    many_squares: bool,
    /// Wizard targets reachable only around the corner.
    bent: Vec<Target>,
    /// Energy added to every spell the seat casts (Powerstones).
    stones: u8,
}

impl<'a> Context<'a> {
    fn new(state: &'a State, seat: Seat, actions: &[Action]) -> Self {
        let squares = actions
            .iter()
            .filter(|a| matches!(a, Action::Target(Target::Square(_))))
            .count();
        let bent = match &state.casting {
            Some(c)
                if c.target.is_none()
                    && c.how == How::Cast
                    && state.wizard(seat).is_some_and(|w| {
                        w.hand.iter().any(|h| h.effect() == Effect::AroundTheCorner)
                    }) =>
            {
                super::super::cast::targets(state, seat, c.card, c.how, c.square)
                    .into_iter()
                    .filter(|(_, bent)| *bent)
                    .map(|(t, _)| t)
                    .collect()
            }
            _ => Vec::new(),
        };
        Context {
            state,
            seat,
            over_limit: state.over_limit() == Some(seat),
            many_squares: squares > 12,
            bent,
            stones: u8::try_from(state.carries(seat, Effect::Powerstone)).unwrap_or(0),
        }
    }

    fn choice(&self, names: &[String], viewer: Viewer, action: &Action) -> (u8, String, String) {
        let state = self.state;
        let seat = self.seat;
        let t = |s: &str| s.to_owned();
        match action {
            Action::Move(d) => (MOVE, self.move_title(), self.move_label(*d)),
            Action::PickUp(id) => {
                let what = state
                    .objects
                    .iter()
                    .find(|o| o.id == *id)
                    .map_or_else(|| format!("object #{id}"), |o| o.card.name());
                let cost = if state.maintains(seat, Effect::Homonculus) {
                    "free with your Homonculus"
                } else {
                    "1 movement point"
                };
                (
                    PICK,
                    t("Pick up or drop here"),
                    format!("Pick up {what} ({cost})"),
                )
            }
            Action::PickUpTreasure(i) => {
                let whose = state.treasures.get(*i).map_or_else(
                    || format!("treasure #{i}"),
                    |tr| {
                        format!(
                            "{}'s {} treasure",
                            seat_name(names, tr.owner),
                            state.colour(tr.owner)
                        )
                    },
                );
                (
                    PICK,
                    t("Pick up or drop here"),
                    format!("Pick up {whose} (ends your move and cast)"),
                )
            }
            Action::DropTreasure => (
                PICK,
                t("Pick up or drop here"),
                t("Drop the treasure you carry (free)"),
            ),
            Action::Drop(c) if self.over_limit => (
                LIMIT,
                t("Over the hand limit: drop a carried item here"),
                c.name(),
            ),
            Action::Drop(c) => (DROP, t("Drop a carried item here (free)"), c.name()),
            Action::Speed(c) => (
                SPEED,
                t("Spend an energy card for movement"),
                format!("{} (+{} movement points)", c.name(), c.energy_value()),
            ),
            Action::Cast(c) => (
                CAST,
                t("Cast a spell from your hand (its target and energy come next)"),
                cast_label(*c),
            ),
            Action::Play(c) => (
                PLAY,
                t("Play an item from your hand (you carry it face up)"),
                c.name(),
            ),
            Action::Throw(c) => (
                ATTACK,
                t("Attack (your one attack this turn)"),
                format!("Throw {} (choose the target next)", c.name()),
            ),
            Action::Wield(c) => (
                ATTACK,
                t("Attack (your one attack this turn)"),
                format!("Attack with {} (choose the target next)", c.name()),
            ),
            Action::Punch(s) => (
                ATTACK,
                if state.turn.attacked {
                    t("Attack (Extra Arms: one more punch)")
                } else {
                    t("Attack (your one attack this turn)")
                },
                format!(
                    "Punch {} ({} damage{})",
                    target_words(state, names, viewer, &Target::Wizard(*s)),
                    self.punch_damage(),
                    match state.form(*s) {
                        Some(f) if f.evades_up_to > 0 => format!(
                            "; a {} misses on 1-{} of the die",
                            f.name.to_lowercase(),
                            f.evades_up_to
                        ),
                        _ => String::new(),
                    }
                ),
            ),
            Action::Target(target) => self.target_choice(names, viewer, target),
            Action::Boost(c) => (
                ENERGY,
                self.energy_title(),
                format!(
                    "Boost with {}: energy {}",
                    c.name(),
                    c.energy_value().saturating_add(self.stones)
                ),
            ),
            Action::BoostAdd(a, b) => (
                ENERGY,
                self.energy_title(),
                format!(
                    "Boost with {} + {} and Add: energy {}",
                    a.name(),
                    b.name(),
                    a.energy_value()
                        .saturating_add(b.energy_value())
                        .saturating_add(self.stones)
                ),
            ),
            Action::NoBoost => (
                ENERGY,
                self.energy_title(),
                format!("No boost: energy {}", 1u8.saturating_add(self.stones)),
            ),
            Action::CancelCast => (
                FINISH,
                t("Or change your mind"),
                match state.casting.as_ref().map(|c| c.how) {
                    // A named spell is committed from edition 1 (ruling 32).
                    Some(How::Cast) if state.options.edition >= 1 => {
                        t("Give up this spell (the card is discarded)")
                    }
                    Some(How::Cast) | None => t("Take the spell back (cancel this cast)"),
                    Some(_) => t("Cancel this attack"),
                },
            ),
            Action::EndSpell(id) => {
                let title = if self.over_limit {
                    (LIMIT, t("Over the hand limit: end one of your spells"))
                } else {
                    (
                        END_SPELL,
                        t("End one of your spells in play (its card is discarded)"),
                    )
                };
                (title.0, title.1, spell_words(state, names, viewer, *id))
            }
            Action::EndMove => (
                FINISH,
                t("Finish"),
                t("End move and cast (go on to discard and draw)"),
            ),
            Action::Discard(c) if self.over_limit => (LIMIT, self.discard_title(), c.name()),
            Action::DiscardAtRandom => (
                LIMIT,
                self.discard_title(),
                t("A card at random: chance draws it from your hand (what a deadline discards)"),
            ),
            Action::Discard(c) if state.phase == super::super::state::Phase::MoveAndCast => (
                PICK,
                format!(
                    "Make room to pick up an object here ({} of your hand limit of {}): discard a card",
                    state.hand_total(seat),
                    state.hand_limit(seat)
                ),
                c.name(),
            ),
            Action::Discard(c) => (
                DISCARD,
                t("Discard a card (only before your first draw)"),
                c.name(),
            ),
            Action::DrawCard => {
                let most = if state.carries(seat, Effect::Brainstone) > 0 {
                    DRAWS + 1
                } else {
                    DRAWS
                };
                (
                    DRAW,
                    t("Draw"),
                    format!(
                        "Draw a card ({} more allowed; {} of your hand limit of {})",
                        most.saturating_sub(state.turn.drawn),
                        state.hand_total(seat),
                        state.hand_limit(seat)
                    ),
                )
            }
            Action::EndTurn => (FINISH, t("Finish"), t("End your turn")),
            Action::Counter(c) => (ANSWER, self.answer_title(names, viewer), counter_label(*c)),
            Action::CounterToward(c, d) => (
                ANSWER,
                self.answer_title(names, viewer),
                format!("{}, drifting {}", counter_label(*c), d.name()),
            ),
            Action::Pass => (
                ANSWER,
                self.answer_title(names, viewer),
                t("Pass (let it take effect)"),
            ),
            other => (
                FINISH,
                t("Other choices"),
                super::super::view::describe(state, Actor::Seat(seat), other, viewer),
            ),
        }
    }

    /// The group of discards over the hand limit.
    fn discard_title(&self) -> String {
        format!(
            "Over the hand limit ({} of {}): discard a card",
            self.state.hand_total(self.seat),
            self.state.hand_limit(self.seat)
        )
    }

    fn move_title(&self) -> String {
        let mp = self.state.turn.movement;
        let at = self
            .state
            .pos(self.seat)
            .map(|p| format!(" from {}", sq(p)))
            .unwrap_or_default();
        format!(
            "Move one square{at} ({mp} movement point{} left)",
            if mp == 1 { "" } else { "s" }
        )
    }

    fn move_label(&self, d: Dir) -> String {
        let state = self.state;
        let Some(at) = state.pos(self.seat) else {
            return d.name().to_owned();
        };
        let Some((q, _)) = state.board.across(at, d) else {
            return d.name().to_owned();
        };
        let mut label = format!("{} to {}", d.name(), sq(q));
        if !state.board.exists(at.step(d)) {
            let portal = state
                .board
                .links
                .iter()
                .any(|l| l.from == at && l.dir == d && l.portal);
            label.push_str(if portal {
                " (through the portal)"
            } else {
                " (wraps around the board)"
            });
        }
        let not_mine = |spell: u32| {
            state
                .spells
                .iter()
                .find(|s| s.id == spell)
                .is_none_or(|s| s.caster != self.seat)
        };
        if let Some(c) = state.board.edge(at, d).and_then(|e| e.created)
            && c.card.effect() == Effect::WallOfFire
            && not_mine(c.spell)
        {
            label.push_str(&format!(
                ", through the Wall of Fire: {} damage",
                c.card.power()
            ));
        }
        if let Some(o) = state.objects.iter().find(|o| {
            o.at == q && o.card.effect() == Effect::StoneSpikes && o.spell.is_none_or(&not_mine)
        }) {
            label.push_str(&format!(", onto Stone Spikes: {} damage", o.card.power()));
        }
        if let Some(c) = state.board.edge(at, d).map(|e| e.kind)
            && let EdgeKind::Door(s) = c
            && s != self.seat
        {
            label.push_str(&format!(" (through the {} door)", state.colour(s)));
        }
        label
    }

    /// The punch's damage in words: "1", or "d4 + 2" when a die is rolled (Werewolf).
    fn punch_damage(&self) -> String {
        let (fixed, die) = self.state.punch_damage(self.seat);
        match (die, fixed) {
            (0, n) => n.to_string(),
            (d, n) if n > 0 => format!("d{d} + {n}"),
            (d, _) => format!("d{d}"),
        }
    }

    fn card_in_hand_name(&self) -> String {
        self.state
            .casting
            .as_ref()
            .map_or_else(|| "The spell".to_owned(), |c| c.card.name())
    }

    fn energy_title(&self) -> String {
        let stones = if self.stones > 0 {
            format!(", +{} from your Powerstones", self.stones)
        } else {
            String::new()
        };
        format!(
            "{}: its energy (one energy card replaces the base 1{stones})",
            self.card_in_hand_name()
        )
    }

    fn answer_title(&self, names: &[String], viewer: Viewer) -> String {
        let Some(top) = self.state.stack.last() else {
            return "Answer".to_owned();
        };
        let aim = match top.target {
            Target::Wizard(s) | Target::WizardToward(s, _) if s == self.seat => {
                " at you".to_owned()
            }
            Target::None => String::new(),
            t => format!(" on {}", target_words(self.state, names, viewer, &t)),
        };
        if top.counter {
            format!(
                "Answer {}'s {} (a counter spell)",
                seat_name(names, top.by),
                top.card.name()
            )
        } else {
            format!(
                "Answer {}'s {}{aim} (energy {})",
                seat_name(names, top.by),
                top.card.name(),
                top.energy
            )
        }
    }

    fn target_choice(
        &self,
        names: &[String],
        viewer: Viewer,
        target: &Target,
    ) -> (u8, String, String) {
        let state = self.state;
        let card = self.card_in_hand_name();
        let casting = state.casting.as_ref();
        let verb = match casting.map(|c| c.how) {
            Some(How::Throw) => format!("Throw {card} at"),
            Some(How::Weapon) => format!("Attack with {card}:"),
            _ => format!("{card}: target"),
        };
        let lines = casting
            .and_then(|c| c.card.def())
            .is_some_and(|d| matches!(d.aim, Aim::BorderLine | Aim::Wall | Aim::WizardOrWall));
        let (rank, title, mut label) =
            self.plain_target_choice(names, viewer, target, &verb, lines);
        if self.bent.contains(target) {
            label.push_str(" (around the corner: spends your Around the Corner)");
        }
        (rank, title, label)
    }

    fn plain_target_choice(
        &self,
        names: &[String],
        viewer: Viewer,
        target: &Target,
        verb: &str,
        lines: bool,
    ) -> (u8, String, String) {
        let state = self.state;
        let card = self.card_in_hand_name();
        let casting = state.casting.as_ref();
        let verb = verb.to_owned();
        match *target {
            Target::Square(p) if lines && casting.is_some_and(|c| c.square.is_none()) => (
                TARGET,
                format!("{card}: the square beside the wall or line (its side comes next)"),
                sq(p),
            ),
            Target::Square(p) if self.many_squares => (
                TARGET,
                format!("{card}: a square in row {}", i32::from(p.1) + 1),
                sq(p),
            ),
            Target::Square(p) => (TARGET, format!("{card}: which square"), sq(p)),
            Target::Side(p, d) => (
                TARGET,
                format!("{card}: which side of {}", sq(p)),
                format!(
                    "{} side: {} ({})",
                    d.name(),
                    line_words(state, p, d),
                    line_kind(state, p, d)
                ),
            ),
            Target::Wizard(s) => {
                let mut label = target_words(state, names, viewer, target);
                let effect = casting.map(|c| c.card.effect());
                if matches!(effect, Some(Effect::BrainBurn | Effect::ThoughtSteal))
                    && let Some(w) = state.wizard(s)
                {
                    label.push_str(&format!(" ({} cards in hand)", w.hand.len()));
                }
                (TARGET, verb, label)
            }
            Target::Rotate(..) => (
                TARGET,
                format!("{card}: which sector, and how far"),
                target_words(state, names, viewer, target),
            ),
            _ => (TARGET, verb, target_words(state, names, viewer, target)),
        }
    }
}

/// What stands on a line now, for choosing a side.
fn line_kind(state: &State, p: Pos, d: Dir) -> String {
    let Some(e) = state.board.edge(p, d) else {
        return "no line".to_owned();
    };
    if let Some(c) = e.created {
        return c.card.name();
    }
    let kind = match e.kind {
        EdgeKind::Open => return "open".to_owned(),
        EdgeKind::Wall => "wall".to_owned(),
        EdgeKind::Outer => "outer wall".to_owned(),
        EdgeKind::Door(s) => format!("{} door", state.colour(s)),
    };
    if e.destroyed {
        format!("destroyed {kind}, open")
    } else if e.cracks > 0 {
        format!("{kind}, {} cracks", e.cracks)
    } else {
        kind
    }
}

fn cast_label(c: CardId) -> String {
    match c.kind() {
        Some(k) => format!("{} ({})", c.name(), super::cards::kind_words(k)),
        None => c.name(),
    }
}

fn counter_label(c: CardId) -> String {
    let what = match c.effect() {
        Effect::AbsorbSpell => ": cancel it and take its card",
        Effect::Featherweight => ": cancel it and drift away",
        Effect::Backlash => ": cancel it and strike its caster",
        Effect::Zot
        | Effect::NegateNeutral
        | Effect::FullShield
        | Effect::Shield
        | Effect::AntiAnti => ": cancel it",
        _ => "",
    };
    format!("Counter with {}{what}", c.name())
}
