//! The Movement phase, and the cards that change movement (move points, terrain bonuses,
//! Summons).

use super::*;

fn moves_of(state: &State, figure: u16) -> Vec<Pos> {
    legal(state, state.current)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { figure: f, to } if f == figure => Some(to),
            _ => None,
        })
        .collect()
}

fn left(state: &State, figure: u16) -> u8 {
    state.moves_left(state.figure(figure).unwrap())
}

// "Movement can be orthogonal or diagonal." / "Each Figure pays 1 Move Point to move 1 space."
#[test]
fn a_figure_moves_one_space_in_any_of_eight_directions_for_one_move_point() {
    let mut state = game(2);
    let hero = put_figure(&mut state, 0, FigureKind::Hero, Pos(3, 3));
    let mut around = moves_of(&state, hero);
    around.sort();
    let mut expected = Pos(3, 3).neighbours();
    expected.sort();
    assert_eq!(around, expected);
    assert_eq!(around.len(), 8);
    decide(
        &mut state,
        0,
        Action::Move {
            figure: hero,
            to: Pos(4, 4),
        },
    );
    assert_eq!(state.figure(hero).unwrap().at, Pos(4, 4));
    assert_eq!(left(&state, hero), 0);
    assert!(moves_of(&state, hero).is_empty());
}

// "Figures (Mages, Monsters, Armies, and Heroes) have a base Move of 1." / "Unused Moves are
// not saved."
#[test]
fn unused_move_points_are_not_saved() {
    let mut state = game(2);
    let (a, b) = (
        spare_cards(&state, 4, &[])[0],
        spare_cards(&state, 4, &[])[1],
    );
    finish_turn(&mut state, a, b);
    let (c, d) = (
        spare_cards(&state, 4, &[])[0],
        spare_cards(&state, 4, &[])[1],
    );
    finish_turn(&mut state, c, d);
    assert_eq!(state.current, 0);
    assert_eq!(left(&state, 1), 1);
}

// "Garrisons cannot Move." / "You may move some, all, or none of your Figures."
#[test]
fn only_figures_move_and_moving_is_optional() {
    let state = game(2);
    let actions = legal(&state, 0);
    assert!(actions.contains(&Action::EndMovement));
    assert!(
        actions
            .iter()
            .all(|a| !matches!(a, Action::Move { figure, .. } if *figure != 1))
    );
}

// "Figures are moved 1 at a time, 1 space at a time."
#[test]
fn moving_another_figure_ends_the_first_ones_movement() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Cavalry"));
    let army = put_figure(&mut state, 0, FigureKind::Army, Pos(3, 3));
    decide(
        &mut state,
        0,
        Action::Move {
            figure: army,
            to: Pos(3, 4),
        },
    );
    assert_eq!(left(&state, army), 1);
    decide(
        &mut state,
        0,
        Action::Move {
            figure: 1,
            to: Pos(1, 1),
        },
    );
    assert!(moves_of(&state, army).is_empty());
    let err = illegal(
        &state,
        0,
        Action::Move {
            figure: army,
            to: Pos(3, 5),
        },
    );
    assert!(err.to_string().contains("finished moving"), "{err}");
}

// "You may have a max of 1 Figure and 1 Garrison in a space." / "A Figure may not move
// through a space occupied by another figure you control unless the space is a Town."
#[test]
fn own_figures_do_not_stack_outside_towns() {
    let mut state = game(2);
    set_space(&mut state, Pos(3, 3), Terrain::Plains, Structure::Village);
    let hero = put_figure(&mut state, 0, FigureKind::Hero, Pos(3, 3));
    let army = put_figure(&mut state, 0, FigureKind::Army, Pos(3, 4));
    assert!(!moves_of(&state, hero).contains(&Pos(3, 4)));
    assert!(moves_of(&state, army).iter().all(|&p| p != Pos(3, 3)));
    // A space with only your garrison takes a figure.
    put_garrison(&mut state, 0, Pos(4, 4));
    assert!(moves_of(&state, hero).contains(&Pos(4, 4)));
}

