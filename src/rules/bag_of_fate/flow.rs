//! What happens without anyone deciding: skipped and forced steps, token resolution, the end
//! of a turn and the clean-up. After every action `advance` runs until the game waits for a
//! player or for chance again.

use super::data::{Character, CharacterAction, HAND_SIZE, LEVEL_CAP, Token, TokenCount};
use super::state::{Phase, State, put};
use crate::rules::Seat;

/// More automatic steps than any real position needs; a guard, never reached.
const MAX_AUTOMATIC_STEPS: usize = 10_000;

/// Performs automatic steps until a player or chance must act.
pub fn advance(state: &mut State) {
    for _ in 0..MAX_AUTOMATIC_STEPS {
        if !step(state) {
            return;
        }
    }
}

/// One automatic step; false when the game waits for a decision or a draw.
fn step(state: &mut State) -> bool {
    // "If the card deck runs out, shuffle the discards to create a new draw deck." With no
    // pre-shuffle, the discards simply become the unseen deck. From edition 2 this happens the
    // moment the last card is drawn (`reshuffle_if_run_out`, called by the draw) or, when
    // there was nothing to shuffle then, when a card is next wanted: the discards made since
    // then become the deck together, not the first of them alone (ruling 6). Before
    // edition 2, whenever the deck was empty and the discard pile was not.
    if state.deck.is_empty()
        && !state.discards.is_empty()
        && (state.edition < 2 || card_wanted(state))
    {
        reshuffle(state);
        return true;
    }
    match state.phase.clone() {
        Phase::Dealing => {
            let dealt: usize = state.players.iter().map(|p| p.hand.len()).sum();
            if dealt < HAND_SIZE * state.seats() && !state.deck.is_empty() {
                return false;
            }
            state.phase = Phase::PlacingMarkers;
            true
        }
        Phase::PlacingMarkers => {
            match state.unplaced_markers().as_slice() {
                // The last marker has only one place to go.
                [last] => place_marker(state, *last),
                [] => {
                    state.phase = Phase::ChoosingCharacter;
                    state.round = 1;
                    state.turn = 0;
                }
                _ => return false,
            }
            true
        }
        Phase::Acting { action, done } => act(state, action, done),
        Phase::TurningIn => {
            let can_turn_in = state
                .current_seat()
                .and_then(|s| state.player(s))
                .is_some_and(|p| !p.completable().is_empty());
            if can_turn_in {
                return false;
            }
            end_turn(state);
            true
        }
        Phase::ChoosingCharacter
        | Phase::Trading { .. }
        | Phase::BuildingSet { .. }
        | Phase::Over { .. } => false,
    }
}

/// The discard pile becomes the (empty) deck: nothing to shuffle, every draw is a chance
/// step over the unseen cards.
fn reshuffle(state: &mut State) {
    state.deck = std::mem::take(&mut state.discards);
}

/// After a card is drawn (edition 2): "If the card deck runs out, shuffle the discards to
/// create a new draw deck." (l.196) The moment the deck runs out, the discards there are
/// become the deck; with none, the deck stays run out until a card is wanted (ruling 6).
pub fn reshuffle_if_run_out(state: &mut State) {
    if state.edition >= 2 && state.deck.is_empty() && !state.discards.is_empty() {
        reshuffle(state);
    }
}

/// Whether a card is to be drawn (dealt, drawn or looked at) now.
fn card_wanted(state: &State) -> bool {
    match state.phase {
        Phase::Dealing => true,
        Phase::Acting { done, .. } => matches!(
            state.current_action(),
            Some(CharacterAction::DrawCards(n) | CharacterAction::LookAtCards(n)) if done < n
        ),
        _ => false,
    }
}

/// Puts `seat`'s turn marker on the next free space of the turn order track.
pub fn place_marker(state: &mut State, seat: Seat) {
    let space = u8::try_from(state.next_marker_space()).unwrap_or(u8::MAX);
    if let Some(player) = state.players.get_mut(seat) {
        player.turn_marker = Some(space);
    }
}

