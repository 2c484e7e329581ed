//! The cards with powers, caps and recruits: one test per card.

use super::super::data::Role;
use super::super::state::Unit;
use super::*;

/// "PC: You may have 5 …" and "HC Recruit 1 …": the cap as a permanent card, a recruit
/// (within the cap, on a garrison without a figure) from the hand.
fn cap_and_recruit(card: &str, kind: FigureKind) {
    let mut state = game(2);
    for x in 1..5 {
        put_figure(&mut state, 0, kind, Pos(x, 5));
    }
    put_garrison(&mut state, 0, Pos(6, 6));
    assert!(!state.may_gain(0, kind) || kind == FigureKind::Hero);
    let mut with = state.clone();
    give_permanent(&mut with, 0, id(card));
    assert_eq!(with.figure_cap(0, kind), 5, "{card} as a permanent card");

    let mut state = game(2);
    put_garrison(&mut state, 0, Pos(6, 6));
    give(&mut state, 0, id(card));
    let recruit = Action::RecruitWith {
        card: id(card),
        at: Pos(6, 6),
    };
    assert_eq!(
        legal(&state, 0)
            .into_iter()
            .filter(|a| matches!(a, Action::RecruitWith { .. }))
            .collect::<Vec<_>>(),
        vec![recruit.clone()],
        "{card} as a hand card"
    );
    decide(&mut state, 0, recruit);
    assert_eq!(figure_at(&state, Pos(6, 6)).unwrap().kind, kind);
    assert!(state.players[0].hand.is_empty());
    assert!(state.discard.contains(&id(card)));
}

// "Fellowship PC: You may have 5 Heroes. HC Recruit 1 Hero"
#[test]
fn fellowship() {
    cap_and_recruit("Fellowship", FigureKind::Hero);
}

// "Legions PC: You may have 5 Armies. HC Recruit 1 Armies"
#[test]
fn legions() {
    cap_and_recruit("Legions", FigureKind::Army);
}

// "School of Magic PC: You may have 5 Mages. HC Recruit 1 Mage"
#[test]
fn school_of_magic() {
    cap_and_recruit("School of Magic", FigureKind::Mage);
}

// "Breeding Pits PC: You may have 5 Monsters. HC Recruit 1 Monster"
#[test]
fn breeding_pits() {
    cap_and_recruit("Breeding Pits", FigureKind::Monster);
}

// "Oracle OT look at one opponents hand"
#[test]
fn oracle() {
    let mut state = game(3);
    give_permanent(&mut state, 0, id("Oracle"));
    give(&mut state, 1, id("Giants"));
    give(&mut state, 2, id("Demons"));
    decide(&mut state, 0, Action::Oracle { seat: 2 });
    assert_eq!(state.peeks.len(), 1);
    assert_eq!(state.peeks[0].cards, vec![id("Demons")]);
    // Once on your turn.
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Oracle { .. }))
    );
}

// "Empire OT Gain 1 Garrison in empty space adj to one you control"
#[test]
fn empire() {
    let mut state = game(2);
    give(&mut state, 0, id("Empire"));
    let spots: Vec<Pos> = legal(&state, 0)
        .into_iter()
        .filter_map(|a| match a {
            Action::Empire { at } => Some(at),
            _ => None,
        })
        .collect();
    assert_eq!(spots, vec![Pos(1, 0), Pos(0, 1), Pos(1, 1)]);
    decide(&mut state, 0, Action::Empire { at: Pos(1, 1) });
    assert_eq!(state.garrison(Pos(1, 1)), Some(0));
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Empire { .. }))
    );
}

// "Alter Terrain OT change Terrain Type of 1 Target Tile"
#[test]
fn alter_terrain() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Alter Terrain"));
    assert_eq!(state.terrain(Pos(5, 5)), Some(Terrain::Forest));
    // Two small steps: the square, then its new terrain (the other three types).
    decide(&mut state, 0, Action::AlterTerrain { at: Pos(5, 5) });
    assert_eq!(
        legal(&state, 0),
        vec![
            Action::AlterTerrainTo(Terrain::Plains),
            Action::AlterTerrainTo(Terrain::Mountains),
            Action::AlterTerrainTo(Terrain::Badlands),
            Action::CancelAlterTerrain,
        ]
    );
    assert!(state.players[0].used.is_empty());
    // A deadline cancels the half-made choice rather than pick a terrain.
    assert_eq!(
        Game::default_action(&state, 0),
        Some(Action::CancelAlterTerrain)
    );
    decide(&mut state, 0, Action::AlterTerrainTo(Terrain::Badlands));
    assert_eq!(state.terrain(Pos(5, 5)), Some(Terrain::Badlands));
    assert!(state.players[0].used.contains(&id("Alter Terrain")));
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::AlterTerrain { .. }))
    );
}

