//! Call to War, drawing cards, charging abilities.

use super::*;
use crate::rules::gnomes_and_wizards::data::{self, Deck};

/// Seat 0 with every die a horn on its Leader, standing on `t`, at the Call to War step.
fn at_call(t: TileId, horns: usize) -> State {
    let mut state = start(2);
    state.unit_mut(unit(0, 0)).unwrap().tile = Some(t);
    let mut faces = vec![Face::Horn; horns.min(4)];
    faces.resize(4, Face::Shield);
    roll_and_keep(&mut state, 0, &faces);
    for f in faces {
        decide(&mut state, 0, Action::Assign { face: f, slot: 0 });
    }
    decide(&mut state, 0, Action::EndActions);
    state
}

#[test]
fn three_horns_on_the_clans_tile_call_it() {
    // "To call a Clan, a unit must meet two conditions: 1. Spend three horns 2. Stand on the
    // tile matching the Clan you wish to call"
    let probe = start(2);
    let t = clan_tile(&probe, Tribe::Turquefoss, 2);
    let mut state = at_call(t, 3);
    assert_eq!(step_of(&state), Step::Call);
    assert!(!legal(&state, 0).contains(&Action::Summon { slot: 0, clan: 3 }));
    decide(&mut state, 0, Action::Summon { slot: 0, clan: 2 });
    let clan = state.unit(unit(0, 2)).unwrap();
    assert_eq!(clan.status, Status::Active);
    assert_eq!(clan.tile, Some(t));
    assert_eq!(state.unit(unit(0, 0)).unwrap().horns, 0);
}

#[test]
fn unused_horns_stay_on_the_unit() {
    // "These horns stay assigned directly to a specific unit."
    let probe = start(2);
    let t = clan_tile(&probe, Tribe::Turquefoss, 2);
    let state = at_call(t, 1);
    // Nothing to call with one horn: the step passes and the turn ends; the horn stays.
    assert_eq!(state.current(), Some(1));
    assert_eq!(state.unit(unit(0, 0)).unwrap().horns, 1);
}

#[test]
fn two_flipped_tiles_mean_the_clan_cannot_be_called() {
    // "If both tiles of a specific Clan have been flipped, units can no longer use the Call to
    // War action to activate ... that specific Clan."
    let probe = start(2);
    let t = clan_tile(&probe, Tribe::Turquefoss, 2);
    let mut state = at_call(t, 3);
    for x in state.geometry().ids() {
        if state
            .tile(x)
            .unwrap()
            .card
            .is_some_and(|c| c.tribe == Tribe::Turquefoss && c.clan == 2)
        {
            state.tiles[usize::from(x)].flipped = true;
        }
    }
    assert!(!legal(&state, 0).contains(&Action::Summon { slot: 0, clan: 2 }));
}

#[test]
fn two_horns_draw_two_and_keep_one_the_other_to_the_bottom() {
    // "Spend two horns to draw two. That player secretly looks at the cards drawn and chooses
    // one of them to keep, returning the other card to the bottom of it's respective deck."
    let probe = start(2);
    let (t, _) = inner_tile(&probe);
    let mut state = at_call(t, 2);
    decide(&mut state, 0, Action::DrawCards { slot: 0 });
    decide(&mut state, 0, Action::DrawFrom(Deck::Secret));
    chance(&mut state, Action::DrawCard(30));
    decide(&mut state, 0, Action::DrawFrom(Deck::Learned));
    chance(&mut state, Action::DrawCard(3));
    assert_eq!(
        legal(&state, 0),
        vec![Action::KeepCard(0), Action::KeepCard(1)]
    );
    decide(&mut state, 0, Action::KeepCard(0));
    assert_eq!(state.players[0].hand, vec![30]);
    assert_eq!(state.bottom_learned, vec![3]);
    assert_eq!(state.deck_count(Deck::Learned), data::LEARNED_CARDS);
    // The others see only a count.
    let v = Game::view(&state, crate::rules::Viewer::Seat(1));
    assert_eq!(v["players"][0]["hand"], serde_json::Value::Null);
    assert_eq!(v["players"][0]["hand_count"], 1);
}