// "Towns are crossroads. If you occupy a Town, your other units can move through it without
// using up a move point."
#[test]
fn a_figure_passes_through_an_occupied_town_for_free_and_must_move_on() {
    let mut state = game(2);
    set_space(&mut state, Pos(3, 3), Terrain::Plains, Structure::Town);
    let guard = put_figure(&mut state, 0, FigureKind::Army, Pos(3, 3));
    let hero = put_figure(&mut state, 0, FigureKind::Hero, Pos(2, 2));
    assert!(moves_of(&state, hero).contains(&Pos(3, 3)));
    decide(
        &mut state,
        0,
        Action::Move {
            figure: hero,
            to: Pos(3, 3),
        },
    );
    assert_eq!(left(&state, hero), 1);
    // Stacked in the Town: only this figure's moves are open.
    let actions = legal(&state, 0);
    assert!(!actions.contains(&Action::EndMovement));
    assert!(
        actions
            .iter()
            .all(|a| matches!(a, Action::Move { figure, .. } if *figure == hero))
    );
    assert!(moves_of(&state, guard).is_empty());
    decide(
        &mut state,
        0,
        Action::Move {
            figure: hero,
            to: Pos(4, 4),
        },
    );
    assert_eq!(left(&state, hero), 0);
    assert!(legal(&state, 0).contains(&Action::EndMovement));
}

// "It costs nothing to move through a Town you control."
#[test]
fn entering_a_town_with_your_garrison_costs_nothing_once_per_turn() {
    let mut state = game(2);
    set_space(&mut state, Pos(3, 3), Terrain::Plains, Structure::Town);
    put_garrison(&mut state, 0, Pos(3, 3));
    let hero = put_figure(&mut state, 0, FigureKind::Hero, Pos(2, 2));
    decide(
        &mut state,
        0,
        Action::Move {
            figure: hero,
            to: Pos(3, 3),
        },
    );
    assert_eq!(left(&state, hero), 1);
    decide(
        &mut state,
        0,
        Action::Move {
            figure: hero,
            to: Pos(2, 2),
        },
    );
    // Ruling: each Town is passed for free at most once a turn by a figure.
    assert_eq!(left(&state, hero), 0);
}

// "Cavalry Your Armies get +1 MP"
#[test]
fn cavalry() {
    let mut state = game(2);
    let army = put_figure(&mut state, 0, FigureKind::Army, Pos(3, 3));
    let hero = put_figure(&mut state, 0, FigureKind::Hero, Pos(5, 5));
    give_permanent(&mut state, 0, id("Cavalry"));
    assert_eq!(left(&state, army), 2);
    assert_eq!(left(&state, hero), 1);
}

// "Wings Your Monsters get +1 MP"
#[test]
fn wings() {
    let mut state = game(2);
    let monster = put_figure(&mut state, 0, FigureKind::Monster, Pos(3, 3));
    give(&mut state, 0, id("Wings"));
    assert_eq!(left(&state, monster), 1);
    // As a hand card it works to the end of the turn.
    decide(&mut state, 0, Action::PlayCard(id("Wings")));
    assert_eq!(left(&state, monster), 2);
    assert!(state.discard.contains(&id("Wings")));
}

// "Seven League Boots Your Heroes get +1 MP"
#[test]
fn seven_league_boots() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Seven League Boots"));
    assert_eq!(left(&state, 1), 2);
}

// "Cloud Walking Your Mages get +1 MP"
#[test]
fn cloud_walking() {
    let mut state = game(2);
    let mage = put_figure(&mut state, 0, FigureKind::Mage, Pos(3, 3));
    give_permanent(&mut state, 0, id("Cloud Walking"));
    assert_eq!(left(&state, mage), 2);
    assert_eq!(left(&state, 1), 1);
}

/// A hero at [3,3] of seat 0 with the terrain card; it enters [4,3] of `terrain`.
fn terrain_bonus(card: &str, terrain: Terrain, other: Terrain) {
    let mut state = game(2);
    give_permanent(&mut state, 0, id(card));
    set_space(&mut state, Pos(4, 3), terrain, Structure::Village);
    set_space(&mut state, Pos(5, 3), terrain, Structure::Village);
    set_space(&mut state, Pos(2, 3), other, Structure::Village);
    let hero = put_figure(&mut state, 0, FigureKind::Hero, Pos(3, 3));
    let other_hero = put_figure(&mut state, 0, FigureKind::Army, Pos(1, 3));
    decide(
        &mut state,
        0,
        Action::Move {
            figure: hero,
            to: Pos(4, 3),
        },
    );
    assert_eq!(
        left(&state, hero),
        1,
        "{card}: +1 MP on entering {terrain:?}"
    );
    decide(
        &mut state,
        0,
        Action::Move {
            figure: hero,
            to: Pos(5, 3),
        },
    );
    assert_eq!(left(&state, hero), 0, "{card}: once per turn");
    decide(
        &mut state,
        0,
        Action::Move {
            figure: other_hero,
            to: Pos(2, 3),
        },
    );
    assert_eq!(left(&state, other_hero), 0, "{card}: not in {other:?}");
}

// "Mountain Guides Your Figs each get +1 MP once per turn when entering Mountains"
#[test]
fn mountain_guides() {
    terrain_bonus("Mountain Guides", Terrain::Mountains, Terrain::Forest);
}