// "Haste Spell OT one target Figure gets +1 MP"
#[test]
fn haste_spell() {
    let mut state = game(2);
    give(&mut state, 0, id("Haste Spell"));
    decide(&mut state, 0, Action::Haste { figure: 1 });
    assert_eq!(state.moves_left(state.figure(1).unwrap()), 2);
}

// "Altar of Sacrifice Discard 1 of your figures to draw 2 cards"
#[test]
fn altar_of_sacrifice() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Altar of Sacrifice"));
    let army = put_figure(&mut state, 0, FigureKind::Army, Pos(3, 3));
    decide(&mut state, 0, Action::Sacrifice { figure: army });
    assert!(state.figure(army).is_none());
    let cards = spare_cards(&state, 2, &[]);
    chance(&mut state, Action::DrawCard(cards[0]));
    chance(&mut state, Action::DrawCard(cards[1]));
    assert_eq!(state.players[0].hand, cards);
    // Not once per turn.
    assert!(legal(&state, 0).contains(&Action::Sacrifice { figure: 1 }));
}

// "Alchemist OT discard X cards to draw X cards"
#[test]
fn alchemist() {
    let mut state = game(2);
    give(&mut state, 0, id("Alchemist"));
    give(&mut state, 0, id("Giants"));
    give(&mut state, 0, id("Demons"));
    decide(&mut state, 0, Action::Alchemist);
    assert_eq!(
        legal(&state, 0),
        vec![
            Action::AlchemyDiscard(id("Giants")),
            Action::AlchemyDiscard(id("Demons")),
            Action::AlchemyDone
        ]
    );
    decide(&mut state, 0, Action::AlchemyDiscard(id("Giants")));
    decide(&mut state, 0, Action::AlchemyDiscard(id("Demons")));
    decide(&mut state, 0, Action::AlchemyDone);
    assert_eq!(state.draws, 2);
    let cards = spare_cards(&state, 2, &[]);
    chance(&mut state, Action::DrawCard(cards[0]));
    chance(&mut state, Action::DrawCard(cards[1]));
    assert_eq!(state.players[0].hand, cards);
}

// "Artificer OT 1 target figure gets +1F"
#[test]
fn artificer() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Artificer"));
    decide(&mut state, 0, Action::Artificer { figure: 1 });
    let side = super::super::combat::Side {
        seat: 0,
        unit: super::super::data::UnitKind::Hero,
        figure: Some(1),
        role: Role::Attacking,
        at: Pos(1, 1),
        vs: super::super::data::UnitKind::Army,
    };
    assert_eq!(super::super::combat::force(&state, &side), 1);
}

// "Diplomat OT Switch a Permanent Card with one from your hand"
#[test]
fn diplomat() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Diplomat"));
    give_permanent(&mut state, 0, id("Wings"));
    give(&mut state, 0, id("Paladin"));
    decide(
        &mut state,
        0,
        Action::Diplomat {
            permanent: id("Wings"),
            hand: id("Paladin"),
        },
    );
    assert_eq!(
        state.players[0].permanent,
        vec![id("Diplomat"), id("Paladin")]
    );
    assert_eq!(state.players[0].hand, vec![id("Wings")]);
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Diplomat { .. }))
    );
}

// "Emperor PC: Hand Size +2 HC: Draw 3 cards"
#[test]
fn emperor() {
    let mut state = game(2);
    let mut permanent = state.clone();
    give_permanent(&mut permanent, 0, id("Emperor"));
    assert_eq!(permanent.hand_limit(0), 7);
    give(&mut state, 0, id("Emperor"));
    decide(&mut state, 0, Action::PlayCard(id("Emperor")));
    assert_eq!(state.draws, 3);
    for c in spare_cards(&state, 3, &[]) {
        chance(&mut state, Action::DrawCard(c));
    }
    assert_eq!(state.players[0].hand.len(), 3);
    assert!(matches!(state.phase, Phase::Movement));
}

