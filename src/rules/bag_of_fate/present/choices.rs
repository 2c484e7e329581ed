//! A seat's legal actions as numbered choices, grouped by kind: characters, cards to play or
//! keep, the trade's steps, sets to turn in, and the plain "or" choices (end the turn, skip or
//! cancel) last.

use super::super::actions::Action;
use super::super::data::{Card, Character, CharacterAction, Element, TokenCount};
use super::super::state::{Phase, Player, State};
use super::words::{
    all_items, card_line, card_name, character_label, character_text, counted, item_element,
    item_icons, item_name, plural, reward_text, set_icons, wizard_clause,
};
use crate::rules::present::{complete, seat_name};
use crate::rules::{Actor, Choice, ChoiceGroup, Seat, Viewer};

/// Groups in the order they first appear, with the "Or" group last.
#[derive(Default)]
struct Groups {
    groups: Vec<ChoiceGroup>,
    or: Vec<Choice>,
}

impl Groups {
    fn add(&mut self, title: &str, number: usize, label: String) {
        let choice = Choice { number, label };
        match self.groups.iter_mut().find(|g| g.title == title) {
            Some(group) => group.choices.push(choice),
            None => self.groups.push(ChoiceGroup {
                title: title.to_owned(),
                choices: vec![choice],
            }),
        }
    }

    fn or(&mut self, number: usize, label: &str) {
        self.or.push(Choice {
            number,
            label: label.to_owned(),
        });
    }

    fn done(mut self) -> Vec<ChoiceGroup> {
        if !self.or.is_empty() {
            self.groups.push(ChoiceGroup {
                title: "Or".into(),
                choices: self.or,
            });
        }
        self.groups
    }
}

pub fn choices(
    state: &State,
    seat: Seat,
    actions: &[Action],
    names: &[String],
) -> Vec<ChoiceGroup> {
    let describe = |i: usize| {
        actions.get(i).map_or_else(String::new, |a| {
            super::super::view::describe(state, Actor::Seat(seat), a, Viewer::Seat(seat))
        })
    };
    let Some(player) = state.player(seat) else {
        return complete(Vec::new(), actions.len(), describe);
    };
    let partner = match state.phase {
        Phase::Trading { partner, .. } => partner,
        _ => None,
    };
    let partner_name = partner.map_or_else(|| "the other player".into(), |p| seat_name(names, p));
    let mut groups = Groups::default();
    // The first choice number of each card kind, so repeats say "the same as".
    let mut first_of: Vec<(Card, usize)> = Vec::new();
    let mut card_choice = |card: Card, number: usize, label: String| match first_of
        .iter()
        .find(|(c, _)| *c == card)
    {
        Some((_, first)) => format!("{}: the same as {first}", card_name(card)),
        None => {
            first_of.push((card, number));
            label
        }
    };
    for (i, action) in actions.iter().enumerate() {
        let number = i + 1;
        match action {
            Action::ChooseCharacter(c) => groups.add(
                "Choose a character (its number is your place in next round's turn order)",
                number,
                character_choice(state, seat, *c),
            ),
            Action::Play(card) => {
                let title = "Play a card from your hand, face up";
                let label = card_choice(*card, number, play_label(player, *card));
                groups.add(title, number, label);
            }
            Action::PlayAtRandom => groups.add(
                "Play a card from your hand, face up",
                number,
                "Play a card at random: chance draws it from your hand (what a deadline plays)"
                    .to_string(),
            ),
            Action::PlayCard(index) => {
                let title = "Play a card from your hand, face up";
                match player.hand.get(*index) {
                    Some(&card) => {
                        let label = card_choice(card, number, play_label(player, card));
                        groups.add(title, number, label);
                    }
                    None => groups.add(title, number, describe(i)),
                }
            }
            Action::KeepCard(index) => {
                let title = "Keep one of the cards you looked at (the others go to the discard pile)";
                match state.looked_at.get(*index) {
                    Some(&card) => {
                        let label = card_choice(card, number, card_line(card, None));
                        groups.add(title, number, label);
                    }
                    None => groups.add(title, number, describe(i)),
                }
            }
            Action::TradeWith(p) => groups.add(
                "Trade with (you pick one of their face-up cards or tokens, then give one of yours)",
                number,
                match state.player(*p) {
                    Some(other) => format!(
                        "{}: {}",
                        seat_name(names, *p),
                        counted(&all_items(other), item_name)
                    ),
                    None => seat_name(names, *p),
                },
            ),
            Action::TradeTake(item) => groups.add(
                &format!("Take from {partner_name}"),
                number,
                format!(
                    "{}: {}",
                    item_name(*item),
                    change(player, item_element(*item), item_icons(*item, item_element(*item)), 0)
                ),
            ),
            Action::TradeGive(give) => {
                let take = match state.phase {
                    Phase::Trading { take, .. } => take,
                    _ => None,
                };
                let title = match take {
                    Some(take) => format!(
                        "Give {partner_name} in return for their {}",
                        item_name(take)
                    ),
                    None => format!("Give {partner_name}"),
                };
                let element = item_element(*give);
                let gained = take.map_or(0, |t| item_icons(t, element));
                groups.add(
                    &title,
                    number,
                    format!(
                        "{}: {}",
                        item_name(*give),
                        change(player, element, gained, item_icons(*give, element))
                    ),
                );
            }
            Action::TurnIn(element) => groups.add(
                "Turn in a set (then you put its cards and tokens in, one at a time)",
                number,
                format!(
                    "{}: you show {} of the {} needed, for {}",
                    element.name(),
                    player.icons(*element),
                    element.set_size(),
                    reward_text(*element)
                ),
            ),
            Action::AddCard(card) => {
                let (title, suffix) = set_step(state, u32::from(card.icons));
                groups.add(&title, number, format!("{}{suffix}", card_name(*card)));
            }
            Action::AddToken => {
                let (title, suffix) = set_step(state, 1);
                let element = match state.phase {
                    Phase::BuildingSet { element, .. } => Some(element),
                    _ => None,
                };
                let label = match element {
                    Some(e) => {
                        let left = player.tokens.iter().filter(|&&t| t == e).count();
                        format!(
                            "a {} token (you have {}){suffix}",
                            e.name(),
                            left
                        )
                    }
                    None => format!("a token{suffix}"),
                };
                groups.add(&title, number, label);
            }
            // Never listed, so never logged or shown (ruling 13; see `label.rs`).
            Action::SkipTrade => groups.or(number, "Don't trade"),
            Action::CancelTrade => groups.or(
                number,
                "Cancel: start the trade over (with another player, or the same)",
            ),
            Action::CancelSet => groups.or(number, "Stop: take the set back, nothing is turned in"),
            Action::EndTurn => groups.or(number, "End your turn"),
            Action::PlaceTurnMarker(_)
            | Action::DrawCard(_)
            | Action::DrawToken(_)
            | Action::RandomPlay(_) => {
                groups.add("Other choices", number, describe(i));
            }
        }
    }
    complete(groups.done(), actions.len(), describe)
}