// "Forest Scouts Your Figs each get +1 MP once per turn when entering Forests"
#[test]
fn forest_scouts() {
    terrain_bonus("Forest Scouts", Terrain::Forest, Terrain::Plains);
}

// "Plains Riders Your Figs each get +1 MP once per turn when entering Plains"
#[test]
fn plains_riders() {
    terrain_bonus("Plains Riders", Terrain::Plains, Terrain::Badlands);
}

// "Desert Nomads Your Figs each get +1 MP once per turn when entering Badlands"
#[test]
fn desert_nomads() {
    terrain_bonus("Desert Nomads", Terrain::Badlands, Terrain::Mountains);
}

/// "Summon = Move 1 of your Units of the indicated type to a space adj to the summoning unit.
/// This counts as the summoned units move for the turn."
fn summons(card: &str, by: FigureKind, brings: FigureKind, other: FigureKind) {
    let mut state = game(2);
    give_permanent(&mut state, 0, id(card));
    let summoner = put_figure(&mut state, 0, by, Pos(5, 5));
    let unit = put_figure(&mut state, 0, brings, Pos(1, 6));
    let not_this = put_figure(&mut state, 0, other, Pos(2, 6));
    let options: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Summon { .. }))
        .collect();
    assert!(
        options.contains(&Action::Summon {
            summoner,
            unit,
            to: Pos(5, 4)
        }),
        "{card}"
    );
    assert!(
        options
            .iter()
            .all(|a| matches!(a, Action::Summon { unit: u, .. } if *u == unit))
    );
    assert!(
        options
            .iter()
            .all(|a| !matches!(a, Action::Summon { unit: u, .. } if *u == not_this))
    );
    decide(
        &mut state,
        0,
        Action::Summon {
            summoner,
            unit,
            to: Pos(5, 4),
        },
    );
    assert_eq!(state.figure(unit).unwrap().at, Pos(5, 4));
    assert!(
        moves_of(&state, unit).is_empty(),
        "{card}: the summoned unit's move is used"
    );
    assert!(
        legal(&state, 0)
            .iter()
            .all(|a| !matches!(a, Action::Summon { .. }))
    );
}

// "Magic Gate Mages may Summon Monsters"
#[test]
fn magic_gate() {
    summons(
        "Magic Gate",
        FigureKind::Mage,
        FigureKind::Monster,
        FigureKind::Army,
    );
}

// "Dragon Riders Monsters may Summon Heroes"
#[test]
fn dragon_riders() {
    let mut state = game(2);
    // The starting hero would be a second summon target: take it off.
    state.figures.retain(|f| f.id != 1);
    state.next_figure = 10;
    let _ = &mut state;
    summons_from(
        state,
        "Dragon Riders",
        FigureKind::Monster,
        FigureKind::Hero,
        FigureKind::Mage,
    );
}

fn summons_from(
    mut state: State,
    card: &str,
    by: FigureKind,
    brings: FigureKind,
    other: FigureKind,
) {
    give_permanent(&mut state, 0, id(card));
    let summoner = put_figure(&mut state, 0, by, Pos(5, 5));
    let unit = put_figure(&mut state, 0, brings, Pos(1, 6));
    put_figure(&mut state, 0, other, Pos(2, 6));
    decide(
        &mut state,
        0,
        Action::Summon {
            summoner,
            unit,
            to: Pos(4, 4),
        },
    );
    assert_eq!(state.figure(unit).unwrap().at, Pos(4, 4));
    assert!(moves_of(&state, unit).is_empty());
}

// "Horn of Valhalla Heroes may Summon Armies"
#[test]
fn horn_of_valhalla() {
    summons(
        "Horn of Valhalla",
        FigureKind::Hero,
        FigureKind::Army,
        FigureKind::Mage,
    );
}

// "Summon = Move 1 of your Units …": a summoned unit entering an enemy space fights.
#[test]
fn a_summon_into_an_enemy_space_is_an_attack() {
    let mut state = game(2);
    give(&mut state, 0, id("Horn of Valhalla"));
    decide(&mut state, 0, Action::PlayCard(id("Horn of Valhalla")));
    let army = put_figure(&mut state, 0, FigureKind::Army, Pos(5, 0));
    put_garrison(&mut state, 1, Pos(1, 1));
    decide(
        &mut state,
        0,
        Action::Summon {
            summoner: 1,
            unit: army,
            to: Pos(1, 1),
        },
    );
    assert!(matches!(state.phase, Phase::Combat(_)));
    chance(&mut state, Action::Roll2d6(8));
    chance(&mut state, Action::Roll2d6(2));
    assert_eq!(state.garrison(Pos(1, 1)), None);
    assert_eq!(state.figure(army).unwrap().at, Pos(1, 1));
}
