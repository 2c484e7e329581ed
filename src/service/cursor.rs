//! The cursors of the API's lists (issue 19, "cursor pagination … the same shape
//! everywhere"). A list answers a page and `next`, the cursor of the page after it (`null` on
//! the last page); the client sends it back as `?cursor=` and does not read it. A keyset
//! cursor names the last item of the page by its sort key and id, so a page never skips or
//! repeats an item because others were added or removed before it.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::ServiceError;

/// The cursor after an item with this sort key and id: `<microseconds>_<id>`.
pub fn encode(at: DateTime<Utc>, id: Uuid) -> String {
    format!("{}_{}", at.timestamp_micros(), id.simple())
}

/// The form the OpenAPI document gives a keyset cursor (`http::openapi_refine`).
pub const PATTERN: &str = "^-?[0-9]{1,16}_[0-9a-fA-F]{32}$";
/// The form it gives a cursor that is a row number (messages, webhook deliveries); empty is
/// the first page, as no cursor is.
pub const SEQ_PATTERN: &str = "^([0-9]{1,18})?$";

fn digits(s: &str, max: usize) -> bool {
    (1..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

/// The sort key and id a cursor of [`encode`] names; a 400 problem for anything else, and
/// exactly for what [`PATTERN`] refuses (16 digits of microseconds reach past the year 2200).
pub fn decode(cursor: &str) -> Result<(DateTime<Utc>, Uuid), ServiceError> {
    let parsed = cursor.split_once('_').and_then(|(micros, id)| {
        let unsigned = micros.strip_prefix('-').unwrap_or(micros);
        let of_the_form =
            digits(unsigned, 16) && id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit());
        if !of_the_form {
            return None;
        }
        Some((
            DateTime::from_timestamp_micros(micros.parse().ok()?)?,
            Uuid::try_parse(id).ok()?,
        ))
    });
    parsed.ok_or_else(bad)
}

/// A row-number cursor ([`SEQ_PATTERN`]): `None` for the first page (no cursor, or an empty
/// one); a 400 problem for anything else.
pub fn decode_seq(cursor: Option<&str>) -> Result<Option<i64>, ServiceError> {
    match cursor {
        None | Some("") => Ok(None),
        Some(c) if digits(c, 18) => c.parse().map(Some).map_err(|_| bad()),
        Some(_) => Err(bad()),
    }
}

/// The refusal of a cursor no list gave out.
pub fn bad() -> ServiceError {
    ServiceError::BadCursor(
        "`cursor` is not one this list gave out: send back the `next` of the page before, \
         unchanged"
            .into(),
    )
}

/// A page from `limit + 1` rows: the first `limit`, and the cursor after the last of them
/// when there are more.
pub fn page<T>(
    mut rows: Vec<T>,
    limit: i64,
    key: impl Fn(&T) -> String,
) -> (Vec<T>, Option<String>) {
    let limit = usize::try_from(limit).unwrap_or(0);
    if rows.len() > limit {
        rows.truncate(limit);
        let next = rows.last().map(key);
        (rows, next)
    } else {
        (rows, None)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn cursors_come_back_as_they_went_and_others_are_refused() {
        let at = DateTime::from_timestamp_micros(1_764_000_000_123_456).unwrap();
        let id = Uuid::new_v4();
        assert_eq!(decode(&encode(at, id)).unwrap(), (at, id));
        // Every value of the documented form decodes, the widest included.
        for micros in ["9999999999999999", "-9999999999999999", "0"] {
            for id in [
                "0123456789abcdef0123456789ABCDEF",
                "ffffffffffffffffffffffffffffffff",
            ] {
                assert!(decode(&format!("{micros}_{id}")).is_ok(), "{micros}_{id}");
            }
        }
        assert_eq!(decode_seq(Some("0")).unwrap(), Some(0));
        assert_eq!(
            decode_seq(Some("999999999999999999")).unwrap(),
            Some(999_999_999_999_999_999)
        );
        assert_eq!(decode_seq(Some("")).unwrap(), None);
        assert_eq!(decode_seq(None).unwrap(), None);
        for bad in ["-1", "+1", " 1", "1.0", "1e3", "9999999999999999999"] {
            assert!(decode_seq(Some(bad)).is_err(), "{bad}");
        }
        // Nothing outside the form, even what a lenient parser would take.
        for bad in [
            "",
            "nonsense",
            "12_notauuid",
            "x_00000000000000000000000000000000",
            "_",
            "+12_00000000000000000000000000000000",
            "12_00000000-0000-0000-0000-000000000000",
            "12345678901234567_00000000000000000000000000000000",
            " 12_00000000000000000000000000000000",
        ] {
            assert!(
                matches!(decode(bad), Err(ServiceError::BadCursor(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_page_has_a_next_only_when_more_rows_came() {
        let key = |n: &i32| n.to_string();
        assert_eq!(page(vec![1, 2, 3], 2, key), (vec![1, 2], Some("2".into())));
        assert_eq!(page(vec![1, 2], 2, key), (vec![1, 2], None));
        assert_eq!(page(Vec::<i32>::new(), 2, key), (vec![], None));
    }
}
