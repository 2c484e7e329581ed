//! The movement phase: order, blocking, and the single origin or single destination rule.

use super::*;

// "Starting with the first player, and continuing in clockwise order, each player moves
// his/her gnomes." The first player token passes on each round.
#[test]
fn clans_move_in_order_from_the_first_player() {
    let mut state = started(&Options::default(), 4, &[Red, Green, Blue, Yellow], Blue);
    let mut order = Vec::new();
    while let Some(i) = state.mover().filter(|_| state.round == 1) {
        order.push(state.clans[i].colour.unwrap());
        let seat = state.clans[i].seat;
        assert_eq!(waiting_for(&state), vec![seat]);
        decide(&mut state, seat, Action::EndMovement);
    }
    assert_eq!(order, vec![Blue, Yellow, Red, Green]);
    // No battle (everyone is at home): round 2 starts with the next player clockwise.
    assert_eq!(state.round, 2);
    reinforce_all(&mut state);
    assert_eq!(state.mover(), Some(clan_index(&state, Yellow)));
}

// "When moving your Gnomes, you can only move through territories in which you already have
// Gnomes, or territories that are empty. Therefore it is possible to block off other
// players." Gnomes may still end their move in an occupied territory (CONTENT.md).
#[test]
fn other_clans_block_movement() {
    let mut state = rulebook_table();
    place(&mut state, Green, EAST_ORCHARD, 1);
    place(&mut state, Red, BRAMBLE_PATCH, 1);
    place(&mut state, Blue, FROG, 1);
    place(&mut state, Yellow, YELLOW_HOME, 2);
    let yellow = clan_index(&state, Yellow);
    // Yellow Home touches only the East Orchard, the Bramble Patch and the Frog Statue.
    assert_eq!(
        state.destinations(yellow, YELLOW_HOME),
        vec![EAST_ORCHARD, BRAMBLE_PATCH, FROG]
    );
    // With the Frog Statue empty, Yellow can go through it to the other statues and beyond.
    place(&mut state, Blue, FROG, 0);
    let far = state.destinations(yellow, YELLOW_HOME);
    assert!(far.contains(&TOADSTOOL) && far.contains(&FLAMINGO) && far.contains(&RED_HOME));
    // Own gnomes do not block.
    place(&mut state, Blue, FROG, 1);
    place(&mut state, Yellow, FROG, 1);
    let through_own = state.destinations(yellow, YELLOW_HOME);
    assert!(through_own.contains(&GNOME_KING));
}

fn red_to_move() -> State {
    let state = rulebook_table();
    assert_eq!(state.mover(), Some(clan_index(&state, Red)));
    state
}

// "You need either a single point of origin, or a single point of destination." "Here,
// Brian may move from 3 territories onto the same territory"
#[test]
fn gathering_from_several_territories_onto_one() {
    let mut state = red_to_move();
    place(&mut state, Red, RED_HOME, 1);
    place(&mut state, Red, NORTH_OAK, 1);
    place(&mut state, Red, HEDGE_BERRIES, 1);
    let red = seat_of(&state, Red);
    decide(
        &mut state,
        red,
        Action::Move {
            from: RED_HOME,
            to: TOADSTOOL,
        },
    );
    decide(
        &mut state,
        red,
        Action::Move {
            from: NORTH_OAK,
            to: TOADSTOOL,
        },
    );
    decide(
        &mut state,
        red,
        Action::Move {
            from: HEDGE_BERRIES,
            to: TOADSTOOL,
        },
    );
    assert_eq!(gnomes(&state, Red, TOADSTOOL), 3);
    // Gathering: every further move must end on the Toadstool, so nothing can leave it.
    let legal = Game::legal_actions(&state, red);
    assert_eq!(legal, vec![Action::EndMovement]);
}

// "Here Brian may move from the same territory onto 2 different territories. (Because he has
// 2 Gnomes)."
#[test]
fn spreading_from_one_territory_onto_several() {
    let mut state = red_to_move();
    place(&mut state, Red, TOADSTOOL, 2);
    place(&mut state, Red, RED_HOME, 1);
    let red = seat_of(&state, Red);
    decide(
        &mut state,
        red,
        Action::Move {
            from: TOADSTOOL,
            to: FROG,
        },
    );
    // Still open: more from the Toadstool, or more onto the Frog Statue.
    let legal = Game::legal_actions(&state, red);
    assert!(legal.contains(&Action::Move {
        from: RED_HOME,
        to: FROG
    }));
    assert!(legal.contains(&Action::Move {
        from: TOADSTOOL,
        to: NORTH_OAK
    }));
    decide(
        &mut state,
        red,
        Action::Move {
            from: TOADSTOOL,
            to: NORTH_OAK,
        },
    );
    // Spreading from the Toadstool: the gnome at home cannot move, and the Toadstool is empty.
    let err = illegal(
        &state,
        Actor::Seat(red),
        Action::Move {
            from: RED_HOME,
            to: FROG,
        },
    );
    assert_eq!(
        err,
        RuleError::illegal(
            "all your moves this turn must start from the same territory or end in the same \
             territory"
        )
    );
    assert_eq!(Game::legal_actions(&state, red), vec![Action::EndMovement]);
    assert_eq!(gnomes(&state, Red, FROG), 1);
    assert_eq!(gnomes(&state, Red, NORTH_OAK), 1);
}

// "Gnomes can move into adjacent territories through bridges and open passages": a move
// needs a gnome at its origin and a way to its destination.
#[test]
fn impossible_moves_are_refused() {
    let mut state = red_to_move();
    place(&mut state, Red, RED_HOME, 1);
    place(&mut state, Green, NORTH_OAK, 1);
    place(&mut state, Green, TOADSTOOL, 1);
    place(&mut state, Green, HEDGE_BERRIES, 1);
    let red = Actor::Seat(seat_of(&state, Red));
    assert_eq!(
        illegal(
            &state,
            red,
            Action::Move {
                from: GREEN_HOME,
                to: FROG
            }
        ),
        RuleError::illegal("you have no gnome in Green Home")
    );
    assert!(matches!(
        illegal(&state, red, Action::Move { from: RED_HOME, to: FROG }),
        RuleError::Illegal(reason) if reason.starts_with("a gnome cannot reach Frog Statue")
    ));
    illegal(
        &state,
        red,
        Action::Move {
            from: RED_HOME,
            to: 16,
        },
    );
    illegal(
        &state,
        red,
        Action::Move {
            from: RED_HOME,
            to: RED_HOME,
        },
    );
    assert_eq!(
        illegal(
            &state,
            Actor::Seat(seat_of(&state, Green)),
            Action::EndMovement
        ),
        RuleError::NotYourDecision
    );
    // Moving into an occupied territory is allowed: that is how battles start.
    let legal = Game::legal_actions(&state, seat_of(&state, Red));
    assert!(legal.contains(&Action::Move {
        from: RED_HOME,
        to: NORTH_OAK
    }));
}