/// The automatic part of action number `action` of the current character.
fn act(state: &mut State, action: usize, done: u8) -> bool {
    let Some(seat) = state.current_seat() else {
        return false;
    };
    let Some(character) = state.current_character() else {
        return false;
    };
    let Some(&current) = character.actions().get(action) else {
        // All actions done.
        if character.turns_in_sets() {
            state.phase = Phase::TurningIn;
        } else {
            end_turn(state);
        }
        return true;
    };
    let level = state.player(seat).map_or(0, |p| p.level);
    match current {
        CharacterAction::DrawCards(n) | CharacterAction::LookAtCards(n) => {
            // "Draw a card" with deck and discards both empty is skipped.
            if done < n && !state.deck.is_empty() {
                return false;
            }
        }
        // Kept without asking only when one card was looked at: how many were is public, what
        // they are is not; cards all alike are still asked for, or the discards would name the
        // card kept (ruling 15).
        CharacterAction::KeepOneLookedAt => match state.looked_at.len() {
            0 => {}
            1 => keep_looked_at(state, seat, 0),
            _ => return false,
        },
        CharacterAction::PlayCards(n) => {
            // "Play a card" with an empty hand is skipped. Otherwise the player is always asked,
            // even with one card or one kind of card: a card played for them would tell the
            // table what the rest of the hand is, or show a card chosen by no one (ruling 15).
            let holds = state.player(seat).is_some_and(|p| !p.hand.is_empty());
            if done < n && holds {
                return false;
            }
        }
        CharacterAction::Trade => {
            let can_trade = state.player(seat).is_some_and(|p| p.has_items())
                && state
                    .players
                    .iter()
                    .enumerate()
                    .any(|(s, p)| s != seat && p.has_items());
            if can_trade {
                state.phase = Phase::Trading {
                    action,
                    partner: None,
                    take: None,
                };
                return true;
            }
        }
        CharacterAction::DrawTokens(count) => {
            let wanted = match count {
                TokenCount::Fixed(n) => n,
                TokenCount::Level => level,
            };
            if done < wanted && !state.bag.is_empty() {
                return false;
            }
            resolve_tokens(state, seat);
        }
        CharacterAction::WizardDraw => {
            if done < level && !state.bag.is_empty() {
                return false;
            }
            // "If the game is not over, return ALL tokens to the Bag of Fate."
            for token in std::mem::take(&mut state.drawn) {
                put(&mut state.bag, token);
            }
        }
    }
    next_action(state, action);
    true
}

pub fn next_action(state: &mut State, action: usize) {
    state.phase = Phase::Acting {
        action: action.saturating_add(1),
        done: 0,
    };
}

/// The Oracle keeps looked-at card `index` and discards the others (face up: public).
pub fn keep_looked_at(state: &mut State, seat: Seat, index: usize) {
    let mut looked = std::mem::take(&mut state.looked_at);
    if index < looked.len() {
        let kept = looked.remove(index);
        if let Some(player) = state.players.get_mut(seat) {
            put(&mut player.hand, kept);
        }
    }
    for card in looked {
        put(&mut state.discards, card);
    }
}

/// Resolves the drawn tokens for the Apprentice, Farmer or Hunter: Add-a-Gem adds a gem,
/// Level-Up raises the level, element tokens are kept, gems do nothing; all but the kept
/// element tokens go back into the bag.
fn resolve_tokens(state: &mut State, seat: Seat) {
    for token in std::mem::take(&mut state.drawn) {
        let Some(player) = state.players.get_mut(seat) else {
            return;
        };
        match token {
            Token::Element(element) => {
                put(&mut player.tokens, element);
                continue;
            }
            Token::AddAGem => {
                if player.gems > 0 {
                    player.gems -= 1;
                    put(&mut state.bag, Token::Gem(seat));
                }
            }
            Token::LevelUp => player.level = player.level.saturating_add(1).min(LEVEL_CAP),
            Token::Gem(_) => {}
        }
        put(&mut state.bag, token);
    }
}

/// Ends the current player's turn; after the last turn of the round, cleans up.
pub fn end_turn(state: &mut State) {
    state.turn = state.turn.saturating_add(1);
    state.phase = Phase::ChoosingCharacter;
    if state.turn >= state.seats() {
        clean_up(state);
    }
}

/// "Each player looks at the number shown on their Character Tile ... and places their Turn
/// Marker on that number ... Return all Character Tiles to the Character Row."
fn clean_up(state: &mut State) {
    for player in &mut state.players {
        if let Some(character) = player.character.take() {
            player.turn_marker = Some(character.number());
        }
    }
    state.turn = 0;
    state.round = state.round.saturating_add(1);
}

/// Whether `seat` may choose `character`: any tile not taken this round. "The first player will
/// have all seven Characters to choose from", so the Wizard is open even to a player with no gem
/// in the bag (who cannot win with him, but keeps him from the others).
pub fn may_choose(state: &State, _seat: Seat, character: Character) -> bool {
    state.character_holder(character).is_none()
}