/// "Queen (1): draw 1 card, play 1 card"; the Wizard's label adds the odds now.
fn character_choice(state: &State, seat: Seat, character: Character) -> String {
    let text = format!(
        "{}: {}",
        character_label(character),
        character_text(character)
    );
    let level = state.player(seat).map_or(0, |p| p.level);
    if character == Character::Wizard {
        format!("{text}. Your chance: {}", wizard_clause(state, seat))
    } else if character
        .actions()
        .contains(&CharacterAction::DrawTokens(TokenCount::Level))
    {
        format!(
            "{text} ({} at your level {level})",
            plural(level.into(), "token", "tokens")
        )
    } else {
        text
    }
}

/// "Snails card (2 icons): Snails 2 → 4 of 5" (", set ready" when it completes one).
fn play_label(player: &Player, card: Card) -> String {
    format!(
        "{}: {}",
        card_name(card),
        change(player, card.element, u32::from(card.icons), 0)
    )
}

/// "your Snails 2 → 4 of 5, set ready": what gaining and losing icons of `element` does.
fn change(player: &Player, element: Element, gained: u32, lost: u32) -> String {
    let before = player.icons(element);
    let after = before.saturating_add(gained).saturating_sub(lost);
    let need = element.set_size();
    let ready = if after >= need && before < need {
        ", set ready"
    } else {
        ""
    };
    format!(
        "your {} {before} → {after} of {need}{ready}",
        element.name()
    )
}

/// The title for adding to the set being built, and what adding `icons` does.
fn set_step(state: &State, icons: u32) -> (String, String) {
    let Phase::BuildingSet {
        element,
        cards,
        tokens,
    } = &state.phase
    else {
        return ("Add to the set".into(), String::new());
    };
    let so_far = set_icons(cards, *tokens);
    let need = element.set_size();
    let title = format!(
        "Add to the {} set ({so_far} of {need} icons so far)",
        element.name()
    );
    let after = so_far.saturating_add(icons);
    let suffix = if after >= need {
        format!(": completes it, {}", reward_text(*element))
    } else {
        format!(": {after} of {need}")
    };
    (title, suffix)
}