#[test]
fn a_learned_card_is_attached_and_replaces_the_old_one() {
    // "Each unit can attach only one Learned Ability at a time." ... "Power Crystals that were
    // charging the previously attached ability are returned to the general pile"
    let probe = start(2);
    let (t, _) = inner_tile(&probe);
    let mut state = at_call(t, 2);
    {
        let u = state.unit_mut(unit(0, 0)).unwrap();
        u.learned = Some(0);
        u.learned_charge = 2;
    }
    decide(&mut state, 0, Action::DrawCards { slot: 0 });
    decide(&mut state, 0, Action::DrawFrom(Deck::Learned));
    chance(&mut state, Action::DrawCard(9));
    decide(&mut state, 0, Action::DrawFrom(Deck::Learned));
    chance(&mut state, Action::DrawCard(10));
    decide(&mut state, 0, Action::KeepCard(1));
    decide(&mut state, 0, Action::Attach(0));
    let u = state.unit(unit(0, 0)).unwrap();
    assert_eq!((u.learned, u.learned_charge), (Some(10), 0));
    assert_eq!(state.bottom_learned, vec![9, 0]);
}

#[test]
fn charging_from_the_reserve_loses_the_overflow() {
    // "If there are more Power Crystals than slots available to charge abilities, the
    // remainder of the Power Crystals go back to the general pile."
    let mut state = start(2);
    let (t, _) = inner_tile(&state);
    put(&mut state, unit(0, 1), t);
    five_dice(&mut state);
    roll_and_keep(&mut state, 0, &[Face::Crystal; 5]);
    assert_eq!(state.players[0].reserve, 5);
    decide(&mut state, 0, Action::EndActions);
    // No horns: Call to War passes by itself.
    assert_eq!(step_of(&state), Step::Charge);
    // The Toy Masters' innate costs 3.
    for _ in 0..3 {
        decide(
            &mut state,
            0,
            Action::Charge {
                slot: 1,
                learned: false,
            },
        );
    }
    // Full: no slot is left, the 2 left over are lost and the turn ends.
    assert_eq!(state.unit(unit(0, 1)).unwrap().innate_charge, 3);
    assert_eq!(state.current(), Some(1));
    assert_eq!(state.players[0].reserve, 0);
}

#[test]
fn leaders_have_no_innate_ability() {
    // "Leaders do not have an Innate Ability but each Clan does."
    let state = start(2);
    assert!(Tribe::Turquefoss.innate(0).is_none());
    assert!(state.players[0].tribe().innate(1).is_some());
}

#[test]
fn the_card_kept_is_seen_only_by_its_drawer() {
    // "That player secretly looks at the cards drawn and chooses one of them to keep" (review
    // Bug 1): the keep is logged for the drawer alone; the others are told which draw was kept
    // (its deck is public), never the card.
    let probe = start(2);
    let (t, _) = inner_tile(&probe);
    let mut state = at_call(t, 2);
    decide(&mut state, 0, Action::DrawCards { slot: 0 });
    decide(&mut state, 0, Action::DrawFrom(Deck::Secret));
    chance(&mut state, Action::DrawCard(24));
    decide(&mut state, 0, Action::DrawFrom(Deck::Secret));
    chance(&mut state, Action::DrawCard(25));
    let keep = Action::KeepCard(0);
    let actor = crate::rules::Actor::Seat(0);
    let visibility = Game::visibility(&state, actor, &keep);
    assert_eq!(visibility, crate::rules::Visibility::Seats(vec![0]));
    for viewer in [
        crate::rules::Viewer::Seat(1),
        crate::rules::Viewer::Spectator,
    ] {
        assert!(!visibility.allows(viewer));
        let line = Game::describe(&state, actor, &keep, viewer);
        assert!(
            !line.contains("Ambush") && !line.contains("Sneak Attack"),
            "{line}"
        );
    }
    assert!(
        Game::describe(&state, actor, &keep, crate::rules::Viewer::Everyone).contains("Ambush")
    );
}
