//! The action type and what the game waits for (`next`: a chance step's outcomes, or the
//! seats to decide), read from the state. Which actions are legal is `legal`; applying one,
//! `play`.

use serde::{Deserialize, Serialize};

use super::data::{CardId, FigureKind, Structure, Terrain};
use super::state::{CombatStep, Phase, Pos, State, Stop, Unit};
use crate::rules::{Chance, Next, Seat};

/// An action of a player or an outcome of chance. JSON: externally tagged, snake_case, e.g.
/// `{"move":{"figure":3,"to":[4,5]}}`, `"end_movement"`, `{"draw_card":17}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    // Chance outcomes.
    /// The next space (in `[0,0]`, `[1,0]`, … order) gets a tile of this terrain.
    PlaceTile(Terrain),
    /// The next space gets a chit of this structure.
    PlaceChit(Structure),
    /// The next permanent card dealt (face up) is this card.
    DealPermanent(CardId),
    /// The card drawn into the current player's hand is this card (secret).
    DrawCard(CardId),
    /// A roll of 2D6, as its sum.
    #[serde(rename = "roll_2d6")]
    Roll2d6(u8),
    /// The recruit roll of 1D6.
    RollDie(u8),
    /// The card [`Action::DiscardAtRandom`] drew from the current player's hand: it is
    /// discarded face up.
    RandomDiscard(CardId),

    // Set-up.
    /// The corner a player starts in.
    ChooseCorner(Pos),
    /// The starting figure (or the 3-player middle seat's extra figure).
    StartFigure(FigureKind),
    DeclineExtraFigure,

    // Movement phase.
    /// Move a figure one space.
    Move {
        figure: u16,
        to: Pos,
    },
    /// Summon: move `unit` to `to`, a space adjacent to `summoner`.
    Summon {
        summoner: u16,
        unit: u16,
        to: Pos,
    },
    /// Play a hand card: its effect lasts to the end of the turn (force cards in combat too).
    PlayCard(CardId),
    Oracle {
        seat: Seat,
    },
    Empire {
        at: Pos,
    },
    /// Alter Terrain, first step: the square whose tile changes …
    AlterTerrain {
        at: Pos,
    },
    /// … second step: its new terrain type.
    AlterTerrainTo(Terrain),
    CancelAlterTerrain,
    Haste {
        figure: u16,
    },
    Alchemist,
    AlchemyDiscard(CardId),
    AlchemyDone,
    Artificer {
        figure: u16,
    },
    Diplomat {
        permanent: CardId,
        hand: CardId,
    },
    Jester {
        seat: Seat,
    },
    Merchant {
        at: Pos,
    },
    Polymorph {
        figure: u16,
        into: FigureKind,
    },
    /// The Illusionist's first unit …
    Illusionist(Unit),
    /// … and the unit it switches places with.
    IllusionistSwap(Unit),
    CancelIllusion,
    /// The Altar of Sacrifice.
    Sacrifice {
        figure: u16,
    },
    /// A hand card that recruits (Fellowship, Legions, School of Magic, Breeding Pits).
    RecruitWith {
        card: CardId,
        at: Pos,
    },
    EndMovement,

    // Combat.
    /// No (more) hand cards for this fight.
    DoneCards,

    // Recruitment phase.
    Recruit {
        figure: FigureKind,
        at: Pos,
    },

    // End phase.
    /// The optional Realignment rule.
    Realign {
        permanent: CardId,
        hand: CardId,
    },
    Discard(CardId),
    /// Discard a card drawn at random from your hand (a chance step draws it, every card of
    /// the hand alike): what a deadline discards, so that the card tells nothing of the rest
    /// of the hand (ruling 43).
    DiscardAtRandom,
    EndTurn,

    // Stops for "Once on your Turn" powers (ruling 22).
    /// End this step as usual (the Movement phase, the End phase, the Declaration phase), and
    /// stop at `Stop` to use a power there: `{"stop_before":"recruit_roll"}`.
    StopBefore(Stop),
    /// Leave a stop: the turn goes on.
    GoOn,
}

impl Action {
    pub fn is_chance(&self) -> bool {
        matches!(
            self,
            Action::PlaceTile(_)
                | Action::PlaceChit(_)
                | Action::DealPermanent(_)
                | Action::DrawCard(_)
                | Action::Roll2d6(_)
                | Action::RollDie(_)
                | Action::RandomDiscard(_)
        )
    }
}

/// The weights of a 2D6 sum: 1 way to roll 2, 2 to roll 3, … 6 to roll 7, … 1 to roll 12.
pub fn two_dice() -> Chance<Action> {
    Chance {
        outcomes: (2u8..=12)
            .map(|s| (Action::Roll2d6(s), 6 - u32::from(s.abs_diff(7))))
            .collect(),
    }
}

fn deck_chance(deck: &[CardId], make: fn(CardId) -> Action) -> Chance<Action> {
    let mut outcomes: Vec<(Action, u32)> = Vec::new();
    for &c in deck {
        match outcomes.last_mut() {
            Some((a, w)) if *a == make(c) => *w += 1,
            _ => outcomes.push((make(c), 1)),
        }
    }
    Chance { outcomes }
}

pub fn next(state: &State) -> Next<Action> {
    match &state.phase {
        Phase::Over(outcome) => Next::Over(outcome.clone()),
        Phase::Map => Next::Chance(map_chance(state)),
        Phase::Deal => Next::Chance(deck_chance(&state.deck, Action::DealPermanent)),
        Phase::Corner { seat } | Phase::StartFigure { seat } | Phase::ExtraFigure { seat } => {
            Next::Players(vec![*seat])
        }
        Phase::FirstPlayer { .. } => Next::Chance(two_dice()),
        Phase::End if state.discarding_at_random => {
            let hand = state
                .players
                .get(state.current)
                .map_or(&[][..], |p| &p.hand);
            Next::Chance(deck_chance(hand, Action::RandomDiscard))
        }
        _ if state.draws > 0 => Next::Chance(deck_chance(&state.deck, Action::DrawCard)),
        Phase::Combat(combat) => match combat.step {
            CombatStep::AttackerCards => Next::Players(vec![state.current]),
            CombatStep::DefenderCards => Next::Players(vec![combat.defender_seat]),
            CombatStep::AttackerRoll | CombatStep::DefenderRoll => Next::Chance(two_dice()),
        },
        Phase::Recruit | Phase::Allies => Next::Chance(Chance {
            outcomes: (1..=6).map(|n| (Action::RollDie(n), 1)).collect(),
        }),
        Phase::Movement | Phase::RecruitPlace { .. } | Phase::End | Phase::Stop(_) => {
            Next::Players(vec![state.current])
        }
    }
}

fn map_chance(state: &State) -> Chance<Action> {
    let outcomes = if state.board.iter().any(|s| s.terrain.is_none()) {
        Terrain::ALL
            .into_iter()
            .map(|t| (Action::PlaceTile(t), u32::from(state.tiles_left(t))))
            .filter(|(_, w)| *w > 0)
            .collect()
    } else {
        Structure::ALL
            .into_iter()
            .map(|s| (Action::PlaceChit(s), u32::from(state.chits_left(s))))
            .filter(|(_, w)| *w > 0)
            .collect()
    };
    Chance { outcomes }
}
