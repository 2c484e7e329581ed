//! The combat phase, including the rulebook's example battle with scripted dice.

use super::*;
use crate::rules::Viewer;

/// The rulebook's example battle: Rachel (Red, 3 gnomes, first player), Greg (Green, 3) and
/// Brian (Blue, 2) in the Frog Statue.
fn example_battle() -> State {
    let mut state = rulebook_table();
    place(&mut state, Red, FROG, 3);
    place(&mut state, Green, FROG, 3);
    place(&mut state, Blue, FROG, 2);
    place(&mut state, Yellow, YELLOW_HOME, 1);
    end_movements(&mut state);
    state
}

// "Rachel starts off, by attacking Brian with 2 and Greg with 1 dice. Greg then attacks Rachel
// with 3 dice. Brian attacks both Rachel and Greg with 1 dice each. [...] Resulting in Brian
// losing 1 Gnome, Greg losing 2 and Rachel losing 2."
// "Rachel now attacks Brian, Greg attacks Rachel and Brian attacks Greg. [...] Because Brian
// rolls a [6], his Gnome survives even though Rachel's roll of [5] would normally have killed
// it. After the battle the territory is held by one blue Gnome."
#[test]
fn the_rulebook_example_battle() {
    let mut state = example_battle();
    // "the player with the first player marker decide how his/her Gnomes attack, then the next
    // player in clockwise order, and so on."
    attack(&mut state, Red, Blue, 2);
    attack(&mut state, Red, Green, 1);
    attack(&mut state, Green, Red, 3);
    attack(&mut state, Blue, Red, 1);
    attack(&mut state, Blue, Green, 1);
    // "When all players have selected how their gnomes attack this round of combat, each
    // player rolls dice simultaneously": nothing is removed until the last die is rolled.
    // Rachel: 5 and 1 against Brian (Blue dies on 5+), 4 against Greg (Green dies on 4+).
    // Greg: 3, 5 and 2 against Rachel (Red dies on 3+). Brian: 2 against Rachel, 5 against Greg.
    roll(&mut state, &[5, 1, 4, 3, 5, 2, 2]);
    assert_eq!(gnomes(&state, Red, FROG), 3);
    roll(&mut state, &[5]);
    assert_eq!(gnomes(&state, Blue, FROG), 1);
    assert_eq!(gnomes(&state, Green, FROG), 1);
    assert_eq!(gnomes(&state, Red, FROG), 1);

    // "Players may choose new targets for their gnomes before each roll."
    attack(&mut state, Red, Blue, 1);
    attack(&mut state, Green, Red, 1);
    attack(&mut state, Blue, Green, 1);
    roll(&mut state, &[5, 4, 6]);
    assert_eq!(gnomes(&state, Blue, FROG), 1);
    assert_eq!(gnomes(&state, Green, FROG), 0);
    assert_eq!(gnomes(&state, Red, FROG), 0);
    // The battle is over: the loot phase ran and round 2 began with Greg (Green) first.
    assert_eq!(state.round, 2);
    reinforce_all(&mut state);
    assert_eq!(state.first, clan_index(&state, Green));
    // Casualties go back to the reserve: Red had 3 on the board, now 3 (reinforcements) at home.
    assert_eq!(gnomes(&state, Red, RED_HOME), 3);
}

// "When battling each player rolls as many dice as he/she has gnomes in the territory."
// With one enemy there is nothing to choose: all dice go against it, no decision is asked.
#[test]
fn two_clans_roll_one_die_per_gnome_without_declaring() {
    let mut state = rulebook_table();
    place(&mut state, Red, FROG, 3);
    place(&mut state, Green, FROG, 2);
    end_movements(&mut state);
    assert!(matches!(Game::next(&state), Next::Chance(_)));
    let Phase::Combat(combat) = &state.phase else {
        panic!("expected a battle")
    };
    assert_eq!(combat.dice.len(), 5);
    assert_eq!(outcomes(&state).len(), 6);
    assert!(outcomes(&state).iter().all(|(_, w)| *w == 1));
}

// "Remember that rolling the number in the heart or higher will kill the Gnome"
#[test]
fn a_die_kills_on_the_targets_number_or_higher() {
    let mut state = rulebook_table();
    place(&mut state, Red, FROG, 2);
    place(&mut state, Green, FROG, 2);
    end_movements(&mut state);
    // Red rolls 3 and 4 against Green (dies on 4+): one kill. Green rolls 3 and 2 against Red
    // (dies on 3+): one kill.
    roll(&mut state, &[3, 4, 3, 2]);
    assert_eq!(gnomes(&state, Green, FROG), 1);
    assert_eq!(gnomes(&state, Red, FROG), 1);
}

