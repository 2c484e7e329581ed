//! Who an invitation holds a seat for: the same mailbox, and the seats open to an address
//! while invitations are pending (issue 35). Joining a game and answering an invitation both
//! decide by these.

use crate::store::models::Invitation;

/// The seats `email` may take now in a game of `seat_count` seats whose seats `taken` are
/// held by players, given the game's `pending` invitations: the free seats that no other
/// address's invitation names; and for an address with no pending invitation of its own,
/// only while more of those are free than other invited addresses wait for a seat (so every
/// invitee still finds one). `Err` says why not, in words for the one who asked.
pub fn seats_open_to(
    email: &str,
    seat_count: i32,
    taken: &[i32],
    pending: &[Invitation],
) -> std::result::Result<Vec<i32>, String> {
    let others: Vec<&Invitation> = pending
        .iter()
        .filter(|i| !same_address(&i.email, email))
        .collect();
    let invited = others.len() < pending.len();
    let free: Vec<i32> = (0..seat_count)
        .filter(|s| !taken.contains(s) && !others.iter().any(|i| i.seat == Some(*s)))
        .collect();
    if free.is_empty() {
        return Err(if (0..seat_count).all(|s| taken.contains(&s)) {
            "every seat is taken".into()
        } else {
            "every free seat is held for an invited player".into()
        });
    }
    if invited {
        return Ok(free);
    }
    let mut waiting: Vec<String> = others
        .iter()
        .filter(|i| i.seat.is_none_or(|s| !taken.contains(&s)))
        .map(|i| i.email.trim().to_lowercase())
        .collect();
    waiting.sort();
    waiting.dedup();
    // Invitees with a named seat wait for that one, which is not in `free`.
    let named: Vec<String> = others
        .iter()
        .filter(|i| i.seat.is_some())
        .map(|i| i.email.trim().to_lowercase())
        .collect();
    let unnamed = waiting.iter().filter(|a| !named.contains(a)).count();
    if free.len() > unnamed {
        Ok(free)
    } else {
        Err(
            "every free seat is held for an invited player until the invitation is \
             answered or expires"
                .into(),
        )
    }
}

/// Whether two addresses are the same mailbox as Turnpost counts them (accounts are unique
/// by address without case).
pub fn same_address(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use uuid::Uuid;

    use super::*;

    fn invited(email: &str, seat: Option<i32>) -> Invitation {
        let now = Utc::now();
        Invitation {
            id: Uuid::new_v4(),
            game_id: Uuid::nil(),
            seat,
            email: email.into(),
            invited_by: Uuid::nil(),
            created_at: now,
            accepted_by: None,
            accepted_at: None,
            expires_at: now + chrono::TimeDelta::days(7),
            declined_at: None,
        }
    }

    // Issue 35: "Invited seats are held for their invitees until the invitation expires or
    // is declined (not shown as open to strangers)".
    #[test]
    fn invited_seats_are_held_for_their_invitees() {
        let pending = [invited("alma@x.test", None), invited("cy@x.test", Some(2))];
        // Seat 0 is Bea's; seat 1 waits for Alma, seat 2 is Cyril's: nothing for a stranger.
        assert!(seats_open_to("eve@x.test", 3, &[0], &pending).is_err());
        assert_eq!(seats_open_to("ALMA@x.test", 3, &[0], &pending), Ok(vec![1]));
        assert_eq!(
            seats_open_to("cy@x.test", 3, &[0], &pending),
            Ok(vec![1, 2])
        );
        // A fourth seat is open to anybody; with no invitation pending, every free seat is.
        assert_eq!(
            seats_open_to("eve@x.test", 4, &[0], &pending),
            Ok(vec![1, 3])
        );
        assert_eq!(seats_open_to("eve@x.test", 3, &[0], &[]), Ok(vec![1, 2]));
        assert_eq!(
            seats_open_to("eve@x.test", 2, &[0, 1], &[]),
            Err("every seat is taken".into())
        );
    }
}