// "Jester OT Switch hands with opponent who has equal or less cards"
#[test]
fn jester() {
    let mut state = game(3);
    give(&mut state, 0, id("Jester"));
    give(&mut state, 0, id("Giants"));
    give(&mut state, 1, id("Demons"));
    give(&mut state, 2, id("Wings"));
    give(&mut state, 2, id("Paladin"));
    // Playing the Jester leaves 1 card: seat 1 (1 card) qualifies, seat 2 (2 cards) not.
    let targets: Vec<Action> = legal(&state, 0)
        .into_iter()
        .filter(|a| matches!(a, Action::Jester { .. }))
        .collect();
    assert_eq!(targets, vec![Action::Jester { seat: 1 }]);
    decide(&mut state, 0, Action::Jester { seat: 1 });
    assert_eq!(state.players[0].hand, vec![id("Demons")]);
    assert_eq!(state.players[1].hand, vec![id("Giants")]);
}

// "Merchant OT Place 1 Garrison on any unoccupied City or Town"
#[test]
fn merchant() {
    let mut state = game(2);
    give(&mut state, 0, id("Merchant"));
    let spots: Vec<Pos> = legal(&state, 0)
        .into_iter()
        .filter_map(|a| match a {
            Action::Merchant { at } => Some(at),
            _ => None,
        })
        .collect();
    assert_eq!(spots.len(), 16);
    assert!(
        spots
            .iter()
            .all(|&p| matches!(state.structure(p), Some(Structure::City | Structure::Town)))
    );
    decide(&mut state, 0, Action::Merchant { at: spots[0] });
    assert_eq!(state.garrison(spots[0]), Some(0));
}

// "Polymorph OT Transform 1 of your Figures into another Type"
#[test]
fn polymorph() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Polymorph"));
    for x in 2..6 {
        put_figure(&mut state, 0, FigureKind::Mage, Pos(x, 4));
    }
    let into: Vec<FigureKind> = legal(&state, 0)
        .into_iter()
        .filter_map(|a| match a {
            Action::Polymorph { figure: 1, into } => Some(into),
            _ => None,
        })
        .collect();
    // Not into a Mage: 4 are on the map already.
    assert_eq!(into, vec![FigureKind::Monster, FigureKind::Army]);
    decide(
        &mut state,
        0,
        Action::Polymorph {
            figure: 1,
            into: FigureKind::Army,
        },
    );
    assert_eq!(state.figure(1).unwrap().kind, FigureKind::Army);
}

// "Illusionist OT Switch places of 2 of your Units"
#[test]
fn illusionist() {
    let mut state = game(2);
    give(&mut state, 0, id("Illusionist"));
    let mage = put_figure(&mut state, 0, FigureKind::Mage, Pos(5, 2));
    put_garrison(&mut state, 0, Pos(3, 3));
    decide(&mut state, 0, Action::Illusionist(Unit::Figure(mage)));
    let partners = legal(&state, 0);
    assert!(partners.contains(&Action::IllusionistSwap(Unit::Figure(1))));
    assert!(partners.contains(&Action::IllusionistSwap(Unit::Garrison(Pos(3, 3)))));
    // The garrison at [0,0] would land on the hero: two figures would share [0,0].
    assert!(!partners.contains(&Action::IllusionistSwap(Unit::Garrison(Pos(0, 0)))));
    decide(&mut state, 0, Action::IllusionistSwap(Unit::Figure(1)));
    assert_eq!(state.figure(1).unwrap().at, Pos(5, 2));
    assert_eq!(state.figure(mage).unwrap().at, Pos(0, 0));
    assert!(state.players[0].hand.is_empty());
}

// "OT = Once on your Turn": a permanent power works again next turn.
#[test]
fn permanent_powers_come_back_each_turn() {
    let mut state = game(2);
    give_permanent(&mut state, 0, id("Haste Spell"));
    decide(&mut state, 0, Action::Haste { figure: 1 });
    assert!(
        !legal(&state, 0)
            .iter()
            .any(|a| matches!(a, Action::Haste { .. }))
    );
    for _ in 0..2 {
        let spare = spare_cards(&state, 2, &[]);
        finish_turn(&mut state, spare[0], spare[1]);
    }
    assert!(legal(&state, 0).contains(&Action::Haste { figure: 1 }));
}