// "Additionally the white clan adds +1 to the result of all dice rolled."
#[test]
fn white_adds_one_to_its_dice() {
    let mut state = started(&Options::default(), 3, &[White, Black, Red], White);
    clear_board(&mut state);
    place(&mut state, White, FROG, 2);
    place(&mut state, Black, FROG, 2);
    end_movements(&mut state);
    // White's 4 counts as 5 and kills Black (dies on 5+); its 3 counts as 4 and does not.
    // Black's 4s miss White (dies on 5+).
    roll(&mut state, &[4, 3, 4, 4]);
    assert_eq!(gnomes(&state, Black, FROG), 1);
    assert_eq!(gnomes(&state, White, FROG), 2);
}

// "The Blue clan has the ability to revive after a battle: for each 6 they rolled, remove
// one Gnome less from the board."
#[test]
fn blue_loses_one_gnome_fewer_per_six_rolled() {
    let mut state = started(&Options::default(), 3, &[Blue, Red, Green], Blue);
    clear_board(&mut state);
    place(&mut state, Blue, FROG, 2);
    place(&mut state, Red, FROG, 3);
    end_movements(&mut state);
    // Blue rolls 6 and 1; Red hits twice (5, 6) and misses once.
    roll(&mut state, &[6, 1, 5, 6, 2]);
    assert_eq!(gnomes(&state, Blue, FROG), 1);
    assert_eq!(gnomes(&state, Red, FROG), 2);
}

// "Keep rolling until there is a maximum of 1 clan left in the Territory."
#[test]
fn combat_repeats_until_at_most_one_clan_is_left() {
    let mut state = rulebook_table();
    place(&mut state, Red, FROG, 1);
    place(&mut state, Green, FROG, 1);
    end_movements(&mut state);
    roll(&mut state, &[1, 1]);
    assert!(matches!(&state.phase, Phase::Combat(c) if c.round == 2));
    roll(&mut state, &[2, 2]);
    assert!(matches!(&state.phase, Phase::Combat(c) if c.round == 3));
    // Both hit: nobody is left, and the territory is empty.
    roll(&mut state, &[4, 3]);
    assert_eq!(gnomes(&state, Red, FROG), 0);
    assert_eq!(gnomes(&state, Green, FROG), 0);
    assert_eq!(state.round, 2);
}

// "In each territory containing gnomes from more than 1 clan, combat will need to be
// resolved." Battles are fought one territory at a time, in map order.
#[test]
fn every_shared_territory_has_a_battle() {
    let mut state = rulebook_table();
    place(&mut state, Red, FROG, 1);
    place(&mut state, Green, FROG, 1);
    place(&mut state, Blue, FLAMINGO, 1);
    place(&mut state, Yellow, FLAMINGO, 1);
    end_movements(&mut state);
    assert!(matches!(&state.phase, Phase::Combat(c) if c.territory == FROG));
    roll(&mut state, &[6, 1]);
    assert!(matches!(&state.phase, Phase::Combat(c) if c.territory == FLAMINGO));
    roll(&mut state, &[1, 6]);
    assert_eq!(state.round, 2);
    assert_eq!(gnomes(&state, Blue, FLAMINGO), 0);
    assert_eq!(gnomes(&state, Yellow, FLAMINGO), 1);
}

// "Players may split their Gnomes attack amongst the other players." Declarations are one
// group of dice at a time; every listed split applies and a wrong one is refused.
#[test]
fn dice_are_declared_one_group_at_a_time() {
    let mut state = example_battle();
    let red = seat_of(&state, Red);
    let legal = Game::legal_actions(&state, red);
    assert_eq!(
        legal,
        vec![
            Action::Attack {
                target: Green,
                dice: 3
            },
            Action::Attack {
                target: Green,
                dice: 2
            },
            Action::Attack {
                target: Green,
                dice: 1
            },
            Action::Attack {
                target: Blue,
                dice: 3
            },
            Action::Attack {
                target: Blue,
                dice: 2
            },
            Action::Attack {
                target: Blue,
                dice: 1
            },
        ]
    );
    let err = illegal(
        &state,
        Actor::Seat(red),
        Action::Attack {
            target: Blue,
            dice: 4,
        },
    );
    assert_eq!(
        err,
        RuleError::illegal("you have 3 dice left to declare, so between 1 and 3")
    );
    illegal(
        &state,
        Actor::Seat(red),
        Action::Attack {
            target: Red,
            dice: 1,
        },
    );
    illegal(
        &state,
        Actor::Seat(red),
        Action::Attack {
            target: Yellow,
            dice: 1,
        },
    );
    assert_eq!(
        illegal(
            &state,
            Actor::Seat(seat_of(&state, Green)),
            Action::Attack {
                target: Red,
                dice: 1
            }
        ),
        RuleError::NotYourDecision
    );
    attack(&mut state, Red, Green, 1);
    assert_eq!(Game::legal_actions(&state, red).len(), 4);
    let view = Game::view(&state, Viewer::Spectator);
    assert_eq!(view["step"], "declare_targets");
    assert_eq!(view["combat"]["declaring"], "red");
}
